"""Read ``.dip`` position files.

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

The grammar is ``position.lark`` beside this file; the format is documented there and in
``Position.to_text``, which writes what `parse_position` reads back.  The lines of the
``[orders]`` section are read one by one by ``orders.lark`` (or, for DAIDE orders, the
DAIDE grammar), as an orders file's are: see `dipsolve.grammar.orders`, where
`parse_order` and `parse_orders` live (they are imported here too).  Parsing happens in
two steps: Lark and a `Transformer` turn the text into solver objects, each remembering
where it was written; then the position is put together and checked as a whole, and
every problem found (``Position.problems()``, orders for units that are not there) is
reported at the token that caused it (`dipsolve.grammar.board`).
"""

from __future__ import annotations

import re
from functools import cache
from os import PathLike
from lark import Lark, Token, Transformer, v_args

from dipsolve.core.bounds import read_text
from dipsolve.core.map import Map
from dipsolve.core.orders import Order
from dipsolve.core.board import retreat_options
from dipsolve.core.position import Dislodged, Phase, Position, Unit, map_of

from .board import board_errors
from .daide import parse_daide
from .loading import lalr_parser
from .errors import (DipsolveError, DipsolveLimitError, DipsolveRuleError, DipsolveSyntaxError,
                     Source, Span, check_units, lark_errors, placed_at)
from .orders import (NameReader, OrderAt, OrderChecker, PlaceAt, UnitAt, parse_order,
                     parse_order_lines, parse_orders)

__all__ = ["parse_position", "parse_position_file", "parse_position_text", "parse_order",
           "parse_orders"]

Orders = dict[str, list[Order]]


# ---------------------------------------------------------------- the parser
@cache
def position_parser() -> Lark:
    """The LALR parser for ``position.lark``, built once per process."""
    return lalr_parser("position.lark")


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
    "ORDER_TEXT": "an order ('Power: order')",
    "_COLON": "':'", "_COMMA": "','",
    "_NL": "end of line", "$END": "end of file",
}


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
@v_args(meta=True)
class _Build(NameReader, Transformer):
    """Text to solver objects; names are resolved here (`NameReader`) so that a bad one
    is reported at its own column, and the ``[orders]`` lines by ``orders.lark``."""

    def __init__(self, text: str, source: Source, game_map: Map) -> None:
        Transformer.__init__(self)
        NameReader.__init__(self, text, source, game_map)

    def place(self, meta, children) -> PlaceAt:
        return self.read_place(meta, children)

    def unit(self, meta, children) -> UnitAt:
        return self.read_unit(meta, *children)

    def name(self, meta, children) -> Span:
        return self._at(meta)

    header_name = name

    # -- position ------------------------------------------------------------
    def phase_spec(self, meta, children) -> Phase:
        at = self._at(meta)
        try:
            return Phase.parse(at.text)
        except DipsolveLimitError as e:
            raise placed_at(e, self.source, at) from None
        except ValueError:
            expected = "a phase such as 'Spring 1901 Movement' or 'F1901R'"
            raise self.source.error(DipsolveSyntaxError, f"expected {expected}, found {at.text!r}",
                                    at.line, at.column, found=at.text, expected=expected) from None

    def phase_line(self, meta, c) -> Phase:
        return c[0]

    def unit_list(self, meta, c) -> list[UnitAt]:
        return list(c)

    def place_list(self, meta, c) -> list[PlaceAt]:
        return list(c)

    def units_line(self, meta, c):
        return ("units", c[0])

    def centers_line(self, meta, c):
        return ("centers", c[0])

    def power_section(self, meta, c):
        return ("power", self.power_at(c[0], header=True), c[1:])

    def origin(self, meta, c):
        return ("from", c[0])

    def retreats(self, meta, c):
        return ("retreats", list(c))

    def dislodged_line(self, meta, c):
        power, unit, *rest = c
        parts = dict(rest)
        return ("dislodged", self.power_at(power), unit, parts.get("from"), parts.get("retreats"))

    def standoffs_line(self, meta, c):
        return ("standoffs", c[0])

    def dislodged_section(self, meta, c):
        return ("dislodged_section", list(c))

    def orders_section(self, meta, c):
        """Each line read alone by ``orders.lark``; every bad line is reported at once."""
        lines = [(token.line - 1, self.source.line_text(token.line)) for token in c]
        orders, errors = parse_order_lines(lines, self.source, self.map)
        if errors:
            raise DipsolveError.combine(errors)
        return ("orders", orders)

    def start(self, meta, c):
        return c[0], c[1:]


# ---------------------------------------------------------------- parsing
def _parse(text: str, source: Source, game_map: Map):
    with lark_errors(source, _LABELS, refine=_refine):
        tree = position_parser().parse(text + "\n")
        return _Build(text, source, game_map).transform(tree)


def _normalise(text: str) -> str:
    """LF line ends, and no byte-order mark (a Windows editor's UTF-8 starts with one)."""
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def parse_position(text: str, filename: str = "<string>", *,
                   game_map: Map | None = None) -> tuple[Position, Orders]:
    """Read a position in the ``.dip`` format, and its ``[orders]`` section if any.

    Returns the position and the orders as ``{canonical power name: [Order, ...]}`` in
    the order they were written.  Raises `DipsolveSyntaxError` for text that is not
    understood and `DipsolveRuleError` for a board that cannot be (every problem at once).
    """
    text = _normalise(text)
    game_map = map_of(game_map, None)
    source = Source(text, filename)
    phase, sections = _parse(text, source, game_map)
    return _assemble(phase, sections, source, game_map)


_DAIDE_START = re.compile(r"\A\s*(?:#[^\n]*\n\s*)*(NOW|SCO)\b", re.IGNORECASE)


def parse_position_file(path: str | PathLike[str], *,
                        game_map: Map | None = None) -> tuple[Position, Orders]:
    """Read a ``.dip`` file, or a file of DAIDE ``NOW``/``SCO`` messages (detected by its
    first token; such a file has no orders, so the orders are ``{}``)."""
    return parse_position_text(read_text(path), str(path), game_map=game_map)


def parse_position_text(text: str, filename: str = "<string>", *,
                        game_map: Map | None = None) -> tuple[Position, Orders]:
    """`parse_position_file` for text already read: ``.dip``, or DAIDE ``NOW``/``SCO``
    when the first token (after blank lines and ``#`` comments) is NOW or SCO."""
    text = text.removeprefix("\ufeff")          # a byte-order mark is not text
    if _DAIDE_START.match(text):
        return parse_daide(text, filename, game_map=game_map), {}
    return parse_position(text, filename, game_map=game_map)


# ---------------------------------------------------------------- checking
def _assemble(phase: Phase, sections, source: Source, game_map: Map) -> tuple[Position, Orders]:
    m = game_map
    units: list[tuple[Unit, Span]] = []
    centers: list[tuple[str, str, Span]] = []
    dislodged: list[tuple[Unit, PlaceAt | None, list[PlaceAt] | None, Span]] = []
    standoffs: list[PlaceAt] = []
    order_refs: list[tuple[str, OrderAt, Source]] = []
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
            order_refs += [(power.name, ref, line) for line, power, ref in section[1]]

    check_units([at for _, at in units] + [d[3] for d in dislodged], source)
    errors: list[DipsolveError] = []

    def err(message: str, at: Span, expected: str) -> None:
        errors.append(source.at(DipsolveRuleError, message, at, expected, rule="retreat-phase"))

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

    orders = _check_orders(position, order_refs, errors)
    if errors:
        raise DipsolveError.combine(errors)
    return position, orders


def _check_orders(position: Position, refs: list[tuple[str, OrderAt, Source]],
                  errors: list[DipsolveError]) -> Orders:
    """The orders keyed by power, each checked by `OrderChecker` (each with the
    `Source` of its own line: it was read alone)."""
    checker = OrderChecker(position)
    orders: Orders = {}
    for power, ref, source in refs:
        order, error = checker.check(ref, source)
        if error is not None:
            errors.append(error)
        if order is not None:
            orders.setdefault(power, []).append(order)
    return orders
