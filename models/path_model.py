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

from dipsolve.core.graph import sea_chains
from dipsolve.core.map import Map
from dipsolve.core.orders import Build, Convoy, Disband, Hold, Move, Order
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
PlanOrder = Union[Hold, Move, Convoy, Disband, Build]


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
        for s, ph in enumerate(phases, 1):
            self._check()
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
                  arcs: dict, conv: dict) -> dict[Place, Var]:
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
        self._convoys(s, before, arcs, conv, outflow, inflow)
        self._check()
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

    def _convoys(self, s: int, before: dict[Place, Var], arcs: dict, conv: dict,
                 outflow: dict[Place, list[Term]], inflow: dict[Place, list[Term]]) -> None:
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
            md.add(sum(into[t]) <= arcs[("F", t, t)])
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
        orders: list[PlanOrder] = []
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
              deadline: Deadline | None = None) -> cp_model.CpSolver:
    """CP-SAT; for the full rules with the full linear relaxation (``max_lp``: every
    Boolean constraint in the LP, added up front).  With the default workers alone,
    proving that England cannot reach 18 centers by 1903 did not finish in 120 s; with
    ``max_lp`` it takes 0.3 s.  The paper's model does better without it.  ``seed``:
    CP-SAT's random seed; ``deadline``: the call's, whose work clock (`Limits.nodes`)
    makes ``seconds`` nodes and the solve one worker's (`dipsolve.models.cpsat`)."""
    solver = cpsat_solver(max(seconds, 0.01), workers=workers, seed=seed, deadline=deadline)
    if max_lp and solver.parameters.num_workers > 1:
        solver.parameters.extra_subsolvers.append("max_lp")
    elif max_lp:
        solver.parameters.linearization_level = 2
        solver.parameters.add_lp_constraints_lazily = False
    return solver
