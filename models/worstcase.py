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
number of choices is known by formula (`dipsolve.algorithms.adjustments.build_count`,
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

The time limit is one `dipsolve.core.results.Deadline`: building the model, every CBC solve
(given the time left) and the witness look at it.  The answer before CBC has found one
is `home_plans` (every power keeps its home centers and builds in them: a position that
can occur), so there is always an answer; it is ``timed out`` unless proven.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from itertools import combinations
from typing import Iterable

from dipsolve.algorithms.adjustments import build_count, home_weights, removal_count, site_builds
from dipsolve.core.errors import DipsolveInternalError
from dipsolve.core.map import Map, standard_map
from dipsolve.core.position import Phase, Position, Unit
from dipsolve.models import stopping
from dipsolve.core.results import Deadline, Limits, Result, Status, TimeUp, limited

CENTERS = 34
HOME_CENTERS = 22
MOST = 17           # centers (and so units) a power can have while the game goes on
BAND = 1e-6         # the exact check enumerates products within this log-distance of the optimum
#: seconds CBC needs through PuLP beyond its own time limit (writing the model, starting
#: the process, reading the answer: 0.27 s in all at a 0.05 s limit, measured): with
#: less than twice this left, CBC is not started
CBC_START = 0.3
#: seconds the witness needs at least (loading CP-SAT alone takes about 0.3 s)
WITNESS_START = 0.5


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


@dataclass(frozen=True, kw_only=True)
class WorstCase(Result):
    """The answer to the open problem: ``objective`` is the product (the joint number of
    choices), ``bound`` the proven maximum (the product itself when ``optimal``; None
    otherwise).  ``optimal`` only when CBC proved the optimum and the exact check
    confirmed it; ``timed out`` when the time limit came first (the best plans so
    far)."""

    waives: bool
    product: int                  # the maximum joint number of adjustment choices
    plans: tuple[PowerPlan, ...]
    bound_log: float              # the log of the product CBC proved optimal (inf: none)
    checked_vectors: int          # choice vectors enumerated by the exact check
    confirmed: bool               # the exact check found nothing larger


def configurations(game_map: Map, power: str, waives: bool,
                   deadline: Deadline | None = None) -> list[Config]:
    """The power's configurations worth considering: every units/centers pair up to 17,
    and for a builder each number of free home centers with its best set of them."""
    homes = sorted(game_map.homes[power])
    weight = {h: len(site_builds(game_map, h)) for h in homes}
    out = []
    for n in range(MOST + 1):
        if deadline is not None:
            deadline.check()
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


def home_plans(game_map: Map, waives: bool) -> tuple[PowerPlan, ...]:
    """A position that can occur, found without a solver: every power owns its home
    centers (as last winter: nothing changed hands), all of them free, and has the
    number of units elsewhere that gives it the most build choices.  The answer before
    CBC has found a better one (9,400,320 choices without waives, 3,673,320,192 with)."""
    plans = []
    for p in game_map.powers:
        weights = home_weights(game_map, p)
        homes = tuple(sorted(game_map.homes[p]))
        c = len(homes)
        choices, n = max((build_count(weights, c - n, waives), -n) for n in range(c + 1))
        free = homes if -n < c else ()
        plans.append(PowerPlan(p, Config(-n, c, free, choices), c, 0, 0))
    return tuple(plans)


def seed_example() -> dict[str, tuple[int, int, int]]:
    """Loeb's example: power -> (units, centers, choices as the seed counts them)."""
    return {"Austria": (17, 8, 24310), "Germany": (1, 2, 2), "France": (3, 5, 8),
            "Turkey": (3, 5, 12), "England": (3, 5, 12), "Italy": (3, 5, 12), "Russia": (4, 6, 17)}


# -- the ILP ------------------------------------------------------------------------------------

class _Model:
    """The log-linear ILP (PuLP); `extra` constraints serve the exact check."""

    def __init__(self, game_map: Map, waives: bool, deadline: Deadline | None = None):
        self.powers = game_map.powers
        self.configs = {p: configurations(game_map, p, waives, deadline) for p in self.powers}
        import pulp
        self.pulp = pulp
        prob = pulp.LpProblem("loeb_worst_case", pulp.LpMaximize)
        self.x = {}
        for p, cs in self.configs.items():
            self.x[p] = [pulp.LpVariable(f"x_{p}_{k}", cat="Binary") for k in range(len(cs))]
            if deadline is not None:
                deadline.check()
        self.prev = {p: pulp.LpVariable(f"prev_{p}", 0, MOST, cat="Integer") for p in self.powers}
        self.gain = {p: pulp.LpVariable(f"gain_{p}", 0, MOST, cat="Integer") for p in self.powers}
        units, centers, free, self.log = {}, {}, {}, {}
        for p in self.powers:
            cs, xs = self.configs[p], self.x[p]
            prob += pulp.lpSum(xs) == 1
            units[p] = pulp.lpSum(c.units * v for c, v in zip(cs, xs))
            centers[p] = pulp.lpSum(c.centers * v for c, v in zip(cs, xs))
            free[p] = pulp.lpSum(len(c.free_homes) * v for c, v in zip(cs, xs))
            self.log[p] = pulp.lpSum(math.log(c.choices) * v for c, v in zip(cs, xs) if c.choices > 1)
            if deadline is not None:
                deadline.check()
        lost = {p: self.prev[p] + self.gain[p] - centers[p] for p in self.powers}
        for p in self.powers:
            prob += units[p] <= self.prev[p]                 # units <= last winter's centers
            prob += self.gain[p] <= units[p]                 # gains are occupied by own units
            prob += self.gain[p] <= centers[p] - free[p]     # free home centers were kept
            prob += lost[p] >= 0
            prob += lost[p] <= pulp.lpSum(self.gain[q] for q in self.powers if q != p)  # lost to others
        prob += pulp.lpSum(self.prev.values()) <= CENTERS
        prob += pulp.lpSum(self.prev.values()) >= HOME_CENTERS
        prob += pulp.lpSum(centers.values()) <= CENTERS
        prob += pulp.lpSum(centers.values()) >= pulp.lpSum(self.prev.values())
        self.objective = pulp.lpSum(self.log.values())
        prob += self.objective
        self.prob = prob
        self.centers, self.units = centers, units

    def solve(self, deadline: Deadline) -> str:
        """Solve with CBC in the time left (less what CBC needs to start and stop);
        "Not Solved" without starting it when too little is left.

        On one thread: the optimum has ties (plans of the same product), and CBC's two
        threads picked among them by timing, so a loaded machine gave another plan (the
        golden test's flake); one thread gives the same plan every run, as fast here
        (3.5 s against 3.4 s for the whole worst case)."""
        pulp = self.pulp
        # seconds: CBC counts no work of ours (under a node limit it runs to the time
        # limit, the safety net, and a solve it cuts short says the time came first)
        left = deadline.seconds_left()
        if left < 2 * CBC_START or deadline.expired():
            deadline.out_of_time()
            return "Not Solved"
        solver = pulp.PULP_CBC_CMD(msg=False, timeLimit=left - CBC_START,
                                   gapRel=0, gapAbs=1e-9, threads=1)
        stopping.pulp_solve(self.prob, solver)
        # "Optimal" only when CBC proved it (sol_status 1); 2 is a solution found before
        # the time limit, 0 none
        status = {1: "Optimal", 2: "Feasible", 0: "Not Solved", -1: "Infeasible"}.get(
            self.prob.sol_status, pulp.LpStatus[self.prob.status])
        if status in ("Feasible", "Not Solved"):
            deadline.out_of_time()
        return status

    def chosen(self) -> dict[str, int]:
        return {p: max(range(len(xs)), key=lambda k: xs[k].value() or 0) for p, xs in self.x.items()}

    def choice_vector(self) -> tuple[int, ...]:
        ch = self.chosen()
        return tuple(self.configs[p][ch[p]].choices for p in self.powers)


#: `solve_worst_case`'s settings when none are given: two minutes
WORST_CASE_LIMITS = Limits(time_limit=120.0)
#: `witness`'s settings when none are given: 30 seconds, one worker, seed 0
WITNESS_LIMITS = Limits(time_limit=30.0)


def solve_worst_case(waives: bool = True, game_map: Map | None = None, *,
                     limits: Limits | None = None, deadline: Deadline | None = None) -> WorstCase:
    """The largest joint number of adjustment choices of a position that can occur.

    ``limits.time_limit`` (`dipsolve.Limits`, default `WORST_CASE_LIMITS`) or a
    ``deadline`` bounds the whole call; at the deadline the best plans so far are
    returned (`home_plans` before CBC has found any)."""
    if deadline is None:
        deadline = (limits or WORST_CASE_LIMITS).deadline()
    m = game_map or standard_map()
    fallback = home_plans(m, waives)

    def unproven(plans: tuple[PowerPlan, ...], checked: int = 0,
                 bound_log: float = math.inf) -> WorstCase:
        if math.prod(pl.choices for pl in fallback) > math.prod(pl.choices for pl in plans):
            plans = fallback
        product = math.prod(pl.choices for pl in plans)
        return limited(WorstCase(status=Status.TIMED_OUT, objective=float(product), bound=None,
                                 seconds=deadline.seconds(), waives=waives, product=product,
                                 plans=plans, bound_log=bound_log, checked_vectors=checked,
                                 confirmed=False), deadline)

    try:
        deadline.check()
        model = _Model(m, waives, deadline)
    except TimeUp:
        return unproven(fallback)
    status = model.solve(deadline)
    if status == "Feasible":
        # time ran out before the proof: the best position found so far, not proven
        return unproven(_plans(model))
    if status == "Infeasible":
        raise DipsolveInternalError("the worst-case ILP is infeasible, but home_plans "
                                    "is a solution of it")
    if status != "Optimal":
        return unproven(fallback)
    pulp = model.pulp
    bound = pulp.value(model.objective)
    best_vector = model.choice_vector()
    best_plan = _plans(model)
    best = math.prod(best_vector)
    # exact check: every choice vector within BAND of the optimum, in integers
    values = {p: sorted({c.choices for c in model.configs[p]}) for p in model.powers}
    pick = {p: {v: pulp.lpSum(x for c, x in zip(model.configs[p], model.x[p]) if c.choices == v)
                for v in values[p]} for p in model.powers}
    seen = 0
    vector = best_vector
    confirmed = True
    while True:
        seen += 1
        # forbid this vector of choice counts and solve again: the next best vector
        model.prob += pulp.lpSum(pick[p][v] for p, v in zip(model.powers, vector)) <= len(model.powers) - 1
        status = model.solve(deadline)
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
    if not confirmed:       # CBC's optimum, not yet compared in integers with its rivals
        return unproven(best_plan, seen, bound)
    return WorstCase(status=Status.OPTIMAL, objective=float(best), bound=float(best),
                     seconds=deadline.seconds(), waives=waives, product=best, plans=best_plan,
                     bound_log=bound, checked_vectors=seen, confirmed=True)


def _plans(model: _Model) -> tuple[PowerPlan, ...]:
    ch = model.chosen()
    plans = []
    for p in model.powers:
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


def witness(plans: Iterable[PowerPlan], year: int = 1910, game_map: Map | None = None, *,
            limits: Limits | None = None, deadline: Deadline | None = None) -> Witness:
    """A real position with these plans: which centers each power owns now and owned last
    winter, and where its units stand (CP-SAT), checked by `occurrence_problems`.
    Raises `dipsolve.core.results.TimeUp` when ``deadline`` (or ``limits.time_limit``,
    default `WITNESS_LIMITS`) leaves too little time to find it (`WITNESS_START` when
    CP-SAT is not loaded yet).  ``limits.seed`` is CP-SAT's (`dipsolve.models.cpsat`)."""
    limits = limits or WITNESS_LIMITS
    seed = limits.seed
    if deadline is None:
        deadline = limits.deadline()
    loaded = "ortools.sat.python.cp_model" in sys.modules
    if deadline.seconds_left() < (0.05 if loaded else WITNESS_START) or deadline.expired():
        raise TimeUp
    from ortools.sat.python import cp_model
    from dipsolve.models.cpsat import cpsat_solver
    m = game_map or standard_map()
    by_power = {pl.power: pl for pl in plans}
    centers = sorted(m.centers)
    model = cp_model.CpModel()
    owners = list(m.powers)
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
        pl = by_power[p]
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
    left = deadline.remaining()
    if left <= 0:
        raise TimeUp
    # one worker: the same witness every run
    solver = cpsat_solver(left, workers=1, seed=seed, deadline=deadline)
    status = stopping.cpsat_solve(solver, model, deadline)
    if status == cp_model.UNKNOWN:
        raise TimeUp
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise DipsolveInternalError(f"no position realises these plans "
                                    f"({solver.status_name(status)})")
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
    need = {p: by_power[p].config.units - sum(1 for u in units if u.power == p) for p in owners}
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
        raise DipsolveInternalError("witness breaks the rules: " + "; ".join(problems))
    return w


def _steps(m: Map, a: str, b: str) -> int:
    """Moves between two provinces for a unit of any type."""
    from dipsolve.algorithms.evaluation import distances
    return min(distances(m, kind, loc).get(b, 99) for kind, loc in m.unit_places(a))


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
    for p in position.map.powers:
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


def witness_text(w: Witness | None, result: WorstCase) -> str:
    """The witness as a ``.dip`` file whose header tells its history and its count (with
    no witness, found too late: the header alone, which says so)."""
    plans = {pl.power: pl for pl in result.plans}
    claim = ("the most any position that can occur allows" if result.status == "optimal"
             else "the most found before the time limit, not proven the maximum")
    lines = [f"# Loeb's open problem ({'counting' if result.waives else 'not counting'} waives): "
             f"{result.product:,} joint adjustment choices,",
             f"# {claim} (dipsolve adjust --worst-case"
             f"{' --waives' if result.waives else ''}; status {result.status}).",
             "# Each power: units -> centers, choices; centers last winter."]
    for p in plans:
        pl = plans[p]
        cfg = pl.config
        what = (f"{cfg.builds} builds in {', '.join(cfg.free_homes) or 'no free home'}" if cfg.builds
                else f"{cfg.removals} removals" if cfg.removals else "no adjustment")
        lines.append(f"#   {p:8} {cfg.units:2} unit{'s' if cfg.units != 1 else ' '} -> "
                     f"{cfg.centers:2} centers: {what}: "
                     f"{cfg.choices:,} choices; {pl.centers_last_winter} centers last winter")
    if w is None:
        lines.append("# No witness position: the time limit came before CP-SAT could place one.")
        return "\n".join(lines) + "\n"
    lines.append("# Last winter's owners of the centers that changed hands this Fall:")
    for s, (a, b) in sorted(w.transfers.items()):
        lines.append(f"#   {s}: {a or 'unowned'} -> {b}")
    lines.append("")
    return "\n".join(lines) + w.position.to_text()


__all__ = ["CBC_START", "Config", "PowerPlan", "WITNESS_START", "Witness", "WorstCase",
           "configurations", "home_plans", "occurrence_problems", "seed_example",
           "solve_worst_case", "witness", "witness_text"]
