"""Agreements made in DAIDE press (dipsolve.agreements, issue 53 items 1 and 2): every kind
through its states, kept, broken and not tested against orders adjudicated on boards built
here, the conversation's rules (parties, answers, cancellations, records' copies), and the
tracker's invariants on any sequence of valid press (Hypothesis)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dipsolve
from dipsolve.agreements import (TRANSITIONS, AgreementTracker, AllOf, AnyOf, Demilitarized, Peace, Promise,
                                 State, Verdict, track_agreements)
from dipsolve.agreements.terms import read_term
from dipsolve.core.legal import legal_orders
from dipsolve.grammar.press import parse_press

START = dipsolve.Position.initial()
ROOT_DIR = __import__("pathlib").Path(__file__).resolve().parents[1]


def board(text: str) -> dipsolve.Position:
    return dipsolve.Position.from_text(text)


BURGUNDY_TEXT = """
phase: Spring 1901 Movement
[France]
units: A BUR, A PAR, F BRE
centers: BRE, MAR, PAR
[Germany]
units: A MUN, A RUH, F KIE
centers: BER, KIE, MUN
[England]
units: F LON, F EDI, A LVP
centers: EDI, LON, LVP
"""
#: Spring 1901 with France in Burgundy and Germany in Munich and Ruhr (centres as at the start)
BURGUNDY = board(BURGUNDY_TEXT)


def burgundy(old: str, new: str) -> dipsolve.Position:
    """`BURGUNDY` with a line of its text changed."""
    assert old in BURGUNDY_TEXT
    return board(BURGUNDY_TEXT.replace(old, new))


def agreed(tracker: AgreementTracker, phase: str, proposer: str, to: str | list[str], arrangement: str) -> int:
    """Propose ``arrangement`` and have every recipient accept it; its id."""
    heard = tracker.hear(phase, proposer, to, f"PRP ({arrangement})")
    assert heard.what == "proposed", heard
    for r in [to] if isinstance(to, str) else to:
        last = tracker.hear(phase, r, proposer, f"YES (PRP ({arrangement}))")
    assert last.what == "accepted", last
    return heard.agreement


def one_phase(arrangement: str, position: dipsolve.Position, orders: dict, proposer: str = "France",
              to: str | list[str] = "Germany"):
    """An agreement accepted in ``position``'s phase, then that phase played: its check."""
    t = AgreementTracker()
    id = agreed(t, position.phase.short, proposer, to, arrangement)
    (check,) = t.end_phase(position.phase.short, position, orders)
    return check, t.result()[id]


# -- the terms ---------------------------------------------------------------------------

def term(text: str):
    p = parse_press(text)
    return read_term(p.tree, p.located_orders)


def test_terms_read_their_powers_provinces_and_orders():
    assert term("PCE (FRA GER)") == term("PCE (GER FRA)") == Peace(("France", "Germany"))
    dmz = term("DMZ (FRA GER) (BUR ECH)")
    assert isinstance(dmz, Demilitarized) and dmz.provinces == ("BUR", "ENG") and dmz.bound == ("France", "Germany")
    xdo = term("XDO ((ENG FLT (STP SCS)) MTO GOB)")
    assert isinstance(xdo, Promise) and str(xdo.order) == "F STP/SC - BOT" and xdo.power == "England"
    assert xdo.unit == dipsolve.Unit("England", "F", "STP/SC") and xdo.phase_kind == "movement"
    assert term("XDO ((ENG FLT LON) RTO NTH)").phase_kind == "retreat"
    assert term("XDO ((RUS FLT (STP NCS)) BLD)").phase_kind == "adjustment"
    assert term("XDO (ENG WVE)").phase_kind == "adjustment"
    both = term("AND (XDO ((ENG FLT LON) MTO ECH)) ((FRA AMY PAR) MTO BUR)")
    assert isinstance(both, AllOf) and [p.kind for p in both.parts] == ["order", "order"]
    assert [str(o) for o in both.scope().orders] == ["F LON - ENG", "A PAR - BUR"]
    assert isinstance(term("ORR (DMZ (FRA) (BUR)) (DMZ (GER) (BUR))"), AnyOf)
    aly = term("ALY (ENG GER) VSS (FRA)")
    assert aly.kind == "alliance" and aly.bound == ("England", "Germany") and aly.against == ("France",)
    assert term("NOT (PCE (ENG FRA))").kind == "end" and term("DRW").kind == "other"
    # the orders of a construct not read (SND) are passed by: the XDO after it gets its own
    mixed = term("AND (SCD (ENG LON) (FRA PAR)) (XDO ((ENG FLT LON) HLD))")
    assert str(mixed.parts[1].order) == "F LON H"
    assert term("PCE (ENG FRA)").english() == "England and France are at peace."


# -- the conversation ----------------------------------------------------------------------

def test_a_proposal_is_accepted_by_every_other_party_and_only_then():
    t = AgreementTracker()
    h = t.hear("S1901M", "England", ["France", "Germany"], "PRP (PCE (ENG FRA GER))")
    assert h.what == "proposed" and t.result()[1].parties == ("England", "France", "Germany")
    assert t.hear("S1901M", "France", "England", "YES (PRP (PCE (FRA ENG GER)))").what == "accepted by one"
    assert t.result()[1].state is State.PROPOSED and t.result()[1].accepted_by == ("France",)
    assert t.hear("S1901M", "Italy", "England", "YES (PRP (PCE (ENG FRA GER)))").what == "ignored"
    done = t.hear("S1901M", "Germany", "England", "YES (PRP (PCE (ENG FRA GER)))")
    a = t.result()[1]
    assert done.what == "accepted" and a.state is State.ACCEPTED
    assert [c.state for c in a.changes] == [State.PROPOSED, State.ACCEPTED]
    assert a.changes[-1].message.sender == "Germany" and a.changes[-1].message.index == 3


def test_the_powers_an_arrangement_binds_must_accept_too():
    """England cannot promise Germany's peace with France: Germany is a party."""
    t = AgreementTracker()
    t.hear("S1901M", "England", "France", "PRP (PCE (FRA GER))")
    t.hear("S1901M", "France", "England", "YES (PRP (PCE (FRA GER)))")
    assert t.result()[1].state is State.PROPOSED and "Germany" in t.result()[1].parties
    t.end_phase("S1901M", START, {})
    assert t.result()[1].state is State.EXPIRED
    assert t.result()[1].changes[-1].note == "not accepted by every party by the end of S1901M"


def test_rejected_refused_and_cancelled_proposals():
    t = AgreementTracker()
    t.hear("S1901M", "France", "Germany", "PRP (DMZ (FRA GER) (BUR))")
    assert t.hear("S1901M", "Germany", "France", "REJ (PRP (DMZ (FRA GER) (BUR)))").what == "rejected"
    t.hear("S1901M", "France", "Italy", "PRP (PCE (FRA ITA))")
    assert t.hear("S1901M", "Italy", "France", "BWX (PRP (PCE (FRA ITA)))").what == "rejected"
    t.hear("S1901M", "France", "England", "PRP (PCE (FRA ENG))")
    assert t.hear("S1901M", "England", "France", "CCL (PRP (PCE (FRA ENG)))").what == "ignored"   # not its own
    assert t.hear("S1901M", "France", "England", "CCL (PRP (PCE (FRA ENG)))").what == "cancelled"
    states = [a.state for a in t.result()]
    assert states == [State.REJECTED, State.REJECTED, State.CANCELLED]
    assert "BWX" in t.result()[2].changes[-1].note
    # final states stay final: a late YES is about no open proposal
    assert t.hear("S1901M", "Germany", "France", "YES (PRP (DMZ (FRA GER) (BUR)))").what == "ignored"


def test_an_agreement_holds_until_cancelled_and_ccl_of_a_yes_cancels_it():
    t = AgreementTracker()
    agreed(t, "S1901M", "France", "Germany", "PCE (FRA GER)")
    t.end_phase("S1901M", START, {})
    f1901 = dipsolve.adjudicate(START, {}).next
    assert t.hear("F1901M", "Germany", "France", "CCL (YES (PRP (PCE (FRA GER))))").what == "cancelled"
    # cancelled at once: F1901M's orders are not checked against it
    assert t.end_phase("F1901M", f1901, {"France": ["A PAR - BUR"]}) == []
    a = t.result()[1]
    assert a.state is State.CANCELLED and a.covers == ("S1901M",)
    assert t.result().after("S1901M") == {1: State.ACCEPTED}
    assert t.result().after("F1901M") == {1: State.CANCELLED}


def test_withdrawing_a_yes_before_the_others_keeps_the_proposal_open():
    t = AgreementTracker()
    t.hear("S1901M", "France", ["Germany", "Italy"], "PRP (PCE (FRA GER ITA))")
    t.hear("S1901M", "Germany", "France", "YES (PRP (PCE (FRA GER ITA)))")
    assert t.hear("S1901M", "Germany", "France", "CCL (YES (PRP (PCE (FRA GER ITA))))").what == "withdrawn"
    t.hear("S1901M", "Italy", "France", "YES (PRP (PCE (FRA GER ITA)))")
    assert t.result()[1].state is State.PROPOSED and t.result()[1].accepted_by == ("Italy",)


def test_not_ends_an_agreement_once_every_party_accepts():
    t = AgreementTracker()
    agreed(t, "S1901M", "France", "Germany", "DMZ (FRA GER) (BUR)")
    end = agreed(t, "S1901M", "Germany", "France", "NOT (DMZ (FRA GER) (BUR))")
    ledger = t.result()
    assert ledger[1].state is State.CANCELLED and ledger[1].changes[-1].note.startswith(f"ended by #{end}")
    assert ledger[end].state is State.EXPIRED and ledger[end].kind == "end"


def test_a_records_copies_of_one_message_make_one_proposal():
    """The diplomacy package keeps a message to two powers as two messages."""
    game = dipsolve.Game()
    game.say("England", "France", "PRP (PCE (ENG FRA GER))")
    game.say("England", "Germany", "PRP (PCE (ENG FRA GER))")
    game.say("France", "England", "YES (PRP (PCE (ENG FRA GER)))")
    game.say("Germany", "England", "YES (PRP (PCE (ENG FRA GER)))")
    game.say("Italy", "GLOBAL", "PRP (DRW)")
    game.say("Austria", "Italy", "Shall we talk about Venice?")
    game.process({})
    ledger = track_agreements(game.record)
    assert len(ledger) == 2 and ledger[1].state is State.ACCEPTED
    assert ledger[2].parties == dipsolve.POWERS and ledger[2].state is State.EXPIRED    # GLOBAL: everyone
    assert (ledger.messages, ledger.daide) == (6, 5)
    assert [why for _, why in ledger.ignored] == ["not DAIDE press"]


def test_frm_and_snd_name_their_own_sender_and_recipients():
    t = AgreementTracker()
    assert t.hear("S1901M", "France", "Germany", "SND (GER ITA) (PRP (PCE (FRA GER ITA)))").what == "proposed"
    assert t.result()[1].parties == ("France", "Germany", "Italy")
    t.hear("S1901M", "Germany", "France", "FRM (GER) (FRA) (YES (PRP (PCE (FRA GER ITA))))")
    assert t.hear("S1901M", "France", "France", "FRM (ITA) (FRA) (YES (PRP (PCE (FRA GER ITA))))").what == "accepted"


def test_bad_names_and_values_are_refused_with_the_family():
    t = AgreementTracker()
    with pytest.raises(dipsolve.DipsolveSyntaxError, match="unknown power"):
        t.hear("S1901M", "Frnace", "Germany", "PRP (PCE (FRA GER))")
    with pytest.raises(dipsolve.DipsolveArgumentError):
        t.hear("S1901M", "France", 3, "PRP (PCE (FRA GER))")
    with pytest.raises(dipsolve.DipsolveArgumentError):
        t.end_phase("S1901M", "not a position", {})
    t.end_phase("S1901M", START, {})
    with pytest.raises(dipsolve.DipsolveArgumentError, match="over"):
        t.hear("S1901M", "France", "Germany", "PRP (PCE (FRA GER))")
    assert t.hear("F1901M", "France", "Germany", "PRP (PCE (FRA GER").what == "ignored"    # not DAIDE


# -- kept, broken, not tested --------------------------------------------------------------

def test_peace_is_broken_by_a_move_or_a_support_into_a_partys_unit():
    tyrol = burgundy("units: A BUR, A PAR, F BRE", "units: A BUR, A TYR, F BRE")
    check, a = one_phase("PCE (FRA GER)", tyrol, {"France": ["A BUR - MUN", "A TYR S A BUR - MUN"]})
    assert check.verdict is Verdict.BROKEN and a.state is State.BROKEN
    assert [(b.power, str(b.order)) for b in check.breaches] == [("France", "A BUR - MUN"), ("France", "A TYR S A BUR - MUN")]
    assert "Germany's A MUN" in check.breaches[0].why and "a support of A BUR into Munich" in check.breaches[1].why
    assert a.changes[-1].note == "broken by France: A BUR - MUN, France: A TYR S A BUR - MUN"
    # a support of another power's attack counts too (England's support of France into Ruhr)
    near = burgundy("units: F LON, F EDI, A LVP", "units: A HOL, F EDI, A LVP")
    check, _ = one_phase("PCE (ENG GER)", near, {"France": ["A BUR - RUH"], "England": ["A HOL S A BUR - RUH"]},
                         proposer="England")
    assert check.verdict is Verdict.BROKEN and [b.power for b in check.breaches] == ["England"]
    # an illegal order is the hold the rules make of it: no attack
    check, _ = one_phase("PCE (FRA GER)", BURGUNDY, {"France": ["A PAR S A BUR - MUN"]})
    assert check.verdict is Verdict.KEPT


def test_peace_is_kept_when_a_move_follows_a_unit_that_leaves():
    """France's army follows Germany's out of Ruhr (no centre): no attack."""
    check, a = one_phase("PCE (FRA GER)", BURGUNDY, {"France": ["A BUR - RUH"], "Germany": ["A RUH - HOL"]})
    assert check.verdict is Verdict.KEPT and a.state is State.ACCEPTED
    # the same move against a unit that stays (its own move bounced) is an attack
    check, _ = one_phase("PCE (FRA GER)", BURGUNDY, {"France": ["A BUR - RUH"],
                                                    "Germany": ["A RUH - HOL", "F KIE - HOL"]})
    assert check.verdict is Verdict.BROKEN and "Ruhr" in check.breaches[0].why


def test_peace_is_broken_by_a_move_into_a_partys_empty_centre():
    check, _ = one_phase("PCE (FRA GER)", BURGUNDY, {"Germany": ["A MUN - BUR", "A RUH - BEL"],
                                                    "France": ["A BUR - MAR"]})
    assert check.verdict is Verdict.KEPT          # Burgundy is no centre, and France's army left it
    check, _ = one_phase("PCE (FRA GER)", BURGUNDY, {"France": ["A BUR - MUN"], "Germany": ["A MUN - BOH"]})
    assert check.verdict is Verdict.BROKEN and "Germany's supply centre" in check.breaches[0].why


def test_peace_between_powers_that_cannot_reach_each_other_is_not_tested():
    check, _ = one_phase("PCE (ENG TUR)", START, {"England": ["F LON - NTH"]}, proposer="England", to="Turkey")
    assert check.verdict is Verdict.UNTESTED
    # at the start no French unit can reach a German unit or centre, nor a German one a French
    check, _ = one_phase("PCE (FRA GER)", START, {"France": ["A PAR - BUR"], "Germany": ["A MUN - BUR"]})
    assert check.verdict is Verdict.UNTESTED
    # in Burgundy it can: holding keeps the peace
    check, _ = one_phase("PCE (FRA GER)", BURGUNDY, {})
    assert check.verdict is Verdict.KEPT


def test_an_alliance_is_broken_by_an_attack_among_the_allies_not_on_the_enemy():
    check, a = one_phase("ALY (FRA ENG) VSS (GER)", BURGUNDY, {"France": ["A BUR - MUN", "A PAR - PIC"]},
                         to="England")
    assert check.verdict is Verdict.UNTESTED and a.state is State.ACCEPTED     # France attacks the enemy
    near = burgundy("F LON, F EDI, A LVP", "F ENG, F EDI, A LVP")
    check, _ = one_phase("ALY (FRA ENG) VSS (GER)", near, {"England": ["F ENG - BRE"]}, to="England")
    assert check.verdict is Verdict.BROKEN and check.breaches[0].power == "England"


def test_a_dmz_is_broken_by_entering_or_staying_and_kept_otherwise():
    check, _ = one_phase("DMZ (FRA GER) (BUR)", BURGUNDY, {"France": ["A BUR H"]})
    assert check.verdict is Verdict.BROKEN and "stays in Burgundy" in check.breaches[0].why
    check, _ = one_phase("DMZ (FRA GER) (BUR)", BURGUNDY, {"France": ["A BUR - PIC"], "Germany": ["A MUN - BUR"]})
    assert check.verdict is Verdict.BROKEN and check.breaches[0].power == "Germany"
    check, _ = one_phase("DMZ (FRA GER) (BUR)", BURGUNDY, {"France": ["A BUR - PIC"], "Germany": ["A MUN - BOH"]})
    assert check.verdict is Verdict.KEPT
    # a unit in the zone whose move out bounces was ordered out: kept
    check, _ = one_phase("DMZ (FRA GER) (BUR)", BURGUNDY, {"France": ["A BUR - PIC", "A PAR - PIC"]})
    assert check.verdict is Verdict.KEPT
    # an army of another power may stand there: it binds France and Germany only
    check, _ = one_phase("DMZ (FRA) (ECH)", BURGUNDY, {"England": ["F LON - ENG"]}, to="England")
    assert check.verdict is Verdict.KEPT
    check, _ = one_phase("DMZ (FRA) (SEV)", BURGUNDY, {}, to="Russia")
    assert check.verdict is Verdict.UNTESTED


def test_a_dmz_in_a_retreat_and_an_adjustment_phase():
    retreat = dipsolve.Position.from_file(dipsolve.example("f1901r.dip"))
    check, _ = one_phase("DMZ (RUS) (SEV)", retreat, {"Russia": ["F RUM R SEV"]}, proposer="Russia", to="Turkey")
    assert check.verdict is Verdict.BROKEN and "a retreat into Sevastopol" in check.breaches[0].why
    check, _ = one_phase("DMZ (RUS) (SEV)", retreat, {"Russia": ["F RUM D"]}, proposer="Russia", to="Turkey")
    assert check.verdict is Verdict.KEPT
    check, _ = one_phase("DMZ (FRA) (BUR)", retreat, {}, to="Germany")
    assert check.verdict is Verdict.UNTESTED
    winter = dipsolve.Position.from_file(dipsolve.example("w1901a.dip"))      # Germany builds 2
    check, _ = one_phase("DMZ (GER) (MUN)", winter, {"Germany": ["A MUN B", "F KIE B"]}, proposer="Germany",
                         to="France")
    assert check.verdict is Verdict.BROKEN and check.breaches[0].why == "a build in Munich, to be kept demilitarized"
    check, _ = one_phase("DMZ (GER) (MUN)", winter, {"Germany": ["F KIE B"]}, proposer="Germany", to="France")
    assert check.verdict is Verdict.KEPT
    check, _ = one_phase("DMZ (GER) (MOS)", winter, {}, proposer="Germany", to="Russia")
    assert check.verdict is Verdict.UNTESTED


def test_a_promised_order_is_kept_once_then_expires():
    t = AgreementTracker()
    agreed(t, "S1901M", "France", "Germany", "XDO ((FRA AMY PAR) MTO PIC)")
    (check,) = t.end_phase("S1901M", START, {"France": ["A PAR - PIC"]})
    a = t.result()[1]
    assert check.verdict is Verdict.KEPT and a.state is State.EXPIRED and a.covers == ("S1901M",)


def test_a_promised_order_broken_by_another_or_by_none():
    check, a = one_phase("XDO ((FRA AMY PAR) MTO PIC)", START, {"France": ["A PAR - BUR"]})
    assert check.verdict is Verdict.BROKEN and str(check.breaches[0].order) == "A PAR - BUR"
    assert a.state is State.BROKEN and a.changes[-1].message is None
    check, _ = one_phase("XDO ((FRA AMY PAR) MTO PIC)", START, {})
    assert check.verdict is Verdict.BROKEN and str(check.breaches[0].order) == "A PAR H"
    # a move by convoy keeps a promise of the move, and the other way round
    fleet = board("phase: Spring 1901 Movement\n[England]\nunits: A LON, F NTH\ncenters: LON\n")
    convoyed = {"England": ["A LON - NWY", "F NTH C A LON - NWY"]}
    check, _ = one_phase("XDO ((ENG AMY LON) CTO NWY VIA (NTH))", fleet, convoyed, proposer="England", to="Russia")
    assert check.verdict is Verdict.KEPT
    check, _ = one_phase("XDO ((ENG FLT NTH) CVY (ENG AMY LON) CTO NWY)", fleet, convoyed, proposer="England",
                         to="Russia")
    assert check.verdict is Verdict.KEPT
    # its unit is not there: not tested, and the promise is over
    check, a = one_phase("XDO ((FRA AMY BUR) HLD)", START, {})
    assert check.verdict is Verdict.UNTESTED and a.state is State.EXPIRED


def test_a_promised_order_waits_for_its_phase_kind():
    retreat = dipsolve.Position.from_file(dipsolve.example("f1901r.dip"))
    t = AgreementTracker()
    agreed(t, "F1901M", "Russia", "Turkey", "XDO ((RUS FLT RUM) RTO SEV)")
    f1901 = dipsolve.Position.from_file(dipsolve.example("f1901m.dip"))
    (check,) = t.end_phase("F1901M", f1901, {})
    assert check.verdict is Verdict.UNTESTED and t.result()[1].state is State.ACCEPTED
    (check,) = t.end_phase("F1901R", retreat, {"Russia": ["F RUM R SEV"]})
    assert check.verdict is Verdict.KEPT and t.result()[1].state is State.EXPIRED


def test_promised_builds_and_waives():
    winter = dipsolve.Position.from_file(dipsolve.example("w1901a.dip"))      # England builds 1
    build = "XDO ((ENG FLT LON) BLD)"
    check, a = one_phase(build, winter, {"England": ["F LON B"]}, proposer="England", to="France")
    assert check.verdict is Verdict.KEPT and a.state is State.EXPIRED
    check, _ = one_phase(build, winter, {"England": ["A LON B"]}, proposer="England", to="France")
    assert check.verdict is Verdict.BROKEN and str(check.breaches[0].order) == "A LON B"
    check, _ = one_phase(build, winter, {"England": ["F EDI B"]}, proposer="England", to="France")
    assert check.verdict is Verdict.BROKEN and check.breaches[0].order is None
    check, _ = one_phase("XDO (ENG WVE)", winter, {"England": []}, proposer="England", to="France")
    assert check.verdict is Verdict.KEPT
    check, _ = one_phase("XDO (ENG WVE)", winter, {"England": ["F LON B"]}, proposer="England", to="France")
    assert check.verdict is Verdict.BROKEN
    check, _ = one_phase("XDO ((ITA FLT NAP) BLD)", winter, {}, proposer="England", to="Italy")
    assert check.verdict is Verdict.BROKEN           # Italy could build there and did not


def test_and_is_broken_by_a_part_or_by_its_parts_and_is_kept_by_one():
    both = "AND (XDO ((FRA AMY PAR) MTO PIC)) (DMZ (GER) (BUR))"
    check, a = one_phase(both, START, {"France": ["A PAR - PIC"], "Germany": ["A MUN - BUR"]})
    assert check.verdict is Verdict.BROKEN and [b.power for b in check.breaches] == ["Germany"]
    check, a = one_phase(both, START, {"France": ["A PAR - PIC"]})
    assert check.verdict is Verdict.KEPT and a.state is State.ACCEPTED      # the DMZ holds on
    either = "ORR (XDO ((FRA AMY PAR) MTO PIC)) (XDO ((FRA AMY PAR) MTO GAS))"
    check, a = one_phase(either, START, {"France": ["A PAR - GAS"]})
    assert check.verdict is Verdict.KEPT and a.state is State.EXPIRED
    check, a = one_phase(either, START, {"France": ["A PAR - BUR"]})
    assert check.verdict is Verdict.BROKEN and len(check.breaches) == 2


def test_violations_per_power_and_the_json():
    t = AgreementTracker()
    agreed(t, "S1901M", "France", "Germany", "DMZ (FRA GER) (BUR)")
    agreed(t, "S1901M", "France", "Germany", "PCE (FRA GER)")
    # France takes Munich as its army leaves (an attack on Germany's centre); Germany's
    # Ruhr army follows France's out of Burgundy (no attack, but into the zone)
    t.end_phase("S1901M", BURGUNDY, {"France": ["A BUR - MUN"], "Germany": ["A MUN - BOH", "A RUH - BUR"]})
    ledger = t.result()
    vs = ledger.violations()
    assert {p: [v.agreement for v in v_] for p, v_ in vs.items()} == {"France": [2], "Germany": [1]}
    assert vs["Germany"][0].line() == ("S1901M: A RUH - BUR breaks #1 DMZ (FRA GER) (BUR) "
                                       "(a move into Burgundy, to be kept demilitarized)")
    assert [a.id for a in ledger.of("Germany")] == [1, 2] and ledger.of("Italy") == []
    js = ledger.to_json()
    assert js["agreements"][0]["state"] == "broken" and js["agreements"][0]["scope"]["provinces"] == ["BUR"]
    assert js["violations"]["France"][0]["order"] == "A BUR - MUN"
    assert [c["state"] for c in js["agreements"][1]["changes"]] == ["proposed", "accepted", "broken"]
    assert js["agreements"][1]["english"] == "France and Germany are at peace."


# -- any sequence of valid press -------------------------------------------------------------

ARRANGEMENTS = ["PCE (FRA GER)", "PCE (ENG FRA GER)", "ALY (FRA ENG) VSS (GER)", "DMZ (FRA GER) (BUR)",
                "DMZ (RUS TUR) (BLA)", "XDO ((FRA AMY PAR) MTO BUR)", "XDO ((GER AMY MUN) HLD)",
                "AND (PCE (FRA ENG)) (DMZ (ENG) (ECH))", "ORR (DMZ (FRA) (BUR)) (XDO ((GER AMY MUN) MTO BUR))",
                "NOT (PCE (FRA GER))", "NOT (DMZ (FRA GER) (BUR))", "DRW"]
POWER_NAMES = ["France", "Germany", "England", "Russia", "Turkey"]
#: every valid DAIDE string of the labelled corpus (tests/data/press_cases.jsonl)
CORPUS = [c["text"] for c in map(__import__("json").loads,
                                 (ROOT_DIR / "tests" / "data" / "press_cases.jsonl").read_text().splitlines())
          if c["valid"] and c["level"] is not None]


@st.composite
def conversations(draw):
    """Phases of press: proposals answered by their parties (mostly YES, at times REJ, BWX,
    a withdrawn YES, a cancellation), between messages of any kind (corpus strings, answers
    to nothing); each phase with a seed for its orders."""
    phases = []
    for _ in range(draw(st.integers(1, 3))):
        messages = []
        for _ in range(draw(st.integers(0, 5))):
            if draw(st.integers(0, 3)) == 0:          # noise: a corpus string or a stray answer
                text = draw(st.sampled_from(CORPUS + [w.format(a) for a in ARRANGEMENTS for w in
                                                      ("YES (PRP ({}))", "CCL (PRP ({}))", "REJ (PRP ({}))")]))
                messages.append((draw(st.sampled_from(POWER_NAMES)), [draw(st.sampled_from(POWER_NAMES))], text))
                continue
            arrangement = draw(st.sampled_from(ARRANGEMENTS))
            proposer = draw(st.sampled_from(POWER_NAMES))
            to = draw(st.lists(st.sampled_from(POWER_NAMES + ["GLOBAL"]), min_size=1, max_size=2))
            messages.append((proposer, to, f"PRP ({arrangement})"))
            bound = term(arrangement).bound
            named = POWER_NAMES if "GLOBAL" in to else to
            for party in dict.fromkeys([*named, *bound]):
                if party == proposer or party not in POWER_NAMES:
                    continue
                answer = draw(st.sampled_from(["YES"] * 6 + ["REJ", "BWX", "none", "YES-CCL"]))
                if answer == "YES-CCL":
                    messages.append((party, [proposer], f"YES (PRP ({arrangement}))"))
                    messages.append((party, [proposer], f"CCL (YES (PRP ({arrangement})))"))
                elif answer != "none":
                    messages.append((party, [proposer], f"{answer} (PRP ({arrangement}))"))
            if draw(st.integers(0, 5)) == 0:
                messages.append((proposer, to, f"CCL (PRP ({arrangement}))"))
        phases.append((messages, draw(st.integers(0, 2**16))))
    return phases


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conversations())
def test_the_tracker_never_raises_and_states_move_only_along_the_transitions(phases):
    t = AgreementTracker()
    position = START
    for n, (messages, seed) in enumerate(phases):
        name = position.phase.short
        for sender, to, text in messages:
            t.hear(name, sender, to, text)
        rng = random.Random(seed)
        orders: dict[str, list] = {}
        units = [d.unit for d in position.dislodged] if position.phase.kind == "retreat" else position.units
        for u in units:
            choices = legal_orders(position, u)
            if choices:
                orders.setdefault(u.power, []).append(rng.choice(choices))
        t.end_phase(name, position, orders)
        position = dipsolve.adjudicate(position, orders).next
    ledger = t.result()
    for a in ledger:
        states = [c.state for c in a.changes]
        assert states[0] is State.PROPOSED
        assert all(b in TRANSITIONS[s] for s, b in zip(states, states[1:])), states
        assert a.state is states[-1] and set(a.parties) >= {a.proposer, *a.bound}
        # every move names its message but a breach (made by orders) and an expiry (by the
        # phase's end, or by the agreement a NOT ended)
        assert all((c.message is None) == (c.state is State.BROKEN) for c in a.changes if c.state is not State.EXPIRED)
        assert set(a.accepted_by) <= set(a.parties) - {a.proposer}
        # checked only while in force; broken exactly when a check found a breach
        broken = [c for c in a.checks if c.verdict is Verdict.BROKEN]
        assert (a.state is State.BROKEN) == bool(broken) and all(c.breaches for c in broken)
        assert len(broken) <= 1 and (not broken or a.checks[-1] is broken[0])
        if a.checks:
            assert State.ACCEPTED in states
    assert set(ledger.checked) <= set(ledger.phases)


# -- the record of the docs, and `dipsolve analyze --agreements` --------------------------------

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]
DOC_RECORD = ROOT / "tests" / "data" / "doc_commands" / "agreements.json"


def test_the_docs_record_is_what_its_tool_writes():
    import importlib.util
    spec = importlib.util.spec_from_file_location("make_agreements_record",
                                                  ROOT / "tests" / "tools" / "make_agreements_record.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.game().dumps() == DOC_RECORD.read_text(encoding="utf-8")


def test_a_record_s_agreements_phase_by_phase():
    ledger = dipsolve.track_agreements(dipsolve.load_record(str(DOC_RECORD)))
    assert ledger.phases == ("S1901M", "F1901M", "W1901A") and ledger.checked == ("S1901M", "F1901M")
    assert ledger.after("S1901M") == {1: State.ACCEPTED, 2: State.ACCEPTED, 3: State.REJECTED, 4: State.ACCEPTED}
    assert ledger.after("F1901M") == {1: State.BROKEN, 2: State.ACCEPTED, 3: State.REJECTED, 4: State.BROKEN,
                                      5: State.BROKEN}
    assert [c.verdict.value for c in ledger[4].checks] == ["kept", "broken"]       # Russia could have sailed in
    assert ledger[5].covers == ("F1901M",) and ledger[5].bound == ("Germany",)
    assert ledger[3].changes[-1].message.text == "REJ (PRP (XDO ((GER FLT KIE) MTO HOL)))"
    assert ledger.parties == ("England", "France", "Germany", "Russia", "Turkey")


def test_analyze_lists_agreements_and_violations(capsys):
    from dipsolve.cli import main
    assert main(["analyze", str(DOC_RECORD), "--agreements"]) == 0
    out = capsys.readouterr().out
    assert "## agreements: 5 proposed in the DAIDE press (10 of 11 messages)" in out
    assert "Germany: 2 violations" in out and "France: none (bound by 2 agreements in force)" in out
    assert main(["analyze", str(DOC_RECORD), "--agreements", "--power", "tur"]) == 0
    out = capsys.readouterr().out
    assert "## agreements Turkey is a party to: 1 of the 5 proposed" in out
    assert "## violations of Turkey" in out and "Germany" not in out.split("## violations")[1]
    assert out.rstrip().endswith("Turkey: 0.50 (kept 0, broke 1)")      # its trust: Beta(2 + 0, 1 + 1)
    assert main(["analyze", str(DOC_RECORD), "--agreements", "--json"]) == 0
    report = __import__("json").loads(capsys.readouterr().out)
    assert report["powers"] == {} and report["agreements"]["daide"] == 10
    assert [a["state"] for a in report["agreements"]["agreements"]] == ["broken", "accepted", "rejected", "broken",
                                                                        "broken"]
    assert list(report["agreements"]["violations"]) == ["Germany", "Turkey"]
    trust = report["agreements"]["trust"]        # the broken DMZ and XDO cost Germany; England never tested
    assert trust["Germany"] == {"trust": 0.4, "kept": 0.0, "broken": 2.0}
    assert trust["England"]["trust"] == pytest.approx(2 / 3, abs=1e-6) and trust["France"]["trust"] == 0.75
    # without --agreements the report has none
    assert main(["analyze", str(DOC_RECORD), "--adjudication-only", "--json"]) == 0
    assert __import__("json").loads(capsys.readouterr().out)["agreements"] is None


def test_analyze_agreements_on_english_press_and_bad_input(tmp_path, capsys):
    from dipsolve.cli import main
    cicero = ROOT / "tests" / "data" / "records" / "meta-game_433761_ENGLAND_AG.json"
    assert main(["analyze", str(cicero), "--agreements"]) == 0
    assert "## agreements: none (none of the record's 170 messages is DAIDE press)" in capsys.readouterr().out
    bad = tmp_path / "bad.json"
    bad.write_text('{"id": "x", "phases": [{"name": "S1901M", "state": {"units": {"FRANCE": ["A PA')
    assert main(["analyze", str(bad), "--agreements"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{bad}:1:") and "Traceback" not in err
    assert main(["analyze", str(DOC_RECORD), "--agreements", "--power", "Frnace"]) == 2
    assert "unknown power" in capsys.readouterr().err


def test_a_daide_seats_history_keeps_the_press_and_its_agreements_are_checked():
    """On a DAIDE server: the press the server passes on (FRM) and the orders its ORD
    messages report make the seat's game, whose agreements are checked as a record's."""
    from dipsolve.play.daide.client import _body_text, parse_tree
    from dipsolve.play.daide.history import SeatHistory
    history = SeatHistory()
    assert not history.press("France", ["Germany"], "FRM (FRA) (GER) (PRP (DMZ (FRA GER) (BUR)))")
    start = dipsolve.Position.initial()
    history.board(start)
    history.press("France", ["Germany"], "FRM (FRA) (GER) (PRP (DMZ (FRA GER) (BUR)))")
    history.press("Germany", ["France"], "FRM (GER) (FRA) (YES (PRP (DMZ (FRA GER) (BUR))))")
    for ord_ in ("ORD (SPR 1901) ((FRA AMY PAR) MTO BUR) (SUC)", "ORD (SPR 1901) ((GER AMY MUN) MTO RUH) (SUC)"):
        assert history.order(_body_text(parse_tree(ord_)[2]))
    history.board(dipsolve.adjudicate(start, {"France": ["A PAR - BUR"], "Germany": ["A MUN - RUH"]}).next)
    game = history.game
    assert game.phases[0].messages[0] == ("France", "Germany", "FRM (FRA) (GER) (PRP (DMZ (FRA GER) (BUR)))")
    ledger = dipsolve.track_agreements(game.record)
    assert ledger[1].state is State.BROKEN and [v.phase for v in ledger.violations()["France"]] == ["S1901M"]


def test_the_phase_a_game_was_ended_in_before_its_orders_is_not_checked():
    """A server that ends a game (a draw) before a phase's orders leaves that phase with no
    order at all, its board the record's end: a promise due then is not broken."""
    from dipsolve.io.records import Record, RecordPhase
    talk = (("France", "Germany", "PRP (XDO ((GER AMY MUN) SUP (FRA AMY BUR)))"),
            ("Germany", "France", "YES (PRP (XDO ((GER AMY MUN) SUP (FRA AMY BUR))))"))
    spring = board(BURGUNDY_TEXT)
    later = dipsolve.adjudicate(spring, {}).next
    for end, checked in ((spring, []), (later, ["broken"])):
        record = Record("ended", (RecordPhase("S1901M", spring, {}, messages=talk),
                                  RecordPhase("COMPLETED", end, {})), "standard", ())
        ledger = track_agreements(record)
        assert [c.verdict.value for c in ledger[1].checks] == checked
