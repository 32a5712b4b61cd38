"""`dipsolve.execution.workers`: tasks in worker processes, results in task order, a worker that
dies reported with its task (and a new one takes the next), a stop request honoured."""

from __future__ import annotations

import os
import signal
import time

import pytest

from dipsolve.core import results
from dipsolve.execution.workers import death, run_tasks


def square_or_die(n: int) -> int:
    """The task: n squared; task -1 kills its own worker, task -2 raises, task -3 takes
    a minute (it is stopped long before)."""
    if n == -3:
        time.sleep(60)
    if n == -1:
        os.kill(os.getpid(), signal.SIGKILL)
    if n == -2:
        raise ValueError("task -2 is wrong")
    return n * n


def run(tasks: list[int], jobs: int = 2) -> tuple[list[tuple[int, int]], list[tuple[int, str]]]:
    done: list[tuple[int, int]] = []
    lost: list[tuple[int, str]] = []
    run_tasks(square_or_die, tasks, jobs,
              on_result=lambda i, v: done.append((i, v)),
              on_lost=lambda i, why: lost.append((i, why)))
    return done, lost


def test_results_come_back_in_task_order():
    done, lost = run([3, 1, 4, 1, 5], jobs=2)
    assert done == [(0, 9), (1, 1), (2, 16), (3, 1), (4, 25)] and lost == []


def test_a_worker_that_dies_loses_its_task_only():
    done, lost = run([2, -1, 3, 4], jobs=2)
    assert done == [(0, 4), (2, 9), (3, 16)]
    assert lost == [(1, "killed by SIGKILL")]


def test_an_error_in_a_task_is_raised_in_the_caller():
    with pytest.raises(ValueError, match="task -2 is wrong"):
        run([1, -2, 3], jobs=2)


def test_a_stop_request_hands_back_what_is_finished_and_raises_stopped():
    done: list[tuple[int, int]] = []

    def on_result(i: int, value: int) -> None:
        done.append((i, value))
        results.request_stop()          # as Ctrl-C would, after the first result
    try:
        with pytest.raises(results.Stopped):
            run_tasks(square_or_die, [5, -3, -3, -3], 2, on_result=on_result,
                      on_lost=lambda i, why: None)
    finally:
        results.reset_stop()
    assert done == [(0, 25)]            # the minute-long tasks were stopped, not waited for


def test_death_in_words():
    assert death(-9) == "killed by SIGKILL" and death(3) == "exit status 3"
