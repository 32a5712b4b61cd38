"""Loeb's open problem: the most joint adjustment choices of a position that can occur."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from dipsolve.core.results import Limits
from dipsolve.algorithms.adjustments import count_adjustments, joint_count
from dipsolve.cli import main
from dipsolve.core.map import POWERS, standard_map
from dipsolve.models.worstcase import (configurations, home_plans, occurrence_problems,
                                       seed_example, solve_worst_case, witness, witness_text)
from dipsolve.core.results import Deadline, TimeUp

#: the worst-case searches, exhaustive: slow (CI runs it: ``--all``)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
ADJUST = ROOT / "examples" / "adjustments"

WITHOUT_WAIVES = 16_130_949_120
WITH_WAIVES = 1_969_817_952_960


def test_the_seeds_example_needs_36_centers():
    ex = seed_example()
    assert math.prod(choices for _, _, choices in ex.values()) == 11_426_088_960
    assert sum(centers for _, centers, _ in ex.values()) == 36 > 34


@pytest.fixture(scope="module")
def without_waives():
    return solve_worst_case(waives=False, limits=Limits(time_limit=300))


@pytest.fixture(scope="module")
def with_waives():
    return solve_worst_case(waives=True, limits=Limits(time_limit=300))


@pytest.mark.parametrize("which,expected", [("without_waives", WITHOUT_WAIVES),
                                            ("with_waives", WITH_WAIVES)])
def test_maximum_and_its_witness(which, expected, request):
    result = request.getfixturevalue(which)
    assert result.status == "optimal" and result.confirmed
    assert result.product == expected == math.prod(pl.choices for pl in result.plans)
    assert math.log(expected) == pytest.approx(result.bound_log, abs=1e-6)
    # more than Loeb's 11,426,088,960 even without waives, on 34 centers
    assert result.product > 11_426_088_960
    assert sum(pl.config.centers for pl in result.plans) <= 34
    assert sum(pl.centers_last_winter for pl in result.plans) <= 34
    w = witness(result.plans)
    assert occurrence_problems(w.position, w.last_winter) == []
    # counted again from the position, power by power, by formula
    for pl in result.plans:
        assert count_adjustments(w.position, pl.power, result.waives) == pl.choices
    assert joint_count(w.position, result.waives) == expected
    assert "phase: Winter" in witness_text(w, result)
    assert result.objective == result.bound == float(expected)
    assert result.to_json()["status"] == "optimal" and result.to_json()["product"] == expected


class JumpingClock:
    """A clock for `Deadline`: 0.0 for ``after`` readings, then ``to``."""

    def __init__(self, to: float, after: int):
        self.to, self.after, self.reads = to, after, 0

    def __call__(self) -> float:
        self.reads += 1
        return self.to if self.reads > self.after else 0.0


@pytest.mark.parametrize("waives,expected", [(False, 9_400_320), (True, 3_673_320_192)])
def test_before_cbc_has_an_answer_every_power_builds_at_home(waives, expected):
    """The clock passes the end while the model is built: the answer is `home_plans`
    (every power keeps its home centers and builds in them), timed out, not proven;
    its witness is a position that can occur, with as many choices as claimed."""
    clock = JumpingClock(to=0.3, after=3)
    result = solve_worst_case(waives=waives, deadline=Deadline(0.2, clock=clock))
    assert clock.reads <= 3 + 2
    assert result.status == "timed out" and not result.confirmed and result.bound is None
    assert result.plans == home_plans(standard_map(), waives)
    assert result.product == expected == result.objective and result.seconds == 0.3
    w = witness(result.plans)
    assert occurrence_problems(w.position, w.last_winter) == []
    assert joint_count(w.position, waives) == expected
    text = witness_text(w, result)
    assert "not proven the maximum" in text and "status timed out" in text


def test_no_witness_after_the_deadline():
    plans = home_plans(standard_map(), False)
    with pytest.raises(TimeUp):
        witness(plans, deadline=Deadline(1.0, clock=lambda: 5.0, start=0.0))
    result = solve_worst_case(False, deadline=Deadline(1.0, clock=lambda: 5.0, start=0.0))
    assert "No witness position" in witness_text(None, result)


@pytest.mark.parametrize("name,waives,expected", [("worst-case.dip", False, WITHOUT_WAIVES),
                                                  ("worst-case-waives.dip", True, WITH_WAIVES)])
def test_example_witnesses_confirmed_by_the_cli_count(name, waives, expected, capsys):
    argv = ["adjust", str(ADJUST / name), "--count", "--json"]
    assert main(argv) == 0
    joint = json.loads(capsys.readouterr().out)["joint"]
    assert joint["choices" if waives else "choices_without_waives"] == expected


def test_occurrence_problems_catch_impossible_positions(without_waives):
    w = witness(without_waives.plans)
    pos, last = w.position, dict(w.last_winter)
    assert occurrence_problems(pos, last) == []
    # Austria (17 units) with two centers fewer last winter
    fewer = dict(last)
    for c in [c for c, o in sorted(last.items()) if o == "Austria"][:2]:
        fewer[c] = "Germany"
    assert any("Austria has 17 units but had 15 centers" in p for p in occurrence_problems(pos, fewer))
    # a center kept by its owner and empty, said to have been someone else's: a gain
    # with no unit in it
    kept = next(c for c, o in sorted(pos.owner.items()) if last.get(c) == o and c not in pos.unit_in)
    other = dict(last, **{kept: "Italy" if pos.owner[kept] != "Italy" else "Turkey"})
    assert any(f"gained {kept} this year but has no unit there" in p
               for p in occurrence_problems(pos, other))
    # a home center nobody owned last winter
    home = next(iter(standard_map().homes["England"]))
    assert any(f"home center {home}" in p
               for p in occurrence_problems(pos, {c: o for c, o in last.items() if c != home}))


def test_configurations_count_like_positions():
    m = standard_map()
    for power in POWERS:
        for cfg in configurations(m, power, waives=True)[::37]:
            if cfg.builds:
                assert cfg.choices >= 1 and len(cfg.free_homes) <= len(m.homes[power])
            else:
                assert cfg.choices == math.comb(cfg.units, cfg.removals)
    russia = {(c.units, c.centers, len(c.free_homes)): c.choices
              for c in configurations(m, "Russia", waives=True)}
    assert russia[(0, 4, 4)] == 48
    assert {(c.units, c.centers, len(c.free_homes)): c.choices
            for c in configurations(m, "Russia", waives=False)}[(0, 4, 4)] == 6


def test_cli_worst_case_writes_a_witness_that_counts_the_same(capsys, tmp_path):
    out_file = tmp_path / "witness.dip"
    assert main(["adjust", "--worst-case", "-o", str(out_file), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["status"] == "optimal" and obj["maximum"] == WITHOUT_WAIVES
    assert obj["witness_joint_count"] == WITHOUT_WAIVES
    assert main(["adjust", str(out_file), "--count", "--no-waives", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["joint"]["choices_without_waives"] == WITHOUT_WAIVES


def test_cli_worst_case_answers_at_any_time_limit(capsys):
    """At 0.2 s CBC has no time to start: the answer is still a position that can occur,
    in strict JSON (no Infinity), with a status; the witness only if there was time."""
    assert main(["adjust", "--worst-case", "--time-limit", "0.2", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out,
                     parse_constant=lambda c: pytest.fail(f"{c} is not JSON"))
    assert obj["status"] in ("timed out", "optimal") and obj["maximum"] >= 9_400_320
    assert obj["witness_joint_count"] in (None, obj["maximum"])
    assert obj["bound_log"] is None or obj["status"] == "optimal"
