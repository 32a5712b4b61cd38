"""`import dipsolve` is the public API: every name it lists is there, and it loads fast."""

import subprocess
import sys

import pytest

import dipsolve
from dipsolve import strategy as S
from dipsolve.search.methods import SolveSettings
from dipsolve.search.strategy import named, settings


@pytest.mark.parametrize("name", dipsolve.__all__)
def test_every_public_name_resolves(name):
    assert getattr(dipsolve, name) is not None
    assert name in dir(dipsolve)


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'solver'"):
        dipsolve.solver  # noqa: B018


def test_the_facade_names_what_a_user_needs():
    needed = {"Map", "Position", "Phase", "Unit", "Hold", "Move", "SupportHold", "SupportMove",
              "Convoy", "Retreat", "Disband", "Build", "Waive", "adjudicate", "Outcome",
              "parse_order", "format_order", "solve", "solve_path", "solve_equilibrium",
              "render", "DipsolveError", "DipsolveSyntaxError", "DipsolveRuleError",
              "DipsolveUnavailable", "DipsolveInternalError", "Result", "Status", "Limits"}
    assert needed <= set(dipsolve.__all__)
    assert callable(dipsolve.render) and callable(dipsolve.Position.from_text)


def test_import_dipsolve_loads_no_heavy_library():
    code = ("import sys, dipsolve\n"
            "heavy = {'lark', 'ortools', 'numpy', 'pulp', 'constraint', 'dipsolve.grammar',"
            " 'dipsolve.models', 'dipsolve.search'}\n"
            "print(sorted(m for m in heavy if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_version_comes_from_the_package_metadata():
    from importlib.metadata import version
    assert dipsolve.__version__ == version("dipsolve")


def test_every_solver_takes_the_one_limits_object():
    start = dipsolve.Position.initial()
    tiny = dipsolve.Limits(time_limit=0.001)
    path = dipsolve.solve_path(start, "England", 18, limits=tiny)
    assert path.status == "timed out" and path.plan == ()
    winter = dipsolve.Position.from_file(dipsolve.example("adjustments/trieste.dip"))
    eq = dipsolve.solve_equilibrium(winter, dipsolve.evaluator("influence"),
                                    limits=dipsolve.Limits(time_limit=30))
    assert eq.status == "optimal" and eq.epsilon <= 1e-6
    worst = dipsolve.solve_worst_case(limits=tiny)
    assert worst.status == "timed out"
    s = dipsolve.solve(start, "France", limits=dipsolve.Limits(time_limit=0.3))
    assert len(s.orders) == 3 and s.status in ("optimal", "feasible", "timed out")
    for answer in (path, eq, worst, s):
        assert isinstance(answer, dipsolve.Result)
        assert set(answer.to_json()) >= {"status", "objective", "bound", "seconds"}


# -- what print() and repr() show (issue 49: an Outcome printed as its phases only, a
# -- Solution as several kilobytes) ------------------------------------------------------------

SWAP = "phase: F1907M\n[Turkey]\nunits: A CON, F AEG, F BUL/EC\ncenters: CON, BUL, ANK\n"
SWAP_ORDERS = "Turkey: F AEG C A CON - BUL\nTurkey: A CON - BUL\nTurkey: F BUL/EC - CON"


def test_print_an_outcome_gives_its_results_and_the_next_phase():
    outcome = dipsolve.adjudicate(dipsolve.Position.from_text(SWAP), SWAP_ORDERS,
                                  rules=dipsolve.Rules(convoy_intent="via only"))
    assert str(outcome) == (
        "Fall 1907 Movement:\n"
        "  -- Turkey: A CON - BUL          bounced\n"
        "  -- Turkey: F AEG C A CON - BUL  void (A CON was not ordered to BUL by convoy)\n"
        "  -- Turkey: F BUL/EC - CON       bounced\n"
        "next: Spring 1908 Movement")
    assert repr(outcome) == "<Outcome F1907M -> S1908M>"
    start = dipsolve.Position.from_text(
        "phase: F1901M\n[France]\nunits: A PAR\ncenters: PAR\n[Germany]\nunits: A MUN, A RUH\ncenters: MUN\n")
    taken = dipsolve.adjudicate(start, {"Germany": ["A MUN - BUR", "A RUH S A MUN - BUR"],
                                        "France": ["A PAR - BUR"]})
    assert str(taken).splitlines() == [
        "Fall 1901 Movement:",
        "  -- France: A PAR - BUR           bounced",
        "  ok Germany: A MUN - BUR          moved",
        "  ok Germany: A RUH S A MUN - BUR  supported",
        "next: Winter 1901 Adjustment"]


def test_a_solution_prints_a_few_lines_and_its_repr_is_one_short_line():
    start = dipsolve.Position.initial()
    held = dipsolve.solve(start, "Turkey", S.Strategy(S.Agenda(), S.Hold()),
                          limits=dipsolve.Limits(time_limit=2))
    assert repr(held) == ("<Solution Turkey S1901M agenda: optimal, value 1058.33: "
                          "A CON - BUL, A SMY - ARM, F ANK - CON>")
    lines = str(held).splitlines()
    assert lines[0].startswith("Turkey, S1901M (agenda): value 1058.33, optimal, bound 1058.33, ")
    assert lines[1:] == ["Turkey: opponents hold: everybody else holds",
                         "Turkey: A CON - BUL", "Turkey: A SMY - ARM", "Turkey: F ANK - CON"]
    game = dipsolve.solve(start, "Turkey", S.Strategy(S.Agenda(), S.PhaseGame()),
                          limits=dipsolve.Limits(time_limit=1))   # the phase game
    assert game.equilibrium is not None and len(repr(game)) < 150 and len(str(game)) < 400
    assert str(game).splitlines()[1].startswith("Turkey: the phase game of ")
    assert "exploitability" in str(game).splitlines()[1]


def test_solve_assumes_the_seats_learned_model_and_says_so():
    """``solve``'s default is the seat's: a best response to the prior policy for a lone
    position, the policy fitted to the earlier orders given as ``history``."""
    start = dipsolve.Position.initial()
    alone = dipsolve.solve(start, "Turkey", limits=dipsolve.Limits(time_limit=1))
    assert alone.equilibrium is None and alone.model.startswith("learned: the package's prior policy")
    assert "opponents learned" in str(alone) and alone.to_json()["model"] == alone.model
    spring = dipsolve.Game()
    spring.process({"Russia": ["F SEV - BLA", "A WAR - GAL"], "Austria": ["A VIE - GAL"]})
    spring.process()                                             # Fall 1901, nothing moves
    history = [(ph.position, ph.orders) for ph in spring.phases[:-1]]      # S1901M and F1901M
    fitted = dipsolve.solve(spring.position, "Turkey", S.Strategy(S.Agenda(), S.Learned(history=history)),
                            limits=dipsolve.Limits(time_limit=1))
    assert fitted.model.startswith("learned: the prior policy fitted to 2 movement phases")
    assert fitted.phase == "S1902M"
    # a history is the learned model's alone: no other part takes one, and the search's
    # internal record of a call refuses one beside another model
    with pytest.raises(TypeError, match="history"):
        S.PhaseGame(history=history)                         # type: ignore[call-arg]
    with pytest.raises(dipsolve.DipsolveError, match="history of orders is what the learned model fits"):
        SolveSettings(opponents="equilibrium", history=history)
    # minimax and expectimax judge their candidates against draws of the learned policy
    assert settings(S.Strategy(S.Minimax(), S.Learned())).model == "learned"
    assert settings(named("minimax", "learned")).model == "learned"
