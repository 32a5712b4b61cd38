"""Every file the command line writes goes through one writer (`dipsolve.cli.output`):
a bad destination fails before the work, in one line, exit 2; a file is whole or not
there; several files of a run are written together or not at all; nothing is
overwritten that the user did not name."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

import dipsolve.core.files
from dipsolve.cli import main, output
from dipsolve.cli.output import Outputs

ROOT = Path(__file__).resolve().parent.parent
S1902M = str(ROOT / "examples" / "s1902m.dip")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every file under ``folder`` and its bytes (None for a folder)."""
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None)
            for p in sorted(folder.rglob("*"))}


@pytest.fixture
def no_work(monkeypatch):
    """Make every command's work fail the test if it starts: a bad destination must be
    refused before it."""
    def started(*a, **k):
        raise AssertionError("the work started before the destination was checked")
    import dipsolve.core.adjudicator
    import dipsolve.api
    import dipsolve.models.path
    import dipsolve.models.worstcase
    import dipsolve.io.pictures
    monkeypatch.setattr(dipsolve.core.adjudicator, "adjudicate", started)
    monkeypatch.setattr(dipsolve.api, "solve", started)
    monkeypatch.setattr(dipsolve.models.path, "solve_path", started)
    monkeypatch.setattr(dipsolve.models.worstcase, "solve_worst_case", started)
    monkeypatch.setattr(dipsolve.io.pictures, "svg_for", started)


def commands(out: str) -> list[list[str]]:
    """Every command line that writes a file, writing it to ``out``."""
    return [["adjudicate", S1902M, "-o", out],
            ["adjudicate", S1902M, "--render", out + ".svg"],
            ["path", "--power", "GER", "--plan-out", out],
            ["path", "--power", "GER", "--render", out + ".svg"],
            ["render", S1902M, "-o", out + ".svg"],
            ["solve", S1902M, "--power", "FRA", "--render", out + ".svg"],
            ["adjust", "--worst-case", "-o", out]]


@pytest.mark.parametrize("case", ["under a file", "a directory", "a missing directory"])
def test_a_bad_destination_fails_before_the_work_in_one_line(case, tmp_path, capsys, no_work):
    (tmp_path / "file").write_text("kept\n")
    (tmp_path / "dir.svg").mkdir()
    (tmp_path / "dir").mkdir()
    out = {"under a file": str(tmp_path / "file" / "x"), "a directory": str(tmp_path / "dir"),
           "a missing directory": str(tmp_path / "missing" / "x")}[case]
    before = snapshot(tmp_path)
    for argv in commands(out):
        if case == "a directory" and argv[-1].endswith(".svg"):
            argv[-1] = str(tmp_path / "dir.svg")
        code, stdout, err = run(capsys, *argv)
        assert code == 2, argv
        assert "Traceback" not in err and len(err.strip().splitlines()) == 1, (argv, err)
        assert f"{argv[-1]}: cannot write: " in err, (argv, err)
        assert {"under a file": "is not a directory", "a directory": "is a directory",
                "a missing directory": "no such directory"}[case] in err, (argv, err)
        assert stdout == ""
    assert snapshot(tmp_path) == before


def test_the_out_dir_is_checked_before_the_work(tmp_path, capsys, no_work):
    (tmp_path / "file").write_text("kept\n")
    code, _, err = run(capsys, "adjudicate", S1902M, "--out-dir", str(tmp_path / "file"))
    assert code == 2 and "cannot write: " in err and "is not a directory" in err
    code, _, err = run(capsys, "adjudicate", S1902M, "--out-dir", str(tmp_path / "a" / "b"))
    assert code == 2 and f"no such directory {tmp_path / 'a'}" in err


def test_a_read_only_directory_fails_before_the_work(tmp_path, capsys, no_work, monkeypatch):
    ro = tmp_path / "ro"
    ro.mkdir()
    if os.geteuid() != 0:           # a real read-only folder (root may write anywhere)
        ro.chmod(0o555)
        try:
            code, _, err = run(capsys, "adjudicate", S1902M, "-o", str(ro / "x.dip"))
        finally:
            ro.chmod(0o755)
        assert code == 2 and "cannot write: permission denied" in err
    # a read-only file system, as the system reports it when a file is made there

    def read_only(*a, **k):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))
    monkeypatch.setattr(output.tempfile, "mkstemp", read_only)
    code, _, err = run(capsys, "path", "--power", "GER", "--plan-out", str(ro / "p.json"))
    assert code == 2 and err.strip() == f"{ro / 'p.json'}: cannot write: read-only file system"
    assert list(ro.iterdir()) == []


def test_a_full_disk_leaves_every_file_as_it_was(tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    (out / "s1902m.next.dip").write_text("the old next position\n")
    before = snapshot(tmp_path)
    real_fdopen = os.fdopen
    writes = []

    class Full:
        """A file on a disk that fills up half way through the data."""

        def __init__(self, fd, mode):
            self.f = real_fdopen(fd, mode)

        def write(self, data):
            writes.append(len(data))
            self.f.write(data[: len(data) // 2])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

    monkeypatch.setattr(dipsolve.core.files.os, "fdopen", Full)
    code, stdout, err = run(capsys, "adjudicate", S1902M, "--out-dir", str(out),
                            "--render", str(tmp_path / "s.svg"))
    assert writes, "the data never reached the disk"
    assert code == 2 and "Traceback" not in err
    assert err.strip() == (f"{out / 's1902m.next.dip'}: cannot write: no space left on device "
                           f"(none of the 1 other files written either)")
    assert stdout == ""                 # nothing printed as if it had worked
    assert snapshot(tmp_path) == before  # no partial file, no temporary file left


def test_a_full_disk_at_sync_time(tmp_path, capsys, monkeypatch):
    target = tmp_path / "W.dip"
    target.write_text("old\n")

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(dipsolve.core.files.os, "fsync", full)
    code, _, err = run(capsys, "adjudicate", S1902M, "-o", str(target))
    assert code == 2 and err.strip() == f"{target}: cannot write: no space left on device"
    assert snapshot(tmp_path) == {"W.dip": b"old\n"}


def test_a_rename_that_fails_says_what_was_written(tmp_path, monkeypatch):
    real = dipsolve.core.files.commit
    calls = []

    def second_fails(tmp, path):
        calls.append(path)
        if len(calls) == 2:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real(tmp, path)
    monkeypatch.setattr(dipsolve.core.files, "commit", second_fails)
    outputs = Outputs()
    for name in ("a", "b", "c"):
        outputs.plan(str(tmp_path / name))
        outputs.put(str(tmp_path / name), name)
    with pytest.raises(output.FileError) as e:
        outputs.commit()
    assert str(e.value) == (f"{tmp_path / 'b'}: cannot write: input/output error "
                            f"(written: {tmp_path / 'a'})")
    assert snapshot(tmp_path) == {"a": b"a"}


def test_two_outputs_of_one_run_never_collide(tmp_path, capsys):
    out = tmp_path / "out"
    code, _, err = run(capsys, "adjudicate", S1902M, "--out-dir", str(out),
                       "-o", str(out / "s1902m.next.dip"))
    assert code == 2 and "would be written twice in one run" in err
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    for d in (a, b):
        (d / "x.dip").write_text(Path(S1902M).read_text())
    code, _, err = run(capsys, "adjudicate", str(a / "x.dip"), str(b / "x.dip"),
                       "--render", str(tmp_path / "{stem}.svg"))
    assert code == 2 and f"{tmp_path / 'x.svg'} would be written twice" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]


def test_several_outputs_are_written_together_and_the_named_file_replaced(tmp_path, capsys):
    named = tmp_path / "next.dip"
    named.write_text("replaced, as the user asked\n")
    named.chmod(0o640)
    link = tmp_path / "link.dip"
    link.symlink_to("linked.dip")
    code, out, _ = run(capsys, "adjudicate", S1902M, "-o", str(named), "--out-dir",
                       str(tmp_path / "new"), "--render", str(tmp_path / "s.svg"))
    assert code == 0 and out.startswith("#")
    text = (tmp_path / "new" / "s1902m.next.dip").read_text()
    assert named.read_text() == text and text.startswith("phase: Spring 1902 Retreat")
    assert (named.stat().st_mode & 0o777) == 0o640       # its mode kept
    assert (tmp_path / "s.svg").read_text().startswith("<svg")
    code, _, _ = run(capsys, "adjudicate", S1902M, "-o", str(link))
    assert code == 0 and link.is_symlink() and (tmp_path / "linked.dip").read_text() == text
    assert not [p for p in tmp_path.rglob(".*.tmp")]
    assert run(capsys, "adjudicate", S1902M, "-o", os.devnull)[0] == 0


def test_an_existing_read_only_file_is_not_replaced(tmp_path, capsys):
    if os.geteuid() == 0:
        pytest.skip("root may write a read-only file")
    target = tmp_path / "ro.dip"
    target.write_text("keep\n")
    target.chmod(0o444)
    code, _, err = run(capsys, "adjudicate", S1902M, "-o", str(target))
    assert code == 2 and "cannot write: permission denied" in err
    assert target.read_text() == "keep\n"


def test_a_finished_result_is_written_even_after_a_stop_and_an_answer_cut_short_is_not(tmp_path):
    from dipsolve.core import results
    from dipsolve.cli.options import write_file
    results.request_stop()
    try:
        cut_short = Outputs()
        cut_short.put(str(tmp_path / "answer.json"), "{}")
        assert cut_short.commit() == []
        write_file(str(tmp_path / "game-0.json"), "[]\n")      # a game played to its end
    finally:
        results.reset_stop()
    assert snapshot(tmp_path) == {"game-0.json": b"[]\n"}


# -- destinations that are not files: written in place, never blocking --------------------

F1901M = str(ROOT / "examples" / "f1901m.dip")


def _cli(argv: list[str], **kw):
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-m", "dipsolve.cli", *argv], capture_output=True,
                          timeout=120, **kw)


@pytest.mark.parametrize("how", ["/dev/stdout", pytest.param("-", marks=pytest.mark.slow),
                                 pytest.param("/proc/self/fd/1", marks=pytest.mark.slow)])
def test_standard_output_into_a_pipe_is_written_in_place(how, tmp_path):
    """``-o /dev/stdout`` (a link to ``pipe:[...]``, which names no file), ``-o -`` and
    the descriptor's own link write the position to the pipe."""
    got = _cli(["adjudicate", F1901M, "-o", how])
    assert got.returncode == 0, got.stderr
    assert b"Traceback" not in got.stderr and got.stderr == b""
    assert got.stdout.count(b"phase: Fall 1901 Retreat") == 2        # printed, and written


def test_a_link_to_a_pipe_is_written_through(tmp_path):
    link = tmp_path / "out"
    link.symlink_to("/dev/stdout")
    got = _cli(["adjudicate", F1901M, "-o", str(link)])
    assert got.returncode == 0 and got.stdout.count(b"phase: Fall 1901 Retreat") == 2
    assert link.is_symlink()


def test_a_fifo_that_nobody_reads_is_refused_after_the_timeout_not_waited_on_forever(tmp_path, capsys,
                                                                                   monkeypatch):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    now = [0.0]

    def clock() -> float:
        now[0] += 1.0
        return now[0]

    real = output.write_device
    monkeypatch.setattr(output, "write_device",
                        lambda path, data, **kw: real(path, data, timeout=5, clock=clock, **kw))
    monkeypatch.setattr(output, "_DEVICE_POLL", 0.001)
    code, out, err = run(capsys, "adjudicate", F1901M, "-o", str(fifo))
    assert code == 2 and err.strip() == f"{fifo}: cannot write: no process reads the pipe (waited 5 s)"
    assert stat_is_fifo(fifo)


def stat_is_fifo(path: Path) -> bool:
    import stat
    return stat.S_ISFIFO(os.stat(path).st_mode)


def test_a_reader_that_takes_nothing_is_given_up(tmp_path, monkeypatch):
    """The reader opened the pipe and never reads: once the pipe is full the write
    waits no longer than the timeout (injected clock), and says how much went."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    now = [0.0]

    def clock() -> float:
        now[0] += 1.0
        return now[0]

    monkeypatch.setattr(output, "_DEVICE_POLL", 0.001)
    try:
        with pytest.raises(output.FileError) as info:
            output.write_device(str(fifo), b"x" * (1 << 20), timeout=3, clock=clock)
    finally:
        os.close(reader)
    assert "the reader took nothing for 3 s" in info.value.message
    assert "of 1,048,576 bytes written" in info.value.message


@pytest.mark.parametrize("cooperative", [False, True])
@pytest.mark.parametrize("signame", ["SIGTERM", "SIGINT", "SIGHUP"])
def test_a_signal_while_a_fifo_waits_for_its_reader_is_answered_at_once(tmp_path, signame, cooperative):
    """SIGTERM, SIGINT and SIGHUP end the wait for a reader (nothing held off until a
    SIGKILL), in a command that stops where it is and in one that stops by itself."""
    import signal
    import threading
    from dipsolve.cli import interrupt
    signum = getattr(signal, signame)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    timer = threading.Timer(0.2, os.kill, (os.getpid(), signum))
    with interrupt.Signals():
        with (interrupt.cooperative() if cooperative else _nothing()):
            timer.start()
            try:
                with pytest.raises(interrupt.Interrupted) as info:
                    output.write_device(str(fifo), b"x", timeout=600)
            finally:
                timer.cancel()
    assert info.value.signum == signum


def _nothing():
    import contextlib
    return contextlib.nullcontext()
