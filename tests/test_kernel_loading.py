"""The rules engine is loaded before any clock starts (`dipsolve.core.kernel.load`): by a
`Deadline` made fresh (so by every solver's time limit), by a dipsolve seat's
``prepare()``, by ``dipsolve play``, ``batch`` and ``daide``; a command says so in one
line when it must compile first; the same functions answer as plain Python."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dipsolve.core import kernel
from dipsolve.core.results import Deadline
from dipsolve.play.registry import make_bot

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture
def fresh(monkeypatch) -> list[str]:
    """The engine as in a new process (not loaded); each `load` call is recorded."""
    events: list[str] = []
    real = kernel.load

    def load(note=None) -> float:
        events.append("load")
        return real(note)
    monkeypatch.setattr(kernel, "_state", [])
    monkeypatch.setattr(kernel, "load", load)
    return events


@pytest.mark.skipif(not kernel.numba_wanted(), reason="numba is not installed")
def test_load_says_it_compiles_only_when_numba_has_no_engine_cached(monkeypatch, fresh):
    notes: list[str] = []
    monkeypatch.setattr(kernel, "_cached", lambda entry=None: False)
    # the compile itself is tested in a process of its own with an empty cache (below,
    # ..._announces_a_compile_...): here the engine comes from numba's cache whatever
    # `_cached` says
    compile_all = kernel._compile
    monkeypatch.setattr(kernel, "_compile", lambda made, cached: compile_all(made, True))
    kernel.load(notes.append)
    assert len(notes) == 1 and "compiling" in notes[0] and kernel.compiled()
    assert kernel.load(notes.append) == 0.0 and len(notes) == 1     # loaded: nothing to do
    monkeypatch.setattr(kernel, "_state", [])
    monkeypatch.setattr(kernel, "_cached", lambda entry=None: True)
    kernel.load(notes.append)
    assert len(notes) == 1 and kernel.compiled()


@pytest.mark.skipif(not kernel.numba_wanted(), reason="numba is not installed")
def test_once_loaded_the_engine_is_in_numbas_cache_where_numba_looks():
    kernel.load()
    assert kernel._cached()


@pytest.mark.skipif(not kernel.numba_wanted(), reason="numba is not installed")
def test_the_engines_cache_goes_stale_when_any_engine_file_changes(monkeypatch):
    """numba stamps a function's cache with its own file: the entry point, whose compiled
    code holds every function it calls, would outlive a change to resolution.py.  It is
    stamped with all the engine's files, so a change to any one makes it stale."""
    kernel.load()
    stamp: list[float] = []
    for module, _ in kernel._MODULES.values():
        st = os.stat(module.__file__)
        stamp += [st.st_mtime, st.st_size]
    assert kernel.movement._cache._cache_file._source_stamp == tuple(stamp)
    cache_file = kernel.movement._cache._cache_file
    assert list(kernel._MODULES)[1] == "resolution"
    longer = stamp[:3] + [stamp[3] + 1] + stamp[4:]
    monkeypatch.setattr(cache_file, "_source_stamp", tuple(longer))
    assert not kernel._cached()          # resolution.py one byte longer: compiled again


def test_a_fresh_deadline_loads_the_engine_before_its_clock_starts(fresh):
    ticks: list[str] = []

    def clock() -> float:
        ticks.append("tick")
        return 0.0
    Deadline(1.0, clock=clock)
    assert fresh == ["load"] and ticks == ["tick"] and kernel.loaded()


def test_a_dipsolve_seat_loads_the_engine_when_prepared(fresh):
    make_bot("dipsolve").prepare()      # play_game prepares every bot before the game
    assert fresh[:1] == ["load"] and kernel.loaded()


@pytest.mark.slow  # the cold compile, in a process of its own
def test_a_command_announces_a_compile_in_one_line_on_stderr(tmp_path):
    """A process whose numba cache is empty (a fresh install) compiles the engine at its
    first adjudication and says so once, on stderr; its output is the usual one."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    # the command, then how many types each engine function was compiled for
    counts = tmp_path / "counts.txt"
    script = ("import sys\n"
              "from dipsolve.cli import main\n"
              f"rc = main(['adjudicate', {str(EXAMPLES / 'start.dip')!r}])\n"
              "from dipsolve.core import kernel\n"
              f"with open({str(counts)!r}, 'w') as f:\n"
              "    for module, names in kernel._MODULES.values():\n"
              "        for name in names:\n"
              "            fn = getattr(module, name)\n"
              "            f.write(f'{name} {len(getattr(fn, \"signatures\", [None]))}\\n')\n"
              "sys.exit(rc)\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=600)
    assert run.returncode == 0, run.stderr
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    if kernel.numba_wanted():
        assert len(lines) == 1 and "compiling the rules engine" in lines[0]
    else:
        assert lines == []
    assert "Spring 1901" in run.stdout
    # each function compiled once, for its annotations' types (a constant passed by a
    # caller compiles nothing more); the unpacking once for each of its two layouts
    if kernel.numba_wanted():
        compiled = dict(line.split() for line in counts.read_text().splitlines())
        assert compiled == {name: "2" if name == "unpack" else "1" for name in compiled}


def _no_writable_cache(tmp_path: Path) -> dict[str, str]:
    """An environment where numba finds no cache directory it can write (a container user
    with no writable HOME, a read-only install): ``NUMBA_CACHE_DIR``, HOME and the user's
    cache under a regular file (no directory can be made there, even by root), and numba
    told not to look beside the package's own files (numba's ``NUMBA_CACHE_LOCATOR_CLASSES``:
    a checkout's ``__pycache__`` is writable here, a read-only install's is not)."""
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    return {**os.environ, "HOME": str(blocked / "home"), "XDG_CACHE_HOME": str(blocked / "cache"),
            "NUMBA_CACHE_DIR": str(blocked / "numba"),
            "NUMBA_CACHE_LOCATOR_CLASSES": "UserProvidedCacheLocator,UserWideCacheLocator"}


@pytest.mark.slow  # the cold compile (no cache can keep it) and a game, in a process of its own
@pytest.mark.skipif(not kernel.numba_wanted(), reason="numba is not installed")
def test_with_no_writable_cache_play_compiles_for_the_run_and_says_so_once(tmp_path):
    import numba.core.config
    if not hasattr(numba.core.config, "CACHE_LOCATOR_CLASSES"):
        pytest.skip("this numba has no NUMBA_CACHE_LOCATOR_CLASSES to leave out the package's __pycache__")
    script = ("import sys\n"
              "from dipsolve.cli import main\n"
              "rc = main(['play', '--bots', 'dipsolve,dumbbot', '--games', '1', '--until', '1902'])\n"
              "from dipsolve.core import kernel\n"
              "print('compiled' if kernel.compiled() else 'plain: ' + kernel.why_plain)\n"
              "sys.exit(rc)\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=_no_writable_cache(tmp_path), cwd=tmp_path, timeout=600)
    assert run.returncode == 0, run.stderr
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "no writable cache directory" in lines[0] and "NUMBA_CACHE_DIR" in lines[0], lines
    assert "dipsolve:agenda" in run.stdout and run.stdout.rstrip().endswith("compiled")


def test_when_numba_fails_the_engine_runs_as_plain_python_and_says_so_once(monkeypatch, fresh):
    """numba installed but unusable (here its ``njit`` raises): the same functions answer
    as plain Python, and a command is told so in one line (not a traceback)."""
    numba = pytest.importorskip("numba")
    monkeypatch.setenv("DIPSOLVE_NO_NUMBA", "")
    monkeypatch.setattr(kernel, "numba_wanted", lambda: True)

    def broken(*args, **kwargs):
        raise TypeError("an LLVM that cannot be loaded\nsecond line")
    monkeypatch.setattr(numba, "njit", broken)
    # the engine's modules bound back to what they are now when the test ends
    for module, names in kernel._MODULES.values():
        for name in (*names, "ints", "rows", "unpack"):
            if name in vars(module):
                monkeypatch.setattr(module, name, getattr(module, name))
    monkeypatch.setattr(kernel, "why_plain", kernel.why_plain)
    notes: list[str] = []
    kernel.load(notes.append)
    assert not kernel.compiled() and "TypeError: an LLVM that cannot be loaded" in kernel.why_plain
    assert len(notes) == 1 and "\n" not in notes[0] and notes[0].endswith("it runs as plain Python (slower)")
    from dipsolve import Position, adjudicate    # the engine answers all the same
    assert adjudicate(Position.initial(), {"France": ["A PAR - BUR"]}).next.unit_in["BUR"].power == "France"
    assert kernel.load(notes.append) == 0.0 and len(notes) == 1
