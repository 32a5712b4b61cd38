"""The ``--json`` output of every command, pinned: golden files in ``tests/golden/``.

Each case in `CASES` runs ``dipsolve.cli.main(argv)`` in-process (from a scratch
directory where ``examples`` and ``golden`` link to the repository's, so the paths in
the output are the relative ones of the command line and pictures are written there)
and compares every JSON line it prints, and its exit status, with
``tests/golden/NAME.json`` (which records the command line too).

Normalised before the comparison, because they depend on the machine or the clock:

- ``seconds``, ``wall_time``, ``max_seconds``, ``seconds_per_game`` (wall time) become
  ``"<seconds>"``;
- ``nodes`` (solve) and ``evaluations`` (adjust) become ``"<count>"``: how much a search
  did before it stopped; the answer it gives is compared;
- in ``explanation`` (path), a time in a sentence (``0.02 s``) becomes ``<t> s``;
- for the cases in `VOLATILE`, the fields named there become ``"<any>"``: path's exact
  plan is one of several shortest plans, and which one CP-SAT finds depends on the order
  the model's variables were made in (string hashing, so the process); its length, the
  centers and units after each phase and the bound are compared.

The key is kept, so a field that goes away or is renamed is still caught.  Floats are
compared to 1e-6 (the LPs' last digits depend on the machine's arithmetic); every other
value and every type is compared exactly.

The cases are chosen to be deterministic: searches that finish well inside their time
limit (status optimal), one CP-SAT worker, fixed seeds.  When the output changes on
purpose, regenerate with ``DIPSOLVE_UPDATE_GOLDEN=1 pytest tests/test_golden_json.py``
and say which fields changed in the commit message and in the docs.
"""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import Any

import pytest

from dipsolve.cli import main

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("DIPSOLVE_UPDATE_GOLDEN") == "1"

TURKEY = ["examples/solve/turkey-1901.dip", "--power", "TUR",
          "--values", "examples/solve/turkey-1901.values"]
PRESS = "PRP (XDO ((ENG FLT EDI) SUP (ENG AMY LVP) MTO CLY))"

#: name -> the command line (after ``dipsolve``)
CASES: dict[str, list[str]] = {
    "adjudicate-f1901m": ["adjudicate", "examples/f1901m.dip", "--json"],
    "adjudicate-two-files": ["adjudicate", "examples/f1901r.dip", "examples/w1901a.dip", "--json"],
    "adjudicate-orders-file": ["adjudicate", "examples/start.dip",
                               "--orders", "examples/orders/spring1901.txt", "--json"],
    "show-start": ["show", "examples/start.dip", "--json"],
    "show-s1902m": ["show", "examples/s1902m.dip", "--json"],
    "parse-long": ["parse", "--json", "A Paris -> Burgundy"],
    "parse-daide-output": ["parse", "--json", "--format", "daide", "--power", "FRA",
                           "F Brest -> Mid-Atlantic Ocean"],
    "parse-file-with-mistakes": ["parse", "--json", "-f", "examples/orders/mistakes.txt"],
    "validate-mistakes": ["validate", "examples/orders/mistakes.txt",
                          "--position", "examples/start.dip", "--json"],
    "validate-spring1901": ["validate", "examples/orders/spring1901.txt",
                            "--position", "examples/start.dip", "--json"],
    "press-daide": ["parse", "--press", "--json", "--english", PRESS],
    "press-dpp": ["parse", "--press", "--json", "--dialect", "dpp", "--english",
                  "FRM RUS (DMZ (BLA ARM))"],
    "press-position": ["parse", "--press", "--json", "--position", "examples/start.dip",
                       "PRP (AND (XDO ((ENG FLT LON) MTO PAR)) (XDO ((FRA AMY PAR) MTO BUR)))"],
    "press-level": ["parse", "--press", "--json", "--level", "20", "XOY (ENG) (GER)"],
    # the seeds' worst case: the phase game (the default) is anytime, its output varies
    "solve-turkey-agenda": ["solve", *TURKEY, "--time-limit", "20", "--opponents", "worst", "--json"],
    "solve-turkey-minimax": ["solve", *TURKEY, "--time-limit", "20", "--method", "minimax",
                             "--json"],
    "solve-retreats": ["solve", "examples/f1901r.dip", "--time-limit", "10", "--opponents", "worst",
                       "--json"],
    "solve-builds": ["solve", "examples/w1901a.dip", "--time-limit", "20", "--opponents", "worst",
                     "--json"],
    "path-astar": ["path", "--power", "GER", "--algorithm", "astar", "--json"],
    "path-bfs-trace": ["path", "--power", "GER", "--algorithm", "bfs", "--target", "6",
                       "--trace", "--json"],
    "path-exact": ["path", "--power", "GER", "--target", "5", "--workers", "1",
                   "--time-limit", "60", "--json"],
    "adjust-count": ["adjust", "examples/adjustments/two-groups.dip", "--count", "--json"],
    "adjust-list": ["adjust", "examples/adjustments/trieste.dip", "--power", "AUS", "--json"],
    "adjust-equilibrium": ["adjust", "examples/adjustments/two-groups.dip",
                           "--time-limit", "60", "--json"],
    "adjust-correlated": ["adjust", "examples/adjustments/trieste.dip", "--equilibrium",
                          "correlated", "--time-limit", "60", "--json"],
    "adjust-worst-case": ["adjust", "--worst-case", "--time-limit", "120", "--json"],
    "play-dumbbot": ["play", "--games", "1", "--until", "1901", "--seed", "3", "--json",
                     "--history"],
    "render-results": ["render", "examples/f1901m.dip", "--results", "-o", "results.svg",
                       "--json"],
    "render-plan": ["render", "--plan", "golden/inputs/germany-5.plan.json", "--alone",
                    "-o", "plan.svg", "--json"],
}

#: name -> fields whose value is one of several right answers (see the docstring)
VOLATILE: dict[str, set[str]] = {"path-exact": {"orders"}}

CLOCK = {"seconds", "wall_time", "max_seconds", "seconds_per_game"}
WORK = {"nodes", "evaluations"}
_TIME_IN_TEXT = re.compile(r"\b\d+\.\d+ s\b")


def normalise(value: Any, key: str | None = None, volatile: frozenset[str] = frozenset()) -> Any:
    """``value`` with the machine's and the clock's fields replaced (see the docstring)."""
    if key in volatile:
        return "<any>"
    if key in CLOCK and isinstance(value, (int, float)):
        return "<seconds>"
    if key in CLOCK and isinstance(value, dict):      # a phase's thinking time, per power
        return {k: "<seconds>" for k in value}
    if key in WORK and isinstance(value, int):
        return "<count>"
    if key == "explanation" and isinstance(value, list):
        return [_TIME_IN_TEXT.sub("<t> s", v) if isinstance(v, str) else v for v in value]
    if isinstance(value, dict):
        return {k: normalise(v, k, volatile) for k, v in value.items()}
    if isinstance(value, list):
        return [normalise(v, None, volatile) for v in value]
    return value


def same(expected: Any, actual: Any, where: str = "$") -> None:
    """Assert equal, floats to 1e-6, types exactly; the message names the first difference."""
    assert type(expected) is type(actual), f"{where}: {expected!r} != {actual!r} (type)"
    if isinstance(expected, dict):
        assert list(expected) == list(actual), f"{where}: keys {list(expected)} != {list(actual)}"
        for k in expected:
            same(expected[k], actual[k], f"{where}.{k}")
    elif isinstance(expected, list):
        assert len(expected) == len(actual), f"{where}: {len(expected)} items != {len(actual)}"
        for i, (e, a) in enumerate(zip(expected, actual)):
            same(e, a, f"{where}[{i}]")
    elif isinstance(expected, float):
        assert math.isclose(expected, actual, rel_tol=1e-9, abs_tol=1e-6), \
            f"{where}: {expected!r} != {actual!r}"
    else:
        assert expected == actual, f"{where}: {expected!r} != {actual!r}"


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    """A working directory where ``examples`` and ``golden`` are the repository's."""
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    (tmp_path / "golden").symlink_to(GOLDEN)
    monkeypatch.chdir(tmp_path)
    return tmp_path


#: the cases that search long: run by CI (``--all``)
SLOW_CASES = {"adjust-worst-case"}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW_CASES else n
                                  for n in CASES])
def test_json_output_is_unchanged(name, scratch, capsys):
    argv = CASES[name]
    code = main(list(argv))
    out, err = capsys.readouterr()
    volatile = frozenset(VOLATILE.get(name, ()))
    lines = [normalise(json.loads(line), None, volatile) for line in out.splitlines() if line.strip()]
    path = GOLDEN / f"{name}.json"
    got = {"argv": ["dipsolve", *argv], "exit": code, "stdout": lines}
    if UPDATE:
        path.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    want = json.loads(path.read_text(encoding="utf-8"))
    assert want["argv"] == got["argv"], f"{path.name} was made by another command line"
    assert code == want["exit"], err
    same(want["stdout"], got["stdout"])


def test_every_golden_file_has_a_case():
    files = {p.stem for p in GOLDEN.glob("*.json")}
    assert files == set(CASES)
