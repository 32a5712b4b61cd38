"""The public entry points' checks: every function ``import dipsolve`` hands out checks
the arguments it is given before any work, as the command line checks its options.

A power in any spelling is made its canonical name, a province or location its
abbreviation, orders the mapping of power to orders the library works on; anything it
does not recognise is refused with a `DipsolveError` naming the closest names, and a
value of the wrong kind with a `DipsolveArgumentError`.  The checks are made here, once
at the door, and not in the library's own calls to itself (the adjudicator's hot path
stays as fast as it was): `wrap` is applied by ``dipsolve.__getattr__`` to every public
function.

    >>> import dipsolve
    >>> start = dipsolve.Position.initial()
    >>> dipsolve.adjudicate(start, "France: A PAR - BUR").next.unit_in["BUR"]
    Unit(power='France', kind='A', location='BUR')
    >>> dipsolve.adjudicate(start, {"Frnace": ["A PAR - BUR"]})
    Traceback (most recent call last):
    ...
    dipsolve.core.errors.DipsolveSyntaxError: orders: unknown power 'Frnace' (did you mean France? expected one of Austria, England, France, Germany, Italy, Russia, Turkey, or AUS, ENG, FRA, GER, ITA, RUS, TUR)

`adjudicate` (and every function that takes ``orders``) takes a mapping of power to
orders (each an `Order` or its text), a flat list of ``(power, order)`` pairs (what
`parse_orders` returns) or of orders alone (each given by the unit it names), or the
text of an orders file.  `legal_orders` takes a `Unit`, a province or a power.
"""

from __future__ import annotations

import functools
import inspect
import math
import os
from typing import Any, Callable, Iterable, Mapping

from .core.errors import DipsolveArgumentError, DipsolveRuleError
from .core.legal import build_orders
from .core.legal import legal_orders as _legal_orders
from .core.map import Map
from .core.names import check_power, check_province, check_text
from .core.orders import Order
from .core.position import Position, Unit
from .core.results import Limits
from .io.given_orders import check_order, check_orders, given_order as _order, wrong as _wrong

__all__ = ["wrap", "check_orders", "check_order", "legal_orders"]

Args = dict[str, Any]

Check = Callable[[Any, Args, str], Any]


def _instance(cls: type | tuple[type, ...], expected: str, optional: bool = False) -> Check:
    def check(value: Any, args: Args, what: str) -> Any:
        if value is None and optional:
            return value
        if not isinstance(value, cls):
            raise _wrong(what, expected, value)
        return value
    return check


def _map(args: Args) -> Map:
    position = args.get("position")
    if isinstance(position, Position):
        return position.map
    game_map = args.get("game_map")
    if isinstance(game_map, Map):
        return game_map
    chosen = args.get("variant")       # play_game's Variant, play_series' name of one
    if isinstance(chosen, str) and chosen != "standard":
        from .core.variant_files import find_variant
        return find_variant(chosen).map
    found = getattr(chosen, "map", None)
    return found if isinstance(found, Map) else _standard()


def _standard() -> Map:
    from .core.map import standard_map
    return standard_map()


def legal_orders(position: Position, unit: Unit | str) -> list[Order]:
    """Every legal order for ``unit`` in this phase: a `Unit`, the province it stands in
    (``"par"``, ``"St Petersburg"``), or a power (every order each of its units may
    give, then its builds).  A province's name is read first: ``"ENG"`` is the English
    Channel; say ``"England"`` for the power."""
    if isinstance(unit, Unit):
        check_power(unit.power, "unit's power", position.map)
        return _legal_orders(position, unit)
    text = check_text(unit, "unit")
    m = position.map
    loc = m.location(text)
    if loc is None and m.power(text) is not None:
        power = check_power(text, game_map=m)
        units = sorted(position.units_of(power)) + sorted(d.unit for d in position.dislodged
                                                         if d.unit.power == power)
        out = [o for u in units for o in _legal_orders(position, u)]
        return out + build_orders(position, power)
    prov = check_province(m, text)
    found = position.unit_in.get(prov)
    if position.phase.kind == "retreat":
        found = next((d.unit for d in position.dislodged if m.province_of[d.unit.location] == prov), None)
    if found is None:
        raise DipsolveRuleError(f"no unit in {prov} ({m.provinces[prov].name}) to give an order"
                                + (" in this retreat phase" if position.phase.kind == "retreat" else ""),
                                rule="unit-exists")
    return _legal_orders(position, found)


# -- the checks by parameter name -----------------------------------------------------------

def _power(value: Any, args: Args, what: str) -> str:
    return check_power(value, what, _map(args))


def _powers(value: Any, args: Args, what: str) -> Any:
    if value is None:
        return None
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise _wrong(what, "a list of powers", value)
    return [check_power(p, what, _map(args)) for p in value]


def _orders(value: Any, args: Args, what: str) -> Any:
    if value is None:                 # (None is let through before the check where it is the default)
        raise _wrong(what, "orders: a mapping of power to orders, a list of orders or their text", value)
    position = args.get("position", args.get("subject"))
    position = position if isinstance(position, Position) else None
    return check_orders(value, position, position.map if position is not None else _map(args))


def _one_order(value: Any, args: Args, what: str) -> Any:
    position = args.get("position")
    m = _map(args)
    power = args.get("power")           # the order's power, when the call names it
    power = check_power(power, "power", m) if isinstance(power, str) else None
    return _order(position if isinstance(position, Position) else None, m, value, what, power)[1]


def _seats(value: Any, args: Args, what: str) -> Any:
    if not isinstance(value, Mapping):
        raise _wrong(what, "a mapping of power to bot", value)
    seats = {check_power(p, "seats", _map(args)): bot for p, bot in value.items()}
    _having(seats.values(), what, "orders", "a bot (dipsolve.make_bot)")
    return seats


def _callable(value: Any, args: Args, what: str) -> Any:
    if not callable(value):
        raise _wrong(what, "a function", value)
    return value


def _rng(value: Any, args: Args, what: str) -> Any:
    import random
    return _instance(random.Random, "a random.Random")(value, args, what)


def _strategy(value: Any, args: Args, what: str) -> Any:
    from .search.strategy import Strategy
    return _instance(Strategy, "a Strategy (dipsolve.strategy)")(value, args, what)


def _order_sets(value: Any, args: Args, what: str) -> Any:
    """Complete order sets of the call's power (``solve``'s ``seeds``): each a list of
    orders, an `Order` or its text; the orders checked as ``orders`` are."""
    sets = _items(value, what, "order sets (lists of orders)",
                  lambda x: not isinstance(x, (str, bytes, Mapping, Order)) and isinstance(x, Iterable))
    position = args.get("position")
    position = position if isinstance(position, Position) else None
    m = _map(args)
    power = args.get("power")
    power = check_power(power, "power", m) if isinstance(power, str) else None
    return tuple(tuple(_order(position, m, o, f"order of {what}", power)[1] for o in s) for s in sets)


def _deadline(value: Any, args: Args, what: str) -> Any:
    from .core.results import Deadline
    return _instance(Deadline, "a Deadline")(value, args, what)


def _seconds(value: Any, args: Args, what: str) -> Any:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _wrong(what, "a number of seconds", value)
    from .core.bounds import check_float
    check_float(float(value), what.replace("_", " "), "max_seconds")
    return value


def _whole(value: Any, args: Args, what: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _wrong(what, "a whole number", value)
    return value


def _optional_whole(value: Any, args: Args, what: str) -> Any:
    return None if value is None else _whole(value, args, what)


def _text(value: Any, args: Args, what: str) -> Any:
    return check_text(value, what)


def _path(value: Any, args: Args, what: str) -> Any:
    if not isinstance(value, (str, os.PathLike)):
        raise _wrong(what, "a file's path", value)
    return value


def _flag(value: Any, args: Args, what: str) -> Any:
    if not isinstance(value, bool):
        raise _wrong(what, "True or False", value)
    return value


def _number(value: Any, args: Args, what: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise _wrong(what, "a finite number", value)
    return value


def _position(value: Any, args: Args, what: str) -> Any:
    return _instance(Position, "a Position")(value, args, what)


def _record(value: Any, args: Args, what: str) -> Any:
    from .io.records import Record
    return _instance(Record, "a Record (dipsolve.load_record)")(value, args, what)


def _items(value: Any, what: str, expected: str, fits: Callable[[Any], bool]) -> list:
    """``value`` as a list, if it is an iterable (not a text or a mapping) of items that
    ``fits``; else a `DipsolveArgumentError`."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise _wrong(what, f"a list of {expected}", value)
    items = list(value)
    for item in items:
        if not fits(item):
            raise _wrong(f"{what}: an item", expected, item)
    return items


def _each(cls_of: Callable[[], type], expected: str) -> Check:
    """A check of an iterable of instances of the class ``cls_of()`` (imported on use)."""
    return lambda value, args, what: _items(value, what, expected, lambda x: isinstance(x, cls_of()))


def _values(value: Any, args: Args, what: str) -> Any:
    """Province values: a `ProvinceValues`, a mapping of province to a number, or of power
    to either; the names checked and made canonical."""
    from .algorithms.evaluation import ProvinceValues
    if isinstance(value, ProvinceValues):
        return value
    if not isinstance(value, Mapping):
        raise _wrong(what, "a mapping of province to value (or a ProvinceValues)", value)
    m = _map(args)
    out: dict[str, Any] = {}
    for key, item in value.items():
        if isinstance(item, (Mapping, ProvinceValues)):
            out[check_power(key, what, m)] = _values(item, args, f"{what} of {key}")
        else:
            out[check_province(m, key, f"province in {what}")] = _number(item, args, f"{what} of {key}")
    return out


def _subject(value: Any, args: Args, what: str) -> Any:
    from .core.adjudicator import Outcome
    if isinstance(value, (Position, Outcome)):
        return value
    return _each(lambda: Outcome, "an Outcome (a plan's phases)")(value, args, what)


def _rules_class() -> type:
    from .core.rules import Rules
    return Rules


def _record_class() -> type:
    from .io.records import Record
    return Record


#: parameter name -> its check (the value, the call's other arguments, the parameter's name)
CHECKS: dict[str, Check] = {
    "position": _position,
    "start": _instance(Position, "a Position", optional=True),
    "power": _power,
    "powers": _powers,
    "orders": _orders,
    "time_limit": _seconds,
    "timeout": _seconds,
    "seed": _optional_whole,
    "target": _whole,
    "until": _whole,
    "games": _whole,
    "jobs": _whole,
    "workers": _whole,
    "max_moves": _whole,
    "level": _whole,
    "port": _whole,
    "waives": _flag,
    "text": _text,
    "filename": _text,
    "name": _text,
    "host": _text,
    "ray": _text,
    "attempts": _whole,
    "path": _path,
    "game_map": _instance(Map, "a Map", optional=True),
    "limits": _instance(Limits, "a Limits", optional=True),
    "rules": lambda v, a, w: _instance(_rules_class(), "a Rules (dipsolve.Rules)", optional=True)(v, a, w),
    "record": _record,
    "subject": _subject,
    "values": _values,
    "order": _one_order,
    "seats": _seats,
    "rng": _rng,
    "strategy": _strategy,
    "seeds": _order_sets,
    "trace": _flag,
    "agreements": _flag,
    "deadline": _deadline,
    "progress": _callable,
    "on_step": _callable,
    "on_phase": _callable,
    "on_game": _callable,
    "on_lost": _callable,
    "on_retry": _callable,
    "log": _callable,
    "say": _callable,
    "tolerance": _number,
    "center_bonus": _number,
    "occupied_bonus": _number,
}

#: checks of one function's parameters that differ from the names' (function -> name -> check)
OVERRIDES: dict[str, dict[str, Check]] = {
    "dumps_records": {"records": _each(_record_class, "a Record")},
    # the games' records and rows by what they hold (play sits above this module)
    "play_series": {"seating": lambda v, a, w: _having(v, w, "orders", "a bot (dipsolve.make_bot)")},
    "results_table": {"records": lambda v, a, w: _having(v, w, "results", "a game's record (play_game)")},
    "format_table": {"rows": lambda v, a, w: _having(v, w, "win_rate", "a row of results_table")},
}


def _having(value: Any, what: str, attribute: str, expected: str) -> list:
    """`_items` whose every item has ``attribute`` (a class this module may not import)."""
    return _items(value, what, expected, lambda x: hasattr(x, attribute))
#: the solvers' old keywords, now fields of `Limits` (keyword -> the field)
RETIRED = {"time_limit": "time_limit", "workers": "workers", "num_workers": "workers", "seed": "seed",
           "clock": "clock"}

#: public functions that check everything themselves
UNCHECKED = frozenset({"example", "quote"})


def wrap(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` with its arguments checked by `CHECKS` (by parameter name) before it is
    called; a call that does not fit its signature is a `DipsolveArgumentError`."""
    if name in UNCHECKED or not callable(fn) or inspect.isclass(fn):
        return fn
    if name == "legal_orders":
        fn = legal_orders
    signature = inspect.signature(fn)
    own = OVERRIDES.get(name, {})
    checks = {p: own[p] if p in own else CHECKS[p] for p in signature.parameters
              if p in CHECKS or p in own}
    #: parameters whose default is None take None as "not given", unchecked
    optional = {p for p, param in signature.parameters.items() if param.default is None}

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as e:
            retired = [k for k in RETIRED if k in kwargs and k not in signature.parameters]
            if retired and "limits" in signature.parameters:
                raise DipsolveArgumentError(
                    f"{name}(): {retired[0]}= is no longer taken: give "
                    f"limits=dipsolve.Limits({RETIRED[retired[0]]}=...), the one way every solver "
                    f"takes its time limit, seed and workers", expected="limits=dipsolve.Limits(...)") from None
            raise DipsolveArgumentError(f"{name}(): {e}") from None
        arguments = bound.arguments
        for parameter, check in checks.items():
            if parameter in arguments and not (arguments[parameter] is None and parameter in optional):
                arguments[parameter] = check(arguments[parameter], arguments, parameter)
        return fn(*bound.args, **bound.kwargs)

    return call
