"""The command line as a user meets it: adjudicate, show, --json, output files, errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dipsolve.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.dip"))


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_examples_exist():
    names = {p.name for p in EXAMPLES}
    assert "start.dip" in names and len(EXAMPLES) >= 7
    kinds = set()
    from dipsolve.grammar import parse_position
    for p in EXAMPLES:
        pos, _ = parse_position(p.read_text(), str(p))
        kinds.add(pos.phase.kind)
    assert kinds == {"movement", "retreat", "adjustment"}


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_example_adjudicates_and_its_output_adjudicates_again(path, capsys, tmp_path):
    code, out, err = run(capsys, "adjudicate", str(path))
    assert code == 0, err
    # the whole human output is a valid position file (results are comments)
    again = tmp_path / "next.dip"
    again.write_text(out)
    code, out2, err2 = run(capsys, "adjudicate", str(again))
    assert code == 0, err2
    assert "phase:" in out2


def test_output_file_and_json(capsys, tmp_path):
    start = ROOT / "examples" / "start.dip"
    target = tmp_path / "after.dip"
    code, out, _ = run(capsys, "adjudicate", str(start), "--json", "-o", str(target))
    assert code == 0
    obj = json.loads(out)
    assert obj["file"] == str(start) and obj["phase"] == "S1901M"
    assert obj["next"]["phase"] in ("F1901M", "S1901R")
    assert {"power", "order", "success", "reason", "detail"} <= set(obj["results"][0])
    assert set(obj["next"]) >= {"units", "centers", "dislodged", "standoffs", "phase"}
    from dipsolve.grammar import parse_position
    pos, orders = parse_position(target.read_text(), str(target))
    assert pos.phase.short == obj["next"]["phase"] and orders == {}
    units = {p: sorted(us) for p, us in obj["next"]["units"].items() if us}
    assert units == {p: sorted(str(u) for u in pos.units_of(p)) for p in pos.powers() if pos.units_of(p)}


def test_several_files_in_one_process_json_lines(capsys):
    code, out, _ = run(capsys, "adjudicate", *map(str, EXAMPLES[:3]), "--json")
    assert code == 0
    lines = out.strip().splitlines()
    assert len(lines) == 3 and all(json.loads(line)["file"] for line in lines)


def test_orders_file_replaces_the_files_orders(capsys, tmp_path):
    orders = tmp_path / "orders.txt"
    orders.write_text("# France opens\nFrance: A PAR - BUR\nGermany: A MUN - BUR\n")
    code, out, _ = run(capsys, "adjudicate", str(ROOT / "examples" / "start.dip"), "--orders", str(orders), "--json")
    assert code == 0
    res = {r["order"]: r["reason"] for r in json.loads(out)["results"]}
    assert res["A PAR - BUR"] == "bounced" and res["A MUN - BUR"] == "bounced"
    assert res["F BRE H"] == "held"


def test_show(capsys):
    code, out, _ = run(capsys, "show", str(ROOT / "examples" / "start.dip"))
    assert code == 0 and "[Russia]" in out and "F STP/SC" in out
    code, out, _ = run(capsys, "show", "--json", str(ROOT / "examples" / "start.dip"))
    obj = json.loads(out)
    assert obj["units"]["Russia"] == ["A MOS", "A WAR", "F SEV", "F STP/SC"]


def test_missing_file_is_exit_2_without_traceback(capsys):
    code, out, err = run(capsys, "adjudicate", "no/such/file.dip")
    assert code == 2 and "no/such/file.dip: no such file" in err and "Traceback" not in err


def test_bad_orders_file_is_exit_2_with_line_and_column(capsys, tmp_path):
    orders = tmp_path / "orders.txt"
    orders.write_text("France: A PAR - BUR\nFrance: A PIC - BRE\n")
    code, _, err = run(capsys, "adjudicate", str(ROOT / "examples" / "start.dip"), "--orders", str(orders))
    assert code == 2
    assert f"{orders}:2:" in err and "PIC" in err


def test_no_partial_output_on_error(capsys, tmp_path):
    bad = tmp_path / "bad.dip"
    bad.write_text("phase: Spring 1901 Movement\n[France]\nunits: A PARISS\n")
    target = tmp_path / "out"
    code, _, err = run(capsys, "adjudicate", str(ROOT / "examples" / "start.dip"), str(bad), "--out-dir", str(target))
    assert code == 2 and f"{bad}:3:" in err
    assert not target.exists()


def test_console_script_help():
    exe = Path(sys.executable).with_name("dipsolve")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "dipsolve.cli"]
    proc = subprocess.run(cmd + ["adjudicate", "--help"], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "100"})
    assert proc.returncode == 0 and "--orders" in proc.stdout and "--json" in proc.stdout
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 2 and "adjudicate" in proc.stdout


def test_render_option_draws_the_outcome(capsys, tmp_path):
    out = tmp_path / "f1901m.svg"
    code, _, _ = run(capsys, "adjudicate", str(ROOT / "examples" / "f1901m.dip"), "--render", str(out))
    assert code == 0
    svg = out.read_text()
    assert "Russia: F RUM" in svg and "dislodged" in svg


def test_render_option_rejects_an_unknown_format_before_any_work(capsys, tmp_path):
    code, _, err = run(capsys, "adjudicate", str(ROOT / "examples" / "start.dip"), "--render",
                       str(tmp_path / "x.gif"))
    assert code == 2 and "expected .svg or .png" in err and not list(tmp_path.iterdir())


def test_notebook_pictures():
    from dipsolve.adjudicator import adjudicate
    from dipsolve.position import Position
    from dipsolve.render import outcome_svg, position_svg
    start = Position.initial()
    assert start._repr_svg_() == position_svg(start)
    out = adjudicate(start, {})
    assert out._repr_svg_() == outcome_svg(out)
