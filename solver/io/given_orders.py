"""Orders as the public functions take them (`dipsolve.adjudicate`, `dipsolve.Game.process`,
every function with ``orders``): one check, one reading, one merging.

`check_orders` takes a mapping of power to orders (each an `Order` or its text; one
order alone for a list of one), a flat list of ``(power, order)`` pairs (what
`parse_orders` returns) or of orders alone (each given by the unit it names), or the
text of an orders file, and gives power -> orders, each power by its canonical name: the
orders given under two spellings of one power are one list, as if given in one (a unit
ordered in both is ordered twice).  Anything it does not recognise is a `DipsolveError`
naming the closest names; a value of the wrong kind a `DipsolveArgumentError` (`wrong`).
The grammar is imported when a text is read (``import dipsolve`` and the checks of
values stay light).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..core.errors import DipsolveArgumentError, DipsolveRuleError, DipsolveSyntaxError, quote
from ..core.map import Map, standard_map
from ..core.names import check_location, check_power
from ..core.orders import Order, UnitOrder
from ..core.position import Position, Unit

__all__ = ["check_order", "check_orders", "given_order", "wrong"]

#: the fields of an order that hold a location
_PLACES = ("location", "target", "supported_location", "convoyed_location")
#: the fields of an order that hold a unit type
_KINDS = ("kind", "supported_kind", "convoyed_kind")


def wrong(what: str, expected: str, value: Any) -> DipsolveArgumentError:
    """The error for ``value`` given as ``what``, of another kind than ``expected``."""
    shown = "None" if value is None else f"a {type(value).__name__}"
    return DipsolveArgumentError(f"{what}: expected {expected}, not {shown}", expected=expected)


def check_order(game_map: Map, order: Any, what: str = "order") -> Order:
    """``order`` if it is an `Order` whose unit types and locations the map knows (a
    location in any spelling made canonical), else a family error."""
    if not isinstance(order, Order):
        raise wrong(what, "an Order or its text", order)
    changes: dict[str, str] = {}
    for field in _KINDS:
        kind = getattr(order, field, None)
        if kind is not None and kind not in ("A", "F"):
            raise DipsolveArgumentError(f"{what} {order}: unknown unit type {kind!r} (expected A or F)",
                                        expected="A or F")
    for field in _PLACES:
        place = getattr(order, field, None)
        if place is None or (isinstance(place, str) and place in game_map.province_of):
            continue
        loc = check_location(game_map, place, f"location in {what}")
        changes[field] = loc
    if changes:
        import dataclasses
        order = dataclasses.replace(order, **changes)
    return order


def given_order(position: Position | None, game_map: Map, item: Any, what: str,
                power: str | None = None) -> tuple[str | None, Order]:
    """An order given as an `Order` or its text, and the power its text names
    (``"France: A PAR - BUR"``, DAIDE), else None; a text that names another power
    than ``power`` (whose orders it is given among) is refused."""
    if not isinstance(item, str):
        return None, check_order(game_map, item, what)
    from ..grammar import parse_order_line
    said, order = parse_order_line(item, game_map, position=position)
    if power is not None and said is not None and said != power:
        raise DipsolveSyntaxError(f"{what}: {quote(item)!r} is an order of {said}, given as {power}'s",
                                  found=quote(item), expected=f"an order of {power}")
    return said, order


def _owner(position: Position | None, order: Order) -> str:
    """The power whose unit ``order`` names, for an order given without its power."""
    if position is not None and isinstance(order, UnitOrder):
        unit = position.unit_in.get(position.map.province_of[order.location])
        if unit is None:
            unit = next((d.unit for d in position.dislodged
                         if position.map.province_of[d.unit.location]
                         == position.map.province_of[order.location]), None)
        if unit is not None:
            return unit.power
    raise DipsolveRuleError(f"order {order} names no unit of this position: say whose it is "
                            f"(a mapping of power to orders, or (power, order) pairs)",
                            rule="unit-exists")


def check_orders(value: Any, position: Position | None = None,
                 game_map: Map | None = None) -> dict[str, list[Order]] | None:
    """Orders in any of the shapes the public functions take, as power -> orders (see
    the module's docstring); None stays None."""
    if value is None:
        return None
    m = game_map or (position.map if position is not None else standard_map())
    out: dict[str, list[Order]] = {}
    if isinstance(value, str):
        from ..grammar import parse_orders
        for power, order in parse_orders(value, position=position, game_map=m):
            out.setdefault(power, []).append(order)
        return out
    if isinstance(value, Mapping):
        for key, orders in value.items():
            power = check_power(key, "orders", m)
            if isinstance(orders, (str, Order)):
                orders = [orders]
            if not isinstance(orders, Iterable):
                raise wrong(f"orders of {power}", "a list of orders", orders)
            out.setdefault(power, []).extend(given_order(position, m, o, f"order of {power}", power)[1]
                                             for o in orders)
        return out
    if isinstance(value, (Order, bytes)) or not isinstance(value, Iterable):
        raise wrong("orders", "a mapping of power to orders, a list of orders or their text", value)
    for item in value:
        if isinstance(item, tuple) and len(item) == 2 and not isinstance(item, Unit):
            who, what = item
            given = check_power(who, "orders", m) if who is not None else None
            said, order = given_order(position, m, what, "order", given)
            power = given or said or _owner(position, order)
        else:
            said, order = given_order(position, m, item, "order")
            power = said or _owner(position, order)
        out.setdefault(power, []).append(order)
    return out
