"""Reading orders: three notations in, one canonical `Order` out (one, or a file of them).

    >>> str(parse_order("F North Sea convoys A London -> Norway"))
    'F NTH C A LON - NWY'
    >>> parse_order_line("France: A Paris moves to Burgundy")
    ('France', Move(kind='A', location='PAR', target='BUR', via_convoy=False))
    >>> parse_order_line("( FRA AMY PAR ) MTO BUR")
    ('France', Move(kind='A', location='PAR', target='BUR', via_convoy=False))

The three notations:

- short, the canonical one (``str(order)``): ``A PAR - BUR``, ``F NTH C A LON - NWY``,
  ``A MUN S A BER - KIE``, ``F STP/SC - BOT``, ``A LON - NWY VIA``, ``F BRE R MAO``,
  ``A PAR D``, ``F STP/NC B``, ``WAIVE``;
- long English: ``A Paris -> Burgundy``, ``A Munich supports A Berlin moves to Kiel``,
  ``F Brest retreats to Mid-Atlantic Ocean``, ``Build F St Petersburg (north coast)``,
  ``Remove A Paris`` (``-``, ``->``, ``=>``, ``to``, ``moves to``; ``H``, ``holds``;
  ``S``, ``supports``; ``C``, ``convoys``; ``R``, ``retreats to``; ``D``, ``disband``,
  ``remove``; ``B``, ``build``; ``VIA``, ``via convoy``, ``by convoy``);
- DAIDE: ``( FRA AMY PAR ) MTO BUR``, ``( ENG FLT NTH ) CVY ( ENG AMY LON ) CTO NWY``,
  ``( RUS FLT ( STP SCS ) ) BLD``, ``FRA WVE``.

Short and long share one Lark grammar (``orders.lark``, LALR, loaded once); tokens are
case-insensitive and any spelling of a province in ``solver/data/provinces.tsv`` is
read.  A text that starts with ``(`` (or is ``POWER WVE``) is DAIDE and goes to the
DAIDE order grammar (`dipsolve.grammar.daide_order.parse_daide_order`, the one press
uses too), so there is one grammar for each syntax.  The DAIDE form names its power;
the others may start with ``Power:`` and, on a line of an orders file, must.  Writing
an order in any of the three is `dipsolve.grammar.notation.format_order` (also
importable from here).

Errors are `DipsolveSyntaxError` (not understood: ``expected '-', found end of line``,
``unknown province 'Pariss'``, ``unknown power 'Frence'``) or, for an order checked
against a position, `DipsolveRuleError` (understood, but its unit is not there: the
rule ``"unit"`` of `dipsolve.rules`), each at its line and column with a caret.
Whether an understood order is *legal* in a position is `dipsolve.rules`'s
question, not the grammar's.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import cache
from typing import Iterable

from lark import Lark, Token

from dipsolve.map import COAST_ALIASES, POWERS, Map, power_name, standard_map
from dipsolve.orders import (Build, Convoy, Disband, Hold, Move, Order, Retreat, SupportHold,
                             SupportMove, UnitOrder, Waive)
from dipsolve.position import Position

from .daide_order import parse_daide_order
from .loading import lalr_parser
from .errors import (DipsolveError, DipsolveRuleError, DipsolveSyntaxError, Source, Span,
                     lark_errors, placed)
from .notation import NOTATIONS, FormatError, format_order

__all__ = ["NOTATIONS", "FormatError", "OrderLine", "format_order", "parse_order",
           "parse_order_line", "parse_orders", "read_orders"]


# ---------------------------------------------------------------- the parser
@cache
def orders_parser() -> Lark:
    """The LALR parser for ``orders.lark``, built once per process."""
    return lalr_parser("orders.lark", start=["order_line", "single_order"])


_UNIT = "a unit (A or F)"
_LABELS = {
    "WORD": "a name",
    "KIND_A": _UNIT, "KIND_F": _UNIT, "KIND_ARMY": _UNIT, "KIND_FLEET": _UNIT,
    "COAST": "a coast ('/NC', '(sc)')",
    "_H": "'H'", "_HOLD": "'H'", "_HOLDS": "'H'",
    "_DASH": "'-'", "_ARROW": "'-'", "_DARROW": "'-'", "_TO": "'-'", "_MOVE": "'-'",
    "_MOVES": "'-'",
    "_S": "'S'", "_SUPPORT": "'S'", "_SUPPORTS": "'S'",
    "_C": "'C'", "_CONVOYS": "'C'", "_CONVOY": "'convoy'",
    "_R": "'R'", "_RETREAT": "'R'", "_RETREATS": "'R'",
    "_D": "'D'", "_DISBAND": "'D'", "_DISBANDS": "'D'", "_REMOVE": "'D'",
    "_B": "'B'", "_BUILD": "'B'",
    "_VIA": "'VIA'", "_BY": "'VIA'", "_WAIVE": "'WAIVE'",
    "_COLON": "':'",
    "_NL": "end of line", "$END": "end of file",
}
#: a terminal is not worth naming when another is also expected ('-' says 'to')
_HIDDEN_IF = {"_CONVOY": "_C", "_TO": "_DASH"}


def _refiner(start: str):
    """How to name what was expected, knowing the token read before the error: at the
    start of an order, a WORD is a power's name and the blank line the text may start
    with is not worth naming; after a WORD, more WORDs would be more of the same name;
    elsewhere a WORD is a province."""
    def refine(last: Token | None, expected: set[str], labels: dict[str, str]) -> str | None:
        if "KIND_A" in expected and "_WAIVE" in expected:      # an order may start here
            expected.discard("_NL")
            labels.update(WORD="a power name", _D="'Disband'", _DISBAND="'Disband'",
                          _DISBANDS="'Disband'", _REMOVE="'Remove'", _B="'Build'",
                          _BUILD="'Build'")
        elif last is not None and last.type == "WORD":
            expected.discard("WORD")
            if expected == {"_COLON"}:
                return ("a line here is 'Power: ...'" if start == "order_line"
                        else "an order starts with A, F, Build, Remove or WAIVE, or 'Power:'")
        else:
            labels["WORD"] = "a province"
        return None
    return refine


_REFINE = {start: _refiner(start) for start in ("order_line", "single_order")}


# ---------------------------------------------------------------- what was read, and where
@dataclass(frozen=True, slots=True)
class PlaceAt:
    """A location as read, and where it was written."""
    loc: str
    at: Span


@dataclass(frozen=True, slots=True)
class UnitAt:
    kind: str
    loc: str
    at: Span


@dataclass(frozen=True, slots=True)
class PowerAt:
    name: str
    at: Span


@dataclass(frozen=True, slots=True)
class OrderAt:
    """An order as read: the order, the unit that takes it (None for WAIVE), and where
    the order was written."""
    order: Order
    unit: UnitAt | None
    at: Span


@dataclass(frozen=True, slots=True)
class OrderLine:
    """One order of an orders file: who gave it (None when the line did not say and did
    not have to), the order, and where it was written (``line`` and ``column`` of the
    order itself, after any ``Power:``)."""
    power: str | None
    order: Order
    filename: str
    line: int
    column: int
    text: str            # the order as written

    @property
    def location(self) -> str:
        return f"{self.filename}:{self.line}:{self.column}"


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
        loc = self.map.location(name + (coast[0].value if coast else ""))
        if loc is None and not coast:
            loc = _trailing_coast(self.map, name)
        if loc is not None:
            return PlaceAt(loc, at)
        prov = self.map.province(name)
        if prov is None:
            raise self.source.error(DipsolveSyntaxError,
                                    f"unknown province {name!r}{unknown_name_hint(self.map, name)}",
                                    at.line, at.column, found=name,
                                    expected="a province: a name, abbreviation or DAIDE token")
        coasts = self.map.provinces[prov].coasts
        if coasts:
            why = "expected " + " or ".join(f"{prov}/{c}" for c in coasts)
        else:
            why = f"{self.map.provinces[prov].name} has no coasts"
        raise self.source.error(DipsolveSyntaxError, f"unknown coast {at.text!r} ({why})",
                                at.line, at.column, found=at.text, expected=why)

    def read_unit(self, meta, kind: Token, place: PlaceAt) -> UnitAt:
        """A ``unit`` node: its kind token (A, F, army, fleet) and its place, read."""
        return UnitAt(kind.value[0].upper(), place.loc, self._at(meta))

    def power_at(self, at: Span, header: bool = False) -> PowerAt:
        """The power a name (a ``[Header]`` when ``header``) stands for."""
        power = power_name(at.text)
        if power is None:
            also = ", or 'dislodged' or 'orders'" if header else ""
            expected = f"one of {', '.join(POWERS)}{also}"
            raise self.source.at(DipsolveSyntaxError, f"unknown power {at.text!r} (expected {expected})",
                                 at, expected)
        return PowerAt(power, at)


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


def unknown_name_hint(m: Map, name: str) -> str:
    """Advice for a name that is no province: a move written without spaces, a keyword
    run into a name, or the nearest spelling."""
    if "-" in name:
        parts = name.split("-")
        if len(parts) == 2 and all(m.province(p) for p in parts):
            return f" (a move needs spaces: '{parts[0].strip()} - {parts[1].strip()}')"
    words = name.split()
    for i in range(len(words) - 1, 0, -1):
        head = " ".join(words[:i])
        if m.province(head):
            return f" ({head!r} is a province: is a ',' or a keyword missing after it?)"
    key = "".join(ch for ch in name.upper() if ch.isalnum())
    close = difflib.get_close_matches(key, list(m.names), n=1, cutoff=0.75)
    if close:
        prov = m.names[close[0]]
        return f" (did you mean {prov}, {m.provinces[prov].name}?)"
    return ""


# ---------------------------------------------------------------- the transformer
class _Build(NameReader):
    """Trees of ``orders.lark`` to `OrderAt`, with the power when one was written.

    A plain walk over the few nodes of an order rather than a Lark `Transformer`: it
    is half the time of reading an order, and an order's tree is always this shape:
    ``order_line | single_order -> power? (hold | move | ...) -> unit | place | via``.
    """

    def read(self, tree) -> tuple[PowerAt | None, OrderAt]:
        *power, order = tree.children
        return (self.power_at(self._at(power[0].meta)) if power else None), self._order(order)

    def _order(self, tree) -> OrderAt:
        parts: list = []      # units and places, in the order written
        for c in tree.children:
            if c.data == "unit":
                kind, place = c.children
                parts.append(self.read_unit(c.meta, kind, self.read_place(place.meta, place.children)))
            elif c.data == "place":
                parts.append(self.read_place(c.meta, c.children))
        at = self._at(tree.meta)
        what = tree.data
        if what == "waive":
            return OrderAt(Waive(), None, at)
        u = parts[0]
        if what == "hold":
            order: Order = Hold(u.kind, u.loc)
        elif what == "move":
            order = Move(u.kind, u.loc, parts[1].loc, via_convoy=tree.children[-1].data == "via")
        elif what == "support_hold":
            order = SupportHold(u.kind, u.loc, parts[1].kind, parts[1].loc)
        elif what == "support_move":
            order = SupportMove(u.kind, u.loc, parts[1].kind, parts[1].loc, parts[2].loc)
        elif what == "convoy":
            order = Convoy(u.loc, parts[1].kind, parts[1].loc, parts[2].loc, kind=u.kind)
        elif what == "retreat":
            order = Retreat(u.kind, u.loc, parts[1].loc)
        elif what == "disband":
            order = Disband(u.kind, u.loc)
        else:
            order = Build(u.kind, u.loc)
        return OrderAt(order, u, at)


# ---------------------------------------------------------------- DAIDE orders
_DAIDE = re.compile(r"\s*(\(|[a-z]{3}\s+WVE\b)", re.IGNORECASE)


def is_daide(text: str) -> bool:
    """Whether an order is written in DAIDE: it starts with ``(`` or is ``POWER WVE``."""
    return _DAIDE.match(text) is not None


def _daide_order(line: str, source: Source, game_map: Map) -> tuple[PowerAt, OrderAt]:
    """One DAIDE order (a line of ``source``, numbered ``source.line_offset + 1``),
    read by the DAIDE order grammar."""
    body = line.split("#", 1)[0].rstrip()
    try:
        power, order = parse_daide_order(body, game_map=game_map)
    except DipsolveError as e:
        raise _moved(e, source) from None
    column = len(body) - len(body.lstrip()) + 1
    at = Span(1, column, body.strip())   # in the line read alone, as Lark's spans are
    unit = UnitAt(order.kind, order.location, at) if isinstance(order, UnitOrder) else None
    return PowerAt(power, at), OrderAt(order, unit, at)


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


def _parse(line: str, start: str, source: Source, game_map: Map) -> tuple[PowerAt | None, OrderAt]:
    """One order (``single_order``) or one line of an orders file (``order_line``)."""
    if is_daide(line):
        return _daide_order(line, source, game_map)
    with lark_errors(source, _LABELS, text=line, hidden_if=_HIDDEN_IF, refine=_REFINE[start]):
        tree = orders_parser().parse(line + "\n", start=start)
        return _Build(line, source, game_map).read(tree)


def parse_order_line(text: str, game_map: Map | None = None) -> tuple[str | None, Order]:
    """One order in any notation, and the power that gave it if the text says
    (``"France: A PAR - BUR"``, ``"( FRA AMY PAR ) MTO BUR"``), else None."""
    text = _normalise(text)
    power, ref = _parse(text, "single_order", Source(text), game_map or standard_map())
    return (power.name if power is not None else None), ref.order


def parse_order(text: str, game_map: Map | None = None) -> Order:
    """One order in any notation: ``"A MUN S A BER - KIE"``, ``"A Munich supports A
    Berlin -> Kiel"`` and ``"( GER AMY MUN ) SUP ( GER AMY BER ) MTO KIE"`` all give
    the same `SupportMove`.  A ``Power:`` prefix is allowed and dropped.

    Locations come out canonical (``"stp(sc)"`` → ``"STP/SC"``); a coast left out or
    wrong is kept as written, for the adjudicator to judge.  Without a position a move
    stays a `Move` (a position in a retreat phase makes it a `Retreat`).
    """
    return parse_order_line(text, game_map)[1]


_BLANK = re.compile(r"\s*(#.*)?\Z")


def _read_lines(text: str, filename: str, game_map: Map, start: str = "order_line",
                ) -> Iterable[tuple[Source, PowerAt | None, OrderAt] | DipsolveError]:
    """Each order line of an orders file, read alone: what it says, or its error."""
    for number, line in enumerate(text.split("\n")):
        if _BLANK.match(line):
            continue
        source = Source(text, filename, line_offset=number)
        try:
            power, ref = _parse(line, start, source, game_map)
        except DipsolveError as e:
            yield e
            continue
        yield source, power, ref


def read_orders(text: str, filename: str = "<string>", *, game_map: Map | None = None,
                need_power: bool = True) -> tuple[list[OrderLine], list[DipsolveError]]:
    """An orders file read line by line, nothing checked against a position: the orders
    understood and the errors of the lines that were not (each at its line and column),
    both in file order.  `parse_orders` raises instead; ``dipsolve validate`` needs both.
    With ``need_power=False`` a line may leave out its ``Power:``."""
    text = _normalise(text)
    game_map = game_map or standard_map()
    lines: list[OrderLine] = []
    errors: list[DipsolveError] = []
    start = "order_line" if need_power else "single_order"
    for item in _read_lines(text, filename, game_map, start):
        if isinstance(item, DipsolveError):
            errors.extend(item.errors)
            continue
        source, power, ref = item
        lines.append(OrderLine(power.name if power is not None else None, ref.order, filename,
                               ref.at.line + source.line_offset, ref.at.column, ref.at.text))
    return lines, errors


def parse_orders(text: str, filename: str = "<string>", *, position: Position | None = None,
                 game_map: Map | None = None) -> list[tuple[str, Order]]:
    """An orders file: one ``Power: order`` a line (or a DAIDE order, which names its
    power), in any notation, ``#`` comments, blank lines.

    Returns ``[(canonical power name, Order), ...]`` in file order.  Every bad line is
    reported: the error raised lists them all, and its ``errors`` holds one error each.
    Given the ``position`` the orders are for, they are also checked and read as in a
    ``.dip`` file's ``[orders]`` section (a unit must be there; a dislodged unit's move
    is its retreat).
    """
    text = _normalise(text)
    game_map = game_map or (position.map if position is not None else standard_map())
    checker = OrderChecker(position) if position is not None else None
    out: list[tuple[str, Order]] = []
    errors: list[DipsolveError] = []
    for item in _read_lines(text, filename, game_map):
        if isinstance(item, DipsolveError):
            errors.append(item)
            continue
        source, power, ref = item
        order, error = checker.check(ref, source) if checker else (ref.order, None)
        if error is not None:
            errors.append(error)
        else:
            assert power is not None    # an order line names its power (or is DAIDE's)
            out.append((power.name, order))
    if errors:
        raise DipsolveError.combine(errors)
    return out


def parse_order_lines(lines: Iterable[tuple[int, str]], source: Source, game_map: Map
                      ) -> tuple[list[tuple[Source, PowerAt, OrderAt]], list[DipsolveError]]:
    """Lines of a larger text (``(0-based line number, text)``): a ``.dip`` file's
    ``[orders]`` section.  Each is read alone (its places are numbered within it, and
    come with the `Source` that places them in the whole text); every bad one is
    reported."""
    out: list[tuple[Source, PowerAt, OrderAt]] = []
    errors: list[DipsolveError] = []
    for number, line in lines:
        here = Source(source.text, source.filename, line_offset=number)
        try:
            power, ref = _parse(line, "order_line", here, game_map)
        except DipsolveError as e:
            errors.append(e)
            continue
        assert power is not None        # an order line names its power (or is DAIDE's)
        out.append((here, power, ref))
    return out, errors


class OrderChecker:
    """Orders against a position: an order must name a unit of its type in its province,
    dislodged ones included in a retreat phase, where a move by a dislodged unit is its
    retreat.  The unit may be another power's (DATC 6.A.6: the adjudicator ignores such
    an order), and a removal of a unit that is not there is let through too (DATC 6.J.1:
    the adjudicator ignores it); a build names no standing unit.  Whether the order is
    legal is `dipsolve.rules`'s question."""

    def __init__(self, position: Position) -> None:
        prov = position.map.province_of
        self.map = position.map
        self.adjusting = position.phase.kind == "adjustment"
        self.present = {(u.kind, prov[u.location]) for u in position.units if u.location in prov}
        self.dislodged: set[tuple[str, str]] = set()
        if position.phase.kind == "retreat":
            self.dislodged = {(d.unit.kind, prov[d.unit.location]) for d in position.dislodged
                              if d.unit.location in prov}
            self.present |= self.dislodged

    def check(self, ref: OrderAt, source: Source) -> tuple[Order, DipsolveError | None]:
        """The order as the position reads it (a retreat for a dislodged unit's move),
        and the error if its unit is not there."""
        order, u = ref.order, ref.unit
        if u is None or isinstance(order, Build) or (self.adjusting and isinstance(order, Disband)):
            return order, None
        key = (u.kind, self.map.province_of.get(u.loc, u.loc))
        if key not in self.present:
            what = "army" if u.kind == "A" else "fleet"
            where = self.map.provinces[key[1]].name if key[1] in self.map.provinces else key[1]
            return order, source.at(
                DipsolveRuleError, f"order for {u.kind} {u.loc}, but there is no {what} in {where}",
                u.at, "a unit on the board", rule="unit")
        if isinstance(order, Move) and not order.via_convoy and key in self.dislodged:
            order = Retreat(order.kind, order.location, order.target)
        return order, None
