"""The adjudicator: ``adjudicate(position, orders) -> Outcome``.

A pipeline you can read top to bottom, one function a phase kind:

movement
    1. match each order to its unit; an order for a missing unit, another power's unit,
       or a unit ordered twice is set aside (DATC 4.C, 4.D.3), an illegal order becomes
       a hold with its reason (DATC 4.E.1);
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
    retreats to the same place all fail; unordered units disband.
adjustment
    builds in owned, empty home centers, first legal orders first (DATC 4.D.4–4.D.6);
    missing removals by civil disorder, 2023 rule (DATC 4.D.8): the unit farthest from
    the power's nearest owned center (any unit over land and sea) goes first, fleets
    before armies, then in alphabetical order of the province's English name.

Everything works on province strings and small int-indexed lists built once per call;
nothing is parsed and nothing deep-copied.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from itertools import compress
from enum import Enum
from typing import Iterable, Mapping, NamedTuple

from .map import Map
from .orders import (MOVEMENT_ORDERS, RETREAT_ORDERS, Build, Convoy, Disband, Hold, Move, Order,
                     Retreat, SupportHold, SupportMove, Waive)
from .position import _UNITS, Dislodged, Phase, Position, Unit, unit


class Reason(str, Enum):
    """Why an order succeeded or failed.  ``str`` values are stable for ``--json``."""

    # success
    MOVED = "moved"
    HELD = "held"
    SUPPORTED = "supported"        # the support was given (not cut)
    CONVOYED = "convoyed"          # the convoy took effect
    RETREATED = "retreated"
    DISBANDED = "disbanded"
    BUILT = "built"
    REMOVED = "removed"
    WAIVED = "waived"
    # failure
    BOUNCED = "bounced"            # the move was not strong enough
    DISLODGED = "dislodged"        # the unit was dislodged (whatever it was ordered)
    CUT = "cut"                    # the support was cut
    VOID = "void"                  # a support or convoy of an order that was not given
    NO_CONVOY = "no convoy"        # an army's convoy route was not there or was disrupted
    DISRUPTED = "disrupted"        # a convoying fleet was dislodged, or its convoy failed
    ILLEGAL = "illegal"            # not allowed by the rules; the unit held instead
    NOT_YOUR_UNIT = "not your unit"
    NO_UNIT = "no such unit"
    DUPLICATE = "ordered twice"    # a unit with two different orders holds (DATC 4.D.3)
    RETREAT_BOUNCED = "retreat bounced"
    CIVIL_DISORDER = "civil disorder"
    DESTROYED = "destroyed"        # dislodged with nowhere to retreat


#: reasons for an order that was set aside without being tied to a unit's action
_SET_ASIDE = {Reason.NOT_YOUR_UNIT, Reason.NO_UNIT}
#: reasons that mean an order broke a rule (the adjudicator refused it), rather than
#: failed in play
REFUSED = frozenset({Reason.ILLEGAL, Reason.NO_UNIT, Reason.NOT_YOUR_UNIT, Reason.DUPLICATE})


class OrderResult(NamedTuple):
    """One order's result: whether it succeeded, and why (``reason``, ``detail``); for
    an order that breaks a rule of play (illegal, no such unit, not your unit, ordered
    twice), the ``rule`` it breaks (one of `dipsolve.legality.RULES`)."""

    power: str
    order: Order
    success: bool
    reason: Reason
    detail: str = ""
    rule: str = ""

    def __str__(self) -> str:
        tail = f" ({self.detail})" if self.detail else ""
        return f"{self.power}: {self.order}: {self.reason.value}{tail}"


class Outcome:
    """The result of one phase: each order's result and the position that follows.

    ``results`` is built on first access: a search that only needs ``next`` never pays
    for the per-order reports.
    """

    __slots__ = ("position", "next", "destroyed", "_results", "_make")

    def __init__(self, position: Position, results: "tuple[OrderResult, ...] | None", next: Position,
                 destroyed: tuple[Unit, ...] = (), make=None):
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
        """The orders and their results as a picture, for notebooks (`dipsolve.pictures.outcome_svg`)."""
        from .pictures import outcome_svg
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


def _after_fall(position: Position, units: tuple[Unit, ...], year: int) -> Position:
    """The position after a Fall phase with no retreats pending (``units`` in canonical
    order): centers change hands, then a Winter adjustment if any power must build or
    remove, else next Spring."""
    m = position.map
    owner, centers = position.owner, position.centers
    cset, po = m.centers, m.province_of
    changed: dict[str, str] | None = None
    for u in units:
        p = po[u.location]
        if p in cset and owner.get(p) != u.power:
            if changed is None:
                changed = dict(owner)
            changed[p] = u.power
    if changed is not None:
        owner, centers = changed, tuple(sorted(changed.items()))
    if _needs_adjustment(m, units, owner):
        phase = _phase("Winter", year, "adjustment")
    else:
        phase = _phase("Spring", year + 1, "movement")
    return Position._canonical(phase, units, centers, (), (), m)


def _units_by_province(position: Position, units: Iterable[Unit]) -> dict[str, Unit]:
    po = position.map.province_of
    return {po[u.location]: u for u in units}


def _find_unit(position: Position, by_prov: Mapping[str, Unit], power: str, order: Order,
               results: list[OrderResult]) -> Unit | None:
    """The unit an order is for, or None after recording why it is not."""
    prov = position.map.province_of.get(order.location)  # type: ignore[union-attr]
    unit = by_prov.get(prov) if prov else None
    if unit is None:
        results.append(OrderResult(power, order, False, Reason.NO_UNIT,
                                   f"no unit in {order.location}", "unit"))  # type: ignore[union-attr]
        return None
    if unit.kind != order.kind:  # type: ignore[union-attr]
        name = "army" if order.kind == "A" else "fleet"  # type: ignore[union-attr]
        results.append(OrderResult(power, order, False, Reason.NO_UNIT,
                                   f"no {name} in {prov}: {unit} stands there", "unit"))
        return None
    if unit.power != power:
        results.append(OrderResult(power, order, False, Reason.NOT_YOUR_UNIT,
                                   f"{unit} belongs to {unit.power}", "owner"))
        return None
    return unit


# -- movement -----------------------------------------------------------------------------

_HOLD, _MOVE, _SUPH, _SUPM, _CONVOY = range(5)
_UNRESOLVED, _GUESSING, _RESOLVED = 0, 1, 2


def _static(position: Position) -> tuple:
    """What a movement adjudication needs of the position alone, built once per
    position (``Position.memo``): a search that tries many order sets in one position
    pays for it once."""
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


class _Movement:
    """The state of one movement adjudication: int-indexed lists over the units."""

    __slots__ = ("m", "n", "units", "prov", "power", "kind", "reach", "otype", "dest",
                 "dest_loc", "via", "sup_prov", "sup_dest", "orders", "why", "at",
                 "movers_to", "hold_sups", "move_sups", "convoyers", "res", "state", "deps",
                 "h2h", "seas", "moving", "occ")

    def __init__(self, position: Position, static: tuple):
        self.m = position.map
        self.units = position.units
        n = self.n = len(self.units)
        self.prov, self.power, self.kind, self.at, _, self.seas, _, self.reach = static
        self.otype = [_HOLD] * n
        self.dest: list[str | None] = [None] * n       # move: destination province
        self.dest_loc: list[str | None] = [None] * n   # move: destination location
        self.via = [False] * n                           # move goes by convoy
        self.sup_prov: list[str | None] = [None] * n   # support/convoy: the supported unit's province
        self.sup_dest: list[str | None] = [None] * n   # support-move/convoy: its destination
        self.orders: list[Order | None] = [None] * n    # the order as given (None: unordered)
        #: set aside: the reason, its detail and the rule broken (`dipsolve.legality.RULES`)
        self.why: list[tuple[Reason, str, str] | None] = [None] * n
        # decisions: 0..n-1 move of unit i; n..2n-1 convoy path of unit i
        self.res = [False] * (2 * n)
        self.state = [_UNRESOLVED] * (2 * n)
        self.deps: list[int] = []


def _sea_route(m: Map, src: str, dst: str, seas: set[str] | frozenset[str]) -> bool:
    """Whether an army in ``src`` can be convoyed to ``dst`` through fleets in ``seas``."""
    if not seas:
        return False
    nb = m.neighbours
    frontier = [s for s in nb[src] if s in seas]
    seen = set(frontier)
    while frontier:
        s = frontier.pop()
        if dst in nb[s]:
            return True
        for t in nb[s]:
            if t in seas and t not in seen:
                seen.add(t)
                frontier.append(t)
    return False


def _movement(position: Position, orders: Mapping[str, Iterable[Order]],
              check_only: bool = False) -> Outcome:
    """A movement phase, steps 1 to 4 of the module's pipeline.  With ``check_only`` it
    stops after step 1 and returns the state and the results so far instead: each
    order matched to its unit and checked, and why each one set aside was (all that
    `dipsolve.legality` asks)."""
    static = _static(position)
    st = _Movement(position, static)
    m, units, n = st.m, st.units, st.n
    po = m.province_of
    results: list[OrderResult] = []
    prov_of_unit, unit_power, unit_kind, at, at_loc, seas, moveset, _ = static

    # 1. match orders to units and check them (DATC 4.E.1): plain moves to an adjacent
    #    place and plain supports take a fast path, the rest `_classify`
    given = st.orders
    otype, dest, dest_loc, via = st.otype, st.dest, st.dest_loc, st.via
    sup_prov, sup_dest, reach = st.sup_prov, st.sup_dest, st.reach
    moving: list[int] = []
    others: list[int] = []
    extra: dict[int, list[Order]] | None = None
    for power, os in orders.items():
        for o in os:
            try:
                loc = o.location  # type: ignore[union-attr]
            except AttributeError:
                results.append(OrderResult(power, o, False, Reason.ILLEGAL,
                                           _not_for_phase("movement", o), "phase"))
                continue
            i = at_loc.get(loc)
            if i is None:
                prov = po.get(loc)
                i = at.get(prov) if prov is not None else None
            if i is None or unit_kind[i] != o.kind or unit_power[i] != power:  # type: ignore[union-attr]
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
            t = type(o)
            if t is Move:
                target = o.target  # type: ignore[union-attr]
                if not o.via_convoy and target in moveset[i]:  # type: ignore[union-attr]
                    otype[i], dest[i], dest_loc[i] = _MOVE, po[target], target
                    moving.append(i)
                    continue
            elif t is Hold:
                continue
            elif t is SupportHold:
                sprov = po.get(o.supported_location)  # type: ignore[union-attr]
                if sprov in reach[i] and sprov in at:
                    otype[i], sup_prov[i] = _SUPH, sprov
                    others.append(i)
                    continue
            elif t is SupportMove:
                target = o.target  # type: ignore[union-attr]
                tprov = po.get(target)
                if tprov in reach[i]:
                    j = at.get(po.get(o.supported_location))  # type: ignore[union-attr, arg-type]
                    if j is not None and j != i and tprov in reach[j]:
                        otype[i], sup_prov[i], sup_dest[i] = _SUPM, prov_of_unit[j], tprov
                        dest_loc[i] = target if target != tprov and unit_kind[j] == "F" else None
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
            g = [given[i]] + more
            otype[i], via[i] = _HOLD, False
            dest[i] = dest_loc[i] = sup_prov[i] = sup_dest[i] = None
            st.why[i] = (Reason.DUPLICATE, "two different orders: " + "; ".join(map(str, g)),
                         "one order")
            for e in more:
                results.append(OrderResult(unit_power[i], e, False, Reason.DUPLICATE,
                                           "the unit holds", "one order"))
        moving = [i for i in moving if i not in extra]
        others = [i for i in others if i not in extra]
    moving.sort()
    others.sort()
    if check_only:
        return st, results  # type: ignore[return-value]
    st.moving = moving

    # 3. convoy intent for adjacent army moves (DATC 3.0 4.A.3): a fleet of the army's
    #    own power ordered to convoy it; then index supports and convoys by their unit
    for i in others:
        if otype[i] == _CONVOY:
            a = at[sup_prov[i]]  # type: ignore[index]
            if otype[a] == _MOVE and dest[a] == sup_dest[i] and unit_power[a] == unit_power[i]:
                via[a] = True
    movers_to: dict[str, list[int]] = {}
    h2h = [-1] * n     # the unit a move meets head to head
    occ = [-1] * n     # the unit standing in a move's destination
    for i in moving:
        d = dest[i]
        lst = movers_to.get(d)  # type: ignore[arg-type]
        if lst is None:
            movers_to[d] = [i]  # type: ignore[index]
        else:
            lst.append(i)
        j = at.get(d)  # type: ignore[arg-type]
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
        j = at[sup_prov[i]]  # type: ignore[index]
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
                if want is None or want == dest_loc[j]:
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

    # 4. resolve every move; one alone into an empty province, not by convoy, succeeds
    res, state = st.res, st.state
    for i in moving:
        if occ[i] < 0 and not via[i] and len(movers_to[dest[i]]) == 1:  # type: ignore[index]
            res[i] = True
            state[i] = _RESOLVED
    for i in moving:
        if state[i] != _RESOLVED:
            _resolve(st, i)

    return _execute_movement(position, st, results)


def _classify(st: _Movement, i: int, o: Order, seas: frozenset[str]) -> None:
    """Check one order's legality (DATC 4.E.1) and record what it asks for."""
    m, unit, prov = st.m, st.units[i], st.prov[i]
    po = m.province_of
    t = type(o)

    def illegal(rule: str, why: str) -> None:
        st.why[i] = (Reason.ILLEGAL, why, rule)

    if t is SupportHold or t is SupportMove:
        sprov = po.get(o.supported_location)  # type: ignore[union-attr]
        if sprov is None:
            return illegal("location", f"unknown location {o.supported_location}")  # type: ignore[union-attr]
        if sprov == prov:
            return illegal("support", "a unit cannot support itself")
        supported = st.at.get(sprov)
        if t is SupportHold:
            if sprov not in st.reach[i]:
                return illegal("support",
                               f"{unit} cannot reach {sprov}, so cannot support a unit there")
            if supported is None:
                return illegal("support", f"no unit in {sprov} to support")
            st.otype[i], st.sup_prov[i] = _SUPH, sprov
            return
        target = o.target  # type: ignore[union-attr]
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
                and not m.is_sea(tprov) and _sea_route(m, sprov, tprov, seas)):
            return illegal("support", f"{st.units[supported]} cannot move to {tprov}")
        coast = target if target != tprov and st.kind[supported] == "F" else None
        st.otype[i], st.sup_prov[i], st.sup_dest[i], st.dest_loc[i] = _SUPM, sprov, tprov, coast
        return
    if t is Hold:
        return
    if t is Move or t is Retreat:
        if t is Retreat:
            return illegal("phase", _not_for_phase("movement", o))
        target = o.target  # type: ignore[union-attr]
        tprov = po.get(target)
        if tprov is None:
            return illegal("location", f"unknown destination {target}")
        if tprov == prov:
            return illegal("adjacency", "a unit cannot move to its own province")
        if unit.kind == "A":
            if m.is_sea(tprov):
                return illegal("terrain", f"an army cannot enter {m.provinces[tprov].name} (a sea)")
            adjacent = tprov in st.reach[i]
            if o.via_convoy or not adjacent:  # type: ignore[union-attr]
                if not (not m.is_land(prov) and not m.is_land(tprov)
                        and _sea_route(m, prov, tprov, seas)):
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
            reach = [l for l in m.fleet_locations[tprov] if l in moves]
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
    if t is Convoy:
        if unit.kind != "F" or not m.is_sea(prov):
            return illegal("convoy", "only a fleet at sea can convoy")
        aprov, tprov = po.get(o.convoyed_location), po.get(o.target)  # type: ignore[union-attr]
        if aprov is None or tprov is None:
            return illegal("location", "unknown location in convoy order")
        a = st.at.get(aprov)
        if a is None:
            return illegal("convoy", f"no unit in {aprov} to convoy")
        if st.kind[a] != "A" or o.convoyed_kind != "A":  # type: ignore[union-attr]
            return illegal("convoy", "only an army can be convoyed")
        if m.is_land(aprov) or m.is_land(tprov) or m.is_sea(tprov) or aprov == tprov:
            return illegal("convoy", f"no convoy from {aprov} to {tprov} is possible")
        # the fleet must be on some possible route (DATC 4.E.1, 6.G.19)
        if not _on_route(m, aprov, tprov, prov, seas):
            return illegal("convoy", f"{prov} is on no convoy route from {aprov} to {tprov}")
        st.otype[i], st.sup_prov[i], st.sup_dest[i] = _CONVOY, aprov, tprov
        return
    illegal("phase", _not_for_phase("movement", o))


def _on_route(m: Map, src: str, dst: str, sea: str, seas: frozenset[str]) -> bool:
    """Whether the fleet in ``sea`` is necessary for some convoy route from ``src`` to ``dst``.

    A route is a chain of fleet-held seas; the fleet is necessary for it when the chain
    has no shortcut (no two non-consecutive places on it are adjacent), so that leaving
    the fleet out breaks it.  DATC 4.E.1 calls a convoy order illegal when its fleet is
    necessary for no route (test case 6.G.19).
    """
    nb = m.neighbours
    if src not in nb or dst not in nb:
        return False

    def extend(path: list[str]) -> bool:
        last = path[-1]
        if dst in nb[last] and len(path) > 1:
            return sea in path
        for t in nb[last]:
            if t not in seas or t in path:
                continue
            # no shortcut: t touches only its predecessor on the path (and not dst early)
            if any(t in nb[p] for p in path[:-1]):
                continue
            path.append(t)
            if extend(path):
                return True
            path.pop()
        return False

    return extend([src])


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
    return _sea_route(st.m, st.prov[i], st.dest[i], {st.prov[f] for f in fleets})  # type: ignore[arg-type]


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
    movers = st.movers_to[st.dest[i]]  # type: ignore[index]
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

def _execute_movement(position: Position, st: _Movement, results: list[OrderResult]) -> Outcome:
    m, units, n = st.m, st.units, st.n
    res, at, dest, prov = st.res, st.at, st.dest, st.prov
    moved = [False] * n
    moved_units = [i for i in st.moving if res[i]]
    for i in moved_units:
        moved[i] = True
    dislodged_by: dict[int, int] = {}
    for mv in moved_units:
        i = at.get(dest[mv])  # type: ignore[arg-type]
        if i is not None and not moved[i]:
            dislodged_by[i] = mv

    # the board after movement
    new_units = list(units)
    dest_loc = st.dest_loc
    for i in moved_units:
        u = units[i]
        key = (u.power, u.kind, dest_loc[i])
        nu = _UNITS.get(key)
        new_units[i] = nu if nu is not None else unit(*key)  # type: ignore[arg-type]
    if dislodged_by:
        new_units = [u for i, u in enumerate(new_units) if i not in dislodged_by]
    if moved_units:
        new_units.sort()
    phase = position.phase
    if not dislodged_by:
        if phase.season == "Spring":
            nxt = Position._canonical(_phase("Fall", phase.year, "movement"), tuple(new_units),
                                      position.centers, (), (), m)
        else:
            nxt = _after_fall(position, tuple(new_units), phase.year)
        return Outcome(position, None, nxt, (),
                       lambda: _movement_results(st, results, moved, dislodged_by))

    # dislodged units: retreat options (DATC 4.A.5: not to a standoff province, not to
    # the attacker's origin unless the attacker was convoyed)
    po = m.province_of
    occupied = {po[u.location] for u in new_units}
    standoffs = set()
    for d, movers in st.movers_to.items():
        if d in occupied:
            continue
        for k in movers:
            if not moved[k] and _path_ok(st, k) and not (st.h2h[k] >= 0 and moved[st.h2h[k]]):
                standoffs.add(d)
                break
    dislodged: list[Dislodged] = []
    destroyed: list[Unit] = []
    for i, mv in sorted(dislodged_by.items()):
        u = units[i]
        origin = None if st.via[mv] else prov[mv]
        moves = m.army_moves if u.kind == "A" else m.fleet_moves
        opts = tuple(sorted(l for l in moves[u.location]
                            if po[l] not in occupied and po[l] not in standoffs and po[l] != origin))
        if opts:
            dislodged.append(Dislodged(u, origin, opts))
        else:
            destroyed.append(u)
    if dislodged:
        nxt = Position._canonical(_phase(phase.season, phase.year, "retreat"), tuple(new_units),
                                  position.centers, tuple(dislodged), tuple(sorted(standoffs)), m)
    elif phase.season == "Spring":
        nxt = Position._canonical(_phase("Fall", phase.year, "movement"), tuple(new_units),
                                  position.centers, (), (), m)
    else:
        nxt = _after_fall(position, tuple(new_units), phase.year)
    return Outcome(position, None, nxt, tuple(destroyed),
                   lambda: _movement_results(st, results, moved, dislodged_by))


def _movement_results(st: _Movement, results: list[OrderResult], moved: list[bool],
                      dislodged_by: dict[int, int]) -> list[OrderResult]:
    units, n = st.units, st.n
    out: list[OrderResult] = []
    for i in range(n):
        power, given = st.power[i], st.orders[i]
        order = given if given is not None else Hold(units[i].kind, units[i].location)
        t = st.otype[i]
        if st.why[i] is not None:
            reason, detail, rule = st.why[i]  # type: ignore[misc]
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
            j = st.at[st.sup_prov[i]]  # type: ignore[index]
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
            j = st.at[st.sup_prov[i]]  # type: ignore[index]
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
    results: list[OrderResult] = []
    by_prov = {po[d.unit.location]: d.unit for d in position.dislodged}
    info = {d.unit: d for d in position.dislodged}
    chosen: dict[Unit, tuple[str, Order]] = {}
    for power, os in orders.items():
        for o in os:
            if isinstance(o, Move):
                o = Retreat(o.kind, o.location, o.target)
            if not isinstance(o, RETREAT_ORDERS):
                results.append(OrderResult(power, o, False, Reason.ILLEGAL,
                                           _not_for_phase("retreat", o), "phase"))
                continue
            u = _find_unit(position, by_prov, power, o, results)
            if u is None:
                continue
            if u in chosen and chosen[u][1] != o:
                results.append(OrderResult(power, o, False, Reason.DUPLICATE,
                                           f"{u} already ordered: {chosen[u][1]}", "one order"))
                continue
            chosen[u] = (power, o)

    targets: dict[Unit, str] = {}
    for u, (power, o) in chosen.items():
        if isinstance(o, Retreat):
            t, why = _retreat_target(m, info[u], o.target)
            if t is not None:
                targets[u] = t
            else:
                results.append(OrderResult(power, o, False, Reason.ILLEGAL, why, "retreat"))
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
            if count[po[t]] == 1:
                new_units.append(Unit(u.power, u.kind, t))
                results.append(OrderResult(u.power, entry[1], True, Reason.RETREATED))  # type: ignore[index]
                continue
            results.append(OrderResult(u.power, entry[1], False, Reason.RETREAT_BOUNCED,  # type: ignore[index]
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


def _retreat_target(m: Map, d: Dislodged, target: str) -> tuple[str | None, str]:
    """Where a retreat order to ``target`` takes the dislodged unit (an army's coast
    dropped, a fleet's one reachable coast filled in), or None and why it may not go."""
    opts, po = d.retreats, m.province_of
    t = target
    if t not in opts and po.get(t) is not None:
        tprov = po[t]
        same = [l for l in opts if po[l] == tprov]
        if d.unit.kind == "A" or (t == tprov and len(same) == 1):
            t = same[0] if same else t
    if t in opts:
        return t, ""
    return None, f"{t} is not open to {d.unit} (open: {', '.join(opts) or 'nothing'})"


def _not_for_phase(kind: str, o: Order) -> str:
    """Why an order is not one for a phase of this kind."""
    if kind == "movement":
        if isinstance(o, Retreat):
            return "a retreat order in a movement phase"
        return f"{type(o).__name__} is not an order for a movement phase"
    if kind == "retreat":
        return "only retreats and disbands are ordered in a retreat phase"
    return "only builds, removals and waives in an adjustment phase"


# -- adjustments ----------------------------------------------------------------------------

def _adjustment(position: Position, orders: Mapping[str, Iterable[Order]]) -> Outcome:
    m = position.map
    po = m.province_of
    results: list[OrderResult] = []
    units = list(position.units)
    owner = position.owner
    by_prov = position.unit_in
    removed: set[Unit] = set()
    built: list[Unit] = []
    ordered_powers = set(orders)
    for power in position.powers() + sorted(set(orders) - set(position.powers())):
        delta = position.adjustment(power)
        used = 0
        for o in orders.get(power, ()):
            if isinstance(o, (Build, Waive)):
                if delta <= 0:
                    results.append(OrderResult(power, o, False, Reason.ILLEGAL,
                                               f"{power} has no builds ({delta:+d})", "builds left"))
                    continue
                if used >= delta:
                    results.append(OrderResult(power, o, False, Reason.ILLEGAL,
                                               f"{power} may build only {delta}", "builds left"))
                    continue
                if isinstance(o, Waive):
                    used += 1
                    results.append(OrderResult(power, o, True, Reason.WAIVED))
                    continue
                why = _build_problem(position, power, o, built)
                if why:
                    results.append(OrderResult(power, o, False, Reason.ILLEGAL, why, "build"))
                    continue
                loc = po[o.location] if o.kind == "A" else o.location
                built.append(Unit(power, o.kind, loc))
                used += 1
                results.append(OrderResult(power, o, True, Reason.BUILT))
            elif isinstance(o, Disband):
                if delta >= 0:
                    results.append(OrderResult(power, o, False, Reason.ILLEGAL,
                                               f"{power} has no removals to make ({delta:+d})",
                                               "removals"))
                    continue
                u = _find_unit(position, by_prov, power, o, results)
                if u is None:
                    continue
                if u in removed:
                    results.append(OrderResult(power, o, False, Reason.DUPLICATE,
                                               f"{u} already removed", "one order"))
                    continue
                if used >= -delta:
                    results.append(OrderResult(power, o, False, Reason.ILLEGAL,
                                               f"{power} must remove only {-delta}", "removals"))
                    continue
                removed.add(u)
                used += 1
                results.append(OrderResult(power, o, True, Reason.REMOVED))
            else:
                results.append(OrderResult(power, o, False, Reason.ILLEGAL,
                                           _not_for_phase("adjustment", o), "phase"))
        if delta < 0 and used < -delta:
            for u in _civil_disorder(position, power, removed, -delta - used):
                removed.add(u)
                results.append(OrderResult(power, Disband(u.kind, u.location), True,
                                           Reason.CIVIL_DISORDER, "too few removals ordered"))
        elif delta > 0 and used < delta and power not in ordered_powers:
            pass  # unused builds are simply waived
    new_units = [u for u in units if u not in removed] + built
    phase = position.phase
    nxt = Position.build(Phase("Spring", phase.year + 1, "movement"), new_units, owner, game_map=m)
    return Outcome(position, tuple(results), nxt, tuple(sorted(removed)))


def _build_problem(position: Position, power: str, o: Build, built: list[Unit]) -> str:
    m = position.map
    prov = m.province_of.get(o.location)
    if prov is None:
        return f"unknown location {o.location}"
    if prov not in m.homes.get(power, ()):
        return f"{prov} is not a home center of {power}"
    if position.owner.get(prov) != power:
        return f"{power} does not own {prov}"
    if prov in position.unit_in or any(m.province_of[b.location] == prov for b in built):
        return f"{prov} is occupied"
    if o.kind == "A":
        if m.is_sea(prov):
            return f"an army cannot be built at sea"
        return ""
    if m.is_land(prov):
        return f"a fleet cannot be built in {m.provinces[prov].name} (inland)"
    if m.provinces[prov].coasts and o.location == prov:
        return f"the coast must be given for a fleet built in {m.provinces[prov].name}"
    if o.location not in m.fleet_moves:
        return f"unknown coast {o.location}"
    return ""


def _civil_disorder(position: Position, power: str, removed: set[Unit], count: int) -> list[Unit]:
    """The units removed when a power orders too few removals (2023 rule, DATC 4.D.8)."""
    m = position.map
    po = m.province_of
    owned = set(position.centers_of(power))
    candidates = [u for u in position.units_of(power) if u not in removed]

    def distance(u: Unit) -> int:
        start = po[u.location]
        if not owned:
            return 1 << 20
        seen = {start}
        frontier = deque([(start, 0)])
        while frontier:
            p, dist = frontier.popleft()
            if p in owned:
                return dist
            for q in m.neighbours[p]:
                if q not in seen:
                    seen.add(q)
                    frontier.append((q, dist + 1))
        return 1 << 20

    key = {u: (-distance(u), 0 if u.kind == "F" else 1, m.provinces[po[u.location]].name)
           for u in candidates}
    return sorted(candidates, key=key.__getitem__)[:count]


# -- the adjudicator's reading of one order, for the models and the searches ----------------

#: the kinds of order a `Reading` reports
HOLD, MOVE, SUPPORT_HOLD, SUPPORT_MOVE, CONVOY = "hold", "move", "support hold", "support move", "convoy"
_KIND_NAMES = {_HOLD: HOLD, _MOVE: MOVE, _SUPH: SUPPORT_HOLD, _SUPM: SUPPORT_MOVE, _CONVOY: CONVOY}


@dataclass(frozen=True, slots=True)
class Reading:
    """What one order asks for, as the adjudicator reads it (DATC 4.E.1: an illegal
    order is a hold, ``illegal`` says why)."""

    order: Order
    kind: str                    # HOLD, MOVE, SUPPORT_HOLD, SUPPORT_MOVE or CONVOY
    dest: str | None = None      # move: the destination province
    dest_loc: str | None = None  # move: the destination location (a coast for a fleet)
    via: bool = False            # move: by convoy whatever fleets are ordered (VIA, or not adjacent)
    supported: str | None = None  # support or convoy: the province of the unit helped
    target: str | None = None    # support of a move, convoy: its destination province
    coast: str | None = None     # support of a fleet's move: the coast it names
    illegal: str | None = None


def read_order(position: Position, unit: Unit, order: Order) -> Reading:
    """The adjudicator's reading of ``order`` given to ``unit`` (a unit of ``position``,
    in a movement phase), by the very check step 1 of the movement pipeline applies, so
    that legality, coasts and convoy routes mean the same to a model of the rules as to
    the adjudicator.  ``ValueError`` when the order is not for that unit."""
    st = position.memo.get("adjudicator.reader")
    if st is None:
        st = position.memo["adjudicator.reader"] = _Movement(position, _static(position))
    po = position.map.province_of
    loc = getattr(order, "location", None)
    if getattr(order, "kind", None) != unit.kind or loc is None or po.get(loc) != po[unit.location]:
        raise ValueError(f"{order} is not an order for {unit} ({unit.power})")
    i = st.at[po[unit.location]]
    try:
        _classify(st, i, order, st.seas)
        why = st.why[i]
        return Reading(order, _KIND_NAMES[st.otype[i]], st.dest[i],
                       st.dest_loc[i] if st.otype[i] == _MOVE else None, st.via[i],
                       st.sup_prov[i], st.sup_dest[i],
                       st.dest_loc[i] if st.otype[i] == _SUPM else None,
                       why[1] if why else None)
    finally:
        st.otype[i], st.via[i], st.why[i] = _HOLD, False, None
        st.dest[i] = st.dest_loc[i] = st.sup_prov[i] = st.sup_dest[i] = None


def sea_route(game_map: Map, src: str, dst: str, seas: set[str] | frozenset[str]) -> bool:
    """Whether an army in province ``src`` can be convoyed to ``dst`` through fleets
    standing in the sea provinces ``seas`` (the adjudicator's own test)."""
    return _sea_route(game_map, src, dst, seas)


def on_route(game_map: Map, src: str, dst: str, sea: str, seas: frozenset[str]) -> bool:
    """Whether the fleet in ``sea`` is necessary for some convoy route from ``src`` to
    ``dst`` through ``seas`` (DATC 4.E.1: otherwise its convoy order is illegal; the
    adjudicator's own test)."""
    return _on_route(game_map, src, dst, sea, seas)
