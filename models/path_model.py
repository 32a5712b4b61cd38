"""The CP-SAT models of the fastest path over one horizon: the full rules' flow and the paper's unit paths.

A horizon is a number of movement phases from the start (`dipsolve.models.path_problem.schedule`);
a model over it is feasible when the power can have its target of centers after the
horizon's last phase.  `FullModel` is the real rules as a 0/1 flow over the
time-expanded map; `PaperModel` the seed's framing, each starting unit on its own path.
Both read their solution back as orders (`plan`), and `cp_solver` gives the CP-SAT
parameters each solves best with.  `dipsolve.models.path` tries the horizons.

The full rules are a 0/1 flow over a time-expanded map.  Units of one type are
interchangeable, so a stage is the set of occupied (type, location) pairs and a
movement phase is a flow from the occupied places of one stage to those of the next (a
hold is an arc to the same place); a build adds flow.  Convoys are a second flow through
the seas whose fleets hold: entered from an army's coastal province, passed from sea to
sea, left into another coastal province, at most one army through each fleet.
Ownership after each Fall is the ownership before or an occupied center.  The paper's
framing follows each starting unit on its own path instead.  Only places a unit can
reach by then are variables (`dipsolve.models.path_problem.PathProblem.reach`).

Building a model is part of a solve's time limit: given a ``deadline``, each stage
looks at it a few times (`dipsolve.core.results.TimeUp`).
"""

from __future__ import annotations

from typing import Iterable, Union

from ortools.sat.python import cp_model

from dipsolve.core.graph import provinces_from, sea_chains
from dipsolve.core.map import Map
from dipsolve.core.orders import Build, Convoy, Disband, Hold, Move, Order, SupportMove
from dipsolve.core.position import Phase
from dipsolve.core.results import Deadline

from .cpsat import cpsat_solver
from .path_problem import PathProblem, Place
from .path_replay import ReplayError

#: a Boolean variable of the model, or a constant 0 or 1 (a unit known to be there)
Var = Union[cp_model.IntVar, int]
#: a term of a flow balance (a variable, or minus one for a unit removed)
Term = cp_model.LinearExprT
#: the orders a plan is made of: each for a unit, in one location
PlanOrder = Union[Hold, Move, Convoy, Disband, Build, SupportMove]


def _is_one(v: object) -> bool:
    return isinstance(v, int) and v == 1


def _is_zero(v: object) -> bool:
    return isinstance(v, int) and v == 0


class FullModel:
    """The full rules over one horizon (its last phase a Fall): the aggregated flow, in
    which units of one type are interchangeable and builds simply add flow."""

    def __init__(self, pb: PathProblem, phases: list[Phase], deadline: Deadline | None = None):
        self.pb, self.phases, self.deadline = pb, phases, deadline
        self.model = cp_model.CpModel()
        m = pb.m
        reach = pb.reach(phases)
        # occ[s][place]: a unit stands there after s phases (stage 0: the start, constants)
        self.occ: list[dict[Place, Var]] = [{(u.kind, u.location): 1 for u in pb.units}]
        self.arcs: list[dict[tuple[str, str, str], cp_model.IntVar]] = []
        self.convoy: list[dict[tuple[str, str, str], cp_model.IntVar]] = []
        self.builds: list[dict[Place, cp_model.IntVar]] = []
        self.removals: list[dict[Place, cp_model.IntVar]] = []
        self.own: dict[str, Var] = {c: int(c in pb.owned) for c in sorted(m.centers)}
        # the opposed models: which of the others' units still stand (stage 0: all of them),
        # which our moves dislodge, and our supports and support-cutting attacks
        self.alive: list[dict[str, Var]] = [{e: 1 for e in pb.enemies}]
        self.supports: list[dict[tuple[Place, str], cp_model.IntVar]] = []
        self.cuts: list[dict[tuple[Place, str], cp_model.IntVar]] = []
        #: a Fall may leave the power fewer centers than units (another power's unit
        #: standing on a center of ours): every Winter may owe removals
        self._may_lose = any(e in pb.owned for e in pb.enemies)
        #: province of theirs -> the provinces of their units that could support its hold
        #: (each could move there): the same every phase, their units never move
        self._defenders = {e: [f for f, u in sorted(pb.enemies.items())
                               if f != e and e in provinces_from(m, u.kind, u.location)]
                           for e in pb.enemies}
        for s, ph in enumerate(phases, 1):
            self._check()
            arcs: dict[tuple[str, str, str], cp_model.IntVar] = {}
            conv: dict[tuple[str, str, str], cp_model.IntVar] = {}
            blds: dict[Place, cp_model.IntVar] = {}
            rems: dict[Place, cp_model.IntVar] = {}
            sups: dict[tuple[Place, str], cp_model.IntVar] = {}
            cuts: dict[tuple[Place, str], cp_model.IntVar] = {}
            if ph.kind == "movement":
                self.occ.append(self._movement(s, ph, reach[s], arcs, conv, sups, cuts))
            else:
                self.occ.append(self._winter(s, reach[s], blds, rems))
                self.alive.append(self.alive[-1])
            self.supports.append(sups)
            self.cuts.append(cuts)
            self.arcs.append(arcs)
            self.convoy.append(conv)
            self.builds.append(blds)
            self.removals.append(rems)
        self._goal()

    def _check(self) -> None:
        """The build is part of the time limit: a few times a stage, look at the deadline."""
        if self.deadline is not None:
            self.deadline.check()

    # -- one unit per province ---------------------------------------------------------------
    def _stage(self, s: int, places: Iterable[Place]) -> dict[Place, Var]:
        md, po = self.model, self.pb.m.province_of
        occ: dict[Place, Var] = {pl: md.new_bool_var(f"o{s}_{pl[0]}{pl[1]}") for pl in sorted(places)}
        by_prov: dict[str, list[Var]] = {}
        for pl, v in occ.items():
            by_prov.setdefault(po[pl[1]], []).append(v)
        for vs in by_prov.values():
            if len(vs) > 1:
                md.add_at_most_one(vs)
        return occ

    # -- movement ----------------------------------------------------------------------------
    def _movement(self, s: int, ph: Phase, places: frozenset[Place],
                  arcs: dict, conv: dict, sups: dict, cuts: dict) -> dict[Place, Var]:
        pb, md = self.pb, self.model
        po, centers = pb.m.province_of, pb.m.centers
        before = self.occ[-1]
        occ = self._stage(s, places)
        outflow: dict[Place, list[Term]] = {pl: [] for pl in before}
        inflow: dict[Place, list[Term]] = {pl: [] for pl in occ}
        for (k, a) in before:
            for b in (a, *sorted(pb.moves_of(k, a))):
                x = md.new_bool_var(f"x{s}_{k}{a}_{b}")
                arcs[(k, a, b)] = x
                outflow[(k, a)].append(x)
                inflow[(k, b)].append(x)
        self._check()
        # what a unit that stays does besides holding: carry an army, support, cut
        uses: dict[Place, list[Term]] = {pl: [] for pl in before}
        self._convoys(s, before, arcs, conv, outflow, inflow, uses)
        self._check()
        if self.pb.enemies:
            self._opposed(s, before, occ, arcs, conv, sups, cuts, uses)
        for pl, terms in uses.items():
            if terms:
                md.add(sum(terms) <= arcs[(pl[0], pl[1], pl[1])])
        for pl, terms in outflow.items():
            md.add(sum(terms) == before[pl])
        for pl, terms in inflow.items():
            md.add(occ[pl] == sum(terms))
        self._check()
        _no_swaps(md, po, ((a, b, x) for (_, a, b), x in arcs.items()))
        # centers: owned after a Fall
        here: dict[str, list[Var]] = {}
        for pl, v in occ.items():
            if po[pl[1]] in centers:
                here.setdefault(po[pl[1]], []).append(v)
        if ph.season == "Fall":
            alive = self.alive[-1]
            for c in sorted(set(here) | {e for e in alive if e in centers and not _is_zero(alive[e])}):
                vs, theirs = here.get(c, []), alive.get(c, 0)
                if (_is_one(self.own[c]) and _is_zero(theirs)) or (_is_zero(self.own[c]) and not vs):
                    continue
                o = md.new_bool_var(f"own{s}_{c}")
                md.add(o <= self.own[c] + sum(vs))
                for v in vs:
                    md.add_implication(v, o)
                if _is_zero(theirs):
                    if not _is_zero(self.own[c]):
                        md.add_implication(self.own[c], o)
                else:
                    # another power's unit standing there at the end of the Fall takes it
                    md.add(o + theirs <= 1)
                    md.add(o >= self.own[c] - theirs)
                self.own[c] = o
        return occ

    def _opposed(self, s: int, before: dict[Place, Var], occ: dict[Place, Var], arcs: dict,
                 conv: dict, sups: dict, cuts: dict, uses: dict[Place, list[Term]]) -> None:
        """The others' units in the way (`PathProblem.enemies`): one stands until a move
        of ours dislodges it (it is then destroyed), which takes more strength than its
        hold: one support of ours under ``hold``; under ``supported``, one more than
        every unit of theirs that could support its hold and that no move of ours
        attacks (an attack cuts a support, by the rules, when it comes from anywhere
        but the province supported; any move of ours into a unit of theirs is one,
        including a move that bounces: a *cut*).  A unit of ours gives one support or
        one cut, staying where it is.  No unit of ours stands with one of theirs.  In a
        phase the known defence gives (`PathProblem.defence`), the supports are the ones
        it gives: an attack must beat its hold and those of them no move of ours cuts."""
        pb, md = self.pb, self.model
        po = pb.m.province_of
        prev = self.alive[-1]
        given = pb.defence.get(self.phases[s - 1])

        def supporters(e: str) -> list[str]:
            """The units of theirs that may support the hold in ``e`` in this phase."""
            if given is None:
                return self._defenders[e]
            return [f for f in self._defenders[e] if given.get(f) == e]
        entering: dict[str, list[Term]] = {e: [] for e in pb.enemies}
        for (_, a, b), x in arcs.items():
            if po[a] != po[b] and po[b] in entering:
                entering[po[b]].append(x)
        for (kind, _, b), v in conv.items():
            if kind == "out" and po[b] in entering:
                entering[po[b]].append(v)
        supported = pb.opposition == "supported" or given is not None
        alive: dict[str, Var] = {}
        dis: dict[str, cp_model.IntVar] = {}
        sup_into: dict[str, list[cp_model.IntVar]] = {}       # our supports, by province supported into
        cut_into: dict[str, list[cp_model.IntVar]] = {}       # our cuts, by province attacked
        reach = {(k, a): provinces_from(pb.m, k, a) for (k, a) in before}
        for e in sorted(pb.enemies):
            if _is_zero(prev[e]):
                alive[e] = 0
                continue
            d = md.new_bool_var(f"dis{s}_{e}")
            md.add(d <= prev[e])
            md.add(sum(entering[e]) <= 1 - prev[e] + d)       # into it only by dislodging it
            md.add(d <= sum(entering[e]))
            dis[e] = d
            alive[e] = md.new_bool_var(f"alive{s}_{e}")
            md.add(alive[e] == prev[e] - d)
            for pl, near in reach.items():
                if e not in near or po[pl[1]] == e:
                    continue
                v = md.new_bool_var(f"sup{s}_{pl[0]}{pl[1]}_{e}")
                md.add(v <= d)
                sups[(pl, e)] = v
                sup_into.setdefault(e, []).append(v)
                uses[pl].append(v)
                if supported:
                    c = md.new_bool_var(f"cut{s}_{pl[0]}{pl[1]}_{e}")
                    md.add(sum([c, *entering[e]]) <= 1)       # a cut is a move that bounces
                    md.add(c <= prev[e])
                    cuts[(pl, e)] = c
                    cut_into.setdefault(e, []).append(c)
                    uses[pl].append(c)
        if supported:
            # a cut is worth making only beside an attack the unit cut could defend against
            guards: dict[str, list[cp_model.IntVar]] = {}
            for g, d in dis.items():
                for f in supporters(g):
                    guards.setdefault(f, []).append(d)
            for (pl, f), c in cuts.items():
                md.add(c <= sum(guards.get(f, [])))
        for e, d in dis.items():
            into = sup_into.get(e, [])
            if not supported:
                md.add(d <= sum(into))
                continue
            # every unit of theirs that could support the hold, and is not attacked
            free: list[Term] = []
            for f in supporters(e):
                if _is_zero(prev[f]):
                    continue
                hit = md.new_bool_var(f"hit{s}_{f}_{e}")
                md.add(hit <= prev[f])
                md.add(hit <= sum([*entering[f], *cut_into.get(f, [])]))
                free.append(prev[f] - hit)
            md.add(sum(into) >= 1 + sum(free)).only_enforce_if(d)
        for e, a in alive.items():
            ours = [v for pl, v in occ.items() if po[pl[1]] == e]
            if ours and not _is_zero(a):
                md.add(sum(ours) + a <= 1)
        self.alive.append(alive)


    def _convoys(self, s: int, before: dict[Place, Var], arcs: dict, conv: dict,
                 outflow: dict[Place, list[Term]], inflow: dict[Place, list[Term]],
                 uses: dict[Place, list[Term]]) -> None:
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
        into: dict[str, list[Term]] = {t: [] for t in seas}
        out_of: dict[str, list[Term]] = {t: [] for t in seas}
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
            uses[("F", t)].append(sum(into[t]))
        for (kind, t, t2), v in list(conv.items()):
            if kind == "via" and t < t2:
                md.add(v + conv[("via", t2, t)] <= 1)

    # -- adjustments (full rules) ------------------------------------------------------------
    def _winter(self, s: int, places: frozenset[Place], blds: dict, rems: dict) -> dict[Place, Var]:
        """Builds in owned, unoccupied home centers, up to centers minus units; removals
        when the power has more units than centers (only from a position read from a file:
        centers never fall when the power is alone)."""
        pb, md = self.pb, self.model
        po = pb.m.province_of
        before = self.occ[-1]
        occ = self._stage(s, places)
        inflow: dict[Place, list[Term]] = {pl: [] for pl in occ}
        for pl, v in before.items():
            inflow[pl].append(v)
        units_now = sum(before.values())
        centers_now = sum(self.own.values())
        for h in pb.homes:
            if _is_zero(self.own[h]):
                continue
            here = [v for pl, v in before.items() if po[pl[1]] == h]
            if not _is_zero(self.alive[-1].get(h, 0)):
                here.append(self.alive[-1][h])       # another power's unit stands there
            bs = []
            for pl in pb.build_places(h):
                b = md.new_bool_var(f"b{s}_{pl[0]}{pl[1]}")
                blds[pl] = b
                inflow[pl].append(b)
                if not _is_one(self.own[h]):
                    md.add_implication(b, self.own[h])
                bs.append(b)
            md.add(sum(here) + sum(bs) <= 1)
        if self._may_lose or (s == self._first_winter() and len(pb.units) > len(pb.owned)):
            # the first Winter may owe removals (or every Winter, when a center of ours
            # can fall): exactly units - centers of them
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
            orders: list[PlanOrder] = []
            if ph.kind == "movement":
                orders = self._movement_orders(solver, s)
            else:
                orders += [Disband(k, loc) for (k, loc), r in sorted(self.removals[s].items())
                           if solver.boolean_value(r)]
                orders += [Build(k, loc) for (k, loc), b in sorted(self.builds[s].items())
                           if solver.boolean_value(b)]
            orders.sort(key=lambda o: (po[o.location], str(o)))
            out.append((ph, tuple(orders)))
        return out

    def _movement_orders(self, solver: cp_model.CpSolver, s: int) -> list[PlanOrder]:
        used = {key for key, v in self.convoy[s].items() if solver.boolean_value(v)}
        nxt = {t: t2 for (kind, t, t2) in used if kind == "via"}
        leave = {t: b for (kind, t, b) in used if kind == "out"}
        convoying: dict[str, Convoy] = {}
        convoyed: list[PlanOrder] = []
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
        po = self.pb.m.province_of
        # who enters each province of theirs (the move a support of ours backs)
        entering: dict[str, tuple[str, str]] = {}
        for (k, a, b), x in self.arcs[s].items():
            if a != b and solver.boolean_value(x):
                entering[po[b]] = (k, a)
        for o in convoyed:
            if isinstance(o, Move):
                entering[po[o.target]] = ("A", o.location)
        besides: dict[str, PlanOrder] = {}
        for ((k, a), e), v in self.supports[s].items():
            if solver.boolean_value(v):
                who = entering[e]
                besides[a] = SupportMove(k, a, who[0], who[1], e)
        for ((k, a), e), v in self.cuts[s].items():
            if solver.boolean_value(v):
                besides[a] = self._cut(k, a, e)
        orders: list[PlanOrder] = []
        for (k, a, b), x in sorted(self.arcs[s].items()):
            if not solver.boolean_value(x):
                continue
            if a != b:
                orders.append(Move(k, a, b))
            else:
                orders.append(convoying.get(a) or besides.get(a) or Hold(k, a))
        return orders + convoyed

    def bounces(self, solver: cp_model.CpSolver) -> dict[Phase, frozenset[Order]]:
        """The moves of the plan meant to bounce, by phase: each cuts a support of theirs."""
        return {ph: frozenset(self._cut(k, a, e) for ((k, a), e), v in self.cuts[s].items()
                              if solver.boolean_value(v))
                for s, ph in enumerate(self.phases) if ph.kind == "movement"}

    def _cut(self, kind: str, location: str, province: str) -> Move:
        """The move into ``province`` that cuts the support of the unit of theirs there."""
        po = self.pb.m.province_of
        return Move(kind, location, next(b for b in sorted(self.pb.moves_of(kind, location))
                                         if po[b] == province))


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


class PaperModel:
    """The paper's framing over one horizon: the power's starting units only (no builds,
    no convoys), each followed on its own path, and a center counted once any of them
    has stood on it after a movement phase.

    Following each unit is what makes this fast: the aggregated flow lets half a unit
    shuttle between two centers and "collect" both, a relaxation CP-SAT could not close
    (England, 16 centers by S1905: undecided after 120 s; per unit it is proven
    infeasible in about 10 s)."""

    def __init__(self, pb: PathProblem, phases: list[Phase], deadline: Deadline | None = None):
        self.pb, self.phases = pb, phases
        self.model = md = cp_model.CpModel()
        m, po = pb.m, pb.m.province_of
        self.units = sorted(pb.units)
        moving = [i for i, ph in enumerate(phases) if ph.kind == "movement"]
        #: at[u][t][loc]: unit u stands in loc after t movement phases (t = 0: the start)
        self.at: list[list[dict[str, Var]]] = []
        #: step[t][(u, a, b)]: unit u goes from a to b (a == b: holds) in movement phase t + 1
        self.step: list[dict[tuple[int, str, str], cp_model.IntVar]] = [{} for _ in moving]
        for u, unit in enumerate(self.units):
            places: list[dict[str, Var]] = [{unit.location: 1}]
            for t in range(1, len(moving) + 1):
                if deadline is not None:
                    deadline.check()           # the build is part of the time limit
                near = set(places[-1]).union(*(pb.moves_of(unit.kind, a) for a in places[-1]))
                now: dict[str, Var] = {b: md.new_bool_var(f"at{u}_{t}_{b}") for b in sorted(near)}
                md.add_exactly_one(now.values())
                into: dict[str, list[Term]] = {b: [] for b in now}
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
            by_prov: dict[str, list[Var]] = {}
            for u in range(len(self.units)):
                for loc, v in self.at[u][t].items():
                    by_prov.setdefault(po[loc], []).append(v)
            for vs in by_prov.values():
                if len(vs) > 1:
                    md.add_at_most_one(vs)
            _no_swaps(md, po, ((a, b, y) for (_, a, b), y in self.step[t - 1].items()))
        start = pb.counted_at_start()
        got: list[Var] = []
        for c in sorted(m.centers - start):
            stood = [v for places in self.at for now in places[1:] for loc, v in now.items() if po[loc] == c]
            if stood:
                g = md.new_bool_var(f"got_{c}")
                md.add(g <= sum(stood))
                got.append(g)
        md.add(len(start) + sum(got) >= pb.target)

    def variables(self) -> int:
        return len(self.model.proto.variables)

    def bounces(self, solver: cp_model.CpSolver) -> dict[Phase, frozenset[Order]]:
        """No move of the paper's framing is meant to bounce (nobody is in the way)."""
        return {}

    def plan(self, solver: cp_model.CpSolver) -> list[tuple[Phase, tuple[Order, ...]]]:
        out: list[tuple[Phase, tuple[Order, ...]]] = []
        t = 0
        for ph in self.phases:
            orders: list[Hold | Move] = []
            if ph.kind == "movement":
                for (u, a, b), y in sorted(self.step[t].items()):
                    if solver.boolean_value(y):
                        kind = self.units[u].kind
                        orders.append(Hold(kind, a) if a == b else Move(kind, a, b))
                t += 1
            orders.sort(key=lambda o: (self.pb.m.province_of[o.location], str(o)))
            out.append((ph, tuple(orders)))
        return out


def _shortest_route(m: Map, src: str, dst: str, seas: set[str]) -> list[str]:
    """The shortest chain of the given seas from ``src`` to ``dst``: only fleets on it are
    ordered to convoy (the adjudicator calls a convoy order illegal if its fleet is on no
    route the army can take)."""
    chain = next(sea_chains(m, src, seas, dst), None)
    if chain is not None:
        return list(chain[:-1])
    raise ReplayError(f"no convoy route from {src} to {dst} through {sorted(seas)}")



def cp_solver(seconds: float, workers: int, max_lp: bool, seed: int = 0,
              deadline: Deadline | None = None, opposed: bool = False) -> cp_model.CpSolver:
    """CP-SAT; for the full rules with the full linear relaxation (``max_lp``: every
    Boolean constraint in the LP, added up front).  With the default workers alone,
    proving that England cannot reach 18 centers by 1903 did not finish in 120 s; with
    ``max_lp`` it takes 0.3 s.  The paper's model does better without it.  Against an
    opposition (``opposed``) no linear relaxation at all: on five mid-game positions of
    the records, one worker, the full relaxation left four undecided within 60 s and
    none solved it found in less; without it all five were answered (four proven
    optimal; docs/path.md).  ``seed``: CP-SAT's random seed; ``deadline``: the call's,
    whose work clock (`Limits.nodes`) makes ``seconds`` nodes and the solve one
    worker's (`dipsolve.models.cpsat`)."""
    solver = cpsat_solver(max(seconds, 0.01), workers=workers, seed=seed, deadline=deadline)
    if opposed:
        solver.parameters.linearization_level = 0
    elif max_lp and solver.parameters.num_workers > 1:
        solver.parameters.extra_subsolvers.append("max_lp")
    elif max_lp:
        solver.parameters.linearization_level = 2
        solver.parameters.add_lp_constraints_lazily = False
    return solver
