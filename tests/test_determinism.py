"""Issue 50: a limit counted in work (`Limits.nodes`), with which the same command with the
same seed gives the same answer in three processes with three hash seeds: ``solve``,
``path`` and ``play``; the seed reaches the phase game's CP-SAT oracle; a bad node limit
is refused."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

import dipsolve
from dipsolve import strategy as S
from dipsolve.search.strategy import named
from dipsolve.core.errors import DipsolveLimitError, DipsolveSyntaxError
from dipsolve.core.results import Deadline, Limits, Result, Status, WorkClock, limited

ROOT = os.path.join(os.path.dirname(__file__), "..")
S1902M = os.path.join(ROOT, "examples", "s1902m.dip")


# -- Limits(nodes=...) ---------------------------------------------------------------------------

@pytest.mark.parametrize("nodes, error", [
    (0, DipsolveLimitError), (-5, DipsolveLimitError), (10**13, DipsolveLimitError),
    (1.5, DipsolveSyntaxError), (True, DipsolveSyntaxError), ("100", DipsolveSyntaxError)])
def test_limits_refuse_a_bad_node_limit(nodes, error):
    with pytest.raises(error, match="node"):
        Limits(nodes=nodes)


@pytest.mark.parametrize("seed", [-1, 2**31, 2.0])
def test_limits_refuse_a_seed_cpsat_cannot_take(seed):
    with pytest.raises(DipsolveSyntaxError, match="seed"):
        Limits(seed=seed)


def test_limits_say_which_limit_stops_the_work():
    assert Limits().limit == "time" and Limits().nodes is None
    assert Limits(nodes=10).to_json() == {"time_limit": 5.0, "seed": 0, "workers": 1, "clock": "wall",
                                          "nodes": 10, "limit": "nodes"}


def test_a_work_clock_counts_looks_and_its_parts_share_the_nodes():
    d = Limits(time_limit=600, nodes=100).deadline()
    assert d.counts_work and isinstance(d.clock, WorkClock) and d.remaining() == 99
    part = d.part(0.5)                     # half of what is left (one more look: 98)
    assert part.end - part.start == pytest.approx(49)
    looks = 0
    while not part.expired():
        looks += 1
    assert looks == 48 and not d.expired()
    d.clock.spend(1000)                    # CP-SAT's deterministic time, counted
    assert d.expired() and d.limit_name() == "the node limit"
    assert d.seconds() >= 0 and d.seconds() < 600


def test_the_safety_net_stops_a_work_clock_and_the_status_says_the_time_came():
    now = [0.0]
    d = Limits(time_limit=2, nodes=10**6).deadline(clock=lambda: now[0])
    assert not d.expired()
    now[0] = 2.5                           # the time limit passes long before the nodes
    assert d.expired() and d.part(0.5).expired() and d.limit_name() == "the time limit"
    assert d.seconds() == 2.5 and d.seconds_left() == 0.0
    assert limited(Result(status=Status.TIMED_OUT), d).status == Status.TIMED_OUT
    assert limited(Result(status=Status.FEASIBLE), d).status == Status.TIMED_OUT   # may not repeat
    assert limited(Result(status=Status.OPTIMAL), d).status == Status.OPTIMAL      # proven stays


def test_a_timed_out_answer_on_a_work_clock_says_node_limit():
    d = Limits(time_limit=600, nodes=5).deadline()
    while not d.expired():
        pass
    assert limited(Result(status=Status.TIMED_OUT), d).status == Status.NODE_LIMIT
    assert limited(Result(status=Status.FEASIBLE), d).status == Status.FEASIBLE
    wall = Deadline(0.0)
    assert limited(Result(status=Status.TIMED_OUT), wall).status == Status.TIMED_OUT


# -- every solver honours it -------------------------------------------------------------------

def _s1902m() -> dipsolve.Position:
    return dipsolve.Position.from_text(open(S1902M).read(), S1902M)


@pytest.mark.parametrize("settings", [dict(opponents="worst"), dict(opponents="sampled"),
                                      dict(method="minimax"), dict(opponents="hold")])
def test_solve_with_a_node_limit_repeats_itself(settings):
    limits = Limits(time_limit=120, seed=3, nodes=1500)
    runs = [dipsolve.solve(_s1902m(), "Germany", named(**settings), limits=limits)
            for _ in range(2)]
    a, b = (r.to_json() for r in runs)
    a.pop("seconds"), b.pop("seconds")
    assert a == b
    assert runs[0].status in (Status.NODE_LIMIT, Status.OPTIMAL, Status.FEASIBLE)
    assert runs[0].status != Status.TIMED_OUT


def test_the_phase_game_and_its_cpsat_oracle_take_the_seed_and_one_worker(monkeypatch):
    """The issue: `order_method.best_response` rebuilt its Limits without the seed.  The
    solvers the oracle's model is solved with are observed: their random seed is the
    call's, for two seeds, and under a node limit they run one worker on a deterministic
    time."""
    from dipsolve.models import order_model
    real = order_model.cpsat_solver
    seen: list[tuple[int, int, float]] = []

    def observed(*args, **kwargs):
        solver = real(*args, **kwargs)
        p = solver.parameters
        seen.append((p.random_seed, p.num_workers, p.max_deterministic_time))
        return solver

    monkeypatch.setattr(order_model, "cpsat_solver", observed)
    for seed in (11, 12):
        seen.clear()
        s = dipsolve.solve(_s1902m(), "Germany", S.Strategy(S.Agenda(), S.PhaseGame()),
                           limits=Limits(time_limit=120, seed=seed, workers=2, nodes=3000))
        assert s.equilibrium is not None and s.equilibrium.oracle_calls > 0
        assert seen and {r for r, _, _ in seen} == {seed}
        assert {w for _, w, _ in seen} == {1}
        assert all(0 < t < 10 for _, _, t in seen)    # nodes, not the default's infinity


def test_path_with_a_node_limit_says_so_and_repeats_itself():
    runs = [dipsolve.solve_path(dipsolve.Position.initial(), "England", 18,
                                limits=Limits(time_limit=120, seed=1, nodes=500))
            for _ in range(2)]
    assert runs[0].status == Status.NODE_LIMIT
    assert [a.status for a in runs[0].attempts] == [a.status for a in runs[1].attempts]
    assert runs[0].notes == runs[1].notes and "the node limit came" in runs[0].notes[-1]


# -- three processes, three hash seeds ------------------------------------------------------------

def _run(args: list[str], hash_seed: int) -> list:
    env = dict(os.environ, PYTHONHASHSEED=str(hash_seed))
    out = subprocess.run([sys.executable, "-m", "dipsolve", *args], capture_output=True, text=True,
                         env=env, timeout=600, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return [_without_times(json.loads(line)) for line in out.stdout.splitlines() if line.strip()]


def _without_times(x):
    """The answer without the wall times it reports (they are the machine's)."""
    if isinstance(x, dict):
        return {k: _without_times(v) for k, v in x.items()
                if k not in ("seconds", "max_seconds", "seconds_per_game")}
    if isinstance(x, list):
        return [_without_times(v) for v in x]
    if isinstance(x, str):
        return re.sub(r"\d+\.\d\d s\)", "S s)", x)     # an attempt's seconds in path's lines
    return x


def _three(args: list[str]) -> list:
    answers = [_run(args, h) for h in (1, 2, 3)]
    assert answers[0] == answers[1] == answers[2]
    return answers[0]


@pytest.mark.slow  # three solves in processes: 10-20 s on a loaded machine
def test_solve_with_nodes_prints_the_same_answer_for_three_hash_seeds():
    """The issue's example, with --nodes: the default (learned) model, and the phase game
    (its CP-SAT oracle included)."""
    (answer,) = _three(["solve", "examples/s1902m.dip", "--power", "GER", "--seed", "7",
                        "--nodes", "3000", "--json", "--trace"])
    s = answer["solutions"][0]
    assert s["orders"] and s["model"].startswith("learned")
    (answer,) = _three(["solve", "examples/s1902m.dip", "--power", "GER", "--seed", "7",
                        "--nodes", "3000", "--json", "--trace", "--opponents", "equilibrium"])
    s = answer["solutions"][0]
    assert s["orders"] and s["status"] == "feasible" and s["equilibrium"]["oracle_calls"] > 0


@pytest.mark.slow  # three exact path solves in processes
def test_path_with_nodes_prints_the_same_answer_for_three_hash_seeds():
    (answer,) = _three(["path", "--power", "ENG", "--target", "18", "--seed", "1",
                        "--nodes", "3000", "--json"])
    assert answer["status"] == "node limit" and answer["limit"] == "nodes"
    assert answer["nodes"] == 3000 and answer["workers"] == 1 and answer["attempts"]


@pytest.mark.slow  # three games in processes
def test_play_with_nodes_plays_the_same_game_for_three_hash_seeds():
    (answer,) = _three(["play", "--bots", "dipsolve,dumbbot", "--until", "1901", "--seed", "3",
                        "--nodes", "1000", "--json", "--history"])
    assert answer["limits"]["limit"] == "nodes" and answer["limits"]["nodes"] == 1000
    assert answer["games"][0]["phases"]


# -- the command line -------------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["solve", "path", "play", "daide", "batch", "analyze", "adjust"])
def test_every_command_with_a_seed_and_a_time_limit_takes_nodes(command):
    from dipsolve.cli.main import build_parser
    parser = build_parser()
    sub = next(a for a in parser._actions if getattr(a, "choices", None) and command in (a.choices or {}))
    options = {o for a in sub.choices[command]._actions for o in a.option_strings}
    assert {"--nodes", "--time-limit"} <= options


def test_a_bad_node_limit_is_refused_in_one_line(capsys):
    from dipsolve.cli import main
    assert main(["solve", S1902M, "--nodes", "0"]) == 2
    assert "--nodes 0: past the limit max_nodes" in capsys.readouterr().err


def test_nodes_without_a_time_limit_lengthen_the_safety_net():
    from dipsolve.cli.main import build_parser
    from dipsolve.cli.options import check
    parser = build_parser()
    args = parser.parse_args(["solve", S1902M, "--nodes", "100000"])
    check(args)
    assert args.time_limit == 500          # a second for every 200 nodes, past the default 5 s
    args = parser.parse_args(["solve", S1902M, "--nodes", "100000", "--time-limit", "3"])
    check(args)
    assert args.time_limit == 3            # given: kept
