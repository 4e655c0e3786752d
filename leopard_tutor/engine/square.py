"""A player's square: nine labelled spaces, each a pile of cards, and its notation.

Notation: nine tokens for spaces 1..9, separated by whitespace, with `/` allowed between rows.
`.` is an empty space, `KS` a face-up card, `QD*` a face-down card; a pile is written bottom
first, joined by `+` (`7H+QD*+7S`). A card laid by the other player (not the square's owner) ends
with `!` (`7H+JC*!`, `5D!`). In what a player may see, a face-down card they cannot identify is
`?*` (a jack or a queen, laid by the owner) or `J?*` (a jack the other player laid).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import COPIES, JACK, QUEEN, Card
from .catalogue import text
from .errors import LeopardError, NotationError, quote
from .placement import PLACEMENT, lies_face_down
from .rules import LINES, LINES_THROUGH

OPEN = 4  # the "suit" of a space whose top is missing or face down
FULL_MASK = (1 << 9) - 1
MAX_NOTATION = 2_000  # characters: every card of both packs in one square takes less
_RED = (False, True, True, False)  # by suit index: S H D C


def _line_kind(a: int, b: int, c: int) -> int:
    if OPEN in (a, b, c):
        return 0
    if a == b == c:
        return 2
    if _RED[a] == _RED[b] == _RED[c]:
        return 1
    return 0


_KIND_TABLE = tuple(_line_kind(a, b, c) for a in range(5) for b in range(5) for c in range(5))
# For each space (0-based), every line through it: (line number, the line's other two spaces, 0-based).
_LINES_AT = tuple(
    tuple((line, *(s - 1 for s in LINES[line] if s != space)) for line in LINES_THROUGH[space])
    for space in range(1, 10)
)
KIND_NAMES = (None, "color", "suit")


class Hidden:
    """A face-down card seen from outside: a jack or queen, or (`jack_only`) certainly a jack.

    Immutable, and there are only two: `Hidden(True) is Hidden(jack_only=True)`."""

    __slots__ = ("jack_only",)
    jack_only: bool

    def __new__(cls, jack_only: bool = False) -> Hidden:
        if type(jack_only) is not bool:
            raise LeopardError(f"jack_only must be True or False, not {quote(jack_only)}")
        return _HIDDEN[jack_only]

    @classmethod
    def _make(cls, jack_only: bool) -> Hidden:
        hidden = object.__new__(cls)
        object.__setattr__(hidden, "jack_only", jack_only)
        return hidden

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("hidden cards are immutable")

    def __reduce__(self) -> tuple[type[Hidden], tuple[bool]]:
        return (Hidden, (self.jack_only,))

    def __copy__(self) -> Hidden:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Hidden:
        return self

    @property
    def ranks(self) -> tuple[int, ...]:
        """The ranks the card may be: a jack, or a jack or a queen."""
        return (JACK,) if self.jack_only else (JACK, QUEEN)

    @property
    def name(self) -> str:
        """What is known of the card, in words (in the current language)."""
        return text("words.hidden.jack" if self.jack_only else "words.hidden.card")

    def __str__(self) -> str:
        return "J?" if self.jack_only else "?"

    def __repr__(self) -> str:
        return f"Hidden(jack_only={self.jack_only})"


_HIDDEN = {False: Hidden._make(False), True: Hidden._make(True)}

Face = Card | Hidden
"""What lies on a space as a viewer knows it: a card, or a face-down card that the viewer cannot name."""
Layer = tuple[Face, bool]
"""One card in a pile: the card (or what is known of it) and whether it lies face up."""


def _implied(face: object) -> bool:
    """Whether a layer given without a mark was laid by the other player: only a hidden jack says so."""
    return isinstance(face, Hidden) and face.jack_only


def _check_layer(face: object, face_up: object, by_other: object = False) -> Layer:
    if by_other not in (True, False):
        raise LeopardError(f"laid_by_other must be True or False, not {quote(by_other)}")
    if isinstance(face, Hidden):
        if face_up:
            raise LeopardError("a card whose identity is hidden must lie face down")
        if face.jack_only != by_other:
            raise LeopardError("a hidden face-down card is a jack exactly when the other player laid it ('J?*')")
        return (face, False)
    if not isinstance(face, Card):
        raise LeopardError(f"a pile holds cards, not {quote(face)}")
    if face_up not in (True, False):
        raise LeopardError(f"face_up must be True or False, not {quote(face_up)}")
    if lies_face_down(face) and face_up:
        raise LeopardError(f"the {face.name} cannot lie face up: jacks and queens are always played face down")
    if not lies_face_down(face) and not face_up:
        raise LeopardError(f"the {face.name} cannot lie face down: only jacks and queens are played face down")
    if by_other and PLACEMENT[face.rank].own_only:
        raise LeopardError(f"the {face.name} cannot have been laid by the other player: tens, queens and kings "
                           "go only on their player's own square")
    return (face, bool(face_up))


class Square:
    """Nine spaces labelled 1..9, each holding a pile of cards (oldest first). A square changes as cards are laid
    (by its hand), so squares compare by their piles but are not hashable: key by `str(square)` instead."""

    __slots__ = ("_piles", "_by_other", "_suits", "_kinds", "_open_mask", "_filled_mask", "_suit_lines",
                 "_color_lines")

    def __init__(self, piles: Iterable[Sequence[Layer | tuple[Face, bool, bool]]] | None = None) -> None:
        """An empty square, or one holding the given nine piles (layers oldest first).

        A layer is (card, face_up) or (card, face_up, laid_by_other): whether the other player, not the
        square's owner, laid it (False if not given)."""
        # piles are tuples, so that a copy of the square shares them until one changes
        self._piles: list[tuple[Layer, ...]] = [()] * 9
        self._by_other: list[tuple[bool, ...]] = [()] * 9
        self._suits = [OPEN] * 9
        self._kinds = [0] * 8
        self._open_mask = FULL_MASK
        self._filled_mask = 0
        self._suit_lines = 0
        self._color_lines = 0
        if piles is None:
            return
        given = list(piles)
        if len(given) != 9:
            raise LeopardError(f"a square has 9 spaces, not {len(given)}")
        for space, pile in enumerate(given, start=1):
            for layer in pile:
                if not isinstance(layer, tuple) or len(layer) not in (2, 3):
                    raise LeopardError(f"each layer of a pile is (card, face_up[, laid_by_other]), not {quote(layer)}")
                by_other = layer[2] if len(layer) == 3 else _implied(layer[0])
                self._push(space, *_check_layer(layer[0], layer[1], by_other), by_other)

    # -- reading -----------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> Square:
        """Read a square from its notation, such as `AS . 3C / 4S 5C . / 7H+KS 8S 9S`."""
        if not isinstance(text, str):
            raise NotationError(f"a square is written as text, not {type(text).__name__}")
        if len(text) > MAX_NOTATION:
            raise NotationError(f"{quote(text)} is too long to be a square")
        tokens = text.replace("/", " / ").split()
        slashes = [i for i, token in enumerate(tokens) if token == "/"]
        spaces = [token for token in tokens if token != "/"]
        if len(spaces) != 9:
            raise NotationError(
                f"{quote(text)} is not a square: it needs 9 tokens for spaces 1 to 9 (use '.' for an empty one), "
                f"found {len(spaces)}")
        if slashes and slashes != [3, 7]:
            raise NotationError(f"{quote(text)} is not a square: '/' may only stand between rows, after spaces 3 and 6")
        square = cls()
        copies: dict[Card, int] = {}
        for space, token in enumerate(spaces, start=1):
            if token == ".":
                continue
            for part in token.split("+"):
                try:
                    marked = part.endswith("!")
                    face, face_up = _parse_layer(part[:-1] if marked else part)
                    by_other = marked or _implied(face)
                    layer = _check_layer(face, face_up, by_other)
                    _check_possible(layer, square.is_empty(space), copies)
                    square._push(space, *layer, by_other)
                except LeopardError as error:  # it quotes the bad part, so the whole text is not quoted again
                    raise NotationError(f"this square cannot be read at space {space}: {error}") from None
        return square

    def __str__(self) -> str:
        tokens = ["+".join(f"{face}{'' if up else '*'}{'!' if other and isinstance(face, Card) else ''}"
                            for (face, up), other in zip(pile, marks))
                  or "." for pile, marks in zip(self._piles, self._by_other)]
        return " / ".join(" ".join(tokens[r:r + 3]) for r in (0, 3, 6))

    def __repr__(self) -> str:
        return f"Square.parse({quote(str(self))})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Square) and self._piles == other._piles and self._by_other == other._by_other

    __hash__ = None  # type: ignore[assignment]

    @property
    def open_mask(self) -> int:
        """The spaces that count as blank (empty or face down on top), as a bit mask (bit 0 = space 1)."""
        return self._open_mask

    @property
    def filled_mask(self) -> int:
        """The spaces holding at least one card, as a bit mask (bit 0 = space 1)."""
        return self._filled_mask

    @property
    def suit_lines(self) -> int:
        """How many lines are of one suit."""
        return self._suit_lines

    @property
    def color_lines(self) -> int:
        """How many lines are of one colour with mixed suits."""
        return self._color_lines

    def top(self, space: int) -> Layer | None:
        """The top card of a space and whether it lies face up, or None if the space is empty."""
        pile = self._piles[_index(space)]
        return pile[-1] if pile else None

    def pile(self, space: int) -> tuple[Layer, ...]:
        """Every card on a space, oldest first."""
        return self._piles[_index(space)]

    def laid_by_other(self, space: int) -> tuple[bool, ...]:
        """For every card on a space, oldest first, whether the other player (not the owner) laid it."""
        return self._by_other[_index(space)]

    def showing(self, space: int) -> Card | None:
        """The face-up card on top of a space, or None if it is empty or its top lies face down."""
        i = _index(space)
        if self._suits[i] == OPEN:
            return None
        face = self._piles[i][-1][0]
        assert isinstance(face, Card)
        return face

    def is_open(self, space: int) -> bool:
        """Whether a space counts as blank: empty, or its top card face down."""
        return bool(self._open_mask >> (_index(space)) & 1)

    def is_empty(self, space: int) -> bool:
        """Whether no card at all lies on a space."""
        return not self._piles[_index(space)]

    def cards(self) -> list[Card]:
        """Every known card in the square, covered ones included, space by space, oldest first."""
        return [face for pile in self._piles for face, _ in pile if isinstance(face, Card)]

    def line_kind(self, line: int) -> str | None:
        """'suit', 'color' or None for line number `line` of `rules.LINES`."""
        return KIND_NAMES[self._kinds[line]]

    def copy(self) -> Square:
        """An independent copy."""
        new = Square.__new__(Square)
        new._piles = list(self._piles)
        new._by_other = list(self._by_other)
        new._suits = list(self._suits)
        new._kinds = list(self._kinds)
        new._open_mask = self._open_mask
        new._filled_mask = self._filled_mask
        new._suit_lines = self._suit_lines
        new._color_lines = self._color_lines
        return new

    def with_card(self, card: Card, space: int, *, by_other: bool = False) -> Square:
        """A copy with `card` laid on `space` as it would land (face down if a jack or queen), by the
        square's owner or (`by_other`) by the other player.

        This does not ask whether the play is legal: `check_play` answers that.
        """
        if not isinstance(card, Card):
            raise LeopardError(f"expected a Card, not {quote(card)}")
        if by_other:
            _check_layer(card, not lies_face_down(card), True)
        new = self.copy()
        new._push(_index(space) + 1, card, not lies_face_down(card), bool(by_other))
        return new

    # -- changing (for the engine's own use) ---------------------------------------------------
    def _push(self, space: int, face: Face, face_up: bool, by_other: bool = False) -> None:
        i = space - 1
        self._piles[i] += ((face, face_up),)
        self._by_other[i] += (by_other,)
        self._filled_mask |= 1 << i
        self._set_top(i, face.suit_index if face_up else OPEN)  # type: ignore[union-attr]

    def _pop(self, space: int) -> Layer:
        i = space - 1
        pile = self._piles[i]
        layer = pile[-1]
        self._piles[i] = pile = pile[:-1]
        self._by_other[i] = self._by_other[i][:-1]
        if pile:
            face, face_up = pile[-1]
            self._set_top(i, face.suit_index if face_up else OPEN)  # type: ignore[union-attr]
        else:
            self._filled_mask &= ~(1 << i)
            self._set_top(i, OPEN)
        return layer

    def _set_top(self, i: int, suit: int) -> None:
        if suit == OPEN:
            self._open_mask |= 1 << i
        else:
            self._open_mask &= ~(1 << i)
        suits = self._suits
        if suits[i] == suit:
            return
        suits[i] = suit
        kinds = self._kinds
        for line, j, k in _LINES_AT[i]:  # a line's kind does not depend on the order of its suits
            new = _KIND_TABLE[(suit * 5 + suits[j]) * 5 + suits[k]]
            old = kinds[line]
            if new != old:
                kinds[line] = new
                self._suit_lines += (new == 2) - (old == 2)
                self._color_lines += (new == 1) - (old == 1)


def _index(space: int) -> int:
    if type(space) is int and 1 <= space <= 9:
        return space - 1
    if not isinstance(space, int) or isinstance(space, bool) or not 1 <= space <= 9:
        raise LeopardError(f"spaces are numbered 1 to 9, not {quote(space)}")
    return space - 1


def _check_possible(layer: Layer, on_empty: bool, copies: dict[Card, int]) -> None:
    """Refuse a layer no game can leave: a face-down card (a jack or a queen) at the bottom of a pile, which
    covers a card and so never lies on an empty space, or a card more often than the two packs hold it
    (`copies` counts the square's cards so far and is updated)."""
    face, face_up = layer
    if on_empty and not face_up:
        raise NotationError("a face-down card (a jack or a queen) is laid on a card, never on an empty space")
    if isinstance(face, Card):
        copies[face] = copies.get(face, 0) + 1
        if copies[face] > COPIES:
            raise NotationError(f"a square cannot hold the {face.name} {copies[face]} times: "
                                f"the two packs have {COPIES} of each card")


def _parse_layer(part: str) -> Layer:
    face_down = part.endswith("*")
    body = part[:-1] if face_down else part
    if body.upper() in ("?", "J?"):
        if not face_down:
            raise NotationError(f"'{part}': a hidden card is written with '*', as in '?*'")
        return (Hidden(jack_only=body.upper() == "J?"), False)
    if not body:
        raise NotationError(f"'{part}' is not a card")
    return (Card.parse(body), not face_down)
