"""The adjudicator: ``adjudicate(position, orders) -> Outcome``.

A pipeline you can read top to bottom, one function a phase kind:

movement
    1. match each order to its unit (`dipsolve.core.rules.match_movement`): an order for a
       missing unit, another power's unit, or a unit ordered twice is set aside (DATC
       4.C, 4.D.3), an illegal order becomes a hold with its reason (DATC 4.E.1);
    2. decide which army moves go by convoy (DATC 3.0, 4.A.3: ``via convoy`` or a
       convoy order from a fleet of the army's own power; no fallback to land);
    3. resolve every move with Kruijswijk's guess algorithm ("The Math of
       Adjudication", DATC section 5): decisions are resolved recursively and cached;
       a cycle is tried both ways and, if it has two solutions or none, the backup rule
       applies: circular movement succeeds, and a convoy paradox is settled by the
       Szykman rule (the convoys in the cycle fail);
    4. execute: moves, dislodgements, retreat options (attacker origin, standoffs),
       destruction of units that cannot retreat, the next phase.
retreat
    the orders matched (`dipsolve.core.rules.match_retreats`); retreats to the same place all
    fail; unordered units disband.
adjustment
    builds in owned, empty home centers, first legal orders first (DATC 4.D.4–4.D.6,
    `dipsolve.core.rules.match_adjustments`); missing removals by civil disorder, 2023 rule (DATC 4.D.8): the unit farthest from
    the power's nearest owned center (any unit over land and sea) goes first, fleets
    before armies, then in alphabetical order of the province's English name.

Everything works on province strings and small int-indexed lists built once per call;
nothing is parsed and nothing deep-copied.  This is the reference, the definition: once
the compiled kernel is loaded in the process (`dipsolve.core.fast_kernel.warm`), a
movement phase is matched, resolved and executed by it (`dipsolve.core.fast_phase`, the
same answers, tested against this path), steps 1 to 4 but the retreat options and the
next position, which are made here from its answer; the per-order results are then
this path's, computed when first asked.
"""

from __future__ import annotations

import os
import sys
from typing import Callable, Iterable, Mapping, Sequence

from .graph import sea_route, steps
from .map import Map
from .orders import Disband, Hold, Order
from .position import UNITS, Dislodged, Phase, Position, Unit, unit
from .rules import REFUSED, T_CONVOY as _CONVOY, T_HOLD as _HOLD, T_MOVE as _MOVE
from .rules import T_SUPPORT_HOLD as _SUPH, T_SUPPORT_MOVE as _SUPM
from .rules import (Matching, OrderResult, Reason, match_adjustments, match_movement,
                    match_retreats, movement_results, movement_table)
from . import kernel as k
from .board import Board, run_movement

__all__ = ["REFUSED", "OrderResult", "Outcome", "Reason", "adjudicate"]

#: reasons for an order that was set aside without being tied to a unit's action
_SET_ASIDE = {Reason.NOT_YOUR_UNIT, Reason.NO_UNIT}


class Outcome:
    """The result of one phase: each order's result and the position that follows.

    ``results`` is built on first access: a search that only needs ``next`` never pays
    for the per-order reports.
    """

    __slots__ = ("position", "next", "destroyed", "_results", "_make")

    def __init__(self, position: Position, results: tuple[OrderResult, ...] | None, next: Position,
                 destroyed: tuple[Unit, ...] = (),
                 make: Callable[[], Iterable[OrderResult]] | None = None):
        self.position = position
        self.next = next
        #: units dislodged with no retreat open to them, disbanded at once (movement), or
        #: disbanded because they did not or could not retreat (retreat phase), or
        #: removed (adjustment phase)
        self.destroyed = destroyed
        self._results = results
        self._make = make

    @property
    def results(self) -> tuple[OrderResult, ...]:
        """One result per order given (and per unordered unit), in board order."""
        if self._results is None:
            assert self._make is not None
            self._results = tuple(self._make())
            self._make = None
        return self._results

    def result_for(self, location: str) -> OrderResult | None:
        """The result of the order given to the unit in ``location`` (a province or location)."""
        po = self.position.map.province_of
        prov = po.get(location, location)
        for r in self.results:
            loc = getattr(r.order, "location", None)
            if loc is not None and po.get(loc, loc) == prov and r.reason not in _SET_ASIDE:
                return r
        return None

    def __repr__(self) -> str:
        return f"<Outcome {self.position.phase.short} -> {self.next.phase.short}>"

    def _repr_svg_(self) -> str:
        """The orders and their results as a picture, for notebooks (`dipsolve.io.pictures.outcome_svg`)."""
        from ..io.pictures import outcome_svg
        return outcome_svg(self)


# -- public entry point ---------------------------------------------------------------

def adjudicate(position: Position, orders: Mapping[str, Iterable[Order]] | None = None) -> Outcome:
    """Resolve one phase of ``position`` under ``orders`` (power -> orders).

    Never raises for a bad order: illegal orders become holds (movement) or fail, each
    with its reason.  Units without orders hold (movement) or disband (retreat);
    missing removals are made by civil disorder (adjustment).
    """
    orders = orders or {}
    kind = position.phase.kind
    if kind == "movement":
        return _movement(position, orders)
    if kind == "retreat":
        return _retreat(position, orders)
    return _adjustment(position, orders)


# -- shared helpers ---------------------------------------------------------------------

_PHASES: dict[tuple[str, int, str], Phase] = {}


def _phase(season: str, year: int, kind: str) -> Phase:
    """Phases are values; the adjudicator reuses one object per phase."""
    key = (season, year, kind)
    p = _PHASES.get(key)
    if p is None:
        p = _PHASES[key] = Phase(season, year, kind)
    return p


def _needs_adjustment(game_map: Map, units: Iterable[Unit], owner: Mapping[str, str]) -> bool:
    unit_powers = [u.power for u in units]
    center_powers = list(owner.values())
    occupied = None
    for power in set(unit_powers) | set(center_powers):
        delta = center_powers.count(power) - unit_powers.count(power)
        if delta < 0:
            return True
        if delta > 0:
            if occupied is None:
                po = game_map.province_of
                occupied = {po[u.location] for u in units}
            if any(owner.get(h) == power and h not in occupied
                   for h in game_map.homes.get(power, ())):
                return True
    return False


def center_changes(position: Position, units: Iterable[Unit]) -> dict[str, str]:
    """The supply centers that change hands when ``units`` stand on the board at the
    end of a year: center -> its new owner."""
    owner = position.owner
    cset, po = position.map.centers, position.map.province_of
    changes: dict[str, str] = {}
    for u in units:
        p = po[u.location]
        if p in cset and owner.get(p) != u.power:
            changes[p] = u.power
    return changes


def _after_fall(position: Position, units: tuple[Unit, ...], year: int,
                fall: tuple[dict[str, str], bool] | None = None) -> Position:
    """The position after a Fall phase with no retreats pending (``units`` in canonical
    order): centers change hands, then a Winter adjustment if any power must build or
    remove, else next Spring.  ``fall``: the centers that change hands and whether a
    power adjusts, when known already (the compiled path's)."""
    m = position.map
    if fall is None:
        changes = center_changes(position, units)
        owner = {**position.owner, **changes} if changes else position.owner
        adjust = _needs_adjustment(m, units, owner)
    else:
        changes, adjust = fall
        owner = {**position.owner, **changes} if changes else {}
    centers = tuple(sorted(owner.items())) if changes else position.centers
    if adjust:
        phase = _phase("Winter", year, "adjustment")
    else:
        phase = _phase("Spring", year + 1, "movement")
    return Position._canonical(phase, units, centers, (), (), m)


# -- movement -----------------------------------------------------------------------------

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


#: the compiled path's `dipsolve.core.fast_phase.movement`, once its kernel is loaded in
#: the process (`dipsolve.core.fast_kernel.warm`); until then every phase takes the
#: reference path, which never waits for numba
_fast: list = []


def _fast_movement() -> Callable | None:
    """`dipsolve.core.fast_phase.movement` when the kernel is loaded in this process (it
    checks, each phase, that the compiled path is still switched on), else None.  The
    kernel's module is looked for among those imported, so that a process without numba
    never imports numpy or numba here."""
    if _fast:
        return _fast[0]
    if "dipsolve.core.fast_kernel" not in sys.modules:
        return None
    from . import fast_kernel, fast_phase
    if not fast_kernel.ready():
        return None
    _fast.append(fast_phase.movement)
    return _fast[0]


def _movement(position: Position, orders: Mapping[str, Iterable[Order]]) -> Outcome:
    """A movement phase, by the engine (`dipsolve.core.kernel`)."""
    if not os.environ.get("DIPSOLVE_REFERENCE"):
        return _engine_movement(position, orders)
    fast = _fast[0] if _fast else _fast_movement()
    if fast is not None:
        got = fast(position, orders)
        if got is not None:
            new_units, dislodged, destroyed, standoffs, fall, given = got
            return Outcome(position, None, next_position(position, new_units, dislodged, standoffs, fall),
                           destroyed, lambda: _reference_movement(position, given).results)
    return _reference_movement(position, orders)


def _engine_movement(position: Position, orders: Mapping[str, Iterable[Order]]) -> Outcome:
    """A movement phase through the engine: the next position at once, the per-order
    results from the same answer when first asked."""
    out, given, board = run_movement(position, orders)
    return movement_outcome(position, out, given, board, board_after(position, out, board))


def board_after(position: Position, out: list[int], board: Board) -> tuple[list[int], dict[int, int], list[Unit]]:
    """What the engine's answer ``out`` does to the board: the units that moved (their
    indices, in board order), the units dislodged (index -> the index of the unit that
    dislodged it), and the units on the board after movement, dislodged ones left out, in
    canonical order."""
    units = position.units
    locations = board.locations
    AF, A_BY, A_DLOC, A_RESULT, X_MOVED = k.AF, k.A_BY, k.A_DLOC, k.A_RESULT, k.X_MOVED
    new_units: list[Unit] = []
    dislodged_by: dict[int, int] = {}
    movers: list[int] = []
    for i, u in enumerate(units):
        a = i * AF
        by = out[a + A_BY]
        if by >= 0:
            dislodged_by[i] = by
        elif out[a + A_RESULT] == X_MOVED:
            key = (u.power, u.kind, locations[out[a + A_DLOC]])
            nu = UNITS.get(key)
            new_units.append(nu if nu is not None else unit(*key))
            movers.append(i)
        else:
            new_units.append(u)
    if movers:
        new_units.sort()
    return movers, dislodged_by, new_units


def movement_outcome(position: Position, out: list[int], given: list[tuple[str, Order]], board: Board,
                     after: tuple[list[int], dict[int, int], list[Unit]]) -> Outcome:
    """The `Outcome` of the engine's answer ``out`` (``after``: `board_after` of it)."""
    _, dislodged_by, new_units = after
    if dislodged_by:
        units = position.units
        po = position.map.province_of
        c = len(units) * k.AF + len(given)
        standoffs = {board.provinces[d] for d in out[c + 1:c + 1 + out[c]]}
        origins = {i: None if out[by * k.AF + k.A_VIA] else po[units[by].location]
                   for i, by in dislodged_by.items()}
        nxt, destroyed = after_movement(position, new_units, dislodged_by, origins, standoffs)
    else:
        nxt, destroyed = next_position(position, new_units, (), ()), ()
    return Outcome(position, None, nxt, destroyed,
                   lambda: movement_results(position, out, given, board))


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


def after_movement(position: Position, new_units: Sequence[Unit], dislodged_by: Mapping[int, int],
                   origins: Mapping[int, str | None], standoffs: set[str]
                   ) -> tuple[Position, tuple[Unit, ...]]:
    """The position after a movement phase of ``position``: ``new_units`` on the board,
    the units of ``dislodged_by`` (index -> the unit that dislodged it) dislodged, each
    attacked from ``origins`` (None: by convoy), and the provinces of ``standoffs`` left
    empty by a bounce; with the units destroyed for want of a retreat.  The reference
    path and the compiled one (`dipsolve.core.fast_resolver`) both end here."""
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


def next_position(position: Position, new_units: Sequence[Unit], dislodged: tuple[Dislodged, ...],
                  standoffs: tuple[str, ...], fall: tuple[dict[str, str], bool] | None = None
                  ) -> Position:
    """The position after a movement phase of ``position`` (`after_movement`): the
    retreats of ``dislodged`` if any, else the next phase (``fall``: see `_after_fall`)."""
    phase, m = position.phase, position.map
    if dislodged:
        return Position._canonical(_phase(phase.season, phase.year, "retreat"), tuple(new_units),
                                   position.centers, dislodged, standoffs, m)
    if phase.season == "Spring":
        return Position._canonical(_phase("Fall", phase.year, "movement"), tuple(new_units),
                                   position.centers, (), (), m)
    return _after_fall(position, tuple(new_units), phase.year, fall)


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



# -- retreats -------------------------------------------------------------------------------

def _retreat(position: Position, orders: Mapping[str, Iterable[Order]]) -> Outcome:
    m = position.map
    po = m.province_of
    results, chosen, targets = match_retreats(position, orders)
    count: dict[str, int] = {}
    for t in targets.values():
        count[po[t]] = count.get(po[t], 0) + 1

    new_units = list(position.units)
    destroyed: list[Unit] = []
    for d in position.dislodged:
        u = d.unit
        entry = chosen.get(u)
        if u in targets:
            t = targets[u]
            order = chosen[u][1]
            if count[po[t]] == 1:
                new_units.append(Unit(u.power, u.kind, t))
                results.append(OrderResult(u.power, order, True, Reason.RETREATED))
                continue
            results.append(OrderResult(u.power, order, False, Reason.RETREAT_BOUNCED,
                                       f"another unit retreated to {po[t]}"))
        elif entry is None:
            results.append(OrderResult(u.power, Disband(u.kind, u.location), True, Reason.DISBANDED,
                                       "no retreat ordered"))
        elif isinstance(entry[1], Disband):
            results.append(OrderResult(u.power, entry[1], True, Reason.DISBANDED))
        destroyed.append(u)
    phase = position.phase
    if phase.season == "Spring":
        nxt = Position.build(Phase("Fall", phase.year, "movement"), new_units, position.centers,
                             game_map=m)
    else:
        nxt = _after_fall(position, tuple(sorted(new_units)), phase.year)
    return Outcome(position, tuple(results), nxt, tuple(destroyed))


# -- adjustments ----------------------------------------------------------------------------

def _adjustment(position: Position, orders: Mapping[str, Iterable[Order]]) -> Outcome:
    m = position.map
    groups, built, removed = match_adjustments(position, orders)
    results: list[OrderResult] = []
    for power, verdicts, owed in groups:
        results += verdicts
        if owed > 0:
            for u in _civil_disorder(position, power, removed, owed):
                removed.add(u)
                results.append(OrderResult(power, Disband(u.kind, u.location), True,
                                           Reason.CIVIL_DISORDER, "too few removals ordered"))
    new_units = [u for u in position.units if u not in removed] + built
    phase = position.phase
    nxt = Position.build(Phase("Spring", phase.year + 1, "movement"), new_units, position.owner,
                         game_map=m)
    return Outcome(position, tuple(results), nxt, tuple(sorted(removed)))


def _civil_disorder(position: Position, power: str, removed: set[Unit], count: int) -> list[Unit]:
    """The units removed when a power orders too few removals (2023 rule, DATC 4.D.8):
    the farthest from the power's nearest owned center (steps over land and sea) first,
    fleets before armies, then by the province's English name."""
    m = position.map
    po = m.province_of
    dist = steps(m, position.centers_of(power))
    candidates = [u for u in position.units_of(power) if u not in removed]
    key = {u: (-dist.get(po[u.location], 1 << 20), 0 if u.kind == "F" else 1,
               m.provinces[po[u.location]].name)
           for u in candidates}
    return sorted(candidates, key=key.__getitem__)[:count]
