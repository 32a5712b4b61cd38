"""The error family: one root in the core, four branches, places and JSON."""

import pickle

import pytest

from dipsolve.errors import (DipsolveError, DipsolveInternalError, DipsolveRuleError,
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
