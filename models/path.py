"""The exact fastest path to N supply centers for a power alone on the board (CP-SAT).

The question of Stormont & Allan (seed ``001_…``): how soon can a power own N centers
(16 as in the paper, 18 to win) if nobody opposes it?  The paper's searches
(`dipsolve.path`) flood the map graph; this module answers with real units, exactly,
and proves the answer.  Two framings, side by side:

``full`` (the real rules)
    One unit per province; each movement phase a unit moves one step (armies on land
    and coasts, fleets on seas and coasts, coasts respected) or holds; two units may
    not swap places unless one is convoyed; an army may be convoyed across a chain of
    the power's own fleets at sea, each fleet holding and carrying one army; a supply
    center changes hands only when the power occupies it at the end of a Fall phase;
    in Winter the power builds in its owned, unoccupied home centers (an army, or a
    fleet on a coast) up to its center count.  Objective: the fewest game years, then
    the fewest movement phases (here the same order: centers change hands only in Fall).
``paper`` (the seed's framing, §2.1: a center is controlled by "having been the last
player to pass through that province", the timing of ownership "ignored")
    A center counts as soon as one of the power's starting units stands on it after a
    movement phase; no builds, no convoys (the paper's searches move the starting units
    only); one unit per province and the moves above.  Objective: the fewest movement
    phases.

The full rules are a 0/1 flow over a time-expanded map (`_Model`).  Units of one type
are interchangeable, so a stage is the set of occupied (type, location) pairs and a
movement phase is a flow from the occupied places of one stage to those of the next (a
hold is an arc to the same place); a build adds flow.  Convoys are a second flow through
the seas whose fleets hold: entered from an army's coastal province, passed from sea to
sea, left into another coastal province, at most one army through each fleet.
Ownership after each Fall is the ownership before or an occupied center.  The paper's
framing follows each starting unit on its own path instead (`_PaperModel`).  Only places
a unit can reach by then are variables.

The solve tries horizons (numbers of movement phases) upward from a lower bound that
explains itself (`lower_bound`): every shorter horizon is either ruled out by that
argument or proven infeasible by CP-SAT, so the first feasible horizon is optimal.
Under a time limit the search is anytime: a horizon CP-SAT cannot decide in half the
time left is passed over, a plan at a later horizon is kept (``feasible``), and the time
that remains goes back to the horizons passed over.  Every plan is replayed through
`dipsolve.adjudicator.adjudicate`, with the power alone on the board, before it is
returned: each order must succeed and the replay must reach N centers in the phase the
plan claims (`replay`).
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Sequence

from ortools.sat.python import cp_model

from dipsolve.adjudicator import Outcome, Reason, adjudicate
from dipsolve.errors import DipsolveInternalError
from dipsolve.map import Map
from dipsolve.orders import Build, Convoy, Disband, Hold, Move, Order
from dipsolve.position import Phase, Position, Unit

RULES = ("full", "paper")
OPTIMAL, FEASIBLE, INFEASIBLE, TIMED_OUT = "optimal", "feasible", "infeasible", "timed out"

Place = tuple[str, str]          # (kind, location): ("A", "PAR"), ("F", "STP/SC")


# -- the answer ------------------------------------------------------------------------------

@dataclass(frozen=True)
class PlanPhase:
    """The power's orders for one phase of the plan, and where the replay stood after it."""

    phase: Phase
    orders: tuple[Order, ...]
    #: centers after this phase in the replay: owned (full rules) or passed through (paper)
    centers: int
    units: int


@dataclass(frozen=True)
class LowerBound:
    """No plan reaches the target before ``phase``; ``lines`` say why."""

    moves: int | None            # movement phases; None when no horizon ever reaches it
    phase: str | None            # "F1903M": the earliest phase the argument allows
    years: int | None
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Attempt:
    """One CP-SAT solve: can the target be reached after ``moves`` movement phases?"""

    moves: int
    phase: str                   # the last phase of the horizon, "F1903M"
    status: str                  # CP-SAT's status name: OPTIMAL, FEASIBLE, INFEASIBLE, UNKNOWN
    seconds: float
    variables: int

    def line(self, target: int) -> str:
        if self.status in ("OPTIMAL", "FEASIBLE"):
            what = f"CP-SAT found a plan reaching {target}"
        elif self.status == "INFEASIBLE":
            what = f"CP-SAT proved that no plan reaches {target} by then"
        else:
            what = "CP-SAT ran out of time (undecided)"
        return f"{self.phase}: {what} ({self.variables:,} variables, {self.seconds:.2f} s)"


@dataclass(frozen=True)
class PathSolution:
    power: str
    target: int
    rules: str
    start: Phase
    #: "optimal" (proven shortest), "feasible" (a plan, not proven shortest), "infeasible"
    #: (no plan can reach the target), "timed out" (time ran out before any plan)
    status: str
    moves: int | None            # movement phases of the plan
    years: int | None            # game years of the plan (the first movement year counts as one)
    reached: str | None          # the phase after which the replay has the target: "F1903M"
    bound_moves: int | None      # proven: no plan has fewer movement phases
    bound_years: int | None
    bound_phase: str | None
    lower_bound: LowerBound
    plan: tuple[PlanPhase, ...]
    #: the adjudicator's outcome of each phase of the replay (for pictures)
    outcomes: tuple[Outcome, ...] = field(repr=False)
    attempts: tuple[Attempt, ...]
    seconds: float

    @property
    def optimal(self) -> bool:
        return self.status == OPTIMAL

    def explanation(self) -> list[str]:
        """Why no plan is shorter: the lower bound's argument, then each CP-SAT attempt."""
        return list(self.lower_bound.lines) + [a.line(self.target) for a in self.attempts]


class ReplayError(DipsolveInternalError):
    """A plan that the adjudicator does not play out as planned (a bug, never user error)."""


# -- phases ----------------------------------------------------------------------------------

def phases_from(start: Phase) -> Iterator[Phase]:
    """The phases a power alone on the board goes through: Spring and Fall movement,
    Winter adjustment (no retreats: nobody dislodges anybody)."""
    if start.kind == "retreat":
        raise ValueError("a path starts from a movement or adjustment phase, not a retreat phase")
    season, year = start.season, start.year
    while True:
        if season == "Winter":
            yield Phase("Winter", year, "adjustment")
            season, year = "Spring", year + 1
        else:
            yield Phase(season, year, "movement")
            season = "Fall" if season == "Spring" else "Winter"


def schedule(start: Phase, moves: int) -> list[Phase]:
    """The phases up to and including the ``moves``-th movement phase."""
    out: list[Phase] = []
    n = 0
    for ph in phases_from(start):
        if n == moves:
            return out
        out.append(ph)
        n += ph.kind == "movement"
    raise AssertionError("unreachable")  # pragma: no cover  (phases_from never ends)


def years_between(start: Phase, last: Phase) -> int:
    """Game years from ``start`` to ``last`` inclusive, counted from the first movement
    phase (a plan from Winter 1901 that ends in Fall 1902 takes one year)."""
    first = start.year + 1 if start.kind == "adjustment" else start.year
    return last.year - first + 1


# -- the problem -----------------------------------------------------------------------------

@dataclass
class _Problem:
    """Everything the model and the bound need, read once from the position."""

    m: Map
    power: str
    target: int
    rules: str
    start: Phase
    units: tuple[Unit, ...]
    owned: frozenset[str]                   # centers the power owns at the start
    homes: tuple[str, ...]
    coastal: frozenset[str] = field(init=False)
    seas: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        t = self.m.terrain
        self.coastal = frozenset(p for p, v in t.items() if v == "coast")
        self.seas = frozenset(p for p, v in t.items() if v == "sea")

    @property
    def full(self) -> bool:
        return self.rules == "full"

    def counted_at_start(self) -> frozenset[str]:
        """Centers that count at the start: owned (full rules); owned or occupied (paper)."""
        if self.full:
            return self.owned
        po = self.m.province_of
        return self.owned | {po[u.location] for u in self.units if po[u.location] in self.m.centers}

    def can_reach_goal(self, phase: Phase) -> bool:
        """Whether the count can first reach the target in this phase: after a Fall
        (full rules: ownership changes only then) or any movement phase (paper)."""
        return phase.kind == "movement" and (not self.full or phase.season == "Fall")

    def moves_of(self, kind: str, loc: str) -> frozenset[str]:
        return (self.m.army_moves if kind == "A" else self.m.fleet_moves).get(loc, frozenset())

    def build_places(self, home: str) -> list[Place]:
        """Where a unit may be built in this home center: an army (not at sea) and a
        fleet on each coast (not inland)."""
        out: list[Place] = []
        if home in self.m.army_moves:
            out.append(("A", home))
        out += [("F", loc) for loc in self.m.fleet_locations.get(home, ())]
        return out

    def convoy_targets(self, army_at: Iterable[str], fleets_at_sea: set[str]) -> set[str]:
        """Coastal provinces an army in any of ``army_at`` could be convoyed to through
        fleets in ``fleets_at_sea`` (an over-estimate used to prune variables)."""
        nb = self.m.neighbours
        starts = [a for a in army_at if a in self.coastal]
        frontier = deque({s for a in starts for s in nb[a] if s in fleets_at_sea})
        seen = set(frontier)
        out: set[str] = set()
        while frontier:
            s = frontier.popleft()
            out |= {p for p in nb[s] if p in self.coastal}
            for t in nb[s] & fleets_at_sea:
                if t not in seen:
                    seen.add(t)
                    frontier.append(t)
        return out

    def buildable(self, cur: Iterable[Place]) -> list[str]:
        """Home centers the power could own in a Winter when units could have stood on
        ``cur`` by then: owned at the start, or within reach (to be taken in a Fall)."""
        there = {self.m.province_of[loc] for _, loc in cur}
        return [h for h in self.homes if h in self.owned or h in there]

    def after(self, cur: frozenset[Place], phase: Phase) -> frozenset[Place]:
        """The places a unit may stand on after ``phase`` when ``cur`` were possible before
        (an over-estimate: units may split, every home it could own may build)."""
        if phase.kind != "movement":
            if not self.full:
                return cur
            return cur | {pl for h in self.buildable(cur) for pl in self.build_places(h)}
        po = self.m.province_of
        nxt = set(cur)
        for k, loc in cur:
            nxt |= {(k, b) for b in self.moves_of(k, loc)}
        if self.full:
            fleets = {loc for k, loc in cur if k == "F" and po[loc] in self.seas}
            armies = [loc for k, loc in cur if k == "A"]
            nxt |= {("A", b) for b in self.convoy_targets(armies, fleets)}
        return frozenset(nxt)

    def reach(self, phases: Sequence[Phase]) -> list[frozenset[Place]]:
        """The places a unit may stand on after each phase (index 0 is the start): the
        model's variables."""
        out = [frozenset((u.kind, u.location) for u in self.units)]
        for ph in phases:
            out.append(self.after(out[-1], ph))
        return out


def _problem(position: Position, power: str, target: int, rules: str) -> _Problem:
    if rules not in RULES:
        raise ValueError(f"unknown rules {rules!r} (expected one of {', '.join(RULES)})")
    if position.phase.kind == "retreat":
        raise ValueError("a path starts from a movement or adjustment phase, not a retreat phase")
    m = position.map
    return _Problem(m=m, power=power, target=target, rules=rules, start=position.phase,
                    units=tuple(position.units_of(power)),
                    owned=frozenset(position.centers_of(power)),
                    homes=tuple(sorted(m.homes.get(power, ()))))


# -- the lower bound that explains itself ----------------------------------------------------

def lower_bound(position: Position, power: str, target: int, rules: str = "full") -> LowerBound:
    """The earliest phase no simple counting argument rules out, with the argument.

    Two caps on the centers a power can count after each phase that can count: every
    center it does not yet count must be within reach of one of its units (or, under
    the full rules, of a unit it could have built by then), and each unit adds at most
    one new center per counting phase (each Fall under the full rules: a unit stands on
    one center at the end of it; each movement phase under the paper's).  Under the
    full rules a Winter adds at most one unit per home center and no more than the
    centers exceed the units.  When neither cap grows any more and the target is still
    out of reach, no horizon reaches it.
    """
    pb = _problem(position, power, target, rules)
    m = pb.m
    po = m.province_of
    held = set(pb.counted_at_start())
    count, units = len(held), len(pb.units)
    start = pb.start
    if count >= target:
        return LowerBound(0, start.short, 0, (f"{power} already has {count} centers at {start.short}",))
    what = "owns" if pb.full else "owns or occupies"
    lines = [f"{start.short}: {power} {what} {count} centers and has {units} units"]
    if pb.full:
        lines.append("centers change hands only at the end of a Fall: no Spring can complete the count")
    n_moves = 0
    reach = pb.reach([])[0]
    last: tuple[frozenset[Place], int, int] | None = None
    for ph in phases_from(start):
        if ph.kind == "adjustment":
            if pb.full:
                homes = len(pb.buildable(reach))
                builds = max(0, min(homes, count - units))
                if builds:
                    lines.append(f"{ph.short}: at most {units + builds} units ({units} + at most {builds} "
                                 f"builds: one per home center it can own, no more than centers exceed units)")
                units += builds
            reach = pb.after(reach, ph)
            continue
        reach = pb.after(reach, ph)
        n_moves += 1
        if not pb.can_reach_goal(ph):
            continue
        within = held | {po[loc] for _, loc in reach if po[loc] in m.centers}
        by_reach, by_units = len(within), count + units
        cap = min(by_reach, by_units)
        why = (f"only {by_reach} centers are within reach by then" if by_reach <= by_units
               else f"{count} + at most one new center for each of its {units} units")
        lines.append(f"{ph.short}: at most {cap} centers ({why})")
        if cap >= target:
            lines.append(f"{ph.short} is the first phase this argument allows for {target} centers")
            return LowerBound(n_moves, ph.short, years_between(start, ph), tuple(lines))
        state = (reach, cap, units)
        if state == last:
            break
        last, count = state, cap
    lines.append(f"neither cap grows any more: {target} centers are out of reach")
    return LowerBound(None, None, None, tuple(lines))


# -- the CP-SAT model ------------------------------------------------------------------------

def _is_one(v: object) -> bool:
    return isinstance(v, int) and v == 1


def _is_zero(v: object) -> bool:
    return isinstance(v, int) and v == 0


class _Model:
    """The full rules over one horizon (its last phase a Fall): the aggregated flow, in
    which units of one type are interchangeable and builds simply add flow."""

    def __init__(self, pb: _Problem, phases: list[Phase]):
        self.pb, self.phases = pb, phases
        self.model = cp_model.CpModel()
        m = pb.m
        reach = pb.reach(phases)
        # occ[s][place]: a unit stands there after s phases (stage 0: the start, constants)
        self.occ: list[dict[Place, object]] = [{(u.kind, u.location): 1 for u in pb.units}]
        self.arcs: list[dict[tuple[str, str, str], cp_model.IntVar]] = []
        self.convoy: list[dict[tuple[str, str, str], cp_model.IntVar]] = []
        self.builds: list[dict[Place, cp_model.IntVar]] = []
        self.removals: list[dict[Place, cp_model.IntVar]] = []
        self.own: dict[str, object] = {c: int(c in pb.owned) for c in m.centers}
        for s, ph in enumerate(phases, 1):
            arcs: dict[tuple[str, str, str], cp_model.IntVar] = {}
            conv: dict[tuple[str, str, str], cp_model.IntVar] = {}
            blds: dict[Place, cp_model.IntVar] = {}
            rems: dict[Place, cp_model.IntVar] = {}
            if ph.kind == "movement":
                self.occ.append(self._movement(s, ph, reach[s], arcs, conv))
            else:
                self.occ.append(self._winter(s, reach[s], blds, rems))
            self.arcs.append(arcs)
            self.convoy.append(conv)
            self.builds.append(blds)
            self.removals.append(rems)
        self._goal()

    # -- one unit per province ---------------------------------------------------------------
    def _stage(self, s: int, places: Iterable[Place]) -> dict[Place, object]:
        md, po = self.model, self.pb.m.province_of
        occ: dict[Place, object] = {pl: md.new_bool_var(f"o{s}_{pl[0]}{pl[1]}") for pl in places}
        by_prov: dict[str, list[object]] = {}
        for pl, v in occ.items():
            by_prov.setdefault(po[pl[1]], []).append(v)
        for vs in by_prov.values():
            if len(vs) > 1:
                md.add_at_most_one(vs)
        return occ

    # -- movement ----------------------------------------------------------------------------
    def _movement(self, s: int, ph: Phase, places: frozenset[Place],
                  arcs: dict, conv: dict) -> dict[Place, object]:
        pb, md = self.pb, self.model
        po, centers = pb.m.province_of, pb.m.centers
        before = self.occ[-1]
        occ = self._stage(s, places)
        outflow: dict[Place, list[object]] = {pl: [] for pl in before}
        inflow: dict[Place, list[object]] = {pl: [] for pl in occ}
        for (k, a) in before:
            for b in (a, *sorted(pb.moves_of(k, a))):
                x = md.new_bool_var(f"x{s}_{k}{a}_{b}")
                arcs[(k, a, b)] = x
                outflow[(k, a)].append(x)
                inflow[(k, b)].append(x)
        self._convoys(s, before, arcs, conv, outflow, inflow)
        for pl, terms in outflow.items():
            md.add(sum(terms) == before[pl])
        for pl, terms in inflow.items():
            md.add(occ[pl] == sum(terms))
        _no_swaps(md, po, ((a, b, x) for (_, a, b), x in arcs.items()))
        # centers: owned after a Fall
        here: dict[str, list[object]] = {}
        for pl, v in occ.items():
            if po[pl[1]] in centers:
                here.setdefault(po[pl[1]], []).append(v)
        if ph.season == "Fall":
            for c, vs in here.items():
                if _is_one(self.own[c]):
                    continue
                o = md.new_bool_var(f"own{s}_{c}")
                md.add(o <= self.own[c] + sum(vs))
                for v in vs:
                    md.add_implication(v, o)
                if not _is_zero(self.own[c]):
                    md.add_implication(self.own[c], o)
                self.own[c] = o
        return occ

    def _convoys(self, s: int, before: dict[Place, object], arcs: dict, conv: dict,
                 outflow: dict[Place, list[object]], inflow: dict[Place, list[object]]) -> None:
        """Armies convoyed through the seas whose fleets hold: an army enters
        ``("in", army, sea)``, passes ``("via", sea, sea2)``, leaves ``("out", sea, coast)``;
        at most one army through each fleet, and only through a fleet that holds."""
        pb, md = self.pb, self.model
        nb = pb.m.neighbours
        seas = sorted(loc for (k, loc) in before if k == "F" and loc in pb.seas)
        armies = [a for (k, a) in before if k == "A" and a in pb.coastal]
        if not seas or not armies:
            return
        sea_set = set(seas)
        into: dict[str, list[object]] = {t: [] for t in seas}
        out_of: dict[str, list[object]] = {t: [] for t in seas}
        for a in armies:
            for t in sorted(nb[a] & sea_set):
                v = md.new_bool_var(f"ci{s}_{a}_{t}")
                conv[("in", a, t)] = v
                outflow[("A", a)].append(v)
                into[t].append(v)
        if not any(into.values()):
            return
        for t in seas:
            for t2 in sorted(nb[t] & sea_set):
                v = md.new_bool_var(f"cv{s}_{t}_{t2}")
                conv[("via", t, t2)] = v
                out_of[t].append(v)
                into[t2].append(v)
            for b in sorted(nb[t] & pb.coastal):
                if ("A", b) in inflow:
                    v = md.new_bool_var(f"co{s}_{t}_{b}")
                    conv[("out", t, b)] = v
                    out_of[t].append(v)
                    inflow[("A", b)].append(v)
        for t in seas:
            md.add(sum(into[t]) == sum(out_of[t]))
            md.add(sum(into[t]) <= arcs[("F", t, t)])
        for (kind, t, t2), v in list(conv.items()):
            if kind == "via" and t < t2:
                md.add(v + conv[("via", t2, t)] <= 1)

    # -- adjustments (full rules) ------------------------------------------------------------
    def _winter(self, s: int, places: frozenset[Place], blds: dict, rems: dict) -> dict[Place, object]:
        """Builds in owned, unoccupied home centers, up to centers minus units; removals
        when the power has more units than centers (only from a position read from a file:
        centers never fall when the power is alone)."""
        pb, md = self.pb, self.model
        po = pb.m.province_of
        before = self.occ[-1]
        occ = self._stage(s, places)
        inflow: dict[Place, list[object]] = {pl: [] for pl in occ}
        for pl, v in before.items():
            inflow[pl].append(v)
        units_now = sum(before.values())
        centers_now = sum(self.own.values())
        for h in pb.homes:
            if _is_zero(self.own[h]):
                continue
            here = [v for pl, v in before.items() if po[pl[1]] == h]
            bs = []
            for pl in pb.build_places(h):
                b = md.new_bool_var(f"b{s}_{pl[0]}{pl[1]}")
                blds[pl] = b
                inflow[pl].append(b)
                if not _is_one(self.own[h]):
                    md.add_implication(b, self.own[h])
                bs.append(b)
            md.add(sum(here) + sum(bs) <= 1)
        if s == self._first_winter() and len(pb.units) > len(pb.owned):
            # the first Winter may owe removals: exactly units - centers of them
            short = md.new_bool_var(f"short{s}")
            for pl, v in before.items():
                r = md.new_bool_var(f"r{s}_{pl[0]}{pl[1]}")
                rems[pl] = r
                md.add(r <= v)
                inflow[pl].append(-r)
            md.add(centers_now - units_now <= -1).only_enforce_if(short)
            md.add(sum(rems.values()) == units_now - centers_now).only_enforce_if(short)
            md.add(sum(blds.values()) == 0).only_enforce_if(short)
            md.add(centers_now - units_now >= 0).only_enforce_if(short.Not())
            md.add(sum(rems.values()) == 0).only_enforce_if(short.Not())
            md.add(sum(blds.values()) <= centers_now - units_now).only_enforce_if(short.Not())
        else:
            md.add(sum(blds.values()) <= centers_now - units_now)
        for pl, terms in inflow.items():
            md.add(occ[pl] == sum(terms))
        return occ

    def _first_winter(self) -> int:
        return next(s for s, ph in enumerate(self.phases, 1) if ph.kind == "adjustment")

    # -- the goal ----------------------------------------------------------------------------
    def _goal(self) -> None:
        self.model.add(sum(self.own.values()) >= self.pb.target)

    def variables(self) -> int:
        return len(self.model.proto.variables)

    # -- reading a solution ------------------------------------------------------------------
    def plan(self, solver: cp_model.CpSolver) -> list[tuple[Phase, tuple[Order, ...]]]:
        """The orders of each phase in the solution, in board order."""
        po = self.pb.m.province_of
        out: list[tuple[Phase, tuple[Order, ...]]] = []
        for s, ph in enumerate(self.phases):
            orders: list[Order] = []
            if ph.kind == "movement":
                orders = self._movement_orders(solver, s)
            else:
                orders += [Disband(k, loc) for (k, loc), r in sorted(self.removals[s].items())
                           if solver.boolean_value(r)]
                orders += [Build(k, loc) for (k, loc), b in sorted(self.builds[s].items())
                           if solver.boolean_value(b)]
            orders.sort(key=lambda o: (po[o.location], str(o)))   # type: ignore[union-attr]
            out.append((ph, tuple(orders)))
        return out

    def _movement_orders(self, solver: cp_model.CpSolver, s: int) -> list[Order]:
        used = {key for key, v in self.convoy[s].items() if solver.boolean_value(v)}
        nxt = {t: t2 for (kind, t, t2) in used if kind == "via"}
        leave = {t: b for (kind, t, b) in used if kind == "out"}
        convoying: dict[str, Convoy] = {}
        convoyed: list[Order] = []
        for (kind, a, t) in sorted(used):
            if kind != "in":
                continue
            chain = [t]
            while chain[-1] not in leave:
                chain.append(nxt[chain[-1]])
            b = leave[chain[-1]]
            if b == a:                      # carried out and back again: the army holds
                convoyed.append(Hold("A", a))
                continue
            convoyed.append(Move("A", a, b, via_convoy=True))
            for sea in _shortest_route(self.pb.m, a, b, set(chain)):
                convoying[sea] = Convoy(sea, "A", a, b)
        orders: list[Order] = []
        for (k, a, b), x in sorted(self.arcs[s].items()):
            if not solver.boolean_value(x):
                continue
            if a != b:
                orders.append(Move(k, a, b))
            else:
                orders.append(convoying.get(a) or Hold(k, a))
        return orders + convoyed


def _no_swaps(md: cp_model.CpModel, po: dict[str, str],
              moves: Iterable[tuple[str, str, cp_model.IntVar]]) -> None:
    """Two units may not swap places by land or along a coast (a head-to-head bounce):
    at most one of the moves between two provinces, either way."""
    direct: dict[frozenset[str], list[cp_model.IntVar]] = {}
    for a, b, x in moves:
        if a != b:
            direct.setdefault(frozenset((po[a], po[b])), []).append(x)
    for xs in direct.values():
        if len(xs) > 1:
            md.add(sum(xs) <= 1)


class _PaperModel:
    """The paper's framing over one horizon: the power's starting units only (no builds,
    no convoys), each followed on its own path, and a center counted once any of them
    has stood on it after a movement phase.

    Following each unit is what makes this fast: the aggregated flow lets half a unit
    shuttle between two centers and "collect" both, a relaxation CP-SAT could not close
    (England, 16 centers by S1905: undecided after 120 s; per unit it is proven
    infeasible in about 10 s)."""

    def __init__(self, pb: _Problem, phases: list[Phase]):
        self.pb, self.phases = pb, phases
        self.model = md = cp_model.CpModel()
        m, po = pb.m, pb.m.province_of
        self.units = sorted(pb.units)
        moving = [i for i, ph in enumerate(phases) if ph.kind == "movement"]
        #: at[u][t][loc]: unit u stands in loc after t movement phases (t = 0: the start)
        self.at: list[list[dict[str, object]]] = []
        #: step[t][(u, a, b)]: unit u goes from a to b (a == b: holds) in movement phase t + 1
        self.step: list[dict[tuple[int, str, str], cp_model.IntVar]] = [{} for _ in moving]
        for u, unit in enumerate(self.units):
            places: list[dict[str, object]] = [{unit.location: 1}]
            for t in range(1, len(moving) + 1):
                now = {b: md.new_bool_var(f"at{u}_{t}_{b}")
                       for b in sorted(set(places[-1]).union(*(pb.moves_of(unit.kind, a) for a in places[-1])))}
                md.add_exactly_one(now.values())
                into: dict[str, list[object]] = {b: [] for b in now}
                for a, here in places[-1].items():
                    out = []
                    for b in (a, *sorted(pb.moves_of(unit.kind, a))):
                        y = md.new_bool_var(f"st{u}_{t}_{a}_{b}")
                        self.step[t - 1][(u, a, b)] = y
                        out.append(y)
                        into[b].append(y)
                    md.add(sum(out) == here)
                for b, ys in into.items():
                    md.add(sum(ys) == now[b])
                places.append(now)
            self.at.append(places)
        for t in range(1, len(moving) + 1):
            by_prov: dict[str, list[object]] = {}
            for u in range(len(self.units)):
                for loc, v in self.at[u][t].items():
                    by_prov.setdefault(po[loc], []).append(v)
            for vs in by_prov.values():
                if len(vs) > 1:
                    md.add_at_most_one(vs)
            _no_swaps(md, po, ((a, b, y) for (_, a, b), y in self.step[t - 1].items()))
        start = pb.counted_at_start()
        got: list[object] = []
        for c in sorted(m.centers - start):
            stood = [v for places in self.at for now in places[1:] for loc, v in now.items() if po[loc] == c]
            if stood:
                g = md.new_bool_var(f"got_{c}")
                md.add(g <= sum(stood))
                got.append(g)
        md.add(len(start) + sum(got) >= pb.target)

    def variables(self) -> int:
        return len(self.model.proto.variables)

    def plan(self, solver: cp_model.CpSolver) -> list[tuple[Phase, tuple[Order, ...]]]:
        out: list[tuple[Phase, tuple[Order, ...]]] = []
        t = 0
        for ph in self.phases:
            orders: list[Order] = []
            if ph.kind == "movement":
                for (u, a, b), y in sorted(self.step[t].items()):
                    if solver.boolean_value(y):
                        kind = self.units[u].kind
                        orders.append(Hold(kind, a) if a == b else Move(kind, a, b))
                t += 1
            out.append((ph, tuple(sorted(orders, key=lambda o: (self.pb.m.province_of[o.location], str(o))))))
        return out


def _shortest_route(m: Map, src: str, dst: str, seas: set[str]) -> list[str]:
    """The shortest chain of the given seas from ``src`` to ``dst``: only fleets on it are
    ordered to convoy (the adjudicator calls a convoy order illegal if its fleet is on no
    route the army can take)."""
    nb = m.neighbours
    frontier = deque([(t, [t]) for t in sorted(nb[src] & seas)])
    seen = {t for t, _ in frontier}
    while frontier:
        t, path = frontier.popleft()
        if dst in nb[t]:
            return path
        for t2 in sorted(nb[t] & seas):
            if t2 not in seen:
                seen.add(t2)
                frontier.append((t2, path + [t2]))
    raise ReplayError(f"no convoy route from {src} to {dst} through {sorted(seas)}")


# -- replay ----------------------------------------------------------------------------------

_OK = {Reason.MOVED, Reason.HELD, Reason.CONVOYED, Reason.BUILT, Reason.REMOVED,
       Reason.DISBANDED, Reason.WAIVED}


def replay(position: Position, power: str, steps: Iterable[tuple[Phase, Sequence[Order]]],
           rules: str = "full") -> tuple[list[PlanPhase], list[Outcome]]:
    """Play a plan through the adjudicator with ``power`` alone on the board.

    Every order must succeed as planned (moves move, convoys convoy, builds build) and
    each phase must be the one the adjudicator reaches (a Winter with nothing to order
    may be skipped by the adjudicator, and is then left out of the plan).  Returns the
    plan with the centers after each phase (owned under the full rules; owned or passed
    through under the paper's) and the adjudicator's outcomes.  Raises `ReplayError`
    otherwise.
    """
    m = position.map
    po = m.province_of
    pos = position.alone({power})
    seen = set(pos.centers_of(power)) | {po[u.location] for u in pos.units if po[u.location] in m.centers}
    plan: list[PlanPhase] = []
    outcomes: list[Outcome] = []
    for phase, orders in steps:
        if pos.phase != phase:
            if phase.kind == "adjustment" and not orders:
                continue
            raise ReplayError(f"the plan has {phase} but the adjudicator reached {pos.phase}")
        outcome = adjudicate(pos, {power: list(orders)})
        bad = [r for r in outcome.results if not r.success or r.reason not in _OK]
        if bad or (outcome.destroyed and phase.kind == "movement"):
            raise ReplayError(f"{phase}: " + "; ".join(str(r) for r in bad)
                              + (f" destroyed: {outcome.destroyed}" if outcome.destroyed else ""))
        pos = outcome.next
        seen |= {po[u.location] for u in pos.units if po[u.location] in m.centers}
        count = len(pos.centers_of(power)) if rules == "full" else len(seen | set(pos.centers_of(power)))
        outcomes.append(outcome)
        if phase.kind == "movement" or orders:
            plan.append(PlanPhase(phase, tuple(orders), count, len(pos.units_of(power))))
    return plan, outcomes


# -- solving ---------------------------------------------------------------------------------

def _solver(seconds: float, workers: int, max_lp: bool) -> cp_model.CpSolver:
    """CP-SAT; for the full rules with the full linear relaxation (``max_lp``: every
    Boolean constraint in the LP, added up front).  With the default workers alone,
    proving that England cannot reach 18 centers by 1903 did not finish in 120 s; with
    ``max_lp`` it takes 0.3 s.  The paper's model does better without it."""
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(seconds, 0.01)
    solver.parameters.num_workers = workers
    if max_lp and workers > 1:
        solver.parameters.extra_subsolvers.append("max_lp")
    elif max_lp:
        solver.parameters.linearization_level = 2
        solver.parameters.add_lp_constraints_lazily = False
    return solver


def solve_path(position: Position, power: str, target: int = 16, rules: str = "full",
               time_limit: float = 60.0, workers: int = 2, max_moves: int = 40,
               progress: Callable[[Attempt], None] | None = None) -> PathSolution:
    """The fewest movement phases (hence game years) until ``power``, alone on the board
    from ``position``, has ``target`` centers; with a replayed plan and its proof.

    Horizons are tried upward from the lower bound.  A horizon CP-SAT proves infeasible
    raises the proven bound; one it cannot decide in half the time left is passed over,
    and the time left after a later plan is found goes back to it.  ``progress`` is
    called after each CP-SAT attempt.
    """
    started = time.perf_counter()
    deadline = started + time_limit
    pb = _problem(position, power, target, rules)
    lb = lower_bound(position, power, target, rules)
    attempts: list[Attempt] = []

    def done(status: str, bound_moves: int | None, moves: int | None = None,
             plan: Sequence[PlanPhase] = (), outcomes: Sequence[Outcome] = ()) -> PathSolution:
        last = schedule(pb.start, moves)[-1] if moves else None
        bound = schedule(pb.start, bound_moves)[-1] if bound_moves else None
        return PathSolution(
            power, target, rules, pb.start, status, moves,
            None if moves is None else (years_between(pb.start, last) if last else 0),
            None if moves is None else (last.short if last else pb.start.short),
            bound_moves, None if bound_moves is None else (years_between(pb.start, bound) if bound else 0),
            None if bound_moves is None else (bound.short if bound else pb.start.short),
            lb, tuple(plan), tuple(outcomes), tuple(attempts), time.perf_counter() - started)

    if lb.moves is None:
        return done(INFEASIBLE, None)
    if lb.moves == 0:
        return done(OPTIMAL, 0, 0)
    horizons = [n for n in range(lb.moves, max_moves + 1) if pb.can_reach_goal(schedule(pb.start, n)[-1])]
    infeasible: set[int] = set()
    undecided: list[int] = []
    best: tuple[int, list[PlanPhase], list[Outcome]] | None = None

    def proven() -> int:
        """No plan has fewer movement phases: the bound, raised past every horizon
        proven infeasible from it upward."""
        return next((n for n in horizons if n not in infeasible), max_moves + 1)

    def attempt(n: int, seconds: float) -> str:
        """Solve horizon n; keep its plan if it has one.  Returns CP-SAT's status name."""
        nonlocal best
        t0 = time.perf_counter()
        phases = schedule(pb.start, n)
        mdl = _Model(pb, phases) if pb.full else _PaperModel(pb, phases)
        solver = _solver(min(seconds, deadline - time.perf_counter()), workers, max_lp=pb.full)
        status = solver.solve(mdl.model)
        name = solver.status_name(status)
        attempts.append(Attempt(n, phases[-1].short, name, time.perf_counter() - t0, mdl.variables()))
        if progress:
            progress(attempts[-1])
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            plan, outcomes = replay(position, power, mdl.plan(solver), rules)
            if not plan or plan[-1].phase != phases[-1] or plan[-1].centers < target:
                got = plan[-1].centers if plan else 0
                raise ReplayError(f"the replay has {got} centers after {phases[-1].short}, not {target}")
            best = (n, plan, outcomes)
        elif status == cp_model.INFEASIBLE:
            infeasible.add(n)
        return name

    # upward until a plan is found; undecided horizons get half the time left
    for n in horizons:
        left = deadline - time.perf_counter()
        if left <= 0.01:
            break
        name = attempt(n, left if n == horizons[-1] else left / 2)
        if best:
            break
        if name == "UNKNOWN":
            undecided.append(n)
    # back to the horizons passed over, with the time that is left
    for n in undecided:
        if not best or n >= best[0]:
            break
        left = deadline - time.perf_counter()
        if left <= 0.01:
            break
        if attempt(n, left) == "UNKNOWN":
            break
    bound = proven()
    if best is None:
        return done(INFEASIBLE if bound > max_moves else TIMED_OUT, bound)
    n, plan, outcomes = best
    return done(OPTIMAL if n <= bound else FEASIBLE, bound, n, plan, outcomes)
