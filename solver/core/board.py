"""The integer board: a map's ids and tables, and the one boundary between named values and the engine.

The rules engine (`dipsolve.core.kernel`) knows no names: provinces, locations, powers and
unit kinds are numbers, the map is a flat table of ints, units and orders are rows of ints.
This module is the one place where the named values of the API (`Position`, `Unit`,
`Order`) become those numbers and the engine's answer becomes named values again, as
Meta's dipcc keeps names to its input and output (``loc.h``).  There is one layout, the
engine's rows (`dipsolve.core.tables`' ``U_*``, ``R_*`` and ``A_*`` fields); no order or
unit carries a number of its own: a board keeps each order's row, found again by the
order's identity (`order_chunks`), and each unit's (`Board.unit_code`, by value); the
engine's inputs are the rows packed into one int each (an int64 array when it is
compiled, a list as plain Python).  The engine names the units after a phase by power,
kind and location; the board's table of shared `Unit` objects (``Board.placed``) turns
those numbers back into units.

A `Board` is made once per map and kept in its memo (`board_of`):

- provinces are numbered in the order of their names, ``0 .. P-1``; a location is its
  province's number, or for a coast (``STP/NC``) a number from ``P`` up, in the order of
  the coasts' names;
- powers are numbered in the map's order of play; a power the map does not know (a
  position built by hand may name one) gets the next number when first seen; each has
  a rank among the powers numbered, by name (the canonical order of units), which a
  new power changes (the units' rows are then made again);
- ``tables`` is the engine's map: the province of each location, each province's terrain
  and number of coasts, the moves of an army and of a fleet (location to location), the
  provinces each location reaches, the coast a fleet's move to a province of two coasts
  fills in, the adjacency of provinces, where a fleet may stand and each location's place
  in the order of names (the canonical order of units).
"""

from __future__ import annotations

import threading
from typing import Any, Iterable, Mapping, Sequence

from . import kernel as k
from . import tables
from .map import Map
from .orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, SupportHold, SupportMove
from .position import Position

__all__ = ["Board", "board_of", "engine_movement", "engine_units", "order_chunks", "order_rows", "packed", "retreat_options", "route_problem",
           "run_movement", "run_read"]

_TERRAIN = {"land": k.LAND, "coast": k.COAST, "sea": k.SEA}
_KIND = {"A": 0, "F": 1}
_TYPE = {Hold: k.HOLD, Move: k.MOVE, SupportHold: k.SUPPORT_HOLD, SupportMove: k.SUPPORT_MOVE,
         Convoy: k.CONVOY, Retreat: k.RETREAT, Disband: k.DISBAND, Build: k.BUILD}


class Board:
    """A map's numbers and the engine's tables of it (see the module notes)."""

    def __init__(self, m: Map) -> None:
        self.map = m
        provinces = sorted(m.provinces)
        coasts = sorted(loc for loc in m.province_of if loc not in m.provinces)
        #: by number: the provinces, then every location (the provinces first)
        self.provinces: list[str] = provinces
        self.locations: list[str] = provinces + coasts
        self.location_id: dict[str, int] = {loc: i for i, loc in enumerate(self.locations)}
        if len(self.locations) > k.MAX_LOCATIONS:
            from .errors import DipsolveUnsupported
            raise DipsolveUnsupported(f"a map of {len(self.locations)} locations: the engine "
                                      f"numbers at most {k.MAX_LOCATIONS}")
        #: power -> its number (the map's powers, then others as first seen)
        self.power_id: dict[str, int] = {p: i for i, p in enumerate(m.powers)}
        self.powers: list[str] = list(m.powers)
        #: by power's number: its place among the powers numbered, by name
        self.power_rank: list[int] = _ranks(self.powers)
        self._lock = threading.Lock()
        #: unit -> its packed row (`engine_units`; its rank: the power's, then the kind)
        self.unit_codes: dict[Any, int] = {}
        #: ``(power * 2 + kind) * L + location`` -> the `Unit` standing there (the engine's
        #: code of a unit that moved, `dipsolve.core.kernel.movement`)
        self.placed: _Placed = _Placed(self)
        #: power's name -> the order's id -> its packed row (`order_chunks`), for the
        #: orders that need no id of the phase; ``order_kept`` holds the orders themselves
        #: (alive, so that no other object takes the id)
        self.order_cache: dict[str, dict[int, int]] = {}
        self.order_kept: dict[str, list[Order]] = {}

        self.tables: list[int] = self._tables()
        self._compiled_tables: Any = None

    def _tables(self) -> list[int]:
        m = self.map
        P, L = len(self.provinces), len(self.locations)
        pid, lid = {p: i for i, p in enumerate(self.provinces)}, self.location_id
        sizes = [L, P, P, L * L, L * L, L * P, L * P, L * P, P * P, L, L]
        bt = [0] * k.HEADER
        bt[k.H_P], bt[k.H_L] = P, L
        at = k.HEADER
        for field, size in zip(range(k.O_LPROV, k.O_LORDER + 1), sizes):
            bt[field] = at
            at += size
        bt += [0] * (at - k.HEADER)
        for loc, i in lid.items():
            bt[bt[k.O_LPROV] + i] = pid[m.province_of[loc]]
        for p, i in pid.items():
            bt[bt[k.O_TERR] + i] = _TERRAIN[m.terrain[p]]
            bt[bt[k.O_NCOAST] + i] = len(m.provinces[p].coasts)
        for field, reach_field, moves in ((k.O_AMOVE, k.O_AREACH, m.army_moves),
                                          (k.O_FMOVE, k.O_FREACH, m.fleet_moves)):
            for src, dsts in moves.items():
                s = lid[src]
                for d in dsts:
                    bt[bt[field] + s * L + lid[d]] = 1
                    bt[bt[reach_field] + s * P + pid[m.province_of[d]]] = 1
        fill = bt[k.O_FILL]
        for i in range(L * P):
            bt[fill + i] = -1
        for src, dsts in m.fleet_moves.items():
            s = lid[src]
            bt[bt[k.O_FSTAND] + s] = 1
            for p in pid:
                if m.provinces[p].coasts:
                    here = [d for d in m.fleet_locations[p] if d in dsts]
                    bt[fill + s * P + pid[p]] = lid[here[0]] if len(here) == 1 else -1 if not here else -2
        for rank, loc in enumerate(sorted(self.locations)):
            bt[bt[k.O_LORDER] + lid[loc]] = rank
        for p, qs in m.neighbours.items():
            for q in qs:
                bt[bt[k.O_NB] + pid[p] * P + pid[q]] = 1
        return bt

    def __getstate__(self) -> dict:
        """What a worker process receives: the numbers and tables, not the lock or the caches."""
        state = dict(self.__dict__)
        del state["_lock"]
        state["_compiled_tables"] = None
        state["order_cache"], state["order_kept"] = {}, {}
        state["unit_codes"], state["placed"] = {}, None
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()
        self.placed = _Placed(self)

    def engine_tables(self) -> Any:
        """``tables`` as the engine takes them: an array when it is compiled, else the list."""
        if not k.compiled():
            return self.tables
        if self._compiled_tables is None:
            import numpy as np
            self._compiled_tables = np.array(self.tables, np.int64)
        return self._compiled_tables

    def power(self, name: str) -> int:
        """The number of a power (numbered when first seen)."""
        i = self.power_id.get(name)
        if i is None:
            with self._lock:
                i = self.power_id.get(name)
                if i is None:
                    if len(self.powers) >= k.MAX_POWERS:
                        from .errors import DipsolveUnsupported
                        raise DipsolveUnsupported(f"more than {k.MAX_POWERS} powers on one map: "
                                                  f"the engine numbers at most that many")
                    i = self.power_id[name] = len(self.powers)
                    self.powers.append(name)
                    # the ranks change: the units' codes made before are made again
                    self.power_rank = _ranks(self.powers)
                    self.unit_codes = {}
        return i

    def retreat_options(self, unit: Any, attacker_origin: str | None, occupied: Iterable[str],
                        standoffs: Iterable[str]) -> tuple[str, ...]:
        """Where a dislodged ``unit`` may retreat, by the engine's rule
        (`dipsolve.core.kernel.retreats`, as plain Python): the provinces ``occupied`` and
        ``standoffs`` blocked, and ``attacker_origin`` (None: the attacker was convoyed)."""
        ids = self.location_id               # a province's number is its location's
        blocked = [0] * len(self.provinces)
        for p in (*occupied, *standoffs):
            blocked[ids[p]] = 1
        out = [0] * len(self.locations)
        count = k.plain("retreats")(self.tables, _KIND[unit.kind], ids[unit.location],
                                    ids[attacker_origin] if attacker_origin else -1, blocked, out, 0)
        return tuple(self.locations[x] for x in out[:count])

    def unit_code(self, u: Any) -> int:
        """A unit's packed row (`dipsolve.core.tables.pack_unit`): its power, kind,
        location and rank in the canonical order (``power_rank * 2 + kind``: powers by
        name, armies first), kept in ``unit_codes``."""
        pid = self.power(u.power)
        kind = _KIND[u.kind]
        code = k.pack_unit((pid, kind, self.location_id[u.location], self.power_rank[pid] * 2 + kind))
        codes = self.unit_codes
        if len(codes) > _KEPT:
            codes.clear()
        codes[u] = code
        return code

    def order_code(self, o: Order) -> int:
        """An order's row for the engine packed into one int (`dipsolve.core.tables.
        pack_order`), its power 0: the common orders (names of this map, no route) summed
        from their fields' terms (the packing is linear: `_BASE`), any other by `_row`."""
        cls, lid = type(o), self.location_id
        a: Any = o
        try:
            if cls is Move:
                if not a.route:
                    return (_BASE[k.MOVE] + _KIND_TERM[a.kind] + (lid[a.location] << _S_LOC)
                            + (lid[a.target] << _S_TARGET) + (_VIA_TERM if a.via_convoy else 0))
            elif cls is SupportMove:
                return (_BASE[k.SUPPORT_MOVE] + _KIND_TERM[a.kind] + (lid[a.location] << _S_LOC)
                        + (lid[a.target] << _S_TARGET) + _OKIND_TERM[a.supported_kind]
                        + (lid[a.supported_location] << _S_OLOC))
            elif cls is Hold:
                return _BASE[k.HOLD] + _KIND_TERM[a.kind] + (lid[a.location] << _S_LOC)
            elif cls is SupportHold:
                return (_BASE[k.SUPPORT_HOLD] + _KIND_TERM[a.kind] + (lid[a.location] << _S_LOC)
                        + _OKIND_TERM[a.supported_kind] + (lid[a.supported_location] << _S_OLOC))
            elif cls is Convoy:
                return (_BASE[k.CONVOY] + _KIND_TERM[a.kind] + (lid[a.location] << _S_LOC)
                        + (lid[a.target] << _S_TARGET) + _OKIND_TERM[a.convoyed_kind]
                        + (lid[a.convoyed_location] << _S_OLOC))
        except (KeyError, TypeError):    # a name not of this map, a kind not A or F
            pass
        return k.pack_order((0, *self._row(o)))

    def _row(self, order: Order) -> tuple[int, ...]:
        t = _TYPE.get(type(order))
        if t is None:
            t = next((v for cls, v in _TYPE.items() if isinstance(order, cls)), k.OTHER)
        if t == k.OTHER:
            return (k.OTHER, -1, -1, -1, -1, -1, 0, 0)
        o: Any = order                    # a unit's order: the fields its type has
        lid = self.location_id

        def place(name: Any) -> int:      # -2: not a place of this map
            return lid.get(name, -2) if type(name) is str else -2

        def kind_of(kind: Any) -> int:    # -1: neither an army nor a fleet
            return _KIND.get(kind, -1) if type(kind) is str else -1

        loc, kind = place(o.location), kind_of(o.kind)
        target = place(o.target) if t in (k.MOVE, k.SUPPORT_MOVE, k.CONVOY, k.RETREAT) else -1
        other, okind, flags = -1, -1, 0
        if t in (k.SUPPORT_HOLD, k.SUPPORT_MOVE):
            other, okind = place(o.supported_location), kind_of(o.supported_kind)
        elif t == k.CONVOY:
            other, okind = place(o.convoyed_location), kind_of(o.convoyed_kind)
        route = bool(o.route) if t == k.MOVE else False
        if t == k.MOVE and o.via_convoy:
            flags |= k.F_VIA
        if route:
            m = self.map
            src, dst = m.province_of.get(o.location), m.province_of.get(o.target)
            if (src is not None and dst is not None and src != dst
                    and route_problem(m, o.kind, src, dst, tuple(o.route)) is not None):
                flags |= k.F_BAD_ROUTE
        # orders that may be equal in every number but differ (names not on the map, a
        # kind neither A nor F, a route named) get an id in each phase (`order_chunks`)
        odd = -2 in (loc, target, other) or kind < 0 or route
        return (t, kind, loc, target, okind, other, flags, 1 if odd else 0)


def retreat_options(game_map: Map, unit: Any, attacker_origin: str | None,
                    occupied: Iterable[str], standoffs: Iterable[str]) -> tuple[str, ...]:
    """Where a dislodged unit may retreat: adjacent for its kind, not occupied, not a
    standoff province, not the province its attacker came from (None: it came by convoy),
    sorted; the engine's rule (`dipsolve.core.kernel.retreats`), asked of a position
    built by hand."""
    return board_of(game_map).retreat_options(unit, attacker_origin, occupied, standoffs)


def route_problem(m: Map, kind: str, src: str, dst: str, route: tuple[str, ...]) -> str | None:
    """What is wrong with a convoy route a move names (``A SMY - AEG - GRE``): only an
    army is convoyed, through seas, each next to the one before, from ``src`` to
    ``dst``; None when nothing is.  Whether fleets stand there is the adjudicator's
    question (the rules do not bind a convoy to the route named)."""
    if kind != "A":
        return "only an army is convoyed: a fleet's move names no route"
    before = src
    for sea in route:
        if sea not in m.provinces or not m.is_sea(sea):
            return f"{sea} is not a sea: a convoy route crosses seas"
        if sea not in m.neighbours.get(before, ()):
            return f"the route goes from {before} to {sea}, which are not adjacent"
        before = sea
    if dst not in m.neighbours.get(before, ()):
        return f"the route goes from {before} to {dst}, which are not adjacent"
    return None


_BOARDS_LOCK = threading.Lock()


def board_of(m: Map) -> Board:
    """The map's `Board`, made on first use and kept in its memo."""
    b = m.memo.get("board")
    if b is None:
        with _BOARDS_LOCK:
            b = m.memo.get("board")
            if b is None:
                b = m.memo["board"] = Board(m)
    return b


#: at most this many orders' rows a board keeps for each power (`order_chunks`; about 350 bytes each)
_KEPT = 20_000


def packed(ints_: list[int]) -> Any:
    """Packed rows (`dipsolve.core.tables.pack_unit`, ``pack_order``) as one input of the
    engine: an int64 array when it is compiled, else the list."""
    if k.compiled():
        import numpy as np
        return np.fromiter(ints_, np.int64, len(ints_))
    return ints_


def engine_units(board: Board, position: Position) -> Any:
    """The position's units as the engine's input (power, kind, location, rank in the
    canonical order each, packed into one int: `Board.unit_code`), kept in the
    position's memo."""
    key = "board.units.compiled" if k.compiled() else "board.units"
    units = position.memo.get(key)
    if units is None:
        codes = board.unit_codes
        try:
            rows = [codes[u] for u in position.units]
        except KeyError:
            for u in position.units:      # every power numbered first: a new one re-ranks
                board.power(u.power)
            code = board.unit_code
            rows = [code(u) for u in position.units]
        units = position.memo[key] = packed(rows)
    return units


def _ranks(powers: list[str]) -> list[int]:
    """By power's number, its place among ``powers`` by name."""
    rank = [0] * len(powers)
    for r, i in enumerate(sorted(range(len(powers)), key=powers.__getitem__)):
        rank[i] = r
    return rank


class _Placed(dict):
    """``(power * 2 + kind) * L + location`` -> the shared `Unit` (made when first asked)."""

    def __init__(self, board: Board) -> None:
        super().__init__()
        self.board = board
        self.L = len(board.locations)

    def __missing__(self, code: int) -> Any:
        from .position import unit
        pk, loc = divmod(code, self.L)
        pid, kind = divmod(pk, 2)
        b = self.board
        if len(self) > _KEPT:
            self.clear()
        u = self[code] = unit(b.powers[pid], "AF"[kind], b.locations[loc])
        return u


def order_chunks(board: Board, orders: Mapping[str, Iterable[Order]]) -> tuple[list, list[tuple[str, Sequence[Order]]]]:
    """Each order given as its row packed into one int (`dipsolve.core.tables.pack_order`),
    and each power with its orders, in order (`given` lists them one by one).  Each
    order's row is made once per board and power and kept by the order's identity (a
    search that judges the same order objects again looks nothing up by value); the
    orders that need an id (see `dipsolve.core.tables.ID_MAX`) are numbered here, by
    value, for this phase."""
    rows: list = []
    append = rows.append
    by_power: list[tuple[str, Sequence[Order]]] = []
    caches = board.order_cache
    odd: dict | None = None                   # packed row, id 0 -> {order: its id}
    for p, os in orders.items():
        if type(os) is not list and type(os) is not tuple:
            os = list(os)
        by_power.append((p, os))
        start = len(rows)
        try:
            cache = caches[p]                 # a power's name (KeyError, TypeError: not yet, not a name)
            for o in os:
                append(cache[id(o)])
        except (KeyError, TypeError):
            del rows[start:]
            odd = _power_rows(board, p, os, rows, odd)
    return rows, by_power


def _power_rows(board: Board, p: Any, os: Sequence[Order], rows: list, odd: dict | None) -> dict | None:
    """`order_chunks` for one power's orders, one by one: each row made or found, kept
    when it needs no id, numbered when it does."""
    pid = board.power(p) if type(p) is str else -1
    cache = board.order_cache.get(p) if type(p) is str else None
    if cache is None or len(cache) > _KEPT:
        cache = {}
        if type(p) is str:
            board.order_cache[p], board.order_kept[p] = cache, []
    kept = board.order_kept.get(p) if type(p) is str else None
    code, power, one, shift = board.order_code, pid << _S_POWER, 1 << _ID_SHIFT, _ID_SHIFT
    for o in os:
        v = cache.get(id(o))
        if v is None:
            v = code(o) + power
            if not v & one:
                cache[id(o)] = v
                if kept is not None:
                    kept.append(o)
        if v & one:                           # an order that needs an id: its number
            v ^= one
            if odd is None:
                odd = {}
            ids = odd.setdefault(v, {})
            key = _value(o)
            n = ids.get(key)
            if n is None:
                n = ids[key] = min(len(ids) + 1, tables.ID_MAX)
            v |= n << shift
        rows.append(v)
    return odd


#: where each field of an order starts in its packed int (`dipsolve.core.tables.ORDER_BITS`)
_SHIFTS = {field: shift for field, shift, bits, offset in tables.ORDER_BITS}
_ID_SHIFT, _S_POWER, _S_LOC, _S_TARGET, _S_OLOC = (
    _SHIFTS[tables.R_ID], _SHIFTS[tables.R_POWER], _SHIFTS[tables.R_LOC], _SHIFTS[tables.R_TARGET],
    _SHIFTS[tables.R_OLOC])
#: the packing is linear: a row's int is the int of the row of zeros (each field's offset
#: in place) plus each field's value shifted to its place; so an order's int is its
#: type's base (the fields it does not have at -1) plus its fields' terms
_BASE = {t: k.pack_order((0, t, 0, 0, -1 if t in (k.HOLD, k.SUPPORT_HOLD) else 0,
                          -1 if t in (k.HOLD, k.MOVE) else 0, -1 if t in (k.HOLD, k.MOVE) else 0, 0, 0))
         for t in (k.HOLD, k.MOVE, k.SUPPORT_HOLD, k.SUPPORT_MOVE, k.CONVOY)}
_KIND_TERM = {kind: v << _SHIFTS[tables.R_KIND] for kind, v in _KIND.items()}
_OKIND_TERM = {kind: v << _SHIFTS[tables.R_OKIND] for kind, v in _KIND.items()}
_VIA_TERM = k.F_VIA << _SHIFTS[tables.R_FLAGS]


def _value(o: Order) -> Any:
    """The order as a key by value (its text where a field cannot be hashed)."""
    try:
        hash(o)
        return o
    except TypeError:
        return (type(o), repr(o))


def given(by_power: Iterable[tuple[str, Sequence[Order]]]) -> list[tuple[str, Order]]:
    """``(power, order)`` of each order given, in the order of `order_chunks`."""
    return [(p, o) for p, os in by_power for o in os]


def order_rows(board: Board, orders: Mapping[str, Iterable[Order]]
               ) -> tuple[Any, list[tuple[str, Sequence[Order]]]]:
    """The orders given as the engine's input (`order_chunks`, `packed`), and each power
    with its orders, in order."""
    rows, by_power = order_chunks(board, orders)
    return packed(rows), by_power


def engine_movement(board: Board, units: Any, rows: Any, rules: int = 0) -> tuple[list[int], Any]:
    """The engine's movement phase on inputs as it takes them (`engine_units`,
    `order_rows`), under the engine's options ``rules`` (0: DATC 3.0's preferences): its
    answer's summary as a list of ints, and its details (an array or a list: see
    `dipsolve.core.kernel.movement`)."""
    out = k.movement(board.engine_tables(), units, rows, rules)
    head = int(out[0])
    if type(out) is list:
        return out[:head], out[head:]
    return out[:head].tolist(), out[head:]


def run_movement(position: Position, orders: Mapping[str, Iterable[Order]], rules: int = 0
                 ) -> tuple[list[int], Any, list[tuple[str, Sequence[Order]]], Board]:
    """One movement phase through the engine: its answer's summary and details (see
    `dipsolve.core.kernel.movement`), each power with its orders (`order_chunks`), and the
    board."""
    if not k.loaded():
        k.load()
    board = board_of(position.map)
    rows, by_power = order_rows(board, orders)
    summary, details = engine_movement(board, engine_units(board, position), rows, rules)
    return summary, details, by_power, board


def run_read(position: Position, orders: Mapping[str, Iterable[Order]]
             ) -> tuple[list[int], list[tuple[str, Order]], Board]:
    """Step 1 of a movement phase through the engine (`dipsolve.core.kernel.movement` with ``READ_ONLY``): the
    orders matched to their units and read, nothing resolved."""
    if not k.loaded():
        k.load()
    board = board_of(position.map)
    rows, by_power = order_rows(board, orders)
    out = k.movement(board.engine_tables(), engine_units(board, position), rows, k.READ_ONLY)
    return (out[1:] if type(out) is list else out[1:].tolist()), given(by_power), board
