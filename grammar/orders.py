"""Reading orders: every notation players write in, one canonical `Order` out (one, or a file).

    >>> str(parse_order("F North Sea convoys A London -> Norway"))
    'F NTH C A LON - NWY'
    >>> str(parse_order("A Ven-Tri"))
    'A VEN - TRI'
    >>> parse_order_line("France: A Paris moves to Burgundy")
    ('France', Move(kind='A', location='PAR', target='BUR', via_convoy=False))
    >>> parse_order_line("( FRA AMY PAR ) MTO BUR")
    ('France', Move(kind='A', location='PAR', target='BUR', via_convoy=False))

The notations:

- short, the canonical one (``str(order)``): ``A PAR - BUR``, ``F NTH C A LON - NWY``,
  ``A MUN S A BER - KIE``, ``F STP/SC - BOT``, ``A LON - NWY VIA``, ``A SMY - AEG - GRE``,
  ``F BRE R MAO``, ``A PAR D``, ``F STP/NC B``, ``WAIVE``;
- long English and the email Judges' syntax (njudge, DPjudge): ``A Paris -> Burgundy``,
  ``Army Venice HOLD.``, ``A Rome m Apulia``, ``A Vienna stands``, ``A Ven-Tri``,
  ``F Nth C A Edi-Nwy``, ``Build F St Petersburg (north coast)``, ``A Par r``, ``w``,
  with ``Power:`` (``Ger:``) in front, several orders a line (``,`` or ``;``), a period
  at the end and a Judge's report mark (``(*bounce*)``, kept in `OrderLine.mark`); the
  unit type may be left out (``Ven - Tri``): see `dipsolve.grammar.drafts`;
- DAIDE: ``( FRA AMY PAR ) MTO BUR``, ``( ENG FLT NTH ) CVY ( ENG AMY LON ) CTO NWY``,
  ``( RUS FLT ( STP SCS ) ) BLD``, ``FRA WVE``.

Short, long and the Judges' syntax are one Lark grammar (``orders.lark``, LALR, built
once; its post-lexer `CompactDashes` splits ``Ven-Tri`` where no name goes on through
the hyphen).  A text that starts with ``(`` (or is ``POWER WVE``) is DAIDE and goes to
the DAIDE order grammar (`dipsolve.grammar.daide_order.parse_daide_order`, the one
press uses too).  Canonical short text takes a fast path (`dipsolve.grammar.fastpath`)
that gives what the grammar gives.  Writing an order in any notation is
`dipsolve.grammar.notation.format_order` (also importable from here).

Errors are `DipsolveSyntaxError` (not understood: ``expected '-', found end of line``,
``unknown province 'Pariss'``, ``unknown power 'Frence'``, an ambiguous order with its
readings) or, for an order read against a position, `DipsolveRuleError` (understood,
but its unit is not there: the rule ``"unit"`` of `dipsolve.core.rules`), each at its line
and column with a caret.  Whether an understood order is *legal* in a position is
`dipsolve.core.rules`'s question, not the grammar's.
"""

from __future__ import annotations

import itertools

import difflib
import re
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from typing import Any, Iterable, Iterator, NamedTuple

from lark import Lark, Token, Transformer

from dipsolve.core.bounds import LIMITS, limit_error
from dipsolve.core.errors import quote
from dipsolve.core.map import COAST_ALIASES, Map
from dipsolve.core.orders import Build, Disband, Order, UnitOrder
from dipsolve.core.position import Position, map_of

from .daide_order import parse_daide_order
from .drafts import Board, Draft, PlaceAt, UnitAt, complete
from .errors import (DipsolveError, DipsolveRuleError, DipsolveSyntaxError, Source, Span,
                     lark_errors, placed, placed_at)
from .fastpath import fast_order_line
from .loading import lalr_parser
from .notation import NOTATIONS, FormatError, format_order

__all__ = ["NOTATIONS", "FormatError", "OrderLine", "PlaceAt", "UnitAt", "format_order",
           "parse_order", "parse_order_line", "parse_orders", "read_orders"]


# ---------------------------------------------------------------- compact dashes
#: the hyphen keys of the map being read (see `hyphen_keys`)
_KEYS: ContextVar[frozenset[str]] = ContextVar("hyphen_keys", default=frozenset())


def hyphen_keys(m: Map) -> frozenset[str]:
    """Where a hyphen belongs to a name: ``"MID-ATLANTIC"`` (the words of a name up to
    and through each of its hyphens, upper case), for every name and alias of ``m``'s
    provinces and of the powers (``"AUSTRIA-HUNGARY"``)."""
    keys = m.memo.get("orders.hyphen_keys")
    if keys is None:
        found = set()
        names = [n for p in m.provinces.values() for n in (p.name, *p.aliases)]
        for name in names + list(m.power_aliases):
            words = name.upper().split()
            for i, w in enumerate(words):
                parts = w.split("-")
                for k in range(1, len(parts)):
                    found.add(" ".join(words[:i] + ["-".join(parts[:k + 1])]))
        keys = m.memo["orders.hyphen_keys"] = frozenset(found)
    return keys


class CompactDashes:
    """Lark post-lexer: ``Ven-Tri`` (one WORD) becomes WORD ``-`` WORD unless the map
    has a name that goes on through that hyphen (``Mid-Atlantic Ocean``): compact
    moves are read, and the longest province name wins."""

    always_accept = ()

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        keys = _KEYS.get()
        run: list[str] = []        # the WORDs of the name being read, upper case
        for tok in stream:
            if tok.type != "WORD":
                run.clear()
                yield tok
            elif "-" not in tok.value:
                run.append(tok.value.upper())
                yield tok
            else:
                yield from _split(tok, run, keys)

    # Lark calls a post-lexer with the lexer's state on some paths
    def __call__(self, stream: Iterator[Token]) -> Iterator[Token]:
        return self.process(stream)


def _split(tok: Token, run: list[str], keys: frozenset[str]) -> Iterator[Token]:
    pieces = tok.value.split("-")
    start, cur = 0, pieces[0]
    for piece in pieces[1:]:
        joined = f"{cur}-{piece}"
        if " ".join(run + [joined.upper()]) in keys:
            cur = joined
            continue
        yield _piece(tok, "WORD", cur, start)
        yield _piece(tok, "_DASH", "-", start + len(cur))
        run.clear()
        start, cur = start + len(cur) + 1, piece
    run.append(cur.upper())
    yield _piece(tok, "WORD", cur, start)


def _piece(tok: Token, kind: str, value: str, offset: int) -> Token:
    """A piece of a WORD as a token of its own, at its own place in the text."""
    column, start = (tok.column or 1) + offset, (tok.start_pos or 0) + offset
    return Token(kind, value, start, tok.line, column, tok.line, column + len(value),
                 start + len(value))


# ---------------------------------------------------------------- the parser
@cache
def orders_parser() -> Lark:
    """The LALR parser for ``orders.lark``, built once per process."""
    return lalr_parser("orders.lark", start=["order_line", "single_order"], postlex=CompactDashes(),
                       transformer=_Shape(), keep_all_tokens=True, propagate_positions=False)


_UNIT = "a unit (A or F)"
_LABELS = {
    "KIND_A": _UNIT, "KIND_F": _UNIT, "KIND_ARMY": _UNIT, "KIND_FLEET": _UNIT,
    "WORD": "a name",
    "COAST": "a coast ('/NC', '(sc)')",
    "_H": "'H'", "_HOLD": "'H'", "_HOLDS": "'H'", "_STAND": "'H'", "_STANDS": "'H'",
    "_DASH": "'-'", "_ARROW": "'-'", "_DARROW": "'-'", "_TO": "'-'", "_MOVE": "'-'",
    "_MOVES": "'-'", "_M": "'-'",
    "_S": "'S'", "_SUPPORT": "'S'", "_SUPPORTS": "'S'",
    "_C": "'C'", "_CONVOYS": "'C'", "_CONVOY": "'convoy'",
    "_R": "'R'", "_RETREAT": "'R'", "_RETREATS": "'R'",
    "_D": "'D'", "_DISBAND": "'D'", "_DISBANDS": "'D'", "_REMOVE": "'D'", "_REMOVES": "'D'",
    "_B": "'B'", "_BUILD": "'B'", "_BUILDS": "'B'",
    "_VIA": "'VIA'", "_BY": "'VIA'", "_W": "'WAIVE'", "_WAIVE": "'WAIVE'", "_WAIVES": "'WAIVE'",
    "MARK": "a report mark ('(*bounce*)')",
    "_COLON": "':'", "_SEP": "','",
    "_NL": "end of line", "$END": "end of file",
}
#: a terminal is not worth naming when another is also expected ('-' says 'to')
_HIDDEN_IF = {"_CONVOY": "_C", "_TO": "_DASH", "MARK": "_NL", "_SEP": "_NL"}


def _refiner(start: str):
    """How to name what was expected, knowing the token read before the error: where an
    order may start, a WORD is a province (or a power's name before ':'); after a WORD,
    more WORDs would be more of the same name."""
    def refine(last: Token | None, expected: set[str], labels: dict[str, str]) -> str | None:
        if "KIND_A" in expected and "_WAIVE" in expected:      # an order may start here
            if start == "single_order" or last is None:
                expected.discard("_NL")
            labels.update(WORD="a province", _D="'Disband'", _DISBAND="'Disband'",
                          _DISBANDS="'Disband'", _REMOVE="'Remove'", _REMOVES="'Remove'",
                          _B="'Build'", _BUILD="'Build'", _BUILDS="'Build'")
        elif last is not None and last.type == "WORD":
            expected.discard("WORD")
        else:
            labels["WORD"] = "a province"
        return None
    return refine


_REFINE = {start: _refiner(start) for start in ("order_line", "single_order")}


# ---------------------------------------------------------------- what was read, and where
@dataclass(frozen=True, slots=True)
class PowerAt:
    name: str
    at: Span


@dataclass(frozen=True, slots=True)
class OrderAt:
    """An order as read: its `Draft` (or, read from DAIDE, the order itself), where it
    was written, and the report mark after it (``"bounce"`` for ``(*bounce*)``)."""
    draft: Draft | None
    at: Span
    mark: str | None = None
    order: Order | None = None

    @property
    def unit(self) -> UnitAt | None:
        """The unit ordered, as written (None for a waive)."""
        return self.draft.units[0] if self.draft is not None and self.draft.units else None


@dataclass(frozen=True, slots=True)
class OrderLine:
    """One order of an orders file: who gave it (None when neither the line nor a header
    above it said, and none had to), the order, where it was written (``line`` and
    ``column`` of the order itself, after any ``Power:``), and the result a Judge's
    report gave it (``mark``: ``"bounce"`` for ``(*bounce*)``, else None)."""
    power: str | None
    order: Order
    filename: str
    line: int
    column: int
    text: str            # the order as written
    mark: str | None = None

    @property
    def location(self) -> str:
        return f"{self.filename}:{self.line}:{self.column}"


def power_of(text: str, game_map: Map) -> str | None:
    """A power of the map by any name it knows (`Map.power`) or by the start of its name,
    two letters or more (``"Ger"``, ``"Tu"``)."""
    name = game_map.power(text)
    if name is None:
        key = text.strip().upper().rstrip(".")
        if len(key) >= 2 and key.isalpha():
            found = [p for p in game_map.powers if p.upper().startswith(key)]
            name = found[0] if len(found) == 1 else None
    return name


# ---------------------------------------------------------------- names
class NameReader:
    """Resolves places, units and powers through the map as the tree is read, so that a
    bad name is reported at its own column.  The position reader builds on it."""

    def __init__(self, text: str, source: Source, game_map: Map) -> None:
        self.text = text          # the text parsed (one line of a file, or all of it)
        self.source = source      # the whole text, for errors
        self.map = game_map

    def _at(self, meta) -> Span:
        return Span(meta.line, meta.column, self.text[meta.start_pos:meta.end_pos])

    def read_place(self, meta, children) -> PlaceAt:
        """A ``place`` node (WORDs and an optional COAST) as a map location."""
        at = self._at(meta)
        words = [c for c in children if c.type.endswith("WORD")]
        coast = [c for c in children if c.type.endswith("COAST")]
        name = self.text[words[0].start_pos:words[-1].end_pos]
        loc = self.map.location(name + (_coast_text(coast[0].value) if coast else ""))
        if loc is None and not coast:
            loc = _trailing_coast(self.map, name)
        if loc is not None:
            return PlaceAt(loc, at)
        prov = self.map.province(name)
        if prov is None:
            raise self.source.error(DipsolveSyntaxError,
                                    f"unknown province '{quote(name)}'{unknown_name_hint(self.map, name)}",
                                    at.line, at.column, found=name,
                                    expected="a province: a name, abbreviation or DAIDE token")
        coasts = self.map.provinces[prov].coasts
        if coasts:
            why = "expected " + " or ".join(f"{prov}/{c}" for c in coasts)
        else:
            why = f"{self.map.provinces[prov].name} has no coasts"
        raise self.source.error(DipsolveSyntaxError, f"unknown coast {at.text!r} ({why})",
                                at.line, at.column, found=at.text, expected=why)

    def read_unit(self, meta, kind: Token | None, place: PlaceAt) -> UnitAt:
        """A ``unit`` node: its kind token (A, F, army, fleet; None when left out) and its
        place, read."""
        return UnitAt(kind.value[0].upper() if kind is not None else "", place.loc, self._at(meta))

    def power_at(self, at: Span, header: bool = False) -> PowerAt:
        """The power a name (a ``[Header]`` when ``header``) stands for."""
        power = power_of(at.text, self.map)
        if power is None:
            also = ", or 'dislodged' or 'orders'" if header else ""
            expected = f"one of {', '.join(self.map.powers)}{also}"
            raise self.source.at(DipsolveSyntaxError, f"unknown power {at.text!r} (expected {expected})",
                                 at, expected)
        return PowerAt(power, at)


def _coast_text(coast: str) -> str:
    """``/north coast`` as ``/north``, which `Map.location` reads."""
    return re.sub(r"\s+coast\s*$", "", coast, flags=re.IGNORECASE) if coast.startswith("/") else coast


def _trailing_coast(m: Map, name: str) -> str | None:
    """``Spain north coast``, ``STP NC``: a bicoastal province named with its coast in
    words, without the slash or parentheses."""
    words = name.split()
    for k in (2, 1):
        if len(words) > k:
            coast = COAST_ALIASES.get(" ".join(words[-k:]).upper())
            prov = m.province(" ".join(words[:-k]))
            if coast is not None and prov is not None and coast in m.provinces[prov].coasts:
                return f"{prov}/{coast}"
    return None


def _longest_name(m: Map) -> int:
    """The length of the map's longest spelling of a province, letters and digits only."""
    longest = m.memo.get("longest name")
    if longest is None:
        longest = m.memo["longest name"] = max(map(len, m.names))
    return longest


def unknown_name_hint(m: Map, name: str) -> str:
    """Advice for a name that is no province: a power with no ':' after it, a keyword
    run into a name, or the nearest spelling.  Linear in the length of ``name``: only
    the heads no longer than the map's longest name are looked up, and a name more than
    twice as long as that is close to none (difflib's ratio is below the cutoff)."""
    words = name.split()
    if len(words) > 1 and power_of(words[0], m) is not None and m.province(words[0]) is None:
        return f" (is a ':' missing after the power {quote(words[0])!r}?)"
    longest = _longest_name(m)
    heads, letters = 0, 0
    for w in words[:-1]:
        letters += sum(ch.isalnum() for ch in w)
        if letters > longest:
            break
        heads += 1
    for i in range(heads, 0, -1):
        head = " ".join(words[:i])
        if m.province(head):
            return f" ({head!r} is a province: is a ',' or a keyword missing after it?)"
    if len(name) > 4 * longest:
        return ""
    key = "".join(ch for ch in name.upper() if ch.isalnum())
    if len(key) > 2 * longest:
        return ""
    close = difflib.get_close_matches(key, list(m.names), n=1, cutoff=0.75)
    if close:
        prov = m.names[close[0]]
        return f" (did you mean {prov}, {m.provinces[prov].name}?)"
    return ""


# ---------------------------------------------------------------- the tree to drafts
class _Meta(NamedTuple):
    """Where a node of the parse was written (what Lark's ``meta`` holds)."""
    line: int
    column: int
    start_pos: int
    end_pos: int


class _Node(NamedTuple):
    data: str
    children: list
    meta: _Meta


def _node(name: str):
    def build(self, children: list) -> _Node:
        first, last = children[0], children[-1]
        f: Any = first if isinstance(first, Token) else first.meta     # both have the four
        t: Any = last if isinstance(last, Token) else last.meta
        return _Node(name, children, _Meta(f.line, f.column, f.start_pos, t.end_pos))
    return build


class _Shape(Transformer):
    """Called by the parser as it reduces (no Lark tree, no position propagation): each
    node as a `_Node` with the span of its first and last token.  The grammar keeps every
    token (``keep_all_tokens``), so a node's span covers its keywords too."""
    power, order, unit, place, via = (_node(n) for n in ("power", "order", "unit", "place", "via"))
    hold, move, support_hold, support_move = (
        _node(n) for n in ("hold", "move", "support_hold", "support_move"))
    convoy, retreat, disband, build, waive = (
        _node(n) for n in ("convoy", "retreat", "disband", "build", "waive"))

    def order_line(self, children: list) -> list:
        return [c for c in children if not isinstance(c, Token)]

    single_order = order_line


class _Build(NameReader):
    """Parses of ``orders.lark`` (`_Node` trees) to `OrderAt` objects, with the power when one
    was written: ``power? order* -> (hold | move | ...) MARK* -> unit | place | via``.
    """

    def read(self, nodes: list[_Node]) -> tuple[PowerAt | None, list[OrderAt]]:
        power: PowerAt | None = None
        refs = []
        for c in nodes:
            if c.data == "power":
                power = self.power_at(self._at(c.meta))
            else:
                refs.append(self._order(c))
        return power, refs

    def _order(self, node: _Node) -> OrderAt:
        act, *marks = node.children
        units: list[UnitAt] = []
        places: list[PlaceAt] = []
        via = False
        for c in act.children:
            if isinstance(c, Token):
                continue
            if c.data == "unit":
                *words, place = c.children      # the kind, or "a fleet in" (article, kind, in)
                kind = next((t for t in reversed(words) if t.type.startswith("KIND_")), None)
                units.append(self.read_unit(c.meta, kind,
                                            self.read_place(place.meta, place.children)))
            elif c.data == "place":
                places.append(self.read_place(c.meta, c.children))
            else:
                via = True
        at = self._at(act.meta)
        mark = ", ".join(m.value[2:-2].strip() for m in marks) or None
        bare = act.data == "hold" and len(act.children) == 1
        return OrderAt(Draft(act.data, tuple(units), tuple(places), via, bare), at, mark)


# ---------------------------------------------------------------- DAIDE orders
_DAIDE = re.compile(r"\s*(\(|[a-z]{3}\s+WVE\b)", re.IGNORECASE)


def is_daide(text: str) -> bool:
    """Whether an order is written in DAIDE: it starts with ``(`` or is ``POWER WVE``."""
    return _DAIDE.match(text) is not None


def _daide_order(line: str, source: Source, game_map: Map) -> tuple[PowerAt, list[OrderAt]]:
    """One DAIDE order (a line of ``source``, numbered ``source.line_offset + 1``),
    read by the DAIDE order grammar."""
    body = line.split("#", 1)[0].rstrip()
    try:
        power, order = parse_daide_order(body, game_map=game_map)
    except DipsolveError as e:
        raise _moved(e, source) from None
    column = len(body) - len(body.lstrip()) + 1
    at = Span(1, column, body.strip())   # in the line read alone, as Lark's spans are
    draft = None
    if isinstance(order, UnitOrder):
        draft = Draft("daide", (UnitAt(order.kind, order.location, at),))
    return PowerAt(power, at), [OrderAt(draft, at, None, order)]


def _moved(e: DipsolveError, source: Source) -> DipsolveError:
    """An error found in one line read alone, placed in the whole text."""
    moved = []
    for x in e.errors:
        line = (x.line or 1) + source.line_offset
        moved.append(placed(x, filename=source.filename, line=line, column=x.column or 1,
                            source_line=source.line_text(line)))
    return DipsolveError.combine(moved)


# ---------------------------------------------------------------- reading
def _normalise(text: str) -> str:
    """LF line ends, and no byte-order mark (a Windows editor's UTF-8 starts with one)."""
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


#: what separates the orders of a line
_SEPARATOR = re.compile(r"[,;]")


def _parse(line: str, start: str, source: Source, game_map: Map) -> tuple[PowerAt | None, list[OrderAt]]:
    """One line: ``single_order`` (one text, one order or more) or ``order_line`` (a line
    of an orders file: orders, or a ``Power:`` header alone).  An order longer than
    ``max_order_length`` (the text between two of a line's separators, ``,`` and ``;``)
    is refused before the line is read (`dipsolve.core.bounds.LIMITS`): the reader is
    linear in the line, so the bound is on each order, and a whole phase may be one line."""
    limit = int(LIMITS["max_order_length"].value)
    if len(line) > limit:
        begin = 0
        for m in itertools.chain(_SEPARATOR.finditer(line), (None,)):
            end = m.start() if m is not None else len(line)
            while begin < end and line[begin].isspace():
                begin += 1
            if end - begin > limit:
                raise placed_at(limit_error("max_order_length", f"an order of {end - begin:,} characters"),
                                source, Span(1, begin + limit + 1, line[begin + limit:begin + limit + 1]))
            begin = end + 1
    if is_daide(line):
        return _daide_order(line, source, game_map)
    token = _KEYS.set(hyphen_keys(game_map))
    try:
        with lark_errors(source, _LABELS, text=line, hidden_if=_HIDDEN_IF, refine=_REFINE[start]):
            nodes = orders_parser().parse(line + "\n", start=start)
            return _Build(line, source, game_map).read(nodes)  # type: ignore[arg-type]
    finally:
        _KEYS.reset(token)


def finish(ref: OrderAt, game_map: Map, board: Board | None, source: Source) -> Order:
    """The order an `OrderAt` means on the map and, when given, the position's board
    (`dipsolve.grammar.drafts.complete`)."""
    if ref.order is not None:
        return ref.order
    assert ref.draft is not None
    return complete(ref.draft, game_map, board, source, ref.at)


def parse_order_line(text: str, game_map: Map | None = None, *,
                     position: Position | None = None) -> tuple[str | None, Order]:
    """One order in any notation, and the power that gave it if the text says
    (``"France: A PAR - BUR"``, ``"( FRA AMY PAR ) MTO BUR"``), else None.  Given the
    ``position``, what the text left out (the unit type, its coast) is read from it."""
    fast = fast_order_line(text, game_map, position)
    if fast is not None:
        return fast
    return grammar_order_line(text, game_map, position=position)


def grammar_order_line(text: str, game_map: Map | None = None, *,
                       position: Position | None = None) -> tuple[str | None, Order]:
    """`parse_order_line` through the grammar alone, without the fast path for canonical
    text (which gives the same: a test holds them to it)."""
    text = _normalise(text)
    m = map_of(game_map, position)
    source = Source(text)
    power, refs = _parse(text, "single_order", source, m)
    if len(refs) > 1:
        second = refs[1].at
        raise source.at(DipsolveSyntaxError, "expected one order, found a second one", second,
                        "one order")
    board = Board(position) if position is not None else None
    return (power.name if power is not None else None), finish(refs[0], m, board, source)


def parse_order(text: str, game_map: Map | None = None, *, position: Position | None = None) -> Order:
    """One order in any notation: ``"A MUN S A BER - KIE"``, ``"A Munich supports A
    Berlin -> Kiel"``, ``"Mun S Ber-Kie"`` and ``"( GER AMY MUN ) SUP ( GER AMY BER )
    MTO KIE"`` all give the same `SupportMove`.  An `Order` holds no power: a text
    that starts with one (``"France: A PAR - BUR"``) is refused, naming
    `parse_order_line`, which returns ``(power, order)`` (as it does for a DAIDE order,
    whose power is part of its notation).

    Locations come out canonical (``"stp(sc)"`` → ``"STP/SC"``); a fleet's goal without
    the coast it needs is completed when only one coast is in reach (``F MAR - SPA`` →
    ``SPA/SC``), else kept as written, for the adjudicator to judge.  Without a position
    a move stays a `Move` (a position in a retreat phase makes it a `Retreat`).

        >>> parse_order("France: A PAR - BUR")
        Traceback (most recent call last):
        ...
        dipsolve.core.errors.DipsolveSyntaxError: <string>:1:1: 'France:': parse_order reads an order without its power (an Order holds none); parse_order_line reads it with one and returns ('France', order)
        France: A PAR - BUR
        ^^^^^^^
        >>> parse_order_line("France: A PAR - BUR")
        ('France', Move(kind='A', location='PAR', target='BUR', via_convoy=False))
    """
    power, order = parse_order_line(text, game_map, position=position)
    if power is not None and not is_daide(_normalise(text)):
        head = _normalise(text).partition(":")[0]
        prefix = head.lstrip() + ":"
        raise Source(_normalise(text)).at(
            DipsolveSyntaxError, f"{quote(prefix)!r}: parse_order reads an order without its power (an "
            f"Order holds none); parse_order_line reads it with one and returns ({power!r}, order)",
            Span(1, 1 + len(head) - len(head.lstrip()), prefix),
            expected="an order without its power (parse_order_line reads it with one)")
    return order


_BLANK = re.compile(r"\s*(#.*)?\Z")


def _read_lines(text: str, filename: str, game_map: Map, start: str = "order_line",
                ) -> Iterable[tuple[Source, PowerAt | None, list[OrderAt]] | DipsolveError]:
    """Each line of an orders file, read alone: what it says, or its error."""
    whole = Source(text, filename)
    for number, line in enumerate(text.split("\n")):
        if _BLANK.match(line):
            continue
        source = whole.shifted(number)
        bare = _bare_power(line, game_map)
        if bare is not None:                 # a header without its colon
            yield source, bare, []
            continue
        try:
            power, refs = _parse(line, "order_line", source, game_map)
        except DipsolveError as e:
            yield e
            continue
        yield source, power, refs


def _bare_power(line: str, game_map: Map) -> PowerAt | None:
    """A power's name alone on a line (``Austria``, as order sheets people and language
    models write put it above that power's orders): a header, as ``Austria:`` is.  A
    province's name or abbreviation (``ENG``, the English Channel) is not taken for one."""
    name = line.split("#", 1)[0].strip()
    power = game_map.power(name) if name else None
    if power is None or game_map.province(name) is not None:
        return None
    return PowerAt(power, Span(1, line.index(name) + 1, name))


def _with_headers(items, need_power: bool):
    """Lines of an orders file with the power of each: its own ``Power:``, else the last
    header line's (``Germany:`` alone).  A line that has neither when one is needed is
    an error at its first column."""
    header: PowerAt | None = None
    for item in items:
        if isinstance(item, DipsolveError):
            yield item
            continue
        source, power, refs = item
        if not refs:                         # a header: the power of the lines below
            header = power
            continue
        if power is None:
            power = header
        if power is None and need_power:
            at = refs[0].at
            yield source.at(DipsolveSyntaxError,
                            "no power for this order (a line here is 'Power: ...', or a "
                            "'Power:' line above names the power of the lines below it)",
                            at, "'Power:'")
            continue
        yield source, power, refs


def read_orders(text: str, filename: str = "<string>", *, game_map: Map | None = None,
                need_power: bool = True, position: Position | None = None,
                check_units: bool = False) -> tuple[list[OrderLine], list[DipsolveError]]:
    """An orders file read line by line: the orders understood and the errors of those
    that were not (each at its line and column), both in file order.  `parse_orders`
    raises instead; ``dipsolve validate`` needs both.

    A line holds one order or several (``,`` or ``;`` between them), after an optional
    ``Power:``; a ``Power:`` alone on a line is the power of the lines below it.  With
    ``need_power=False`` an order may have no power.  Given the ``position``, what an
    order left out (its unit type, its coast) is read from it, and with ``check_units``
    an order for a unit that is not there is an error naming the one that is
    (`OrderChecker`); nothing else is checked."""
    text = _normalise(text)
    game_map = map_of(game_map, position)
    board = Board(position) if position is not None else None
    checker = OrderChecker(position) if position is not None and check_units else None
    lines: list[OrderLine] = []
    errors: list[DipsolveError] = []
    for item in _with_headers(_read_lines(text, filename, game_map), need_power):
        if isinstance(item, DipsolveError):
            errors.extend(item.errors)
            continue
        source, power, refs = item
        for ref in refs:
            try:
                if checker is not None:
                    checked, error = checker.check(ref, source)
                    if error is not None:
                        raise error
                    assert checked is not None
                    order = checked
                else:
                    order = finish(ref, game_map, board, source)
            except DipsolveError as e:
                errors.extend(e.errors)
                continue
            lines.append(OrderLine(power.name if power is not None else None, order, filename,
                                   ref.at.line + source.line_offset, ref.at.column, ref.at.text,
                                   ref.mark))
    return lines, errors


def parse_orders(text: str, filename: str = "<string>", *, position: Position | None = None,
                 game_map: Map | None = None) -> list[tuple[str, Order]]:
    """An orders file: ``Power: order`` lines (several orders a line allowed), or
    ``Power:`` header lines and the orders below them, or DAIDE orders (which name their
    power), in any notation, ``#`` comments, blank lines.

    Returns ``[(canonical power name, Order), ...]`` in file order.  Every bad line is
    reported: the error raised lists them all, and its ``errors`` holds one error each.
    Given the ``position`` the orders are for, they are also completed and checked as in
    a ``.dip`` file's ``[orders]`` section (a unit must be there; a dislodged unit's move
    is its retreat).
    """
    text = _normalise(text)
    if position is None:
        from .fastpath import fast_orders_file
        fast = fast_orders_file(text, game_map)
        if fast is not None:
            return fast
    game_map = map_of(game_map, position)
    checker = OrderChecker(position) if position is not None else None
    out: list[tuple[str, Order]] = []
    errors: list[DipsolveError] = []
    for item in _with_headers(_read_lines(text, filename, game_map), True):
        if isinstance(item, DipsolveError):
            errors.append(item)
            continue
        source, power, refs = item
        assert power is not None    # _with_headers gives a power to every line, or an error
        for ref in refs:
            if checker is not None:
                order, error = checker.check(ref, source)
            else:
                try:
                    order, error = finish(ref, game_map, None, source), None
                except DipsolveError as e:
                    order, error = None, e
            if error is not None:
                errors.append(error)
            else:
                assert order is not None
                out.append((power.name, order))
    if errors:
        raise DipsolveError.combine(errors)
    return out


def parse_order_lines(lines: Iterable[tuple[int, str]], source: Source, game_map: Map
                      ) -> tuple[list[tuple[Source, PowerAt, OrderAt]], list[DipsolveError]]:
    """Lines of a larger text (``(0-based line number, text)``): a ``.dip`` file's
    ``[orders]`` section, read as an orders file is (headers, several orders a line).
    Each is read alone (its places are numbered within it, and come with the `Source`
    that places them in the whole text); every bad one is reported.  The orders are
    completed later, against the position (`OrderChecker`)."""
    out: list[tuple[Source, PowerAt, OrderAt]] = []
    errors: list[DipsolveError] = []

    def items():
        for number, line in lines:
            here = source.shifted(number)
            try:
                yield (here, *_parse(line, "order_line", here, game_map))
            except DipsolveError as e:
                yield e
    for item in _with_headers(items(), True):
        if isinstance(item, DipsolveError):
            errors.append(item)
            continue
        here, power, refs = item
        out += [(here, power, ref) for ref in refs]
    return out, errors


class OrderChecker:
    """Orders against a position: what an order left out is read from the position
    (`dipsolve.grammar.drafts`), and an order must name a unit of its type in its
    province, dislodged ones included in a retreat phase, where a move by a dislodged
    unit is its retreat.  The unit may be another power's (DATC 6.A.6: the adjudicator
    ignores such an order), and a removal of a unit that is not there is let through too
    (DATC 6.J.1: the adjudicator ignores it); a build names no standing unit.  Whether
    the order is legal is `dipsolve.core.rules`'s question."""

    def __init__(self, position: Position) -> None:
        self.map = position.map
        self.board = Board(position)
        self.adjusting = position.phase.kind == "adjustment"

    def check(self, ref: OrderAt, source: Source) -> tuple[Order | None, DipsolveError | None]:
        """The order as the position reads it, and the error if its unit is not there
        (the order is then as written, or None when it could not be completed)."""
        try:
            order = finish(ref, self.map, self.board, source)
        except DipsolveError as e:
            return None, e
        u = ref.unit
        if u is None or not isinstance(order, UnitOrder) or isinstance(order, Build) \
                or (self.adjusting and isinstance(order, Disband)):
            return order, None
        prov = self.map.province_of.get(order.location, order.location)
        there = self.board.units.get(prov)
        if there is None or there.kind != order.kind:
            what = "army" if order.kind == "A" else "fleet"
            where = self.map.provinces[prov].name if prov in self.map.provinces else prov
            also = f": {there.power}'s {there.kind} {there.location} is there" if there else ""
            return order, source.at(
                DipsolveRuleError, f"order for {order.kind} {u.loc}, but there is no {what} in "
                f"{where}{also}", u.at, "a unit on the board", rule="unit")
        return order, None
