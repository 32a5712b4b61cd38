"""One settings object that flows (issue 27): `Limits` (time limit, seed, workers) reaches
CP-SAT, set up in one place (`dipsolve.models.cpsat`), and the same command with the
same seed on one worker prints the same answer, whatever Python's hash seed."""

from __future__ import annotations

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


@pytest.mark.parametrize("seed, workers", [(0, 1), (5, 1), (9, 2)])
def test_solve_path_hands_its_limits_to_cpsat(monkeypatch, seed, workers):
    made = []
    real = cpsat.cpsat_solver

    def spy(seconds, *, workers=1, seed=0):
        made.append((workers, seed))
        return real(seconds, workers=workers, seed=seed)

    monkeypatch.setattr("dipsolve.models.path_model.cpsat_solver", spy)
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


def test_path_with_a_seed_prints_the_same_plan_three_times():
    """The issue's example: three runs, three processes, three hash seeds (the model was
    built in set order, which Python's hash seed changes from run to run); the plan is
    the same (the times around it are not)."""
    plans = [_path_plan(h) for h in (1, 2, 3)]
    assert plans[0] == plans[1] == plans[2]
    assert "F1904M" in plans[0]
