"""The rules of Leopard, exactly, with a reason in words for every verdict (standard library only)."""

from .cards import ALL_CARDS, SUIT_NAMES, SUIT_SYMBOLS, SUITS, Card, full_deck, rank_words
from .errors import IllegalMove, LeopardError, NotationError, SavedGameError
from .hand import Hand
from .legality import Verdict, allowed_spaces, check_play, face_up_ranks
from .match import Match
from .moves import Discard, EndTurn, GoOut, Move, Play, move_notation, parse_move
from .placement import PLACEMENT, Placement, lies_face_down
from .rules import LINES, ORIGINAL_1963, REVISED_2008, RULE_SETS, RUNNING_LEOPARD, RuleSet, rules_by_key
from .scoring import ScoreParts, ScoringLine, bonus, hand_score, line_points, score_parts, scoring_lines, square_value
from .square import Hidden, Square
from .values import BonusRow, bonus_table, highest_value, impossible_values, possible_values
from .view import PlayerView

__all__ = [
    "ALL_CARDS", "LINES", "ORIGINAL_1963", "PLACEMENT", "REVISED_2008", "RULE_SETS", "RUNNING_LEOPARD",
    "SUITS", "SUIT_NAMES", "SUIT_SYMBOLS",
    "BonusRow", "Card", "Discard", "EndTurn", "GoOut", "Hand", "Hidden", "IllegalMove", "LeopardError", "Match", "Move",
    "NotationError", "Placement", "Play", "PlayerView", "RuleSet", "SavedGameError", "ScoreParts", "ScoringLine",
    "Square",
    "Verdict", "allowed_spaces", "bonus", "bonus_table", "check_play", "face_up_ranks", "full_deck", "hand_score",
    "highest_value", "impossible_values", "lies_face_down", "line_points", "move_notation", "parse_move",
    "possible_values", "rank_words", "rules_by_key", "score_parts", "scoring_lines", "square_value",
]
