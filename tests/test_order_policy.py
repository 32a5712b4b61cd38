"""The policy a seat fits to the orders it sees (dipsolve.algorithms.order_policy), and the
"learned" seat that uses it."""

from __future__ import annotations

import math
import random

import pytest

from dipsolve import Limits, Position, solve
from dipsolve.strategy import Agenda, Sampled, Strategy
from dipsolve.core.results import Deadline
from dipsolve.algorithms.order_policy import FEATURES, OrderPolicy, PolicyLearner
from dipsolve.core.errors import DipsolveError, DipsolveSyntaxError
from dipsolve.core.legal import legal_orders
from dipsolve.play.bots import DipsolveBot, DumbBotPlayer
from dipsolve.play.games import play_game
from dipsolve.search.learned import Table
from dipsolve.testing.random_positions import random_position

#: a policy with opinions: moves to centers it does not own, supports that fit, no convoys
TRUE = OrderPolicy(tuple({"move": 1.5, "center_neutral": 1.2, "center_other": 0.8,
                          "support_given": 3.0, "support_void": -2.0, "collides_own": -2.5,
                          "convoy": -2.0, "nearer": 0.7}.get(f, 0.0) for f in FEATURES))


def _positions(n: int, seed: int) -> list[Position]:
    out = []
    rng = random.Random(seed)
    while len(out) < n:
        p = random_position(rng, n_units=rng.randint(12, 26))
        if p.phase.kind == "movement":
            out.append(p)
    return out


def _observed(positions: list[Position], policy: OrderPolicy, seed: int) -> PolicyLearner:
    learner = PolicyLearner()
    for i, pos in enumerate(positions):
        powers = pos.powers()
        orders = {p: policy.draw(pos, p, random.Random(f"{seed}:{i}:{p}")) for p in powers}
        learner.observe(pos, orders, powers)
    return learner


def test_a_draw_is_one_legal_order_per_unit_and_replays_with_its_seed():
    for pos in _positions(5, 1):
        for power in pos.powers():
            drawn = TRUE.draw(pos, power, random.Random(7))
            units = pos.units_of(power)
            assert len(drawn) == len(units)
            for u, o in zip(units, drawn):
                assert o in legal_orders(pos, u)
            assert TRUE.draw(pos, power, random.Random(7)) == drawn


def test_the_uniform_policy_gives_every_legal_order_the_same_chance():
    pos = _positions(1, 2)[0]
    power = pos.powers()[0]
    orders = OrderPolicy().draw(pos, power, random.Random(0))
    expected = -sum(math.log(len(legal_orders(pos, u))) for u in pos.units_of(power))
    assert OrderPolicy().log_probability(pos, power, orders) == pytest.approx(expected)


def test_the_fit_learns_the_policy_that_gave_the_orders():
    learner = _observed(_positions(30, 3), TRUE, seed=3)
    assert learner.observed > 300
    fitted = learner.fit(iterations=300)
    # judged on orders it did not see
    test = _observed(_positions(15, 4), TRUE, seed=4)
    truth, got, uniform = (test.log_likelihood(p) for p in (TRUE, fitted, OrderPolicy()))
    assert got > uniform + 0.5                     # far better than knowing nothing
    assert got > truth - 0.15                      # nearly as good as the truth itself
    w = fitted.named_weights()
    # the signs of what the policy cares about most (a draw is one Gibbs sweep, not the
    # stationary law the pseudo-likelihood assumes, so the sizes come out smaller)
    assert w["support_given"] > 0.5 and w["support_void"] < 0 and w["collides_own"] < 0
    assert w["move"] > 0.5 and w["center_neutral"] > 0.5


def test_the_fit_starts_from_the_last_one():
    learner = _observed(_positions(10, 5), TRUE, seed=5)
    first = learner.fit()
    again = learner.fit()
    assert learner.fits == 2 and again != first
    # from where the first fit ended, not from nothing: a small step, no worse a fit
    step = math.dist(again.weights, first.weights)
    assert step < 0.5 * math.dist(first.weights, OrderPolicy().weights)
    assert learner.log_likelihood(again) >= learner.log_likelihood(first) - 0.01


def test_nothing_observed_outside_movement_and_orders_not_legal_are_skipped():
    learner = PolicyLearner()
    pos = Position.initial()
    winter = Position.build("W1901A", pos.units, pos.centers)
    assert learner.observe(winter, {}, winter.powers()) == 0
    from dipsolve.core.orders import Move
    n = learner.observe(pos, {"France": [Move("A", "PAR", "MUN")]}, ["France"])
    assert n == 2                     # F BRE and A MAR held; A PAR - MUN is no legal order
    assert learner.fit() == learner.policy


def test_a_policy_takes_one_finite_weight_per_feature():
    with pytest.raises(DipsolveSyntaxError):
        OrderPolicy((1.0, 2.0))
    with pytest.raises(DipsolveSyntaxError):
        OrderPolicy((math.nan,) * len(FEATURES))


def test_solve_draws_the_opponents_from_a_policy():
    pos = Position.initial()
    s = solve(pos, "Austria", Strategy(Agenda(), Sampled(predictor=TRUE)),
              limits=Limits(time_limit=0.3, seed=1))
    assert s.orders and s.opponents          # a model of every other power, drawn from TRUE
    with pytest.raises(DipsolveError):
        Strategy(Agenda(), Sampled(predictor=object()))      # type: ignore[arg-type]


def test_the_learned_seat_fits_what_the_others_ordered_and_forgets_it_between_games():
    from dipsolve.algorithms.order_policy import default_prior
    bot = DipsolveBot()
    pos = Position.initial()
    orders = {p: DumbBotPlayer().orders(pos, p, 1.0, random.Random(p)) for p in pos.powers()}
    assert bot.policy("Austria") == default_prior()
    bot.observe(pos, orders)
    policy = bot.policy("Austria")
    assert policy is not None and policy not in (OrderPolicy(), default_prior())
    learner, read, fitted = bot._table[0]._learners["Austria"]
    seen = sum(len(pos.units_of(p)) for p in pos.powers()) - 3
    assert read == fitted == 1 and learner.observed == seen
    # a phase shown later is read at once (between phases, not in the next one's time),
    # and fitted when the seat next asks for its policy
    bot.observe(pos, orders)
    learner, read, fitted = bot._table[0]._learners["Austria"]
    assert (read, fitted, learner.observed) == (2, 1, 2 * seen)
    assert bot.policy("Austria") is not None and bot._table[0]._learners["Austria"][2] == 2
    bot.prepare()
    assert bot.policy("Austria") == default_prior()
    assert bot._table[0]._learners["Austria"][0].observed == 0


class _Ticks:
    """A clock that moves one second each time it is read."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_the_fit_stops_at_its_deadline_and_the_next_goes_on_from_there():
    pos = Position.initial()
    orders = {p: DumbBotPlayer().orders(pos, p, 1.0, random.Random(p)) for p in pos.powers()}
    learner = PolicyLearner()
    learner.observe(pos, orders, pos.powers())
    clock = _Ticks()
    # the deadline passes before the first step: the weights are where they were
    assert learner.fit(deadline=Deadline(0.5, clock=clock)) == OrderPolicy()
    # it allows two reads of the clock beyond its start, so exactly two Adam steps
    two = learner.fit(deadline=Deadline(2.5, clock=clock))
    assert two != OrderPolicy()
    again = PolicyLearner()
    again.observe(pos, orders, pos.powers())
    assert again.fit(iterations=2) == two
    # unbounded, it runs all its steps, from where the last fit stopped
    assert learner.fit() != two and learner.fits == 3


def test_a_learned_seat_plays_a_game():
    seats = {p: DumbBotPlayer() for p in Position.initial().powers()}
    seats["Italy"] = bot = DipsolveBot()
    record = play_game(seats, limits=Limits(time_limit=0.2, seed=2), until=1901)
    assert record.seats["Italy"] == "dipsolve:agenda"
    assert [ph.phase for ph in record.phases][:2] == ["S1901M", "F1901M"]
    assert record.phases[1].orders["Italy"]
    # the fall's orders were searched against a policy fitted to the spring's orders; the
    # fall's were read once the fall was over (to be fitted when the seat next orders)
    learner, read, fitted = bot._table[0]._learners["Italy"]
    assert fitted == 1 and read == 2 and learner.observed == 2 * (22 - 3)


def test_an_order_is_described_by_whose_province_it_aims_at_and_by_the_season():
    from dipsolve.algorithms.order_policy import _Board
    from dipsolve.core.orders import Move
    from dipsolve.core.position import Phase, Unit

    units = [Unit("Austria", "A", "BUD"), Unit("Austria", "A", "VIE"), Unit("Russia", "A", "GAL"),
             Unit("Turkey", "A", "BUL")]
    owners = {"BUD": "Austria", "VIE": "Austria", "TRI": "Austria", "SER": "Austria",
              "WAR": "Russia", "MOS": "Russia", "SEV": "Russia", "STP": "Russia", "RUM": "Russia",
              "CON": "Turkey", "ANK": "Turkey", "SMY": "Turkey"}
    ix = {n: i for i, n in enumerate(FEATURES)}
    for season in ("Spring", "Fall"):
        pos = Position.build(Phase(season, 1903, "movement"), units, owners)
        board = _Board(pos, "Austria")
        to_rum = board.features(units[0], Move("A", "BUD", "RUM"))
        to_ser = board.features(units[0], Move("A", "BUD", "SER"))
        # Rumania is Russia's, the leader's (5 centers): the move aims at the leader
        assert to_rum[ix["target_size"]] == 0.5 and to_rum[ix["target_leader"]] == 1
        # Serbia is Austria's own, threatened by Turkey's army in Bulgaria (3 centers)
        assert to_ser[ix["target_size"]] == 0 and to_ser[ix["threat_size"]] == 0.3
        fall = season == "Fall"
        for f in (to_rum, to_ser):
            for name in ("target_size", "target_leader", "move", "threat_size"):
                assert f[ix[name + "_fall"]] == (f[ix[name]] if fall else 0)


def test_top_one_counts_the_units_whose_most_likely_order_was_given():
    learner = _observed(_positions(6, 5), TRUE, seed=5)
    uniform = learner.top_one(OrderPolicy())
    # every order ties under the uniform policy: the first legal order is its pick
    assert uniform == sum(1 for c in learner._chosen if c == 0) / learner.observed
    assert learner.top_one(TRUE) > uniform + 0.2


# -- the prior a learned seat starts from -------------------------------------------------

def test_a_weights_file_reads_back_the_policy_it_was_written_from():
    from dipsolve.algorithms.order_policy import read_policy, write_policy
    text = write_policy(TRUE, "made by a test\n\nfeature\tweight")
    assert text.startswith("# made by a test\n#\n# feature\tweight\n")
    assert read_policy(text) == TRUE


@pytest.mark.parametrize("change, line, column, says", [
    (lambda t: t.replace("hold\t", "hodl\t"), 1, 1, "unknown feature 'hodl'"),
    (lambda t: t.replace("move\t", "hold\t"), 2, 1, "feature 'hold' given twice"),
    (lambda t: t.replace("move\t1.5", "move\tnan"), 2, 6, "expected a finite weight"),
    (lambda t: t.replace("move\t1.5", "  move 1.5 2"), 2, 3, "expected 'FEATURE WEIGHT'"),
])
def test_a_weights_file_with_a_mistake_is_refused_where_it_is(change, line, column, says):
    from dipsolve.algorithms.order_policy import read_policy, write_policy
    text = change(write_policy(TRUE))
    with pytest.raises(DipsolveSyntaxError) as e:
        read_policy(text, "prior.tsv")
    assert says in str(e.value)
    assert (e.value.filename, e.value.line, e.value.column) == ("prior.tsv", line, column)


def test_a_weights_file_without_every_feature_is_refused():
    from dipsolve.algorithms.order_policy import read_policy, write_policy
    text = "\n".join(write_policy(TRUE).splitlines()[:-3])
    with pytest.raises(DipsolveSyntaxError, match=r"no weight for 3 feature\(s\)"):
        read_policy(text)


def test_any_text_read_as_a_weights_file_is_a_policy_or_a_syntax_error():
    from hypothesis import given, settings, strategies as st
    from dipsolve.algorithms.order_policy import read_policy, write_policy
    lines = write_policy(TRUE).splitlines()

    @settings(max_examples=200, deadline=None)
    @given(st.lists(st.one_of(st.sampled_from(lines), st.text(max_size=30)), max_size=len(lines) + 3))
    def check(chosen):
        text = "\n".join(chosen)
        try:
            policy = read_policy(text)
        except DipsolveSyntaxError as e:
            assert e.line is None or 1 <= e.line <= len(text.splitlines())
        else:
            assert len(policy.weights) == len(FEATURES)
    check()


def test_the_package_prior_is_a_policy_with_opinions():
    from dipsolve.algorithms.order_policy import default_prior
    prior = default_prior()
    assert prior != OrderPolicy()
    pos = Position.initial()
    # it predicts a table's first orders better than a uniform guess does
    orders = {p: DumbBotPlayer().orders(pos, p, 1.0, random.Random(p)) for p in pos.powers()}
    judge = PolicyLearner()
    judge.observe(pos, orders, pos.powers())
    assert judge.log_likelihood(prior) > judge.log_likelihood(OrderPolicy()) + 0.3


def test_a_fit_from_a_prior_starts_there_and_stays_nearer_it_than_a_fit_from_nothing():
    prior = TRUE
    positions = _positions(2, 5)
    # orders drawn by another policy: the fit moves away from the prior, but less far
    other = OrderPolicy(tuple(-w for w in TRUE.weights))
    learners = [PolicyLearner(prior=prior), PolicyLearner()]
    assert learners[0].policy == prior and learners[0].l2 > learners[1].l2
    for i, pos in enumerate(positions):
        orders = {p: other.draw(pos, p, random.Random(i)) for p in pos.powers()}
        for learner in learners:
            learner.observe(pos, orders, pos.powers())
    with_prior, without = (learner.fit(iterations=200) for learner in learners)
    assert with_prior != prior
    assert math.dist(with_prior.weights, prior.weights) < math.dist(without.weights, prior.weights)
    # the same data, the same prior, a weaker pull: further from it
    weak = PolicyLearner(prior=prior, l2=0.01)
    for i, pos in enumerate(positions):
        weak.observe(pos, {p: other.draw(pos, p, random.Random(i)) for p in pos.powers()}, pos.powers())
    assert math.dist(weak.fit(iterations=200).weights, prior.weights) > math.dist(with_prior.weights, prior.weights)


def test_a_learned_seat_starts_from_the_package_prior():
    from dipsolve.algorithms.order_policy import default_prior
    pos = Position.initial()
    orders = {p: DumbBotPlayer().orders(pos, p, 1.0, random.Random(p)) for p in pos.powers()}
    bot = DipsolveBot()
    bot.observe(pos, orders)
    learner, read, fitted = bot._table[0]._read("Italy")
    assert learner.prior == default_prior() and read == 1 and fitted == 0
    assert DipsolveBot().name == "dipsolve:agenda"


def test_before_any_order_is_seen_a_learned_seat_expects_the_prior():
    from dipsolve.algorithms.order_policy import default_prior
    assert DipsolveBot().policy("France") == default_prior()
    assert Table().policy("France") == default_prior()


def test_a_learned_seat_learns_only_from_the_powers_whose_orders_it_was_shown():
    # a DAIDE server may report a seat its own orders only: the others did not all hold
    pos = Position.initial()
    french = DumbBotPlayer().orders(pos, "France", 1.0, random.Random(1))
    bot = DipsolveBot()
    bot.observe(pos, {"France": french, "Austria": []})
    learner, read, _ = bot._table[0]._read("Austria")
    assert read == 1 and learner.observed == len(pos.units_of("France"))
    # for France's seat, the Austrians given no orders held: they are learned from
    learner, _, _ = bot._table[0]._read("France")
    assert learner.observed == len(pos.units_of("Austria"))
    # shown only its own orders, a seat learns nothing and keeps the prior
    from dipsolve.algorithms.order_policy import default_prior
    alone = DipsolveBot()
    alone.observe(pos, {"Italy": DumbBotPlayer().orders(pos, "Italy", 1.0, random.Random(2))})
    assert alone.policy("Italy") == default_prior()


def test_the_pulls_toward_centers_are_the_sums_over_the_centers_they_stand_for():
    # two of the five fields of a power's board (one matrix product each, one unweighted,
    # one weighted) against the plain sum, over every province, of weight × 2 ** -distance
    # to each center (9 steps if none)
    from dipsolve.algorithms.order_policy import _Board, _all_steps
    for pos in _positions(6, 17):
        far = _all_steps(pos.map)
        for power in pos.powers():
            board = _Board(pos, power)
            neutral = [c for c in pos.map.centers if c not in pos.owner]
            other = {c: board.size[o] / 10 for c, o in pos.owner.items() if o != power}
            for field, weights in ((board.attract_neutral, dict.fromkeys(neutral, 1.0)),
                                   (board.attract_size, other)):
                assert set(field) == set(pos.map.provinces)
                for d, value in field.items():
                    plain = sum(0.5 ** far[d].get(c, 9) * w for c, w in weights.items())
                    assert value == pytest.approx(plain, rel=1e-12, abs=1e-12)


def test_the_table_reads_as_many_phases_as_its_deadline_allows_and_says_how_many():
    pos = Position.initial()
    orders = {p: DumbBotPlayer().orders(pos, p, 1.0, random.Random(p)) for p in pos.powers()}
    table = Table([(pos, orders)] * 3)
    # a clock that moves a second a read: 2.5 s allow two phases' reading (checks at 1 s
    # and 2 s), then stop the third and the fit (the fit of what was read is short)
    table.policy("Italy", Deadline(2.5, clock=_Ticks()))
    assert table.describe("Italy").startswith("learned: the prior policy fitted to 2 of 3 movement phases")
    table.policy("Italy")                     # no deadline: the other two, and a full fit
    assert table.describe("Italy").startswith("learned: the prior policy fitted to 3 movement phases")
    assert Table().describe("Italy") == "learned: the package's prior policy (no orders seen)"
