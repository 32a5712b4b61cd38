"""The fast path of the order reader: canonical short text (``str(order)``) read without the grammar.

Programs (and dipsolve itself) write orders in the canonical short form, ``A PAR - BUR``,
``France: F NTH C A LON - NWY``; reading those through the LALR parser costs tens of
microseconds an order.  `fast_order_line` reads exactly that form (canonical power name,
canonical location tokens of the map, one space between tokens) with one regular
expression and the map's tables, and gives what the grammar gives for it (the same
`Order`, a fleet's goal completed the same way: `dipsolve.grammar.drafts`), or None for
anything else, which the grammar then reads (errors included).  A test reads the whole
order corpus and random orders both ways.
"""

from __future__ import annotations

import re

from dipsolve.core.map import Map
from dipsolve.core.orders import (Build, Convoy, Disband, Hold, Move, Order, Retreat, SupportHold,
                             SupportMove, Waive)
from dipsolve.core.position import Position, map_of

from .drafts import fleet_goal

__all__ = ["fast_order_line", "fast_orders_file"]

_L = r"([A-Z]{3}(?:/[NESW]C)?)"


def _form(m: Map) -> re.Pattern[str]:
    """The canonical short form of an order on ``m`` (its powers' canonical names), made
    once per map and kept in its memo."""
    form = m.memo.get("fastpath.form")
    if form is None:
        powers = "|".join(re.escape(p) for p in m.powers)
        form = m.memo["fastpath.form"] = re.compile(
            rf"(?:({powers}): )?(?:WAIVE|([AF]) {_L}(?: ([HDB])| - {_L}( VIA)?| R {_L}"
            rf"| S ([AF]) {_L}(?: - {_L})?| C ([AF]) {_L} - {_L}))\Z")
    return form


def _order(m: Map, g: tuple) -> Order | None:
    """The order of a match's groups, or None when a token is no canonical location."""
    _, kind, loc, word, target, via, retreat, skind, sloc, starget, ckind, cloc, ctarget = g
    if kind is None:
        return Waive()
    locs = m.province_of
    for x in (loc, target, retreat, sloc, starget, cloc, ctarget):
        if x is not None and x not in locs:
            return None
    if target is not None:
        return Move(kind, loc, fleet_goal(m, loc, target) if kind == "F" else target, via is not None)
    if word is not None:
        return Hold(kind, loc) if word == "H" else Disband(kind, loc) if word == "D" else Build(kind, loc)
    if retreat is not None:
        return Retreat(kind, loc, fleet_goal(m, loc, retreat) if kind == "F" else retreat)
    if sloc is not None:
        if starget is None:
            return SupportHold(kind, loc, skind, sloc)
        return SupportMove(kind, loc, skind, sloc, starget)
    return Convoy(loc, ckind, cloc, ctarget, kind=kind)


def fast_order_line(text: str, game_map: Map | None = None,
                    position: Position | None = None) -> tuple[str | None, Order] | None:
    """``(power or None, Order)`` for one order in canonical short text, else None (and
    always None with a position: the position may change what an order reads as)."""
    if position is not None:
        return None
    m = game_map if game_map is not None else map_of(None, None)
    form = m.memo.get("fastpath.form")
    match = (form if form is not None else _form(m)).match(text)
    if match is None:
        return None
    order = _order(m, match.groups())
    return None if order is None else (match.group(1), order)


def fast_orders_file(text: str, game_map: Map | None = None) -> list[tuple[str, Order]] | None:
    """An orders file all of whose lines are ``Power: order`` in canonical short text
    (or blank), else None."""
    m = map_of(game_map, None)
    out: list[tuple[str, Order]] = []
    form = _form(m).match
    for line in text.split("\n"):
        if not line:
            continue
        match = form(line)
        if match is None or match.group(1) is None:
            return None
        order = _order(m, match.groups())
        if order is None:
            return None
        out.append((match.group(1), order))
    return out
