"""Legal orders, the agenda search of Hall & Loeb (seed 002, 3.2–4.3.1), opponent models
(Victorybot, seed 004) and `dipsolve.search.solve` in every phase."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from dipsolve.core.adjudicator import Reason, adjudicate
from dipsolve.algorithms.evaluation import influence, load_values
from dipsolve.core.orders import Build, Disband, Hold, Move, SupportHold, SupportMove, Waive
from dipsolve.core.position import Dislodged, Position, Unit
from dipsolve.core.results import Deadline, Limits
from dipsolve.search.agenda import AgendaSearch, agenda_search
from dipsolve.core.legal import build_orders, legal_orders, useful_orders, useless
from dipsolve.search.methods import METHODS, STATUSES, MethodUnavailable, SolveSettings, solve
from dipsolve.search.opponents import Judge, build_model, relevant_powers
from dipsolve.testing import random_position

ROOT = Path(__file__).resolve().parents[1]
TURKEY = load_values(ROOT / "examples" / "solve" / "turkey-1901.values")


def turkish(position: Position, power: str) -> float:
    return influence(position, power, TURKEY if power == "Turkey" else None)


def strs(orders) -> list[str]:
    return sorted(str(o) for o in orders)


def settings(time_limit: float = 5.0, seed: int = 0, **options) -> SolveSettings:
    # these tests are of the seeds' opponent models: the worst case unless told otherwise
    # (the search's internal record of a call, as `dipsolve.search.strategy.settings` builds it)
    if "opponents" not in options and options.get("method", "agenda") in ("agenda", "cpsat") \
            and not options.get("background") and not options.get("samples") \
            and not options.get("predictor"):
        options["opponents"] = "worst"
    return SolveSettings(limits=Limits(time_limit=time_limit, seed=seed), **options)


def soon(seconds: float = 10.0) -> Deadline:
    return Deadline(seconds)


# -- legal orders --------------------------------------------------------------------------

def test_legal_orders_at_the_start():
    start = Position.initial()
    orders = strs(legal_orders(start, Unit("Turkey", "A", "CON")))
    assert orders == strs(["A CON H", "A CON - ANK", "A CON - BUL", "A CON - SMY", "A CON S F ANK",
                           "A CON S A SMY", "A CON S A SMY - ANK"])
    assert "A CON S F ANK - CON" not in orders          # a unit cannot support a move into its own place
    fleet = strs(legal_orders(start, Unit("Turkey", "F", "ANK")))
    assert "F ANK S F SEV - BLA" in fleet and "F ANK - SMY" not in fleet


def test_convoys_follow_real_fleet_chains():
    position = Position.build("S1901M", [Unit("England", "A", "LON"), Unit("England", "F", "ENG"),
                                         Unit("England", "F", "MAO"), Unit("France", "F", "NTH")], {})
    army = strs(legal_orders(position, Unit("England", "A", "LON")))
    assert "A LON - POR VIA" in army and "A LON - NAF VIA" in army and "A LON - NWY VIA" in army
    assert "A LON - TUN VIA" not in army                 # no fleet in the Western Mediterranean
    mao = strs(legal_orders(position, Unit("England", "F", "MAO")))
    assert "F MAO C A LON - POR" in mao and "F MAO C A LON - NWY" not in mao
    assert "F MAO S A LON - POR" in mao                  # supporting a convoyed move


def test_retreat_and_adjustment_orders():
    position = Position.build("F1901R", [Unit("Austria", "A", "RUM")], {},
                              [Dislodged(Unit("Russia", "F", "RUM"), "SER", ("BLA", "SEV"))])
    assert strs(legal_orders(position, Unit("Russia", "F", "RUM"))) == ["F RUM D", "F RUM R BLA", "F RUM R SEV"]
    winter = Position.build("W1901A", [Unit("Russia", "A", "MOS")],
                            {"MOS": "Russia", "STP": "Russia", "SEV": "Russia"})
    builds = strs(build_orders(winter, "Russia"))
    assert builds == strs([Build("A", "SEV"), Build("F", "SEV"), Build("A", "STP"),
                           Build("F", "STP/NC"), Build("F", "STP/SC"), Waive()])
    assert legal_orders(winter, Unit("Russia", "A", "MOS")) == []
    crowded = Position.build("W1901A", [Unit("Russia", "A", "MOS"), Unit("Russia", "A", "WAR")],
                             {"MOS": "Russia"})
    assert legal_orders(crowded, Unit("Russia", "A", "WAR")) == [Disband("A", "WAR")]


def test_useful_orders_and_the_maxims():
    start = Position.initial()
    useful = useful_orders(start, "Turkey")
    assert all(not str(o).endswith("SEV - BLA") for os in useful.values() for o in os)
    assert set(useful) == set(start.units_of("Turkey"))
    # attacking one's own unit that stays: never cut your own support
    assert useless(start, [Move("A", "SMY", "CON"), Hold("A", "CON")])
    assert useless(start, [Move("A", "SMY", "CON"), SupportHold("A", "CON", "F", "ANK")])
    assert not useless(start, [Move("A", "SMY", "CON"), Move("A", "CON", "BUL")])
    # supporting an own move that was not ordered
    assert useless(start, [SupportMove("A", "SMY", "A", "CON", "ANK"), Hold("A", "CON")])
    assert not useless(start, [SupportMove("A", "SMY", "A", "CON", "ANK"), Move("A", "CON", "ANK"),
                               Move("F", "ANK", "BLA")])


# -- the agenda search ---------------------------------------------------------------------

def test_the_turkish_example_agenda_tables():
    r = agenda_search(Position.initial(), "Turkey", turkish, trace=True)
    trace = r.trace
    assert trace[0] == "Agenda t = 0" and trace[1] == "  * {} = 815"
    t1 = trace.index(next(line for line in trace if line.startswith("Agenda t = 1")))
    t2 = trace.index(next(line for line in trace if line.startswith("Agenda t = 2")))
    table4 = trace[t1 + 1:t2]
    # Table 4: A Con - Bul first, F Ank - Bla second, A Smy - Arm third; the moves that
    # change nothing at 815, the "all hold" element among them
    assert table4[:3] == ["  * {A CON - BUL} = 926.667", "  * {F ANK - BLA} = 861.667",
                          "  * {A SMY - ARM} = 835"]
    for entry in ("{A CON - SMY}", "{F ANK - CON}", "{A CON - ANK}", "{A SMY - CON}",
                  "{A SMY - ANK}", "{A SMY - SYR}", "{A CON S F ANK}", "{A CON H, A SMY H, F ANK H}"):
        assert f"  * {entry} = 815" in table4
    # every useful order set was looked at: the plain (everybody holds) optimum
    assert r.exhausted and strs(r.best.orders) == ["A CON - BUL", "A SMY - ARM", "F ANK - CON"]
    # no order set is on the agenda twice (permutations are pruned)
    table: list[str] = []
    for line in trace + ["Agenda t = end"]:
        if line.startswith("Agenda t ="):
            assert len(table) == len(set(table))
            table = []
        elif line.startswith("  ") and "=" in line and not line.startswith("  tested"):
            table.append(line[4:])


def test_the_turkish_example_solved_as_the_seed_says():
    """Tested against the neighbours' orders (Russia's F Sevastopol and A Moscow,
    Austria's A Budapest) and judged by the worst outcome, the agenda search chooses the
    seed's opening: F Ankara - Constantinople scores better only while Russia holds."""
    s = solve(Position.initial(), "Turkey", settings(5, values={"Turkey": TURKEY}))
    assert strs(s.orders) == ["A CON - BUL", "A SMY - ARM", "F ANK - BLA"]
    assert s.status == "optimal" and s.bound == s.objective
    assert s.plain_value == pytest.approx(985)
    assert set(s.opponents) == {"Russia", "Austria"}
    assert s.objective < s.plain_value                  # points knocked off by the test


def test_massive_support_goes_on_the_agenda_as_one_step():
    """Section 4.3.1: England holds the Mid-Atlantic with two supports; only Turkey's
    attack with all three possible supports succeeds, and it is found at once."""
    units = [Unit("England", "F", "MAO"), Unit("England", "F", "IRI"), Unit("England", "F", "GAS"),
             Unit("Turkey", "F", "NAF"), Unit("Turkey", "F", "WES"), Unit("Turkey", "F", "SPA/SC"),
             Unit("Turkey", "F", "POR")]
    position = Position.build("S1910M", units, {"TUN": "Turkey"})
    england = [Hold("F", "MAO"), SupportHold("F", "IRI", "F", "MAO"), SupportHold("F", "GAS", "F", "MAO")]
    values = {"MAO": 1000}
    search = AgendaSearch(position, "Turkey", lambda p, w: influence(p, w, values),
                          background={"England": england})
    r = search.run()
    best = r.best.orders
    assert sum(isinstance(o, SupportMove) for o in best) == 3
    after = adjudicate(position, {"Turkey": list(best), "England": england}).next
    assert any(u.power == "Turkey" and u.location == "MAO" for u in after.units)
    # the root's children already hold the triple-supported attack, so the
    # depth-first dive takes it after one expansion
    kids = search.children(frozenset())
    assert any(sum(isinstance(o, SupportMove) for o in c) == 3 for c in kids)
    dive = AgendaSearch(position, "Turkey", lambda p, w: influence(p, w, values),
                        background={"England": england}, trace=True)
    first_test = next(line for line in dive.run().trace if line.startswith("  tested"))
    assert first_test.count(" S F ") == 3 and "the best so far" in first_test


def test_a_long_convoy_is_one_step():
    """Section 4.3.1: an army convoyed through two fleets to Kiel, where it stands next to
    Munich and the Ruhr (worth much, and out of a fleet's reach), is one step."""
    units = [Unit("England", "A", "LON"), Unit("England", "F", "NTH"), Unit("England", "F", "HEL"),
             Unit("Germany", "A", "BOH")]
    position = Position.build("S1902M", units, {"LON": "England"})
    values = {"MUN": 1000, "RUH": 1000}
    search = AgendaSearch(position, "England", lambda p, w: influence(p, w, values))
    kids = [strs(c) for c in search.children(frozenset())]
    assert ["A LON - KIE VIA", "F HEL C A LON - KIE", "F NTH C A LON - KIE"] in kids
    r = search.run()
    after = adjudicate(position, {"England": list(r.best.orders)}).next
    assert Unit("England", "A", "KIE") in after.units


@pytest.mark.parametrize("seed", range(6))
def test_an_exhausted_agenda_has_reached_every_useful_order_set(seed):
    """What ``optimal`` rests on: when the agenda runs empty, every complete set of
    useful orders that breaks no maxim was on it (checked against the product of the
    units' useful orders), so the best of them was tested."""
    position = random_position(seed, n_units=20 + seed)
    for power in position.powers():
        options = useful_orders(position, power)
        if not options or len(options) > 3:
            continue
        r = agenda_search(position, power, influence)
        assert r.exhausted
        reached = {frozenset(os) for _, os in r.complete}
        every = {frozenset(c) for c in itertools.product(*options.values()) if not useless(position, c)}
        assert reached == every, power


def test_beam_width_bounds_the_agenda():
    r = agenda_search(Position.initial(), "Turkey", turkish, beam_width=4, trace=True)
    rows = 0
    for line in r.trace + ["Agenda t = end"]:
        if line.startswith("Agenda t ="):
            assert rows <= 4 + 40      # children are added, then the agenda is cut back
            rows = 0
        elif line.startswith("  ") and not line.startswith("  tested"):
            rows += 1
    full = agenda_search(Position.initial(), "Turkey", turkish)
    assert not r.exhausted and r.evaluations < full.evaluations


def test_anytime_an_answer_even_with_no_time():
    r = agenda_search(Position.initial(), "Turkey", turkish, deadline=Deadline(0))
    assert r.timed_out and len(r.best.orders) == 3


def test_seeds_are_tested():
    seed = [Move("F", "ANK", "ARM"), Move("A", "SMY", "SYR"), Hold("A", "CON")]
    good = [Move("A", "CON", "BUL"), Move("F", "ANK", "BLA"), Move("A", "SMY", "ARM")]
    r = agenda_search(Position.initial(), "Turkey", turkish, seeds=[seed, good])
    assert any(strs(t.orders) == strs(seed) for t in r.tested)
    assert any(strs(t.orders) == strs(good) for t in r.tested)
    assert r.exhausted and strs(r.best.orders) == ["A CON - BUL", "A SMY - ARM", "F ANK - CON"]
    # a seed is there from the start: with no time at all, the best seed is the answer
    quick = agenda_search(Position.initial(), "Turkey", turkish, seeds=[good],
                          deadline=Deadline(0))
    assert quick.timed_out and strs(quick.best.orders) == strs(good)


def test_defaults_replace_all_hold():
    last_turn = [Move("A", "CON", "BUL")]
    search = AgendaSearch(Position.initial(), "Turkey", turkish, defaults=last_turn)
    assert search.value(frozenset()) == pytest.approx(926 + 2 / 3)


# -- opponents -----------------------------------------------------------------------------

def test_relevance():
    start = Position.initial()
    assert relevant_powers(start, "Turkey") == ["Russia"]
    assert relevant_powers(start, "England") == ["France"]       # F Brest reaches the Channel
    from dipsolve.search.opponents import relevant_units
    assert set(relevant_units(start, "Turkey", radius=2)) == {"Austria", "Russia"}


def test_factorized_equals_joint_with_one_opponent():
    start = Position.initial()
    model = build_model(start, "Turkey", turkish, deadline=soon(10), likely=2, hostile=2)
    assert list(model.candidates) == ["Russia"]
    judge = Judge(start, "Turkey", turkish, model)
    for orders in ([Move("A", "CON", "BUL"), Move("F", "ANK", "BLA"), Move("A", "SMY", "ARM")],
                   [Hold("A", "CON"), Hold("F", "ANK"), Hold("A", "SMY")]):
        orders = tuple(orders)
        for how in ("worst", "expected"):
            assert judge.factorized(orders, how) == pytest.approx(judge.joint(orders, how))


def test_agenda_with_a_test_finds_the_best_tested_set():
    """With every useful set examined, the answer is the best of all of them under the
    test (checked against every combination of the three units' useful orders)."""
    start = Position.initial()
    model = build_model(start, "Turkey", turkish, deadline=soon(10),
                        likely=2, hostile=2, radius=2)
    judge = Judge(start, "Turkey", turkish, model)
    r = agenda_search(start, "Turkey", turkish, test=judge.test("worst"))
    assert r.exhausted
    best = max(judge.joint(tuple(c), "worst")
               for c in itertools.product(*useful_orders(start, "Turkey").values())
               if not useless(start, c))
    assert r.best.value == pytest.approx(best)


def test_a_predictor_adds_its_guess_and_sets_are_not_repeated():
    start = Position.initial()
    guess = [Move("F", "SEV", "BLA"), Move("A", "MOS", "UKR"), Hold("A", "WAR")]
    model = build_model(start, "Turkey", turkish, deadline=soon(10), likely=2,
                        hostile=2, radius=2, predictor=lambda pos, power: guess if power == "Russia" else [])
    russia = [os for os, _ in model.candidates["Russia"]]
    assert russia[0] == (Move("A", "MOS", "UKR"), Move("F", "SEV", "BLA"))   # relevant units only
    assert len(set(russia)) == len(russia)
    assert sum(w for _, w in model.candidates["Russia"]) == pytest.approx(1)


def test_too_many_scenarios_are_replaced_by_a_stand_in():
    position = random_position(3, n_units=30)
    model = build_model(position, "Germany", influence, deadline=soon(2), likely=2,
                        hostile=2, radius=2)
    full = model.joint_size
    assert full > 50
    stand_in = model.scenarios(limit=50)
    depth = max(len(c) for c in model.candidates.values())
    assert len(stand_in) == depth + sum(len(c) for c in model.candidates.values())
    assert sum(w for w, _ in stand_in) == pytest.approx(1)
    assert len(model.scenarios()) == full


# -- solve -----------------------------------------------------------------------------------

@pytest.mark.parametrize("method", [m for m in METHODS if m != "cpsat"])
def test_every_method_returns_orders_for_every_unit(method):
    position = random_position(7, n_units=26)
    for power in ("France", "Russia"):
        s = solve(position, power, settings(0.4, method=method))
        assert s.status in STATUSES and s.method == method
        units = {(u.kind, u.location) for u in position.units_of(power)}
        assert {(o.kind, o.location) for o in s.orders} == units
        out = adjudicate(position, {power: list(s.orders)})
        assert all(r.reason is not Reason.ILLEGAL for r in out.results if r.power == power)


def test_the_search_leaves_cpsat_to_the_application_layer():
    # dipsolve.search sits below dipsolve.models: asked for "cpsat" without the method
    # handed in, it says where the method is wired
    with pytest.raises(MethodUnavailable, match="dipsolve.solve"):
        solve(Position.initial(), "Turkey", settings(2, method="cpsat"))


def test_a_method_handed_in_runs_on_the_task():
    from dipsolve.search.methods import Task, run_agenda
    seen: list[Task] = []

    def method(task: Task):
        seen.append(task)
        return run_agenda(task)
    s = solve(Position.initial(), "Turkey", settings(1, method="cpsat", opponents="hold"), method=method)
    (task,) = seen
    assert task.power == "Turkey" and task.how == "hold" and task.method == "cpsat"
    assert s.method == "cpsat" and len(s.orders) == 3
    # the method's deadline ends before the call's: a slice is kept for the replay
    assert task.deadline.end < task.call.end


def test_solve_a_retreat():
    # in a Fall retreat, retreating into an empty center takes it
    position = Position.build("F1901R", [Unit("Austria", "A", "RUM"), Unit("Russia", "A", "MOS")],
                              {"SEV": "Russia", "MOS": "Russia", "RUM": "Austria"},
                              [Dislodged(Unit("Russia", "F", "RUM"), "SER", ("BLA", "BUL/EC"))])
    s = solve(position, "Russia", settings(1))
    assert strs(s.orders) == ["F RUM R BUL/EC"] and s.status == "optimal"
    best = max(influence(adjudicate(position, {"Russia": [o]}).next, "Russia")
               for o in legal_orders(position, Unit("Russia", "F", "RUM")))
    assert s.objective == pytest.approx(best)


def test_solve_builds_and_removals():
    winter = Position.build("W1901A", [Unit("Russia", "A", "MOS"), Unit("Turkey", "A", "UKR")],
                            {"MOS": "Russia", "STP": "Russia", "SEV": "Russia", "WAR": "Russia"})
    s = solve(winter, "Russia", settings(2))
    assert len([o for o in s.orders if isinstance(o, Build)]) == 3 and s.status == "optimal"
    crowded = Position.build("W1901A", [Unit("Russia", "A", "MOS"), Unit("Russia", "A", "WAR"),
                                        Unit("Russia", "A", "UKR"), Unit("Russia", "F", "SEV")],
                             {"MOS": "Russia", "SEV": "Russia"})
    s = solve(crowded, "Russia", settings(2))
    assert len(s.orders) == 2 and all(isinstance(o, Disband) for o in s.orders)
    best = max(influence(adjudicate(crowded, {"Russia": [Disband(u.kind, u.location) for u in pair]}).next,
                         "Russia")
               for pair in itertools.combinations(crowded.units_of("Russia"), 2))
    assert s.objective == pytest.approx(best)


def test_nothing_to_order():
    s = solve(Position.build("S1905M", [Unit("Russia", "A", "MOS")], {"MOS": "Russia"}), "Turkey",
              settings(1))
    assert s.orders == () and s.status == "optimal"


def test_bad_settings():
    from dipsolve.core.errors import DipsolveRuleError, DipsolveSyntaxError
    from dipsolve.search.strategy import Agenda, CpSat, Hold as HoldModel, Strategy, named
    with pytest.raises(DipsolveSyntaxError, match="unknown method"):
        SolveSettings(method="chess")
    with pytest.raises(DipsolveSyntaxError, match="unknown method"):
        named("chess")
    with pytest.raises(ValueError, match="time limit"):
        settings(0)
    with pytest.raises(DipsolveSyntaxError, match="beam"):
        SolveSettings(beam=0)
    with pytest.raises(DipsolveSyntaxError, match="beam"):
        Strategy(Agenda(beam=0))
    with pytest.raises(DipsolveRuleError, match="background"):
        SolveSettings(method="cpsat", background={"Russia": [Hold("A", "MOS")]})
    with pytest.raises(DipsolveRuleError, match="background"):
        Strategy(CpSat(), HoldModel(background={"Russia": [Hold("A", "MOS")]}))


# -- the sampled opponent model -----------------------------------------------------------------

def test_samples_are_joint_draws_of_the_policy_replayed_by_their_seed():
    from dipsolve.algorithms import dumbbot
    from dipsolve.search.opponents import sample_model
    position = random_position(11, n_units=24)
    model = sample_model(position, "France", dumbbot.orders, samples=6, seed=3)
    again = sample_model(position, "France", dumbbot.orders, samples=6, seed=3)
    assert model.samples == again.samples and len(model.samples) == 6
    others = {u.power for u in position.units} - {"France"}
    for draw in model.samples:
        assert set(draw) == others and "France" not in draw
        for p, orders in draw.items():          # every unit of every other power ordered
            assert {(o.kind, o.location) for o in orders} == \
                {(u.kind, u.location) for u in position.units_of(p)}
    assert sum(w for w, _ in model.scenarios()) == pytest.approx(1)
    for p, cands in model.candidates.items():
        assert sum(w for _, w in cands) == pytest.approx(1)
    assert model.joint_size == 6


def test_sampled_solve_reports_the_mean_over_the_draws_it_was_judged_against():
    # the value of the answer is honest: adjudicate the answer against every draw
    # again (the same seed draws the same orders) and average the evaluation
    from dipsolve.algorithms import dumbbot
    from dipsolve.search.opponents import sample_model
    position = random_position(5, n_units=24)
    for power in ("Germany", "Turkey"):
        # a clock of its own (5,000 looks at it), so a busy machine draws no fewer samples
        s = solve(position, power, settings(5, seed=9, opponents="sampled", samples=5),
                  deadline=Deadline(5, clock=ticking(0.001)))
        model = sample_model(position, power, dumbbot.orders, samples=5, seed=9)
        values = []
        for w, draw in model.scenarios():
            orders = {p: list(os) for p, os in draw.items()}
            orders[power] = list(s.orders)
            values.append(w * influence(adjudicate(position, orders).next, power))
        assert s.objective == pytest.approx(sum(values))
        assert set(s.opponents) == {u.power for u in position.units} - {power}


def test_sampled_best_response_beats_holding_against_the_policy():
    # against the very draws it is judged on, the answer is at least as good as the
    # all-hold set and as DumbBot's own orders for the power (both are among its seeds)
    from dipsolve.algorithms import dumbbot
    from dipsolve.search.opponents import Judge, sample_model
    position = random_position(21, n_units=26)
    power = "Italy"
    s = solve(position, power, settings(1.0, seed=1, opponents="sampled", samples=4))
    model = sample_model(position, power, dumbbot.orders, samples=4, seed=1)
    judge = Judge(position, power, influence, model)
    hold = tuple(Hold(u.kind, u.location) for u in position.units_of(power))
    assert s.objective >= judge.joint(hold, "expected") - 1e-9
    import random
    own = tuple(dumbbot.orders(position, power, random.Random("dipsolve-seed:1:0")))
    assert s.objective >= judge.joint(own, "expected") - 1e-9


def test_polish_improves_a_set_one_order_at_a_time_against_every_draw():
    # from everybody holding, the polish finds better sets; what it returns is what the
    # test says of it, every order is legal, and a support backs what its unit of ours does
    import random
    from dipsolve.algorithms import dumbbot
    from dipsolve.search.methods import _polish
    from dipsolve.search.opponents import sample_model
    for seed, power in ((21, "Italy"), (5, "Germany")):
        position = random_position(seed, n_units=26)
        model = sample_model(position, power, dumbbot.orders, samples=4, seed=seed)
        judge = Judge(position, power, influence, model)
        test = judge.test("expected")
        hold = tuple(Hold(u.kind, u.location) for u in position.units_of(power))
        orders, value, changed = _polish(position, power, hold, 0.0, test, soon(), random.Random(seed))
        assert changed >= 1 and value > test(hold)
        assert value == pytest.approx(test(orders))
        assert {(o.kind, o.location) for o in orders} == {(o.kind, o.location) for o in hold}
        for o in orders:
            assert o in legal_orders(position, next(u for u in position.units_of(power)
                                                    if u.location == o.location))
        given = {o.location: o for o in orders}
        for o in orders:
            if isinstance(o, SupportMove):
                backed = given[o.supported_location]
                assert isinstance(backed, Move) and backed.target == o.target
            elif isinstance(o, SupportHold):
                assert not isinstance(given[o.supported_location], Move)
        # a polished set cannot be polished further: no single order of it gains
        again, v2, more = _polish(position, power, orders, value, test, soon(), random.Random(0))
        assert more == 0 and again == orders and v2 == value


def test_polish_stops_at_the_deadline_with_the_set_it_was_given():
    import random
    from dipsolve.algorithms import dumbbot
    from dipsolve.search.methods import _polish
    from dipsolve.search.opponents import sample_model
    position = random_position(21, n_units=26)
    model = sample_model(position, "Italy", dumbbot.orders, samples=4, seed=1)
    judge = Judge(position, "Italy", influence, model)
    hold = tuple(Hold(u.kind, u.location) for u in position.units_of("Italy"))
    spent = Deadline(0.5, clock=ticking())            # expired at the first look
    assert _polish(position, "Italy", hold, 123.0, judge.test("expected"), spent,
                   random.Random(0)) == (hold, pytest.approx(judge.joint(hold)), 0)


def test_a_sampled_answer_is_polished_and_says_so():
    # the agenda's best (its partial sets valued against the first draw), then polished
    # against all of them: the trace says what the polish changed, the answer keeps the
    # honest mean over the draws, and a polished answer is never called optimal
    from dipsolve.algorithms import dumbbot
    from dipsolve.search.opponents import sample_model
    position = random_position(5, n_units=26)
    s = solve(position, "England", settings(2.0, seed=1, opponents="sampled", samples=4, trace=True),
              deadline=Deadline(2.0, clock=ticking(0.0002)))
    polished = [line for line in s.trace if line.startswith("polished:")]
    assert len(polished) == 1 and s.status != "optimal"
    before, after = (float(x) for x in polished[0].split(", ")[1].split(" -> "))
    judge = Judge(position, "England", influence,
                  sample_model(position, "England", dumbbot.orders, samples=4, seed=1))
    assert s.objective == pytest.approx(judge.joint(tuple(s.orders)))
    assert s.objective == pytest.approx(after, abs=0.01)
    assert after > before


@pytest.mark.parametrize("method", ["minimax", "expectimax"])
def test_every_method_takes_the_sampled_model(method):
    position = random_position(8, n_units=22)
    s = solve(position, "England", settings(1.0, method=method, samples=4))
    assert s.status in STATUSES and sum(s.opponents.values()) >= 1
    assert {(o.kind, o.location) for o in s.orders} == \
        {(u.kind, u.location) for u in position.units_of("England")}


def test_sampled_arguments():
    from dipsolve.search.strategy import named
    with pytest.raises(ValueError, match="samples"):
        SolveSettings(opponents="sampled", samples=-1)
    with pytest.raises(ValueError, match="samples"):
        named("agenda", "sampled", samples=-1)
    with pytest.raises(ValueError, match="equilibrium, worst, expected, sampled, hold"):
        SolveSettings(opponents="paranoid")
    with pytest.raises(ValueError, match="opponents must be one of learned, equilibrium, sampled"):
        named("agenda", "paranoid")


# -- one deadline, set-up included ----------------------------------------------------------

def ticking(step: float = 1.0):
    """A clock that moves on ``step`` seconds every time it is read: a solve on it runs out
    of time after a handful of looks at the clock, wherever they are."""
    return itertools.count(0.0, step).__next__


def _retreat() -> Position:
    return Position.build("F1901R", [Unit("Austria", "A", "RUM"), Unit("Russia", "A", "MOS")],
                          {"SEV": "Russia", "MOS": "Russia", "RUM": "Austria"},
                          [Dislodged(Unit("Russia", "F", "RUM"), "SER", ("BLA", "BUL/EC", "UKR"))])


@pytest.mark.parametrize("method, opponents", [("agenda", None), ("agenda", "expected"),
                                               ("agenda", "sampled"), ("minimax", None),
                                               ("expectimax", None), ("minimax", "sampled")])
def test_out_of_time_in_set_up_still_orders_every_unit(method, opponents):
    # the clock passes the deadline while the opponent model is being built (or
    # sampled): every later step sees it, and the answer is every unit's order, unproven
    position = random_position(4, n_units=28)
    full = solve(position, "France", settings(0.5, method=method, opponents=opponents))
    s = solve(position, "France", settings(3, method=method, opponents=opponents),
              deadline=Deadline(3, clock=ticking()))
    assert s.status == "timed out" and s.bound is None
    assert {(o.kind, o.location) for o in s.orders} == \
        {(u.kind, u.location) for u in position.units_of("France")}
    assert s.nodes < full.nodes and s.nodes <= 12
    out = adjudicate(position, {"France": list(s.orders)})
    assert all(r.reason is not Reason.ILLEGAL for r in out.results if r.power == "France")


def test_out_of_time_in_retreats_and_adjustments_still_answers():
    retreat = solve(_retreat(), "Russia", settings(3), deadline=Deadline(1, clock=ticking()))
    assert len(retreat.orders) == 1 and retreat.status == "timed out"
    crowded = Position.build("W1901A", [Unit("Russia", "A", "MOS"), Unit("Russia", "A", "WAR"),
                                        Unit("Russia", "A", "UKR"), Unit("Russia", "F", "SEV")],
                             {"MOS": "Russia", "SEV": "Russia"})
    removals = solve(crowded, "Russia", settings(3), deadline=Deadline(1, clock=ticking()))
    assert len(removals.orders) == 2 and all(isinstance(o, Disband) for o in removals.orders)
    assert removals.status == "timed out"


def test_the_seconds_are_the_whole_call_on_the_callers_clock():
    # a clock that stands still: the search runs to the end and took no time on it
    s = solve(Position.initial(), "Turkey", settings(opponents="hold"),
              deadline=Deadline(5, clock=lambda: 7.0))
    assert s.seconds == 0.0 and s.status == "optimal"


def test_a_solution_is_a_result():
    from dipsolve.core.results import Result, Status
    s = solve(Position.initial(), "Turkey", settings(2, values={"Turkey": TURKEY}, opponents="hold"))
    assert isinstance(s, Result) and s.status is Status.OPTIMAL and s.proven
    obj = s.to_json()
    assert list(obj)[:4] == ["status", "objective", "bound", "seconds"]
    # everybody else holding, F Ankara - Constantinople is worth most (see the seed's example)
    assert obj["status"] == "optimal" and obj["objective"] == pytest.approx(1001 + 2 / 3)
    assert obj["orders"] == ["A CON - BUL", "A SMY - ARM", "F ANK - CON"]
    assert obj["power"] == "Turkey" and obj["phase"] == "S1901M" and obj["method"] == "agenda"
    assert {"nodes", "plain_value", "opponents", "trace"} <= set(obj)


# -- the application layer: dipsolve.api --------------------------------------------------------

def test_cpsat_through_the_application_layer():
    from dipsolve import api
    from dipsolve.search.strategy import CpSat, Strategy, Worst
    s = api.solve(Position.initial(), "Turkey", Strategy(CpSat(), Worst()), limits=Limits(time_limit=4),
                  trace=True)
    assert s.method == "cpsat" and len(s.orders) == 3 and s.status in STATUSES
    assert any(line.startswith("CP-SAT over") for line in s.trace)


def test_cpsat_without_time_to_load_ortools_gives_the_agenda_answer_timed_out(monkeypatch):
    from dipsolve import api
    from dipsolve.models import order_method
    monkeypatch.setattr(order_method, "loaded", lambda: False)
    monkeypatch.setattr(order_method, "load", lambda: pytest.fail("OR-Tools was loaded"))
    # 1 s on a clock that stands still: less than OR-Tools needs to load, all of it for
    # the agenda search
    from dipsolve.search.strategy import CpSat, Hold as HoldModel, Influence, Strategy
    s = api.solve(Position.initial(), "Turkey",
                  Strategy(CpSat(), HoldModel(), Influence(values={"Turkey": TURKEY})),
                  limits=Limits(time_limit=1), trace=True, deadline=Deadline(1, clock=lambda: 0.0))
    assert strs(s.orders) == ["A CON - BUL", "A SMY - ARM", "F ANK - CON"]
    assert s.status == "timed out" and s.bound is None and s.method == "cpsat"
    assert "no time to load OR-Tools" in s.trace[-1]


def test_the_search_imports_no_model():
    # the layering: dipsolve.search and dipsolve.algorithms.evaluation sit below dipsolve.models
    import subprocess
    import sys
    code = ("import sys\n"
            "from dipsolve.core.position import Position\n"
            "from dipsolve.core.results import Limits\n"
            "from dipsolve.search.methods import SolveSettings, solve\n"
            "for method in ('agenda', 'minimax'):\n"
            "    solve(Position.initial(), 'Turkey', SolveSettings(method=method, opponents='sampled',"
            " limits=Limits(time_limit=0.3)))\n"
            "print(sorted(m for m in sys.modules if m.startswith(('dipsolve.models', 'ortools'))))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("opponents", ["hold", "sampled", "expected"])
def test_a_search_leaves_no_cycles_for_the_collector(opponents):
    """Everything a search made is freed when it returns (reference counting), none of
    it left to the cyclic collector: a full collection of a whole agenda, tens of
    thousands of nodes, took 0.1 s inside some later phase's time limit."""
    import gc
    position = random_position(3)
    power = max(position.powers(), key=lambda p: len(position.units_of(p)))
    s = settings(0.3, opponents=opponents, **({"samples": 4} if opponents == "sampled" else {}))
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        solve(position, power, s)
        gc.collect()
        left = [o for o in gc.garbage if type(o).__name__ in ("_Node", "frozenset", "AgendaSearch")]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()
    assert left == []
