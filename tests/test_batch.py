"""``dipsolve batch`` and ``play --results``: one line per input in the results file, a
rerun resumes (skips what is done, cuts a torn line, refuses other settings), bad inputs
are lines of their own, and ``--ray`` gives the lines the local processes give."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from dipsolve.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
RECORD = EXAMPLES / "records" / "dumbbot-1903.json"


def lines(path: Path) -> list[dict]:
    text = path.read_text()
    assert text.endswith("\n")
    out = [json.loads(line) for line in text.splitlines()]
    assert out[0]["dipsolve"] == "results"
    return out[1:]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder of three position files (with orders) and a file that is not an input."""
    d = tmp_path / "in"
    d.mkdir()
    for name in ("s1902m.dip", "f1902m.dip", "w1901a.dip"):
        shutil.copy(EXAMPLES / name, d / name)
    (d / "notes.txt").write_text("not an input")
    return d


def batch(*argv: str, capsys) -> tuple[int, dict]:
    code = main(["batch", *argv, "--json"])
    out = capsys.readouterr().out.strip().splitlines()
    return code, json.loads(out[-1])


def test_a_batch_writes_one_line_per_input_and_a_rerun_skips_them(folder, tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    code, summary = batch(str(folder), "-o", str(out), "--task", "adjudicate", capsys=capsys)
    assert code == 0 and summary["inputs"] == 3 and summary["ok"] == 3 and summary["skipped"] == 0
    first = lines(out)
    assert sorted(line["id"] for line in first) == sorted(str(folder / n) for n in
                                                          ("f1902m.dip", "s1902m.dip", "w1901a.dip"))
    assert all(line["status"] == "ok" and line["attempts"] == 1 for line in first)
    s1902m = next(line for line in first if line["id"].endswith("s1902m.dip"))
    assert s1902m["result"]["phase"] == "S1902M" and s1902m["result"]["next"]
    code, summary = batch(str(folder), "-o", str(out), "--task", "adjudicate", capsys=capsys)
    assert code == 0 and summary["skipped"] == 3 and summary["ok"] == 0
    assert lines(out) == first                      # nothing appended


def test_a_torn_last_line_is_cut_and_its_input_run_again(folder, tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    batch(str(folder), "-o", str(out), "--task", "adjudicate", capsys=capsys)
    whole = out.read_text().splitlines(keepends=True)
    out.write_text("".join(whole[:-1]) + whole[-1][:25])     # killed while writing the last
    code = main(["batch", str(folder), "-o", str(out), "--task", "adjudicate", "--json"])
    said = capsys.readouterr()
    summary = json.loads(said.out)
    assert code == 0 and summary["skipped"] == 2 and summary["ok"] == 1
    assert "cut off a line torn by an earlier run (25 bytes)" in said.err
    again = lines(out)
    assert len(again) == 3 and len({line["id"] for line in again}) == 3


def test_a_rerun_with_other_settings_is_refused(folder, tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    batch(str(folder), "-o", str(out), "--task", "adjudicate", capsys=capsys)
    before = out.read_text()
    code, error = batch(str(folder), "-o", str(out), "--task", "solve", "--time-limit", "0.1",
                        capsys=capsys)
    assert code == 2 and error["file"] == str(out) and error["line"] == 1
    assert "written by another run" in error["message"]
    assert out.read_text() == before


@pytest.mark.parametrize("text", ["precious\n", "precious", "{\"id\": 1}\nmore", "\n"])
def test_a_file_that_is_not_a_results_file_is_refused_untouched(text, folder, tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    out.write_text(text)
    code, error = batch(str(folder), "-o", str(out), "--task", "adjudicate", capsys=capsys)
    assert code == 2 and "not a dipsolve results file" in error["message"]
    assert out.read_text() == text


def test_a_failed_line_is_run_again_and_the_last_line_is_the_result(folder, tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    batch(str(folder), "-o", str(out), "--task", "adjudicate", capsys=capsys)
    rows = out.read_text().splitlines()
    failed = json.loads(rows[1])
    rows[1] = json.dumps({"id": failed["id"], "status": "failed", "attempts": 2,
                          "error": {"error": "failed", "message": "its worker died 2 times"}})
    out.write_text("\n".join(rows) + "\n")
    code, summary = batch(str(folder), "-o", str(out), "--task", "adjudicate", capsys=capsys)
    assert code == 0 and summary["ok"] == 1 and summary["skipped"] == 2
    last = lines(out)[-1]
    assert last["id"] == failed["id"] and last["status"] == "ok"


def test_bad_inputs_are_lines_of_their_own_and_the_exit_status_is_2(folder, tmp_path, capsys):
    (folder / "broken.dip").write_text("phase: Spring 1901 Movement\nFrance: A Atlantis\n")
    positions = tmp_path / "positions.jsonl"
    start = (EXAMPLES / "start.dip").read_text()
    positions.write_text(json.dumps({"id": "opening", "position": start,
                                     "orders": "France: A PAR - BUR\nGermany: A MUN - BUR"}) + "\n"
                         + "{not json\n"
                         + json.dumps({"position": start}) + "\n")
    out = tmp_path / "r.jsonl"
    code, summary = batch(str(folder), str(positions), "-o", str(out), "--task", "adjudicate",
                          capsys=capsys)
    assert code == 2 and summary["ok"] == 5 and summary["error"] == 2
    got = {line["id"]: line for line in lines(out)}
    broken = got[str(folder / "broken.dip")]
    assert broken["status"] == "error" and broken["error"]["line"] == 2
    assert got[f"{positions}:2"]["status"] == "error" and got[f"{positions}:2"]["error"]["line"] == 2
    reasons = {r["order"]: r["reason"] for r in got["opening"]["result"]["results"]}
    assert reasons["A PAR - BUR"] == reasons["A MUN - BUR"] == "bounced"
    assert reasons["A MAR H"] == "held"             # a unit without an order holds
    assert got[f"{positions}:3"]["status"] == "ok"


def test_a_game_record_is_one_input_per_phase_or_per_game(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    code, summary = batch(str(RECORD), "-o", str(out), "--task", "adjudicate", capsys=capsys)
    ids = [line["id"] for line in lines(out)]
    assert code == 0 and summary["ok"] == len(ids) > 6
    assert f"{RECORD}#dipsolve-7:S1901M" in ids
    games = tmp_path / "g.jsonl"
    code, summary = batch(str(RECORD), "-o", str(games), "--task", "analyze", "--adjudication-only",
                          capsys=capsys)
    (line,) = lines(games)
    assert code == 0 and line["id"] == f"{RECORD}#dipsolve-7" and line["status"] == "ok"
    assert line["result"]["adjudication"]["checked"] > 6 and line["result"]["status"] == "complete"


# -- progress (issue 49: four records analysed for 11.5 minutes with nothing printed) ---------

def test_a_batch_says_its_plan_then_each_input_as_it_starts_and_finishes(folder, tmp_path, capsys):
    """Off a terminal (a log, a pipe): the plan, then a line as each input starts and one
    as it finishes, on stderr; stdout is the summary alone, as without them."""
    out = tmp_path / "r.jsonl"
    assert main(["batch", str(folder), "-o", str(out), "--task", "adjudicate"]) == 0
    said = capsys.readouterr()
    assert said.out == "3 inputs: 0 already in {}, 3 ok, 0 bad input, 0 failed (in this process, 1 at once)\n".format(out)
    err = said.err.splitlines()
    assert err[0] == "dipsolve: batch: adjudicate 3 inputs, 1 at once (in this process)"
    ids = sorted(str(folder / n) for n in ("f1902m.dip", "s1902m.dip", "w1901a.dip"))
    for n, key in enumerate(ids, 1):
        assert err[2 * n - 1] == f"dipsolve: batch: started {n}/3: {key}"
        assert err[2 * n].startswith(f"dipsolve: batch: finished {n}/3: {key}: ok (")
    assert len(err) == 7
    assert [line["id"] for line in lines(out)] == ids


def test_under_json_a_batch_prints_its_summary_alone(folder, tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    assert main(["batch", str(folder), "-o", str(out), "--task", "adjudicate", "--json"]) == 0
    said = capsys.readouterr()
    assert json.loads(said.out)["ok"] == 3 and len(said.out.splitlines()) == 1
    assert "batch:" not in said.err


def test_the_plan_of_analyze_counts_its_searches_at_the_default_time_limit(tmp_path, capsys, monkeypatch):
    """The default --time-limit (5 s) is a power and movement phase's: the plan says how
    many searches and the time they take at most (the searches themselves left out here)."""
    import dipsolve.analysis
    real = dipsolve.analysis.analyze
    monkeypatch.setattr(dipsolve.analysis, "analyze", lambda record, powers, **kw: real(
        record, powers, **{**kw, "check_only": True}))
    from dipsolve.io.records import read_records
    searches = len(dipsolve.analysis.searches(read_records(RECORD.read_text())[0]))
    assert searches == 42           # 6 movement phases with orders, 7 powers
    assert main(["batch", str(RECORD), "-o", str(tmp_path / "g.jsonl"), "--task", "analyze"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == ("dipsolve: batch: analyze 1 input, 1 at once (in this process): 42 searches of "
                      "at most 5 s (one a power and movement phase: --time-limit), 3 min 30 s of search "
                      "at most in all")
    assert main(["batch", str(RECORD), "-o", str(tmp_path / "f.jsonl"), "--task", "analyze",
                 "--power", "FRA", "--time-limit", "2"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0].endswith(": 6 searches of at most 2 s (one a power and movement phase: "
                           "--time-limit), 12 s of search at most in all")


def test_on_a_terminal_the_bar_shows_the_phase_at_work(tmp_path, capsys, monkeypatch):
    """In this process, on a terminal: the bar names the input and how far its work is,
    and no line per input (the bar is erased at the end; the summary stays)."""
    import dipsolve.cli.progress
    monkeypatch.setattr(dipsolve.cli.progress, "is_terminal", lambda stream: True)
    assert main(["batch", str(RECORD), "-o", str(tmp_path / "g.jsonl"), "--task", "analyze",
                 "--adjudication-only"]) == 0
    said = capsys.readouterr()
    assert said.out.startswith("1 inputs: 0 already in")
    assert "analyze 0/1 inputs; checking S1901M (0/11) of dumbbot-1903.json#dipsolve-7" in said.err
    assert "analyze 1/1 inputs" in said.err and "batch: started" not in said.err


def test_the_default_time_limit_of_analyze_is_said_in_help_and_readme(capsys):
    with pytest.raises(SystemExit):
        main(["batch", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--time-limit (default 5 s) bounds the search of each input of solve, and of each power " \
           "in each movement phase of analyze" in text
    readme = (ROOT / "README.md").read_text()
    (row,) = [line for line in readme.splitlines() if line.startswith("| `dipsolve batch")]
    assert "analyze searches 5 s a power and movement phase (`--time-limit`)" in row


@pytest.mark.slow  # worker processes
def test_solve_on_local_processes(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    files = [str(EXAMPLES / "s1902m.dip"), str(EXAMPLES / "f1902m.dip")]
    code, summary = batch(*files, "-o", str(out), "--power", "FRA", "--time-limit", "0.5",
                          "--jobs", "2", capsys=capsys)
    assert code == 0 and summary["ok"] == 2 and summary["backend"] == "local processes, 2 at once"
    for line in lines(out):
        (solution,) = line["result"]["solutions"]
        assert solution["power"] == "France" and solution["orders"]


@pytest.mark.parametrize("argv, message", [
    (["nowhere/*.dip"], "no file matches"),
    (["{d}", "{d}"], "two inputs with the id"),
    (["{d}", "--ray", "{d}"], "a file, not a Ray address"),
])
def test_command_line_mistakes_are_one_line_before_any_work(argv, message, folder, tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    argv = [a.replace("{d}", str(folder)) for a in argv]
    code, error = batch(*argv, "-o", str(out), "--task", "adjudicate", capsys=capsys)
    assert code == 2 and message in error["message"]
    assert not out.exists() or "\"id\"" not in out.read_text()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_full_disk_is_one_line_and_exit_status_2(folder, capsys):
    code, error = batch(str(folder), "-o", "/dev/full", "--task", "adjudicate", capsys=capsys)
    assert code == 2 and error["error"] == "file" and error["file"] == "/dev/full"
    assert "no space left on device" in error["message"]


def test_the_results_file_of_another_run_in_the_folder_is_not_an_input(folder, capsys):
    out = folder / "r.jsonl"
    batch(str(folder), "-o", str(out), "--task", "adjudicate", capsys=capsys)
    other = folder / "other.jsonl"
    code, summary = batch(str(folder), "-o", str(other), "--task", "adjudicate", capsys=capsys)
    assert code == 0 and summary["inputs"] == 3


def test_play_results_resume_and_the_table_counts_every_game(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    argv = ["play", "--bots", "dumbbot,random", "--until", "1902", "--results", str(out), "--json"]
    assert main([*argv, "--games", "2"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert main([*argv, "--games", "3"]) == 0           # plays game 3 only
    second = json.loads(capsys.readouterr().out)
    assert [g["seed"] for g in second["games"]] == [0, 1, 2]
    assert second["games"][:2] == first["games"]        # the games of the file, rebuilt
    assert [line["id"] for line in lines(out)] == ["game-0", "game-1", "game-2"]
    assert main([*argv, "--games", "3", "--time-limit", "1"]) == 2     # other settings
    assert "written by another run" in json.loads(capsys.readouterr().out)["message"]


@pytest.mark.slow  # a local Ray
@pytest.mark.xdist_group("ray")  # with the other tests that start one (--dist loadgroup)
def test_batch_on_a_local_ray_gives_the_lines_of_the_local_processes(folder, tmp_path, capsys):
    pytest.importorskip("ray") if not os.environ.get("CI") else None
    local, on_ray = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    inputs = [str(folder), str(RECORD)]
    code, summary = batch(*inputs, "-o", str(local), "--task", "adjudicate", "--jobs", "2",
                          capsys=capsys)
    assert code == 0
    code, summary = batch(*inputs, "-o", str(on_ray), "--task", "adjudicate", "--jobs", "2",
                          "--ray", capsys=capsys)
    assert code == 0 and summary["backend"] == "ray (local), 2 at once"
    assert ({line["id"]: line for line in lines(on_ray)}
            == {line["id"]: line for line in lines(local)})


def test_play_with_ray_not_installed_is_one_line(monkeypatch, capsys):
    import sys
    monkeypatch.setitem(sys.modules, "ray", None)       # import ray: ImportError
    assert main(["play", "--games", "2", "--until", "1901", "--ray", "--json"]) == 2
    error = json.loads(capsys.readouterr().out)
    assert error["error"] == "unavailable" and "pip install 'dipsolve[cluster]'" in error["message"]


@pytest.mark.parametrize("address, message", [
    ("nonsense", "expected HOST:PORT, ray://HOST:PORT or auto"),
    ("127.0.0.1:1", "no Ray cluster answers at 127.0.0.1:1 (connection refused)"),
])
def test_a_ray_address_where_no_cluster_answers_is_one_line(address, message, tmp_path, capsys):
    pytest.importorskip("ray") if not os.environ.get("CI") else None
    out = tmp_path / "r.jsonl"
    code, error = batch(str(EXAMPLES / "start.dip"), "-o", str(out), "--task", "adjudicate",
                        f"--ray={address}", capsys=capsys)
    assert code == 2 and error["error"] == "unavailable" and message in error["message"]


# -- a pipe as the results file: every line reaches its reader, nothing waits forever ------

#: seconds before a test's own wait is a hang (never reached when all is well)
BOUND = 180.0
#: ``dipsolve ARGV...`` in a process of its own, with the wait for a pipe's reader
#: (`dipsolve.cli.output.DEVICE_TIMEOUT`) set to the first argument's seconds
_WITH_TIMEOUT = ("import sys\n"
                 "from dipsolve.cli import main, output\n"
                 "output.DEVICE_TIMEOUT = float(sys.argv[1])\n"
                 "sys.exit(main(sys.argv[2:]))\n")


def _started(timeout: float, *argv: str) -> "subprocess.Popen[str]":
    import subprocess
    import sys
    return subprocess.Popen([sys.executable, "-c", _WITH_TIMEOUT, str(timeout), *argv],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finish(run: "subprocess.Popen[str]", bound: float = BOUND) -> tuple[str, str]:
    """The run's stdout and stderr once it ends; killed (and the test failed) after ``bound`` s."""
    import subprocess
    try:
        return run.communicate(timeout=bound)
    except subprocess.TimeoutExpired:
        run.kill()
        run.communicate()
        raise


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "results.fifo"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("argv", [("batch", str(EXAMPLES / "start.dip"), "--task", "adjudicate", "-o"),
                                  ("play", "--bots", "dumbbot", "--until", "1901", "--results")],
                         ids=["batch", "play"])
def test_a_fifo_that_nobody_opens_is_refused_before_any_work(fifo, argv):
    """Nobody reads: the results are not written into the pipe for nobody (a run that
    opened it for reading too was its own reader and lost every line, "1 ok", exit 0):
    the run waits for a reader a while, then stops before any input is run (any game
    played)."""
    run = _started(1, *argv, str(fifo))
    out, err = _finish(run)
    assert run.returncode == 2, err
    assert err.strip() == f"{fifo}: cannot write: no process reads the pipe (waited 1 s)"
    assert out == ""


def test_a_fifo_with_a_reader_gets_every_line_as_a_file_would(fifo, folder, tmp_path, capsys):
    import threading
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    code, summary = batch(str(folder), "-o", str(fifo), "--task", "adjudicate", capsys=capsys)
    reader.join(timeout=BOUND)
    assert code == 0 and summary["ok"] == 3 and not reader.is_alive()
    as_file = tmp_path / "r.jsonl"
    batch(str(folder), "-o", str(as_file), "--task", "adjudicate", capsys=capsys)
    assert got == [as_file.read_bytes()]        # the same lines, the run's first line first


def _held_open(fifo: Path) -> int:
    """A reader of ``fifo`` that never reads (its descriptor, to close)."""
    return os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)


def test_a_reader_that_takes_nothing_past_a_full_pipe_is_given_up(fifo):
    """The reader opened the pipe and reads nothing: once the pipe is full (64 kB; the
    90 phases of the example records are 240 kB of lines) the run waits no longer than
    the timeout and says so, where it waited in ``write`` for ever."""
    reader = _held_open(fifo)
    try:
        run = _started(1, "batch", str(EXAMPLES / "records"), "-o", str(fifo), "--task", "adjudicate")
        out, err = _finish(run)
    finally:
        os.close(reader)
    assert run.returncode == 2, err
    assert err.splitlines()[-1].startswith(f"{fifo}: cannot write: the reader took nothing for 1 s (")


@pytest.mark.slow  # a whole dipsolve process signalled
def test_sigterm_ends_a_batch_that_waits_for_its_pipes_reader(fifo):
    """Blocked on a full pipe whose reader takes nothing (the wait for it set to ten
    minutes), the run ends on SIGTERM at once: exit 143, not a wait that only SIGKILL ends."""
    import fcntl
    import signal
    import struct
    import termios
    import time
    reader = _held_open(fifo)
    try:
        run = _started(600, "batch", str(EXAMPLES / "records"), "-o", str(fifo), "--task", "adjudicate")
        held, since, end = -1, time.monotonic(), time.monotonic() + BOUND
        while True:                     # until the pipe stays full: the run waits in its write
            queued = struct.unpack("i", fcntl.ioctl(reader, termios.FIONREAD, b"\0\0\0\0"))[0]
            if queued != held:
                held, since = queued, time.monotonic()
            elif queued > 0 and time.monotonic() - since > 1.0:
                break
            if run.poll() is not None or time.monotonic() > end:
                run.kill()
                pytest.fail(f"the run ended, or never filled the pipe: {run.communicate()}")
            time.sleep(0.05)
        run.send_signal(signal.SIGTERM)
        out, err = _finish(run, 60)
    finally:
        os.close(reader)
    assert run.returncode == 143, err
    assert "dipsolve: interrupted by SIGTERM" in err and "Traceback" not in err
