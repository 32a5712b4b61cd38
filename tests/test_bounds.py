"""The bounds of `dipsolve.core.bounds`, met by every reader and every numeric option: each
case of issue 20 (numbers and nesting past every bound, flag values) and the others of
the same classes answer with one line naming the limit and the place, and exit 2.
"""

from __future__ import annotations

import io
import json
import math
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from dipsolve.core.bounds import (LIMITS, check_float, check_nesting, check_picture, json_decoder,
                                  loads_json, parse_int, read_text)
from dipsolve.cli import main
from dipsolve.core.errors import DipsolveLimitError, DipsolveSyntaxError

ROOT = Path(__file__).resolve().parent.parent
START = str(ROOT / "examples" / "start.dip")
W1901A = str(ROOT / "examples" / "w1901a.dip")
TURKEY = str(ROOT / "examples" / "solve" / "turkey-1901.dip")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as e:
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, *argv: str) -> str:
    """The one line a refused command prints (exit 2, nothing on stdout); an error in a
    text adds the line it is in and a caret under the place, as every text error does."""
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, ""), err
    lines = err.rstrip("\n").split("\n")
    assert "Traceback" not in err and len(lines) in (1, 3), err
    if len(lines) == 3:
        assert set(lines[2].strip()) == {"^"}
    return lines[0]


# -- the table ---------------------------------------------------------------------------

def test_every_bound_is_stated_once_with_its_range_in_words():
    assert LIMITS["max_year"].sentence() == "a year is 1 to 9999"
    assert LIMITS["max_seconds"].sentence() == "a time limit is more than 0, at most 10,000,000 seconds"
    for bound in LIMITS.values():
        assert "{range}" in bound.says and bound.sentence()


def test_the_error_names_the_bound_and_its_json_says_it():
    with pytest.raises(DipsolveLimitError) as info:
        parse_int("1" * 5000, "year", "max_year", filename="x.dip", line=1, column=8)
    e = info.value
    assert isinstance(e, DipsolveSyntaxError) and isinstance(e, ValueError)
    assert str(e) == ("x.dip:1:8: year 1111…1111 (5000 digits): past the limit max_year "
                      "(a year is 1 to 9999)")
    assert e.to_json()["error"] == "limit" and e.to_json()["limit"] == "max_year"


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 0.0, -1.0, 1e8])
def test_one_validator_refuses_nan_infinity_and_out_of_range(value):
    with pytest.raises(DipsolveLimitError):
        check_float(value, "time limit", "max_seconds")
    assert check_float(0.5, "time limit", "max_seconds") == 0.5


def test_nesting_is_counted_not_descended():
    check_nesting("(" * 64 + ")" * 64)
    with pytest.raises(DipsolveLimitError) as info:
        check_nesting("x\n" + "(" * 100_000, "deep.txt")
    assert (info.value.line, info.value.column) == (2, 65)


def test_json_nesting_numbers_and_constants():
    assert loads_json('{"a": [[1, "[[[["]]}') == {"a": [[1, "[[[["]]}
    with pytest.raises(DipsolveLimitError, match="JSON nested 65 deep"):
        loads_json("[" * 20_000 + "]" * 20_000)
    with pytest.raises(DipsolveLimitError, match="max_digits"):
        loads_json("[" + "1" * 5000 + "]")
    with pytest.raises(DipsolveSyntaxError, match="NaN is not JSON"):
        loads_json('{"x": NaN}')


def _json_depth_walked(text: str) -> int:
    """The deepest bracket of a JSON text outside its strings, one character at a time."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            escaped, in_string = (False, True) if escaped else (ch == "\\", ch != '"')
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(['"', "\\", "a", "\n", "[", "]", "{", "}", "[" * 30, "]" * 30,
                                 "{" * 20, "}" * 20]), max_size=40))
@example(["[" * 64, "{"])
@example(["[" * 64, '"\\"{"'])
@example(["[" * 64, '"\\\\"{"'])
@example(["[" * 64])
def test_json_nesting_is_the_walked_depth(pieces):
    text = "".join(pieces)
    if _json_depth_walked(text) > LIMITS["max_nesting"].value:
        with pytest.raises(DipsolveLimitError, match="max_nesting"):
            json_decoder(text)
    else:
        json_decoder(text)


def test_a_file_past_the_size_limit_is_refused_before_it_is_read_whole(tmp_path):
    big = tmp_path / "big.dip"
    big.write_bytes(b"#" * (int(LIMITS["max_file_bytes"].value) + 1))
    with pytest.raises(DipsolveLimitError, match="max_file_bytes"):
        read_text(big)


@pytest.mark.parametrize("scale", [1e308, 1e-9, 400, 45, math.nan, math.inf, 0, -1])
def test_a_picture_past_the_limit_is_refused_before_drawing(scale):
    with pytest.raises(DipsolveLimitError, match="max_pixels"):
        check_picture(1260, 900, scale)
    assert check_picture(1260, 900, 2) == (2520, 1800)


# -- the readers ---------------------------------------------------------------------------

def test_a_daide_year_of_5000_digits(tmp_path, capsys):
    f = tmp_path / "now.daide"
    f.write_text("NOW ( SPR " + "1" * 5000 + " ) ( ENG FLT LON )")
    assert refused(capsys, "show", str(f)) == (
        f"{f}:1:11: year 1111…1111 (5000 digits): past the limit max_year (a year is 1 to 9999)")


@pytest.mark.parametrize("phase", ["Spring 99999 Movement", "S" + "1" * 50 + "M", "Spring 0 Movement"])
def test_a_dip_year_past_the_limit(tmp_path, capsys, phase):
    f = tmp_path / "year.dip"
    f.write_text(f"phase: {phase}\n[England]\nunits: F LON\n")
    assert refused(capsys, "show", str(f)).startswith(f"{f}:1:8: year ")


def test_the_year_after_the_last_is_past_the_limit():
    from dipsolve.core.adjudicator import adjudicate
    from dipsolve.core.position import Position
    last = Position.from_text("phase: Winter 9999 Adjustment\n[England]\nunits: F LON\n"
                              "centers: LON\n")
    with pytest.raises(DipsolveLimitError, match="year 10000"):
        adjudicate(last, {})


def test_press_nested_3000_deep(tmp_path, capsys):
    f = tmp_path / "deep.press"
    f.write_text("PRP (" + "AND (" * 3000 + "PCE (ENG FRA)" + ")" * 3001 + "\n")
    assert refused(capsys, "parse", "--press", "-f", str(f)) == (
        f"{f}:1:325: brackets nested 65 deep: past the limit max_nesting "
        f"(brackets nest at most 64 deep in press and in JSON)")


def test_press_nested_as_deep_as_the_limit_reads():
    from dipsolve.grammar.press import parse_press
    text = "PCE (ENG FRA)"
    for _ in range(60):
        text = f"AND ({text}) (PCE (ENG FRA))"
    press = parse_press(f"PRP ({text})")
    assert press.english() and press.to_json()


def test_a_press_message_past_the_length_of_a_daide_message(capsys):
    text = "PRP (AND " + "(PCE (ENG FRA)) " * 5000 + ")"
    assert "past the limit max_press_length" in refused(capsys, "parse", "--press", text)


@pytest.mark.parametrize("message", ["MIS ( " + "9" * 5000 + " )", "TME ( " + "9" * 30 + " )",
                                     "ORD ( SPR " + "1" * 25 + " ) ( ( ENG AMY LVP ) HLD ) ( SUC )"])
def test_press_numbers_are_digit_counted(capsys, message):
    assert "past the limit max_digits" in refused(capsys, "parse", "--press", "--english", message)


def test_a_plan_nested_20000_deep(tmp_path, capsys):
    f = tmp_path / "deep.json"
    f.write_text("[" * 20_000 + "]" * 20_000)
    assert refused(capsys, "render", "--plan", str(f)) == (
        f"{f}:1:65: JSON nested 65 deep: past the limit max_nesting "
        f"(brackets nest at most 64 deep in press and in JSON)")


def test_a_plan_phase_past_the_last_year(tmp_path, capsys):
    f = tmp_path / "far.json"
    f.write_text('[{"phase": "S99999M", "orders": ["Germany: A BER - KIE"]}]')
    assert refused(capsys, "render", "--plan", str(f)) == (
        f"{f}:1:12: year 99999: past the limit max_year (a year is 1 to 9999)")


@pytest.mark.parametrize("value, message", [
    ("1e400", "value 1e400 is not finite"), ("NaN", "value NaN is not a number"),
    ("-inf", "value -inf is not finite"), ("1e10", "value 1e10: past the limit max_value")])
def test_province_values_past_the_limit(tmp_path, capsys, value, message):
    f = tmp_path / "v.values"
    f.write_text(f"power: Turkey\nCON 100\nANK {value}\n")
    line = refused(capsys, "solve", TURKEY, "--values", str(f), "--time-limit", "1")
    assert line.startswith(f"{f}:3:5: {message}")


def test_province_values_from_the_api_are_checked_too():
    from dipsolve.algorithms.evaluation import ProvinceValues
    with pytest.raises(DipsolveLimitError):
        ProvinceValues({"CON": math.nan})


@pytest.mark.slow  # a board of a million units
def test_units_past_the_limit_are_refused_before_the_board_is_checked(tmp_path, capsys):
    f = tmp_path / "crowd.dip"
    f.write_text("phase: S1901M\n[France]\nunits: " + ", ".join(["A PAR"] * 100_000) + "\n")
    line = refused(capsys, "show", str(f))
    assert line.startswith(f"{f}:3:") and "a position of 100000 units: past the limit max_units" in line


def test_a_file_past_the_size_limit(tmp_path, capsys, monkeypatch):
    f = tmp_path / "big.dip"
    f.write_text("# padding\n" * 1_700_000)
    assert refused(capsys, "show", str(f)).startswith(f"{f}: a file of 17,000,000 bytes: past the limit")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"#\n" * 8_400_000)))
    assert refused(capsys, "show", "-").startswith("<stdin>: more than 16,777,216 bytes")


def test_a_gzip_bomb_stops_at_the_file_size_limit(tmp_path, capsys):
    """Gzip is decompressed within ``max_file_bytes``: 17 MB of zeros in 17 kB refused as
    it grows past the bound (as a plain file of that size is), from the command line and
    the library; every member of a multi-member gzip file is read."""
    import gzip
    import dipsolve
    bomb = tmp_path / "bomb.json.gz"
    bomb.write_bytes(gzip.compress(b" " * 17_000_000))
    assert bomb.stat().st_size < 40_000
    said = (f"{bomb}: gzip data of more than 16,777,216 bytes decompressed: past the limit "
            "max_file_bytes")
    assert refused(capsys, "analyze", str(bomb)).startswith(said)
    with pytest.raises(DipsolveLimitError, match="gzip data of more than 16,777,216 bytes"):
        dipsolve.load_record(str(bomb))
    start = Path(__file__).resolve().parent.parent / "examples" / "start.dip"
    text = start.read_bytes()
    two = tmp_path / "two.dip"
    two.write_bytes(gzip.compress(text[:100]) + gzip.compress(text[100:]))
    code, out, _ = run(capsys, "show", str(two), "--json")
    assert code == 0 and json.loads(out) == {**json.loads(run(capsys, "show", str(start), "--json")[1]),
                                             "file": str(two)}


# -- the options -----------------------------------------------------------------------------

_TIME = "past the limit max_seconds (a time limit is more than 0, at most 10,000,000 seconds)"


@pytest.mark.parametrize("argv", [
    ["adjust", "--worst-case"], ["adjust", W1901A], ["solve", START], ["path", "--power", "GER"],
    ["play"]])
@pytest.mark.parametrize("value, said", [("inf", "inf is not finite"), ("NaN", "nan is not a number"),
                                         ("1e999", "inf is not finite"), ("1e8", "1e+08")])
def test_every_time_limit_says_the_same(capsys, argv, value, said):
    assert refused(capsys, *argv, "--time-limit", value) == f"dipsolve: --time-limit {said}: {_TIME}"


@pytest.mark.parametrize("scale, said", [
    ("1e308", "--scale 1e+308 makes a picture of more than 10^12 pixels"),
    ("1e-9", "--scale 1e-09 makes a picture of 0 x 0 pixels, none to draw"),
    ("400", "--scale 400 makes a picture of 504,000 x 360,000 pixels"),
    ("45", "--scale 45 makes a picture of 56,700 x 40,500 pixels"),
    ("nan", "--scale nan is not a number"), ("-1", "--scale -1 is not positive"),
    ("inf", "--scale inf is not finite")])
def test_scales_past_the_picture_limit_are_refused_before_reading(tmp_path, capsys, scale, said):
    out = tmp_path / "x.png"
    line = refused(capsys, "render", START, "-o", str(out), "--scale", scale)
    assert line.startswith(f"dipsolve: {said}: past the limit max_pixels")
    assert not out.exists()


@pytest.mark.parametrize("argv, said", [
    (["parse", "--press", "--level", "1" + "0" * 30, "PCE (ENG FRA)"],
     "--level 10000000…0000 (31 characters): past the limit max_digits"),
    (["parse", "--press", "--level", "8001", "PCE (ENG FRA)"], "--level 8001: past the limit press_levels"),
    (["parse", "--press", "--level", "-1", "PCE (ENG FRA)"], "--level -1: past the limit press_levels"),
    (["play", "--games", "100000000000"], "--games 100000000000: past the limit max_games"),
    (["play", "--jobs", "1000"], "--jobs 1000: past the limit max_jobs"),
    (["play", "--seed", "-1"], "--seed -1: past the limit max_seed"),
    (["path", "--power", "GER", "--workers", "100000"], "--workers 100000: past the limit max_workers"),
    (["path", "--power", "GER", "--target", "1" * 5000], "--target 11111111…1111 (5000 characters)"),
    (["solve", START, "--samples", "0"], "--samples 0: past the limit max_samples"),
    (["solve", START, "--beam", "0"], "--beam 0: past the limit max_beam"),
])
def test_every_number_option_is_bounded(capsys, argv, said):
    assert refused(capsys, *argv).startswith(f"dipsolve: {said}")


@pytest.mark.parametrize("title", ["a\x01b", "x\udcff", "\x00"])
def test_a_title_a_picture_cannot_hold(tmp_path, capsys, title):
    out = tmp_path / "t.png"
    line = refused(capsys, "render", START, "-o", str(out), "--title", title)
    assert line.startswith("dipsolve: the title has U+") and not out.exists()


def test_a_record_number_of_5000_digits(tmp_path, capsys):
    f = tmp_path / "game.json"
    f.write_text('{"id": ' + "1" * 5000 + "}")
    assert refused(capsys, "analyze", str(f)).startswith(
        f"{f}:1:8: a number 1111…1111 (5000 digits): past the limit max_digits")


def test_a_record_nested_20000_deep(tmp_path, capsys):
    f = tmp_path / "deep.json"
    f.write_text("[" * 20_000 + "]" * 20_000)
    assert refused(capsys, "analyze", str(f)).startswith(f"{f}:1:65: JSON nested 65 deep")


@pytest.mark.parametrize("argv, said", [
    (["daide", "127.0.0.1:" + "1" * 5000], "bad server address"),
    (["daide", "127.0.0.1:1", "--timeout", "nan"], "--timeout nan is not a number: past the limit"),
    (["daide", "127.0.0.1:1", "--timeout", "inf"], "--timeout inf is not finite: past the limit"),
    (["daide", "127.0.0.1:1", "--power", "FRA", "--passcode", "1" * 5000],
     "--passcode 11111111…1111 (5000 characters): past the limit max_digits")])
def test_daide_options_are_refused_before_connecting(capsys, argv, said):
    assert refused(capsys, *argv).startswith(f"dipsolve: {said}")


def test_a_bound_error_under_json_is_one_object(capsys):
    code, out, err = run(capsys, "solve", START, "--time-limit", "nan", "--json")
    assert code == 2 and err == ""
    obj = json.loads(out)
    assert obj["message"].startswith("--time-limit nan is not a number")
    assert (obj["error"], obj["limit"]) == ("limit", "max_seconds")


def test_the_help_says_each_range(capsys):
    code, out, _ = run(capsys, "render", "--help")
    assert code == 0 and "at most 40,000,000 pixels" in " ".join(out.split())
    code, out, _ = run(capsys, "solve", "--help")
    assert "more than 0, at most 10,000,000; nan and inf refused" in " ".join(out.split())


def test_the_library_bounds_its_limits_too():
    from dipsolve import Limits
    from dipsolve.grammar.press import parse_press
    from dipsolve.io.pictures import render_to
    from dipsolve.core.position import Position
    for bad in (math.inf, math.nan, 1e300, 0):
        with pytest.raises(DipsolveLimitError):
            Limits(time_limit=bad)
    with pytest.raises(DipsolveLimitError):
        Limits(workers=10_000)
    with pytest.raises(DipsolveLimitError):
        parse_press("PCE (ENG FRA)", level=10 ** 30)
    with pytest.raises(DipsolveLimitError):
        render_to("never-written.png", Position.initial(), scale=45)
    assert not Path("never-written.png").exists()
