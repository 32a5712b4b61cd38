"""``dipsolve parse`` and ``dipsolve validate`` as a user meets them."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from dipsolve.cli import main

ROOT = Path(__file__).resolve().parents[1]
START = str(ROOT / "examples" / "start.dip")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- parse
@pytest.mark.parametrize("argv, printed", [
    (["A Paris -> Burgundy"], "A PAR - BUR"),
    (["France:", "F", "North", "Sea", "convoys", "A", "London", "-", "Norway"], "France: F NTH C A LON - NWY"),
    (["( FRA AMY PAR ) MTO BUR"], "France: A PAR - BUR"),
    (["build F stp(nc)"], "F STP/NC B"),
    (["A MUN S A BER - KIE", "--format", "long"], "A Munich supports A Berlin -> Kiel"),
    (["Germany: A Munich supports A Berlin -> Kiel", "--format", "daide"],
     "( GER AMY MUN ) SUP ( GER AMY BER ) MTO KIE"),
    (["A LON - NWY VIA", "--format", "daide", "--power", "ENG"], "( ENG AMY LON ) CTO NWY VIA ( NTH )"),
    (["F St Petersburg (south coast) => Gulf of Bothnia", "--format", "daide", "--power", "russia"],
     "( RUS FLT ( STP SCS ) ) MTO GOB"),
])
def test_parse_prints_the_canonical_form_or_the_notation_asked(capsys, argv, printed):
    code, out, err = run(capsys, "parse", *argv)
    assert (code, out, err) == (0, printed + "\n", "")


def test_parse_a_file_reports_every_bad_line_and_prints_the_good(capsys, tmp_path):
    f = tmp_path / "orders.txt"
    f.write_text("# mixed\nA Paris -> Burgundy\nEngland: F LON -- NTH\n( GER AMY MUN ) HLD\n"
                 "F Brst - MAO\nwaive\n")
    code, out, err = run(capsys, "parse", "-f", str(f), "--format", "long")
    assert code == 2
    assert out == "A Paris -> Burgundy\nGermany: A Munich holds\nWaive\n"
    assert err == (f"{f}:3:17: expected a province, found '-'\n"
                   "England: F LON -- NTH\n"
                   "                ^\n"
                   f"{f}:5:3: unknown province 'Brst' (did you mean BRE, Brest?)\n"
                   "F Brst - MAO\n"
                   "  ^^^^\n")


def test_parse_json(capsys, tmp_path):
    f = tmp_path / "orders.txt"
    f.write_text("France: A Paris -> Burgundy VIA\nF NTH C A LON\n")
    code, out, _ = run(capsys, "parse", "-f", str(f), "--json")
    assert code == 2
    first, second = [json.loads(line) for line in out.splitlines()]
    assert first == {"file": str(f), "line": 1, "column": 9, "text": "A Paris -> Burgundy VIA",
                     "power": "France", "type": "move", "order": "A PAR - BUR VIA",
                     "output": "France: A PAR - BUR VIA",
                     "fields": {"kind": "A", "location": "PAR", "target": "BUR", "via_convoy": True,
                                "route": []},
                     "mark": None}
    # a line not understood is the error object of every command (README.md's schema)
    assert second == {"error": "syntax", "file": str(f), "line": 2, "col": 14,
                      "message": "expected '-', found end of line",
                      "found": "end of line", "expected": "'-'"}


def test_parse_reads_stdin(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("Turkey: F Ankara -> Black Sea\nRUS WVE\n"))
    code, out, _ = run(capsys, "parse", "-f", "-")
    assert (code, out) == (0, "Turkey: F ANK - BLA\nRussia: WAIVE\n")


@pytest.mark.parametrize("argv, message", [
    ([], "dipsolve: nothing to parse: give an order as TEXT, or -f FILE ('-' for stdin)"),
    (["A PAR H", "-f", "x.txt"], "dipsolve: give an order as TEXT or a file with -f FILE, not both"),
    (["-f", "no/such/file.txt"], "no/such/file.txt: no such file"),
    (["A PAR H", "--power", "Prussia"],
     "--power: unknown power 'Prussia' (did you mean Russia? expected one of Austria, England, France, Germany, "
     "Italy, Russia, Turkey, or AUS, ENG, FRA, GER, ITA, RUS, TUR)"),
    (["A PAR H", "--format", "daide"],
     "<text>:1:1: A PAR H: DAIDE notation names the power of every unit, and none was given "
     "(write 'France: ...' or give --power)"),
    (["France: A PAR - BUR VIA", "--format", "daide"],
     "<text>:1:9: A PAR - BUR VIA: no sea route from PAR to BUR, and DAIDE's CTO ... VIA names one"),
    (["A PAR -"], "<text>:1:8: expected a province, found end of line\nA PAR -\n       ^"),
])
def test_parse_errors_exit_2_with_one_clear_message(capsys, argv, message):
    code, out, err = run(capsys, "parse", *argv)
    assert (code, out, err) == (2, "", message + "\n")


# ---------------------------------------------------------------- validate
ORDERS = ("France: A PAR - BUR\n"
          "England: F LON - PAR\n"
          "Germany: A MUN S A BER - KIE\n"
          "France: F BRE -- MAO\n"
          "Italy: A VEN H  # fine\n"
          "Russia: F STP/SC - BAR\n"
          "( FRA AMY PIC ) MTO BEL\n"
          "Turkey: F ANK C A CON - BLA\n")


def test_validate_reports_syntax_and_rules_each_at_its_place(capsys, tmp_path):
    f = tmp_path / "orders.txt"
    f.write_text(ORDERS)
    code, out, err = run(capsys, "validate", str(f), "--position", START)
    assert code == 2 and err == ""
    assert out == (f"{f}:2:10: F LON - PAR: a fleet cannot enter Paris (inland)\n"
                   f"{f}:4:16: expected a province, found '-'\n"
                   "France: F BRE -- MAO\n"
                   "               ^\n"
                   f"{f}:6:9: F STP/SC - BAR: STP/SC is not adjacent to BAR\n"
                   f"{f}:7:1: A PIC - BEL: no unit in PIC\n"
                   f"{f}:8:9: F ANK C A CON - BLA: only a fleet at sea can convoy\n"
                   f"{f}: 8 orders for Spring 1901 Movement: 3 legal, 4 illegal, 1 not understood\n")


def test_validate_json(capsys, tmp_path):
    f = tmp_path / "orders.txt"
    f.write_text(ORDERS)
    code, out, _ = run(capsys, "validate", str(f), "--position", START, "--json")
    assert code == 2
    doc = json.loads(out)
    assert {k: doc[k] for k in ("file", "position", "phase", "orders", "legal")} == {
        "file": str(f), "position": START, "phase": "S1901M", "orders": 8, "legal": 3}
    assert [(p["line"], p["column"], p["kind"], p["rule"]) for p in doc["problems"]] == [
        (2, 10, "illegal", "terrain"), (4, 16, "not understood", "syntax"),
        (6, 9, "illegal", "adjacency"), (7, 1, "illegal", "unit"), (8, 9, "illegal", "convoy")]
    assert doc["problems"][0] == {"line": 2, "column": 10, "kind": "illegal", "power": "England",
                                  "order": "F LON - PAR", "rule": "terrain",
                                  "message": "a fleet cannot enter Paris (inland)",
                                  "found": "F LON - PAR", "expected": None}


def test_validate_all_legal_exits_0(capsys, tmp_path):
    f = tmp_path / "orders.txt"
    f.write_text("France: A Paris -> Burgundy\nEngland: F London -> North Sea\n( RUS FLT SEV ) MTO BLA\n")
    code, out, err = run(capsys, "validate", str(f), "--position", START)
    assert (code, out, err) == (0, f"{f}: 3 orders for Spring 1901 Movement: all legal\n", "")
    code, out, _ = run(capsys, "validate", str(f), "--position", START, "--json")
    assert code == 0 and json.loads(out)["problems"] == [] and json.loads(out)["legal"] == 3


def test_validate_bad_position_or_missing_files(capsys, tmp_path):
    f = tmp_path / "orders.txt"
    f.write_text("France: A PAR H\n")
    code, _, err = run(capsys, "validate", str(f), "--position", str(tmp_path / "none.dip"))
    assert code == 2 and err == f"{tmp_path / 'none.dip'}: no such file\n"
    bad = tmp_path / "bad.dip"
    bad.write_text("phase: S1901M\n[France]\nunits: A Pariss\n")
    code, _, err = run(capsys, "validate", str(f), "--position", str(bad))
    assert code == 2 and err.startswith(f"{bad}:3:10: unknown province 'Pariss'")
    with pytest.raises(SystemExit) as info:       # --position is required
        main(["validate", str(f)])
    assert info.value.code == 2


# ---------------------------------------------------------------- the examples
def test_example_orders_files(capsys):
    """examples/orders/: the 1901 openings in three notations (all legal, and the same
    orders as examples/start.dip's own), and a file of mistakes of both kinds."""
    from dipsolve.grammar import parse_orders, parse_position_file
    position, own = parse_position_file(START)
    spring = ROOT / "examples" / "orders" / "spring1901.txt"
    pairs = parse_orders(spring.read_text(), str(spring), position=position)
    assert pairs == [(power, o) for power, os in own.items() for o in os]
    code, out, _ = run(capsys, "validate", str(spring), "--position", START)
    assert code == 0 and out.endswith("22 orders for Spring 1901 Movement: all legal\n")

    mistakes = ROOT / "examples" / "orders" / "mistakes.txt"
    code, out, _ = run(capsys, "validate", str(mistakes), "--position", START, "--json")
    assert code == 2
    assert [(p["line"], p["rule"]) for p in json.loads(out)["problems"]] == [
        (5, "terrain"), (6, "syntax"), (9, "adjacency"), (10, "convoy"), (11, "convoy route"),
        (12, "one order"), (13, "one order")]
