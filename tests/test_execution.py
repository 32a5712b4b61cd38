"""`dipsolve.execution`: the same jobs give the same answers in this process, on local
worker processes and on Ray; a worker that dies has its job run again, and a job that
dies twice is reported failed, once; every job is handed back exactly once.

The Ray tests start one local Ray of 2 CPUs for the module (`ray_pool`), bound to the
loopback address, and check when it is shut down that every process it started has
ended.  Without Ray installed they are skipped, except in CI (``CI`` set), where
``.ci/run`` installs the ``cluster`` extra and a missing Ray is a failure.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dipsolve.core import results
from dipsolve.play.bots import DumbBotPlayer, RandomBot
from dipsolve.cli.batch import inputs, run_job, settings_of
from dipsolve.cli.main import build_parser
from dipsolve.execution import Done, ExecutionUnavailable, InProcess, LocalPool, executor
from dipsolve.execution.journal import Journal
from dipsolve.play.games import play_series
from dipsolve.testing.jobs import die_once, square, square_or_fail
from dipsolve.core.results import Limits

#: local worker processes and a local Ray (one xdist worker runs every test that starts a Ray): slow (CI runs it: ``--all``)
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("ray")]

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
BOUND = 60.0        # seconds before a wait for processes to end is a hang

SEATING = [DumbBotPlayer()] * 4 + [RandomBot()] * 3


def answers(done: list[Done]) -> dict[str, tuple]:
    """Each job's answer, without the attempts (keyed: the order of completion varies)."""
    keys = [d.key for d in done]
    assert len(keys) == len(set(keys)), f"a job handed back twice: {keys}"
    return {d.key: (d.ok, d.value, d.error) for d in done}


def run(ex, fn, tasks, retries=None) -> list[Done]:
    out: list[Done] = []
    ex.run(fn, [(str(t if not isinstance(t, tuple) else t[1]), t) for t in tasks], out.append,
           (lambda key, why: retries.append((key, why))) if retries is not None else None)
    return out


# -- this process and local processes ------------------------------------------------------

def test_a_failing_job_is_reported_with_its_error_and_the_others_answer():
    done = run(InProcess(), square_or_fail, [3, -1, 4])
    assert answers(done) == {"3": (True, 9, None), "4": (True, 16, None),
                             "-1": (False, None, done[1].error)}
    assert done[1].error.startswith("ValueError: job -1 is wrong")
    pool = run(LocalPool(2), square_or_fail, [3, -1, 4])
    assert answers(pool) == answers(done)
    assert all(d.attempts == 1 for d in pool)         # an exception is not run again


def test_a_local_worker_that_dies_has_its_job_run_again_and_twice_is_failed(tmp_path):
    retries: list[tuple[str, str]] = []
    done = run(LocalPool(2), die_once, [(str(tmp_path), n) for n in (1, 2, -3, 4)], retries)
    got = {d.key: d for d in done}
    assert sorted(got) == ["-3", "1", "2", "4"] and len(done) == 4
    for n in (1, 2, 4):
        assert got[str(n)].ok and got[str(n)].value == n * n and got[str(n)].attempts == 2
    assert not got["-3"].ok and got["-3"].attempts == 2
    assert got["-3"].error == "its worker died 2 times (killed by SIGKILL)"
    assert sorted(k for k, _ in retries) == ["-3", "1", "2", "4"]
    assert {why for _, why in retries} == {"killed by SIGKILL"}


def _events(ex, fn, tasks) -> list[tuple[str, str]]:
    """("start" or "done", key) as ``ex`` runs the tasks, in the order it tells them."""
    events: list[tuple[str, str]] = []
    ex.run(fn, [(str(t[1]), t) for t in tasks], lambda d: events.append(("done", d.key)),
           lambda key, why: events.append(("retry", key)), on_start=lambda key: events.append(("start", key)))
    return events


@pytest.mark.parametrize("backend", ["here", "local processes"])
def test_each_job_is_told_as_it_starts_before_it_is_done(backend, tmp_path):
    """``on_start`` (batch's progress, issue 49): each job once as it is handed to a worker,
    before it is done; a job run again after its worker died is started again."""
    tasks = [(str(tmp_path), n) for n in (1, 2, 3)]
    events = (_events(InProcess(), lambda t: t[1] ** 2, tasks) if backend == "here"
              else _events(LocalPool(2), die_once, tasks))
    for key in ("1", "2", "3"):
        mine = [e for e, k in events if k == key]
        # here: start, done; a worker killed under it: start, retry, start, done
        assert mine == (["start", "done"] if backend == "here" else ["start", "retry", "start", "done"])


def test_with_one_attempt_the_first_death_is_the_failure(tmp_path):
    retries: list[tuple[str, str]] = []
    done = run(LocalPool(1, attempts=1), die_once, [(str(tmp_path), 5)], retries)
    assert [(d.ok, d.error, d.attempts) for d in done] == [
        (False, "its worker died 1 time (killed by SIGKILL)", 1)]
    assert retries == []


def test_a_stop_request_ends_the_run_with_the_jobs_finished():
    out: list[Done] = []

    def stop_after_first(d: Done) -> None:
        out.append(d)
        results.request_stop()
    try:
        with pytest.raises(results.Stopped):
            InProcess().run(square, [("1", 1), ("2", 2), ("3", 3)], stop_after_first)
    finally:
        results.reset_stop()
    assert [d.key for d in out] == ["1"]


def test_executor_picks_the_backend():
    assert isinstance(executor(1), InProcess)
    pool = executor(3)
    assert isinstance(pool, LocalPool) and pool.workers == 3
    with pytest.raises(ValueError):
        LocalPool(0)


def test_without_ray_installed_ray_is_unavailable_in_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)       # import ray: ImportError
    with pytest.raises(ExecutionUnavailable, match=r"pip install 'dipsolve\[cluster\]'"):
        executor(2, ray="local")


# -- Ray -----------------------------------------------------------------------------------

def _descendants(pid: int) -> set[int]:
    found: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        for path in Path(f"/proc/{p}/task").glob("*/children"):
            try:
                kids = [int(c) for c in path.read_text().split()]
            except OSError:
                continue
            for c in kids:
                if c not in found:
                    found.add(c)
                    todo.append(c)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _need_ray() -> None:
    try:
        import ray  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("Ray is not installed: .ci/run installs the 'cluster' extra")
        pytest.skip("Ray is not installed (pip install 'dipsolve[cluster]')")


def _wait_gone(pids: set[int]) -> list[int]:
    end = time.monotonic() + BOUND
    while any(_alive(p) for p in pids) and time.monotonic() < end:
        time.sleep(0.1)
    return [p for p in pids if _alive(p)]


@pytest.fixture(scope="module")
def ray_pool():
    """One local Ray of 2 CPUs for the module; every process it started ends with it."""
    _need_ray()
    from dipsolve.execution.ray_cluster import RayExecutor
    before = _descendants(os.getpid())
    pool = RayExecutor(None, 2)
    started = _descendants(os.getpid()) - before
    try:
        yield pool
    finally:
        pool.close()
        started |= _descendants(os.getpid()) - before
        assert started and not _wait_gone(started), "Ray left processes behind"


def test_ray_answers_as_the_local_pool_does(ray_pool):
    assert ray_pool.name == "ray (local)" and ray_pool.workers == 2
    tasks = [3, -1, 4, 1, 5, -9, 2, 6]
    on_ray = run(ray_pool, square_or_fail, tasks)
    assert answers(on_ray) == answers(run(LocalPool(2), square_or_fail, tasks))
    assert answers(on_ray) == answers(run(InProcess(), square_or_fail, tasks))
    told: list[tuple[str, str]] = []
    ray_pool.run(square, [("1", 1), ("2", 2)], lambda d: told.append(("done", d.key)),
                 on_start=lambda key: told.append(("start", key)))
    for key in ("1", "2"):          # sent to the cluster once, before it is done
        assert [e for e, k in told if k == key] == ["start", "done"]


def test_a_ray_worker_that_dies_has_its_job_run_again_and_every_job_is_reported_once(ray_pool, tmp_path):
    retries: list[tuple[str, str]] = []
    done = run(ray_pool, die_once, [(str(tmp_path), n) for n in (1, 2, -3)], retries)
    got = {d.key: d for d in done}
    assert len(done) == 3 and sorted(got) == ["-3", "1", "2"]
    assert got["1"].ok and got["1"].value == 1 and got["1"].attempts == 2
    assert got["2"].ok and got["2"].value == 4 and got["2"].attempts == 2
    assert not got["-3"].ok and got["-3"].error.startswith("its worker died 2 times (WorkerCrashedError")
    assert sorted(k for k, _ in retries) == ["-3", "1", "2"]


def test_a_seeded_tournament_is_the_same_in_one_process_on_local_processes_and_on_ray(ray_pool):
    one = play_series(SEATING, 3, limits=Limits(seed=4), until=1903, rotate=True)
    local = play_series(SEATING, 3, limits=Limits(seed=4), until=1903, rotate=True, jobs=2)
    on_ray = play_series(SEATING, 3, limits=Limits(seed=4), until=1903, rotate=True, executor=ray_pool)
    assert [r.seed for r in on_ray] == [4, 5, 6]
    for other in (local, on_ray):
        assert [r.results for r in other] == [r.results for r in one]
        assert [r.phases for r in other] == [r.phases for r in one]
        assert [r.final for r in other] == [r.final for r in one]


def test_a_batch_gives_the_same_lines_on_ray_as_in_one_process(ray_pool, tmp_path):
    files = [str(p) for p in sorted(EXAMPLES.glob("*.dip"))]
    record = str(EXAMPLES / "records" / "dumbbot-1903.json")
    args = build_parser().parse_args(["batch", *files, record, "-o", str(tmp_path / "r.jsonl"),
                                      "--task", "adjudicate"])
    settings = settings_of(args)
    jobs = [(key, (settings, item)) for key, item in inputs(args)]
    assert len(jobs) > len(files)             # the record's phases are inputs too
    here = run_with_keys(InProcess(), jobs)
    assert answers(run_with_keys(ray_pool, jobs)) == answers(here)
    assert answers(run_with_keys(LocalPool(2), jobs)) == answers(here)
    assert {d.value["status"] for d in here} == {"ok"}


def run_with_keys(ex, jobs) -> list[Done]:
    out: list[Done] = []
    ex.run(run_job, jobs, out.append)
    return out


def test_results_written_from_ray_resume_like_any(ray_pool, tmp_path):
    path = str(tmp_path / "squares.jsonl")
    with Journal.open(path, {"command": "test"}) as journal:
        run_keys = [(str(n), n) for n in range(6)]
        ray_pool.run(square, run_keys[:3], lambda d: journal.append({"id": d.key, "status": "ok",
                                                                     "value": d.value}))
    with Journal.open(path, {"command": "test"}) as journal:
        assert sorted(journal.done) == ["0", "1", "2"]
        todo = [(k, t) for k, t in run_keys if k not in journal.done]
        ray_pool.run(square, todo, lambda d: journal.append({"id": d.key, "status": "ok",
                                                             "value": d.value}))
    with Journal.open(path, {"command": "test"}) as journal:
        assert {k: v["value"] for k, v in journal.done.items()} == {str(n): n * n for n in range(6)}


def test_a_batch_on_an_existing_ray_cluster(tmp_path):
    """``--ray HOST:PORT``: a cluster started apart (``ray start --head``, here on the
    loopback address, stopped by its process id at the end) runs a batch and gives the
    lines of this process."""
    _need_ray()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_USAGE_STATS_ENABLED": "0"}
    head = subprocess.Popen([str(Path(sys.executable).parent / "ray"), "start", "--head",
                             f"--port={port}", "--num-cpus=2", "--include-dashboard=false", "--block"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    started: set[int] = set()
    try:
        end = time.monotonic() + BOUND
        while True:
            assert head.poll() is None and time.monotonic() < end, "the head did not start"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        started = _descendants(head.pid)
        files = [str(p) for p in sorted(EXAMPLES.glob("*.dip"))]

        def batch(out: str, *more: str) -> dict:
            run = subprocess.run([sys.executable, "-m", "dipsolve.cli", "batch", *files, "-o", out,
                                  "--task", "adjudicate", "--json", *more],
                                 capture_output=True, text=True, timeout=BOUND, env=env)
            assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
            return json.loads(run.stdout)
        summary = batch(str(tmp_path / "cluster.jsonl"), f"--ray=127.0.0.1:{port}")
        assert summary["backend"] == f"ray (127.0.0.1:{port}), 2 at once" and summary["ok"] == len(files)
        batch(str(tmp_path / "here.jsonl"))
        lines = {name: {json.loads(x)["id"]: json.loads(x) for x in (tmp_path / name).read_text().splitlines()[1:]}
                 for name in ("cluster.jsonl", "here.jsonl")}
        assert lines["cluster.jsonl"] == lines["here.jsonl"]
    finally:
        started |= _descendants(head.pid)
        head.terminate()
        try:
            head.wait(BOUND)
        except subprocess.TimeoutExpired:
            head.kill()
            head.wait()
        assert not _wait_gone(started), "the Ray head left processes behind"
