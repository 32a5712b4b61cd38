"""Fuzzing the command line: every command, with mutated arguments and files, exits 0 or 2,
never prints a traceback, and changes no file outside its own directory.

Each example builds a fresh directory holding the input files (valid examples, mutated
ones, empty, not UTF-8, larger than ``max_file_bytes`` (made 1 MiB for the test), a directory where a file is
expected, a missing name, ``-`` for standard input), draws a command line for one
command from `COMMANDS` whose numbers are sane or hostile (NaN, infinities, ``1e999``,
5,000 digits, out of range: values that are refused before any work, so that no example
runs long), mutates the command line (an argument left out, doubled, an unknown option),
and runs `dipsolve.cli.main` in this process.  Every file of the checkout (but caches)
is compared before and after.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import os
import sys
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from dipsolve.core.bounds import LIMITS
from dipsolve.cli import main
from test_fuzz_readers import _PLANS, _VALUES, _mutation, _record_examples, fuzz_settings

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

#: valid inputs, by kind: the names the files get in the example's directory
FILES = {
    "position": [(EXAMPLES / n).read_text(encoding="utf-8")
                 for n in ("start.dip", "s1902m.dip", "f1901r.dip", "w1901a.dip")],
    "orders": [(EXAMPLES / "orders" / "spring1901.txt").read_text(encoding="utf-8"),
               "France: A PAR - BUR\nGermany: A MUN - BUR\n"],
    "values": _VALUES,
    "plan": _PLANS,
    "record": _record_examples(),
    "press": ["PRP (PCE (ENG FRA))\nPRP (XDO ((ENG FLT EDI) SUP (ENG AMY LVP) MTO CLY))\n",
              "FRM RUS (DMZ (BLA ARM))\n"],
}

#: numbers refused before any work (out of range, not numbers, not finite)
_HOSTILE_FLOATS = ["nan", "NaN", "inf", "-inf", "1e999", "-1", "0", "1e400", "1e8", "x", "",
                   "1" * 5000, "-0"]
_HOSTILE_INTS = ["-1", "x", "", "1.5", "nan", "1e3", "9" * 25, "1" * 5000, "0x10", "-" + "9" * 30]

#: option -> (sane values: quick to answer, hostile values)
NUMBERS = {
    "--time-limit": (["0.2", "1e-300"], _HOSTILE_FLOATS),
    "--scale": (["0.25", "1"], _HOSTILE_FLOATS + ["1e308", "1e-9", "400", "45", "6"]),
    "--level": (["0", "30", "130", "8000"], _HOSTILE_INTS + ["8001", "1" * 31]),
    "--target": (["3", "5"], _HOSTILE_INTS + ["0", "35"]),
    "--until": (["1901"], _HOSTILE_INTS + ["1900", "2101"]),
    "--games": (["1"], _HOSTILE_INTS + ["0", "100001"]),
    "--jobs": (["1"], _HOSTILE_INTS + ["0", "65"]),
    "--seed": (["0", "7"], _HOSTILE_INTS + ["2147483648"]),
    "--nodes": (["50", "300"], _HOSTILE_INTS + ["0", "1000000000001"]),
    "--samples": (["1", "2"], _HOSTILE_INTS + ["0", "10001"]),
    "--beam": (["1", "5"], _HOSTILE_INTS + ["0", "1000001"]),
}

#: each command: its words, with {kind} for an input file of that kind, {out.svg}-like
#: names for outputs, and options that take a number (drawn from `NUMBERS`)
COMMANDS = [
    ["adjudicate", "{position}"],
    ["adjudicate", "{position}", "--orders", "{orders}", "-o", "out/next.dip", "--json"],
    ["adjudicate", "{position}", "{position}", "--out-dir", "outdir"],
    ["show", "{position}", "--json"],
    ["parse", "A PAR - BUR", "--format", "long"],
    ["parse", "-f", "{orders}", "--format", "daide"],
    ["parse", "--press", "--level", "-f", "{press}", "--english"],
    ["parse", "--press", "--dialect", "dpp", "-f", "{press}", "--json"],
    ["parse", "--press", "--position", "{position}", "-f", "{press}"],
    ["validate", "{orders}", "--position", "{position}"],
    ["solve", "{position}", "--power", "FRA", "--time-limit"],
    ["solve", "{position}", "--power", "TUR", "--values", "{values}", "--time-limit", "--beam"],
    ["solve", "{position}", "--power", "ENG", "--opponents", "sampled", "--samples",
     "--time-limit", "--json"],
    ["solve", "{position}", "--power", "GER", "--opponents", "worst", "--nodes", "--seed", "--json"],
    ["path", "--power", "GER", "--algorithm", "bfs", "--target"],
    ["path", "--power", "ITA", "--algorithm", "astar", "--from", "{position}", "--target",
     "--time-limit"],
    ["adjust", "{position}", "--count"],
    ["adjust", "{position}", "--power", "RUS", "--json"],
    ["adjust", "{position}", "--time-limit"],
    ["play", "--bots", "random", "--games", "--until", "--seed", "--jobs", "--time-limit"],
    ["render", "{position}", "-o", "pic.png", "--scale"],
    ["render", "{position}", "--orders", "--results", "-o", "pic.svg"],
    ["render", "--plan", "{plan}", "--alone", "--json"],
    ["render", "{position}", "-o", "titled.svg", "--title", "{title}"],
    ["analyze", "{record}", "--adjudication-only", "--json"],
    ["analyze", "{record}", "--agreements", "--power", "GER"],
    ["batch", "{position}", "{record}", "-o", "res.jsonl", "--task", "adjudicate", "--jobs", "--json"],
    ["batch", "{record}", "-o", "res.jsonl", "--task", "analyze", "--adjudication-only"],
    ["analyze", "{record}", "--power", "FRA", "--time-limit"],
    ["analyze", "{record}", "--power", "ITA", "--time-limit", "--html", "out/game.html"],
    ["view", "{record}", "-o", "game.html"],
    ["view", "{record}", "--json", "--title", "{title}"],
]


@st.composite
def _file(draw, kind: str) -> tuple[str, bytes | None]:
    """What a file argument is: ``(how, bytes)``; bytes None for a name that is not a
    plain file (missing, a directory, standard input)."""
    text = draw(st.sampled_from(FILES[kind]))
    how = draw(st.sampled_from(["valid", "mutated", "mutated", "empty", "not-utf8", "bom-crlf",
                                "huge", "missing", "directory", "stdin"]))
    if how == "valid":
        return how, text.encode()
    if how in ("mutated", "stdin"):
        return how, draw(_mutation(text)).encode("utf-8", "surrogatepass")
    if how == "empty":
        return how, b""
    if how == "not-utf8":
        return how, text.encode()[:40] + b"\xff\xfe\x80" + text.encode()[40:]
    if how == "bom-crlf":
        return how, b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode()
    if how == "huge":
        return how, ((text + "#" * 80 + "\n") * (1_100_000 // (len(text) + 81) + 1)).encode()
    return how, None


@st.composite
def command_lines(draw):
    """A command line, the files it names (name -> bytes, or None: a directory) and
    what standard input holds."""
    words = draw(st.sampled_from(COMMANDS))
    argv: list[str] = []
    files: dict[str, bytes | None] = {}
    stdin = b""
    for i, word in enumerate(words):
        if word == "{title}":        # free text: control characters, surrogates, anything
            argv.append(draw(st.text(max_size=20)))
        elif word.startswith("{") and word.endswith("}"):
            how, data = draw(_file(word[1:-1]))
            name = f"in{i}.{word[1:-1]}"
            if how == "stdin":
                stdin, name = data or b"", "-"
            elif how == "missing":
                name = f"missing{i}.txt"
            elif how == "directory":
                files[name] = None
            else:
                files[name] = data
            argv.append(name)
        elif word in NUMBERS:
            sane, hostile = NUMBERS[word]
            argv += [word, draw(st.sampled_from(sane) | st.sampled_from(sane) | st.sampled_from(hostile))]
        else:
            argv.append(word)
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2]))):   # the command line mutated
        how = draw(st.sampled_from(["drop", "double", "unknown", "hostile"]))
        at = draw(st.integers(1, len(argv)))
        if how == "drop" and len(argv) > 1:
            del argv[at - 1]
        elif how == "double":
            argv.insert(at, argv[at - 1])
        elif how == "unknown":
            argv.insert(at, "--bogus")
        else:
            argv.insert(at, draw(st.sampled_from(_HOSTILE_FLOATS + ["--", "-x", "-o"])))
    return argv, files, stdin


_SKIP = {".git", ".venv", "__pycache__", ".hypothesis", ".mypy_cache", ".pytest_cache",
         ".import_linter_cache", "dipsolve.egg-info"}


def _snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``root`` (caches and the venv left out): size and mtime."""
    out = {}
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d not in _SKIP]
        for n in names:
            st_ = os.stat(os.path.join(folder, n))
            out[os.path.join(folder, n)] = (st_.st_size, st_.st_mtime_ns)
    return out


def run_in(folder: Path, argv: list[str], stdin: bytes) -> tuple[int, str, str]:
    """`main` on ``argv`` in ``folder``, with ``stdin``: exit status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    old_cwd, old_stdin = os.getcwd(), sys.stdin
    os.chdir(folder)
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    finally:
        os.chdir(old_cwd)
        sys.stdin = old_stdin
    return code, out.getvalue(), err.getvalue()


@fuzz_settings(examples=30)
@given(command_lines())
def test_every_command_exits_0_or_2_without_a_traceback_and_touches_nothing_else(case):
    argv, files, stdin = case
    before = _snapshot(ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, data in files.items():
            if data is None:
                (folder / name).mkdir()
            else:
                (folder / name).write_bytes(data)
        os.environ["DIPSOLVE_NO_CACHE"] = "1"        # no parser cache in the user's home
        size = LIMITS["max_file_bytes"]               # a 1 MiB limit: the "huge" files pass it
        LIMITS["max_file_bytes"] = dataclasses.replace(size, value=1 << 20)
        try:
            code, out, err = run_in(folder, argv, stdin)
        finally:
            del os.environ["DIPSOLVE_NO_CACHE"]
            LIMITS["max_file_bytes"] = size
        assert code in (0, 2), (argv, code, err[-2000:])
        assert "Traceback" not in err and "Traceback" not in out, (argv, err[-2000:])
        if code == 2:
            assert err.strip() or out.strip(), argv   # a refusal says why
    assert _snapshot(ROOT) == before, argv
