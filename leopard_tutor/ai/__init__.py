"""Computer opponents at five levels (`LEVELS`) and hints that explain, all reading only a player's view."""

from ..protocol import LEVELS
from .hints import Hint, hint
from .players import AIError, BeginnerPlayer, ExpertPlayer, IntermediatePlayer, MasterPlayer, Player, make_player

__all__ = ["LEVELS", "AIError", "BeginnerPlayer", "ExpertPlayer", "Hint", "IntermediatePlayer", "MasterPlayer",
           "Player", "hint", "make_player"]
