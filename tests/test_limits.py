"""One settings object that flows (issue 27): `Limits` (time limit, seed, workers) reaches
CP-SAT, set up in one place (`dipsolve.models.cpsat`), and the same command with the
same seed on one worker prints the same answer, whatever Python's hash seed."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys

import pytest

import dipsolve
from dipsolve.models import cpsat


def test_the_one_cpsat_set_up_takes_the_seed_and_the_workers():
    solver = cpsat.cpsat_solver(2.5, workers=3, seed=17)
    assert (solver.parameters.max_time_in_seconds, solver.parameters.num_workers,
            solver.parameters.random_seed) == (2.5, 3, 17)
    assert cpsat.cpsat_solver(0.0).parameters.max_time_in_seconds > 0   # 0 is "no limit" to CP-SAT


def _spy_on_cpsat(monkeypatch, where: str) -> list[tuple[int, int]]:
    """The (workers, seed) of every CP-SAT solver the module ``where`` sets up."""
    made: list[tuple[int, int]] = []
    real = cpsat.cpsat_solver

    def spy(seconds, *, workers=1, seed=0, deadline=None):
        made.append((workers, seed))
        return real(seconds, workers=workers, seed=seed, deadline=deadline)

    monkeypatch.setattr(f"{where}.cpsat_solver", spy)
    return made


@pytest.mark.parametrize("seed, workers", [(0, 1), (5, 1), (9, 2)])
def test_solve_path_hands_its_limits_to_cpsat(monkeypatch, seed, workers):
    made = _spy_on_cpsat(monkeypatch, "dipsolve.models.path_model")
    sol = dipsolve.solve_path(dipsolve.Position.initial(), "GER", 6,
                              limits=dipsolve.Limits(time_limit=30, seed=seed, workers=workers))
    assert sol.status == "optimal"
    assert made and set(made) == {(workers, seed)}


def _path_plan(hash_seed: int) -> str:
    env = dict(os.environ, PYTHONHASHSEED=str(hash_seed))
    out = subprocess.run([sys.executable, "-m", "dipsolve", "path", "--power", "ENG", "--target", "18",
                          "--seed", "1"], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "status: optimal" in text, text
    return text[text.index("plan, replayed"):]


@pytest.mark.slow  # three path searches in processes
def test_path_with_a_seed_prints_the_same_plan_three_times():
    """The issue's example: three runs, three processes, three hash seeds (the model was
    built in set order, which Python's hash seed changes from run to run); the plan is
    the same (the times around it are not)."""
    plans = [_path_plan(h) for h in (1, 2, 3)]
    assert plans[0] == plans[1] == plans[2]
    assert "F1904M" in plans[0]


# -- one keyword, one default ------------------------------------------------------------------

def test_one_default():
    from dipsolve.api import DEFAULT_LIMITS
    assert DEFAULT_LIMITS == dipsolve.Limits()
    from dipsolve.search.strategy import Strategy, settings
    assert dipsolve.Limits().workers == 1 and settings(Strategy()).limits == dipsolve.Limits()


def _solvers_taking_limits() -> list[str]:
    import inspect
    found = []
    for name in dipsolve.__all__:
        fn = getattr(dipsolve, name)
        if callable(fn) and not inspect.isclass(fn) and "limits" in inspect.signature(fn).parameters:
            found.append(name)
    return found


def test_every_solver_takes_limits_and_nothing_beside_it():
    import inspect
    solvers = _solvers_taking_limits()
    assert {"solve", "solve_path", "solve_equilibrium", "solve_worst_case", "select_orders", "predict",
            "analyze", "play_game", "play_series"} <= set(solvers)
    for name in solvers:
        params = inspect.signature(getattr(dipsolve, name)).parameters
        assert not {"time_limit", "workers", "num_workers", "seed", "clock"} & set(params), name


@pytest.mark.parametrize("keyword", ["time_limit", "workers", "seed"])
def test_the_old_keywords_are_refused_naming_limits(keyword):
    start = dipsolve.Position.initial()
    with pytest.raises(dipsolve.DipsolveArgumentError, match=rf"{keyword}= is no longer taken.*limits="):
        dipsolve.solve_path(start, "England", 18, **{keyword: 1})
    with pytest.raises(dipsolve.DipsolveArgumentError, match="limits="):
        dipsolve.predict(start, {}, **{keyword: 1})


def _limits_solve_searches_with(monkeypatch, *args, **kwargs) -> dipsolve.Limits:
    """The limits `dipsolve.solve` hands the search, called with these arguments."""
    import dipsolve.search.methods as methods
    seen = []
    monkeypatch.setattr(methods, "solve", lambda position, power, settings, **kw: seen.append(settings.limits))
    dipsolve.solve(dipsolve.Position.initial(), "Turkey", *args, **kwargs)
    return seen[0]


def test_solve_takes_limits_as_every_solver_does(monkeypatch):
    """Issue 49: ``solve(position, power, limits=...)`` was refused; issue 50: the limits
    are the call's alone (a `Strategy` holds none) and reach the search untouched, every
    field of them."""
    from dipsolve import strategy as S
    mine = dipsolve.Limits(time_limit=0.5, seed=3, workers=2, clock="cpu", nodes=700)
    assert _limits_solve_searches_with(monkeypatch, limits=mine) == mine
    assert _limits_solve_searches_with(monkeypatch, S.Strategy(S.Agenda(), S.Hold()), limits=mine) == mine
    assert _limits_solve_searches_with(monkeypatch, S.Strategy(S.CpSat(), S.PhaseGame()), limits=mine) == mine
    assert _limits_solve_searches_with(monkeypatch) == dipsolve.Limits()


def test_solve_takes_its_limits_once_and_a_strategy_only():
    """The limits have one place (``limits=``); the search's flat settings of a call are
    not taken (`dipsolve.search.methods.SolveSettings` is internal)."""
    from dipsolve.search.methods import SolveSettings
    start = dipsolve.Position.initial()
    assert "SolveSettings" not in dipsolve.__all__ and not hasattr(dipsolve, "SolveSettings")
    with pytest.raises(dipsolve.DipsolveArgumentError, match="strategy: expected a Strategy"):
        dipsolve.solve(start, "Turkey", SolveSettings(limits=dipsolve.Limits(time_limit=2)))
    with pytest.raises(dipsolve.DipsolveArgumentError, match="time_limit= is no longer taken.*limits="):
        dipsolve.solve(start, "Turkey", limits=dipsolve.Limits(time_limit=1), time_limit=3)
    with pytest.raises(dipsolve.DipsolveArgumentError, match="limits"):
        dipsolve.solve(start, "Turkey", limits=3)


def test_select_orders_hands_its_limits_to_cpsat(monkeypatch):
    made = _spy_on_cpsat(monkeypatch, "dipsolve.models.order_model")
    start = dipsolve.Position.initial()
    sel = dipsolve.select_orders(start, "Germany", evaluate="centers",
                                 limits=dipsolve.Limits(time_limit=30, seed=7, workers=1))
    assert sel.status == "optimal" and set(made) == {(1, 7)}


# -- --seed on every command that searches -----------------------------------------------------

@pytest.mark.parametrize("command", ["solve", "path", "adjust", "play", "analyze", "batch", "daide"])
def test_every_searching_command_takes_a_seed(command):
    from dipsolve.cli.main import build_parser
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command" or getattr(a, "choices", None)
               and command in (a.choices or {}))
    options = {o for a in sub.choices[command]._actions for o in a.option_strings}
    assert "--seed" in options


def test_analyze_hands_its_seed_to_every_search(monkeypatch, capsys):
    seen = []
    import dipsolve.analysis as analysis
    real = analysis.analyze

    def spy(record, powers=None, *, limits=None, **kw):
        seen.append(limits)
        return real(record, powers, limits=limits, **kw)

    monkeypatch.setattr(analysis, "analyze", spy)
    from dipsolve.cli import main
    record = os.path.join(os.path.dirname(__file__), "..", "examples", "records", "dumbbot-1903.json")
    assert main(["analyze", record, "--adjudication-only", "--seed", "4", "--time-limit", "0.5"]) == 0
    capsys.readouterr()
    assert seen == [dipsolve.Limits(time_limit=0.5, seed=4)]


def test_batch_records_its_seed_in_the_run(tmp_path, capsys):
    from dipsolve.cli import main
    start = os.path.join(os.path.dirname(__file__), "..", "examples", "start.dip")
    out = tmp_path / "r.jsonl"
    assert main(["batch", start, "-o", str(out), "--task", "adjudicate", "--seed", "3"]) == 0
    capsys.readouterr()
    import json
    assert json.loads(out.read_text().splitlines()[0])["run"]["seed"] == 3


def test_adjust_hands_its_seed_to_the_witness(monkeypatch, capsys):
    import dipsolve.models.worstcase as worstcase
    seen = []
    real = worstcase.witness

    def spy(plans, *args, limits=None, **kw):
        seen.append(limits.seed)
        return real(plans, *args, limits=limits, **kw)

    monkeypatch.setattr(worstcase, "witness", spy)
    from dipsolve.cli import main
    main(["adjust", "--worst-case", "--seed", "6", "--time-limit", "0.5"])
    capsys.readouterr()
    assert seen in ([], [6])        # no witness is tried when the ILP leaves no time


# -- a game's one Limits (issue 50) ------------------------------------------------------------

class _Seen:
    """A seat that remembers the time and the clock it was given, and the game's limits."""

    name = "seen"

    def __init__(self) -> None:
        self.deadlines: set[float] = set()
        self.limits: list[dipsolve.Limits] = []

    def with_limits(self, limits):
        self.limits.append(limits)
        return self

    def orders(self, position, power, deadline_s, rng):
        self.deadlines.add(deadline_s)
        return []


def test_a_games_limits_reach_every_seat_and_each_game_of_a_series_has_its_seed():
    seat = _Seen()
    seats = {p: seat for p in dipsolve.POWERS}
    mine = dipsolve.Limits(time_limit=0.7, seed=11, clock="cpu", nodes=900)
    record = dipsolve.play_game(seats, limits=mine, until=1901)
    assert seat.limits == [mine] and seat.deadlines == {0.7}          # once: one bot in seven seats
    assert (record.seed, record.time_limit) == (11, 0.7)
    seat.limits.clear()
    records = dipsolve.play_series([seat] * 7, 3, limits=mine, until=1901)
    assert [r.seed for r in records] == [11, 12, 13]
    assert seat.limits == [dataclasses.replace(mine, seed=11 + i) for i in range(3)]
    # unless told, 2 s a phase on the wall clock from seed 0
    assert dipsolve.play_game(seats, until=1901).time_limit == 2.0 and seat.limits[-1].seed == 0


def test_a_dipsolve_seat_plays_on_the_games_clock_within_its_node_limit():
    bot = dipsolve.DipsolveBot()
    under = bot.with_limits(dipsolve.Limits(time_limit=1, clock="cpu", nodes=500))
    assert (under.clock, under.nodes, under.strategy) == ("cpu", 500, bot.strategy)
    assert under.limits(1.0, seed=3) == dipsolve.Limits(time_limit=1.0, seed=3, clock="cpu", workers=1, nodes=500)
    assert bot.with_limits(dipsolve.Limits()) is bot              # its own already: itself
    assert under._table is bot._table                              # one learner of the table
    # a node limit of the seat's own stays where the game sets none
    own = dipsolve.DipsolveBot(nodes=300).with_limits(dipsolve.Limits(clock="cpu"))
    assert (own.clock, own.nodes) == ("cpu", 300)


def test_a_games_limits_leave_the_seats_workers_to_them_and_the_old_keywords_name_limits():
    seats = {p: dipsolve.DumbBotPlayer() for p in dipsolve.POWERS}
    with pytest.raises(dipsolve.DipsolveArgumentError, match="limits.workers=2: a seat's CP-SAT workers"):
        dipsolve.play_game(seats, limits=dipsolve.Limits(workers=2), until=1901)
    with pytest.raises(dipsolve.DipsolveArgumentError, match="limits.workers=2"):
        dipsolve.play_series([dipsolve.DumbBotPlayer()] * 7, 1, limits=dipsolve.Limits(workers=2))
    for keyword, value in (("seed", 1), ("time_limit", 1.0), ("clock", "cpu")):
        with pytest.raises(dipsolve.DipsolveArgumentError, match=rf"{keyword}= is no longer taken.*limits="):
            dipsolve.play_game(seats, until=1901, **{keyword: value})
        with pytest.raises(dipsolve.DipsolveArgumentError, match=rf"{keyword}= is no longer taken.*limits="):
            dipsolve.play_series([dipsolve.DumbBotPlayer()] * 7, 1, **{keyword: value})
    with pytest.raises(dipsolve.DipsolveArgumentError, match="limits: expected a Limits"):
        dipsolve.play_game(seats, limits=2.0)
