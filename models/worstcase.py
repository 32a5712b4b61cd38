"""Loeb's open problem: how large can the joint adjustment space of one winter be?

The seed (``003_…``, "Open problem") asks for the largest product over the seven powers
of their numbers of adjustment choices, over positions that can really occur, and
offers 11,426,088,960 (Austria 17 units → 8 centers, Germany 1 → 2, France 3 → 5,
Turkey, England and Italy 3 → 5, Russia 4 → 6).  That example needs 8 + 2 + 5·4 + 6 = 36
supply centers; the board has 34.

What "can really occur" means here (a winter adjustment position, with the winter
before it; each item is a rule of the game):

- at most 34 centers are owned, now and last winter, and at least the 22 home centers
  were owned last winter (a center once owned is never unowned again);
- no power has 18 or more centers (the game would be over), so at most 17 units;
- a power has at most as many units as it had centers last winter (units are built
  only in winter, up to the centers owned; a power with no centers has no units);
- a center changes hands only in the Fall, to the power whose unit stands in it, and
  that unit is still there in the winter: a power's gains this year are occupied by its
  own units, so a free home center is one it kept;
- a center lost by one power is gained by another: no power gains what it lost itself;
- builds only in owned, unoccupied home centers (so a builder's other owned home
  centers hold its own units), removals of any units.

The model (`solve_worst_case`): for each power, one binary variable per *configuration*
(units ``n``, centers ``c``, and for a builder the set of free home centers) whose
number of choices is known by formula (`dipsolve.adjustments.build_count`,
``C(n, n - c)``), and integer variables for the centers it had last winter and gained
this year.  The objective is the sum of the logarithms of the chosen configurations'
choices: the logarithm of the product, linear in the binaries.  CBC (through PuLP)
solves it to proven optimality; because a product of integers can be one more than
another, the answer is then confirmed in exact integer arithmetic: the vector of
per-power choice counts found is forbidden (a no-good cut) and the ILP solved again,
until the next best is more than ``1e-6`` below the optimum's logarithm, so every
vector that float rounding could confuse with the optimum is compared as integers.  `witness` turns the
optimum into a real position (a CP-SAT model places centers and units), which
`dipsolve adjust WITNESS --count` counts again.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from itertools import combinations
from typing import Iterable

from dipsolve.adjustments import build_count, removal_count, site_builds
from dipsolve.map import POWERS, Map, standard_map
from dipsolve.position import Phase, Position, Unit

CENTERS = 34
HOME_CENTERS = 22
MOST = 17           # centers (and so units) a power can have while the game goes on
BAND = 1e-6         # the exact check enumerates products within this log-distance of the optimum


@dataclass(frozen=True)
class Config:
    """One power's situation this winter, as far as its number of choices goes."""

    units: int
    centers: int
    free_homes: tuple[str, ...]   # for a builder: its owned, unoccupied home centers
    choices: int

    @property
    def builds(self) -> int:
        return max(0, self.centers - self.units)

    @property
    def removals(self) -> int:
        return max(0, self.units - self.centers)


@dataclass(frozen=True)
class PowerPlan:
    """A power in the optimum: this winter's configuration and last winter's centers."""

    power: str
    config: Config
    centers_last_winter: int
    gained: int                   # centers gained this year (occupied by its units)
    lost: int                     # centers lost this year

    @property
    def choices(self) -> int:
        return self.config.choices


@dataclass(frozen=True)
class WorstCase:
    waives: bool
    status: str                   # "optimal" (proven), "feasible", "timed out"
    product: int                  # the maximum joint number of adjustment choices
    plans: tuple[PowerPlan, ...]
    bound_log: float              # CBC's bound on the log of the product
    seconds: float
    checked_vectors: int          # choice vectors enumerated by the exact check
    confirmed: bool               # the exact check found nothing larger

    @property
    def objective(self) -> int:
        return self.product


def configurations(game_map: Map, power: str, waives: bool) -> list[Config]:
    """The power's configurations worth considering: every units/centers pair up to 17,
    and for a builder each number of free home centers with its best set of them."""
    homes = sorted(game_map.homes[power])
    weight = {h: len(site_builds(game_map, h)) for h in homes}
    out = []
    for n in range(MOST + 1):
        for c in range(MOST + 1):
            if c <= n:
                out.append(Config(n, c, (), removal_count(n, n - c)))
                continue
            best: dict[int, Config] = {}
            for size in range(len(homes) + 1):
                if size > c:
                    continue
                for free in combinations(homes, size):
                    value = build_count([weight[h] for h in free], c - n, waives)
                    if size not in best or value > best[size].choices:
                        best[size] = Config(n, c, free, value)
            out.extend(best.values())
    return out


def seed_example() -> dict[str, tuple[int, int, int]]:
    """Loeb's example: power -> (units, centers, choices as the seed counts them)."""
    return {"Austria": (17, 8, 24310), "Germany": (1, 2, 2), "France": (3, 5, 8),
            "Turkey": (3, 5, 12), "England": (3, 5, 12), "Italy": (3, 5, 12), "Russia": (4, 6, 17)}


# -- the ILP ------------------------------------------------------------------------------------

class _Model:
    """The log-linear ILP (PuLP); `extra` constraints serve the exact check."""

    def __init__(self, game_map: Map, waives: bool):
        import pulp
        self.pulp = pulp
        self.configs = {p: configurations(game_map, p, waives) for p in POWERS}
        prob = pulp.LpProblem("loeb_worst_case", pulp.LpMaximize)
        self.x = {p: [pulp.LpVariable(f"x_{p}_{k}", cat="Binary") for k in range(len(cs))]
                  for p, cs in self.configs.items()}
        self.prev = {p: pulp.LpVariable(f"prev_{p}", 0, MOST, cat="Integer") for p in POWERS}
        self.gain = {p: pulp.LpVariable(f"gain_{p}", 0, MOST, cat="Integer") for p in POWERS}
        units, centers, free, self.log = {}, {}, {}, {}
        for p in POWERS:
            cs, xs = self.configs[p], self.x[p]
            prob += pulp.lpSum(xs) == 1
            units[p] = pulp.lpSum(c.units * v for c, v in zip(cs, xs))
            centers[p] = pulp.lpSum(c.centers * v for c, v in zip(cs, xs))
            free[p] = pulp.lpSum(len(c.free_homes) * v for c, v in zip(cs, xs))
            self.log[p] = pulp.lpSum(math.log(c.choices) * v for c, v in zip(cs, xs) if c.choices > 1)
        lost = {p: self.prev[p] + self.gain[p] - centers[p] for p in POWERS}
        for p in POWERS:
            prob += units[p] <= self.prev[p]                 # units <= last winter's centers
            prob += self.gain[p] <= units[p]                 # gains are occupied by own units
            prob += self.gain[p] <= centers[p] - free[p]     # free home centers were kept
            prob += lost[p] >= 0
            prob += lost[p] <= pulp.lpSum(self.gain[q] for q in POWERS if q != p)  # lost to others
        prob += pulp.lpSum(self.prev.values()) <= CENTERS
        prob += pulp.lpSum(self.prev.values()) >= HOME_CENTERS
        prob += pulp.lpSum(centers.values()) <= CENTERS
        prob += pulp.lpSum(centers.values()) >= pulp.lpSum(self.prev.values())
        self.objective = pulp.lpSum(self.log.values())
        prob += self.objective
        self.prob = prob
        self.centers, self.units = centers, units

    def solve(self, time_limit: float) -> str:
        pulp = self.pulp
        solver = pulp.PULP_CBC_CMD(msg=False, timeLimit=max(1, int(math.ceil(time_limit))),
                                   gapRel=0, gapAbs=1e-9, threads=2)
        self.prob.solve(solver)
        # "Optimal" only when CBC proved it (sol_status 1); 2 is a solution found before
        # the time limit, 0 none
        return {1: "Optimal", 2: "Feasible", 0: "Not Solved", -1: "Infeasible"}.get(
            self.prob.sol_status, pulp.LpStatus[self.prob.status])

    def chosen(self) -> dict[str, int]:
        return {p: max(range(len(xs)), key=lambda k: xs[k].value() or 0) for p, xs in self.x.items()}

    def choice_vector(self) -> tuple[int, ...]:
        ch = self.chosen()
        return tuple(self.configs[p][ch[p]].choices for p in POWERS)


def solve_worst_case(waives: bool = True, time_limit: float = 120.0,
                     game_map: Map | None = None) -> WorstCase:
    """The largest joint number of adjustment choices of a position that can occur."""
    start = time.perf_counter()
    m = game_map or standard_map()
    model = _Model(m, waives)
    status = model.solve(time_limit)
    if status == "Feasible":
        # time ran out before the proof: the best position found so far, not proven
        return WorstCase(waives, "timed out", math.prod(model.choice_vector()), _plans(model),
                         math.inf, time.perf_counter() - start, 0, False)
    if status != "Optimal":
        return WorstCase(waives, "timed out", 0, (), math.inf, time.perf_counter() - start, 0, False)
    pulp = model.pulp
    bound = pulp.value(model.objective)
    best_vector = model.choice_vector()
    best_plan = _plans(model)
    best = math.prod(best_vector)
    # exact check: every choice vector within BAND of the optimum, in integers
    values = {p: sorted({c.choices for c in model.configs[p]}) for p in POWERS}
    pick = {p: {v: pulp.lpSum(x for c, x in zip(model.configs[p], model.x[p]) if c.choices == v)
                for v in values[p]} for p in POWERS}
    seen = 0
    vector = best_vector
    confirmed = True
    while True:
        seen += 1
        # forbid this vector of choice counts and solve again: the next best vector
        model.prob += pulp.lpSum(pick[p][v] for p, v in zip(POWERS, vector)) <= len(POWERS) - 1
        left = time_limit - (time.perf_counter() - start)
        if left <= 0:
            confirmed = False
            break
        status = model.solve(left)
        if status == "Infeasible":
            break                             # no other vector at all
        if status != "Optimal":
            confirmed = False                 # time ran out
            break
        if pulp.value(model.objective) < bound - BAND:
            break                             # every vector left is clearly worse
        vector = model.choice_vector()
        if math.prod(vector) > best:
            best, best_vector, best_plan = math.prod(vector), vector, _plans(model)
    return WorstCase(waives, "optimal" if confirmed else "feasible", best, best_plan, bound,
                     time.perf_counter() - start, seen, confirmed)


def _plans(model: _Model) -> tuple[PowerPlan, ...]:
    ch = model.chosen()
    plans = []
    for p in POWERS:
        cfg = model.configs[p][ch[p]]
        prev = int(round(model.prev[p].value()))
        gain = int(round(model.gain[p].value()))
        plans.append(PowerPlan(p, cfg, prev, gain, prev + gain - cfg.centers))
    return tuple(plans)


# -- the witness position ------------------------------------------------------------------------

@dataclass(frozen=True)
class Witness:
    position: Position
    last_winter: dict[str, str]          # center -> owner last winter
    #: center -> (from, to): the centers that changed hands this Fall ("" = unowned)
    transfers: dict[str, tuple[str, str]]


def witness(plans: Iterable[PowerPlan], year: int = 1910, game_map: Map | None = None,
            time_limit: float = 30.0) -> Witness:
    """A real position with these plans: which centers each power owns now and owned last
    winter, and where its units stand (CP-SAT), checked by `occurrence_problems`."""
    from ortools.sat.python import cp_model
    m = game_map or standard_map()
    plans = {pl.power: pl for pl in plans}
    centers = sorted(m.centers)
    model = cp_model.CpModel()
    owners = list(POWERS)
    now = {(s, p): model.new_bool_var(f"now_{s}_{p}") for s in centers for p in owners}
    prev = {(s, p): model.new_bool_var(f"prev_{s}_{p}") for s in centers for p in owners}
    held = {(s, p): model.new_bool_var(f"held_{s}_{p}") for s in centers for p in owners}  # p's unit on s
    for s in centers:
        home = m.provinces[s].home
        model.add(sum(now[s, p] for p in owners) <= 1)
        model.add(sum(prev[s, p] for p in owners) <= 1)
        model.add(sum(held[s, p] for p in owners) <= 1)
        if home:
            model.add(sum(prev[s, p] for p in owners) == 1)   # home centers are always owned
        for p in owners:
            # a unit stands only in its own power's center (it would have taken it)
            model.add_implication(held[s, p], now[s, p])
            # a center that changed hands to p holds p's unit
            changed = model.new_bool_var(f"gained_{s}_{p}")
            model.add_bool_and([now[s, p], prev[s, p].Not()]).only_enforce_if(changed)
            model.add_bool_or([now[s, p].Not(), prev[s, p]]).only_enforce_if(changed.Not())
            model.add_implication(changed, held[s, p])
        # once owned, always owned
        model.add(sum(now[s, p] for p in owners) >= sum(prev[s, p] for p in owners))
    for p in owners:
        pl = plans[p]
        cfg = pl.config
        model.add(sum(now[s, p] for s in centers) == cfg.centers)
        model.add(sum(prev[s, p] for s in centers) == pl.centers_last_winter)
        model.add(sum(held[s, p] for s in centers) <= cfg.units)
        if cfg.centers > cfg.units:
            # a builder: its free home centers are exactly the configuration's
            for h in m.homes[p]:
                if h in cfg.free_homes:
                    model.add(now[h, p] == 1)
                    model.add(held[h, p] == 0)
                else:   # owned and empty would be one more place to build
                    model.add_implication(now[h, p], held[h, p])
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = 1      # one worker: the same witness every run
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise RuntimeError(f"no position realises these plans ({solver.status_name(status)})")
    owner_now = {s: p for s in centers for p in owners if solver.value(now[s, p])}
    owner_prev = {s: p for s in centers for p in owners if solver.value(prev[s, p])}
    units: list[Unit] = []
    taken: set[str] = set()
    for s in centers:
        for p in owners:
            if solver.value(held[s, p]):
                units.append(Unit(p, "A", s))
                taken.add(s)
    # the other units stand on provinces that are not supply centers: the powers take
    # turns, each its free province nearest to its home centers
    spare = [q for q in sorted(m.provinces) if q not in m.centers]
    need = {p: plans[p].config.units - sum(1 for u in units if u.power == p) for p in owners}
    while any(need.values()):
        for p in owners:
            if not need[p]:
                continue
            q = min((q for q in spare if q not in taken),
                    key=lambda q: (min(_steps(m, h, q) for h in m.homes[p]), q))
            kind = "F" if m.is_sea(q) else "A"
            units.append(Unit(p, kind, m.fleet_locations[q][0] if kind == "F" else q))
            taken.add(q)
            need[p] -= 1
    position = Position.build(Phase("Winter", year, "adjustment"), units, owner_now, game_map=m)
    transfers = {s: (owner_prev.get(s, ""), owner_now.get(s, "")) for s in centers
                 if owner_prev.get(s) != owner_now.get(s)}
    w = Witness(position, owner_prev, transfers)
    problems = occurrence_problems(position, owner_prev)
    if problems:
        raise RuntimeError("witness breaks the rules: " + "; ".join(problems))
    return w


def _steps(m: Map, a: str, b: str) -> int:
    """Moves between two provinces for a unit of any type."""
    from dipsolve.evaluation import distances
    return min(distances(m, kind, loc).get(b, 99)
               for kind, loc in [("A", a)] + [("F", f) for f in m.fleet_locations[a]]
               if m.can_stand(kind, loc))


def occurrence_problems(position: Position, last_winter: dict[str, str]) -> list[str]:
    """How a winter position with last winter's center owners breaks the rules listed in
    the module notes (empty when it can occur)."""
    m = position.map
    out = list(msg for msg, _ in position.problems())
    now = position.owner
    if len(now) > CENTERS or len(last_winter) > CENTERS:
        out.append("more than 34 centers owned")
    for h in sorted(set().union(*m.homes.values())):
        if h not in last_winter:
            out.append(f"home center {h} unowned last winter")
    for s in last_winter:
        if s not in now:
            out.append(f"{s} owned last winter, unowned now")
    for p in POWERS:
        had = sum(1 for o in last_winter.values() if o == p)
        if len(position.units_of(p)) > had:
            out.append(f"{p} has {len(position.units_of(p))} units but had {had} centers last winter")
        if len(position.centers_of(p)) > MOST or had > MOST:
            out.append(f"{p} has 18 or more centers: the game is over")
    for s, p in now.items():
        if last_winter.get(s) != p:
            u = position.unit_in.get(s)
            if u is None or u.power != p:
                out.append(f"{p} gained {s} this year but has no unit there")
    for s, u in position.unit_in.items():
        if s in m.centers and now.get(s) != u.power:
            out.append(f"{u.power}'s {u} stands in {s}, owned by {now.get(s, 'nobody')}")
    return out


def witness_text(w: Witness, result: WorstCase) -> str:
    """The witness as a ``.dip`` file whose header tells its history and its count."""
    plans = {pl.power: pl for pl in result.plans}
    claim = ("the most any position that can occur allows" if result.status == "optimal"
             else "the most found before the time limit, not proven the maximum")
    lines = [f"# Loeb's open problem ({'counting' if result.waives else 'not counting'} waives): "
             f"{result.product:,} joint adjustment choices,",
             f"# {claim} (dipsolve adjust --worst-case"
             f"{' --waives' if result.waives else ''}; status {result.status}).",
             "# Each power: units -> centers, choices; centers last winter."]
    for p in POWERS:
        pl = plans[p]
        cfg = pl.config
        what = (f"{cfg.builds} builds in {', '.join(cfg.free_homes) or 'no free home'}" if cfg.builds
                else f"{cfg.removals} removals" if cfg.removals else "no adjustment")
        lines.append(f"#   {p:8} {cfg.units:2} unit{'s' if cfg.units != 1 else ' '} -> "
                     f"{cfg.centers:2} centers: {what}: "
                     f"{cfg.choices:,} choices; {pl.centers_last_winter} centers last winter")
    lines.append("# Last winter's owners of the centers that changed hands this Fall:")
    for s, (a, b) in sorted(w.transfers.items()):
        lines.append(f"#   {s}: {a or 'unowned'} -> {b}")
    lines.append("")
    return "\n".join(lines) + w.position.to_text()


__all__ = ["Config", "PowerPlan", "Witness", "WorstCase", "configurations", "occurrence_problems",
           "seed_example", "solve_worst_case", "witness", "witness_text"]
