"""Read ``.dip`` position files and orders in short notation.

    >>> position, orders = parse_position('''
    ... phase: Spring 1901 Movement
    ... [France]
    ... units: A PAR, F Brest
    ... centers: PAR, BRE
    ... [orders]
    ... France: A Paris -> Burgundy
    ... ''')
    >>> [str(u) for u in position.units]
    ['A PAR', 'F BRE']
    >>> orders
    {'France': [Move(kind='A', location='PAR', target='BUR', via_convoy=False)]}
    >>> str(parse_order("F North Sea C A London - Norway"))
    'F NTH C A LON - NWY'

The grammar is ``position.lark`` beside this file; the format is documented there and in
``Position.to_text``, which writes what `parse_position` reads back.  Parsing happens in
two steps: Lark and a `Transformer` turn the text into solver objects, each remembering
where it was written; then the position is put together and checked as a whole, and
every problem found (``Position.problems()``, orders for units that are not there) is
reported at the token that caused it.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import cache
from os import PathLike
from pathlib import Path
from typing import Iterable

from lark import Lark, Token, Transformer, v_args

from dipsolve.map import POWERS, Map, power_name, standard_map
from dipsolve.orders import (Build, Convoy, Disband, Hold, Move, Order, Retreat, SupportHold,
                             SupportMove, Waive)
from dipsolve.position import Dislodged, Phase, Position, Unit, retreat_options

from .errors import DipsolveError, DipsolveRuleError, DipsolveSyntaxError, Source, Span, lark_errors

__all__ = ["parse_position", "parse_position_file", "parse_position_text", "parse_order",
           "parse_orders"]

Orders = dict[str, list[Order]]


# ---------------------------------------------------------------- the parser
@cache
def position_parser() -> Lark:
    """The LALR parser for ``position.lark``, built once per process."""
    return Lark.open("position.lark", rel_to=__file__, parser="lalr", lexer="contextual",
                     propagate_positions=True,
                     start=["start", "orders_line", "single_order"])


_UNIT = "a unit (A or F)"
_LABELS = {
    "_PHASE": "'phase:'",
    "_LSQB": "'['", "_RSQB": "']'",
    "_DISLODGED": "'dislodged'", "_ORDERS": "'orders'",
    "_UNITS": "'units:'", "_CENTERS": "'centers:'", "_CENTRES": "'centers:'",
    "_STANDOFFS": "'standoffs:'",
    "WORD": "a name", "INT": "a year",
    "KIND_A": _UNIT, "KIND_F": _UNIT, "KIND_ARMY": _UNIT, "KIND_FLEET": _UNIT,
    "COAST": "a coast ('/NC', '(sc)')",
    "_FROM": "'from'", "_RETREATS": "'retreats'", "_NONE": "'none'",
    "_H": "'H'", "_HOLD": "'H'", "_HOLDS": "'H'",
    "_DASH": "'-'", "_ARROW": "'-'",
    "_S": "'S'", "_SUPPORT": "'S'", "_SUPPORTS": "'S'",
    "_C": "'C'", "_CONVOYS": "'C'", "_CONVOY": "'convoy'",
    "_R": "'R'", "_RETREAT": "'R'",
    "_D": "'D'", "_DISBAND": "'D'", "_REMOVE": "'D'",
    "_B": "'B'", "_BUILD": "'B'",
    "_VIA": "'VIA'", "_BY": "'VIA'", "_WAIVE": "'WAIVE'",
    "_COLON": "':'", "_COMMA": "','",
    "_NL": "end of line", "$END": "end of file",
}
#: a terminal is not worth naming when another is also expected ('R' says 'retreats')
_HIDDEN_IF = {"_RETREATS": "_R", "_CONVOY": "_C"}


def _refine(last: Token | None, expected: set[str], labels: dict[str, str]) -> str | None:
    """Name a WORD from the token before it: a power at the start of a line or after
    '[', a province elsewhere, and nothing after a WORD (it would be more of the same
    name); leave out the blank line that may start the text; advise on a line that
    lacks its 'Power:'."""
    if last is None:
        expected.discard("_NL")
        labels["WORD"] = "a name"
    elif last.type == "WORD":
        expected.discard("WORD")
        if expected == {"_COLON"}:
            return "a line here is 'Power: ...'"
    elif last.type in ("_NL", "_LSQB"):
        labels["WORD"] = "a power name"
    else:
        labels["WORD"] = "a province"
    return None


# ---------------------------------------------------------------- the transformer
@dataclass(frozen=True, slots=True)
class _Place:
    loc: str
    at: Span


@dataclass(frozen=True, slots=True)
class _UnitRef:
    kind: str
    loc: str
    at: Span


@dataclass(frozen=True, slots=True)
class _OrderRef:
    order: Order
    unit: _UnitRef | None    # the unit that takes the order (None for WAIVE)
    at: Span


@dataclass(frozen=True, slots=True)
class _Power:
    name: str
    at: Span


@v_args(meta=True)
class _Build(Transformer):
    """Text to solver objects; names are resolved here so that a bad one is reported
    at its own column."""

    def __init__(self, text: str, source: Source, game_map: Map) -> None:
        super().__init__()
        self.text = text          # the text parsed (one line of an orders file, or all)
        self.source = source      # the whole text, for errors
        self.map = game_map

    def _at(self, meta) -> Span:
        return Span(meta.line, meta.column, self.text[meta.start_pos:meta.end_pos])

    def _rule_error(self, message: str, at: Span, expected: str | None = None) -> DipsolveError:
        return self.source.error(DipsolveRuleError, message, at.line, at.column, found=at.text,
                                 expected=expected)

    # -- names ---------------------------------------------------------------
    def place(self, meta, children) -> _Place:
        at = self._at(meta)
        words = [c for c in children if c.type == "WORD"]
        coast = [c for c in children if c.type == "COAST"]
        name = self.text[words[0].start_pos:words[-1].end_pos]
        loc = self.map.location(name + (coast[0].value if coast else ""))
        if loc is not None:
            return _Place(loc, at)
        prov = self.map.province(name)
        if prov is None:
            raise self.source.error(DipsolveRuleError, f"unknown province {name!r}{self._hint(name)}",
                                    at.line, at.column, found=name,
                                    expected="a province: a name, abbreviation or DAIDE token")
        coasts = self.map.provinces[prov].coasts
        if coasts:
            why = "expected " + " or ".join(f"{prov}/{c}" for c in coasts)
        else:
            why = f"{self.map.provinces[prov].name} has no coasts"
        raise self.source.error(DipsolveSyntaxError, f"unknown coast {at.text!r} ({why})",
                                at.line, at.column, found=at.text, expected=why)

    def _hint(self, name: str) -> str:
        m = self.map
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

    def unit(self, meta, children) -> _UnitRef:
        kind_token, place = children
        return _UnitRef(kind_token.value[0].upper(), place.loc, self._at(meta))

    def name(self, meta, children) -> Span:
        return self._at(meta)

    header_name = name

    def _power(self, at: Span, header: bool = False) -> _Power:
        power = power_name(at.text)
        if power is None:
            also = ", or 'dislodged' or 'orders'" if header else ""
            expected = f"one of {', '.join(POWERS)}{also}"
            raise self._rule_error(f"unknown power {at.text!r} (expected {expected})", at, expected)
        return _Power(power, at)

    # -- orders --------------------------------------------------------------
    def _order(self, meta, order: Order, unit: _UnitRef | None) -> _OrderRef:
        return _OrderRef(order, unit, self._at(meta))

    def hold(self, meta, c):
        return self._order(meta, Hold(c[0].kind, c[0].loc), c[0])

    def move(self, meta, c):
        return self._order(meta, Move(c[0].kind, c[0].loc, c[1].loc, via_convoy=len(c) > 2), c[0])

    def via(self, meta, c):
        return True

    def support_hold(self, meta, c):
        u, s = c
        return self._order(meta, SupportHold(u.kind, u.loc, s.kind, s.loc), u)

    def support_move(self, meta, c):
        u, s, target = c
        return self._order(meta, SupportMove(u.kind, u.loc, s.kind, s.loc, target.loc), u)

    def convoy(self, meta, c):
        u, s, target = c
        return self._order(meta, Convoy(u.loc, s.kind, s.loc, target.loc, kind=u.kind), u)

    def retreat(self, meta, c):
        return self._order(meta, Retreat(c[0].kind, c[0].loc, c[1].loc), c[0])

    def disband(self, meta, c):
        return self._order(meta, Disband(c[0].kind, c[0].loc), c[0])

    def build(self, meta, c):
        return self._order(meta, Build(c[0].kind, c[0].loc), c[0])

    def waive(self, meta, c):
        return self._order(meta, Waive(), None)

    def order_line(self, meta, c) -> tuple[_Power, _OrderRef]:
        return self._power(c[0]), c[1]

    def orders_line(self, meta, c):
        return c[0]

    def single_order(self, meta, c):
        return c[0]

    # -- position ------------------------------------------------------------
    def phase_spec(self, meta, children) -> Phase:
        at = self._at(meta)
        try:
            return Phase.parse(at.text)
        except ValueError:
            expected = "a phase such as 'Spring 1901 Movement' or 'F1901R'"
            raise self.source.error(DipsolveSyntaxError, f"expected {expected}, found {at.text!r}",
                                    at.line, at.column, found=at.text, expected=expected) from None

    def phase_line(self, meta, c) -> Phase:
        return c[0]

    def unit_list(self, meta, c) -> list[_UnitRef]:
        return list(c)

    def place_list(self, meta, c) -> list[_Place]:
        return list(c)

    def units_line(self, meta, c):
        return ("units", c[0])

    def centers_line(self, meta, c):
        return ("centers", c[0])

    def power_section(self, meta, c):
        return ("power", self._power(c[0], header=True), c[1:])

    def origin(self, meta, c):
        return ("from", c[0])

    def retreats(self, meta, c):
        return ("retreats", list(c))

    def dislodged_line(self, meta, c):
        power, unit, *rest = c
        parts = dict(rest)
        return ("dislodged", self._power(power), unit, parts.get("from"), parts.get("retreats"))

    def standoffs_line(self, meta, c):
        return ("standoffs", c[0])

    def dislodged_section(self, meta, c):
        return ("dislodged_section", list(c))

    def orders_section(self, meta, c):
        return ("orders", list(c))

    def start(self, meta, c):
        return c[0], c[1:]


# ---------------------------------------------------------------- parsing
def _parse(text: str, start: str, source: Source, game_map: Map):
    with lark_errors(source, _LABELS, text=text, hidden_if=_HIDDEN_IF, refine=_refine):
        tree = position_parser().parse(text + "\n", start=start)
        return _Build(text, source, game_map).transform(tree)


def _normalise(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def parse_position(text: str, filename: str = "<string>", *,
                   game_map: Map | None = None) -> tuple[Position, Orders]:
    """Read a position in the ``.dip`` format, and its ``[orders]`` section if any.

    Returns the position and the orders as ``{canonical power name: [Order, ...]}`` in
    the order they were written.  Raises `DipsolveSyntaxError` for text that is not
    understood and `DipsolveRuleError` for a board that cannot be (every problem at once).
    """
    text = _normalise(text)
    game_map = game_map or standard_map()
    source = Source(text, filename)
    phase, sections = _parse(text, "start", source, game_map)
    return _assemble(phase, sections, source, game_map)


_DAIDE_START = re.compile(r"\A\s*(?:#[^\n]*\n\s*)*(NOW|SCO)\b", re.IGNORECASE)


def parse_position_file(path: str | PathLike[str], *,
                        game_map: Map | None = None) -> tuple[Position, Orders]:
    """Read a ``.dip`` file, or a file of DAIDE ``NOW``/``SCO`` messages (detected by its
    first token; such a file has no orders, so the orders are ``{}``)."""
    return parse_position_text(Path(path).read_text(encoding="utf-8"), str(path),
                               game_map=game_map)


def parse_position_text(text: str, filename: str = "<string>", *,
                        game_map: Map | None = None) -> tuple[Position, Orders]:
    """`parse_position_file` for text already read: ``.dip``, or DAIDE ``NOW``/``SCO``
    when the first token (after blank lines and ``#`` comments) is NOW or SCO."""
    if _DAIDE_START.match(text):
        from .daide import parse_daide
        return parse_daide(text, filename, game_map=game_map), {}
    return parse_position(text, filename, game_map=game_map)


def parse_order(text: str, game_map: Map | None = None) -> Order:
    """One order in short notation: ``"A MUN S A BER - KIE"`` → `SupportMove`.

    Locations come out canonical (``"stp(sc)"`` → ``"STP/SC"``); a coast left out or
    wrong is kept as written, for the adjudicator to judge.  Without a position a move
    stays a `Move` (a `.dip` file in a retreat phase makes it a `Retreat`).
    """
    text = _normalise(text)
    source = Source(text)
    return _parse(text, "single_order", source, game_map or standard_map()).order


_BLANK = re.compile(r"\s*(#.*)?\Z")


def parse_orders(text: str, filename: str = "<string>", *, position: Position | None = None,
                 game_map: Map | None = None) -> list[tuple[str, Order]]:
    """An orders file: one ``Power: order`` a line, ``#`` comments, blank lines.

    Returns ``[(canonical power name, Order), ...]`` in file order.  Every bad line is
    reported: the error raised lists them all, and its ``errors`` holds one error each.
    Given the ``position`` the orders are for, they are also checked and read as in a
    ``.dip`` file's ``[orders]`` section (a unit must be there; a dislodged unit's move
    is its retreat).
    """
    text = _normalise(text)
    game_map = game_map or (position.map if position is not None else standard_map())
    checker = _OrderChecker(position) if position is not None else None
    out: list[tuple[str, Order]] = []
    errors: list[DipsolveError] = []
    for number, line in enumerate(text.split("\n")):
        if _BLANK.match(line):
            continue
        source = Source(text, filename, line_offset=number)
        try:
            power, ref = _parse(line, "orders_line", source, game_map)
        except DipsolveError as e:
            errors.append(e)
            continue
        order, error = checker.check(ref, source) if checker else (ref.order, None)
        if error is not None:
            errors.append(error)
        else:
            out.append((power.name, order))
    if errors:
        raise DipsolveError.combine(errors)
    return out


# ---------------------------------------------------------------- checking
def _assemble(phase: Phase, sections, source: Source, game_map: Map) -> tuple[Position, Orders]:
    m = game_map
    units: list[tuple[Unit, Span]] = []
    centers: list[tuple[str, str, Span]] = []
    dislodged: list[tuple[Unit, _Place | None, list[_Place] | None, Span]] = []
    standoffs: list[_Place] = []
    order_refs: list[tuple[str, _OrderRef]] = []
    for section in sections:
        if section[0] == "power":
            _, power, lines = section
            for what, items in lines:
                if what == "units":
                    units += [(Unit(power.name, u.kind, u.loc), u.at) for u in items]
                else:
                    centers += [(m.province_of.get(c.loc, c.loc), power.name, c.at) for c in items]
        elif section[0] == "dislodged_section":
            for item in section[1]:
                if item[0] == "standoffs":
                    standoffs += item[1]
                else:
                    _, power, u, origin, retreats = item
                    dislodged.append((Unit(power.name, u.kind, u.loc), origin, retreats, u.at))
        else:
            order_refs += [(power.name, ref) for power, ref in section[1]]

    errors: list[DipsolveError] = []

    def err(message: str, at: Span, expected: str) -> None:
        errors.append(source.error(DipsolveRuleError, message, at.line, at.column, found=at.text,
                                   expected=expected))

    if phase.kind != "retreat":
        for _, _, _, at in dislodged:
            err(f"a dislodged unit in {phase}: dislodged units belong to a retreat phase", at,
                "a retreat phase")
        for s in standoffs:
            err(f"a standoff in {phase}: standoffs belong to a retreat phase", s.at, "a retreat phase")

    occupied = {m.province_of[u.location] for u, _ in units if u.location in m.province_of}
    standoff_provs = {m.province_of.get(s.loc, s.loc) for s in standoffs}
    dis: list[Dislodged] = []
    for unit, origin, retreats, at in dislodged:
        origin_prov = m.province_of.get(origin.loc, origin.loc) if origin else None
        if retreats is not None:
            options = tuple(sorted({r.loc for r in retreats}))
        else:
            options = retreat_options(m, unit, origin_prov, occupied, standoff_provs)
        dis.append(Dislodged(unit, origin_prov, options))

    position = Position.build(phase, [u for u, _ in units], [(p, o) for p, o, _ in centers],
                              dis, standoff_provs, game_map=m)
    unit_at: dict[Unit, list[Span]] = {}
    for u, at in units + [(d[0], d[3]) for d in dislodged]:
        unit_at.setdefault(u, []).append(at)
    center_at: dict[str, list[Span]] = {}
    for p, _, at in centers:
        center_at.setdefault(p, []).append(at)
    in_order = sorted((at for _, _, at in centers), key=lambda a: (a.line, a.column))
    errors += board_errors(position, source, unit_at, center_at, in_order)

    orders = _check_orders(position, order_refs, errors, source)
    if errors:
        raise DipsolveError.combine(errors)
    return position, orders


def board_errors(position: Position, source: Source, unit_at, center_at,
                 centers_in_order: list) -> list[DipsolveError]:
    """`Position.problems()`, each at the token that wrote its subject (the last one,
    when the same unit or center was written twice)."""
    out = []
    n_centers = len(position.map.centers)
    for message, subject in position.problems():
        if isinstance(subject, Unit):
            at = unit_at.get(subject, [None])[-1]
        elif isinstance(subject, str):
            at = center_at.get(subject, [None])[-1]
        elif subject is None and len(centers_in_order) > n_centers:
            at = centers_in_order[n_centers]
        else:
            at = None
        expected = _expected_for(subject, position.map)
        if at is None:
            out.append(DipsolveRuleError(message, filename=source.filename, expected=expected))
        else:
            out.append(source.error(DipsolveRuleError, message, at.line, at.column,
                                    found=at.text, expected=expected))
    return out


def _expected_for(subject: object, m: Map) -> str:
    """What would have been right, for a subject of `Position.problems()`."""
    if isinstance(subject, Unit):
        prov = m.province_of.get(subject.location)
        if prov is None or subject.kind not in ("A", "F"):
            return "a unit on a location of the map"
        terrain = m.provinces[prov].terrain
        if subject.kind == "A" and (terrain == "sea" or subject.location != prov):
            return "an army on land or a coast, not at sea or on one coast"
        if subject.kind == "F" and terrain == "land":
            return "a fleet on a coast or at sea"
        if subject.kind == "F" and subject.location == prov and m.provinces[prov].coasts:
            return " or ".join(m.fleet_locations[prov])
        if subject.power not in POWERS:
            return "one of " + ", ".join(POWERS)
        return "one unit in each province"
    if isinstance(subject, str):
        return "a supply center" if subject not in m.centers else "one owner for each center"
    return f"at most {len(m.centers)} supply centers"


class _OrderChecker:
    """Orders against a position: an order must name a unit of its type in its province,
    dislodged ones included in a retreat phase, where a move by a dislodged unit is its
    retreat.  The unit may be another power's (DATC 6.A.6: the adjudicator ignores such
    an order), and a removal of a unit that is not there is let through too (DATC 6.J.1:
    the adjudicator ignores it); a build names no standing unit."""

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

    def check(self, ref: _OrderRef, source: Source) -> tuple[Order, DipsolveError | None]:
        """The order as the position reads it (a retreat for a dislodged unit's move),
        and the error if its unit is not there."""
        order, u = ref.order, ref.unit
        if u is None or isinstance(order, Build) or (self.adjusting and isinstance(order, Disband)):
            return order, None
        key = (u.kind, self.map.province_of.get(u.loc, u.loc))
        if key not in self.present:
            what = "army" if u.kind == "A" else "fleet"
            where = self.map.provinces[key[1]].name if key[1] in self.map.provinces else key[1]
            return order, source.error(
                DipsolveRuleError, f"order for {u.kind} {u.loc}, but there is no {what} in {where}",
                u.at.line, u.at.column, found=u.at.text, expected="a unit on the board")
        if isinstance(order, Move) and not order.via_convoy and key in self.dislodged:
            order = Retreat(order.kind, order.location, order.target)
        return order, None


def _check_orders(position: Position, refs: list[tuple[str, _OrderRef]],
                  errors: list[DipsolveError], source: Source) -> Orders:
    """The orders keyed by power, each checked by `_OrderChecker`."""
    checker = _OrderChecker(position)
    orders: Orders = {}
    for power, ref in refs:
        order, error = checker.check(ref, source)
        if error is not None:
            errors.append(error)
        orders.setdefault(power, []).append(order)
    return orders
