"""DATC conformance: one test per case file in ``tests/datc/cases/``.

Each case file holds two ``.dip`` documents separated by a line ``=== expected``: the
position with its orders, and the position expected after adjudication.  The test
parses the first with the project's grammar, adjudicates it, and compares the whole end
position: every unit (power, kind, location) and every dislodged unit that can still
retreat.  The expected half is read by the small reader below, with no rule checks: it
is a plain list of units.

The case files are generated once from ``../shared/datc/`` by
``tests/datc/convert_datc.py`` (see its docstring); the tests need nothing outside the
repository.  DATC 3.0 preferences throughout; every departure from a data file is a
``# fix:`` comment in the case file.
"""

from __future__ import annotations

import difflib
import re
import sys
from pathlib import Path

import pytest

from dipsolve.core.map import POWERS, standard_map

CASE_DIR = Path(__file__).resolve().parent / "datc" / "cases"
CASE_FILES = sorted(CASE_DIR.glob("*.case"))
SEPARATOR = "=== expected"

#: DATC 3.0: the number of cases in each section of chapter 6 (164 in all).
DATC_3_0 = {"A": 12, "B": 15, "C": 9, "D": 34, "E": 15, "F": 25, "G": 20, "H": 16, "I": 7, "J": 11}

Key = tuple[str, str, str]          # (power, kind, location)


def case_id(path: Path) -> str:
    return path.name[: -len(".case")]


def split_case(text: str) -> tuple[str, str]:
    """The two documents of a case file (the second starts after the separator line)."""
    lines = text.splitlines(keepends=True)
    cuts = [i for i, line in enumerate(lines) if line.rstrip("\r\n") == SEPARATOR]
    if len(cuts) != 1:
        raise ValueError(f"expected one line {SEPARATOR!r}, found {len(cuts)}")
    return "".join(lines[: cuts[0]]), "".join(lines[cuts[0] + 1:])


def read_plain(doc: str) -> tuple[set[Key], set[Key]]:
    """Units and dislodged units of a ``.dip`` document, read as plain text: ``[Power]``
    sections with a ``units:`` line, and a ``[dislodged]`` section of ``Power: K LOC``
    lines (``from X`` and ``standoffs:`` are ignored)."""
    units: set[Key] = set()
    dislodged: set[Key] = set()
    section = None
    for raw in doc.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
            continue
        if section == "dislodged":
            if line.startswith("standoffs:"):
                continue
            power, _, rest = line.partition(":")
            kind, location = rest.split()[:2]
            dislodged.add((power.strip(), kind, location))
        elif section in POWERS:
            key, _, value = line.partition(":")
            if key.strip() == "units":
                for item in value.split(","):
                    if item.strip():
                        kind, location = item.split()
                        units.add((section, kind, location))
    return units, dislodged


def _lines(units: set[Key], dislodged: set[Key]) -> list[str]:
    return ([f"{p}: {k} {loc}" for p, k, loc in sorted(units)]
            + [f"dislodged {p}: {k} {loc}" for p, k, loc in sorted(dislodged)])


def _report(path: Path, given: str, expected: tuple[set[Key], set[Key]],
            got: tuple[set[Key], set[Key]]) -> str:
    header = [line for line in given.splitlines() if line.startswith("#")][:2]
    orders, in_orders = [], False
    for line in given.splitlines():
        if line.strip().startswith("["):
            in_orders = line.strip() == "[orders]"
            continue
        if in_orders and line.strip():
            orders.append("  " + line.strip())
    diff = difflib.unified_diff(_lines(*expected), _lines(*got), "expected", "adjudicated",
                                lineterm="", n=100)
    return "\n".join([f"DATC {case_id(path)}: the end position differs ({path.name})",
                      *header, "orders:", *(orders or ["  (none)"]), "end position:",
                      *list(diff)[2:]])


@pytest.mark.parametrize("path", CASE_FILES, ids=[case_id(p) for p in CASE_FILES])
def test_datc_case(path: Path) -> None:
    from dipsolve.core.adjudicator import adjudicate
    from dipsolve.grammar import parse_position

    given, expected_doc = split_case(path.read_text(encoding="utf-8"))
    position, orders = parse_position(given, str(path))
    outcome = adjudicate(position, orders)
    after = outcome.next
    got = ({(u.power, u.kind, u.location) for u in after.units},
           {(d.unit.power, d.unit.kind, d.unit.location) for d in after.dislodged})
    expected = read_plain(expected_doc)
    if got != expected:
        pytest.fail(_report(path, given, expected, got), pytrace=False)


# -- the case files themselves (need no adjudicator) -----------------------------------

def test_every_datc_3_0_case_has_a_file() -> None:
    ids = {case_id(p) for p in CASE_FILES}
    want = {f"6.{s}.{n:02d}" for s, k in DATC_3_0.items() for n in range(1, k + 1)}
    assert not want - ids, f"DATC 3.0 cases without a case file: {sorted(want - ids)}"
    assert len(want) == 164


_LOCATION = re.compile(r"\b[A-Z]{3}(?:/[A-Z]{2})?\b")
_WORDS = {"VIA"}


def test_case_files_are_well_formed() -> None:
    """Two documents each; a phase line; only known powers, unit kinds and locations;
    no two expected units in one province."""
    m = standard_map()
    problems = []
    for path in CASE_FILES:
        name = path.name
        try:
            given, expected = split_case(path.read_text(encoding="utf-8"))
        except ValueError as exc:
            problems.append(f"{name}: {exc}")
            continue
        for label, doc in (("given", given), ("expected", expected)):
            body = [ln.split("#", 1)[0].strip() for ln in doc.splitlines()]
            body = [ln for ln in body if ln]
            if not body or not body[0].startswith("phase:"):
                problems.append(f"{name} ({label}): the first line is not 'phase: ...'")
            for line in body:
                if line.startswith("[") and line.endswith("]"):
                    sec = line[1:-1]
                    if sec not in POWERS and sec not in ("dislodged", "orders"):
                        problems.append(f"{name} ({label}): unknown section [{sec}]")
                    continue
                if ":" in line.split()[0]:
                    head = line.split(":", 1)[0]
                    if head not in POWERS and head not in ("phase", "units", "centers", "standoffs"):
                        problems.append(f"{name} ({label}): unknown power or key {head!r}")
                rest = line.split(":", 1)[1] if ":" in line else line
                if line.startswith("phase:"):
                    continue
                for token in _LOCATION.findall(rest):
                    if token not in _WORDS and token not in m.province_of:
                        problems.append(f"{name} ({label}): unknown location {token}")
            units, dislodged = read_plain(doc)
            for _, kind, loc in units | dislodged:
                if kind not in ("A", "F") or not m.can_stand(kind, loc):
                    problems.append(f"{name} ({label}): {kind} {loc} cannot stand there")
            if label == "expected":
                provinces = [m.province_of[loc] for _, _, loc in units]
                if len(provinces) != len(set(provinces)):
                    problems.append(f"{name}: two expected units in one province")
    assert not problems, "\n".join(problems)


def _converter():
    """tests/datc/convert_datc.py as a module (it is a script, not a package)."""
    import importlib.util
    if "convert_datc" not in sys.modules:
        path = Path(__file__).resolve().parent / "datc" / "convert_datc.py"
        spec = importlib.util.spec_from_file_location("convert_datc", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules["convert_datc"] = module      # dataclasses look their module up
        spec.loader.exec_module(module)
    return sys.modules["convert_datc"]


def test_converter_reads_both_notations() -> None:
    """The converter's readers (it runs once, against ../shared/datc; these check it alone)."""
    cv = _converter()
    assert cv.parse_text_order("Germany", "A wal SUPPORTS F lon-yor").text() == "Germany: A WAL S F LON - YOR"
    assert cv.parse_text_order("England", "F nth convoys A yor - yor").text() == "England: F NTH C A YOR - YOR"
    assert cv.parse_text_order("France", "A spa - por via convoy").text() == "France: A SPA - POR VIA"
    assert cv.parse_text_order("France", "F gol hold").text() == "France: F LYO H"
    assert cv.parse_text_order("Russia", "Build F stp/nc").text() == "Russia: F STP/NC B"
    assert cv.parse_json_order("FRA: F por supports F mao -> spa").text() == "France: F POR S F MAO - SPA"
    assert cv.parse_json_order("ENG: F nth convoys yor -> yor").text() == "England: F NTH C A YOR - YOR"
    assert cv.parse_json_order("ENG: A lvp -> edi via Convoy").text() == "England: A LVP - EDI VIA"
    assert cv.parse_json_order("RUS: F stp(nc) build").text() == "Russia: F STP/NC B"
    # the 2023 civil-disorder rule (DATC 6.J.7: two fleets and an army at distance two)
    units = [cv.Unit("Russia", "A", "BOH"), cv.Unit("Russia", "F", "SKA"), cv.Unit("Russia", "F", "NTH")]
    assert cv.civil_disorder(units, {"STP": "Russia", "WAR": "Russia"}, "Russia", 1) == [units[2]]
