"""Every legal adjustment order set, and Loeb's counting tables (seed 003), corrected."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from dipsolve.core.adjudicator import adjudicate
from dipsolve.algorithms.adjustments import (after_adjustments, build_count, build_sites, count_adjustments,
                                  elementary_symmetric, home_weights, iter_adjustments, joint_count,
                                  legal_adjustments, removal_count, seed_waive_count)
from dipsolve.cli import load, main
from dipsolve.core.map import standard_map
from dipsolve.core.orders import Build, Disband
from dipsolve.core.position import Phase, Position, Unit

ROOT = Path(__file__).resolve().parents[1]
ADJUST = ROOT / "examples" / "adjustments"

# The seed's removal table, copied from its text: row n lists C(n, k) for k = 1..n.
SEED_REMOVALS = {
    1: "1",
    8: "8 28 56 70 56 28 8 1",
    13: "13 78 286 715 1287 1716 1716 1287 715 286 78 13 1",
    16: "16 120 560 1820 4368 8008 11440 12870 11440 8008 4368 1820 560 120 16 1",
    17: "17 136 680 2380 6188 12376 19448 24310 24310 19448 12376 6188 2380 680 136 17 1",
}


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def builder(power: str, builds: int, units_elsewhere: tuple[Unit, ...] = ()) -> Position:
    """A winter position: the power owns its home centers, all empty, and owes builds;
    its units stand away from home (armies in far-off provinces) to make up the count."""
    m = standard_map()
    homes = sorted(m.homes[power])
    far = [p for p in ("NAF", "SYR", "FIN", "LVN", "PIC", "GAS", "BUR", "RUH", "TUS", "APU",
                       "ALB", "ARM", "UKR", "SIL", "PRU", "TYR", "BOH", "GAL", "WAL", "YOR")]
    n_units = len(homes) - builds
    units = [Unit(power, "A", far[i]) for i in range(n_units)]
    return Position.build(Phase("Winter", 1901, "adjustment"), units,
                          {h: power for h in homes}, game_map=m)


def remover(units: int, removals: int) -> Position:
    far = ["NAF", "SYR", "FIN", "LVN", "PIC", "GAS", "BUR", "RUH", "TUS", "APU", "ALB", "ARM",
           "UKR", "SIL", "PRU", "TYR", "BOH", "GAL"]
    m = standard_map()
    centers = sorted(m.centers)[:units - removals]
    return Position.build(Phase("Winter", 1905, "adjustment"),
                          [Unit("Austria", "A", far[i]) for i in range(units)],
                          {c: "Austria" for c in centers}, game_map=m)


# -- removals ----------------------------------------------------------------------------------

@pytest.mark.parametrize("n", sorted(SEED_REMOVALS))
def test_seed_removal_table_rows(n):
    assert [removal_count(n, k) for k in range(1, n + 1)] == [int(x) for x in SEED_REMOVALS[n].split()]


def test_largest_removal_count_is_24310_at_17_units():
    table = {(n, k): removal_count(n, k) for n in range(1, 18) for k in range(1, n + 1)}
    best = max(table.values())
    assert best == 24310
    assert sorted(key for key, v in table.items() if v == best) == [(17, 8), (17, 9)]


def test_removals_enumerated_match_the_binomial():
    pos = remover(10, 4)
    sets = legal_adjustments(pos, "Austria")
    assert len(sets) == count_adjustments(pos, "Austria") == math.comb(10, 4) == 210
    assert len(set(sets)) == 210
    assert all(len(s) == 4 and all(isinstance(o, Disband) for o in s) for s in sets)
    # waives change nothing for removals
    assert count_adjustments(pos, "Austria", waives=False) == 210


# -- builds: the seed's tables, corrected ----------------------------------------------------------

# power -> builds -> (choices without waives, the seed's "counting waives" figure)
SEED_BUILDS = {
    "England": {1: (6, 6), 2: (12, 18), 3: (8, 26)},
    "Italy": {1: (6, 6), 2: (12, 18), 3: (8, 26)},
    "Turkey": {1: (6, 6), 2: (12, 18), 3: (8, 26)},
    "France": {1: (5, 5), 2: (8, 13), 3: (4, 17)},
    "Germany": {1: (5, 5), 2: (8, 13), 3: (4, 17)},
    "Austria": {1: (4, 4), 2: (5, 9), 3: (2, 11)},
    # the seed: "1 + 1 + 2 + 3 = 5" and 22/39/45; the sum is 7, so 24/41/47
    "Russia": {1: (7, 7), 2: (17, 24), 3: (17, 41), 4: (6, 47)},
}


@pytest.mark.parametrize("power,builds", [(p, b) for p, t in SEED_BUILDS.items() for b in t])
def test_seed_build_tables_corrected(power, builds):
    pos = builder(power, builds)
    without, seed = SEED_BUILDS[power][builds]
    assert count_adjustments(pos, power, waives=False) == without
    weights = [s.options for s in build_sites(pos, power)]
    assert seed_waive_count(weights, builds) == seed
    # every legal order set: the seed's figure plus the set that waives every build
    assert count_adjustments(pos, power, waives=True) == seed + 1
    # enumeration (python-constraint) agrees with the formula, without duplicates
    for waives in (True, False):
        sets = legal_adjustments(pos, power, waives)
        assert len(sets) == len(set(sets)) == count_adjustments(pos, power, waives)


def test_russia_one_build_is_seven_not_five():
    pos = builder("Russia", 1)
    sets = {str(s[0]) for s in legal_adjustments(pos, "Russia", waives=False)}
    assert sets == {"A MOS B", "A WAR B", "A SEV B", "F SEV B", "A STP B", "F STP/NC B", "F STP/SC B"}
    assert seed_waive_count(home_weights(standard_map(), "Russia"), 4) == 47 != 45


def test_elementary_symmetric_and_build_count():
    assert [elementary_symmetric((1, 2, 3, 1), j) for j in range(6)] == [1, 7, 17, 17, 6, 0]
    assert build_count((2, 2, 2), 5, waives=False) == 8          # only three can be built
    assert build_count((2, 2, 2), 5, waives=True) == 27
    assert build_count((), 2) == 1                               # nowhere to build: waive


def test_builds_only_in_owned_free_home_centers():
    m = standard_map()
    # France owes two builds; Paris is occupied, Brest is English: only Marseilles is free
    pos = Position.build(Phase("Winter", 1903, "adjustment"),
                         [Unit("France", "A", "PAR"), Unit("England", "F", "NTH")],
                         {"PAR": "France", "MAR": "France", "SPA": "France", "BRE": "England",
                          "LON": "England"}, game_map=m)
    assert [s.province for s in build_sites(pos, "France")] == ["MAR"]
    sets = legal_adjustments(pos, "France")
    assert [[str(o) for o in s] for s in sets] == [
        ["WAIVE", "WAIVE"], ["A MAR B", "WAIVE"], ["F MAR B", "WAIVE"]]
    # without voluntary waives the second build is still waived: there is nowhere to put it
    assert len(legal_adjustments(pos, "France", waives=False)) == 2
    # a fleet in St Petersburg names its coast
    rus = builder("Russia", 1)
    builds = {o for s in legal_adjustments(rus, "Russia") for o in s if isinstance(o, Build)}
    assert Build("F", "STP") not in builds and {Build("F", "STP/NC"), Build("F", "STP/SC")} <= builds


@pytest.mark.parametrize("path", sorted(ADJUST.glob("*.dip")), ids=lambda p: p.name)
def test_every_order_set_is_legal_and_the_fast_path_agrees(path):
    """Each power's every order set (the others playing their first) succeeds in the
    adjudicator, and the equilibrium search's fast path builds the same position."""
    pos, _ = load(str(path))
    first = {p: next(iter_adjustments(pos, p)) for p in pos.powers()}
    checked = 0
    for p in pos.powers():
        for i, s in enumerate(iter_adjustments(pos, p)):
            if i >= 400:                      # a 17-unit removal has 24,310: a sample is enough
                break
            orders = dict(first, **{p: s})
            out = adjudicate(pos, orders)
            assert all(r.success for r in out.results), [str(r) for r in out.results if not r.success]
            assert out.next == after_adjustments(pos, orders)
            checked += 1
    assert checked >= len(pos.powers())


def test_example_with_a_billion_profiles():
    pos, _ = load(str(ADJUST / "billion.dip"))
    assert joint_count(pos) == 1_330_920_360 >= 10 ** 9
    assert joint_count(pos) == math.prod(len(legal_adjustments(pos, p)) for p in pos.powers())


def test_seed_tables_example_counts(capsys):
    code, out, err = run(capsys, "adjust", str(ADJUST / "seed-tables.dip"), "--count", "--json")
    assert code == 0, err
    rows = {r["power"]: r for r in json.loads(out)["powers"]}
    assert rows["Russia"]["seed_counting_waives"] == 47 and rows["Russia"]["choices"] == 48
    assert rows["Russia"]["choices_without_waives"] == 6
    assert rows["England"]["seed_counting_waives"] == 18
    assert rows["Austria"]["seed_counting_waives"] == 11


# -- the command line --------------------------------------------------------------------------------

def test_cli_count_and_list(capsys):
    path = str(ADJUST / "billion.dip")
    code, out, _ = run(capsys, "adjust", path, "--count", "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["joint"] == {"choices": 1_330_920_360, "choices_without_waives": 67_858_560}
    code, out, _ = run(capsys, "adjust", path, "--power", "RUS")
    lines = [line for line in out.splitlines() if not line.startswith("#")]
    assert code == 0 and len(lines) == 42
    assert lines[0].split(None, 1)[1] == "WAIVE, WAIVE, WAIVE"
    code, out, _ = run(capsys, "adjust", path, "--power", "Russia", "--no-waives", "--json")
    assert len(json.loads(out)["order_sets"]) == 17


@pytest.mark.parametrize("argv,message", [
    (["adjust", "examples/start.dip"], "expected an adjustment phase"),
    (["adjust", "examples/w1901a.dip", "--power", "Prussia"], "unknown power 'Prussia'"),
    (["adjust"], "needs a FILE"),
    (["adjust", "examples/w1901a.dip", "--worst-case"], "--worst-case takes no FILE"),
    (["adjust", "examples/w1901a.dip", "-o", "x.dip"], "-o/--output is for --worst-case"),
    (["adjust", "examples/w1901a.dip", "--time-limit", "0"], "past the limit max_seconds"),
    (["adjust", "examples/w1901a.dip", "--time-limit", "-1"], "past the limit max_seconds"),
    (["adjust", "examples/w1901a.dip", "--time-limit", "nan"], "past the limit max_seconds"),
    (["adjust", "examples/w1901a.dip", "--time-limit", "inf"], "past the limit max_seconds"),
    (["adjust", "--worst-case", "--time-limit", "nan"], "past the limit max_seconds"),
    (["adjust", "examples/w1901a.dip", "--evaluator", "luck"], "--evaluation 'luck': unknown evaluation"),
    (["adjust", "no/such.dip"], "no such file"),
])
def test_cli_user_errors(argv, message, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, err = run(capsys, *argv)
    assert code == 2 and message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
