"""``dipsolve solve`` as a user meets it: the Turkish example, every power, --json,
--trace, --render, every phase, and mistakes reported in one line with exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dipsolve.core.adjudicator import Reason, adjudicate
from dipsolve.cli import load, load_orders, main

ROOT = Path(__file__).resolve().parents[1]
TURKEY = str(ROOT / "examples" / "solve" / "turkey-1901.dip")
VALUES = str(ROOT / "examples" / "solve" / "turkey-1901.values")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_turkish_example(capsys):
    code, out, err = run(capsys, "solve", TURKEY, "--power", "TUR", "--values", VALUES,
                         "--time-limit", "5", "--opponents", "worst")
    assert code == 0, err
    orders = [line for line in out.splitlines() if not line.startswith("#")]
    assert sorted(orders) == ["Turkey: A CON - BUL", "Turkey: A SMY - ARM", "Turkey: F ANK - BLA"]
    assert "(985 if everybody else holds), optimal" in out


def test_the_output_is_an_orders_file(capsys, tmp_path):
    code, out, err = run(capsys, "solve", TURKEY, "--time-limit", "2")
    assert code == 0, err
    path = tmp_path / "orders.txt"
    path.write_text(out)
    position, _ = load(TURKEY)
    orders = load_orders(str(path), position)
    assert sorted(orders) == ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
    assert sum(len(os) for os in orders.values()) == 22
    outcome = adjudicate(position, orders)
    assert not [r for r in outcome.results if r.reason is Reason.ILLEGAL]


def test_json(capsys):
    code, out, err = run(capsys, "solve", TURKEY, "--power", "Turkey", "--values", VALUES,
                         "--time-limit", "3", "--json", "--method", "minimax")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["file"] == TURKEY and obj["phase"] == "S1901M"
    (s,) = obj["solutions"]
    assert s["power"] == "Turkey" and s["method"] == "minimax" and len(s["orders"]) == 3
    assert s["status"] in ("optimal", "feasible", "timed out")
    # the fields of every solver's result first (`value` and `wall_time` before issue 13)
    assert list(s)[:4] == ["status", "objective", "bound", "seconds"]
    assert set(s) >= {"power", "phase", "method", "orders", "nodes", "plain_value", "opponents"}
    assert "trace" not in s and 0 < s["seconds"] < 3 * 1.5


def test_trace_prints_the_agenda(capsys):
    code, out, err = run(capsys, "solve", TURKEY, "--power", "TUR", "--values", VALUES, "--trace",
                         "--opponents", "hold")
    assert code == 0, err
    assert "#   Agenda t = 0\n#     * {} = 815\n" in out
    assert "#     * {A CON - BUL} = 926.667" in out


@pytest.mark.parametrize("name, kind", [("f1901r.dip", "Retreat"), ("w1901a.dip", "Adjustment")])
def test_other_phases(capsys, name, kind):
    code, out, err = run(capsys, "solve", str(ROOT / "examples" / name), "--time-limit", "1")
    assert code == 0, err
    assert kind in out.splitlines()[0]
    assert any(not line.startswith("#") for line in out.splitlines())


def test_a_short_time_limit_still_gives_orders(capsys):
    code, out, err = run(capsys, "solve", str(ROOT / "examples" / "s1902m.dip"), "--power", "RUS",
                         "--time-limit", "0.2", "--method", "expectimax")
    assert code == 0, err
    position, _ = load(str(ROOT / "examples" / "s1902m.dip"))
    orders = [line for line in out.splitlines() if line.startswith("Russia: ")]
    assert len(orders) == len(position.units_of("Russia"))


def test_render(capsys, tmp_path):
    svg = tmp_path / "turkey.svg"
    code, out, err = run(capsys, "solve", TURKEY, "--power", "TUR", "--time-limit", "1",
                         "--render", str(svg))
    assert code == 0, err
    assert "<svg" in svg.read_text()[:500]


@pytest.mark.parametrize("argv, message", [
    (["--power", "Prussia"], "unknown power 'Prussia'"),
    (["--time-limit", "0"], "--time-limit 0: past the limit max_seconds"),
    (["--beam", "0"], "--beam 0: past the limit max_beam (a beam keeps 1 to 1,000,000 entries)"),
    (["--values", "nope.values"], "nope.values: no such file"),
    (["--render", "out.gif"], "unknown picture format"),
])
def test_mistakes_are_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, "solve", TURKEY, *argv)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_bad_values_file_points_at_line_and_column(capsys, tmp_path):
    bad = tmp_path / "bad.values"
    bad.write_text("power: TUR\nCon 100\nAnkara ninety\n")
    code, out, err = run(capsys, "solve", TURKEY, "--values", str(bad))
    assert code == 2 and out == ""
    assert err.startswith(f"{bad}:3:8: ") and "expected a number" in err
    nameless = tmp_path / "nameless.values"
    nameless.write_text("Con 100\n")
    code, out, err = run(capsys, "solve", TURKEY, "--values", str(nameless))
    assert code == 2 and "add a 'power: NAME' line or give --power" in err


def test_cpsat_runs(capsys):
    code, out, err = run(capsys, "solve", TURKEY, "--power", "TUR", "--method", "cpsat",
                         "--opponents", "worst", "--time-limit", "4", "--trace", "--json")
    assert code == 0, err
    (s,) = json.loads(out)["solutions"]
    assert s["method"] == "cpsat" and len(s["orders"]) == 3
    assert any(line.startswith("CP-SAT over") for line in s["trace"])


def test_cpsat_with_a_short_limit_still_answers(capsys):
    # 0.2 s: too short to load OR-Tools unless it is loaded already; an answer either way
    code, out, err = run(capsys, "solve", TURKEY, "--power", "TUR", "--method", "cpsat",
                         "--time-limit", "0.2", "--json")
    assert code == 0, err
    (s,) = json.loads(out)["solutions"]
    assert len(s["orders"]) == 3 and s["status"] in ("optimal", "feasible", "timed out")


def test_help_explains_the_methods(capsys):
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    out, _ = capsys.readouterr()
    for word in ("agenda", "minimax", "expectimax", "cpsat", "--values", "optimal"):
        assert word in out


def test_a_records_phase_is_solved_against_the_policy_fitted_to_its_earlier_orders(capsys):
    """``solve GAME.json --phase S1903M``: the seat's learned model, fitted to every power's
    orders in the four movement phases before it; the answer says so, in text and JSON."""
    record = str(ROOT / "examples" / "records" / "dumbbot-1903.json")
    code, out, err = run(capsys, "solve", record, "--phase", "S1903M", "--power", "FRA",
                         "--time-limit", "1", "--json")
    assert code == 0, err
    (s,) = json.loads(out)["solutions"]
    assert s["phase"] == "S1903M" and s["orders"]
    assert s["model"].startswith("learned: the prior policy fitted to 4 movement phases of orders")
    code, out, err = run(capsys, "solve", TURKEY, "--power", "TUR", "--time-limit", "1")
    assert code == 0, err
    assert out.splitlines()[1] == "# opponents learned: the package's prior policy (no orders seen)"
    code, out, err = run(capsys, "solve", record, "--phase", "S1903M", "--power", "FRA",
                         "--time-limit", "1", "--opponents", "equilibrium")
    assert code == 0, err
    assert out.splitlines()[1].startswith("# opponents equilibrium: the phase game")
