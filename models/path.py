"""The exact fastest path to N supply centers for a power alone on the board: horizons tried under one deadline.

The question of Stormont & Allan (seed ``001_…``): how soon can a power own N centers
(16 as in the paper, 18 to win) if nobody opposes it?  The paper's searches
(`dipsolve.algorithms.path`) flood the map graph; this module answers with real units, exactly,
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

``opposition`` (`dipsolve.models.path_problem.OPPOSITIONS`; the full rules only) says who
stands in the way.  ``none`` is the seed's question: the other powers' units are taken
off the board, their centers stay theirs.  ``hold``: their units stay and hold; a unit of
ours dislodges one only with more strength than its hold (one support), and the unit
dislodged is destroyed; they never build, and a power of theirs that owes removals
makes none (the defence at its strongest: a unit of theirs never helps the plan); a
center they stand on at the end of a Fall is theirs, ours included.  ``supported``: as
``hold``, and each of their units may support the hold of any one neighbour every
phase; the plan must succeed against every such choice: each attack of ours on a unit
of theirs must be stronger than its hold with every support that no move of ours cuts
(an attack from anywhere but the province supported cuts a support, by the rules, even
one that bounces).  The plan is replayed against the opposition's orders: holds, or
under ``supported`` each unit of theirs supporting the neighbour whose attack has the
least to spare (`dipsolve.models.path_replay.opposition_orders`).  ``defence`` gives
their orders in some movement phases (a known defence: holds and supports of a hold,
`dipsolve.models.path_defence.given_defence`); in those phases the plan need beat only
the supports given, and the replay plays them.

The work is split by job: `dipsolve.models.path_problem` (the phases, the problem read
from the position, the places a unit may stand), `dipsolve.models.path_bound` (the
lower bound that explains itself), `dipsolve.models.path_model` (the CP-SAT model of one
horizon), `dipsolve.models.path_replay` (the adjudicator's check of a plan) and this
module, which tries the horizons and returns the answer (`solve_path`, `PathSolution`).

The solve tries horizons (numbers of movement phases) upward from a lower bound that
explains itself (`lower_bound`): every shorter horizon is either ruled out by that
argument or proven infeasible by CP-SAT, so the first feasible horizon is optimal.
Under a time limit the search is anytime: a horizon CP-SAT cannot decide in half the
time left is passed over, a plan at a later horizon is kept (``feasible``), and the time
that remains goes back to the horizons passed over.  Every plan is replayed through
`dipsolve.core.adjudicator.adjudicate`, with the power alone on the board, before it is
returned: each order must succeed and the replay must reach N centers in the phase the
plan claims (`replay`).

The time limit is one `dipsolve.core.results.Deadline` for the whole call: the set-up (the
problem and the lower bound: milliseconds, always finished, so that every answer
carries its bound) counts against it, and each horizon's model build, the CP-SAT solves
(each given at most the time that remains) and the replays look at it.  When it passes in the
middle of a build or a replay, that horizon's work is dropped (a plan is never returned
unreplayed) and the answer is the best one so far, with a note saying where the time
ran out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from ortools.sat.python import cp_model

from dipsolve.core.adjudicator import Outcome
from dipsolve.core.position import Phase, Position
from dipsolve.models import stopping
from dipsolve.core.results import Deadline, Limits, Result, Status, TimeUp, limited

from .path_bound import LowerBound, lower_bound
from .path_model import FullModel, PaperModel, cp_solver
from .path_problem import RULES, Defence, phases_from, problem, schedule, years_between
from .path_replay import PlanPhase, ReplayError, replay

__all__ = ["solve_path", "PathSolution", "Attempt", "LowerBound", "PlanPhase", "ReplayError",
           "lower_bound", "replay", "schedule", "phases_from", "years_between", "RULES"]

#: no CP-SAT solve is started with less time than this left
MIN_SOLVE = 0.01
#: CP-SAT stops a few milliseconds after its ``max_time_in_seconds`` (loading the model,
#: stopping its workers: 4 to 9 ms measured on these models), so it is asked for this
#: much less than the time that remains
CP_SAT_OVERRUN = 0.01


# -- the answer ------------------------------------------------------------------------------

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
            what = "CP-SAT ran out of time or nodes (undecided)"
        return f"{self.phase}: {what} ({self.variables:,} variables, {self.seconds:.2f} s)"


@dataclass(frozen=True, kw_only=True)
class PathSolution(Result):
    """The fastest path: the `Result` fields, then the path's own.

    ``status``: optimal (proven shortest), feasible (a plan, not proven shortest),
    infeasible (no plan can reach the target), timed out (time ran out before any plan);
    ``objective``: the movement phases of the plan (None without a plan; 0 when the power
    already has the target); ``bound``: proven, no plan has fewer movement phases (None
    when the counting argument shows no horizon reaches the target, or did not finish);
    ``seconds``: the wall time of the whole call, set-up included."""

    power: str
    target: int
    rules: str
    start: Phase
    #: who stands in the way (`dipsolve.models.path_problem.OPPOSITIONS`)
    opposition: str = "none"
    #: the movement phases in which the others played a known defence (``defence``)
    defended: tuple[str, ...] = ()
    years: int | None            # game years of the plan (the first movement year counts as one)
    reached: str | None          # the phase after which the replay has the target: "F1903M"
    bound_years: int | None      # the bound in game years, and its phase ("F1903M")
    bound_phase: str | None
    lower_bound: LowerBound
    plan: tuple[PlanPhase, ...] = ()
    #: the adjudicator's outcome of each phase of the replay (for pictures)
    outcomes: tuple[Outcome, ...] = field(default=(), repr=False)
    attempts: tuple[Attempt, ...] = ()
    #: where the time ran out, when it did (a line of the explanation)
    notes: tuple[str, ...] = ()

    @property
    def optimal(self) -> bool:
        return self.status == Status.OPTIMAL

    def explanation(self) -> list[str]:
        """Why no plan is shorter: the lower bound's argument, then each CP-SAT attempt
        (and where the time ran out, if it did)."""
        return (list(self.lower_bound.lines) + [a.line(self.target) for a in self.attempts]
                + list(self.notes))


def phases_until(start: Phase, wanted: Sequence[Phase] | dict) -> list[Phase]:
    """The phases of ``wanted`` (each one of a path's from ``start``) in game order."""
    left, out = set(wanted), list[Phase]()
    for ph in phases_from(start):
        if not left:
            return out
        if ph in left:
            out.append(ph)
            left.discard(ph)
    raise AssertionError("unreachable")  # pragma: no cover  (phases_from never ends)


# -- solving ---------------------------------------------------------------------------------

#: `solve_path`'s settings when none are given: a minute, one worker, seed 0
PATH_LIMITS = Limits(time_limit=60.0)


def solve_path(position: Position, power: str, target: int = 16, rules: str = "full",
               max_moves: int = 40, progress: Callable[[Attempt], None] | None = None, *,
               opposition: str = "none", defence: Defence | None = None,
               limits: Limits | None = None, deadline: Deadline | None = None) -> PathSolution:
    """The fewest movement phases (hence game years) until ``power``, alone on the board
    from ``position``, has ``target`` centers; with a replayed plan and its proof.

    Horizons are tried upward from the lower bound.  A horizon CP-SAT proves infeasible
    raises the proven bound; one it cannot decide in half the time left is passed over,
    and the time left after a later plan is found goes back to it.  ``progress`` is
    called after each CP-SAT attempt.  ``limits`` (`dipsolve.Limits`: the one way every
    solver takes its settings; default `PATH_LIMITS`) sets the time limit, CP-SAT's
    workers and its seed.  With one worker the same seed gives the same plan, run after
    run, when the time limit does not cut a solve short (`dipsolve.models.cpsat`).
    ``deadline`` (default: ``limits.time_limit`` seconds from now) is the one clock of
    the whole call: pass one to count work done before the call, or to test with a clock
    of your own.
    """
    limits = limits or PATH_LIMITS
    workers, seed = limits.workers, limits.seed
    if deadline is None:
        deadline = limits.deadline()
    pb = problem(position, power, target, rules, opposition, defence)
    attempts: list[Attempt] = []
    notes: list[str] = []

    def done(status: Status, lb: LowerBound, bound_moves: int | None, moves: int | None = None,
             plan: Sequence[PlanPhase] = (), outcomes: Sequence[Outcome] = ()) -> PathSolution:
        last = schedule(pb.start, moves)[-1] if moves else None
        bound = schedule(pb.start, bound_moves)[-1] if bound_moves else None
        return PathSolution(
            status=status, objective=moves, bound=bound_moves, seconds=deadline.seconds(),
            power=power, target=target, rules=rules, opposition=opposition, start=pb.start,
            defended=tuple(ph.short for ph in phases_until(pb.start, pb.defence)),
            years=None if moves is None else (years_between(pb.start, last) if last else 0),
            reached=None if moves is None else (last.short if last else pb.start.short),
            bound_years=None if bound_moves is None else (years_between(pb.start, bound) if bound else 0),
            bound_phase=None if bound_moves is None else (bound.short if bound else pb.start.short),
            lower_bound=lb, plan=tuple(plan), outcomes=tuple(outcomes), attempts=tuple(attempts),
            notes=tuple(notes))

    lb = lower_bound(position, power, target, rules)     # milliseconds: always finished
    if lb.moves is None:
        return done(Status.INFEASIBLE, lb, None)
    if lb.moves == 0:
        return done(Status.OPTIMAL, lb, 0, 0)
    horizons = [n for n in range(lb.moves, max_moves + 1) if pb.can_reach_goal(schedule(pb.start, n)[-1])]
    infeasible: set[int] = set()
    undecided: list[int] = []
    best: tuple[int, list[PlanPhase], list[Outcome]] | None = None
    doing = ""                      # what the time is being spent on (for the note)

    def proven() -> int:
        """No plan has fewer movement phases: the bound, raised past every horizon
        proven infeasible from it upward."""
        return next((n for n in horizons if n not in infeasible), max_moves + 1)

    def attempt(n: int, share: float) -> str:
        """Solve horizon n with at most ``share`` seconds (never past the deadline); keep
        its plan if it has one.  Returns CP-SAT's status name; raises `TimeUp`."""
        nonlocal best, doing
        t0 = deadline.seconds()
        phases = schedule(pb.start, n)
        if deadline.remaining() < MIN_SOLVE:
            doing = f"before {phases[-1].short} was tried"
            raise TimeUp
        doing = f"while building the model of {phases[-1].short}"
        mdl = FullModel(pb, phases, deadline) if pb.full else PaperModel(pb, phases, deadline)
        seconds = min(share, deadline.remaining() - CP_SAT_OVERRUN)
        if seconds < MIN_SOLVE:
            raise TimeUp
        doing = f"while solving {phases[-1].short}"
        solver = cp_solver(seconds, workers, max_lp=pb.full, seed=seed, deadline=deadline,
                           opposed=bool(pb.enemies))
        status = stopping.cpsat_solve(solver, mdl.model, deadline)
        name = solver.status_name(status)
        attempts.append(Attempt(n, phases[-1].short, name, deadline.seconds() - t0, mdl.variables()))
        if progress:
            progress(attempts[-1])
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            doing = f"while replaying the plan of {phases[-1].short} (a plan is never returned unreplayed)"
            plan, outcomes = replay(position, power, mdl.plan(solver), rules, opposition=opposition,
                                    bounces=mdl.bounces(solver), defence=pb.defence,
                                    deadline=deadline)
            if not plan or plan[-1].phase != phases[-1] or plan[-1].centers < target:
                got = plan[-1].centers if plan else 0
                raise ReplayError(f"the replay has {got} centers after {phases[-1].short}, not {target}")
            best = (n, plan, outcomes)
        elif status == cp_model.INFEASIBLE:
            infeasible.add(n)
        return name

    try:
        # upward until a plan is found; undecided horizons get half the time left
        for n in horizons:
            left = deadline.remaining()
            name = attempt(n, left if n == horizons[-1] else left / 2)
            if best:
                break
            if name == "UNKNOWN":
                undecided.append(n)
        # back to the horizons passed over, with the time that is left
        for n in undecided:
            if not best or n >= best[0]:
                break
            if attempt(n, deadline.remaining()) == "UNKNOWN":
                break
    except TimeUp:
        notes.append(f"{deadline.limit_name()} came {doing}")
    bound = proven()
    if best is None:
        timed_out = bound <= max_moves
        return limited(done(Status.TIMED_OUT if timed_out else Status.INFEASIBLE, lb, bound), deadline)
    n, plan, outcomes = best
    return done(Status.OPTIMAL if n <= bound else Status.FEASIBLE, lb, bound, n, plan, outcomes)
