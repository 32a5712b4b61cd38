"""`import dipsolve` is the public API: every name it lists is there, and it loads fast."""

import subprocess
import sys

import pytest

import dipsolve


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
    s = dipsolve.solve(start, "France", dipsolve.SolveSettings(limits=dipsolve.Limits(time_limit=0.3)))
    assert len(s.orders) == 3 and s.status in ("optimal", "feasible", "timed out")
    for answer in (path, eq, worst, s):
        assert isinstance(answer, dipsolve.Result)
        assert set(answer.to_json()) >= {"status", "objective", "bound", "seconds"}
