"""One DAIDE order in DAIDE token syntax: `dipsolve.grammar.daide_order.parse_daide_order`.

The forms are the spec's table (DAIDE message syntax v0.18, section "Submitting
orders"); locations come out as the map's, errors as the project's."""

from __future__ import annotations

import pytest

from dipsolve.grammar.errors import DipsolveSyntaxError
from dipsolve.grammar.daide_order import parse_daide_order
from dipsolve.core.map import standard_map
from dipsolve.core.orders import (Build, Convoy, Disband, Hold, Move, Retreat, SupportHold, SupportMove,
                             Waive)


@pytest.mark.parametrize("text, power, order", [
    ("( FRA AMY PAR ) MTO BUR", "France", Move("A", "PAR", "BUR")),
    ("(FRA AMY PAR) HLD", "France", Hold("A", "PAR")),
    ("( ENG FLT ( STP SCS ) ) MTO GOB", "England", Move("F", "STP/SC", "BOT")),
    ("( ENG FLT BAR ) MTO ( STP NCS )", "England", Move("F", "BAR", "STP/NC")),
    ("( ENG FLT NWG ) SUP ( ENG AMY YOR )", "England", SupportHold("F", "NWG", "A", "YOR")),
    ("( ENG FLT NWG ) SUP ( ENG AMY YOR ) MTO NWY", "England",
     SupportMove("F", "NWG", "A", "YOR", "NWY")),
    ("( ENG FLT NWY ) SUP ( ENG FLT BAR ) MTO STP", "England",
     SupportMove("F", "NWY", "F", "BAR", "STP")),
    ("( ENG FLT NTH ) CVY ( ENG AMY YOR ) CTO NWY", "England", Convoy("NTH", "A", "YOR", "NWY")),
    ("( ITA AMY TUN ) CTO SYR VIA ( ION EAS )", "Italy", Move("A", "TUN", "SYR", via_convoy=True)),
    ("( RUS AMY MUN ) RTO BOH", "Russia", Retreat("A", "MUN", "BOH")),
    ("( ENG FLT LON ) RTO ( STP NCS )", "England", Retreat("F", "LON", "STP/NC")),
    ("( RUS FLT GOB ) DSB", "Russia", Disband("F", "BOT")),
    ("( ITA AMY TUN ) REM", "Italy", Disband("A", "TUN")),
    ("( RUS FLT ( STP SCS ) ) BLD", "Russia", Build("F", "STP/SC")),
    ("RUS WVE", "Russia", Waive()),
    ("FRA WVE", "France", Waive()),
    # the English Channel's DAIDE token is ECH (ENG is England), the Gulf of Lyon's GOL
    ("( FRA FLT ECH ) CVY ( FRA AMY BEL ) CTO YOR", "France", Convoy("ENG", "A", "BEL", "YOR")),
    ("( FRA FLT GOL ) HLD", "France", Hold("F", "LYO")),
    # spacing around brackets is optional, case does not matter
    ("((ENG FLT EDI)) HLD".replace("((", "(").replace("))", ")"), "England", Hold("F", "EDI")),
    ("(eng flt (stp scs))mto gob", "England", Move("F", "STP/SC", "BOT")),
    ("  ( TUR  FLT  ( BUL  ECS ) )  HLD  ", "Turkey", Hold("F", "BUL/EC")),
])
def test_every_form_reads(text, power, order):
    assert parse_daide_order(text) == (power, order)


def _error(text: str) -> str:
    with pytest.raises(DipsolveSyntaxError) as info:
        parse_daide_order(text)
    return str(info.value)


def test_errors_name_the_column_and_what_was_expected():
    assert _error("( FRA AMY PAR ) MTX BUR") == (
        "<order>:1:17: expected 'BLD', 'CTO', 'CVY', 'DSB', 'HLD', 'MTO', 'REM', 'RTO' or "
        "'SUP', found 'MTX' (not a DAIDE token)\n"
        "( FRA AMY PAR ) MTX BUR\n"
        "                ^^^")
    assert _error("( FRA AMY PAR ) MTO") == (
        "<order>:1:20: expected '(' or a province, found end of order\n"
        "( FRA AMY PAR ) MTO\n"
        "                   ^")


def test_a_common_abbreviation_is_not_a_daide_token():
    assert _error("( RUS FLT BOT ) HLD").splitlines()[0] == (
        "<order>:1:11: expected '(' or a province, found 'BOT' "
        "(not a DAIDE token: Gulf of Bothnia is GOB)")
    # ENG is England: a power where a province must stand
    assert _error("( FRA FLT ENG ) MTO BRE").splitlines()[0] == (
        "<order>:1:11: expected '(' or a province, found 'ENG'")


def test_a_coast_the_province_does_not_have():
    assert _error("( ENG FLT ( STP ECS ) ) HLD").splitlines()[0] == (
        "<order>:1:17: expected NCS or SCS, found 'ECS'")
    assert _error("( ENG FLT ( PAR NCS ) ) HLD").splitlines()[0] == (
        "<order>:1:17: expected PAR alone (Paris has no coasts), found 'NCS'")


@pytest.mark.parametrize("text", [
    "", "( FRA AMY PAR )", "FRA AMY PAR MTO BUR", "( FRA AMY PAR ) MTO BUR BUR",
    "( FRA AMY ) HLD", "( FRA AMY PAR ) SUP ( FRA AMY BUR ) MTO ( SPA NCS )",
    "( FRA AMY PAR ) CTO BUR VIA ( )", "( FRA AMY PAR ) MTO STP/SC", "WVE", "( FRA WVE )",
    "( FRA AMY PAR ) HLD )", "( FRA AMY PAR ) MTO 'BUR'",
])
def test_what_is_not_an_order(text):
    with pytest.raises(DipsolveSyntaxError):
        parse_daide_order(text)


def test_the_orders_helpers_daide_notation_reads_back():
    from dipsolve.grammar.orders import format_order
    for power, order in [("France", Move("A", "PAR", "BUR")), ("Russia", Build("F", "STP/SC")),
                         ("England", SupportMove("F", "NWG", "A", "YOR", "NWY")),
                         ("England", Convoy("ENG", "A", "BEL", "YOR")), ("Italy", Waive()),
                         ("Turkey", Retreat("F", "CON", "BUL/EC"))]:
        assert parse_daide_order(format_order(order, power, "daide")) == (power, order)


def test_every_province_token_reads():
    m = standard_map()
    for prov in m.provinces.values():
        kind = "AMY" if prov.terrain != "sea" else "FLT"
        assert parse_daide_order(f"( ENG {kind} {prov.daide} ) HLD")[1].location == prov.abbr
