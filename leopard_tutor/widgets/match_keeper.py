"""Play's matches against the computer kept in the visitor's browser, so that a reload (or a lost kernel, or a server
restart) takes them up again where they were: the match on the board and the matches kept aside.

After every click the keeper saves, as JSON under `BrowserStorage("matches")`, the saved-game code of the match on the
board (only against the computer, once the learner has moved, or from the moment it is dealt if a teacher's round dealt
it, until it is over) and of each match against the computer kept aside, by its rules, the computer level the Opponent
menu holds (above the first: a reload deals its fresh match against it), and, with the adaptive choice made, its level
reached, its wins or losses in a row and whether the match on the board counts for it (`PlaySection.adaptive_kept`: a
reload chooses it again with the match it played, or for the page's fresh deal). A class table's match that the computer
finished in a gone classmate's seat is the page's alone (the server recorded only how the table ended): it is kept as
its code with the table it was played at (`PlaySection.codes_to_keep`), on the board until another match takes its place
there, even once it is over, and comes back where it was, or as it ended. When a new page gives them back (`restore`),
the match on the board goes on, unless the learner has begun another there, opened another shared deal or a link asking
for other rules or another opponent, or sits at a class table (then it is kept aside, and choosing its rules and a
computer opponent takes it up, as the sentence said before the reload). A shared deal's page reloaded goes on with that
deal where it was, and a link's page reloaded with its match; the same deal's link opened in a new tab deals it afresh
(the match another tab played on is kept aside). A game between two people at one device is kept as a code with the two
names (`PlaySection.people_to_keep`), on the board from the moment it is dealt and aside once under way, and comes back
behind the hand-over screen (`PlaySection.take_up_people`), on the board in place of the page's fresh deal (else kept
aside, as above). Each tab keeps its own (`BrowserStorage`, per_tab): a reload of one takes up that tab's matches; a new
tab takes up those of the closed tab that saved last, which are then its own, the next new tab those of another closed
tab, and so on. Where every tab that kept matches is still open (or the new tab is a duplicate of one), it takes up
none: it says so (where the newest of them has a match, not a level alone) and plays its own
(`BrowserStorage.held_elsewhere`), for two tabs going on with two copies of one match would answer one move two ways.
What a browser gives back is input like any other: a text that is not such JSON, or a code that cannot be read, is
logged and changes nothing.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from ..engine import RULE_SETS, LeopardError
from ..engine.errors import saved_json
from .storage import MAX_STORED, BrowserStorage, StorageError

if TYPE_CHECKING:
    from .play_section import PlaySection

log = logging.getLogger(__name__)


class MatchKeeper:
    """Keeps `section`'s matches against the computer in the browser (see the module docstring); `storage` is the
    widget the page must show for it to work."""

    def __init__(self, section: PlaySection) -> None:
        self.section = section
        self.storage = BrowserStorage("matches", per_tab=True)  # each tab keeps its own matches
        self.storage.on_restore(self.restore)
        self._saved = ""

    def kept_text(self) -> str:
        """What the browser is to keep now: {"board": kept or null, "aside": {rules: kept}} ("" if nothing), each kept
        match a code, or a class table's match the computer finished (`PlaySection.codes_to_keep`), and, with the
        adaptive choice made, "adaptive": its level reached and streak (`PlaySection.adaptive_kept`)."""
        board, aside = self.section.codes_to_keep()
        adaptive, level = self.section.adaptive_kept(), self.section.level_kept()
        people = self.section.people_to_keep()
        kept: dict[str, Any] = {"board": board, "aside": aside}
        if adaptive is not None:
            kept["adaptive"] = adaptive
        if level is not None:
            kept["level"] = level
        if people is not None:
            kept["people"] = people
        return json.dumps(kept, separators=(",", ":")) if board or aside or adaptive or level or people else ""

    def save(self) -> None:
        """Have the browser keep the matches as they stand (nothing is sent when nothing changed)."""
        kept = self.kept_text()
        if kept == self._saved:
            return
        try:
            self.storage.save(kept)
        except StorageError:
            log.warning("the matches are too long to keep in the browser (%d characters)", len(kept))
            return
        self._saved = kept

    def restore(self, kept: str) -> None:
        """Take up the matches the browser kept (see the module docstring)."""
        held = self.storage.held_elsewhere
        if not kept and not held:
            return
        try:
            found: Any = saved_json(kept or held, "match", MAX_STORED)  # logged, never shown
            board = found["board"]
            aside = [self.section.read_kept(kept) for kept in list(dict(found["aside"]).values())[:len(RULE_SETS)]]
            game = None if board is None else self.section.read_kept(board)
            adaptive, level = found.get("adaptive"), found.get("level")
            people, people_aside = self.section.read_people(found.get("people"))
        except (ValueError, KeyError, TypeError, AttributeError, LeopardError) as error:
            log.warning("the matches kept in the browser could not be read: %s", error)
            return
        if held:  # another open tab goes on with them: said only where it holds a match, not a level alone
            if game is not None or aside or people is not None or people_aside:
                self.section.kept_elsewhere()
            return
        self.section.take_up_people(people, people_aside)  # (first: the game on the board then holds it)
        self.section.take_up_kept(game, aside, reloaded=self.storage.this_tab, adaptive=adaptive, level=level)
        self._saved = kept

