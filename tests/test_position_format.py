"""The .dip position format, short-notation orders and DAIDE NOW/SCO: what is read, and
that ``Position.to_text`` round-trips through ``parse_position``."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dipsolve.grammar import (DipsolveRuleError, DipsolveSyntaxError, parse_daide, parse_order,
                              parse_orders, parse_position, parse_position_file,
                              parse_position_text)
from dipsolve.core.map import POWERS, standard_map
from dipsolve.core.orders import (Build, Convoy, Disband, Hold, Move, Remove, Retreat, SupportHold,
                             SupportMove, Waive)
from dipsolve.core.board import retreat_options
from dipsolve.core.position import Dislodged, Phase, Position, Unit
from dipsolve.testing import as_read

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.dip"))
M = standard_map()


def units_of(position: Position) -> set[str]:
    return {f"{u.power} {u}" for u in position.units}


# ---------------------------------------------------------------- the start position
def test_start_position_reads_as_the_initial_position():
    position, orders = parse_position_file(ROOT / "examples" / "start.dip")
    assert position == Position.initial()
    assert set(orders) == set(POWERS)
    assert orders["France"] == [Move("F", "BRE", "MAO"), Move("A", "PAR", "BUR"),
                                SupportMove("A", "MAR", "A", "PAR", "BUR")]
    assert orders["Russia"][-1] == Move("F", "STP/SC", "BOT")


def test_start_position_round_trips():
    p = Position.initial()
    assert parse_position(p.to_text()) == (p, {})


def test_the_grammar_is_loaded_once():
    # speed is measured in benchmarks/, not asserted here; what a test can hold is that
    # the grammar is built once and shared by every parse
    from dipsolve.grammar.position import position_parser
    assert position_parser() is position_parser()


# ---------------------------------------------------------------- the examples
def test_there_are_real_examples_of_every_kind_of_phase():
    assert len(EXAMPLES) >= 7
    kinds = {parse_position_file(f)[0].phase.kind for f in EXAMPLES}
    assert kinds == {"movement", "retreat", "adjustment"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_round_trips_and_has_orders(path):
    position, orders = parse_position_file(path)
    assert not position.problems()
    assert orders, "every example has an [orders] section"
    read = {power: [as_read(o) for o in os] for power, os in orders.items()}
    assert parse_position(position.to_text(orders)) == (position, read)
    assert path.read_text(encoding="utf-8").startswith("# "), "a comment header says what it is"


@pytest.mark.parametrize("path", [p for p in EXAMPLES if "r." in p.name], ids=lambda p: p.name)
def test_example_retreats_are_the_computed_ones(path):
    position, orders = parse_position_file(path)
    assert position.dislodged
    occupied = {M.province_of[u.location] for u in position.units}
    for d in position.dislodged:
        assert d.retreats == retreat_options(M, d.unit, d.attacker_origin, occupied, position.standoffs)
    for power, os in orders.items():
        assert all(isinstance(o, (Retreat, Disband)) for o in os)


def test_examples_are_what_the_generator_writes():
    pytest.importorskip("diplomacy")
    spec = importlib.util.spec_from_file_location("make_examples", ROOT / "tests/tools/make_examples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    written = module.build()
    assert sorted(written) == sorted(p.name for p in EXAMPLES)
    for name, text in written.items():
        assert (ROOT / "examples" / name).read_text(encoding="utf-8") == text, name


# ---------------------------------------------------------------- the format
def test_spellings_of_locations_powers_and_keywords():
    text = """
        # a comment line, then blank lines and indentation

    PHASE:   S1901M   # a trailing comment
    [aus]
    UNITS: a vienna, Army Bud
      units: Fleet Trieste
    Centres: budapest, Tri, vie
    [RUS]
    units: F St Petersburg (south coast), F sev, A Moscow, A WAR
    centers: STP
    [Russia]
    centers: MOS, SEV, WAR
    [England]
    units: F English Channel, F North Sea, A liverpool
    [ENG]
    units: F Mid-Atlantic Ocean, F gol
    """
    p, orders = parse_position(text)
    assert p.phase == Phase("Spring", 1901, "movement")
    assert units_of(p) == {"Austria A VIE", "Austria A BUD", "Austria F TRI",
                           "Russia F STP/SC", "Russia F SEV", "Russia A MOS", "Russia A WAR",
                           "England F ENG", "England F NTH", "England A LVP", "England F MAO",
                           "England F LYO"}
    assert p.centers_of("Russia") == ["MOS", "SEV", "STP", "WAR"]
    assert p.centers_of("Austria") == ["BUD", "TRI", "VIE"]
    assert p.centers_of("England") == []
    assert orders == {}


@pytest.mark.parametrize("written, location", [
    ("STP/SC", "STP/SC"), ("stp(sc)", "STP/SC"), ("St Petersburg (south coast)", "STP/SC"),
    ("STP / sc", "STP/SC"), ("St. Petersburg(SC)", "STP/SC"), ("Spa/nc", "SPA/NC"),
    ("spain (north coast)", "SPA/NC"), ("BUL/EC", "BUL/EC"), ("Bulgaria(ec)", "BUL/EC"),
])
def test_coasts_in_any_spelling(written, location):
    p, _ = parse_position(f"phase: F1901M\n[Russia]\nunits: F {written}\n")
    assert p.units == (Unit("Russia", "F", location),)


@pytest.mark.parametrize("written, phase", [
    ("Spring 1901 Movement", Phase("Spring", 1901, "movement")),
    ("S1901M", Phase("Spring", 1901, "movement")),
    ("F1901R", Phase("Fall", 1901, "retreat")),
    ("Fall 1901 Retreats", Phase("Fall", 1901, "retreat")),
    ("W1901A", Phase("Winter", 1901, "adjustment")),
    ("Winter 1901 Adjustments", Phase("Winter", 1901, "adjustment")),
    ("autumn 1910 moves", Phase("Fall", 1910, "movement")),
])
def test_phases(written, phase):
    assert parse_position(f"phase: {written}\n")[0].phase == phase


def test_sections_for_one_power_merge_and_centers_may_be_absent():
    p, _ = parse_position("phase: S1901M\n[France]\nunits: A PAR\n[Germany]\nunits: A MUN\n"
                          "[FRA]\nunits: F BRE\ncenters:\n[france]\ncenters: PAR\n")
    assert p.units_of("France") == [Unit("France", "A", "PAR"), Unit("France", "F", "BRE")]
    assert p.centers == (("PAR", "France"),)
    assert p.centers_of("Germany") == []


def test_empty_board_and_windows_line_endings_and_no_final_newline():
    assert parse_position("phase: W1905A") == (Position.build("W1905A"), {})
    p, _ = parse_position("phase: S1901M\r\n[Italy]\r\nunits: A ROM\r\ncenters: ROM")
    assert p.units == (Unit("Italy", "A", "ROM"),) and p.centers == (("ROM", "Italy"),)


def test_dislodged_units_with_and_without_retreats_stated():
    text = """
    phase: Fall 1901 Retreats
    [England]
    units: F NTH
    [France]
    units: F WAL, A BEL, A YOR
    [Italy]
    units: A ROM, A NAP
    [Turkey]
    units: A BUL
    [dislodged]
    England: F LON from WAL            # not back to Wales; YOR held; ENG left empty by a standoff
    Turkey: A SER
    Italy: A VEN from TYR retreats APU, tus
    Italy: F ION retreats none
    standoffs: ENG
    """
    p, _ = parse_position(text)
    got = {str(d.unit): d for d in p.dislodged}
    assert got["F LON"] == Dislodged(Unit("England", "F", "LON"), "WAL", ())
    assert got["A SER"] == Dislodged(Unit("Turkey", "A", "SER"), None,
                                     ("ALB", "BUD", "GRE", "RUM", "TRI"))
    assert got["A VEN"] == Dislodged(Unit("Italy", "A", "VEN"), "TYR", ("APU", "TUS"))
    assert got["F ION"].retreats == ()
    assert p.standoffs == ("ENG",)
    assert parse_position(p.to_text()) == (p, {})


def test_retreat_options_count_occupied_and_standoff_provinces():
    p, _ = parse_position("phase: S1902R\n[Germany]\nunits: A BOH, A TYR\n"
                          "[dislodged]\nAustria: A VIE from GAL\nstandoffs: BUD\n")
    assert p.dislodged[0].retreats == ("TRI",)


# ---------------------------------------------------------------- orders
@pytest.mark.parametrize("text, order", [
    ("A PAR H", Hold("A", "PAR")),
    ("A Paris hold", Hold("A", "PAR")),
    ("A PAR", Hold("A", "PAR")),
    ("A PAR - BUR", Move("A", "PAR", "BUR")),
    ("Army Paris -> Burgundy", Move("A", "PAR", "BUR")),
    ("fleet Brest - English Channel", Move("F", "BRE", "ENG")),
    ("A PAR -> Burgundy", Move("A", "PAR", "BUR")),
    ("A LON - NWY VIA", Move("A", "LON", "NWY", via_convoy=True)),
    ("A London -> Norway via convoy", Move("A", "LON", "NWY", via_convoy=True)),
    ("A MUN S A BER", SupportHold("A", "MUN", "A", "BER")),
    ("A MUN S a BER H", SupportHold("A", "MUN", "A", "BER")),
    ("A MUN S A BER - KIE", SupportMove("A", "MUN", "A", "BER", "KIE")),
    ("A Munich supports A Berlin -> Kiel", SupportMove("A", "MUN", "A", "BER", "KIE")),
    ("F NTH C A LON - NWY", Convoy("NTH", "A", "LON", "NWY")),
    ("F North Sea C A London - Norway", Convoy("NTH", "A", "LON", "NWY")),
    ("F North Sea convoys a London -> Norway", Convoy("NTH", "A", "LON", "NWY")),
    ("F NTH C F LON - NWY", Convoy("NTH", "F", "LON", "NWY")),
    ("F BRE R MAO", Retreat("F", "BRE", "MAO")),
    ("A PAR D", Disband("A", "PAR")),
    ("Remove A PAR", Remove("A", "PAR")),
    ("A PAR B", Build("A", "PAR")),
    ("Build A PAR", Build("A", "PAR")),
    ("B A PAR", Build("A", "PAR")),
    ("F STP B", Build("F", "STP")),
    ("build F stp(nc)", Build("F", "STP/NC")),
    ("WAIVE", Waive()),
    ("waive", Waive()),
    # a fleet's goal is completed where only one coast is in reach (the map decides),
    # else kept exactly as written: the adjudicator judges it
    ("F GAS - SPA", Move("F", "GAS", "SPA/NC")),
    ("F POR - SPA", Move("F", "POR", "SPA")),
    ("F GAS - SPA/SC", Move("F", "GAS", "SPA/SC")),
    ("F MAO - SPA(nc)", Move("F", "MAO", "SPA/NC")),
    ("A GAS - SPA/NC", Move("A", "GAS", "SPA/NC")),
    ("F St Petersburg (south coast) -> Gulf of Bothnia", Move("F", "STP/SC", "BOT")),
    ("F GOL - WES", Move("F", "LYO", "WES")),
])
def test_order_notation(text, order):
    assert parse_order(text) == order


@pytest.mark.parametrize("text", ["A PAR H", "A PAR - BUR", "A LON - NWY VIA", "A MUN S A BER",
                                  "A MUN S A BER - KIE", "F NTH C A LON - NWY", "F BRE R MAO",
                                  "A PAR D", "A PAR B", "F STP/NC B", "WAIVE"])
def test_canonical_orders_read_back_as_themselves(text):
    assert str(parse_order(text)) == text


def test_orders_section_keeps_file_order_and_canonical_power_names():
    text = Position.initial().to_text() + """
    [Orders]
    ENG: F LON - NTH
    germany: A MUN S A BER - KIE
    England: A LVP - YOR
    Ger: A BER - KIE
    England: F LON - ENG         # a second order for one unit is kept: the adjudicator decides
    """
    _, orders = parse_position(text)
    assert list(orders) == ["England", "Germany"]
    assert [str(o) for o in orders["England"]] == ["F LON - NTH", "A LVP - YOR", "F LON - ENG"]
    assert [str(o) for o in orders["Germany"]] == ["A MUN S A BER - KIE", "A BER - KIE"]


def test_an_order_for_another_powers_unit_is_kept():
    # DATC 6.A.6: the adjudicator ignores it; the reader must not refuse it
    _, orders = parse_position(Position.initial().to_text() + "[orders]\nGermany: F LON - NTH\n")
    assert orders == {"Germany": [Move("F", "LON", "NTH")]}


def test_a_move_of_a_dislodged_unit_in_a_retreat_phase_is_a_retreat():
    text = """phase: F1901R
    [England]
    units: F NTH
    [France]
    units: F LON
    [dislodged]
    England: F LON from ENG
    [orders]
    England: F LON - YOR
    England: F NTH - NWG
    England: F LON R WAL
    """
    _, orders = parse_position(text)
    assert orders["England"] == [Retreat("F", "LON", "YOR"), Move("F", "NTH", "NWG"),
                                 Retreat("F", "LON", "WAL")]


def test_adjustment_orders():
    text = Position.initial().to_text().replace("Spring 1901 Movement", "Winter 1901 Adjustments")
    _, orders = parse_position(text + "[orders]\nRussia: Build F STP/NC\nRussia: A MOS B\n"
                                      "Turkey: Remove A SMY\nTurkey: F ANK D\nAustria: WAIVE\n")
    assert orders == {"Russia": [Build("F", "STP/NC"), Build("A", "MOS")],
                      "Turkey": [Disband("A", "SMY"), Disband("F", "ANK")],
                      "Austria": [Waive()]}


def test_orders_file():
    text = """# Spring 1901
    England: F LON - NTH

    France: A Paris -> Burgundy   # the Burgundy opening
    RUS: F STP/SC - BOT
    turkey: waive
    """
    assert parse_orders(text) == [("England", Move("F", "LON", "NTH")),
                                  ("France", Move("A", "PAR", "BUR")),
                                  ("Russia", Move("F", "STP/SC", "BOT")),
                                  ("Turkey", Waive())]
    assert parse_orders("") == [] and parse_orders("# nothing\n\n") == []


# ---------------------------------------------------------------- DAIDE
def test_daide_now_and_sco():
    p = parse_daide("NOW ( SPR 1901 ) ( AUS AMY BUD ) ( AUS FLT TRI ) ( RUS FLT ( STP SCS ) )\n"
                    "SCO ( AUS BUD TRI VIE ) ( RUS STP ) ( UNO SER BEL )")
    assert p == Position.build(
        "S1901M", [Unit("Austria", "A", "BUD"), Unit("Austria", "F", "TRI"), Unit("Russia", "F", "STP/SC")],
        {"BUD": "Austria", "TRI": "Austria", "VIE": "Austria", "STP": "Russia"})


def test_daide_start_of_game_is_the_initial_position():
    now = ("NOW ( SPR 1901 ) ( AUS AMY BUD ) ( AUS AMY VIE ) ( AUS FLT TRI ) ( ENG FLT EDI ) "
           "( ENG FLT LON ) ( ENG AMY LVP ) ( FRA FLT BRE ) ( FRA AMY MAR ) ( FRA AMY PAR ) "
           "( GER FLT KIE ) ( GER AMY BER ) ( GER AMY MUN ) ( ITA FLT NAP ) ( ITA AMY ROM ) "
           "( ITA AMY VEN ) ( RUS AMY MOS ) ( RUS FLT SEV ) ( RUS FLT ( STP SCS ) ) ( RUS AMY WAR ) "
           "( TUR FLT ANK ) ( TUR AMY CON ) ( TUR AMY SMY )")
    sco = ("SCO ( AUS BUD TRI VIE ) ( ENG EDI LON LVP ) ( FRA BRE MAR PAR ) ( GER BER KIE MUN ) "
           "( ITA NAP ROM VEN ) ( RUS MOS SEV STP WAR ) ( TUR ANK CON SMY ) "
           "( UNO BEL BUL DEN GRE HOL NWY POR RUM SER SPA SWE TUN )")
    assert parse_daide(sco + "\n" + now) == Position.initial()
    assert parse_daide(now + " " + sco) == Position.initial()


@pytest.mark.parametrize("season, phase", [("SPR", "S1901M"), ("SUM", "S1901R"), ("FAL", "F1901M"),
                                           ("AUT", "F1901R"), ("WIN", "W1901A")])
def test_daide_seasons(season, phase):
    assert parse_daide(f"NOW ( {season} 1901 )").phase == Phase.parse(phase)


def test_daide_retreat_form():
    p = parse_daide("NOW ( AUT 1901 ) ( AUS AMY SER ) ( RUS AMY RUM )"
                    " ( TUR AMY BUL MRT ( RUM SER ) ) ( TUR FLT ( SPA NCS ) MRT ( POR GAS ) )"
                    " ( RUS FLT SEV MRT ( ) ) ( RUS FLT CON MRT ( ( BUL ECS ) ) )")
    assert set(p.dislodged) == {
        Dislodged(Unit("Turkey", "A", "BUL"), None, ("RUM", "SER")),
        Dislodged(Unit("Turkey", "F", "SPA/NC"), None, ("GAS", "POR")),
        Dislodged(Unit("Russia", "F", "SEV"), None, ()),
        Dislodged(Unit("Russia", "F", "CON"), None, ("BUL/EC",)),
    }
    assert units_of(p) == {"Austria A SER", "Russia A RUM"}


def test_daide_tokens_for_seas():
    p = parse_daide("NOW ( FAL 1905 ) ( ENG FLT ECH ) ( RUS FLT GOB ) ( FRA FLT GOL )")
    assert {u.location for u in p.units} == {"ENG", "BOT", "LYO"}


def test_position_file_detects_daide(tmp_path):
    path = tmp_path / "game.daide"
    path.write_text("SCO ( RUS STP )\nNOW ( WIN 1901 ) ( RUS FLT ( STP NCS ) )\n", encoding="utf-8")
    p, orders = parse_position_file(path)
    assert orders == {}
    assert p == Position.build("W1901A", [Unit("Russia", "F", "STP/NC")], {"STP": "Russia"})
    path.write_text("# a DAIDE file\n  NOW ( SPR 1901 ) ( RUS FLT ( STP SCS ) )\n", encoding="utf-8")
    assert parse_position_file(path)[0].units == (Unit("Russia", "F", "STP/SC"),)
    assert parse_position_text("NOW ( SPR 1901 )") == (Position.build("S1901M"), {})
    assert parse_position_text("# NOW is not a token here\nphase: S1901M") == (Position.build("S1901M"), {})


# ---------------------------------------------------------------- not understood, not allowed
HEAD = "phase: Spring 1901 Movement\n"
TOO_MANY = ", ".join(sorted(M.centers))


@pytest.mark.parametrize("text, rule", [
    (HEAD + "[England]\nunits: A North Sea\n", "army-at-sea"),
    (HEAD + "[Germany]\nunits: F Munich\n", "fleet-inland"),
    (HEAD + "[Russia]\nunits: F STP\n", "coast-required"),
    (HEAD + "[Russia]\nunits: A STP/NC\n", "army-on-coast"),
    (HEAD + "[France]\nunits: A PAR\n[Germany]\nunits: A Paris\n", "one-unit-per-province"),
    ("phase: F1901R\n[dislodged]\nFrance: A PAR\nGermany: A PAR\n", "one-dislodged-per-province"),
    (HEAD + "[France]\ncenters: Burgundy\n", "not-a-center"),
    (HEAD + "[France]\ncenters: PAR\n[Germany]\ncenters: PAR\n", "one-owner-per-center"),
    (HEAD + f"[France]\ncenters: {TOO_MANY}\n[Germany]\ncenters: BER\n",    # 35: one twice
     "one-owner-per-center too-many-centers"),
    (HEAD + "[dislodged]\nFrance: A PAR\n", "retreat-phase"),
    (HEAD + "[dislodged]\nstandoffs: BUR\n", "retreat-phase"),
    (HEAD + "[France]\nunits: A PAR\n[orders]\nFrance: A MAR - BUR\n", "unit"),
    ("NOW ( SPR 1901 ) ( AUS AMY BUD MRT ( GAL ) )", "retreat-phase"),
    ("NOW ( SPR 1901 ) ( AUS AMY NTH )", "army-at-sea"),
    ("phase: F1901R\n[dislodged]\nRussia: A MOS retreats STP/NC\n", "army-retreat-on-coast"),
    ("NOW ( AUT 1901 ) ( RUS AMY MOS MRT ( ( STP SCS ) ) )", "army-retreat-on-coast"),
    ("phase: F1901R\n[dislodged]\nEngland: A YOR retreats NTH\n", "army-retreat-at-sea"),
    ("phase: F1901R\n[dislodged]\nFrance: F BRE retreats PAR\n", "fleet-retreat-inland"),
])
def test_what_cannot_stand_on_the_board_names_its_rule(text, rule):
    with pytest.raises(DipsolveRuleError) as info:
        parse_position_text(text, "bad.dip")
    assert {e.rule for e in info.value.errors} == set(rule.split())
    assert all(isinstance(e, DipsolveRuleError) for e in info.value.errors)


def test_every_board_rule_is_one_that_positions_break():
    from dipsolve.grammar.board import BOARD_RULES
    assert len(BOARD_RULES) == 12 and all(r == r.lower() and " " not in r for r in BOARD_RULES)


@pytest.mark.parametrize("text, found", [
    (HEAD + "[France]\nunits: A Pariss\n", "Pariss"),               # a province
    (HEAD + "[Prussia]\nunits: A BER\n", "Prussia"),                # a power
    (HEAD + "[Russia]\nunits: F STP/WC\n", "STP/WC"),               # a coast
    (HEAD + "[France]\nunits: A PAR\n[orders]\nFrance: A PAR - Burgundi\n", "Burgundi"),
    ("NOW ( SPR 1901 ) ( XXX AMY BUD )", "XXX"),
    ("NOW ( SPR 1901 ) ( AUS AMY BUDA )", "BUDA"),
    ("NOW ( SPR 1901 ) ( AUS AMY ( STP ECS ) )", "ECS"),
])
def test_a_name_that_names_nothing_is_not_understood(text, found):
    with pytest.raises(DipsolveSyntaxError) as info:
        parse_position_text(text, "bad.dip")
    assert info.value.found == found and not isinstance(info.value, DipsolveRuleError)


def test_a_daide_power_is_its_token():
    with pytest.raises(DipsolveSyntaxError) as info:
        parse_daide("NOW ( SPR 1901 ) ( FRANCE AMY PAR )")
    assert info.value.message == ("unknown power 'FRANCE' (expected AUS, ENG, FRA, GER, ITA, RUS "
                                  "or TUR; France is FRA)")


# ---------------------------------------------------------------- round trips, at random
PHASES = [Phase(s, y, k) for s, k in (("Spring", "movement"), ("Spring", "retreat"),
                                      ("Fall", "movement"), ("Fall", "retreat"),
                                      ("Winter", "adjustment")) for y in (1901, 1915, 2004)]
STANDS = {"A": sorted(M.army_moves), "F": sorted(M.fleet_moves)}
TARGETS = sorted(set(M.army_moves) | set(M.fleet_moves) | set(M.provinces))


@st.composite
def positions_and_orders(draw):
    phase = draw(st.sampled_from(PHASES))
    taken: set[str] = set()

    def draw_units(n_max: int) -> list[Unit]:
        out = []
        for _ in range(draw(st.integers(0, n_max))):
            kind = draw(st.sampled_from("AF"))
            loc = draw(st.sampled_from(STANDS[kind]))
            if M.province_of[loc] in taken:
                continue
            taken.add(M.province_of[loc])
            out.append(Unit(draw(st.sampled_from(POWERS)), kind, loc))
        return out

    units = draw_units(34)
    centers = {c: draw(st.sampled_from(POWERS))
               for c in draw(st.lists(st.sampled_from(sorted(M.centers)), unique=True, max_size=34))}
    dislodged, standoffs = [], []
    if phase.kind == "retreat":
        taken = set()
        for u in draw_units(6):
            origin = draw(st.none() | st.sampled_from(sorted(M.provinces)))
            # where its kind may stand: an army never retreats to a coast or a sea
            retreats = draw(st.lists(st.sampled_from(STANDS[u.kind]), unique=True, max_size=4))
            dislodged.append(Dislodged(u, origin, tuple(sorted(retreats))))
        standoffs = draw(st.lists(st.sampled_from(sorted(M.provinces)), unique=True, max_size=3))
    position = Position.build(phase, units, centers, dislodged, standoffs)

    target = st.sampled_from(TARGETS)
    orders: dict[str, list] = {}
    if phase.kind == "movement":
        for u in units:
            other = draw(st.sampled_from(units))
            order = draw(st.sampled_from([
                Hold(u.kind, u.location),
                Move(u.kind, u.location, draw(target), draw(st.booleans())),
                SupportHold(u.kind, u.location, other.kind, other.location),
                SupportMove(u.kind, u.location, other.kind, other.location, draw(target)),
                Convoy(u.location, other.kind, other.location, draw(target), kind=u.kind),
                None]))
            if order is not None:
                orders.setdefault(draw(st.sampled_from(POWERS)), []).append(order)
    elif phase.kind == "retreat":
        for d in dislodged:
            u = d.unit
            order = draw(st.sampled_from([Retreat(u.kind, u.location, draw(target)),
                                          Disband(u.kind, u.location)]))
            orders.setdefault(u.power, []).append(order)
    else:
        for power in draw(st.lists(st.sampled_from(POWERS), unique=True)):
            kind = draw(st.sampled_from("AF"))
            orders[power] = [draw(st.sampled_from([Build(kind, draw(target)), Waive()]))]
        for u in units[:3]:
            orders.setdefault(u.power, []).append(Disband(u.kind, u.location))
    return position, orders


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions_and_orders())
def test_to_text_round_trips(case):
    position, orders = case
    assert not position.problems()
    read = {power: [as_read(o) for o in os] for power, os in orders.items()}
    assert parse_position(position.to_text(orders)) == (position, read)
