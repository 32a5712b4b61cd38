"""The exact fastest path (`dipsolve.models.path`): plans that replay, bounds that hold,
answers that are proven, and the anytime behaviour under a time limit (the deadline's
logic tested with a clock moved by hand, never the wall clock).

The replays here go through `dipsolve.core.adjudicator.adjudicate` directly, not through the
model's own `replay`, so a plan the model gets wrong cannot pass by agreeing with itself.
"""

from __future__ import annotations

import pytest
from dipsolve.core.results import Limits
import dipsolve.models.path as path_model
from dipsolve.core.adjudicator import adjudicate
from dipsolve.core.map import POWERS
from dipsolve.models.path import ReplayError, lower_bound, replay, schedule, solve_path
from dipsolve.models.path_model import FullModel
from dipsolve.core.orders import Hold, Move
from dipsolve.core.position import Phase, Position, Unit
from dipsolve.core.results import Deadline, Result, Status

START = Position.initial()

#: game years to 16 and to 18 centers under the full rules, each proven optimal (docs/path.md's table)
YEARS = {"Austria": (3, 3), "England": (3, 4), "France": (3, 3), "Germany": (3, 3),
         "Italy": (3, 3), "Russia": (3, 3), "Turkey": (3, 4)}


def play(position: Position, power: str, sol) -> tuple[Position, set[str]]:
    """Replay ``sol``'s plan with the adjudicator alone; every order must succeed.
    Returns the last position and the centers stood on after any movement phase."""
    pos = Position.build(position.phase, position.units_of(power), position.centers)
    stood = {pos.map.province_of[u.location] for u in pos.units}
    for step in sol.plan:
        while pos.phase != step.phase:              # a Winter with nothing to do
            assert pos.phase.kind == "adjustment" and step.phase.kind != "adjustment"
            pos = adjudicate(pos, {}).next
        outcome = adjudicate(pos, {power: list(step.orders)})
        assert all(r.success for r in outcome.results), [str(r) for r in outcome.results if not r.success]
        assert not outcome.destroyed or step.phase.kind == "adjustment"   # removals only
        pos = outcome.next
        stood |= {pos.map.province_of[u.location] for u in pos.units}
    return pos, stood & pos.map.centers


@pytest.mark.parametrize("power", [p if p == "Germany" else pytest.param(p, marks=pytest.mark.slow)
                                   for p in POWERS])            # one power in the quick run, all in CI
def test_every_power_reaches_16_and_18_in_the_proven_fewest_years(power):
    for target, years in zip((16, 18), YEARS[power]):
        sol = solve_path(START, power, target, limits=Limits(time_limit=60))
        assert sol.status == "optimal", (target, sol.explanation())
        assert sol.years == years and sol.bound_years == years and sol.objective == sol.bound == 2 * years
        assert sol.reached == f"F{1900 + years}M" and sol.plan[-1].phase.short == sol.reached
        end, _ = play(START, power, sol)
        assert len(end.centers_of(power)) >= target            # right after the Fall claimed
        assert end.phase in (Phase("Winter", 1900 + years, "adjustment"), Phase("Spring", 1901 + years, "movement"))
        assert [p.centers for p in sol.plan][-1] == len(end.centers_of(power))


def test_the_bound_explains_itself_and_cp_sat_closes_the_gap():
    lb = lower_bound(START, "Germany", 18)
    assert (lb.moves, lb.phase, lb.years) == (6, "F1903M", 3)
    assert "F1902M: at most 12 centers (6 + at most one new center for each of its 6 units)" in lb.lines
    assert "W1902A: at most 9 units (6 + at most 3 builds: one per home center it can own, no more than " \
           "centers exceed units)" in lb.lines
    # Russia: the counting argument allows 16 in 1902 (4 + 4, build 4, 8 + 8); CP-SAT says no
    lb = lower_bound(START, "Russia", 16)
    assert lb.phase == "F1902M"
    sol = solve_path(START, "Russia", 16)
    assert [(a.phase, a.status) for a in sol.attempts] == [("F1902M", "INFEASIBLE"), ("F1903M", "OPTIMAL")]
    assert sol.bound_phase == "F1903M" and sol.status == "optimal"
    assert sol.explanation()[-2].startswith("F1902M: CP-SAT proved that no plan reaches 16 by then")


def test_no_plan_is_shorter_than_the_bound_says():
    """The bound is a real bound: the exact answer is never earlier, for every power."""
    for power in POWERS:
        for rules in ("full", "paper"):
            lb = lower_bound(START, power, 18, rules)
            assert lb.moves is not None and lb.moves <= 2 * YEARS[power][1]


def test_a_hopeless_target_is_infeasible_by_the_argument_alone():
    # Germany has lost its home centers and all its units: it can never build again
    pos = Position.build("S1905M", [Unit("France", "A", "PAR")], {"DEN": "Germany", "PAR": "France"})
    sol = solve_path(pos, "Germany", 5)
    assert sol.status == "infeasible" and sol.plan == () and sol.attempts == ()
    assert sol.explanation()[-1] == "neither cap grows any more: 5 centers are out of reach"


def test_the_paper_framing_beside_the_real_rules():
    full = solve_path(START, "Russia", 16, rules="full")
    paper = solve_path(START, "Russia", 16, rules="paper")
    assert (full.status, full.reached) == ("optimal", "F1903M")
    assert (paper.status, paper.reached, paper.objective) == ("optimal", "F1902M", 4)
    # the paper's count: centers stood on by the four starting units; no builds, no convoys
    end, stood = play(START, "Russia", paper)
    assert len(stood | set(START.centers_of("Russia"))) >= 16
    assert len(end.units_of("Russia")) == 4
    assert all(type(o) in (Hold, Move) and not getattr(o, "via_convoy", False)
               for p in paper.plan for o in p.orders)


def test_from_a_position_other_powers_are_taken_off_and_removals_are_made():
    # Winter 1901: Germany has four units and three centers: one must go
    pos = Position.build("W1901A", [Unit("Germany", "A", "BER"), Unit("Germany", "A", "MUN"),
                                    Unit("Germany", "F", "KIE"), Unit("Germany", "A", "RUH"),
                                    Unit("France", "A", "BUR")],
                         {"BER": "Germany", "KIE": "Germany", "MUN": "Germany", "PAR": "France"})
    sol = solve_path(pos, "Germany", 6)
    assert sol.status == "optimal" and sol.reached == "F1902M" and sol.years == 1
    assert sol.plan[0].phase.short == "W1901A" and [str(o) for o in sol.plan[0].orders][0].endswith(" D")
    end, _ = play(pos, "Germany", sol)
    assert len(end.centers_of("Germany")) >= 6


def test_a_convoy_plan_replays():
    # England must convoy its army off the island to reach 16 by 1903
    sol = solve_path(START, "England", 16)
    orders = [o for p in sol.plan for o in p.orders]
    assert any(isinstance(o, Move) and o.via_convoy for o in orders)
    play(START, "England", sol)


def test_replay_refuses_a_plan_the_adjudicator_does_not_play_out():
    bounce = [(Phase("Spring", 1901, "movement"), (Move("A", "BER", "KIE"), Hold("F", "KIE")))]
    with pytest.raises(ReplayError, match="bounced"):
        replay(START, "Germany", bounce)
    late = [(Phase("Fall", 1901, "movement"), ())]
    with pytest.raises(ReplayError, match="adjudicator reached Spring 1901"):
        replay(START, "Germany", late)


def test_time_limit_without_a_plan_is_timed_out_with_the_bound():
    sol = solve_path(START, "England", 18, limits=Limits(time_limit=0.001))
    assert sol.status == "timed out" and sol.plan == () and sol.bound_phase == "F1903M"
    assert sol.seconds < 5


def test_a_plan_found_past_an_undecided_horizon_is_only_feasible(monkeypatch):
    """Anytime: when CP-SAT cannot decide 1903 in its time, the 1904 plan it finds is
    returned as feasible, with the bound still at 1903."""
    real = path_model.cp_solver

    def starved(seconds, workers, max_lp, seed=0, deadline=None, opposed=False):
        solver = real(seconds, workers, max_lp, seed, deadline, opposed)
        if starved.calls % 2 == 0:                     # horizons of 1903 get no time at all
            solver.parameters.max_deterministic_time = 0.0
        starved.calls += 1
        return solver
    starved.calls = 0
    monkeypatch.setattr(path_model, "cp_solver", starved)
    sol = solve_path(START, "Germany", 18, limits=Limits(time_limit=30))
    assert [(a.phase, a.status) for a in sol.attempts] == [("F1903M", "UNKNOWN"), ("F1904M", "OPTIMAL"),
                                                          ("F1903M", "UNKNOWN")]
    assert sol.status == "feasible" and sol.reached == "F1904M" and sol.bound_phase == "F1903M"
    play(START, "Germany", sol)


def test_schedule_and_years():
    assert [p.short for p in schedule(Phase("Spring", 1901, "movement"), 3)] == \
        ["S1901M", "F1901M", "W1901A", "S1902M"]
    assert [p.short for p in schedule(Phase("Winter", 1901, "adjustment"), 1)] == ["W1901A", "S1902M"]
    assert path_model.years_between(Phase("Winter", 1901, "adjustment"), Phase("Fall", 1902, "movement")) == 1


# -- the time limit: one deadline for the whole call (an injected clock, never the wall) -------

class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def spy_solver(monkeypatch, clock: Clock | None = None, jump_to: float | None = None) -> list[float]:
    """Record the seconds each CP-SAT solve is given; optionally move the clock to
    ``jump_to`` as the solve starts (time spent solving)."""
    real, given = path_model.cp_solver, []

    def spy(seconds, workers, max_lp, seed=0, deadline=None, opposed=False):
        given.append(seconds)
        if clock is not None and jump_to is not None:
            clock.now = jump_to
        return real(seconds, workers, max_lp, seed, deadline, opposed)
    monkeypatch.setattr(path_model, "cp_solver", spy)
    return given


def test_cp_sat_gets_the_time_that_remains_after_the_build(monkeypatch):
    clock = Clock()
    given = spy_solver(monkeypatch)
    real = path_model.FullModel

    def slow_build(pb, phases, deadline):
        model = real(pb, phases, deadline)
        clock.now += 35.0                                 # the build took 35 s
        return model
    monkeypatch.setattr(path_model, "FullModel", slow_build)
    sol = solve_path(START, "Germany", 18, deadline=Deadline(40.0, clock=clock))
    # F1903M is not the last horizon: half the time left (20 s) was its share, but only
    # 5 s remained once its model was built (less CP-SAT's overrun); CP-SAT runs on real
    # time, so the 5 s leave it room to prove its answer on a busy machine (1 s did not)
    assert given == [pytest.approx(5.0 - path_model.CP_SAT_OVERRUN)]
    assert sol.status == "optimal" and sol.seconds == 35.0         # the deadline's own clock
    assert sol.attempts[0].seconds == 35.0


def test_time_running_out_in_a_build_stops_it(monkeypatch):
    clock = Clock()
    given = spy_solver(monkeypatch)
    real = FullModel._movement

    def movement(self, *args):
        clock.now += 1.0                                  # each movement stage takes 1 s
        return real(self, *args)
    monkeypatch.setattr(FullModel, "_movement", movement)
    sol = solve_path(START, "England", 18, deadline=Deadline(2.5, clock=clock))
    assert given == [] and sol.attempts == () and sol.plan == ()
    assert sol.status == "timed out" and sol.bound_phase == "F1903M" and sol.bound == 6
    assert sol.notes == ("the time limit came while building the model of F1903M",)
    assert sol.explanation()[-1] == sol.notes[0] and sol.seconds == 3.0


def test_time_running_out_in_the_replay_returns_no_unchecked_plan(monkeypatch):
    clock = Clock()
    given = spy_solver(monkeypatch, clock, jump_to=10.0)
    sol = solve_path(START, "Germany", 18, deadline=Deadline(10.0, clock=clock))
    assert given == [5.0]                                 # half of the 10 s left
    assert [(a.phase, a.status) for a in sol.attempts] == [("F1903M", "OPTIMAL")]
    assert sol.status == "timed out" and sol.plan == () and sol.objective is None
    assert sol.notes == ("the time limit came while replaying the plan of F1903M "
                         "(a plan is never returned unreplayed)",)


def test_work_before_the_call_counts_and_the_answer_still_has_its_bound(monkeypatch):
    clock = Clock()
    deadline = Deadline(1.0, clock=clock)
    clock.now = 0.995                                     # reading files, say
    given = spy_solver(monkeypatch)
    sol = solve_path(START, "Russia", 16, deadline=deadline)
    assert given == [] and sol.status == "timed out" and sol.bound_phase == "F1902M"
    assert sol.notes == ("the time limit came before F1902M was tried",)
    assert sol.seconds == 0.995


def test_the_answer_is_a_result():
    sol = solve_path(START, "Austria", 16)
    assert isinstance(sol, Result) and sol.status is Status.OPTIMAL and sol.proven
    assert (sol.objective, sol.bound, sol.years, sol.reached) == (6, 6, 3, "F1903M")
    obj = sol.to_json()
    assert obj["status"] == "optimal" and obj["objective"] == 6 and obj["bound"] == 6
    assert "outcomes" not in obj and obj["plan"][-1]["centers"] >= 16
    assert obj["lower_bound"]["phase"] == "F1903M" and obj["attempts"][0]["status"] == "OPTIMAL"
