"""Every ``$ dipsolve ...`` example of README.md and docs/*.md runs, and prints what the
page says it prints (CONTRIBUTING.md, "The documentation's commands").

An example is a line ``$ COMMAND`` in a fenced or indented code block, and the lines
after it up to the next ``$`` line or the block's end are its output (stdout, then
stderr).  The output is compared line by line, each line's runs of blanks read as one,
with three ways for a page to leave out what varies from run to run:

- a line that is ``...`` alone (or after the line's ``#`` and blanks) stands for any
  number of lines, none included;
- ``...`` inside a line stands for any text within that line;
- ``~`` before a number (``~1461 positions``) stands for any number: a figure that
  depends on how far a search got in its time;
- a duration (a number and ``s``, ``ms`` or ``µs``: ``3.34 s``) stands for any duration.

JSON shown folded over several lines is read as the one line the command prints.

Each example runs in a fresh copy of ``examples/`` (so that a command writing
``-o examples/...`` changes nothing in the checkout), in-process through
`dipsolve.cli.main`; the same command line shown on two pages runs once.  The shell the
pages show is read as far as they use it: quotes and comments (shlex), ``| head -N``
and ``| tail -N``, ``cat FILE``, and ``echo $?`` (the exit status of the example before
it).  An HTML comment before a block (invisible on the rendered page) sets how its
examples run:

- ``<!-- doc-test: files DIR -->``: DIR's files (tests/data/doc_commands: ``bad.dip``
  and the like, which the page describes) are in the working folder too;
- ``<!-- doc-test: time-limit 0.5 -->``: the block's searching commands run with
  ``--time-limit 0.5`` instead of their own; the page's output must still match (the
  page marks with ``~`` and ``...`` what the limit changes);
- ``<!-- doc-test: interrupt: ... -->``: the command runs in a process of its own, its
  stderr a terminal, and gets SIGINT once its progress display shows (Ctrl-C);
- ``<!-- doc-test: daide-server PHASE -->``: the ``diplomacy`` package's DAIDE server runs
  on 127.0.0.1 (`dipsolve.testing.daide_server`, ending the game on reaching PHASE, 10 s
  a turn) with six DumbBot seats (``dipsolve daide`` processes); the example's
  ``HOST:PORT`` is the server's, and it takes the seventh seat (its output: stderr, the
  seat it got, then stdout, the end: in the order a terminal shows them);
- ``<!-- doc-test: slow: REASON -->``: marked ``slow``, run by ``--all`` (CI) only, as are
  the ``interrupt`` and ``daide-server`` examples (whole processes); an example whose
  command takes ``--ray`` runs on the xdist worker of the other tests that start a Ray;
- ``<!-- doc-test: not run: REASON -->``: shown, not run (`NOT_RUN`).

`NOT_RUN` lists those examples, so that none is added unseen.
"""

from __future__ import annotations

import os
import pty
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from dipsolve.cli import main

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["README.md", *sorted(p.relative_to(ROOT).as_posix() for p in ROOT.glob("docs/*.md"))]

#: the settings a page's HTML comment can give the examples of the block after it
DIRECTIVES = ("files", "time-limit", "not run", "slow", "interrupt", "daide-server")

#: the examples shown but not run (a page says why in its directive)
NOT_RUN: set[str] = set()

#: the directives that make an example ``slow`` (run by ``--all``)
SLOW_DIRECTIVES = ("slow", "interrupt", "daide-server")

#: what a command printed, by its command line and folder of files: README.md and a page
#: under docs/ often show the same command, which runs once
_PRINTED: dict[tuple[str, str], tuple[int, list[str]]] = {}

#: the commands that search against the clock (a ``time-limit`` directive reaches them)
TIMED = {"solve", "path", "adjust", "play", "analyze", "batch", "daide"}

_DIRECTIVE = re.compile(r"<!--\s*doc-test:\s*(.*?)\s*-->")
_DURATION = re.compile(r"\d[\d,]*(?:\.\d+)?\s?(?:s|ms|µs)\b")
_ABOUT = re.compile(r"~[-+]?\d[\d,]*(?:\.\d+)?")
_ANY_NUMBER = r"[-+]?\d[\d,]*(?:\.\d+)?"
_ANY_DURATION = r"\d[\d,]*(?:\.\d+)?\s?(?:s|ms|µs)"


@dataclass
class Example:
    page: str
    line: int
    command: str
    output: list[str]
    settings: dict[str, str] = field(default_factory=dict)
    previous: "Example | None" = None          # the example before it in its block

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def _blocks(page: str) -> list[tuple[int, list[str], dict[str, str]]]:
    """The code blocks of a page: (first line number, lines, the directive before it)."""
    lines = (ROOT / page).read_text(encoding="utf-8").splitlines()
    blocks: list[tuple[int, list[str], dict[str, str]]] = []
    settings: dict[str, str] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        found = _DIRECTIVE.search(line)
        if found:
            text = found.group(1)
            key = next((k for k in DIRECTIVES if text.startswith(k)), None)
            assert key is not None, f"{page}:{i + 1}: unknown doc-test directive {text!r}"
            settings[key] = text[len(key):].lstrip(": ").strip()
            i += 1
            continue
        if line.lstrip().startswith("```"):
            indent = len(line) - len(line.lstrip())
            j = i + 1
            while j < len(lines) and not lines[j].lstrip().startswith("```"):
                j += 1
            blocks.append((i + 2, [s[indent:] for s in lines[i + 1:j]], settings))
            settings = {}
            i = j + 1
            continue
        if line.lstrip().startswith("$ "):          # an indented block
            indent = len(line) - len(line.lstrip())
            j = i
            while j < len(lines) and (lines[j][:indent].strip() == "" and lines[j].strip()):
                j += 1
            blocks.append((i + 1, [s[indent:] for s in lines[i:j]], settings))
            settings = {}
            i = j
            continue
        i += 1
    return blocks


def examples() -> list[Example]:
    found: list[Example] = []
    for page in PAGES:
        for first, lines, settings in _blocks(page):
            current: Example | None = None
            for n, text in enumerate(lines, first):
                if text.startswith("$ "):
                    current = Example(page, n, text[2:].strip(), [], dict(settings), current)
                    found.append(current)
                elif current is not None:
                    current.output.append(text)
    return [e for e in found if _is_ours(e.command)]


def _is_ours(command: str) -> bool:
    return command.split()[0] in ("dipsolve", "cat", "echo")


EXAMPLES = examples()


def _pattern(line: str) -> re.Pattern[str]:
    """A line of a page's output as a pattern: ``...`` any text, ``~NUMBER`` any number, a
    duration any duration, runs of blanks one blank."""
    parts = []
    for piece in re.split(r"(\.\.\.)", " ".join(line.split())):
        if piece == "...":
            parts.append(".*?")
            continue
        last = 0
        for m in re.finditer(f"{_ABOUT.pattern}|{_DURATION.pattern}", piece):
            parts.append(re.escape(piece[last:m.start()]))
            parts.append(_ANY_NUMBER if m.group().startswith("~") else _ANY_DURATION)
            last = m.end()
        parts.append(re.escape(piece[last:]))
    return re.compile("".join(parts).replace(r"\ ", " "))


def _elides_lines(line: str) -> bool:
    """``...`` alone on a line, or after the line's ``#`` and blanks: any number of lines."""
    return line.strip().lstrip("#").strip() == "..."


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` lines are what ``expected`` shows (``...`` lines elide)."""
    want = list(expected)
    while want and not want[-1].strip():
        want.pop()
    if len(actual) == 1 and want and want[0].startswith(("{", "[")):
        want = [" ".join(want)]          # JSON shown folded over several lines
    got = [" ".join(s.split()) for s in actual]
    while got and not got[-1]:
        got.pop()
    patterns = [None if _elides_lines(w) else _pattern(w) for w in want]
    memo: dict[tuple[int, int], bool] = {}

    def fit(i: int, j: int) -> bool:
        if (i, j) in memo:
            return memo[i, j]
        if i == len(patterns):
            ok = j == len(got)
        elif patterns[i] is None:
            ok = fit(i + 1, j) or (j < len(got) and fit(i, j + 1))
        else:
            pattern = patterns[i]
            assert pattern is not None
            ok = j < len(got) and pattern.fullmatch(got[j]) is not None and fit(i + 1, j + 1)
        memo[i, j] = ok
        return ok

    return fit(0, 0)


def _pipe(words: list[str], lines: list[str]) -> list[str]:
    command, option = words[0], words[1] if len(words) > 1 else "-10"
    count = int(option.lstrip("-n").lstrip("-"))
    if command == "head":
        return lines[:count]
    if command == "tail":
        return lines[-count:]
    raise AssertionError(f"a pipe into {command!r}: the doc test reads only head and tail")


def _argv(example: Example) -> tuple[list[str], list[list[str]]]:
    """The command's arguments (after ``dipsolve``) and the pipes after it."""
    stages = [shlex.split(part, comments=True) for part in example.command.split(" | ")]
    argv = stages[0][1:]
    if "time-limit" in example.settings and argv and argv[0] in TIMED:
        if "--time-limit" in argv:
            k = argv.index("--time-limit")
            del argv[k:k + 2]
        argv += ["--time-limit", example.settings["time-limit"]]
    return argv, stages[1:]


def _interrupted(argv: list[str]) -> tuple[int, list[str]]:
    """``dipsolve ARGV`` in a process of its own, its stderr a terminal, sent SIGINT as
    soon as its progress display shows that the work has begun (Ctrl-C at a terminal)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "dipsolve.cli", *argv], stdout=subprocess.PIPE,
                            stderr=slave, env={**os.environ, "DIPSOLVE_PROGRESS": "always"})
    os.close(slave)
    err = bytearray()
    while not err:                          # the display's first frame
        ready, _, _ = select.select([master], [], [], 120)     # a bound against a hang
        assert ready, "no progress display within 120 s"
        err += os.read(master, 65536)
    proc.send_signal(signal.SIGINT)
    assert proc.stdout is not None
    out = proc.stdout.read().decode()
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:                     # the terminal's other side closed
            break
        if not data:
            break
        err += data
    os.close(master)
    code = proc.wait(timeout=120)
    # what stays on the terminal: each line's last redraw, without the display's escapes
    shown = [re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", line.split("\r")[-1]).strip()
             for line in err.decode(errors="replace").replace("\r\n", "\n").split("\n")]
    return code, out.splitlines() + [line for line in shown if line]


def _with_daide_server(example: Example, argv: list[str], capsys: pytest.CaptureFixture[str]
                       ) -> tuple[int, list[str]]:
    """``dipsolve daide`` at the seventh seat of a game on the ``diplomacy`` package's DAIDE
    server, six DumbBot seats around it (each in its own process, killed at the end)."""
    from dipsolve.testing.daide_server import DaideServerProcess
    pytest.importorskip("diplomacy")
    address = next(i for i, a in enumerate(argv) if re.fullmatch(r"[\w.]+:\d+", a))
    clients: list[subprocess.Popen] = []
    with DaideServerProcess(Path("daide-doc-game.json"), deadline=10, max_seconds=120,
                            until=example.settings["daide-server"]) as server:
        try:
            argv = [*argv[:address], f"127.0.0.1:{server.port}", *argv[address + 1:]]
            clients = [subprocess.Popen([sys.executable, "-m", "dipsolve.cli", "daide", argv[address],
                                         "--bot", "dumbbot", "--name", f"seat{i}", "--seed", str(i),
                                         "--timeout", "90"], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
                       for i in range(6)]
            code = main(argv)
            out, err = capsys.readouterr()
            server.wait(timeout=60)
            for c in clients:
                c.wait(timeout=60)
        finally:
            for c in clients:
                if c.poll() is None:
                    os.killpg(c.pid, signal.SIGKILL)
                    c.wait()
    return code, (err + out).splitlines()        # as a terminal shows it: the seat first


def run_example(example: Example, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    """What an example prints (stdout, then stderr), and its exit status."""
    words = shlex.split(example.command, comments=True)
    if words[0] == "echo":
        assert words[1:] == ["$?"] and example.previous is not None, example.command
        return 0, [str(run_example(example.previous, capsys)[0])]
    if words[0] == "cat":
        return 0, Path(words[1]).read_text(encoding="utf-8").splitlines()
    argv, pipes = _argv(example)
    key = (shlex.join(argv), example.settings.get("files", ""))
    if "interrupt" in example.settings:
        code, lines = _interrupted(argv)
    elif "daide-server" in example.settings:
        code, lines = _with_daide_server(example, argv, capsys)
    elif key in _PRINTED:
        code, lines = _PRINTED[key]
    else:
        code = main(argv)
        out, err = capsys.readouterr()
        lines = (out + err).splitlines()
        if not any(a in ("-o", "--save", "--plan-out") for a in argv):    # no file to write again
            _PRINTED[key] = code, lines
    for stage in pipes:
        lines = _pipe(stage, lines)
    return code, lines


def test_the_pages_have_examples():
    pages = {e.page for e in EXAMPLES}
    assert {"README.md", "docs/adjudicate.md", "docs/orders.md", "docs/solve.md"} <= pages
    assert len(EXAMPLES) > 90


def test_only_the_listed_examples_are_not_run():
    assert {e.id for e in EXAMPLES if "not run" in e.settings} == NOT_RUN


def test_the_comparison_elides_only_what_it_says():
    assert matches(["a 3.34 s b", "...", "end"], ["a 0.5 s b", "x", "y", "end"])
    assert matches(["a ... b"], ["a  anything here b"])
    assert not matches(["a 3 centers"], ["a 4 centers"])
    assert not matches(["one", "two"], ["one"])
    assert not matches(["one"], ["one", "two"])
    assert matches(["one", "..."], ["one"])
    assert matches(["# a", "#   ...", "# b"], ["# a", "# x", "# y", "# b"])
    assert matches(["centers ~4.81 s/game"], ["centers 5.02 s/game"])
    assert not matches(["centers ~4.81 x"], ["centers many x"])
    assert matches(['{"a": 1,', ' "b": ...}'], ['{"a": 1, "b": [2, 3]}'])
    assert not matches(["value 1,284.5"], ["value 1,284.6"])


def _marks(example: Example) -> list:
    marks = []
    if any(d in example.settings for d in SLOW_DIRECTIVES):
        marks.append(pytest.mark.slow)
    if "--ray" in example.command.split():
        marks.append(pytest.mark.xdist_group("ray"))
    return marks


@pytest.mark.parametrize("example", [pytest.param(e, marks=_marks(e), id=e.id) for e in EXAMPLES])
def test_doc_command(example: Example, tmp_path, monkeypatch, capsys):
    if "not run" in example.settings:
        pytest.skip(f"not run: {example.settings['not run']}")
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    if "files" in example.settings:
        folder = example.settings["files"].split()[0]
        shutil.copytree(ROOT / folder, tmp_path, dirs_exist_ok=True)
    monkeypatch.chdir(tmp_path)
    # the pages show tables as printed with no terminal (100 columns): the same under a
    # pytest-xdist worker, whose environment says 80
    monkeypatch.setenv("COLUMNS", "100")
    _, lines = run_example(example, capsys)
    assert matches(example.output, lines), (
        f"{example.id}: $ {example.command}\n--- the page shows:\n" + "\n".join(example.output)
        + "\n--- it prints:\n" + "\n".join(lines))
