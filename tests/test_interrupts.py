"""Ctrl-C (SIGINT) and SIGTERM, sent for real to a real ``python -m dipsolve.cli``: the
work stops, what is finished is printed (answers so far with status ``interrupted``; the
table of the games finished), exit status 130 or 143, no traceback, and every file is
untouched or complete.  A worker of ``play --jobs`` that dies is reported in one line.

Each test starts the command with its standard error on a pseudo-terminal (so that the
progress display draws, as at a terminal), waits until the work has begun (a line of
the progress display or of the output), and then sends the signal.  No test asserts on
wall time: the waits have a generous bound only so that a hang fails instead of blocking.
"""

from __future__ import annotations

import json
import os
import pty
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import dipsolve
from dipsolve.algorithms.adjustments import joint_count
from dipsolve.cli import main

ROOT = Path(__file__).resolve().parent.parent
S1902M = str(ROOT / "examples" / "s1902m.dip")
BOUND = 180.0       # seconds before a wait is a hang (never reached when all is well)

#: whole dipsolve processes started and signalled: slow (CI runs them: ``--all``)
pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"), pytest.mark.slow]


class Running:
    """``python -m dipsolve.cli ARGV``, its stdout a pipe and its stderr a terminal."""

    def __init__(self, *argv: str, cwd: Path) -> None:
        master, slave = pty.openpty()
        self.proc = subprocess.Popen([sys.executable, "-m", "dipsolve.cli", *argv],
                                     stdout=subprocess.PIPE, stderr=slave, cwd=cwd,
                                     start_new_session=True,   # its own process group
                                     # the progress display even under --json: the sign
                                     # that the work has begun
                                     env={**os.environ, "DIPSOLVE_PROGRESS": "always"})
        os.close(slave)
        self.out = bytearray()
        self.err = bytearray()
        self.readers = [threading.Thread(target=self._read, args=(self.proc.stdout.fileno(), self.out)),
                        threading.Thread(target=self._read, args=(master, self.err))]
        for t in self.readers:
            t.start()

    @staticmethod
    def _read(fd: int, into: bytearray) -> None:
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:             # the terminal's other side closed
                data = b""
            if not data:
                break
            into += data
        if fd != 1:
            try:
                os.close(fd)
            except OSError:
                pass

    def wait_for(self, text: str, where: str = "err") -> None:
        """Until ``text`` appears on stderr (``err``) or stdout (``out``)."""
        buf = self.err if where == "err" else self.out
        end = time.monotonic() + BOUND
        while text.encode() not in bytes(buf):
            assert self.proc.poll() is None, (f"finished before {text!r}:\n{bytes(self.out).decode()}"
                                              f"\n{bytes(self.err).decode()}")
            assert time.monotonic() < end, f"no {text!r} within {BOUND} s"
            time.sleep(0.02)

    def send(self, signum: int) -> None:
        self.proc.send_signal(signum)

    def send_to_group(self, signum: int) -> None:
        """As a terminal's Ctrl-C does: to the command and every process it started."""
        os.killpg(self.proc.pid, signum)

    def finish(self) -> tuple[int, str, str]:
        code = self.proc.wait(timeout=BOUND)
        for t in self.readers:
            t.join(timeout=BOUND)
        return code, bytes(self.out).decode(), bytes(self.err).decode().replace("\r\n", "\n")


def _workers(pid: int) -> list[int]:
    """The ``play --jobs`` worker processes of ``pid`` (not multiprocessing's helper)."""
    found = []
    for path in Path(f"/proc/{pid}/task").glob("*/children"):
        for child in path.read_text().split():
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
            if b"spawn_main" in cmdline:
                found.append(int(child))
    return found


@pytest.mark.parametrize("signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_solve_prints_its_best_orders_so_far_as_interrupted(signum, status, tmp_path):
    picture = tmp_path / "s.svg"
    run = Running("solve", S1902M, "--power", "FRA", "--time-limit", "120", "--json",
                  "--render", str(picture), cwd=tmp_path)
    run.wait_for("solving France")
    run.send(signum)
    code, out, err = run.finish()
    assert code == status and "Traceback" not in err
    solution = json.loads(out)["solutions"][0]
    assert solution["status"] == "interrupted" and solution["orders"]
    assert solution["seconds"] < 120
    assert f"interrupted by {signal.Signals(signum).name}" in err
    assert not picture.exists()         # an interrupted run writes no file


def test_path_interrupted_keeps_the_plan_file_untouched(tmp_path):
    plan = tmp_path / "plan.json"
    plan.write_text('{"old": true}\n')
    run = Running("path", "--power", "ENG", "--target", "18", "--rules", "paper",
                  "--time-limit", "120", "--plan-out", str(plan), "--json", cwd=tmp_path)
    run.wait_for("[path]")              # a horizon was tried: CP-SAT is at work
    run.send(signal.SIGTERM)
    code, out, err = run.finish()
    assert code == 143 and "Traceback" not in err
    answer = json.loads(out)
    assert answer["status"] == "interrupted" and answer["seconds"] < 120
    assert plan.read_text() == '{"old": true}\n'
    assert list(tmp_path.iterdir()) == [plan]


def test_worst_case_interrupted_leaves_the_witness_untouched_or_complete(tmp_path):
    witness = tmp_path / "W.dip"
    witness.write_text("# the old witness\n")
    run = Running("adjust", "--worst-case", "-o", str(witness), "--json", cwd=tmp_path)
    run.wait_for("[worst case]")
    run.send(signal.SIGINT)
    code, out, err = run.finish()
    assert code == 130 and "Traceback" not in err
    answer = json.loads(out)
    assert answer["status"] == "interrupted" and answer["maximum"] > 0
    text = witness.read_text()
    if answer["witness"] is None:
        assert text == "# the old witness\n"
    else:                               # complete: a position dipsolve reads and counts
        position = dipsolve.Position.from_text(text)
        assert joint_count(position, False) == answer["maximum"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["W.dip"]


def test_an_equilibrium_search_answers_what_it_has_as_interrupted(tmp_path):
    run = Running("adjust", str(ROOT / "examples" / "adjustments" / "worst-case.dip"),
                  "--equilibrium", "mixed", "--time-limit", "120", "--json", cwd=tmp_path)
    run.wait_for("evaluations")         # the progress display: the payoffs being computed
    run.send(signal.SIGTERM)
    code, out, err = run.finish()
    assert code == 143 and "Traceback" not in err
    answer = json.loads(out)
    assert answer["status"] == "interrupted" and not answer["certified"]
    assert answer["seconds"] < 120


PLAY = ("play", "--games", "6", "--jobs", "2", "--bots", "dipsolve,dumbbot",
        "--time-limit", "0.5", "--until", "1906")


def _table_games(out: str) -> int:
    """The games the printed table counts (its dumbbot row: every game has six)."""
    row = next(line for line in out.splitlines() if line.startswith("dumbbot"))
    return int(row.split()[1])


@pytest.mark.parametrize("moment", ["at the start", "after a game"])
def test_play_interrupted_prints_the_table_of_the_games_finished(moment, tmp_path):
    saved = tmp_path / "saved"
    run = Running(*PLAY, "--save", str(saved), cwd=tmp_path)
    if moment == "at the start":
        run.wait_for("games done")      # the progress display: 0/6 games done, 2 playing
        run.send_to_group(signal.SIGINT)  # the workers are starting: they get it too
    else:
        run.wait_for("game 1 (seed 0)", where="out")
        run.send(signal.SIGINT)
    code, out, err = run.finish()
    assert code == 130 and "Traceback" not in err and "KeyboardInterrupt" not in err
    finished = [line for line in out.splitlines() if line.startswith("game ")]
    assert f"interrupted: {len(finished)} of 6 games finished" in err
    assert "bot " in out and "% win" in out           # the table, even of no game
    if finished:
        assert _table_games(out) == len(finished)
    # with --save, the record of every game finished, whole; none of a game cut short
    files = sorted(saved.iterdir()) if saved.exists() else []
    assert len(files) == len(finished)
    for f in files:
        assert json.loads(f.read_text())["phases"]
    assert _workers(run.proc.pid) == []


def test_a_play_worker_that_dies_is_one_line_and_its_game_is_played_again(tmp_path):
    # three games, two at once: a worker is killed while both play their first game
    # (they take seconds; the kill comes as soon as both exist); its game is played again
    # by a new worker (dipsolve.execution), and every game is in the table once
    results = tmp_path / "games.jsonl"
    run = Running("play", "--games", "3", *PLAY[3:-1], "1904", "--results", str(results),
                  cwd=tmp_path)
    code, out, err = _kill_a_worker_of(run)
    again = [line for line in err.splitlines() if "playing it again" in line]
    assert len(again) == 1 and "its worker process died (killed by SIGKILL)" in again[0], err
    finished = [line for line in out.splitlines() if line.startswith("game ")]
    assert len(finished) == 3 and _table_games(out) == 3
    lines = [json.loads(line) for line in results.read_text().splitlines()[1:]]
    assert sorted(line["id"] for line in lines) == ["game-0", "game-1", "game-2"]
    assert {line["status"] for line in lines} == {"ok"}


def _kill_a_worker_of(run: "Running") -> tuple[int, str, str]:
    """Once ``run`` has two worker processes, kill one (SIGKILL); the run's exit status and
    output, which must be a success with no traceback."""
    end = time.monotonic() + BOUND
    while len(_workers(run.proc.pid)) < 2:
        assert time.monotonic() < end and run.proc.poll() is None
        time.sleep(0.02)
    os.kill(_workers(run.proc.pid)[0], signal.SIGKILL)
    code, out, err = run.finish()
    assert code == 0 and "Traceback" not in err
    return code, out, err


def test_a_batch_worker_that_dies_has_its_input_run_again_and_every_input_is_one_line(tmp_path):
    # four inputs, two at once: a worker is killed during its first input; a new worker
    # runs that input again, and the results file holds every input once, all answered
    names = [f"{c}.dip" for c in "abcd"]
    for name in names:
        (tmp_path / name).write_text(Path(S1902M).read_text())
    run = Running("batch", *names, "-o", "results.jsonl", "--power", "FRA", "--time-limit", "2",
                  "--jobs", "2", cwd=tmp_path)
    code, out, err = _kill_a_worker_of(run)
    again = [line for line in err.splitlines() if "running it again" in line]
    assert len(again) == 1 and "its worker died (killed by SIGKILL)" in again[0], err
    lines = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()[1:]]
    assert sorted(line["id"] for line in lines) == names
    assert {line["status"] for line in lines} == {"ok"}
    assert sorted(line["attempts"] for line in lines) == [1, 1, 1, 2]
    assert "4 inputs: 0 already in results.jsonl, 4 ok" in out
    # the command line's one progress display (dipsolve.cli.progress) on the terminal
    assert "0/4 inputs" in err and "4/4 inputs" in err, err


def test_a_batch_interrupted_keeps_its_lines_and_the_rerun_finishes_it(tmp_path):
    names = [f"{c}.dip" for c in "abc"]
    for name in names:
        (tmp_path / name).write_text(Path(S1902M).read_text())
    argv = ("batch", *names, "-o", "results.jsonl", "--power", "FRA", "--time-limit", "4")
    run = Running(*argv, cwd=tmp_path)
    results = tmp_path / "results.jsonl"
    end = time.monotonic() + BOUND
    while not (results.exists() and results.read_text().count("\n") >= 2):   # one input done
        assert time.monotonic() < end and run.proc.poll() is None
        time.sleep(0.02)
    run.send(signal.SIGINT)
    code, out, err = run.finish()
    assert code == 130 and "Traceback" not in err and "interrupted" in out
    kept = [json.loads(line)["id"] for line in results.read_text().splitlines()[1:]]
    assert 1 <= len(kept) < 3 and len(set(kept)) == len(kept)
    code, out, err = Running(*argv, cwd=tmp_path).finish()
    assert code == 0, err
    done = [json.loads(line) for line in results.read_text().splitlines()[1:]]
    assert sorted(line["id"] for line in done) == names
    assert f"{len(kept)} already in results.jsonl" in out


def test_a_command_that_does_not_poll_is_stopped_where_it_is(tmp_path, capsys, monkeypatch):
    """``render`` (drawing) stops at once on the signal: exit 130, no file, no traceback."""
    import dipsolve.io.pictures

    def drawing(*a, **k):
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):           # the handler raises within a bytecode or two
            time.sleep(0.01)
        raise AssertionError("not stopped")
    monkeypatch.setattr(dipsolve.io.pictures, "svg_for", drawing)
    out = tmp_path / "x.svg"
    before = signal.getsignal(signal.SIGINT)
    assert main(["render", S1902M, "-o", str(out)]) == 130
    assert "dipsolve: interrupted by SIGINT" in capsys.readouterr().err
    assert not out.exists()
    assert main(["render", S1902M, "-o", str(out), "--json"]) == 130
    assert json.loads(capsys.readouterr().out) == {"error": "interrupted", "signal": "SIGINT",
                                                   "message": "interrupted by SIGINT"}
    # the command gives back the handler it found (the default one, unless an earlier test
    # of the session left another)
    assert signal.getsignal(signal.SIGINT) is before
    time.sleep(0.2)                     # the watcher thread has read the signal's byte
    assert not dipsolve.core.results.stop_requested()     # the next run is not stopped


def test_adjudicate_stops_between_files_prints_those_finished_and_writes_nothing(
        tmp_path, capsys, monkeypatch):
    import dipsolve.core.adjudicator
    real = dipsolve.core.adjudicator.adjudicate
    calls = []

    def adjudicate(position, orders):
        calls.append(1)
        if len(calls) == 2:             # Ctrl-C while the second file is adjudicated
            os.kill(os.getpid(), signal.SIGINT)
        return real(position, orders)
    monkeypatch.setattr(dipsolve.core.adjudicator, "adjudicate", adjudicate)
    files = []
    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.dip").write_text(Path(S1902M).read_text())
        files.append(str(tmp_path / f"{name}.dip"))
    before = sorted(p.name for p in tmp_path.iterdir())
    code = main(["adjudicate", *files, "--json", "--out-dir", str(tmp_path / "out")])
    out, err = capsys.readouterr()
    assert code == 130 and len(calls) == 2
    assert [json.loads(line)["file"] for line in out.splitlines()] == files[:2]
    assert f"not written: {tmp_path / 'out' / 'a.next.dip'}" in err
    assert "dipsolve: interrupted by SIGINT" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_second_signal_stops_a_command_where_it_is(capsys, monkeypatch):
    import dipsolve.api

    def stubborn(*a, **k):              # a search that would not look at its deadline
        os.kill(os.getpid(), signal.SIGINT)
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(1000):
            time.sleep(0.01)
        raise AssertionError("not stopped")
    monkeypatch.setattr(dipsolve.api, "solve", stubborn)
    assert main(["solve", S1902M, "--power", "FRA"]) == 143     # the signal that stopped it
    out, err = capsys.readouterr()
    assert out == "" and err.strip() == "dipsolve: interrupted by SIGTERM"


def test_a_stop_request_expires_every_deadline_and_calls_the_blocking_calls_stops():
    from dipsolve.core.results import (Deadline, Result, Status, interrupted, on_stop, request_stop,
                                  reset_stop)
    clock = iter([0.0] * 10).__next__           # a clock that never moves
    d = Deadline(100.0, clock=clock)
    stopped: list[str] = []
    try:
        with on_stop(lambda: stopped.append("cp-sat")):
            assert not d.expired()
            request_stop()
            assert stopped == ["cp-sat"]
            assert d.expired() and d.remaining() == 0.0 and d.part(0.5).remaining() == 0.0
            with pytest.raises(dipsolve.core.results.TimeUp):
                d.check()
        with on_stop(lambda: stopped.append("late")):  # registered after: called at once
            pass
        assert stopped == ["cp-sat", "late"]
        cut = Result(status=Status.TIMED_OUT, objective=1.0)
        proven = Result(status=Status.OPTIMAL, objective=2.0, bound=2.0)
        assert interrupted(cut).status == "interrupted" == interrupted(cut).to_json()["status"]
        assert interrupted(proven) is proven      # a proof found before the stop stands
    finally:
        reset_stop()
    assert interrupted(cut) is cut and not d.expired()


def test_analyze_interrupted_prints_what_it_finished_and_draws_nothing(tmp_path):
    """Ctrl-C while `analyze` searches: the report of the phases checked and the searches
    finished, marked interrupted, exit 130, and no picture (the run was cut short)."""
    record = ROOT / "examples" / "records" / "dumbbot-1903.json"
    pictures = tmp_path / "pics"
    run = Running("analyze", str(record), "--power", "FRA", "--time-limit", "60", "--json",
                  "--render", str(pictures), cwd=tmp_path)
    run.wait_for("S1901M France")           # the progress line of the first search
    run.send(signal.SIGINT)
    code, out, err = run.finish()
    assert code == 130 and "Traceback" not in err
    report = json.loads(out)
    assert report["status"] == "interrupted"
    assert report["adjudication"]["checked"] == 11 and report["adjudication"]["unexplained"] == 0
    assert report["powers"] == {} or all(m["status"] != "interrupted"
                                         for m in report["powers"]["France"]["moves"])
    assert report["pictures"] == [] and not pictures.exists()
    assert "interrupted by SIGINT" in err


# -- SIGHUP: the terminal closed ------------------------------------------------------------

def test_sighup_is_handled_as_sigterm_by_solve(tmp_path):
    """The best orders so far, status interrupted, exit 129: not a death in silence."""
    run = Running("solve", S1902M, "--power", "FRA", "--time-limit", "120", "--json", cwd=tmp_path)
    run.wait_for("solving France")
    run.send(signal.SIGHUP)
    code, out, err = run.finish()
    assert code == 129 and "Traceback" not in err and "interrupted by SIGHUP" in err
    assert json.loads(out)["solutions"][0]["status"] == "interrupted"


def test_sighup_to_play_with_workers_keeps_the_finished_games_and_no_worker_complains(tmp_path):
    """SIGHUP to the whole group (as a closed terminal sends it): the workers leave it to
    the parent, which keeps every game finished and exits 129; no BrokenPipeError from
    a worker whose parent is going away."""
    saved = tmp_path / "saved"
    run = Running(*PLAY, "--save", str(saved), cwd=tmp_path)
    run.wait_for("game 1 (seed 0)", where="out")
    run.send_to_group(signal.SIGHUP)
    code, out, err = run.finish()
    assert code == 129, err
    assert "Traceback" not in err and "BrokenPipeError" not in err
    finished = [line for line in out.splitlines() if line.startswith("game ")]
    assert len(finished) >= 1 and "interrupted by SIGHUP" in err
    files = sorted(saved.iterdir())
    assert len(files) == len(finished) and all(json.loads(f.read_text())["phases"] for f in files)
    assert _workers(run.proc.pid) == []


def test_output_to_a_terminal_that_is_gone_is_dropped_without_a_traceback(tmp_path):
    """After a SIGHUP the terminal may be gone: a write to it fails (EIO); the command
    still ends with 129, and writes nothing more."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "dipsolve.cli", "solve", S1902M, "--power", "FRA",
                             "--time-limit", "120"], stdout=slave, stderr=slave, cwd=tmp_path,
                            start_new_session=True)
    os.close(slave)
    seen = b""
    end = time.monotonic() + BOUND
    while b"solving France" not in seen:
        assert time.monotonic() < end and proc.poll() is None
        try:
            seen += os.read(master, 65536)
        except OSError:
            break
    os.close(master)                    # the terminal is gone: every write now fails
    os.killpg(proc.pid, signal.SIGHUP)
    assert proc.wait(timeout=BOUND) == 129


@pytest.mark.parametrize("task", ["5", "lambda: 1"])    # a result, and one that cannot be pickled
def test_a_worker_whose_parent_went_away_ends_quietly(task):
    """The parent's end of the pipe is closed before the result goes back: the worker
    returns without a BrokenPipeError traceback (the one every worker printed when the
    terminal closed under ``play --jobs``)."""
    code = ("from multiprocessing import Pipe\n"
            "from dipsolve.execution.workers import _serve\n"
            "parent, child = Pipe()\n"
            f"parent.send((0, {task!r})); parent.close()\n"
            "_serve(child, lambda t: eval(t))\n")
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=BOUND)
    assert got.returncode == 0 and got.stderr == b"", got.stderr.decode()
