"""Bad input: every error names file, line and column, says what was found and what was
expected, and quotes the line with a caret under the offending token."""

from __future__ import annotations

import pickle

import pytest

from dipsolve.grammar import (DipsolveRuleError, DipsolveSyntaxError, parse_daide, parse_order,
                              parse_orders, parse_position)
from dipsolve.grammar.errors import DipsolveError
from dipsolve.core.position import Position

HEAD = "phase: Spring 1901 Movement\n"
ALL_CENTERS = ("ANK, BEL, BER, BRE, BUD, BUL, CON, DEN, EDI, GRE, HOL, KIE, LON, LVP, MAR, MOS, "
               "MUN, NAP, NWY, PAR, POR, ROM, RUM, SER, SEV, SMY, SPA, STP, SWE, TRI, TUN, VEN, "
               "VIE, WAR")


def error(text: str, kind: type[DipsolveError] = DipsolveRuleError, parse=parse_position) -> DipsolveError:
    with pytest.raises(kind) as info:
        parse(text, "bad.dip")
    return info.value


# ---------------------------------------------------------------- rule errors, one each
def test_unknown_province():
    e = error(HEAD + "[France]\nunits: A Pariss, F BRE\n", DipsolveSyntaxError)
    assert str(e) == ("bad.dip:3:10: unknown province 'Pariss' (did you mean PAR, Paris?)\n"
                      "units: A Pariss, F BRE\n"
                      "         ^^^^^^")
    assert (e.filename, e.line, e.column, e.found) == ("bad.dip", 3, 10, "Pariss")
    assert e.expected == "a province: a name, abbreviation or DAIDE token"


def test_army_at_sea():
    e = error(HEAD + "[England]\nunits: F LON, A North Sea\n")
    assert str(e) == ("bad.dip:3:15: an army cannot stand in North Sea (a sea)\n"
                      "units: F LON, A North Sea\n"
                      "              ^^^^^^^^^^^")
    assert e.found == "A North Sea"


def test_fleet_inland():
    e = error(HEAD + "[France]\n  units: F Paris\n")
    assert str(e) == ("bad.dip:3:10: a fleet cannot stand in Paris (inland)\n"
                      "  units: F Paris\n"
                      "         ^^^^^^^")
    assert e.expected == "a fleet on a coast or at sea"


def test_fleet_in_a_bicoastal_province_without_its_coast():
    e = error(HEAD + "[Russia]\nunits: F STP\n")
    assert (e.line, e.column, e.found) == (3, 8, "F STP")
    assert e.message == "a fleet in St Petersburg must name its coast (STP/NC or STP/SC)"
    assert e.expected == "STP/NC or STP/SC"
    assert str(e).endswith("units: F STP\n       ^^^^^")


def test_two_units_in_one_province():
    e = error(HEAD + "[Russia]\nunits: F STP/SC\n[Turkey]\nunits: A Con, A St Petersburg\n")
    assert str(e) == ("bad.dip:5:15: two units in St Petersburg: F STP/SC (Russia) and A STP (Turkey)\n"
                      "units: A Con, A St Petersburg\n"
                      "              ^^^^^^^^^^^^^^^")


def test_two_dislodged_units_in_one_province():
    e = error("phase: F1901R\n[Russia]\nunits: A MOS\n[dislodged]\n"
              "Russia: F SEV from RUM\nTurkey: A SEV from ARM\n")
    assert str(e) == ("bad.dip:6:9: two dislodged units in Sevastopol: F SEV (Russia) and A SEV (Turkey)\n"
                      "Turkey: A SEV from ARM\n"
                      "        ^^^^^")


def test_center_owned_twice():
    e = error(HEAD + "[Austria]\ncenters: BUD, VIE\n[Russia]\ncenters: WAR, Vienna\n")
    assert str(e) == ("bad.dip:5:15: supply center VIE owned twice (Austria and Russia)\n"
                      "centers: WAR, Vienna\n"
                      "              ^^^^^^")


def test_more_than_34_centers():
    e = error(HEAD + f"[Austria]\ncenters: {ALL_CENTERS}\n[Turkey]\ncenters: ANK\n")
    messages = [(x.line, x.column, x.message) for x in e.errors]
    assert (5, 10, "35 supply centers owned; the board has 34") in messages
    assert e.errors[-1].expected == "at most 34 supply centers"


def test_unit_of_an_unknown_power():
    e = error(HEAD + "[Austria]\nunits: A VIE\n[Prussia]\nunits: A BER\n", DipsolveSyntaxError)
    assert str(e) == ("bad.dip:4:2: unknown power 'Prussia' (expected one of Austria, England, France, "
                      "Germany, Italy, Russia, Turkey, or 'dislodged' or 'orders')\n"
                      "[Prussia]\n"
                      " ^^^^^^^")


def test_center_that_is_not_a_supply_center():
    e = error(HEAD + "[France]\ncenters: PAR, Burgundy\n")
    assert str(e) == ("bad.dip:3:15: BUR is not a supply center\n"
                      "centers: PAR, Burgundy\n"
                      "              ^^^^^^^^")
    assert e.expected == "a supply center"


def test_order_for_a_unit_that_is_not_there():
    e = error(Position.initial().to_text() + "[orders]\nFrance: A PAR - BUR\nFrance: F PAR H\n"
              "Germany: A BRE - PIC\n")
    assert len(e.errors) == 2
    assert str(e) == ("bad.dip:32:9: order for F PAR, but there is no fleet in Paris: France's "
                      "A PAR is there\n"
                      "France: F PAR H\n"
                      "        ^^^^^\n"
                      "bad.dip:33:10: order for A BRE, but there is no army in Brest: France's "
                      "F BRE is there\n"
                      "Germany: A BRE - PIC\n"
                      "         ^^^^^")


def test_order_for_another_powers_unit_is_not_an_error():
    _, orders = parse_position(Position.initial().to_text() + "[orders]\nGermany: A PAR - BUR\n")
    assert str(orders["Germany"][0]) == "A PAR - BUR"


def test_order_for_a_dislodged_unit_counts_only_in_a_retreat_phase():
    text = ("phase: F1901R\n[France]\nunits: F ENG\n[dislodged]\nEngland: F LON from ENG\n"
            "[orders]\nEngland: F LON R WAL\n")
    assert parse_position(text)[1] == {"England": [parse_order("F LON R WAL")]}
    e = error(HEAD + "[France]\nunits: F ENG\n[orders]\nEngland: F LON R WAL\n")
    assert e.message == "order for F LON, but there is no fleet in London"


def test_removal_of_a_unit_that_is_not_there_is_kept():
    # DATC 6.J.1 (too many remove orders): the adjudicator ignores a removal of a unit
    # that does not exist, so the reader must let it through, in an adjustment phase only
    text = "phase: W1901A\n[France]\nunits: A PIC, A PAR\ncenters: PAR\n[orders]\nFrance: F LYO D\n"
    assert parse_position(text)[1] == {"France": [parse_order("F LYO D")]}
    e = error(text.replace("W1901A", "F1901R"))
    assert e.message == "order for F LYO, but there is no fleet in Gulf of Lyon"


def test_orders_file_checked_against_a_position():
    start = Position.initial()
    with pytest.raises(DipsolveRuleError) as info:
        parse_orders("France: A PAR - BUR\nFrance: A PIC - BRE\n", "orders.txt", position=start)
    assert str(info.value) == ("orders.txt:2:9: order for A PIC, but there is no army in Picardy\n"
                               "France: A PIC - BRE\n"
                               "        ^^^^^")
    retreat, _ = parse_position("phase: F1901R\n[France]\nunits: F ENG\n"
                                "[dislodged]\nEngland: F LON from ENG\n")
    assert parse_orders("England: F LON - WAL", position=retreat) == [
        ("England", parse_order("F LON R WAL"))]


def test_dislodged_units_outside_a_retreat_phase():
    e = error(HEAD + "[dislodged]\nEngland: F LON\n")
    assert e.message == ("a dislodged unit in Spring 1901 Movement: dislodged units belong to a "
                         "retreat phase")
    assert (e.line, e.column) == (3, 10)


def test_every_board_problem_is_reported_at_once_in_text_order():
    e = error(HEAD + "[France]\nunits: F Paris, A MAO\ncenters: BUR\n")
    assert [(x.line, x.column) for x in e.errors] == [(3, 8), (3, 17), (4, 10)]
    assert str(e).count("bad.dip:") == 3


# ---------------------------------------------------------------- syntax errors
def test_unknown_coast_is_a_syntax_error_at_the_location():
    e = error(HEAD + "[Russia]\nunits: F STP/EC\n", DipsolveSyntaxError)
    assert str(e) == ("bad.dip:3:10: unknown coast 'STP/EC' (expected STP/NC or STP/SC)\n"
                      "units: F STP/EC\n"
                      "         ^^^^^^")
    e = error(HEAD + "[France]\nunits: F Brest (north coast)\n", DipsolveSyntaxError)
    assert e.message == "unknown coast 'Brest (north coast)' (Brest has no coasts)"


def test_stray_character():
    e = error(HEAD + "[Russia]\nunits: A MOS; A WAR\n", DipsolveSyntaxError)
    assert str(e) == ("bad.dip:3:13: expected a coast ('/NC', '(sc)'), ',' or end of line, found ';'\n"
                      "units: A MOS; A WAR\n"
                      "            ^")
    assert (e.found, e.expected) == (";", "a coast ('/NC', '(sc)'), ',' or end of line")


def test_missing_comma_is_pointed_out():
    e = error(HEAD + "[Russia]\nunits: A MOS A WAR\n", DipsolveSyntaxError)
    assert e.message == "unknown province 'MOS A WAR' ('MOS' is a province: is a ',' or a keyword missing after it?)"


def test_missing_unit_type():
    e = error(HEAD + "[Russia]\nunits: MOS\n", DipsolveSyntaxError)
    assert str(e) == ("bad.dip:3:8: expected a unit (A or F) or end of line, found 'MOS'\n"
                      "units: MOS\n"
                      "       ^^^")


def test_bad_phase():
    e = error("phase: Sprung 1901 Movement\n", DipsolveSyntaxError)
    assert str(e) == ("bad.dip:1:8: expected a phase such as 'Spring 1901 Movement' or 'F1901R', "
                      "found 'Sprung 1901 Movement'\n"
                      "phase: Sprung 1901 Movement\n"
                      "       ^^^^^^^^^^^^^^^^^^^^")


def test_missing_phase_and_empty_file():
    e = error("[Austria]\nunits: A VIE\n", DipsolveSyntaxError)
    assert e.message == "expected 'phase:', found '['"
    e = error("", DipsolveSyntaxError)
    assert (e.line, e.column, e.message) == (1, 1, "expected 'phase:', found end of file")


def test_unclosed_header():
    e = error(HEAD + "[Austria\nunits: A VIE\n", DipsolveSyntaxError)
    assert str(e) == "bad.dip:2:9: expected ']', found end of line\n[Austria\n        ^"


def test_unknown_line_in_a_power_section():
    e = error(HEAD + "[Austria]\nunit: A VIE\n", DipsolveSyntaxError)
    assert e.message == "expected '[', 'units:', 'centers:' or end of file, found 'unit'"


def test_order_without_a_power():
    e = error(HEAD + "[Austria]\nunits: A VIE\n[orders]\nA VIE H\n", DipsolveSyntaxError)
    assert str(e) == ("bad.dip:5:1: no power for this order (a line here is 'Power: ...', or a "
                      "'Power:' line above names the power of the lines below it)\n"
                      "A VIE H\n"
                      "^^^^^^^")


def test_caret_follows_tabs():
    e = error(HEAD + "[France]\n\tunits:\tA Pariss\n", DipsolveSyntaxError)
    assert str(e).splitlines()[-2:] == ["\tunits:\tA Pariss", "\t      \t  ^^^^^^"]


# ---------------------------------------------------------------- orders
def test_bad_single_orders():
    with pytest.raises(DipsolveSyntaxError) as info:
        parse_order("A PAR -")
    assert str(info.value) == "<string>:1:8: expected a province, found end of line\nA PAR -\n       ^"
    with pytest.raises(DipsolveSyntaxError) as info:
        parse_order("A MUN S BER")     # Berlin holds an army or a fleet: the readings
    assert info.value.message == ("ambiguous order 'A MUN S BER': it reads as A MUN S A BER or "
                                  "A MUN S F BER (write the unit type, A or F, or read it "
                                  "against a position)")
    with pytest.raises(DipsolveSyntaxError) as info:
        parse_order("F NTH C A LON")
    assert info.value.message == "expected '-', found end of line"
    with pytest.raises(DipsolveSyntaxError) as info:
        parse_order("A PAR-BURR")       # a compact move: each name is its own
    assert (info.value.column, info.value.message) == (7, "unknown province 'BURR' (did you mean "
                                                          "BUR, Burgundy?)")


def test_orders_file_reports_every_bad_line():
    text = ("# orders\n"
            "England: F LON - NTH\n"
            "France: A PAR -- BUR\n"
            "\n"
            "Germany: A MUN S A BERR\n"
            "Russia F SEV - BLA\n"
            "Italy: A VEN H  # fine\n"
            "Prussia: A BER H\n")
    with pytest.raises(DipsolveSyntaxError) as info:
        parse_orders(text, "orders.txt")
    e = info.value
    assert [(x.line, x.column, type(x).__name__) for x in e.errors] == [
        (3, 16, "DipsolveSyntaxError"), (5, 20, "DipsolveSyntaxError"),
        (6, 1, "DipsolveSyntaxError"), (8, 1, "DipsolveSyntaxError")]
    assert str(e) == (
        "orders.txt:3:16: expected a province, found '-'\n"
        "France: A PAR -- BUR\n"
        "               ^\n"
        "orders.txt:5:20: unknown province 'BERR' (did you mean BER, Berlin?)\n"
        "Germany: A MUN S A BERR\n"
        "                   ^^^^\n"
        "orders.txt:6:1: unknown province 'Russia F SEV' (is a ':' missing after the power "
        "'Russia'?)\n"
        "Russia F SEV - BLA\n"
        "^^^^^^^^^^^^\n"
        "orders.txt:8:1: unknown power 'Prussia' (expected one of Austria, England, France, "
        "Germany, Italy, Russia, Turkey)\n"
        "Prussia: A BER H\n"
        "^^^^^^^")
    assert (e.line, e.column) == (3, 16)


# ---------------------------------------------------------------- DAIDE
def test_daide_errors():
    e = error("NOW ( SPX 1901 )", DipsolveSyntaxError, parse_daide)
    assert str(e) == ("bad.dip:1:7: expected a season (SPR, SUM, FAL, AUT or WIN), found 'SPX'\n"
                      "NOW ( SPX 1901 )\n"
                      "      ^^^")
    e = error("NOW ( SPR 1901 ) ( AUS AMY ( STP ECS ) )", DipsolveSyntaxError, parse_daide)
    assert (e.column, e.message) == (34, "unknown coast 'ECS' (expected NCS or SCS)")
    e = error("NOW ( SPR 1901 ) ( AUS AMY NTH )", DipsolveRuleError, parse_daide)
    assert (e.column, e.found, e.message) == (18, "( AUS AMY NTH )", "an army cannot stand in North Sea (a sea)")
    e = error("NOW ( SPR 1901 ) ( AUS AMY BUD ) SCO ( XXX VIE )", DipsolveSyntaxError, parse_daide)
    assert e.message == "unknown power 'XXX' (expected AUS, ENG, FRA, GER, ITA, RUS or TUR)"
    e = error("SCO ( AUS BUD )", DipsolveSyntaxError, parse_daide)
    assert e.message == "expected a NOW message (the turn and the units), found only SCO"
    e = error("NOW ( SPR 1901 ) ( AUS AMY BUD", DipsolveSyntaxError, parse_daide)
    assert e.message == "expected ')' or 'MRT', found end of file"


# ---------------------------------------------------------------- the error types
def test_errors_are_value_errors_and_pickle():
    assert issubclass(DipsolveSyntaxError, ValueError) and issubclass(DipsolveRuleError, ValueError)
    assert not issubclass(DipsolveSyntaxError, DipsolveRuleError)
    e = error(HEAD + "[France]\nunits: A Pariss\n", DipsolveSyntaxError)
    copy = pickle.loads(pickle.dumps(e))
    assert type(copy) is DipsolveSyntaxError and str(copy) == str(e) and copy.line == 3


def test_lark_never_leaks():
    from lark.exceptions import LarkError
    for text in ["phase: S1901M\n[", "phase:", "phase: S1901M\n[orders]\nEngland: F", "x" * 50,
                 "phase: S1901M\n[dislodged]\nstandoffs: BUR BUR\n", "\x00"]:
        try:
            parse_position(text)
        except DipsolveError:
            pass
        except LarkError as e:  # pragma: no cover
            pytest.fail(f"{text!r} raised {type(e).__name__}")
