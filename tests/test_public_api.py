"""The public API never answers a wrong question (issue 27).

Every function of ``dipsolve.__all__`` is called with hostile arguments (Hypothesis):
it may answer, or refuse with an error of the family, never with another exception (an
`AttributeError` from deep inside, a bare `ValueError`, a `KeyError`) and never with a
`DipsolveInternalError` (a bug).  And no function that takes a power or a province
answers for a misspelt one: it refuses, naming the closest names.
"""

from __future__ import annotations

import inspect
import math
import random
import reprlib
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dipsolve
from dipsolve.core.map import POWERS, power_name, standard_map

START = dipsolve.Position.initial()
RETREAT = dipsolve.Position.from_file(dipsolve.example("f1901r.dip"))
MAP = standard_map()

#: examples each function is called with: a few in the default run, the profile's under
#: ``--hypothesis-profile=long`` (CONTRIBUTING.md: the deep fuzz run)
EXAMPLES = 25 if settings.default.max_examples <= 1000 else settings.default.max_examples

#: public functions left out, and why
LEFT_OUT = {
    "play_daide": "connects to the host it is given: tested against a local server in test_daide_client",
    "example": "a path in the checkout, checked in test_api",
}
#: keyword arguments every call gets, unless Hypothesis draws the parameter itself:
#: short enough that a call that is understood still ends in a test's time
QUICK = {"time_limit": 0.3, "until": 1901, "games": 1, "max_moves": 4}


def public_functions() -> list[str]:
    return sorted(n for n in dipsolve.__all__ if n not in LEFT_OUT and not n.startswith("_")
                  and callable(getattr(dipsolve, n)) and not inspect.isclass(getattr(dipsolve, n)))


def misspelt(name: str) -> st.SearchStrategy[str]:
    """``name`` with one letter dropped, doubled, changed or two swapped."""
    def edit(draw_i: tuple[int, int, str]) -> str:
        i, how, ch = draw_i
        i %= len(name)
        if how == 0:
            return name[:i] + name[i + 1:]
        if how == 1:
            return name[:i] + ch + name[i:]
        if how == 2:
            return name[:i] + ch + name[i + 1:]
        j = min(i + 1, len(name) - 1)
        return name[:i] + name[j] + name[i] + name[j + 1:] if j > i else name + ch
    return st.tuples(st.integers(0, 40), st.integers(0, 3),
                     st.sampled_from("aeiouxqz")).map(edit)


def unknown_power() -> st.SearchStrategy[str]:
    return st.sampled_from(POWERS + ("Austrian", "TUR")).flatmap(misspelt).filter(
        lambda s: power_name(s) is None)


def unknown_province() -> st.SearchStrategy[str]:
    names = sorted({p.name for p in MAP.provinces.values()})
    return st.sampled_from(names).flatmap(misspelt).filter(
        lambda s: MAP.province(s) is None and MAP.location(s) is None and power_name(s) is None)


def hostile() -> st.SearchStrategy[object]:
    """Values a careless or hostile caller hands a function."""
    text = st.text(max_size=30)
    plain = st.one_of(
        st.none(), st.booleans(), st.integers(-10**20, 10**20),
        st.floats(allow_nan=True, allow_infinity=True), text, st.binary(max_size=10),
        unknown_power(), unknown_province(),
        st.sampled_from(["France", "fra", "Paris", "A PAR - BUR", "F STP/SC", "", " ",
                         "England: F LON - NTH", "S1901M", "start.dip", "/dev/null", "nosuch",
                         "dipsolve", "greedy", "-1", "1e400"]),
        st.just(START), st.just(RETREAT), st.just(START.units[0]),
        st.just(dipsolve.Move("A", "PAR", "BUR")), st.just(dipsolve.Move("A", "XYZ", "BUR")),
        st.just(dipsolve.Waive()), st.just(object()), st.just(random.Random(1)),
        st.just(dipsolve.Limits(time_limit=0.3)),
    )
    return st.one_of(plain, st.lists(plain, max_size=3),
                     st.dictionaries(st.one_of(text, unknown_power(), st.just("France")),
                                     plain, max_size=2))


def _acceptable(e: BaseException) -> bool:
    return isinstance(e, dipsolve.DipsolveError) and not isinstance(e, dipsolve.DipsolveInternalError)


#: the public functions whose hostile calls take long (an exhaustive search on what they
#: are given): run by CI (``--all``)
SLOW_FUNCTIONS = {"solve_worst_case"}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW_FUNCTIONS else n
                                  for n in public_functions()])
@settings(max_examples=EXAMPLES, deadline=timedelta(seconds=30),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_a_public_function_given_hostile_arguments_raises_only_the_family(name, data, tmp_path_factory):
    fn = getattr(dipsolve, name)
    params = [p for p in inspect.signature(fn).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = sum(p.default is p.empty for p in params)
    count = data.draw(st.integers(required, len(params)), label="arguments")
    args = [data.draw(hostile(), label=params[i].name) for i in range(count)]
    kwargs = {k: v for k, v in QUICK.items()
              if any(p.name == k for p in params[count:])
              or k in inspect.signature(fn).parameters and inspect.signature(fn).parameters[k].kind
              == inspect.Parameter.KEYWORD_ONLY}
    if "path" in {p.name for p in params[:count]}:     # never write into the checkout
        i = [p.name for p in params].index("path")
        if isinstance(args[i], str) and args[i] not in ("/dev/null", "nosuch"):
            args[i] = str(tmp_path_factory.mktemp("out") / "x.svg")
    try:
        fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - the property is about which exceptions
        assert _acceptable(e), f"{name}{reprlib.repr(tuple(args))}: {type(e).__name__}: {e}"


POWER_FUNCTIONS = sorted(n for n in public_functions()
                         if "power" in inspect.signature(getattr(dipsolve, n)).parameters
                         and n not in ("format_order",))


@pytest.mark.parametrize("name", POWER_FUNCTIONS)
@settings(max_examples=10, deadline=timedelta(seconds=30),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(power=unknown_power())
def test_no_public_function_answers_for_a_misspelt_power(name, power):
    fn = getattr(dipsolve, name)
    params = list(inspect.signature(fn).parameters)
    args: dict[str, object] = {"power": power}
    if "position" in params:
        args["position"] = START
    if "rng" in params:
        args["rng"] = random.Random(0)
    if "order" in params:
        args["order"] = dipsolve.Move("A", "PAR", "BUR")
    if name == "play_daide":
        pytest.skip("connects")
    with pytest.raises(dipsolve.DipsolveSyntaxError, match="unknown power") as e:
        fn(**args, **{k: v for k, v in QUICK.items() if k in params})
    assert "expected one of Austria" in str(e.value)


@settings(max_examples=20, deadline=timedelta(seconds=30),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(power=unknown_power(), province=unknown_province())
def test_misspelt_names_in_orders_positions_and_rules_are_refused(power, province):
    refuse = (dipsolve.DipsolveSyntaxError,)
    calls = [
        lambda: dipsolve.adjudicate(START, {power: ["A PAR - BUR"]}),
        lambda: dipsolve.adjudicate(START, [(power, dipsolve.Move("A", "PAR", "BUR"))]),
        lambda: dipsolve.adjudicate(START, {"France": [dipsolve.Move("A", province, "BUR")]}),
        lambda: dipsolve.adjudicate(START, {"France": [f"A PAR - {province}"]}),
        lambda: dipsolve.adjudicate(START, f"France: A {province} - BUR"),
        lambda: dipsolve.legal_orders(START, province),
        lambda: dipsolve.order_problems(START, {power: [dipsolve.Move("A", "PAR", "BUR")]}),
        lambda: dipsolve.order_problem(START, "France", dipsolve.Move("A", province, "BUR")),
        lambda: START.units_of(power),
        lambda: START.centers_of(power),
        lambda: START.adjustment(power),
        lambda: START.alone([power]),
        lambda: dipsolve.render(START, {power: []}),
    ]
    for call in calls:
        with pytest.raises(refuse):
            call()


def test_the_parts_fit():
    """`adjudicate` takes a mapping, `parse_orders`' list, orders alone or text, all alike;
    `legal_orders` a unit, a province or a power; the names in any spelling."""
    text = "France: A PAR - BUR\nGermany: A MUN - BUR\n"
    want = dipsolve.adjudicate(START, {"France": [dipsolve.Move("A", "PAR", "BUR")],
                                       "Germany": [dipsolve.Move("A", "MUN", "BUR")]}).next
    assert want.unit_in["PAR"].power == "France"          # a standoff in Burgundy
    shapes = [text, dipsolve.parse_orders(text), {"FRA": ["a par - bur"], "german": ["Munich -> Burgundy"]},
              [dipsolve.Move("A", "PAR", "BUR"), dipsolve.Move("A", "MUN", "BUR")],
              {"france": "A PAR - BUR", "GER": [dipsolve.Move("A", "mun", "bur")]}]
    for orders in shapes:
        assert dipsolve.adjudicate(START, orders).next == want, orders
    unit = START.unit_in["PAR"]
    by_unit = dipsolve.legal_orders(START, unit)
    assert dipsolve.legal_orders(START, "paris") == by_unit
    everything = dipsolve.legal_orders(START, "France")
    assert set(by_unit) <= set(everything) and len(everything) > len(by_unit)
    assert START.units_of("AUS") == START.units_of("Austria") == START.units_of("austrian")
    # "ENG" is the English Channel first; the power is said in full
    with pytest.raises(dipsolve.DipsolveRuleError, match="no unit in ENG"):
        dipsolve.legal_orders(START, "ENG")
    assert {o.location for o in dipsolve.legal_orders(START, "England")} == {"LON", "EDI", "LVP"}


def test_an_order_text_that_names_its_power_is_given_by_it():
    """An order's text with its power (``"Germany: A MUN - BUR"``, DAIDE) gives the order
    to that power in a list, and is refused among another power's orders (issue 49: the
    power was dropped, and the order went to whoever the position said)."""
    want = dipsolve.adjudicate(START, {"France": ["A PAR - BUR"], "Germany": ["A MUN - BUR"]}).next
    assert dipsolve.adjudicate(START, ["France: A PAR - BUR", "( GER AMY MUN ) MTO BUR"]).next == want
    assert dipsolve.adjudicate(START, {"France": ["France: A PAR - BUR"],
                                       "Germany": [("( GER AMY MUN ) MTO BUR")]}).next == want
    assert dipsolve.adjudicate(START, [("France", "FRA: A PAR - BUR"), (None, "Germany: A MUN - BUR")]).next == want
    with pytest.raises(dipsolve.DipsolveSyntaxError,
                       match=r"order of France: 'Germany: A MUN - BUR' is an order of Germany, given as France's"):
        dipsolve.adjudicate(START, {"France": ["Germany: A MUN - BUR"]})
    with pytest.raises(dipsolve.DipsolveSyntaxError, match="is an order of France, given as Germany's"):
        dipsolve.adjudicate(START, [("Germany", "( FRA AMY PAR ) MTO BUR")])
    assert dipsolve.order_problem(START, "FRA", "France: A PAR - PIC") is None
    with pytest.raises(dipsolve.DipsolveSyntaxError, match="is an order of Germany, given as France's"):
        dipsolve.order_problem(START, "France", "Germany: A MUN - BUR")


def test_the_family_holds_the_errors_that_escaped_it():
    from dipsolve.models.movement_rules import ParadoxError
    from dipsolve.play.games import GameLost
    assert issubclass(ParadoxError, dipsolve.DipsolveError) and issubclass(ParadoxError, ValueError)
    assert issubclass(GameLost, dipsolve.DipsolveError) and issubclass(GameLost, RuntimeError)
    with pytest.raises(dipsolve.DipsolveFileError, match="nosuch: cannot read") as e:
        dipsolve.Position.from_file("nosuch")
    assert isinstance(e.value, FileNotFoundError.__mro__[1])      # still an OSError
    with pytest.raises(dipsolve.DipsolveSyntaxError, match="unknown bot 'greedyy'"):
        dipsolve.make_bot("greedyy")
    with pytest.raises(dipsolve.DipsolveArgumentError, match="expected a Position"):
        dipsolve.adjudicate("start.dip", {})
    assert math.isfinite(dipsolve.influence(START, "tur"))
