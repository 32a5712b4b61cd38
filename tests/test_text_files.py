"""Text-file conventions every reader keeps: UTF-8 with or without a byte-order mark, LF or
CRLF line ends, and ``-`` for standard input; and ``--out-dir`` never loses a result."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import dipsolve
from dipsolve.cli import main

ROOT = Path(__file__).resolve().parent.parent
F1901M = (ROOT / "examples" / "f1901m.dip").read_text(encoding="utf-8")


def windows(text: str) -> bytes:
    """``text`` as a Windows editor saves it: a UTF-8 BOM and CRLF line ends."""
    return b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8")


def test_a_bom_and_crlf_position_file_reads_as_the_plain_one(tmp_path, capsys):
    plain = dipsolve.Position.from_text(F1901M)
    path = tmp_path / "win.dip"
    path.write_bytes(windows(F1901M))
    assert dipsolve.Position.from_file(str(path)) == plain
    assert dipsolve.parse_position(path.read_bytes().decode("utf-8"))[0] == plain
    assert main(["show", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["phase"] == "F1901M"
    assert main(["adjudicate", str(path), "--json"]) == 0


def test_bom_and_crlf_in_orders_daide_and_values_files(tmp_path, capsys):
    orders = tmp_path / "orders.txt"
    orders.write_bytes(windows("France: A PAR - BUR\nGermany: A MUN - BUR\n"))
    assert main(["adjudicate", "examples/start.dip", "--orders", str(orders), "--json"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert {"power": "France", "order": "A PAR - BUR"}.items() <= next(
        r for r in results if r["order"] == "A PAR - BUR").items()
    daide = tmp_path / "now.daide"
    daide.write_bytes(windows("NOW ( SPR 1901 ) ( FRA AMY PAR )\nSCO ( FRA PAR )\n"))
    assert dipsolve.Position.from_file(str(daide)).units_of("France")[0].location == "PAR"
    values = tmp_path / "t.values"
    values.write_bytes(windows("power: Turkey\nCON 100\n"))
    assert dipsolve.load_values(values).values["CON"] == 100


def test_standard_input_is_a_file_named_dash():
    text = subprocess.run([sys.executable, "-m", "dipsolve.cli", "show", "-", "--json"],
                          input=windows(F1901M), capture_output=True, check=True, cwd=ROOT)
    obj = json.loads(text.stdout)
    assert obj["phase"] == "F1901M" and obj["file"] == "-"
    bad = subprocess.run([sys.executable, "-m", "dipsolve.cli", "adjudicate", "-"],
                         input=b"phase: S1901M\n[France]\nunits: A PARISS\n", capture_output=True,
                         cwd=ROOT)
    assert bad.returncode == 2 and bad.stderr.decode().startswith("<stdin>:3:")
    assert b"Traceback" not in bad.stderr


def test_standard_input_once_only(capsys, monkeypatch):
    import io
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(F1901M.encode())))
    assert main(["show", "-", "-"]) == 2
    assert "standard input can be read once" in capsys.readouterr().err


def test_out_dir_never_writes_two_results_to_one_file(tmp_path, capsys):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    (a / "x.dip").write_text(F1901M)
    (b / "x.dip").write_text((ROOT / "examples" / "s1902m.dip").read_text())
    out = tmp_path / "out"
    assert main(["adjudicate", str(a / "x.dip"), str(b / "x.dip"), "--out-dir", str(out)]) == 2
    err = capsys.readouterr().err
    assert "would both be written to x.next.dip" in err
    assert not out.exists()


def test_a_file_that_is_not_utf8_keeps_its_clear_message(tmp_path, capsys):
    path = tmp_path / "latin1.dip"
    path.write_bytes("phase: S1901M\n# é\n".encode("latin-1"))
    assert main(["show", str(path)]) == 2
    assert "not a text file (byte 16 is not UTF-8)" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["\ufeffFrance: A PAR - BUR", "France: A PAR - BUR\r\n"])
def test_orders_given_as_text_with_a_bom_or_crlf(text):
    assert str(dipsolve.parse_orders(text)[0][1]) == "A PAR - BUR"
