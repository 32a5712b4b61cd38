"""The reference adjudicator of a movement phase, kept as a test oracle (issue 48).

Until issue 48 this was the package's definition of a movement phase: the orders matched
to their units on dicts and lists of names, then resolved by Kruijswijk's guess algorithm
("The Math of Adjudication", DATC section 5), recursively.  The package now has one rules
engine (`dipsolve.core.kernel`); this copy stays under ``tests/`` as an independent
oracle that the engine is compared with on odd orders (``tests/test_oracle.py``), where
the DATC and the `diplomacy` package say nothing (the reasons and the details of refused
orders).  It is never imported by the package.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import compress

from dipsolve.core.adjudicator import Outcome, next_position
from dipsolve.core.graph import coasts_in_reach, on_route, sea_route
from dipsolve.core.map import Map
from dipsolve.core.orders import (MOVEMENT_ORDERS, Convoy, Hold, Move, Order, Retreat, SupportHold,
                                  SupportMove, UnitOrder)
from dipsolve.core.position import UNITS, Dislodged, Position, Unit, unit
from dipsolve.core.rules import OrderResult, Reason, _find_unit, _not_for_phase, route_problem


def adjudicate_movement(position: Position, orders: Mapping[str, Iterable[Order]]) -> Outcome:
    """A movement phase by the reference: match, settle, execute."""
    return _reference_movement(position, orders)


#: what a `Matching` records an order as (``Matching.otype``)
T_HOLD, T_MOVE, T_SUPPORT_HOLD, T_SUPPORT_MOVE, T_CONVOY = range(5)
_HOLD, _MOVE, _SUPH, _SUPM, _CONVOY = T_HOLD, T_MOVE, T_SUPPORT_HOLD, T_SUPPORT_MOVE, T_CONVOY

#: `movement_table`: by unit index, each unit's province, power, kind; province -> index,
#: location -> index; the seas fleets hold; by unit index, the locations each unit moves to
#: and the provinces it reaches
MovementTable = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], dict[str, int],
                      dict[str, int], frozenset[str], tuple[frozenset[str], ...],
                      tuple[frozenset[str], ...]]


def movement_table(position: Position) -> MovementTable:
    """What matching and resolving a movement phase need of the position alone, built
    once per position (``Position.memo``): a search that tries many order sets in one
    position pays for it once."""
    static = position.memo.get("movement")
    if static is None:
        units = position.units
        table = position.map.unit_table
        army, fleet = table["A"], table["F"]
        powers, kinds, locs = zip(*units) if units else ((), (), ())
        info = [(army if k == "A" else fleet)[loc] for k, loc in zip(kinds, locs)]
        prov, moveset, reach, at_sea = zip(*info) if info else ((), (), (), ())
        n = len(units)
        static = position.memo["movement"] = (
            prov, powers, kinds, dict(zip(prov, range(n))), dict(zip(locs, range(n))),
            frozenset(compress(prov, at_sea)), moveset, reach)
    return static


class Matching:
    """One movement phase's orders matched to their units: int-indexed lists over the
    position's units (the adjudicator resolves on the same lists).  Unset places are
    ``""``."""

    __slots__ = ("m", "n", "units", "static", "prov", "power", "kind", "reach", "otype", "dest",
                 "dest_loc", "via", "sup_prov", "sup_dest", "orders", "why", "at", "seas",
                 "moving", "others")
    #: the units ordered to move, and those ordered to support or convoy (sorted), as
    #: `match_movement` leaves them
    moving: list[int]
    others: list[int]

    def __init__(self, position: Position, static: MovementTable):
        self.m: Map = position.map
        self.units: tuple[Unit, ...] = position.units
        n = self.n = len(self.units)
        self.static = static                   # `movement_table(position)`
        self.prov, self.power, self.kind, self.at, _, self.seas, _, self.reach = static
        self.otype = [_HOLD] * n
        self.dest: list[str] = [""] * n        # move: destination province
        self.dest_loc: list[str] = [""] * n    # move: destination location; support-move: the coast named
        self.via = [False] * n                 # move goes by convoy
        self.sup_prov: list[str] = [""] * n    # support/convoy: the supported unit's province
        self.sup_dest: list[str] = [""] * n    # support-move/convoy: its destination
        self.orders: list[UnitOrder | None] = [None] * n    # the order as given (None: unordered)
        #: set aside: the reason, its detail and the rule broken (`RULES`)
        self.why: list[tuple[Reason, str, str] | None] = [None] * n


def match_movement(st: Matching, position: Position,
                   orders: Mapping[str, Iterable[Order]]) -> list[OrderResult]:
    """Step 1 of a movement phase: match each order to its unit and check it (DATC
    4.E.1), into ``st`` (a fresh `Matching` of ``position``); returns the results of the
    orders set aside without a unit of their own (no such unit, not your unit, not an
    order for this phase, the second order of a unit).  Plain moves to an adjacent place
    and plain supports take a fast path, the rest `_classify`."""
    m = st.m
    po = m.province_of
    results: list[OrderResult] = []
    prov_of_unit, unit_power, unit_kind, at, at_loc, seas, moveset, _ = st.static
    given = st.orders
    otype, dest, dest_loc, via = st.otype, st.dest, st.dest_loc, st.via
    sup_prov, sup_dest, reach = st.sup_prov, st.sup_dest, st.reach
    moving: list[int] = []
    others: list[int] = []
    extra: dict[int, list[UnitOrder]] | None = None
    for power, os in orders.items():
        for o in os:
            if not isinstance(o, UnitOrder):
                results.append(OrderResult(power, o, False, Reason.ILLEGAL,
                                           _not_for_phase("movement", o), "phase"))
                continue
            loc = o.location
            i = at_loc.get(loc)
            if i is None:
                prov = po.get(loc)
                i = at.get(prov) if prov is not None else None
            if i is None or unit_kind[i] != o.kind or unit_power[i] != power:
                if not isinstance(o, MOVEMENT_ORDERS):
                    results.append(OrderResult(power, o, False, Reason.ILLEGAL,
                                               _not_for_phase("movement", o), "phase"))
                else:
                    _find_unit(position, position.unit_in, power, o, results)
                continue
            g = given[i]
            if g is not None:
                # a repeated identical order is harmless; two different ones: see below
                if g != o:
                    if extra is None:
                        extra = {}
                    more = extra.setdefault(i, [])
                    if o not in more:
                        more.append(o)
                continue
            given[i] = o
            if type(o) is Move:
                target = o.target
                if not o.via_convoy and target in moveset[i]:
                    otype[i], dest[i], dest_loc[i] = _MOVE, po[target], target
                    moving.append(i)
                    continue
            elif type(o) is Hold:
                continue
            elif type(o) is SupportHold:
                sprov = po.get(o.supported_location)
                if sprov in reach[i] and sprov in at:
                    otype[i], sup_prov[i] = _SUPH, sprov
                    others.append(i)
                    continue
            elif type(o) is SupportMove:
                target = o.target
                tprov = po.get(target)
                if tprov in reach[i]:
                    j = at.get(po.get(o.supported_location, ""))
                    if j is not None and j != i and tprov in reach[j]:
                        otype[i], sup_prov[i], sup_dest[i] = _SUPM, prov_of_unit[j], tprov
                        dest_loc[i] = target if target != tprov and unit_kind[j] == "F" else ""
                        others.append(i)
                        continue
            _classify(st, i, o, seas)
            t = otype[i]
            if t == _MOVE:
                moving.append(i)
            elif t != _HOLD:
                others.append(i)
    if extra is not None:
        # two different orders for one unit: it holds (DATC 4.D.3)
        for i, more in extra.items():
            both = [given[i], *more]
            otype[i], via[i] = _HOLD, False
            dest[i] = dest_loc[i] = sup_prov[i] = sup_dest[i] = ""
            st.why[i] = (Reason.DUPLICATE, "two different orders: " + "; ".join(map(str, both)),
                         "one order")
            for e in more:
                results.append(OrderResult(unit_power[i], e, False, Reason.DUPLICATE,
                                           "the unit holds", "one order"))
        moving = [i for i in moving if i not in extra]
        others = [i for i in others if i not in extra]
    moving.sort()
    others.sort()
    st.moving, st.others = moving, others
    return results


def _classify(st: Matching, i: int, o: UnitOrder, seas: frozenset[str]) -> None:
    """Check one order's legality (DATC 4.E.1) and record what it asks for."""
    m, unit, prov = st.m, st.units[i], st.prov[i]
    po = m.province_of

    def illegal(rule: str, why: str) -> None:
        st.why[i] = (Reason.ILLEGAL, why, rule)

    if type(o) is SupportHold or type(o) is SupportMove:
        sprov = po.get(o.supported_location)
        if sprov is None:
            return illegal("location", f"unknown location {o.supported_location}")
        if sprov == prov:
            return illegal("support", "a unit cannot support itself")
        supported = st.at.get(sprov)
        if type(o) is SupportHold:
            if sprov not in st.reach[i]:
                return illegal("support",
                               f"{unit} cannot reach {sprov}, so cannot support a unit there")
            if supported is None:
                return illegal("support", f"no unit in {sprov} to support")
            st.otype[i], st.sup_prov[i] = _SUPH, sprov
            return
        assert type(o) is SupportMove
        target = o.target
        tprov = po.get(target)
        if tprov is None:
            return illegal("location", f"unknown destination {target}")
        if tprov == prov:
            return illegal("support", "a unit cannot support a move into its own province")
        if tprov not in st.reach[i]:
            return illegal("support", f"{unit} cannot reach {tprov}, so cannot support a move there")
        if supported is None:
            return illegal("support", f"no unit in {sprov} to support")
        # the supported move must be one that could be ordered (DATC 6.D.31 and 4.E.1)
        if tprov not in st.reach[supported] and not (
                st.kind[supported] == "A" and not m.is_land(sprov) and not m.is_land(tprov)
                and not m.is_sea(tprov) and sea_route(m, sprov, tprov, seas)):
            return illegal("support", f"{st.units[supported]} cannot move to {tprov}")
        coast = target if target != tprov and st.kind[supported] == "F" else ""
        st.otype[i], st.sup_prov[i], st.sup_dest[i], st.dest_loc[i] = _SUPM, sprov, tprov, coast
        return
    if type(o) is Hold:
        return
    if type(o) is Retreat:
        return illegal("phase", _not_for_phase("movement", o))
    if type(o) is Move:
        target = o.target
        tprov = po.get(target)
        if tprov is None:
            return illegal("location", f"unknown destination {target}")
        if tprov == prov:
            return illegal("adjacency", "a unit cannot move to its own province")
        if o.route:
            bad = route_problem(m, unit.kind, prov, tprov, o.route)
            if bad is not None:
                return illegal("convoy route", bad)
        if unit.kind == "A":
            if m.is_sea(tprov):
                return illegal("terrain", f"an army cannot enter {m.provinces[tprov].name} (a sea)")
            adjacent = tprov in st.reach[i]
            if o.via_convoy or not adjacent:
                if not (not m.is_land(prov) and not m.is_land(tprov)
                        and sea_route(m, prov, tprov, seas)):
                    if not adjacent:
                        return illegal("adjacency", f"{prov} is not adjacent to {tprov} "
                                                    "and no convoy route is possible")
                    return illegal("convoy route", f"no convoy route from {prov} to {tprov} is possible")
                st.via[i] = True
            st.otype[i], st.dest[i], st.dest_loc[i] = _MOVE, tprov, tprov
            return
        # fleet
        if m.is_land(tprov):
            return illegal("terrain", f"a fleet cannot enter {m.provinces[tprov].name} (inland)")
        moves = m.fleet_moves[unit.location]
        if target == tprov and m.provinces[tprov].coasts:
            reach = coasts_in_reach(m, tprov, moves)
            if len(reach) != 1:
                if not reach:
                    return illegal("adjacency", f"{unit.location} is not adjacent to {tprov}")
                return illegal("coast", f"the coast of {tprov} must be given ({' or '.join(reach)})")
            target = reach[0]
        elif target not in moves:
            if tprov in st.reach[i]:
                return illegal("coast", f"{unit.location} cannot reach {target} (wrong coast)")
            return illegal("adjacency", f"{unit.location} is not adjacent to {target}")
        st.otype[i], st.dest[i], st.dest_loc[i] = _MOVE, tprov, target
        return
    if type(o) is Convoy:
        if unit.kind != "F" or not m.is_sea(prov):
            return illegal("convoy", "only a fleet at sea can convoy")
        aprov, tprov = po.get(o.convoyed_location), po.get(o.target)
        if aprov is None or tprov is None:
            return illegal("location", "unknown location in convoy order")
        a = st.at.get(aprov)
        if a is None:
            return illegal("convoy", f"no unit in {aprov} to convoy")
        if st.kind[a] != "A" or o.convoyed_kind != "A":
            return illegal("convoy", "only an army can be convoyed")
        if m.is_land(aprov) or m.is_land(tprov) or m.is_sea(tprov) or aprov == tprov:
            return illegal("convoy", f"no convoy from {aprov} to {tprov} is possible")
        # the fleet must be on some possible route (DATC 4.E.1, 6.G.19)
        if not on_route(m, aprov, tprov, prov, seas):
            return illegal("convoy", f"{prov} is on no convoy route from {aprov} to {tprov}")
        st.otype[i], st.sup_prov[i], st.sup_dest[i] = _CONVOY, aprov, tprov
        return
    illegal("phase", _not_for_phase("movement", o))


_UNRESOLVED, _GUESSING, _RESOLVED = 0, 1, 2


class _Movement(Matching):
    """The state of one movement adjudication: the orders matched (`Matching`), then the
    moves indexed and every decision resolved, on int-indexed lists over the units."""

    __slots__ = ("movers_to", "hold_sups", "move_sups", "convoyers", "res", "state", "deps",
                 "h2h", "occ")
    #: destination province -> the units moving there
    movers_to: dict[str, list[int]]
    #: by unit: the supports of its hold, of its move, the fleets convoying it (() for none)
    hold_sups: list
    move_sups: list
    convoyers: list
    #: by unit: the unit its move meets head to head, the unit standing in its destination
    h2h: list[int]
    occ: list[int]
    #: the decisions (0..n-1: the move of unit i; n..2n-1: the convoy path of unit i), their
    #: state (unresolved, guessing, resolved) and the guesses they depend on
    res: list[bool]
    state: list[int]
    deps: list[int]


def _reference_movement(position: Position, orders: Mapping[str, Iterable[Order]]) -> Outcome:
    """A movement phase, steps 1 to 4 of the module's pipeline."""
    st = _Movement(position, movement_table(position))
    # 1. match orders to units and check them (DATC 4.C, 4.D.3, 4.E.1)
    results = match_movement(st, position, orders)
    settle(st)
    # 4. execute: moves, dislodgements, retreat options, the next phase
    return execute_movement(position, st, results)


def settle(st: _Movement) -> None:
    """Steps 2 and 3 of a movement phase whose orders are matched (``st``): convoy
    intent, supports and convoys indexed by the unit they are for, every move resolved.
    `dipsolve.core.resolver` calls it too, on orders matched a part at a time."""
    n = st.n
    st.res = [False] * (2 * n)
    st.state = [_UNRESOLVED] * (2 * n)
    st.deps = []
    prov_of_unit, unit_power, _, at, _, _, _, _ = st.static
    otype, dest, dest_loc, via = st.otype, st.dest, st.dest_loc, st.via
    sup_prov, sup_dest = st.sup_prov, st.sup_dest
    moving, others = st.moving, st.others
    # 2. convoy intent for adjacent army moves (DATC 3.0 4.A.3): a fleet of the army's
    #    own power ordered to convoy it; then index supports and convoys by their unit
    for i in others:
        if otype[i] == _CONVOY:
            a = at[sup_prov[i]]
            if otype[a] == _MOVE and dest[a] == sup_dest[i] and unit_power[a] == unit_power[i]:
                via[a] = True
    movers_to: dict[str, list[int]] = {}
    h2h = [-1] * n     # the unit a move meets head to head
    occ = [-1] * n     # the unit standing in a move's destination
    for i in moving:
        d = dest[i]
        lst = movers_to.get(d)
        if lst is None:
            movers_to[d] = [i]
        else:
            lst.append(i)
        j = at.get(d)
        if j is not None:
            occ[i] = j
            if otype[j] == _MOVE and dest[j] == prov_of_unit[i] and not via[i] and not via[j]:
                h2h[i] = j
    # supports and convoys by the unit they are for (an empty tuple when there are none)
    hold_sups: list = [()] * n
    move_sups: list = [()] * n
    convoyers: list = [()] * n
    for i in others:
        t = otype[i]
        j = at[sup_prov[i]]
        if t == _SUPH:
            if otype[j] != _MOVE:
                if hold_sups[j]:
                    hold_sups[j].append(i)
                else:
                    hold_sups[j] = [i]
        elif t == _SUPM:
            if otype[j] == _MOVE and dest[j] == sup_dest[i]:
                # a support that names a coast must name the coast moved to (DATC 4.B.4)
                want = dest_loc[i]
                if not want or want == dest_loc[j]:
                    if move_sups[j]:
                        move_sups[j].append(i)
                    else:
                        move_sups[j] = [i]
        elif otype[j] == _MOVE and via[j] and dest[j] == sup_dest[i]:
            if convoyers[j]:
                convoyers[j].append(i)
            else:
                convoyers[j] = [i]
    st.movers_to, st.hold_sups, st.move_sups, st.convoyers, st.h2h, st.occ = (
        movers_to, hold_sups, move_sups, convoyers, h2h, occ)

    # 3. resolve every move; one alone into an empty province, not by convoy, succeeds
    res, state = st.res, st.state
    for i in moving:
        if occ[i] < 0 and not via[i] and len(movers_to[dest[i]]) == 1:
            res[i] = True
            state[i] = _RESOLVED
    for i in moving:
        if state[i] != _RESOLVED:
            _resolve(st, i)


# -- the resolver (Kruijswijk's guess algorithm) ----------------------------------------

def _resolve(st: _Movement, d: int) -> bool:
    state = st.state
    s = state[d]
    if s == _RESOLVED:
        return st.res[d]
    deps = st.deps
    if s == _GUESSING:
        if d not in deps:
            deps.append(d)
        return st.res[d]
    old = len(deps)
    st.res[d] = False
    state[d] = _GUESSING
    first = _decide_path(st, d - st.n) if d >= st.n else _decide_move(st, d)
    if len(deps) == old:
        if state[d] != _RESOLVED:
            st.res[d] = first
            state[d] = _RESOLVED
        return first
    if deps[old] != d:
        deps.append(d)
        st.res[d] = first
        return first
    # the result depends on our own guess: try the other one
    for x in deps[old:]:
        state[x] = _UNRESOLVED
    del deps[old:]
    st.res[d] = True
    state[d] = _GUESSING
    second = _decide_path(st, d - st.n) if d >= st.n else _decide_move(st, d)
    if first == second:
        for x in deps[old:]:
            state[x] = _UNRESOLVED
        del deps[old:]
        st.res[d] = first
        state[d] = _RESOLVED
        return first
    # two solutions or none: the backup rule settles the cycle
    cycle = deps[old:]
    if d not in cycle:
        cycle.append(d)
    _backup_rule(st, cycle)
    del deps[old:]
    return _resolve(st, d)


def _backup_rule(st: _Movement, cycle: list[int]) -> None:
    n = st.n
    paths = [x for x in cycle if x >= n]
    for x in cycle:
        st.state[x] = _UNRESOLVED
    if paths:
        # Szykman: the convoys in a paradox fail; their armies do not move
        for x in paths:
            st.res[x] = False
            st.state[x] = _RESOLVED
    else:
        # circular movement: every move in the cycle succeeds
        for x in cycle:
            st.res[x] = True
            st.state[x] = _RESOLVED


def _decide_path(st: _Movement, i: int) -> bool:
    """Whether army ``i`` has a convoy route of fleets that are not dislodged."""
    fleets = [f for f in st.convoyers[i] if not _dislodged(st, f)]
    if not fleets:
        return False
    return sea_route(st.m, st.prov[i], st.dest[i], {st.prov[f] for f in fleets})


def _path_ok(st: _Movement, i: int) -> bool:
    return not st.via[i] or _resolve(st, st.n + i)


def _given(st: _Movement, sups) -> int:
    """How many of these supports are given (not cut, not dislodged)."""
    c = 0
    for s in sups:
        if _support_holds(st, s):
            c += 1
    return c


def _support_holds(st: _Movement, s: int) -> bool:
    """Whether support ``s`` is given: not cut by an attack, not dislodged."""
    attackers = st.movers_to.get(st.prov[s])
    if attackers is None:
        return True
    power = st.power[s]
    against = st.sup_dest[s]  # a support-move is not cut from the province it attacks
    for mv in attackers:
        if st.power[mv] != power and st.prov[mv] != against and _path_ok(st, mv):
            return False
    return not _dislodged(st, s)


def _dislodged(st: _Movement, u: int) -> bool:
    for mv in st.movers_to.get(st.prov[u], ()):
        if _resolve(st, mv):
            return not (st.otype[u] == _MOVE and _resolve(st, u))
    return False


def _decide_move(st: _Movement, i: int) -> bool:
    """Whether move ``i`` succeeds (DATC section 5: attack strength against hold,
    defend and prevent strengths)."""
    if st.via[i] and not _resolve(st, st.n + i):
        return False
    j = st.occ[i]
    sups = st.move_sups[i]
    # attack strength
    if j < 0 or (st.otype[j] == _MOVE and st.h2h[i] != j and _resolve(st, j)):
        att = 1 + _given(st, sups) if sups else 1
    else:
        pj = st.power[j]
        if pj == st.power[i]:
            return False     # no unit dislodges one of its own power
        att = 1
        for s in sups:
            if st.power[s] != pj and _support_holds(st, s):
                att += 1
    h = st.h2h[i]
    if h >= 0:
        # defend strength of the unit met head to head
        hs = st.move_sups[h]
        if att <= (1 + _given(st, hs) if hs else 1):
            return False
    elif j >= 0:
        # hold strength
        if st.otype[j] == _MOVE:
            hold = 0 if _resolve(st, j) else 1
        else:
            hs = st.hold_sups[j]
            hold = 1 + _given(st, hs) if hs else 1
        if att <= hold:
            return False
    movers = st.movers_to[st.dest[i]]
    if len(movers) > 1:
        # prevent strength of every other move to the same place
        for k in movers:
            if k == i or (st.via[k] and not _resolve(st, st.n + k)):
                continue
            h = st.h2h[k]
            if h >= 0 and _resolve(st, h):
                continue     # beaten head to head: it prevents nothing
            ks = st.move_sups[k]
            if att <= (1 + _given(st, ks) if ks else 1):
                return False
    return True


# -- execution ------------------------------------------------------------------------------

def after_moves(st: _Movement) -> tuple[list[bool], dict[int, int], list[Unit]]:
    """What the resolved moves of ``st`` do to the board: by unit, whether it moved; the
    units dislodged (unit -> the move that dislodged it); the units on the board after
    movement, dislodged ones left out, in canonical order."""
    units, res, at, dest = st.units, st.res, st.at, st.dest
    moved = [False] * st.n
    moved_units = [i for i in st.moving if res[i]]
    for i in moved_units:
        moved[i] = True
    dislodged_by: dict[int, int] = {}
    for mv in moved_units:
        j = at.get(dest[mv])
        if j is not None and not moved[j]:
            dislodged_by[j] = mv
    new_units = list(units)
    dest_loc = st.dest_loc
    for i in moved_units:
        u = units[i]
        key = (u.power, u.kind, dest_loc[i])
        nu = UNITS.get(key)
        new_units[i] = nu if nu is not None else unit(*key)
    if dislodged_by:
        new_units = [u for i, u in enumerate(new_units) if i not in dislodged_by]
    if moved_units:
        new_units.sort()
    return moved, dislodged_by, new_units


def execute_movement(position: Position, st: _Movement, results: list[OrderResult],
                     after: tuple[list[bool], dict[int, int], list[Unit]] | None = None) -> Outcome:
    """Step 4 of a movement phase: the `Outcome` of the resolved ``st`` (``after``:
    `after_moves` of it, when already known)."""
    moved, dislodged_by, new_units = after if after is not None else after_moves(st)
    standoffs: set[str] = set()
    if dislodged_by:
        # DATC 4.A.5: no retreat to a province left empty by a standoff
        po = st.m.province_of
        occupied = {po[u.location] for u in new_units}
        for d, movers in st.movers_to.items():
            if d in occupied:
                continue
            for k in movers:
                if not moved[k] and _path_ok(st, k) and not (st.h2h[k] >= 0 and moved[st.h2h[k]]):
                    standoffs.add(d)
                    break
    origins = {i: None if st.via[mv] else st.prov[mv] for i, mv in dislodged_by.items()}
    nxt, destroyed = after_movement(position, new_units, dislodged_by, origins, standoffs)
    return Outcome(position, None, nxt, destroyed,
                   lambda: _movement_results(st, results, moved, dislodged_by))


def _movement_results(st: _Movement, results: list[OrderResult], moved: list[bool],
                      dislodged_by: dict[int, int]) -> list[OrderResult]:
    units, n = st.units, st.n
    out: list[OrderResult] = []
    for i in range(n):
        power, given = st.power[i], st.orders[i]
        order = given if given is not None else Hold(units[i].kind, units[i].location)
        t = st.otype[i]
        why = st.why[i]
        if why is not None:
            reason, detail, rule = why
            if i in dislodged_by:
                detail = f"{detail}; dislodged by {units[dislodged_by[i]]}"
            out.append(OrderResult(power, order, False, reason, detail, rule))
            continue
        if i in dislodged_by:
            out.append(OrderResult(power, order, False, Reason.DISLODGED,
                                   f"by {units[dislodged_by[i]]}"))
            continue
        if t == _HOLD:
            out.append(OrderResult(power, order, True, Reason.HELD,
                                   "" if given is not None else "no order"))
        elif t == _MOVE:
            if moved[i]:
                out.append(OrderResult(power, order, True, Reason.MOVED))
            elif st.via[i] and not st.res[n + i]:
                out.append(OrderResult(power, order, False, Reason.NO_CONVOY))
            else:
                out.append(OrderResult(power, order, False, Reason.BOUNCED))
        elif t in (_SUPH, _SUPM):
            j = st.at[st.sup_prov[i]]
            valid = i in (st.hold_sups[j] if t == _SUPH else st.move_sups[j])
            if not valid:
                if t == _SUPH:
                    detail = f"{units[j]} moved instead of holding"
                else:
                    detail = f"{units[j]} was not ordered to {st.sup_dest[i]}"
                out.append(OrderResult(power, order, False, Reason.VOID, detail))
            elif _support_holds(st, i):
                out.append(OrderResult(power, order, True, Reason.SUPPORTED))
            else:
                out.append(OrderResult(power, order, False, Reason.CUT))
        else:  # convoy
            j = st.at[st.sup_prov[i]]
            if i not in st.convoyers[j]:
                out.append(OrderResult(power, order, False, Reason.VOID,
                                       f"{units[j]} was not ordered to {st.sup_dest[i]} by convoy"))
            elif i in dislodged_by or not st.res[n + j]:
                out.append(OrderResult(power, order, False, Reason.DISRUPTED))
            else:
                out.append(OrderResult(power, order, True, Reason.CONVOYED))
    return out + results


def after_movement(position: Position, new_units: Sequence[Unit], dislodged_by: Mapping[int, int],
                   origins: Mapping[int, str | None], standoffs: set[str]
                   ) -> tuple[Position, tuple[Unit, ...]]:
    """The position after a movement phase of ``position`` (the oracle's own reading of
    the retreats, DATC 4.A.5; the engine's is `dipsolve.core.kernel.retreats`): ``new_units`` on the board,
    the units of ``dislodged_by`` (index -> the unit that dislodged it) dislodged, each
    attacked from ``origins`` (None: by convoy), and the provinces of ``standoffs`` left
    empty by a bounce; with the units destroyed for want of a retreat."""
    m, units = position.map, position.units
    dislodged: list[Dislodged] = []
    destroyed: list[Unit] = []
    if dislodged_by:
        # retreat options (DATC 4.A.5: not to a standoff province, not to the attacker's
        # origin unless the attacker was convoyed)
        po = m.province_of
        occupied = {po[u.location] for u in new_units}
        for i in sorted(dislodged_by):
            u = units[i]
            origin = origins[i]
            moves = m.army_moves if u.kind == "A" else m.fleet_moves
            opts = tuple(sorted(l for l in moves[u.location]
                                if po[l] not in occupied and po[l] not in standoffs and po[l] != origin))
            if opts:
                dislodged.append(Dislodged(u, origin, opts))
            else:
                destroyed.append(u)
    return next_position(position, new_units, tuple(dislodged), tuple(sorted(standoffs))), tuple(destroyed)
