"""Trust (issue 53 item 3): the Beta-Bernoulli estimate from the agreements kept and broken,
the rule a seat breaks an agreement by, one order judged against an agreement
(`checks.breaks`), and the search's hooks: an ally's control counted in proportion to
trust (`Influence`'s allies), the others' policy conditioned on what they agreed
(`Restrained`)."""

from __future__ import annotations

import random

import pytest

import dipsolve
from dipsolve.agreements import AgreementTracker, Demilitarized, Peace, Trust, TRUST_WORTH, worth_breaking
from dipsolve.agreements.checks import breaks
from dipsolve.agreements.model import Breach, Check, Verdict
from dipsolve.agreements.terms import Promise
from dipsolve.algorithms.evaluation import influence
from dipsolve.algorithms.order_policy import Restrained, default_prior
from dipsolve.core.errors import DipsolveArgumentError, DipsolveSyntaxError
from dipsolve.core.orders import Hold, Move, SupportHold
from dipsolve.core.position import Unit
from dipsolve.search.strategy import Influence

START = dipsolve.Position.initial()
DMZ_BUR = Demilitarized(("France", "Germany"), ("BUR",))
PEACE = Peace(("France", "Germany"))


# -- trust ------------------------------------------------------------------------------------

def test_trust_is_the_beta_mean_from_the_prior():
    t = Trust()
    assert t.of("France") == pytest.approx(2 / 3)
    assert t.after_breaking("France") == pytest.approx(2 / 4)
    assert t.lost("France") == pytest.approx(2 / 3 - 1 / 2)
    record = Trust({"France": 10.0}, {})
    assert record.of("France") == pytest.approx(12 / 13)
    assert record.lost("France") == pytest.approx(12 / 13 - 12 / 14)
    assert record.lost("France", 2) > record.lost("France")


def test_an_agreement_is_one_trial_for_each_power_it_binds_once_tested():
    t = Trust()
    untested, kept = Check("S1901M", Verdict.UNTESTED), Check("S1901M", Verdict.KEPT)
    assert t.observe(PEACE, [untested, untested]) is t
    held = t.observe(PEACE, [kept, untested, Check("F1901M", Verdict.KEPT)])    # kept twice: one trial
    assert held.kept == {"France": 1.0, "Germany": 1.0} and held.broken == {}
    stab = Check("S1902M", Verdict.BROKEN, (Breach("France", None, PEACE.text, "x"),))
    broken = t.observe(PEACE, [kept, kept, kept, stab])                  # kept for years, then broken
    assert broken.broken == {"France": 1.0} and broken.kept == {"Germany": 1.0}
    assert broken.of("France") < t.of("France") < broken.of("Germany")
    # breaking an agreement tested before moves a kept trial to broken
    assert held.after_breaking("France", 1, were_kept=1) == pytest.approx(broken.of("France"))


def test_betrayals_are_not_drowned_by_the_phases_an_agreement_was_kept():
    """A power that kept ten agreements for ten phases each and broke ten: its trust is
    (2 + 10) / (3 + 20), not the 102 / 113 of a trial a phase."""
    t = Trust()
    kept = [Check(f"S{1901 + i}M", Verdict.KEPT) for i in range(10)]
    for _ in range(10):
        t = t.observe(PEACE, kept)
        t = t.observe(PEACE, [*kept, Check("F1911M", Verdict.BROKEN, (Breach("France", None, PEACE.text, "x"),))])
    assert t.of("France") == pytest.approx(12 / 23) and t.of("Germany") == pytest.approx(22 / 23)


def test_trust_from_a_game_of_press_and_orders():
    tracker = AgreementTracker()
    tracker.hear("S1901M", "France", "Germany", "PRP (DMZ (FRA GER) (BUR))")
    tracker.hear("S1901M", "Germany", "France", "YES (PRP (DMZ (FRA GER) (BUR)))")
    tracker.end_phase("S1901M", START, {"France": ["A PAR - BUR"], "Germany": ["A MUN H"]})
    trust = Trust.from_agreements(tracker.result())
    assert (trust.kept, trust.broken) == ({"Germany": 1.0}, {"France": 1.0})
    assert trust.to_json(["Italy"])["Italy"] == {"trust": round(2 / 3, 6), "kept": 0.0, "broken": 0.0}


def test_the_rule_a_seat_breaks_an_agreement_by():
    lost = Trust().lost("France")                        # 1/6
    assert worth_breaking(TRUST_WORTH * lost + 1, lost)
    assert not worth_breaking(TRUST_WORTH * lost - 1, lost)
    assert not worth_breaking(10 ** 9, lost, float("inf"))   # honest: never


# -- one order against an agreement ----------------------------------------------------------------

def test_breaks_judges_one_order_as_the_checks_do():
    par, mun = Unit("France", "A", "PAR"), Unit("Germany", "A", "MUN")
    assert breaks(DMZ_BUR, START, par, Move("A", "PAR", "BUR"))
    assert not breaks(DMZ_BUR, START, par, Move("A", "PAR", "PIC"))
    assert not breaks(DMZ_BUR, START, Unit("England", "F", "LON"), Move("F", "LON", "ENG"))
    assert breaks(PEACE, START, mun, Move("A", "MUN", "BUR")) is False    # Burgundy is nobody's
    kie = dipsolve.Position.from_text("phase: Spring 1901 Movement\n[France]\nunits: A RUH\ncenters: PAR\n"
                                      "[Germany]\nunits: A KIE\ncenters: KIE, MUN\n")
    assert breaks(PEACE, kie, Unit("France", "A", "RUH"), Move("A", "RUH", "KIE"))   # a move on its unit
    assert breaks(PEACE, kie, Unit("France", "A", "RUH"), Move("A", "RUH", "MUN"))   # on its centre
    assert not breaks(PEACE, kie, Unit("France", "A", "RUH"), Move("A", "RUH", "BUR"))
    promise = Promise("France", SupportHold("A", "PAR", "A", "MAR"))
    assert breaks(promise, START, par, Hold("A", "PAR"))
    assert not breaks(promise, START, par, SupportHold("A", "PAR", "A", "MAR"))
    assert not breaks(promise, START, Unit("France", "A", "MAR"), Hold("A", "MAR"))


# -- the search's hooks ----------------------------------------------------------------------------

def test_an_allys_control_counts_in_proportion_to_trust():
    plain = influence(START, "France")
    assert influence(START, "France", allies={"Germany": 0.0}) == pytest.approx(plain)
    half = influence(START, "France", allies={"Germany": 0.5})
    whole = influence(START, "France", allies={"Germany": 1.0})
    assert plain < half < whole
    assert half - plain == pytest.approx((whole - plain) / 2)
    raid = influence(START, "France", raid_dilution=True, allies={"Germany": 1.0})
    assert raid > influence(START, "France", raid_dilution=True)
    with pytest.raises(DipsolveArgumentError):
        Influence(allies={"France": {"Germany": 1.5}})
    with pytest.raises(DipsolveSyntaxError, match="unknown power 'Germny' .did you mean Germany"):
        influence(START, "France", allies={"Germny": 1.0})


def test_the_conditioned_policy_keeps_a_trusted_powers_word():
    prior = default_prior()

    def into_bur(policy, n=60):
        rng = random.Random(1)
        return sum(any(isinstance(o, Move) and o.target == "BUR" for o in policy(START, "France", rng))
                   for _ in range(n))

    forbids = lambda pos, u, o: breaks(DMZ_BUR, pos, u, o)     # noqa: E731
    assert into_bur(prior) > 0
    assert into_bur(Restrained(prior.weights, restraints={"France": (1.0, forbids)})) == 0
    assert into_bur(Restrained(prior.weights, restraints={"France": (0.0, forbids)})) > 0
    assert into_bur(Restrained(prior.weights, restraints={"Germany": (1.0, forbids)})) > 0
