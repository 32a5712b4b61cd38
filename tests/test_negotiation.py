"""The negotiating seat (issue 53 item 4): its search told what was agreed, its proposals,
answers and keeping of its word (honest, opportunistic), what a seat infers of the
others' orders, every message read by the grammar before it goes, and hostile press heard
without an exception (Hypothesis)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dipsolve
from dipsolve.agreements import Demilitarized, Trust, TRUST_WORTH
from dipsolve.core.errors import DipsolveError
from dipsolve.grammar.press import parse_press
from dipsolve.grammar.tokens import power_tokens
from dipsolve.play.daide.wire import DM
from test_daide_client import _REAL, _WORDS, NOW_1901, SCO_1901, SIGN_ON, TABLE, ScriptedConnection
from dipsolve.agreements.checks import breaks
from dipsolve.algorithms.order_policy import default_prior
from dipsolve.core.errors import DipsolveArgumentError
from dipsolve.core.orders import Hold, Move, SupportHold
from dipsolve.core.position import Unit
from dipsolve.play.bots import DipsolveBot
from dipsolve.play.negotiation import (NegotiatingBot, Negotiator, contested, dmz_value, leader,
                                       orders_seen)

START = dipsolve.Position.initial()
DMZ_BUR = Demilitarized(("France", "Germany"), ("BUR",))


def agreed(n: Negotiator, text: str, proposer: str = "Germany", phase: str = "S1901M") -> None:
    """``text`` (an arrangement) proposed by ``proposer`` to the negotiator's power and accepted."""
    other = n.power
    n.tracker.hear(phase, proposer, other, f"PRP ({text})")
    n.tracker.hear(phase, other, proposer, f"YES (PRP ({text}))")
    n._trust = None


# -- the search told what was agreed --------------------------------------------------------

def test_the_negotiating_bot_tells_its_search_what_was_agreed():
    n = Negotiator("France")
    agreed(n, "PCE (FRA GER)")
    agreed(n, "DMZ (FRA GER) (BUR)")
    seat = NegotiatingBot(DipsolveBot(), n)
    tuned = seat.tune("France")
    assert tuned.strategy.evaluation.allies == {"France": {"Germany": pytest.approx(2 / 3)}}
    assert set(tuned.restraints) == {"Germany"}
    probability, forbids = tuned.restraints["Germany"]
    assert probability == pytest.approx(2 / 3)
    assert forbids(START, Unit("Germany", "A", "MUN"), Move("A", "MUN", "BUR"))
    assert not forbids(START, Unit("Germany", "A", "MUN"), Move("A", "MUN", "RUH"))
    assert seat.name == "dipsolve:agenda+press:honest"


def betrayed(trust_mode: str) -> Negotiator:
    """France's seat after Germany broke two DMZs it had agreed with France, in one phase."""
    n = Negotiator("France", trust_mode=trust_mode)
    agreed(n, "DMZ (FRA GER) (BUR)")
    agreed(n, "DMZ (FRA GER) (BUR PIC)")
    n.phase_over("S1901M", START, {"France": [Hold("A", "PAR")], "Germany": [Move("A", "MUN", "BUR")]})
    return n


def test_trust_learned_from_betrayals_or_fixed_at_the_prior():
    learned, prior = betrayed("learned"), betrayed("prior")
    assert learned.trust.of("Germany") == pytest.approx(2 / 5)      # Beta(2, 1) after two failures
    assert learned.trust.of("France") == pytest.approx(4 / 5)       # kept both
    assert prior.trust.of("Germany") == prior.trust.of("France") == pytest.approx(2 / 3)
    peace = "PRP (PCE (FRA GER))"
    assert learned.hear("F1901M", "Germany", ["France"], peace, START)[0][1].startswith("REJ")
    assert prior.hear("F1901M", "Germany", ["France"], peace, START)[0][1].startswith("YES")
    # both saw the same breaches: the ledger is the same, only the trust drawn from it differs
    assert learned.tracker.result().violations().keys() == prior.tracker.result().violations().keys() == {"Germany"}


def test_a_trust_mode_not_known_is_refused():
    with pytest.raises(DipsolveArgumentError, match="trust 'blind': expected one of learned, prior"):
        Negotiator("France", trust_mode="blind")
    from dipsolve.play.daide.seat import negotiating
    with pytest.raises(DipsolveArgumentError, match="expected one of learned, prior"):
        dipsolve.Press(30, "honest", 3, "none")
    bot, desk = negotiating(DipsolveBot(), dipsolve.Press(30, "opportunistic", 3, "prior"))
    assert bot.negotiator.trust_mode == "prior" and desk.summary()["trust_mode"] == "prior"
    with pytest.raises(DipsolveArgumentError, match="is not a dipsolve.Press"):
        negotiating(DipsolveBot(), 30)   # type: ignore[arg-type]


# -- proposals and answers -------------------------------------------------------------------------

def test_the_first_proposals_of_france():
    n = Negotiator("France")
    out = n.proposals(START)
    assert ((("Germany",), "PRP (PCE (FRA GER))") in out and (("Germany",), "PRP (DMZ (FRA GER) (BUR))") in out)
    assert (("England",), "PRP (DMZ (ENG FRA) (ECH))") in out          # DAIDE's token for the Channel
    assert not any("ALY" in body for _, body in out)                 # no leader at the start
    assert contested(START, "France", "Germany") == ["BUR"]
    assert leader(START, "France") is None


def test_a_power_that_ignored_a_phase_of_proposals_is_not_asked_again():
    n = Negotiator("France")
    for to, body in n.proposals(START):
        n.said("S1901M", to, n.write(to, body))
    n.hear("S1901M", "England", ["France"], "FRM (ENG) (FRA) (YES (PRP (PCE (ENG FRA))))", START)
    again = n.proposals(START)
    assert {to for (to,), _ in again} == {"England"}
    assert (("England",), "PRP (PCE (ENG FRA))") not in again           # at peace now


def test_answers_by_value():
    n = Negotiator("Germany")
    replies = n.hear("S1901M", "France", ["Germany"], "PRP (PCE (FRA GER))", START)
    assert replies == [(("France",), "YES (PRP (PCE (FRA GER)))")]
    assert n.hear("S1901M", "France", ["Italy"], "PRP (ALY (FRA ITA) VSS (GER))", START) == []   # not a party
    assert n.hear("S1901M", "France", ["Germany"], "PRP (ALY (FRA ITA) VSS (ENG GER))", START)[0][1].startswith("REJ")
    assert n.hear("S1901M", "France", ["Germany"], "PRP (ALY (FRA GER) VSS (GER))", START)[0][1].startswith("REJ")
    assert n.hear("S1901M", "France", ["Germany"], "PRP (DRW)", START)[0][1].startswith("REJ")
    assert dmz_value(START, "Germany", ["BUR"], ["France"], Trust()) > 0
    assert n.hear("S1901M", "France", ["Germany"], "PRP (DMZ (FRA GER) (BUR))", START)[0][1].startswith("YES")
    # a DMZ deep in our own land: we give up everything there, they give up nothing
    assert dmz_value(START, "Germany", ["SIL"], ["France"], Trust()) < 0
    assert n.hear("S1901M", "France", ["Germany"], "PRP (DMZ (FRA GER) (SIL))", START)[0][1].startswith("REJ")


def test_crossing_proposals_make_one_agreement():
    """Two seats that propose the same to each other: the one later in the order of play
    cancels its own and accepts the other's; the earlier one waits."""
    fra, ger = Negotiator("France"), Negotiator("Germany")
    fra.said("S1901M", ["Germany"], "SND (GER) (PRP (PCE (FRA GER)))")
    ger.said("S1901M", ["France"], "SND (FRA) (PRP (PCE (FRA GER)))")
    assert fra.hear("S1901M", "Germany", ["France"], "FRM (GER) (FRA) (PRP (PCE (FRA GER)))", START) == []
    replies = ger.hear("S1901M", "France", ["Germany"], "FRM (FRA) (GER) (PRP (PCE (FRA GER)))", START)
    assert [body for _, body in replies] == ["CCL (PRP (PCE (FRA GER)))", "YES (PRP (PCE (FRA GER)))"]


def test_a_proposal_heard_after_the_orders_is_judged_by_them():
    n = Negotiator("France")
    n.played(START, [Move("A", "PAR", "BUR")])
    n.phase = "S1901M"
    assert n.hear("S1901M", "Germany", ["France"], "PRP (DMZ (FRA GER) (BUR))", START)[0][1].startswith("REJ")
    n2 = Negotiator("France")
    n2.played(START, [Move("A", "PAR", "PIC")])
    n2.phase = "S1901M"
    assert n2.hear("S1901M", "Germany", ["France"], "PRP (PCE (FRA GER))", START)[0][1].startswith("YES")


def test_every_message_is_read_by_the_grammar_at_the_level_before_it_goes():
    n = Negotiator("France", level=10)
    assert n.write(["Germany"], "PRP (PCE (FRA GER))", "SPR 1901") == "SND (SPR 1901) (GER) (PRP (PCE (FRA GER)))"
    assert n.write(["Germany"], "PRP (DMZ (FRA GER) (BUR))") is None            # DMZ is level 20
    assert n.write(["Germany"], "PRP (PCE (FRA GER)") is None                   # unbalanced
    assert [why.split(":")[-1].strip()[:4] for _, why in n.refused] and len(n.refused) == 2


# -- keeping its word ------------------------------------------------------------------------------

def test_an_honest_seat_keeps_a_dmz_and_an_opportunist_breaks_it_only_when_worth_it():
    stab = [Move("A", "PAR", "BUR"), Move("A", "MAR", "SPA"), Move("F", "BRE", "MAO")]
    for policy, worth, breaks_it in (("honest", TRUST_WORTH, False), ("opportunistic", 0.0, True),
                                     ("opportunistic", 10 ** 9, False)):
        n = Negotiator("France", policy, worth=worth)
        agreed(n, "DMZ (FRA GER) (BUR)")
        played = n.keep(START, stab, random.Random(0))
        assert (Move("A", "PAR", "BUR") in played) is breaks_it, (policy, worth, played)
        assert len(played) == 3 and Move("A", "MAR", "SPA") in played
        assert not any(breaks(DMZ_BUR, START, Unit("France", o.kind, o.location), o) for o in played) or breaks_it
        phase, count, gain, cost, stabbed = n.decisions[-1]
        assert (phase, count, stabbed) == ("S1901M", 1, breaks_it)
        assert cost == pytest.approx(worth * Trust().lost("France"))


def test_a_promised_support_is_given():
    n = Negotiator("France")
    agreed(n, "XDO ((FRA AMY PAR) SUP (FRA FLT BRE))", proposer="Germany")
    played = n.keep(START, [Move("A", "PAR", "PIC"), Hold("A", "MAR"), Hold("F", "BRE")], random.Random(0))
    assert played == [SupportHold("A", "PAR", "F", "BRE"), Hold("A", "MAR"), Hold("F", "BRE")]


def test_orders_seen_from_the_next_board():
    after = dipsolve.adjudicate(START, {"Germany": [Move("A", "MUN", "RUH"), Move("F", "KIE", "DEN")],
                                       "France": [Move("A", "PAR", "BUR")]}).next
    seen = orders_seen(START, after, {"France": [Move("A", "PAR", "BUR")]})
    assert seen["France"] == [Move("A", "PAR", "BUR")]
    assert set(seen["Germany"]) == {Move("A", "MUN", "RUH"), Move("F", "KIE", "DEN"), Hold("A", "BER")}
    assert all(isinstance(o, Hold) for o in seen["Italy"])


def test_a_policy_that_is_not_one_is_refused():
    with pytest.raises(DipsolveArgumentError):
        Negotiator("France", "sneaky")


# -- hostile press ---------------------------------------------------------------------------------

WORDS = ["PRP", "YES", "REJ", "CCL", "BWX", "PCE", "ALY", "VSS", "DMZ", "XDO", "AND", "ORR", "NOT", "FRM",
         "SND", "FRA", "GER", "ENG", "BUR", "PAR", "AMY", "FLT", "SUP", "MTO", "(", ")", "(", ")", "SPR", "1901",
         "DRW", "HUH", "'x'", "\u00e9", ""]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(WORDS), max_size=30), st.sampled_from(["France", "Germany", "Turkey", "XYZ"]))
def test_hostile_press_is_heard_without_an_exception(words, sender):
    n = Negotiator("Germany")
    text = " ".join(words)
    replies = n.hear("S1901M", sender, ["Germany"], text, START)
    for to, body in replies:
        assert to and body.split()[0] in ("YES", "REJ", "CCL")
        assert n.write(to, body, "SPR 1901") is not None      # every answer is valid press


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["France", "Germany", "Italy", "Russia"]), st.integers(0, 3))
def test_every_proposal_passes_the_grammar(power, seed):
    rng = random.Random(seed)
    position = START
    for _ in range(seed):
        orders = {p: dipsolve.play.bots.RandomBot().orders(position, p, 1.0, rng) for p in position.powers()}
        position = dipsolve.adjudicate(position, orders).next
        while position.phase.kind != "movement":
            position = dipsolve.adjudicate(position, {}).next
    n = Negotiator(power)
    for to, body in n.proposals(position):
        assert n.write(to, body, "SPR 1901") is not None, body
    assert not n.refused


def test_an_open_proposal_of_ours_binds_our_orders():
    """An answer may come after our orders went in: we order as if it were yes."""
    n = Negotiator("France")
    n.said("S1901M", ["Germany"], n.write(["Germany"], "PRP (DMZ (FRA GER) (BUR))"))
    played = n.keep(START, [Move("A", "PAR", "BUR"), Hold("A", "MAR"), Hold("F", "BRE")], random.Random(0))
    assert Move("A", "PAR", "BUR") not in played
    n.phase_over("S1901M", START, {})                     # not accepted: it expired
    assert n.binding("France") == []


def test_no_unit_is_promised_twice():
    board = dipsolve.Position.from_text(
        "phase: Spring 1901 Movement\n[France]\nunits: A MAR\ncenters: MAR\n[Germany]\nunits: A BUR\ncenters: MUN\n"
        "[Italy]\nunits: A PIE\ncenters: VEN\n[England]\nunits: A PIC\ncenters: LON\n"
        "[Austria]\nunits: A TYR\ncenters: VIE\n")
    n = Negotiator("France")
    agreed(n, "PCE (FRA GER)")
    agreed(n, "PCE (FRA ITA)", proposer="Italy")
    supports = [body for _, body in n.proposals(board) if "XDO" in body]
    assert len(supports) == 1 and "FRA AMY MAR" in supports[0], supports


# -- the desk at a table: any press a server passes on ----------------------------------------

_PRESS = ["FRM (GER) (FRA) (PRP (PCE (FRA GER)))", "FRM (GER) (FRA) (PRP (DMZ (FRA GER) (BUR)))",
          "FRM (GER) (FRA) (PRP (XDO ((FRA AMY PAR) SUP (GER AMY MUN))))", "FRM (GER) (FRA) (YES (PRP (PCE (FRA GER))))",
          "FRM (GER) (FRA) (CCL (PRP (PCE (FRA GER))))", "FRM (GER) (FRA) (PRP (ALY (GER FRA) VSS (ENG)))",
          "FRM (ENG) (FRA GER) (PRP (AND (PCE (ENG FRA)) (DMZ (ENG FRA) (ECH))))", "FRM (GER) (FRA) (HUH (PRP))",
          "FRM (GER) (FRA) (PRP (DRW))", "FRM (GER) (FRA) (REJ (PRP (PCE (FRA GER))))", "FRM (GER) (FRA) (PRP)",
          "YES (SND (SPR 1901) (GER) (PRP (PCE (FRA GER))))", "REJ (SND (SPR 1901) (GER) (PRP (PCE (FRA GER))))"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.sampled_from(_PRESS), st.lists(st.sampled_from(_WORDS), min_size=1, max_size=20)
                          .map(lambda ws: "FRM (GER) (FRA) (" + " ".join(ws) + ")"), st.sampled_from(_REAL)),
                max_size=12))
def test_a_negotiating_seat_takes_any_press_a_server_passes_on(messages):
    """At a table with press (level 30), whatever the server passes on, in tokens its
    table knows, the negotiating seat answers (every answer valid press), plays, or ends
    with one of dipsolve's errors: never another exception."""
    from dipsolve.play.daide.client import DaideSession
    from dipsolve.play.daide.press import PressDesk
    from dipsolve.play.registry import make_bot
    sign_on = [m.replace("(LVL 0)", "(LVL 30)") for m in SIGN_ON]
    conn = ScriptedConnection([TABLE.encode(t) for t in sign_on + [SCO_1901, NOW_1901] + messages])
    desk = PressDesk(Negotiator(""), wait=0.01)
    session = DaideSession(conn, make_bot("random"), press=desk)   # type: ignore[arg-type]
    try:
        session.run()
    except DipsolveError:
        pass
    sent = [TABLE.decode(body) for kind, body in conn.sent if kind == DM]
    press = [text for text in sent if text.startswith("SND")]
    assert press                                       # its proposals of Spring 1901 at least
    for text in press:
        parse_press(text, level=30)                    # every message sent is valid press at the level
    assert desk.refused == len(desk.negotiator.refused)


def test_in_retreats_and_builds_a_seat_keeps_its_word_whatever_its_policy():
    retreat = dipsolve.Position.from_file(dipsolve.example("f1901r.dip"))
    fleet = Unit("Russia", "F", "RUM")
    dmz = Demilitarized(("Russia", "Turkey"), ("SEV",))
    assert breaks(dmz, retreat, fleet, dipsolve.Retreat("F", "RUM", "SEV"))
    assert not breaks(dmz, retreat, fleet, dipsolve.Disband("F", "RUM"))
    for policy in ("honest", "opportunistic"):
        n = Negotiator("Russia", policy, worth=0.0)
        agreed(n, "DMZ (RUS TUR) (SEV)", proposer="Turkey")
        assert n.keep(retreat, [dipsolve.Retreat("F", "RUM", "SEV")], random.Random(0)) == [dipsolve.Disband("F", "RUM")]
    winter = dipsolve.Position.from_file(dipsolve.example("w1901a.dip"))
    builder = next(p for p in winter.powers() if winter.adjustment(p) > 0)
    site = sorted(winter.buildable(builder))[0]
    n = Negotiator(builder)
    other = next(p for p in winter.powers() if p != builder)
    tokens = {p: t for t, p in power_tokens(winter.map).items()}
    pair = " ".join(tokens[p] for p in winter.map.powers if p in (builder, other))
    agreed(n, f"DMZ ({pair}) ({winter.map.provinces[site].daide.upper()})", proposer=other)
    assert n.keep(winter, [dipsolve.Build("A", site)], random.Random(0)) == [dipsolve.Waive()]
    elsewhere = [dipsolve.Build("A", s) for s in sorted(winter.buildable(builder)) if s != site][:1]
    assert n.keep(winter, elsewhere, random.Random(0)) == elsewhere


@pytest.mark.parametrize("args, says", [
    (["--press-policy", "opportunistic"], "--press-policy needs --press LEVEL"),
    (["--press-wait", "2"], "--press-wait needs --press LEVEL"),
    (["--press-trust", "prior"], "--press-trust needs --press LEVEL"),
    (["--press", "30", "--bot", "dumbbot"], "only a dipsolve seat negotiates (--press), not 'dumbbot'"),
    (["--press", "5"], "press level 5 is not a whole number from 10 to 130"),
    (["--press", "131"], "press level 131 is not a whole number from 10 to 130"),
    (["--press", "30", "--press-wait", "0"], "press wait 0.0 is not a number of seconds"),
    (["--press", "30", "--press-wait", "nan"], "press wait nan is not a number of seconds"),
])
def test_press_options_are_checked_before_connecting(args, says, capsys):
    from dipsolve.cli.main import main
    assert main(["daide", "127.0.0.1:1", *args]) == 2
    out, err = capsys.readouterr()
    assert err.strip().startswith(f"dipsolve: {says}") and len(err.strip().splitlines()) == 1, err
    assert main(["daide", "127.0.0.1:1", "--json", *args]) == 2
    out, err = capsys.readouterr()
    assert says in json.loads(out)["message"] and not err


def test_past_its_deadline_a_seat_still_keeps_its_word():
    """`keep`'s work stops at the turn's end (the bot contract stops a seat that overruns),
    never the keeping: the first order that breaks nothing, a hold first."""
    from dipsolve.core.results import Deadline
    n = Negotiator("France")
    agreed(n, "DMZ (FRA GER) (BUR)")
    played = n.keep(START, [Move("A", "PAR", "BUR"), Move("A", "MAR", "SPA"), Move("F", "BRE", "MAO")],
                    random.Random(0), default_prior(), deadline=Deadline(0.0))
    assert played == [Hold("A", "PAR"), Move("A", "MAR", "SPA"), Move("F", "BRE", "MAO")]
