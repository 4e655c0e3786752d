"""The Play section: the board (the table, with the end-of-hand breakdown, the score sheet and the move
log in its side column) under ordinary controls: rules, opponent (a computer level, or someone at this
device, with the two players' names), new match, share this deal."""

from __future__ import annotations

import dataclasses
import html
import logging
import weakref
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import ipywidgets as W

from ..ai import LEVELS
from ..ai.adaptive import AdaptiveLevel
from ..ai.players import AIError, how_it_plays
from ..class_codes import player_name
from ..client.class_client import ClassClient, sealing_key
from ..deals import deal_link, deal_seed, new_deal_code
from ..engine import RULE_SETS, LeopardError, Match, RuleSet, rules_by_key
from ..engine.catalogue import text
from ..engine.game_code import SavedGame, game_code, read_game_code
from ..protocol import ADAPTIVE, CLASSMATE, LEVEL_CHOICES
from ..protocol import COMPUTER as COMPUTER_PREFIX
from ..table import Chooser, HintFn, PassingDevice, Seating, Table, against_computer, at_one_device
from ..table.class_table import ClassTable, ComputerFinish
from .ask_first import AskFirst
from .board import LeopardBoard
from .class_panel import ClassPanel
from .copy_button import CopyButton
from .game_saver import GameSaver
from .match_keeper import MatchKeeper
from .newcomer import Newcomer
from .section import SectionDefaults, SectionPlace

if TYPE_CHECKING:
    from ..client.student_client import StudentRecord

log = logging.getLogger(__name__)

OpponentFactory = Callable[[str, int | None], Chooser]
"""`factory(level, seed)`: a computer opponent of that level (seeded for a shared deal, else None)."""
PEOPLE = "people"
"""The opponent menu's choice of someone at this device, the two taking turns with it."""
COMPUTER = "computer"
"""A match against the computer, as a kind of match set aside (the opponent menu names its levels)."""


def under_way(table: Table) -> bool:
    """Whether `table`'s match is begun by the people here (`Table.begun`) and not over: worth keeping."""
    return table.begun and not table.match.is_over


def between_classmates(table: Table) -> bool:
    """Whether `table` is a class table's match between classmates (one the computer finished is a match against
    the computer)."""
    return isinstance(table, ClassTable) and table.opponent is None


def kind_of(table: Table) -> str:
    """The kind of opponent a match is kept aside under: `PEOPLE` (both players at this device) or `COMPUTER`."""
    return PEOPLE if table.both_here else COMPUTER


@dataclasses.dataclass(frozen=True)
class FinishedMatch:
    """A class table's match that the computer finished (or was finishing) in a gone classmate's seat, as the browser
    kept it (`MatchKeeper`): the match and the computer's level, as a saved game, and the table it was played at."""

    game: SavedGame
    finish: ComputerFinish


KeptMatch = SavedGame | FinishedMatch
"""A match the browser kept: a saved game against the computer, or a class table's match the computer finished."""


def _saved_game(kept: KeptMatch) -> SavedGame:
    """The saved game of a match the browser kept."""
    return kept.game if isinstance(kept, FinishedMatch) else kept


@dataclasses.dataclass(frozen=True)
class PlayPlace:
    """What Play carries into another language: the match against the computer on the board, as a saved game's
    code (None: none), and the matches kept aside, by kind and rules (`PlaySection.set_aside`), the game between two
    people on the board among them."""

    code: str | None
    kept: dict[tuple[str, str], Table] = dataclasses.field(default_factory=dict)
    people: str | None = None
    """The rules of the game between two people at this device on the board (None: they were not chosen), kept among
    `kept` under those rules and taken up again: no code holds two people's hands."""
    finished: tuple[Table, str] | None = None
    """A class table's match the computer finished, on the board, and the level it plays at (None: none): taken up
    again as it is, since a code seats the learner first, where a class table may not (once it is over, made again
    as it ended, its end said in the new language)."""
    round_match: bool = False
    """Whether the match of `code` is the one the teacher's round dealt (told and kept as such before a move)."""
    begun: bool = True
    """Whether the learner had begun the match of `code` (`under_way`, or played to its end): one not begun is said to
    have begun, not to go on where it was (a page that opens in the browser's language carries the match it dealt in
    the server's)."""
    adaptive: dict[str, Any] | None = None
    """The adaptive choice the match of `code` was played under (`PlaySection.adaptive_kept`), chosen again with it."""


UNCOUNTED: weakref.WeakSet[Match] = weakref.WeakSet()
"""The matches resumed in this kernel from a code the class server's key did not seal: played, never told to the
class page (their moves are whatever the code's maker wrote), and never sealed again; the kernel's, not a section's,
so that a match handed to the section drawn again in another language stays in it."""

class PlaySection(SectionDefaults, W.VBox):  # type: ignore[misc]
    """A whole match against the computer, in one widget."""

    id = "play"

    def __init__(self, controller: Table, opponent_factory: OpponentFactory | None = None,
                 level: str = "beginner", address: Callable[[], str] = lambda: "",
                 class_client: ClassClient | None = None) -> None:
        """With a `class_client` (on a class server), the opponent menu offers a classmate too."""
        self.controller = controller
        self.hinter = controller.hinter
        """The hints of every match this section begins against the computer (a class table's own are none)."""
        self.opponent_factory = None if opponent_factory is None else self._remembering(opponent_factory)
        self._kept_opponent = opponent_factory  # (not noted: a match kept aside is not played at the learner's level)
        self.code_key = sealing_key()
        """The key this section seals its saved-game codes with on a class server (`client.class_client.sealing_key`;
        None elsewhere)."""
        self.uncounted = UNCOUNTED
        self.address = address
        self._opening = False
        self._putting_back = False
        self.board = LeopardBoard(controller)
        self.rules_pick = W.Dropdown(options=[(text(f"rules.menu.{key}"), key) for key in RULE_SETS],
                                     value=controller.rules.key, description=text("play.controls.rules"))
        choices = [*((text(f"levels.names.{name}"), name) for name in LEVEL_CHOICES),
                   (text("play.people.choice"), PEOPLE)]
        if class_client is not None and opponent_factory is not None:
            choices.append((text("classmates.choice"), CLASSMATE))
        self.level_pick = W.Dropdown(options=choices,
                                     value=level, description=text("play.controls.opponent"),
                                     disabled=opponent_factory is None)
        self.names = [W.Text(value="", description=text("play.people.name_label", number=number),
                             placeholder=text("play.people.name_placeholder", number=number), continuous_update=False)
                      for number in (1, 2)]
        for index, field in enumerate(self.names):
            field.add_class(f"lt-player-name-{index + 1}")
            field.observe(lambda change, i=index: self._name_changed(i, change), names="value")
        self.names_row = W.HBox(self.names, layout=W.Layout(display="none", flex_flow="row wrap"))
        self.names_row.add_class("lt-controls")
        self.names_row.add_class("lt-player-names")
        self.adaptive: AdaptiveLevel | None = None
        self._own_level = level if level in LEVELS else LEVELS[0]
        """The level of the last computer opponent this section made (`opponent_level`)."""
        self._adaptive_skips: weakref.WeakSet[Match] = weakref.WeakSet()
        """The matches the adaptive choice does not count: those the learner had begun (or that were over) when it was
        chosen, played in part against another opponent, and those it has counted already."""
        self._round_match: Match | None = None  # the last match against the computer a teacher's round dealt here
        # (or that a reload took up from the browser before the learner's first move, which only such a match is)
        self._told: object = None  # the match whose end the match listeners were told
        self._told_hand: tuple[object, int] = (None, 0)  # the match and number of the last hand they were told of
        self.match_listeners: list[Callable[[str, str | None, Match], None]] = []
        """Called once per hand played to its end, with the opponent ("computer:LEVEL" or "classmate"), None and the
        match (its hand in play is that hand); then, once per match against the computer that ends, with the
        opponent, the result from the learner's seat ("won", "drawn", "lost") and the match (a match between
        classmates is its table's to count); not for a match between two people at this device."""
        self.new_button = W.Button(description=text("play.controls.new_match"))
        self.share_button = W.Button(description=text("play.share.button"), tooltip=text("play.share.tooltip"))
        self.share = W.HTML(layout=W.Layout(display="none"))
        self.share.add_class("lt-share")
        self.share_copy = CopyButton(description=text("play.share.copy"), layout=W.Layout(display="none"),
                                     on_copied=lambda ok: self.board.control(lambda: self.controller.tell(
                                         text("play.share.copied" if ok else "play.share.not_copied"))))
        """Copies the link shown (`show_share_link`), shown with it."""
        self.share_copy.add_class("lt-share-copy")
        self.share.observe(lambda _change: self._sync_share_copy(), names="value")
        self.share.layout.observe(lambda _change: self._sync_share_copy(), names="display")
        self.new_button.on_click(lambda _b: self.board.control(self._new_match_pressed))
        self.new_question = AskFirst("play.new_match_question", start=self._new_match_asked,
                                   back=self.new_button.focus)
        self.share_button.on_click(lambda _b: self.board.control(self.show_share_link))
        self.rules_pick.observe(self._rules_changed, names="value")
        self.level_pick.observe(self._level_changed, names="value")
        for pick in (self.rules_pick, self.level_pick):
            self.board.redeals(pick)
        self.board.listeners.append(lambda _intent: self._tell_match())
        self.board.listeners.append(lambda _intent: self._count_match())
        self.board.listeners.append(lambda _intent: self._sync_buttons())
        self.board.listeners.append(self._next_table)
        self.table_listeners: list[Callable[[], None]] = []
        """Called each time a class table comes to the board (opened or joined here, or seated by the server)."""
        self.come_forward: list[Callable[[], None]] = []
        """Called when the section begins a match by itself (a round the teacher paired): the app shows it."""
        self.set_aside: dict[tuple[str, str], Table] = {}
        """A match under way put aside, by its kind (`COMPUTER`, or `PEOPLE` at this device) and its rules, when another
        kind of opponent or other rules were chosen, or a class table came; taken up again when both are chosen
        again."""
        controls = W.HBox([self.rules_pick, self.level_pick, self.new_button, self.share_button])
        controls.add_class("lt-controls")
        self.picks_note = W.HTML(layout=W.Layout(display="none"))
        """Why the Rules and Opponent menus are greyed (`lt-menus-why`: their description while greyed, page_roles.js
        keeping them in the Tab order; a menu's own tooltip reaches no page, ipywidgets 8 putting a Dropdown's only
        where it has no description), then why the row's buttons are greyed with them, shown while the keyboard is in
        the row (app.css)."""
        self.picks_note.add_class("lt-picks-note")
        self.picks_note.add_class("lt-unseen")
        self.saver = GameSaver(self)
        for greyed in (self.rules_pick, self.level_pick, self.new_button, self.share_button, self.saver.save_button,
                       self.saver.resume_button):
            greyed.add_class("lt-says-why")  # a press while greyed shows why (page_roles.js): a finger has no hover
        self.saver.code.observe(lambda _change: self._sync_buttons(), names="value")  # Resume waits for a code
        self.keeper = MatchKeeper(self)
        self.board.listeners.append(lambda _intent: self.keeper.save())
        self._deal_opened = False  # a shared deal was opened here: a match the browser kept does not replace it
        self._link_asks: tuple[str | None, str | None] = (None, None)  # the rules and level a link asked for
        self._link_deal: str | None = None  # the deal a link opened here last (`_unbegun_link_deal`)
        self._reload_resumed = False  # the board's match is this tab's own, given back on a reload
        self._sync_buttons()
        self.classmates: ClassPanel | None = None
        self._classmate_name = ""  # the student's name `offer_classmate_name` last put in the classmate name box
        self.name_listeners: list[Callable[[str], bool]] = []
        """Asked to keep the name a class table is to be opened or joined under (the header keeps it: one name);
        each says whether it kept it."""
        self._link_table: str | None = None  # a table link's code, offered once the student has a name
        self.link_used_listeners: list[Callable[[str], None]] = []
        """Called with a teacher's link setting once it has been followed ("table": its table offered)."""
        self.open_learn: Callable[[], object] | None = None
        """Opens Learn, where the app has it: the newcomer's pointer goes there (the app shows it, `Newcomer`)."""
        self.newcomer = Newcomer(lambda: self.open_learn() if self.open_learn is not None else None)
        self.newcomer_wanted = False
        """Whether the app would point this visitor to Learn (`want_newcomer`)."""
        shared = W.HBox([self.share, self.share_copy], layout=W.Layout(flex_flow="row wrap"))
        shared.add_class("lt-shared")
        parts = [self.newcomer, controls, self.new_question, self.names_row, shared, self.board, self.saver,
                 self.keeper.storage]
        if class_client is not None and opponent_factory is not None:
            self.classmates = self._class_panel(class_client, opponent_factory)
            controls.children = (*controls.children, *self.classmates.table_buttons)  # a turn keeps the height
            parts.insert(3, self.classmates.leave_question)  # (under the row, beside New match's)
            parts.insert(5, self.classmates)
        controls.children = (*controls.children, self.picks_note)  # read after the row; shown under it (app.css)
        super().__init__(parts)
        self.add_class("lt-section")
        self.add_class("lt-play")

    def _remembering(self, factory: OpponentFactory) -> OpponentFactory:
        """`factory`, noting the level of each opponent it makes (the learner's own level, when the menu names
        none)."""
        def make(level: str, seed: int | None) -> Chooser:
            self._own_level = level
            return factory(level, seed)
        return make

    def _sync_buttons(self) -> None:
        """The section's own buttons as the table offers them (offers.py): greyed, with why in their title, where
        the table does not offer them (a class table's new match, deal, code and resumed game; a code between two
        people), and Resume while its box holds no code. At a class table the menus show its rules and are greyed
        too, why read out after them."""
        self._forward_choice()
        offered = self.controller.offers()
        found = dict(offered)
        if not found["resume"] and not self.saver.code.value.strip():  # nothing to resume yet: greyed, saying why
            found["resume"] = text("play.saved_game.empty")
        for button, action in ((self.new_button, "new_game"), (self.share_button, "share"),
                               (self.saver.save_button, "save"), (self.saver.resume_button, "resume")):
            with button.hold_sync():  # greyed and its reason in one message: never greyed without saying why
                button.disabled = bool(found[action])
                button.tooltip = found[action] or self._tooltips.get(action, "")
        self.saver.code.disabled = bool(offered["resume"])  # (an empty box takes a code)
        self.saver.say_why([found["save"], found["resume"]])  # on the screen too, not only in a title
        self.saver.forget_stale()  # (a code shown holds the match as it stood: no other)
        if self.new_question.asked and (found["new_game"] or not under_way(self.controller)):
            self.new_question.drop()  # New match's question no longer holds: nothing under way would end
        if found["rules_menu"] and self.rules_pick.value != self.controller.rules.key:
            self._put_back(self.rules_pick, self.controller.rules.key)
        self.rules_pick.disabled = bool(found["rules_menu"])
        self.level_pick.disabled = bool(found["opponent_menu"]) or self.opponent_factory is None
        menus = found["rules_menu"] or found["opponent_menu"]
        others = [why for why in dict.fromkeys((found["new_game"], found["share"])) if why and why != menus]
        self.picks_note.value = (f"<p class='lt-menus-why'>{html.escape(menus)}</p>"
                                 + (f"<p>{html.escape(' '.join(others))}</p>" if others else "")) if menus else ""
        self.picks_note.layout.display = "" if menus else "none"

    def _forward_choice(self) -> None:
        """Tell the table on the board whether "A classmate" is chosen while it is no class table between classmates
        (`Table.classmate_chosen`: a new match is then a class table's)."""
        table = self.controller
        table.classmate_chosen = str(self.level_pick.value) == CLASSMATE and not between_classmates(table)

    @property
    def _tooltips(self) -> dict[str, str]:
        return {"share": text("play.share.tooltip"), "save": text("play.saved_game.save_tooltip"),
                "resume": text("play.saved_game.resume_tooltip")}

    def _new_match_pressed(self) -> None:
        """New match: a new match at once, unless the match on the board is under way (`under_way`): then a question
        first, since the new match takes its place. Not offered (offers.py), it says why and deals nothing."""
        refused = self.controller.offers()["new_game"]
        if refused:
            self.controller.say(refused, "warn")
        elif under_way(self.controller):
            self.new_question.ask()
        else:
            self.new_match()

    def _new_match_asked(self) -> None:
        """The question's Start a new match pressed: the new match, the keyboard on its table (the button pressed is
        gone with the question: it was left on the page itself)."""
        if self.board.control(self.new_match):
            self.board.focus_table()

    def new_match(self, deal: str | None = None) -> None:
        """A new match under the chosen rules, of the given deal (else a fresh one). In place of a class table's match
        that the computer finished, a new table against the computer at the level chosen: its seats were the class
        table's, where the learner may sit second."""
        self.share.value, self.share.layout.display = "", "none"
        table, seed = self.controller, deal or new_deal_code()
        if isinstance(table, ClassTable) and table.computer_sat is not None and self.opponent_factory is not None:
            self._seat(against_computer(self.opponent_factory(self.opponent_level(), None),
                                        **{**self._table_options(), "seed": seed}))
            return
        table.new_match(rules_by_key(self.rules_pick.value), seed=seed)

    def open_deal(self, *, rules: str | None = None, level: str | None = None, deal: str | None = None) -> None:
        """Start the match a link asks for: these rules, this opponent, this deal (each only if given).

        With a deal, the opponent is seeded by it too, so everyone with the link meets the same replies. Nothing
        changes while this page sits at a class table (a reload there): the table plays its own match."""
        if self.at_class_table():
            return
        factory = self.opponent_factory
        self._deal_opened = self._deal_opened or deal is not None
        if deal is not None:
            self._link_deal = deal
        if rules is not None or level is not None:
            self._link_asks = (rules, level)
        current = self.controller
        if (deal is not None and not isinstance(current, ClassTable) and under_way(current) and self._reload_resumed
                and (current.match.seed, current.rules.key) == (deal, rules or current.rules.key)):
            return  # this deal is on the board already, played on (a reload whose browser gave it back first)
        if (deal is None and not isinstance(current, ClassTable) and under_way(current) and self._reload_resumed
                and not self._asked_otherwise(current.rules.key, str(self.level_pick.value))):
            return  # this link's match is on the board already, played on (likewise)
        self._show_choice(rules, level)
        kept = ""
        if factory is not None and (level is not None or deal is not None) and not self.people:
            kept = self._keep_aside()  # a match the browser gave back first, played on: kept, not dealt over
            self._seat_computer(factory(self.opponent_level(), None if deal is None else deal_seed(deal)))

        def begin() -> None:
            away = self._away_said(self.controller)  # (it holds of the new match too: said still)
            self.new_match(deal)
            if away or kept:
                self.controller.say(" ".join(part for part in (away, self.controller.message, kept) if part))
        self.board.act(begin)

    def watch_rules(self, follow: Callable[[RuleSet], None]) -> None:
        """Call `follow` with the rules in play, now and after every change that may have changed them."""
        self.board.listeners.append(lambda _intent: follow(self.controller.rules))
        follow(self.controller.rules)

    @property
    def people(self) -> bool:
        """Whether two people play each other (at this device, or classmates each at their own)."""
        return str(self.level_pick.value) in (PEOPLE, CLASSMATE)

    def _class_panel(self, client: ClassClient, factory: OpponentFactory) -> ClassPanel:
        """The classmate controls."""
        return ClassPanel(client, seat=self._seat_class_table, act=self.board.control, refresh=self._class_changed,
                          options=self._table_options, address=self.address,
                          computer=lambda level: factory(level, None), level=self.opponent_level,
                          named=self._table_named, arrived=self._arrived_at_class_table,
                          computer_round=lambda *round_: self.board.act(lambda: self._play_round(*round_)),
                          round_elsewhere=lambda words: self.board.act(
                              lambda: self.controller.tell_standing(words, after_turn=True)),
                          computer_seated=self._computer_seated, unsaid=self._unsay,
                          focus_table=self.board.focus_table)

    def _next_table(self, intent: Mapping[str, Any]) -> None:
        """Next hand or New match pressed under the board, and a hand dealt: the keyboard goes to it (it stayed on the
        button nearest the one pressed, which is gone)."""
        if (intent.get("type") == "action" and intent.get("id") in ("next_hand", "new_match")
                and not self.controller.hand.is_over):
            self.board.focus_table()

    def _computer_seated(self, level: str) -> None:
        """The computer took a gone classmate's seat at `level`: the match on the board is one against the computer
        now, so the opponent menu names that level (or the adaptive choice that chose it) and the classmate controls
        give way, as for any match against the computer."""
        assert self.classmates is not None
        self._put_back(self.level_pick, ADAPTIVE if self.adaptive is not None else level)
        self.classmates.layout.display = "none"

    def _show_classmates(self) -> None:
        """The opponent menu on a classmate, with the classmate controls shown (a class table is on the board), and no
        pointer to Learn (`want_newcomer`: the menu is put back without its handler)."""
        assert self.classmates is not None
        self._put_back(self.level_pick, CLASSMATE)
        self.want_newcomer(self.newcomer_wanted)
        self.names_row.layout.display = "none"
        self.classmates.layout.display = ""

    def _arrived_at_class_table(self) -> None:
        """The server seated this page at a class table (a round the teacher paired): the section shows the table and
        comes forward (`come_forward`)."""
        self._show_classmates()
        for listener in list(self.come_forward):
            listener()

    def _seat_class_table(self, table: ClassTable) -> str:
        """Show the class table `table` from now on, the match under way kept aside (however the table came: opened
        or joined here, or seated by the server): what to say of the match kept ("" if none was)."""
        kept = self._keep_aside()
        self._seat(table)
        for listener in list(self.table_listeners):
            listener()
        return kept

    def _keep_aside(self, words: str = "") -> str:
        """Put the match under way aside under its kind and rules, as choosing another kind of opponent does (it is
        taken up again when both are chosen again): the sentence that says so (`words`, else the one of its kind), or
        "" if no match is under way. A match the teacher's round dealt is kept from the moment it is dealt (`_begun`:
        the class page says so of it). Its kind is the match's own, not the menu's (with "A classmate" chosen, the
        board still holds the match played before). A match between classmates is the class's tables' and is not kept;
        one the computer finished is kept as a match against the computer."""
        current = self.controller
        if between_classmates(current) or not self._begun(current):
            return ""
        kind = kind_of(current)
        older = self.set_aside.get((kind, current.rules.key))
        self.set_aside[(kind, current.rules.key)] = current
        if kind == PEOPLE:
            current.cover()  # taken up again behind the hand-over screen: the device may change hands meanwhile
        if not words:
            words = text("play.set_aside.kept_people" if kind == PEOPLE else "play.set_aside.kept",
                         choice=text("play.people.choice"), rules=text(f"rules.{current.rules.key}"))
        if older is not None and older is not current:  # (a resumed game or a round came under the same rules)
            words = f"{words} {text('play.set_aside.replaced', rules=text(f'rules.{current.rules.key}'))}"
        return words

    def _aside_words(self, rules: str) -> str:
        """What the board says of the matches kept aside while a new match against the computer under `rules` begins
        (the page drawn in another language says again what the board said as it began): how to go back to each."""
        return " ".join(
            text("play.set_aside.kept_people", choice=text("play.people.choice"), rules=text(f"rules.{kept_rules}"))
            if kind == PEOPLE else text("play.set_aside.kept_rules", rules=text(f"rules.{kept_rules}"))
            for (kind, kept_rules) in sorted(self.set_aside) if (kind, kept_rules) != (COMPUTER, rules))

    def _make_way(self, rules: str) -> str:
        """Make way for a match against the computer under `rules` (a resumed game, a teacher's round): what is
        under way (or a round dealt: `_begun`) is kept aside (`_keep_aside`), but a match against the computer under
        the same rules, which would take its place there, ends; the sentence that says which, or "" if nothing is
        under way."""
        current = self.controller
        if between_classmates(current) or not self._begun(current):
            return ""
        if current.both_here or current.rules.key != rules:
            return self._keep_aside()
        return text("play.set_aside.ends", rules=text(f"rules.{rules}"))

    def _play_round(self, level: str, rules: str, hands: int, words: str, deal: str | None = None) -> None:
        """The teacher's round has the learner play the computer at `level` under `rules` for `hands` hands: a new
        match against it, on the server's `deal` (else a fresh one), said in `words`; the section comes forward."""
        factory = self.opponent_factory
        assert factory is not None
        kept = self._make_way(rules)
        ends = text("play.set_aside.ends", rules=text(f"rules.{rules}"))
        if self.set_aside.pop((COMPUTER, rules), None) is not None and ends not in kept:
            kept = f"{kept} {ends}".strip()  # one kept aside under these rules (the board held a class table, or a
            # match not begun): the round's takes its place there too, as it takes the place of the board's
        self._show_choice(rules, level)
        start = LEVELS[0] if level == ADAPTIVE else level
        table = against_computer(factory(start, None), **{**self._table_options(), "hands": hands,
                                                          "seed": deal or new_deal_code()})
        self._round_match = table.match
        self._seat(table)
        if level == ADAPTIVE:
            self._follow_level(factory, start, level)
        table.say(" ".join(part for part in (words, table.message, kept) if part))
        self.keeper.save()  # kept from the moment it is dealt: a reload before a move takes it up
        for listener in list(self.come_forward):
            listener()

    def _class_changed(self) -> None:
        """The class table changed without a click here (the classmate moved, both sat down): redraw the board and
        tell its listeners, as after a click (a match the classmate's move ended is told then)."""
        self.board.act(lambda: None)

    def resume_class_table(self, redrawn: bool = False) -> None:
        """Sit this page at its visitor's class table, if they sit at one (a reload, a lost kernel, a restart; or the
        same page `redrawn` in another language)."""
        panel = self.classmates
        if panel is None:
            return

        def resume() -> None:
            if panel.resume(redrawn):
                self._show_classmates()
            elif panel.away:  # said on the board too: the classmate controls are hidden unless a classmate is chosen
                table = self.controller
                if not table.message.startswith(panel.away):  # (once: a redraw of the app takes up the same board)
                    table.say(f"{panel.away} {table.message}")
        self.board.act(resume)

    def _away_said(self, table: Table) -> str:
        """What `table`'s message begins by saying of the visitor's class table that closed while they were away
        (`ClassPanel.away`, said by `resume_class_table`), "" if it says nothing of it."""
        panel = self.classmates
        away = "" if panel is None else panel.away
        return away if away and table.message.startswith(away) else ""

    def _unsay(self, words: str) -> None:
        """Take `words` back from the board's message, if it still begins with them (`resume_class_table` said them of
        a table closed while the student was away; they no longer hold)."""
        table = self.controller

        def unsay() -> None:
            if table is self.controller and table.message.startswith(words):
                table.say(table.message.removeprefix(words).lstrip())
        self.board.act(unsay)

    def join_table(self, code: str) -> None:
        """Follow a link to the table `code`: the classmate controls shown with the code in its box, and, as soon as
        the student has a name, the board saying that Join table seats them there; not while this page sits at a
        table."""
        panel = self.classmates
        if panel is None or self.at_class_table():
            return
        if self.level_pick.value != CLASSMATE:
            self.level_pick.value = CLASSMATE
        panel.code_box.value = code
        self._link_table = code
        self._offer_link_table()

    def _offer_link_table(self) -> None:
        """Say, once the student has a name, that pressing Join table seats them at the table of the link followed (its
        code in the box). The link used to seat them at once: a classmate's link, opened and closed again, counted a
        match as lost, its sender finishing it against the computer two minutes later."""
        panel, code = self.classmates, self._link_table
        if panel is None or code is None or not panel.name.value:
            return
        self._link_table = None
        if not self.at_class_table():
            words = text("classmates.link_offered", code=code, join=text("classmates.join"))
            panel.offer_link(code, words)
            self.board.show_message(words)
        for listener in list(self.link_used_listeners):  # offered: a reload asks no more
            listener("table")

    def _show_choice(self, rules: str | None, level: str | None) -> None:
        """Show `rules` and `level` (each if given) in the menus without acting on them (`_opening` holds the menus'
        handlers back): the caller deals, or takes up, the match they name."""
        self._opening = True
        try:
            if rules is not None:
                self.rules_pick.value = rules
            if level is not None:
                self.level_pick.value = level
        finally:
            self._opening = False

    def _table_named(self, name: str) -> bool:
        """A class table is to be opened or joined under `name`: whether every name listener kept it."""
        return all([listener(name) for listener in list(self.name_listeners)])

    def place(self) -> SectionPlace:
        """The match against the computer on the board (begun or not: a link's deal, rules and opponent go on in the
        other language), or the game of two people at this device, and the matches kept aside (a `PlayPlace`)."""
        table, kept = self.controller, dict(self.set_aside)
        people = table.rules.key if str(self.level_pick.value) == PEOPLE else None
        if people is not None:
            kept[(PEOPLE, people)] = table
        finished = None
        if isinstance(table, ClassTable) and table.finish is not None:  # where it was, or as it ended
            finished = (table, self.opponent_level())
        computer = not (self.people or isinstance(table, ClassTable) or self.opponent_factory is None)
        if not (computer or kept or finished):
            return None
        return PlayPlace(self.code_of(table.match, self.opponent_level()) if computer else None, kept, people, finished,
                         computer and table.match is self._round_match, under_way(table) or table.match.is_over,
                         self.adaptive_kept() if computer else None)

    def take_place(self, place: SectionPlace) -> None:
        """Keep the matches `place` kept aside, and go on with the game between two people it names, or the match
        whose code it holds (a code that cannot be read is logged)."""
        if not isinstance(place, PlayPlace):
            return
        for table in (*place.kept.values(), *(() if place.finished is None else (place.finished[0],))):
            table.retell()  # (these very tables are taken up: their moves in this language)
        self.set_aside.update(place.kept)
        factory = self.opponent_factory
        if place.people is not None and factory is not None:
            self._show_choice(place.people, PEOPLE)
            self.board.act(lambda: self._switch_seats(factory, PEOPLE))
        if place.finished is not None:
            finished, level = place.finished
            if isinstance(finished, ClassTable) and finished.finish is not None and finished.match.is_over:
                found = FinishedMatch(SavedGame(finished.match, level), finished.finish)  # (nothing to play on)
                self.board.act(lambda: self._take_up_finished(found))  # as it ended, said in the new language
            else:
                self._show_choice(finished.rules.key, level)
                self.board.act(lambda: self._take_up(finished, level))
        if place.code is None:
            return
        try:
            game = self.read_code(place.code)
        except LeopardError:
            log.exception("the match could not be carried into another language")
            return

        def go_on() -> None:  # drawn on the board at once: nothing else redraws it here
            self.resume(game, carried=True, begun=place.begun)
            if place.round_match:
                self._round_match = self.controller.match
            self._take_up_adaptive(place.adaptive)
        self.board.act(go_on)

    def _take_up(self, table: Table, level: str) -> None:
        """Take up on the board `table`'s match against the computer (at `level`), the one the board held before the
        language changed, and say that it goes on where it was."""
        self._seat(table)
        match = table.match
        table.say(text("play.saved_game.carried", number=match.hand_number, hands=match.hands,
                       rules=text(f"rules.{match.rules.key}"), level=text(f"levels.in_sentence.{level}")))

    def report_to(self, student: StudentRecord) -> None:
        """Tell `student`'s record of each hand and match played to its end, and of each class table sat at."""
        self.match_listeners.append(student.game)
        self.table_listeners.append(student.seated)

    def now_doing(self) -> tuple[int | None, str | None]:
        """The classmate played at a class table (none while the table waits for one to sit down)."""
        table = self.controller
        if not isinstance(table, ClassTable) or not self.at_class_table() or isinstance(table.mode, Seating):
            return None, None
        return None, table.name(1 - table.seat)

    def computer_match(self) -> Match | None:
        """The match against the computer on the board while it is under way (a class table's too, once the computer
        took the gone classmate's seat), or from the moment it is dealt if the teacher's round dealt it (not one from
        a code the server did not seal): the one the class page may be told the student plays."""
        table = self.controller
        between = isinstance(table, ClassTable) and table.finish is None
        if between or kind_of(table) != COMPUTER or not self._begun(table) or table.match in self.uncounted:
            return None
        return table.match

    def _begun(self, table: Table) -> bool:
        """Whether `table`'s match is worth keeping and telling: under way (`under_way`), or the teacher's round dealt
        it and it is not over."""
        return under_way(table) or (table.match is self._round_match and not table.match.is_over)

    def offer_classmate_name(self, name: str, offered: bool = False) -> None:
        """The student goes by `name` (kept, or only `offered` in the header): the classmate name box holds it,
        unless another name is typed there."""
        panel = self.classmates
        if panel is not None:
            panel.offered_name = name if offered else ""
            if panel.name.value in ("", self._classmate_name):
                panel.name.value = name
        self._classmate_name = name
        self._offer_link_table()

    def want_newcomer(self, wanted: bool) -> None:
        """Point the visitor to Learn (`wanted`: a newcomer, says the app) while the computer is the opponent: two
        people at this device, or classmates, chose to play each other."""
        self.newcomer_wanted = wanted
        self.newcomer.show(wanted and str(self.level_pick.value) not in (PEOPLE, CLASSMATE))

    def opponent_level(self) -> str:
        """The level the computer plays at now (with the adaptive choice, the one it has reached); with people
        chosen, the level of the last computer opponent made (the computer finishes a class table's match at it)."""
        if self.adaptive is not None:
            return self.adaptive.level
        chosen = str(self.level_pick.value)
        return chosen if chosen in LEVELS else self._own_level

    def finishing_level(self, level: str) -> None:
        """`level` (the class's default) for the computer that finishes a class table's match here, as if the last
        computer opponent made had played at it. The adaptive choice, not a level of its own, is left as it is."""
        if level in LEVELS:
            self._own_level = level

    def resume(self, game: SavedGame, carried: bool = False, begun: bool = True) -> None:
        """Go on with a saved game: its rules and opponent level chosen, its match as it stood (what was under way
        makes way for it, and is said to: `_make_way`). The board says the game was resumed, or, where it is the match
        the board held before the language changed (`carried`), that the match goes on where it was (or, where the
        learner had not `begun` it, that a new match has begun, and who moves first, the computer's move and the card
        drawn, as the board said of it in the other language, with the matches kept aside: `_aside_words`); then, as
        when the learner's turn began, the computer's moves since the learner's last and the card drawn (`Table.resume`,
        `retold`: a reload lost them from the board's message)."""
        match, factory = game.match, self.opponent_factory
        kept = self._make_way(match.rules.key)
        self._show_choice(match.rules.key, game.level)
        seed = deal_seed(match.seed) if isinstance(match.seed, str) else None
        self.share.value = ""
        if factory is not None:
            self._seat_computer(factory(game.level, seed))
        said = ("play.saved_game.resumed" if not carried else "play.saved_game.carried_over" if match.is_over
                else "play.saved_game.carried")
        words = (text("play.new_match", rules=text(f"rules.{match.rules.key}")) if carried and not begun
                 else text(said, number=match.hand_number, hands=match.hands,
                           rules=text(f"rules.{match.rules.key}"), level=text(f"levels.in_sentence.{game.level}")))
        if match in self.uncounted:
            words = f"{words} {text('play.saved_game.not_counted')}"
        opening = carried and not begun
        self.controller.resume(match, f"{words} {kept}" if kept else words,
                               None if factory is None else factory(game.level, seed), opening=opening,
                               closing=self._aside_words(match.rules.key) if opening else "",
                               retold=begun and not opening)

    def holds(self, game: SavedGame) -> bool:
        """Whether the board holds `game` already: the same match against the computer, as far as it has gone, at the
        same level (resuming it would change nothing)."""
        table, level = self.controller, self.opponent_level()
        return (kind_of(table) == COMPUTER and not isinstance(table, ClassTable) and game.level == level
                and game_code(table.match, level) == game_code(game.match, level))

    def code_of(self, match: Match, level: str) -> str:
        """The saved-game code of `match` against `level`: sealed on a class server, unless the match came from a code
        it did not seal."""
        return game_code(match, level, None if match in self.uncounted else self.code_key)

    def read_code(self, code: object) -> SavedGame:
        """The game in a saved-game code (`read_game_code`: a `GameCodeError` if it cannot be read); on a class
        server, a match from a code it did not seal is never told to the class page (`uncounted`)."""
        game = read_game_code(code, LEVELS, self.code_key)
        if self.code_key is not None and not game.sealed:
            self.uncounted.add(game.match)
        return game

    def codes_to_keep(self) -> tuple[str | dict[str, Any] | None, dict[str, str | dict[str, Any]]]:
        """What `MatchKeeper` keeps in the browser: the match against the computer on the board (None if none is
        under way there, or dealt by the teacher's round) and those kept aside, by rules, each as its saved-game code;
        a class table's match that the computer finished (on the board, under way or over; aside, under way) as
        {"code": its code, and its table's `ComputerFinish.to_data`}, since a code alone seats the learner first,
        where a class table may not."""
        table, level = self.controller, self.opponent_level()
        shown = (table.finish is not None if isinstance(table, ClassTable)
                 else kind_of(table) == COMPUTER and self._begun(table))
        return (self._kept(table, level) if shown else None,
                {rules: self._kept(kept, level) for (kind, rules), kept in self.set_aside.items()
                 if kind == COMPUTER and not kept.match.is_over  # (under way, or a round's: kept as it was dealt)
                 and (not isinstance(kept, ClassTable) or kept.finish is not None)})

    def _kept(self, table: Table, level: str) -> str | dict[str, Any]:
        """`table`'s match as the browser keeps it: its code against `level`, with its `ComputerFinish` at a class
        table."""
        code = self.code_of(table.match, level)
        finish = table.finish if isinstance(table, ClassTable) else None
        return code if finish is None else {"code": code, **finish.to_data()}

    def people_to_keep(self) -> dict[str, Any] | None:
        """What `MatchKeeper` keeps in the browser of the games between two people at this device: {"board": the one on
        the board or None, "aside": {rules: one kept aside}}, as {"code": its match's code, "names": the two names as
        given}; None where there is none. Those aside are under way; the one on the board is kept from the moment it
        is dealt, until it is over (a reload before the first move keeps the choice of two people and their names)."""
        def kept(table: Table) -> dict[str, Any]:  # (sealed on a class server: neither reads the other's hand in it)
            return {"code": game_code(table.match, PEOPLE, self.code_key), "names": [seat.name for seat in table.seats]}
        table = self.controller
        board = kept(table) if kind_of(table) == PEOPLE and not table.match.is_over else None
        aside = {rules: kept(table) for (kind, rules), table in self.set_aside.items()
                 if kind == PEOPLE and under_way(table)}
        return {"board": board, "aside": aside} if board or aside else None

    def read_people(self, kept: object) -> tuple[Table | None, list[Table]]:
        """The games between two people that `people_to_keep` gave (the one on the board, those kept aside), each a
        table behind the hand-over screen (the device may have changed hands since); a `LeopardError` if one is not
        such a game (a code that cannot be read, a name refused)."""
        if kept is None:
            return None, []
        if not isinstance(kept, dict) or not isinstance(kept.get("aside"), dict):
            raise LeopardError("the games between two people kept in the browser are not {board, aside}")

        def table_of(game: object) -> Table:
            if not isinstance(game, dict) or not isinstance(game.get("names"), list) or len(game["names"]) != 2:
                raise LeopardError("a game between two people is kept as {code, names}")
            match = read_game_code(game.get("code"), (PEOPLE,), self.code_key).match
            names = [name if isinstance(name, str) else "" for name in game["names"]]
            table = at_one_device(names, **self._table_options())
            table.take_up(match)
            return table
        board = kept.get("board")
        return (None if board is None else table_of(board),
                [table_of(game) for game in list(kept["aside"].values())[:len(RULE_SETS)]])

    def take_up_people(self, board: Table | None, aside: list[Table]) -> None:
        """Take up the games between two people a browser kept (`read_people`), each behind the hand-over screen: those
        kept aside aside again, where none is kept under their rules, and the one on the board there, in place of the
        page's fresh deal that nobody has begun; where a link (or the class's defaults) asked for rules or an opponent,
        or the learner began another match, it is kept aside too, and the board says that choosing "Someone here" with
        its rules takes it up."""
        factory = self.opponent_factory
        if factory is None:
            return
        for table in aside:
            self.set_aside.setdefault((PEOPLE, table.rules.key), table)
        if board is None:
            return
        rules = board.rules.key
        if not self._fresh_deal(self.controller) or self._link_asks != (None, None):
            if self.set_aside.setdefault((PEOPLE, rules), board) is board:
                shown = self.controller
                words = text("play.set_aside.kept_people", choice=text("play.people.choice"),
                             rules=text(f"rules.{rules}"))
                self.board.act(lambda: shown.say(f"{shown.message} {words}"))
            return
        self.set_aside[(PEOPLE, rules)] = board  # (the board's: newer than one kept aside under its rules)
        self._show_choice(rules, PEOPLE)
        self.board.act(lambda: self._switch_seats(factory, PEOPLE))

    def read_kept(self, kept: object) -> KeptMatch:
        """A match as `codes_to_keep` gave it (a code, or a class table's match the computer finished); a
        `LeopardError` if it is not one (`read_code`)."""
        if isinstance(kept, dict):
            game = self.read_code(kept.get("code"))
            return FinishedMatch(game, ComputerFinish.read(kept, game.match))
        return self.read_code(kept)

    def take_up_kept(self, game: KeptMatch | None, aside: list[KeptMatch], reloaded: bool = False,
                     adaptive: object = None, level: object = None) -> None:
        """The matches a browser kept (`MatchKeeper`): each of `aside` kept aside under its rules (where none is kept
        yet), and `game` on the board, unless the learner has begun another match there, opened another shared deal or a
        link asking for other rules or another opponent, chose people or sits at a class table: then it is kept aside
        too (a class table's match the computer finished only while it is under way, and not where the board holds it
        already: the page drawn in another language). A shared deal's page `reloaded` (this tab's own matches) goes on
        where `game`, the same deal, was; opened in a new tab, the deal starts afresh. With no `game`, the one of
        `aside` kept under the rules of a match against the computer on the board that the learner has not begun
        (`_fresh_deal`, and not one a link asked otherwise) takes its place there: its kind and rules are chosen
        already, so choosing them again could not bring it back (a page whose class table closed while the learner was
        away keeps saying so first); where none is, the `level` the menu held (`level_kept`) is chosen again. The
        `adaptive` choice the browser kept (`adaptive_kept`) is chosen again with the match it played, `game` taken up
        on the board, or for the page's own fresh deal where none was kept there. A class table that closed before its
        match ended, which the page's start showed again (`ClassPanel.resume`), gives way to `game`: the board held it,
        so the learner had moved on from that table."""
        if self.opponent_factory is None:
            return
        board = self.controller
        if game is not None and self.classmates is not None and self.classmates.shows_closed(board):
            for saved in aside:  # the page had moved on from its class table that closed (`ClassPanel.resume` showed
                self._keep_saved(saved)  # it again) to the match its board held: that match goes on there
            held = game
            self.board.act(lambda: self._take_up_in_place(held, "", adaptive))
            return
        away = ""
        if game is None and self._fresh_deal(board):
            game = next((saved for saved in aside if _saved_game(saved).match.rules == board.rules
                         and not self._asked_otherwise(board.rules.key, _saved_game(saved).level)), None)
            aside = [saved for saved in aside if saved is not game]
            away = self._away_said(board)  # (said of the table that closed: it holds of the match taken up as well)
        for saved in aside:
            self._keep_saved(saved)
        if game is None:
            if self._fresh_deal(board):  # (a match played to its end, or not begun: the next one is the choice's)
                self.board.act(lambda: self._take_up_level(level) if adaptive is None else
                               self._take_up_adaptive(adaptive, counts=True))
            return
        if away:
            self.board.act(lambda: self._take_up_in_place(game, away, adaptive))
            return
        match = _saved_game(game).match
        same_deal = (match.seed, match.rules) == (board.match.seed, board.match.rules)
        if isinstance(game, FinishedMatch):
            if isinstance(board, ClassTable) and board.finish is not None and same_deal:
                return  # (the board holds it, as far as it has gone: another language)
            if (isinstance(board, ClassTable) or str(self.level_pick.value) in (PEOPLE, CLASSMATE)
                    or under_way(board) or self._deal_opened):
                self._keep_saved(game)
            else:
                self.board.act(lambda: self._take_up_finished(game))
            return
        if self._asked_otherwise(game.match.rules.key, game.level):  # a link's, whichever came first: its match stays
            self._keep_saved(game)
            return
        if isinstance(board, ClassTable) or str(self.level_pick.value) in (PEOPLE, CLASSMATE) or under_way(board):
            if not same_deal:  # (the same deal is the one the board holds, as far as it has gone: another language)
                self._keep_saved(game, newest=True)  # the board's: newer than one kept aside under its rules
            return
        if (same_deal and not reloaded) or (self._deal_opened and not same_deal):
            self._keep_saved(game)  # a link's deal opened anew, or another deal's: the one played on is kept aside
            return
        self._reload_resumed = reloaded  # (a reload of a deal link's page goes on with its deal where it was)

        def go_on() -> None:
            self.resume(game)
            if not under_way(self.controller):  # kept before the learner's first move: a round dealt it (_begun)
                self._round_match = self.controller.match
            self._take_up_adaptive(adaptive)
        self.board.act(go_on)

    def kept_elsewhere(self) -> None:
        """Another open tab of the browser holds the matches it kept (`MatchKeeper`): over this page's fresh deal, say
        that they go on there and that this tab plays its own."""
        table = self.controller
        if self.opponent_factory is not None and self._fresh_deal(table):
            self.board.act(lambda: table.say(f"{text('play.saved_game.held_elsewhere')} {table.message}"))

    def _asked_otherwise(self, rules: str, level: str) -> bool:
        """Whether this page's link asked for other rules or another opponent than a match's `rules` and `level` (a
        reload of the link's page finds its own match: the same rules and opponent; the adaptive choice asks for no
        one level)."""
        asked_rules, asked_level = self._link_asks
        return ((asked_rules is not None and rules != asked_rules)
                or (asked_level not in (None, ADAPTIVE) and level != asked_level))

    def _fresh_deal(self, table: Table) -> bool:
        """Whether `table` is a match against the computer that the learner has not begun (`under_way`), dealt by the
        page itself (not by a shared deal's link or the teacher's round), with a computer opponent chosen: a match the
        browser kept under its rules may take its place."""
        return (not isinstance(table, ClassTable) and kind_of(table) == COMPUTER and not under_way(table)
                and str(self.level_pick.value) not in (PEOPLE, CLASSMATE) and not self._deal_opened
                and table.match is not self._round_match)

    def _take_up_in_place(self, game: KeptMatch, away: str, adaptive: object = None) -> None:
        """Take up `game`, kept aside before a reload (or on the board), on the board in place of the fresh deal nobody
        had begun (or of a closed class table shown again), and say it after `away` (if any), the words of the class
        table that closed while the learner was away."""
        if isinstance(game, FinishedMatch):
            self._take_up_finished(game)
        else:
            self.resume(game)
            self._take_up_adaptive(adaptive)
        table = self.controller
        if away:
            table.say(f"{away} {table.message}")

    def _keep_saved(self, saved: KeptMatch, newest: bool = False) -> None:
        """Keep the match `saved` aside under its rules, unless a match is kept there already (`newest`: it takes that
        one's place) (or it is a class table's match that is over: nothing is left to take up)."""
        game = saved.game if isinstance(saved, FinishedMatch) else saved
        key = (COMPUTER, game.match.rules.key)
        if (key in self.set_aside and not newest) or (isinstance(saved, FinishedMatch) and game.match.is_over):
            return
        assert self._kept_opponent is not None
        opponent = self._kept_opponent(game.level, None)
        if isinstance(saved, FinishedMatch):
            self.set_aside[key] = ClassTable.taken_up(saved.finish, game.match, opponent, "", **self._table_options())
            return
        table = against_computer(opponent, **{**self._table_options(), "rules": game.match.rules})
        table.resume(game.match, "")
        self.set_aside[key] = table

    def _take_up_finished(self, found: FinishedMatch) -> None:
        """Take up on the board a class table's match that the computer finished (`found`, as the browser kept it):
        where it was, or as it ended, with the table it was played at said, and that only this browser keeps it; the
        menus name its rules and the computer's level, as when the computer took the seat."""
        factory = self.opponent_factory
        assert factory is not None
        game, finish = found.game, found.finish
        self._show_choice(game.match.rules.key, game.level)
        words = text("classmates.computer_over" if game.match.is_over else "classmates.computer_back",
                     code=finish.code, level=text(f"levels.names.{game.level}"), name=finish.names[1 - finish.seat])
        if game.match in self.uncounted:
            words = f"{words} {text('play.saved_game.not_counted')}"
        table = ClassTable.taken_up(finish, game.match, factory(game.level, None), words, **self._table_options())
        self._seat(table)
        if self.classmates is not None:
            self.classmates.layout.display = "none"

    def show_share_link(self) -> None:
        """Show the link that opens this match's deal for anyone (a class, a friend) against the level the computer
        plays it at (the one the adaptive choice reached); between two people here, the link names no opponent. It is
        the board's match (with "A classmate" chosen, the board may still hold one against the computer)."""
        refused = self.controller.offers()["share"]  # a class table's deal would show anyone the classmate's hand
        if refused:
            self.controller.say(refused, "warn")
            return
        people = self.controller.both_here
        link = deal_link(self.address(), deal=str(self.controller.match.seed), rules=self.controller.rules.key,
                         level=None if people else self.opponent_level())
        shown = html.escape(link)
        words = {key: html.escape(text(f"play.share.{key}")) for key in ("explain", "label", "open")}
        if people:  # two people here: the link gives the deal, and the one who opens it chooses the opponent
            words["explain"] = html.escape(text("play.people.share"))
        self.share.value = (f"<p>{words['explain']}</p><p><input class='lt-share-link' readonly value='{shown}' "
                            f"aria-label='{words['label']}' size='60'> "
                            f"<a href='{shown}' target='_blank' rel='noopener'>{words['open']}</a></p>")
        self.share_copy.value = link
        self.share.layout.display = ""
        self.controller.tell(text("play.share.ready"))  # the board's message is what a screen reader is told

    def _sync_share_copy(self) -> None:
        """Show the link's Copy button exactly while a link is shown."""
        shown = bool(self.share.value) and self.share.layout.display != "none"
        self.share_copy.layout.display = "" if shown else "none"

    def _put_back(self, pick: W.Dropdown, value: str) -> None:
        """Set a picker back to `value` without acting on it (a change beyond the kernel's pace)."""
        self._putting_back = True
        try:
            pick.value = value
        finally:
            self._putting_back = False

    def _rules_changed(self, change: dict[str, Any]) -> None:
        if not (self._opening or self._putting_back):
            self.board.control(lambda: self._change_rules(change["new"]),
                               lambda: self._put_back(self.rules_pick, change["old"]))

    def _change_rules(self, rules: str) -> None:
        """New rules chosen: a match under way is put aside under its rules and said (taken up again when they and its
        kind of opponent are chosen again), and one of the same kind kept under the new rules is taken up; else a new
        match under them (a class table refuses; one left behind, or one whose own New match waits for a class table
        while "A classmate" is chosen, gives way to a new table)."""
        current, factory = self.controller, self.opponent_factory
        kind = kind_of(current)
        left = isinstance(current, ClassTable) or current.classmate_chosen
        if (self.at_class_table() or factory is None
                or (not left and not under_way(current) and (kind, rules) not in self.set_aside)):
            self.new_match()
            return
        kept = self._keep_aside(text("play.set_aside.kept_rules", rules=text(f"rules.{current.rules.key}")))
        table, words = self._table_of(kind, factory, opening=text("play.new_match", rules=text(f"rules.{rules}")))
        table.tell(" ".join((*words, kept) if kept else words))
        self._seat(table)

    def _table_of(self, kind: str, factory: OpponentFactory, adaptive_next: bool = False,
                  opening: str = "") -> tuple[Table, list[str]]:
        """The match of `kind` (`COMPUTER` or `PEOPLE`) kept aside under the rules chosen, taken up (against the level
        chosen, names as they were), else a new one (a new match against the computer said with `opening`, if given,
        as `Table`'s): the table and what to say of it. A match against the computer
        taken up is said to be played against the level chosen from now on only where that level is not the one it
        was left at (nor `adaptive_next`: the adaptive choice begins next, and says the level it starts from)."""
        back = self.set_aside.pop((kind, str(self.rules_pick.value)), None)
        deal = self._unbegun_link_deal() if back is None else None
        options = self._table_options() if deal is None else {**self._table_options(), "seed": deal}
        if kind == PEOPLE:
            if back is not None:  # behind the hand-over screen (`_keep_aside`), or as the board held it (a language
                for index, field in enumerate(self.names):  # changed: a hand shown to the one who changed it)
                    self._put_back(field, back.seats[index].name)
                words = [text("play.set_aside.back_people", first=back.name(0), second=back.name(1))]
                passing = back.mode
                if isinstance(passing, PassingDevice):
                    words.append(text("play.people.pass", name=back.name(passing.player)))
                return back, words
            table = at_one_device([field.value for field in self.names], **options)
            passing = table.mode
            assert isinstance(passing, PassingDevice)  # a match between two people here begins by passing the device
            return table, [text("play.people.started", first=table.name(0), second=table.name(1),
                                rules=text(f"rules.{table.rules.key}")),
                           text("play.people.pass", name=table.name(passing.player))]
        level = self.opponent_level()
        if back is not None:
            left_at = level_of(back.opponent)
            back.set_opponent(factory(level, None))
            if adaptive_next or left_at == level:
                return back, [text("play.set_aside.back_as_left"), *back.turn_so_far()]
            return back, [text("play.set_aside.back", level=text(f"levels.in_sentence.{level}")), *back.turn_so_far()]
        table = against_computer(factory(level, None if deal is None else deal_seed(deal)), **options, opening=opening)
        return table, [table.message]

    def _unbegun_link_deal(self) -> str | None:
        """The deal a link opened, where the board still holds it under the rules chosen and no one here has moved in
        it (the link gives the deal, the one who opens it chooses the opponent: choosing another kind deals it again,
        not a fresh one); else None."""
        current = self.controller
        if (self._link_deal is None or isinstance(current, ClassTable) or under_way(current)
                or current.match.seed != self._link_deal or current.rules.key != self.rules_pick.value):
            return None
        return self._link_deal

    def _name_changed(self, index: int, change: dict[str, Any]) -> None:
        """A player typed a name: the table takes it between two people (else it is kept for when they play);
        a name that is too long, or beyond the pace, is put back and changes nothing."""
        if self._putting_back:
            return
        field = self.names[index]

        def rename() -> None:
            try:
                if self.people:
                    self.controller.rename(index, change["new"])
                else:  # kept for a match between two people (`at_one_device` checks the pair)
                    player_name(change["new"], "")
            except LeopardError:
                self._put_back(field, change["old"])
                raise
        self.board.control(rename, lambda: self._put_back(field, change["old"]))

    def _level_changed(self, change: dict[str, Any]) -> None:
        factory = self.opponent_factory
        if factory is None or self._putting_back:
            return
        if change["old"] == CLASSMATE and self.at_class_table():  # a class table is left by its own button
            self._put_back(self.level_pick, CLASSMATE)
            self.board.show_message(text("classmates.leave_first"), tone="warn")
            return
        self.names_row.layout.display = "" if change["new"] == PEOPLE else "none"
        self.want_newcomer(self.newcomer_wanted)  # (not while people play each other)
        if self.classmates is not None:
            self.classmates.layout.display = "" if change["new"] == CLASSMATE else "none"
        if change["new"] == CLASSMATE:  # a classmate's match starts when both sit at a table: the board says so, and
            table = self.controller  # that the match on it may be played meanwhile (New match waits for a table)
            self._sync_buttons()
            self.board.refresh()  # (the board's own New match, at a match's end, greyed too)
            if not between_classmates(table):
                words = text("classmates.choose_kept" if under_way(table) else
                             "classmates.choose" if table.match.is_over else "classmates.choose_board")
                self.board.show_message(table.beside_review(words))
            return
        if PEOPLE in (change["old"], change["new"]) or change["old"] == CLASSMATE:
            self.adaptive = None
            if not self._opening:
                self.board.control(lambda: self._switch_seats(factory, change["new"]),
                                   lambda: self._put_back(self.level_pick, change["old"]))
            return
        if not self._opening:
            self.board.control(lambda: self._follow_level(factory, change["old"], change["new"]),
                               lambda: self._put_back(self.level_pick, change["old"]))
        elif change["new"] == ADAPTIVE:
            self.board.act(lambda: self._follow_level(factory, change["old"], change["new"]))
        else:
            self.adaptive = None

    def at_class_table(self) -> bool:
        """Whether the board shows a table between classmates that goes on (or waits for the classmate)."""
        return self.controller.at_class_table

    def class_table_shown(self) -> bool:
        """Whether the board shows a class table's match, whether it goes on or has closed (to be finished against the
        computer, or as it ended)."""
        return isinstance(self.controller, ClassTable)

    def _switch_seats(self, factory: OpponentFactory, new: str) -> None:
        """Between a match against the computer and one between two people at this device. A match under way of the
        other kind is put aside, said once, and taken up again where it was when its kind of opponent and its rules
        are chosen again; else a new match begins."""
        chosen = PEOPLE if new == PEOPLE else COMPUTER
        current = self.controller
        if not between_classmates(current) and kind_of(current) == chosen:
            if chosen == COMPUTER:  # back from "A classmate" to the match on the board: at the level chosen
                self._follow_level(factory, LEVELS[0], new)
            return
        kept = self._keep_aside()
        table, words = self._table_of(chosen, factory, adaptive_next=new == ADAPTIVE)
        said = " ".join((*words, kept) if kept else words)
        self._seat(table)
        if new == ADAPTIVE:
            self._follow_level(factory, LEVELS[0], new, said)
        else:
            table.tell(said)

    def _table_options(self) -> dict[str, Any]:
        """The section's hints, and how the table in play was made (hands a match, reviews, background search), for
        the next, with a fresh deal under the chosen rules (a class table's length is the server's, not kept)."""
        table = self.controller
        hands = None if isinstance(table, ClassTable) else table.hands_per_match
        return {"rules": rules_by_key(self.rules_pick.value), "seed": new_deal_code(), "hinter": self.hinter,
                "hands": hands, "reviewer": table.make_reviewer,
                "background": table.background is not None}

    def _seat_computer(self, opponent: Chooser) -> None:
        """Play against `opponent` from the next move; a table between two people, a class table (its seats are the
        class's, where the learner may sit second) or one just kept aside gives way to a new one."""
        kept = any(table is self.controller for table in self.set_aside.values())
        if self.controller.opponent is not None and not kept and not isinstance(self.controller, ClassTable):
            self.controller.set_opponent(opponent)
        else:
            self._seat(against_computer(opponent, **self._table_options()))

    def _seat(self, table: Table) -> None:
        """Show `table` from now on (a deal shared from the table before is no longer shown, nor the buttons of a class
        table that is not this one)."""
        self.share.value, self.share.layout.display = "", "none"
        self.controller = self.board.controller = table
        self._forward_choice()
        if self.classmates is not None:
            self.classmates.board_shows(table)

    def _follow_level(self, factory: OpponentFactory, old: str, new: str, before: str = "") -> None:
        """Play on against level `new` (chosen after `old`): the adaptive choice starts from `old`, said after
        `before` (what was said of the match on the board)."""
        if new != ADAPTIVE:
            self.adaptive = None
            self.controller.set_opponent(factory(new, None), text(f"levels.in_sentence.{new}"), how_it_plays(new))
            return
        adaptive = self.adaptive = AdaptiveLevel(old if old in LEVELS else LEVELS[0])
        table = self.controller
        begun = under_way(table)  # (a match only the computer has moved in is played wholly against the choice)
        self._adaptive_skips = weakref.WeakSet(kept.match for kept in (table, *self.set_aside.values())
                                               if kept.match.is_over or under_way(kept))
        table.set_opponent(factory(adaptive.level, None))
        start = "start_top" if adaptive.at_top else "start_bottom" if adaptive.at_bottom else "start"  # (true there)
        said = [before, text(f"levels.adaptive.{start}", level=text(f"levels.in_sentence.{adaptive.level}"))]
        if begun:
            said.append(text("levels.adaptive.begun"))
        table.tell(" ".join(words for words in said if words), after_turn=not before)  # (beside a review, if any)

    def _tell_match(self) -> None:
        """Once a hand is over, tell the match listeners (once per hand); once a match against the computer is over,
        how it ended for the learner (once per match). A match between classmates is the class's tables' to count
        (its hands are told, against the computer once it took the classmate's seat)."""
        table, match = self.controller, self.controller.match
        new_hand = match.current.is_over and not (self._told_hand[0] is match
                                                  and self._told_hand[1] == match.hand_number)
        new_match = match.is_over and match is not self._told
        if not (new_hand or new_match) or match in self.uncounted:
            return
        if isinstance(table, ClassTable):
            against = CLASSMATE if table.computer_sat is None else f"{COMPUTER_PREFIX}{self.opponent_level()}"
            seat, new_match = table.seat, False
        elif str(self.level_pick.value) == PEOPLE:
            return
        else:
            against, seat = f"{COMPUTER_PREFIX}{self.opponent_level()}", 0
        if new_hand:
            self._told_hand = (match, match.hand_number)
            for listener in list(self.match_listeners):
                listener(against, None, match)
        if new_match:
            self._told = match
            result = match.result_for(seat)
            for listener in list(self.match_listeners):
                listener(against, result, match)

    def adaptive_kept(self) -> dict[str, Any] | None:
        """The adaptive choice as a browser (`MatchKeeper`) or another language keeps it beside the match against the
        computer on the board: the level reached, the wins and losses in a row, and whether that match counts; None
        without it (or at a class table)."""
        adaptive, table = self.adaptive, self.controller
        if adaptive is None or isinstance(table, ClassTable) or kind_of(table) != COMPUTER:
            return None
        return {**adaptive.to_data(), "counts": table.match not in self._adaptive_skips}

    def level_kept(self) -> str | None:
        """The computer level the Opponent menu holds, as a browser (`MatchKeeper`) keeps it for the page's next deal:
        None at the first level (the page's own), with people, a classmate or the adaptive choice (`adaptive_kept`)
        chosen, or at a class table."""
        level = str(self.level_pick.value)
        if level not in LEVELS[1:] or self.adaptive is not None or self.class_table_shown():
            return None
        return level

    def _take_up_level(self, kept: object) -> None:
        """Choose again the level `kept` (`level_kept`) for the page's fresh deal, which nobody has begun: the menu
        shows it and a match against it is dealt, so that a match kept aside goes on against it when its rules are
        chosen again. Nothing where a link (or the class) asked for a level, or `kept` is none of the levels."""
        factory = self.opponent_factory
        if (factory is None or not isinstance(kept, str) or kept not in LEVELS or kept == self.level_pick.value
                or self._link_asks[1] is not None or not self._fresh_deal(self.controller)):
            return
        self._show_choice(None, kept)
        self._seat_computer(factory(kept, None))
        self.new_match()

    def _take_up_adaptive(self, kept: object, counts: bool | None = None) -> None:
        """Choose again the adaptive choice `kept` (`adaptive_kept`; nothing if None) for the match against the computer
        the board has just taken up (a reload, another language), said after the board's message: it plays at the
        level reached and counts on from the wins or losses in a row, that match too if it counted (or if `counts`).
        The matches kept aside are not counted (the browser does not keep which were begun under it). Kept words
        that cannot be read are logged and change nothing."""
        factory, table = self.opponent_factory, self.controller
        if kept is None or factory is None or isinstance(table, ClassTable) or kind_of(table) != COMPUTER:
            return
        try:
            adaptive = AdaptiveLevel.from_data(kept)
        except AIError as error:
            log.warning("the adaptive choice kept could not be read: %s", error)
            return
        if counts is None:
            counts = isinstance(kept, dict) and kept.get("counts") is True
        self.adaptive = adaptive
        self._put_back(self.level_pick, ADAPTIVE)
        self.names_row.layout.display = "none"
        self._adaptive_skips = weakref.WeakSet(aside.match for aside in self.set_aside.values())
        if not counts:
            self._adaptive_skips.add(table.match)
        if level_of(table.opponent) != adaptive.level:
            table.set_opponent(factory(adaptive.level, None))
        kept_words = text("levels.adaptive.kept", level=text(f"levels.in_sentence.{adaptive.level}"))
        table.say(f"{table.message} {kept_words}" if table.message else kept_words)

    def _count_match(self) -> None:
        """With the adaptive level, count a match against the computer once it is over (one the learner had not begun
        when the adaptive choice was made: `_adaptive_skips`), and change the opponent if it says so."""
        adaptive, match, factory = self.adaptive, self.controller.match, self.opponent_factory
        if (adaptive is None or factory is None or not match.is_over or match in self._adaptive_skips
                or isinstance(self.controller, ClassTable)):  # a class table's match is the class's tables' to count
            return
        self._adaptive_skips.add(match)
        moved = adaptive.record(match.result_for(self.controller.viewer))
        if moved:
            if moved not in ("top", "bottom"):  # (the level moved)
                self.controller.set_opponent(factory(adaptive.level, None))
            level = text(f"levels.in_sentence.{adaptive.level}")
            self.controller.say(f"{self.controller.message} {text(f'levels.adaptive.{moved}', level=level)}")
            self.board.refresh()


def level_of(opponent: Chooser | None) -> str | None:
    """The level a computer opponent plays at (a player of `ai.players` says it, as `level`), None if it does not
    say."""
    level = getattr(opponent, "level", None)
    return level if isinstance(level, str) else None


def build_play(opponent: Chooser, *, hinter: HintFn | None = None, opponent_factory: OpponentFactory | None = None,
               level: str = "beginner", seed: int | str | None = None, rules: str = "REVISED_2008",
               address: Callable[[], str] = lambda: "", background: bool = True,
               class_client: ClassClient | None = None) -> PlaySection:
    """A Play section against `opponent` (its level shown as `level`); a match of a fresh deal code unless
    `seed` is given. `address()` is the page's address, for the "Share this deal" link; `background` lets
    the review of a hand search while the learner thinks (see `Table`); with `class_client` (a class server),
    a classmate is one of the opponents."""
    controller = against_computer(opponent, rules=rules_by_key(rules), seed=new_deal_code() if seed is None else seed,
                                  hinter=hinter, background=background)
    return PlaySection(controller, opponent_factory, level, address, class_client)
