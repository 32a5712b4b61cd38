"""Writing an order: `format_order` in short (canonical), long English or DAIDE notation.

    >>> format_order(Move("F", "STP/SC", "BOT"), notation="long")
    'F St Petersburg (south coast) -> Gulf of Bothnia'
    >>> format_order(Move("A", "PAR", "BUR"), "France", notation="daide")
    '( FRA AMY PAR ) MTO BUR'
    >>> format_order(Move("A", "LON", "NWY", via_convoy=True), "England", notation="daide")
    '( ENG AMY LON ) CTO NWY VIA ( NTH )'

The reader of all three is `dipsolve.grammar.orders` (`parse_order`), and what this
writes reads back as the same order, but for DAIDE's one gap (it names no coast for
where a supported move goes).  The English of a whole press message is the other
writer, `dipsolve.grammar.english`.
"""

from __future__ import annotations


from dipsolve.core.graph import sea_chains
from dipsolve.core.map import Map
from dipsolve.core.orders import (Build, Convoy, Disband, Hold, Move, Order, Retreat, SupportHold, UnitOrder,
                             SupportMove, Waive)
from dipsolve.core.position import Position, map_of

from .errors import DipsolveRuleError, DipsolveSyntaxError

__all__ = ["NOTATIONS", "FormatError", "format_order"]

#: the notations `format_order` writes (and the parser reads)
NOTATIONS = ("short", "long", "daide")


class FormatError(DipsolveRuleError):
    """An order that a notation cannot express: in DAIDE, which names the power of every
    unit, an order given without its power (rule ``"daide-power"``), or a convoyed move
    with no sea route, which DAIDE names (rule ``"daide-convoy-route"``)."""


def format_order(order: Order, power: str | None = None, notation: str = "short", *,
                 game_map: Map | None = None, position: Position | None = None) -> str:
    """An order in ``"short"`` (canonical), ``"long"`` (English) or ``"daide"`` notation,
    with ``"Power: "`` in front when ``power`` is given (DAIDE puts it in the unit).

    DAIDE names the power of every unit: a supported or convoyed unit's is read from
    ``position`` when given, else taken to be ``power``'s own; a convoyed move names its
    sea route (through the fleets of ``position`` when they make one, else the shortest
    through any seas); a removal is ``REM`` in an adjustment phase, else ``DSB``.  DAIDE
    names no coast for the goal of a supported move (``SUP ... MTO SPA``), so a support
    naming one (``F MAO S F GAS - SPA/NC``) loses it there: the one order this notation
    cannot carry whole.

        >>> format_order(SupportMove("A", "MUN", "A", "BER", "KIE"), "Germany", "long")
        'Germany: A Munich supports A Berlin -> Kiel'
    """
    m = map_of(game_map, position)
    name = m.power(power) if power is not None else None
    if power is not None and name is None:
        expected = f"one of {', '.join(m.powers)}"
        raise DipsolveSyntaxError(f"unknown power {power!r} (expected {expected})",
                                  found=power, expected=expected)
    if type(order) not in _TEMPLATES["long"]:
        raise DipsolveSyntaxError(f"not an order: {order!r}", expected="an order")
    if notation == "short":
        body = str(order)
    elif notation in ("long", "daide"):
        body = _written(order, notation, name, m, position)
        if notation == "daide":
            return body
    else:
        raise DipsolveSyntaxError(f"unknown notation {notation!r} (expected short, long or daide)",
                                  found=notation, expected="short, long or daide")
    return f"{name}: {body}" if name else body


#: how long English and DAIDE write each kind of order; the fields are filled by `_written`
_TEMPLATES: dict[str, dict[object, str]] = {
    "long": {
        Hold: "{unit} holds", Move: "{unit} -> {target}", "via": "{unit} -> {target} via convoy",
        SupportHold: "{unit} supports {other}", SupportMove: "{unit} supports {other} -> {target}",
        Convoy: "{unit} convoys {other} -> {target}", Retreat: "{unit} retreats to {target}",
        Disband: "{disband} {unit}", Build: "Build {unit}", Waive: "Waive"},
    "daide": {
        Hold: "{unit} HLD", Move: "{unit} MTO {target}", "via": "{unit} CTO {goal} VIA ( {route} )",
        SupportHold: "{unit} SUP {other}", SupportMove: "{unit} SUP {other} MTO {goal}",
        Convoy: "{unit} CVY {other} CTO {goal}", Retreat: "{unit} RTO {target}",
        Disband: "{unit} {disband}", Build: "{unit} BLD", Waive: "{power} WVE"},
}
_COAST_WORDS = {"NC": "north coast", "SC": "south coast", "EC": "east coast", "WC": "west coast"}


def _written(o: Order, notation: str, power: str | None, m: Map, position: Position | None) -> str:
    """An order in long English or DAIDE: the notation's template for its kind, with the
    units and places written the notation's way."""
    daide = notation == "daide"
    if daide and power is None:
        raise FormatError(f"{o}: DAIDE notation names the power of every unit, and none was given",
                          rule="daide-power")
    via = isinstance(o, Move) and o.via_convoy
    template = _TEMPLATES[notation]["via" if via else type(o)]
    if isinstance(o, Move) and o.route and not daide:      # the route, as the Judges write it
        template = "{unit} -> " + " -> ".join(m.provinces[p].name if p in m.provinces else p
                                               for p in o.route) + " -> {target}"
    own = m.power_tokens.get(power, "") if power is not None else ""

    def place(loc: str, coast: bool = True) -> str:
        prov, _, c = loc.partition("/")
        if prov not in m.provinces:
            return loc
        if daide:
            token = m.provinces[prov].daide
            return f"( {token} {c}S )" if c and coast else token
        name = m.provinces[prov].name
        return f"{name} ({_COAST_WORDS.get(c, c.lower())})" if c else name

    def unit(kind: str, loc: str, owner: str | None = None) -> str:
        if not daide:
            return f"{kind} {place(loc)}"
        token = m.power_tokens.get(owner, own) if owner is not None else own
        return f"( {token} {'AMY' if kind == 'A' else 'FLT'} {place(loc)} )"

    def owner_of(loc: str) -> str | None:
        u = position.unit_in.get(m.province_of.get(loc, loc)) if position is not None else None
        return u.power if u is not None else None

    fields: dict[str, str] = {"power": own}
    if not isinstance(o, UnitOrder):              # a waive names no unit
        return template.format(**fields)
    fields["unit"] = unit(o.kind, o.location)
    other = ((o.supported_kind, o.supported_location) if isinstance(o, (SupportHold, SupportMove))
             else (o.convoyed_kind, o.convoyed_location) if isinstance(o, Convoy) else None)
    if other is not None:
        fields["other"] = unit(*other, owner_of(other[1]))
    if isinstance(o, (Move, SupportMove, Convoy, Retreat)):
        # DAIDE names no coast for where a supported, convoyed or convoying move goes
        fields["target"], fields["goal"] = place(o.target), place(o.target, coast=False)
    if isinstance(o, Move) and o.via_convoy and daide:
        route = ([m.provinces[p].daide if p in m.provinces else p for p in o.route] if o.route
                 else _sea_route(m, o.location, o.target, position))
        if route is None:
            raise FormatError(f"{o}: no sea route from {o.location} to {o.target}, and DAIDE's "
                              f"CTO ... VIA names one", rule="daide-convoy-route")
        fields["route"] = " ".join(route)
    adjusting = position is not None and position.phase.kind == "adjustment"
    fields["disband"] = (("REM" if adjusting else "DSB") if daide
                         else ("Remove" if adjusting else "Disband"))
    return template.format(**fields)


def _sea_route(m: Map, src: str, dst: str, position: Position | None) -> list[str] | None:
    """The DAIDE tokens of the seas on a shortest convoy route from ``src`` to ``dst``:
    through fleets of ``position`` if they make one, else through any seas."""
    src, dst = m.province_of.get(src, src), m.province_of.get(dst, dst)
    if src not in m.neighbours or dst not in m.neighbours:
        return None
    seas = {p for p in m.provinces if m.is_sea(p)}
    tries = [seas]
    if position is not None:
        fleets = {m.province_of[u.location] for u in position.units if u.kind == "F"}
        tries.insert(0, seas & fleets)
    for allowed in tries:
        chain = next(sea_chains(m, src, allowed, dst), None)
        if chain is not None:
            return [m.provinces[p].daide for p in chain[:-1]]
    return None
