"""The error family: one root in the core, four branches, places and JSON."""

import json
import pickle

import pytest

import dipsolve

from dipsolve.core.errors import (DipsolveError, DipsolveInternalError, DipsolveRuleError,
                             DipsolveSyntaxError, DipsolveUnavailable)
from dipsolve.grammar import parse_order, parse_position_text


def test_branches_share_the_root_and_the_builtin_classes():
    assert issubclass(DipsolveSyntaxError, ValueError) and issubclass(DipsolveRuleError, ValueError)
    assert issubclass(DipsolveUnavailable, RuntimeError) and issubclass(DipsolveInternalError, RuntimeError)
    for cls in (DipsolveSyntaxError, DipsolveRuleError, DipsolveUnavailable, DipsolveInternalError):
        assert issubclass(cls, DipsolveError)


def test_a_bad_position_file_is_a_syntax_error_with_its_place():
    with pytest.raises(DipsolveSyntaxError) as info:
        parse_position_text("phase: S1901M\n[France]\nunits: A PAR; A MAR\n", "bad.dip")
    e = info.value
    assert (e.filename, e.line) == ("bad.dip", 3)
    obj = e.to_json()
    assert obj["error"] == "syntax" and obj["file"] == "bad.dip" and obj["line"] == 3
    assert obj["col"] == e.column and ";" in obj["found"]
    assert str(e).startswith(f"bad.dip:3:{e.column}: ")


def test_an_order_for_a_missing_unit_is_a_rule_error():
    with pytest.raises(DipsolveRuleError):
        parse_position_text("phase: S1901M\n[France]\nunits: A PAR\n[orders]\nFrance: A MAR - BUR\n",
                            "o.dip")


def test_rule_name_in_json_and_errors_pickle():
    e = DipsolveRuleError("army at sea", rule="army-at-sea", filename="x.dip", line=2, column=3)
    assert e.to_json()["rule"] == "army-at-sea"
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is DipsolveRuleError and str(back) == str(e) and back.rule == "army-at-sea"


def test_combined_errors_list_each_in_text_order():
    a = DipsolveSyntaxError("second", filename="f", line=4, column=1)
    b = DipsolveSyntaxError("first", filename="f", line=2, column=5)
    both = DipsolveError.combine([a, b, a])
    assert [e.message for e in both.errors] == ["first", "second"]
    assert str(both) == "f:2:5: first\nf:4:1: second"
    assert [x["line"] for x in both.to_json()["errors"]] == [2, 4]


def test_an_error_about_no_file_has_no_place():
    e = DipsolveUnavailable("method 'cpsat' needs OR-Tools")
    assert e.location is None and str(e) == "method 'cpsat' needs OR-Tools"
    assert e.to_json()["file"] is None and e.to_json()["error"] == "unavailable"


def test_parse_order_errors_are_catchable_at_the_root():
    with pytest.raises(DipsolveError):
        parse_order("A Pariss - Burgundy")


# -- one quoting rule for every message that repeats input ---------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from dipsolve.core.errors import QUOTE_LENGTH, escape, quote, quote_line  # noqa: E402

_HOSTILE = ["\x1b[2J\x1b[31m", "\ngame over: a solo win for France\n", "\r", "\u202e", "\u2066",
            "\u200f", "\u200b", "\u0410", "\u0420", "\u0391", "\x00", "\x7f", "\u2028", "\ufeff"]


@pytest.mark.parametrize("bad", _HOSTILE)
def test_control_bidi_and_look_alike_characters_are_escaped(bad):
    shown = escape(f"A PAR{bad} - BUR")
    assert shown.isascii() and shown.isprintable()
    assert shown.startswith("A PAR\\") and shown.endswith(" - BUR")


@pytest.mark.parametrize("text", ["\u0410 PAR - BUR",            # a Cyrillic A
                                  "A P\u0391R - BUR",              # a Greek Alpha
                                  "A PAR \u202e- BUR",             # right-to-left override
                                  "A PAR - BUR\x1b[8m hidden"])
def test_an_error_under_which_the_line_is_printed_shows_what_was_read(text):
    with pytest.raises(DipsolveError) as info:
        parse_order(text)
    shown = str(info.value)
    assert shown.isascii() and all(ch.isprintable() or ch in "\n" for ch in shown)
    line, caret = shown.splitlines()[-2:]
    assert "\\u" in line or "\\x" in line
    assert set(caret.strip()) == {"^"}


@pytest.mark.parametrize("length", [200, 33_000, 550_000])
def test_long_input_is_quoted_short_with_its_place_kept(length):
    line = "A PAR - BUR" + " BUR" * (length // 4)
    column = len(line) - 2          # 1-based: the last BUR
    shown, caret = quote_line(line, column, 3)
    assert len(shown) <= QUOTE_LENGTH + 2 and len(caret) <= QUOTE_LENGTH + 2
    assert shown[len(caret) - 3:len(caret)] == "BUR"          # the caret under what it points at
    assert quote(line).endswith(f"({len(line)} characters)") and len(quote(line)) < QUOTE_LENGTH + 40


def test_an_error_of_a_huge_nested_json_line_is_short():
    line = "[" * 40 + '"x", ' * 110_000 + "]" * 40
    with pytest.raises(DipsolveError) as info:
        dipsolve.read_records(line, "g.json")
    text = str(info.value)
    assert len(text) < 1500, len(text)
    assert len(json.dumps(info.value.to_json())) < 2500


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400), st.integers(min_value=1, max_value=450), st.integers(1, 20))
def test_the_quoting_rule_always_gives_one_short_printable_line_and_its_caret(text, column, width):
    e = DipsolveSyntaxError(text, filename="f", line=1, column=column, source_line=text,
                            found=text, width=width)
    lines = str(e).split("\n")
    assert len(lines) == 3 and all(ln.isprintable() or "\t" in ln for ln in lines)
    assert len(lines[1]) <= 4 * QUOTE_LENGTH + 20 and len(e.found or "") <= 12 * QUOTE_LENGTH
    assert set(lines[2].replace("\t", " ").strip()) == {"^"}
