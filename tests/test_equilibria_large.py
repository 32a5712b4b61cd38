"""Adjustment equilibria at any size (issue 15): the seeded generator of large positions,
whole rows of the game, correlated and coarse correlated equilibria by column and row
generation, mixed equilibria of three or more mixing powers, a small position with no
pure equilibrium, and the deadline (an injected clock).  Every certificate is
recomputed here by a different code path: the plain batch evaluation of full positions
(`dipsolve.algorithms.evaluation.InfluenceBatch`), spot-checked against the evaluator itself."""

from __future__ import annotations

import importlib.util
import itertools
import math
from pathlib import Path

import numpy as np
import pytest

from dipsolve.core.results import Limits
from dipsolve.algorithms.adjustments import after_adjustments, joint_count
from dipsolve.cli import load, main
from dipsolve.algorithms.evaluation import influence
from dipsolve.models.equilibria import (AdjustmentGame, group_table, interaction_groups,
                                        solve_equilibrium)
from dipsolve.models.games import (correlated_generation, pure_equilibria, small_support_nash,
                                   support_enumeration, tensor_gains)
from dipsolve.core.results import Deadline
from dipsolve.testing import random_adjustment_position

#: equilibria of large adjustment games, certified: slow (CI runs it: ``--all``)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
ADJUST = ROOT / "examples" / "adjustments"


def example(name: str):
    return load(str(ADJUST / name))[0]


def fresh_rows(game: AdjustmentGame, profile, i) -> np.ndarray:
    """Player i's value of every option against ``profile``, by the batch evaluation of
    full positions (not the rows the solver used, not its cache)."""
    return game._batch.row(tuple(profile), i, range(len(game.options[i])), None)


def indices(game: AdjustmentGame, eq) -> dict[str, dict]:
    return {p: {os: a for a, os in enumerate(game.options[i])} for i, p in enumerate(game.players)}


def joint_of(game: AdjustmentGame, eq) -> dict[tuple[int, ...], float]:
    """The answer's joint distribution over full profiles of the game's players."""
    idx = indices(game, eq)
    parts = []
    for powers, dist in eq.correlated:
        parts.append([({p: idx[p][os] for p, os in zip(powers, orders)}, q) for orders, q in dist])
    out: dict[tuple[int, ...], float] = {}
    for combo in itertools.product(*parts):
        chosen: dict[str, int] = {}
        for d, _ in combo:
            chosen.update(d)
        key = tuple(chosen[p] for p in game.players)
        out[key] = out.get(key, 0.0) + math.prod(q for _, q in combo)
    return out


def correlated_epsilon(game: AdjustmentGame, dist, coarse: bool) -> float:
    worst = 0.0
    for i in range(len(game.players)):
        regret: dict[int, np.ndarray] = {}
        for s, q in dist.items():
            row = fresh_rows(game, s, i)
            key = -1 if coarse else s[i]
            regret[key] = regret.get(key, 0.0) + q * (row - row[s[i]])
        worst = max(worst, sum(max(0.0, float(r.max())) for r in regret.values()))
    return worst


def nash_epsilon(game: AdjustmentGame, eq) -> float:
    idx = indices(game, eq)
    mixed = [{idx[s.power][os]: q for os, q in s.support} for s in eq.strategies]
    worst = 0.0
    for i in range(len(game.players)):
        others = [list(m.items()) if j != i else [(0, 1.0)] for j, m in enumerate(mixed)]
        vals = np.zeros(len(game.options[i]))
        for combo in itertools.product(*others):
            vals += math.prod(q for _, q in combo) * fresh_rows(game, [a for a, _ in combo], i)
        own = sum(q * vals[a] for a, q in mixed[i].items())
        worst = max(worst, float(vals.max()) - own)
    return worst


# -- the generator and the stress positions -------------------------------------------------------

def test_generator_is_seeded_and_large():
    a, b = random_adjustment_position(5), random_adjustment_position(5)
    assert a.to_text() == b.to_text() and a.to_text() != random_adjustment_position(6).to_text()
    assert joint_count(a, True) >= 10 ** 13
    game = AdjustmentGame(a, lambda pos, p: 0.0)
    removers = [p for p in a.powers() if a.adjustment(p) <= -8]
    assert len(removers) == 2 and all(len(a.units_of(p)) == 16 for p in removers)
    game = AdjustmentGame(a, influence)
    assert max(len(g) for g in interaction_groups(game)) >= 4


def test_stress_examples_are_the_generators_output():
    spec = importlib.util.spec_from_file_location(
        "make_adjustment_examples", ROOT / "tests" / "tools" / "make_adjustment_examples.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.main(["--check"]) == 0
    three = example("stress-three-removers.dip")
    assert joint_count(three, True) > 10 ** 15


def test_whole_rows_agree_with_the_batch_and_the_evaluator():
    """`AdjustmentGame.option_values` (InfluenceRows: only the variable units raced)
    against the batch of full positions on random profiles, and some entries against
    the influence evaluation of the real position after the adjustments."""
    pos = example("stress-correlated.dip")
    game = AdjustmentGame(pos, influence)
    rng = np.random.default_rng(3)
    for _ in range(3):
        profile = tuple(int(rng.integers(s)) for s in game.sizes)
        for i, p in enumerate(game.players):
            row = game.option_values(profile, i)
            assert np.allclose(row, fresh_rows(game, profile, i), rtol=0, atol=1e-9)
            for a in rng.integers(len(row), size=3):
                trial = profile[:i] + (int(a),) + profile[i + 1:]
                real = influence(after_adjustments(pos, game.orders(trial)), p)
                assert row[a] == pytest.approx(real, abs=1e-9)


# -- after a cycle: correlated, coarse, mixed ------------------------------------------------------

def test_cycle_gives_a_certified_correlated_equilibrium():
    """Issue 15's position (two powers removing 8 of 16 next to four builders): the
    combined search cycles; the answer is a correlated equilibrium of the six-power
    group whose certificate, recomputed here over every option of every power, is at
    most 1e-6."""
    pos = example("stress-two-removers.dip")
    eq = solve_equilibrium(pos, influence, "correlated", limits=Limits(time_limit=120))
    assert any("cycled" in n for n in eq.notes)
    assert eq.kind == "correlated" and eq.status == "optimal" and eq.certified
    assert eq.epsilon <= 1e-6 and eq.groups[0].method.startswith("correlated LP by column")
    assert len(eq.groups[0].powers) >= 4
    game = AdjustmentGame(pos, influence)
    dist = joint_of(game, eq)
    assert sum(dist.values()) == pytest.approx(1.0) and len(dist) > 1
    assert correlated_epsilon(game, dist, coarse=False) <= 1e-6


def test_coarse_correlated_equilibrium_is_certified():
    pos = example("stress-wide.dip")
    eq = solve_equilibrium(pos, influence, "coarse", limits=Limits(time_limit=120))
    assert eq.kind == "coarse" and eq.status == "optimal" and eq.epsilon <= 1e-6
    game = AdjustmentGame(pos, influence)
    assert correlated_epsilon(game, joint_of(game, eq), coarse=True) <= 1e-6


def test_three_or_more_powers_mixing_get_an_exact_mixed_equilibrium():
    """Three removers (4 of 8 units) next to four builders, 5.4e10 profiles: the search
    cycles, and the double oracle's restricted game has four powers mixing, solved by
    small-support enumeration; the answer's epsilon, recomputed here over every option
    of every power, is at most 1e-6."""
    pos = random_adjustment_position(4, removers=("Austria", "Italy", "Turkey"), units=8,
                                     removals=4, builders=4)
    eq = solve_equilibrium(pos, influence, "mixed", limits=Limits(time_limit=120))
    assert eq.kind == "mixed" and eq.status == "optimal" and eq.epsilon <= 1e-6
    assert sum(1 for s in eq.strategies if not s.pure) >= 3
    assert nash_epsilon(AdjustmentGame(pos, influence), eq) <= 1e-6


def test_six_powers_mixing_over_five_and_six_order_sets_get_an_exact_mixed_equilibrium():
    """stress-correlated.dip: the double oracle's restricted games have two removers
    mixing over up to seven order sets each beside three builders; small supports (at
    most three a power) find no equilibrium there, the logit branch does.  The answer
    mixes five and six of 12,870 order sets, and its epsilon, recomputed here over
    every option of every power, is at most 1e-6.  (Before the branch: `feasible`,
    epsilon 14.8, even given 120 s.)"""
    pos = example("stress-correlated.dip")
    eq = solve_equilibrium(pos, influence, "mixed", limits=Limits(time_limit=120))
    assert eq.kind == "mixed" and eq.status == "optimal" and eq.epsilon <= 1e-6
    assert max(len(s.support) for s in eq.strategies) >= 4
    assert nash_epsilon(AdjustmentGame(pos, influence), eq) <= 1e-6


@pytest.mark.parametrize("kind", ["pure", "mixed", "correlated", "coarse"])
def test_optimal_exactly_when_epsilon_is_small(kind):
    """Whatever is found in a short time: 'optimal' if and only if the certificate is
    complete and at most 1e-6; the kind is stated."""
    eq = solve_equilibrium(example("stress-correlated.dip"), influence, kind, limits=Limits(time_limit=3))
    assert eq.kind in ("pure", "mixed", "correlated", "coarse")
    assert (eq.status == "optimal") == (eq.certified and eq.epsilon <= 1e-6)
    assert eq.status in ("optimal", "feasible", "timed out")


# -- a small position without a pure equilibrium -----------------------------------------------------

def test_small_position_has_no_pure_equilibrium_and_an_exact_mixed_one():
    """Four interacting powers, 315 profiles: every profile checked (no pure
    equilibrium, even with exact float comparison); the mixed answer is checked on the
    full table (every deviation of every power), and, the two pure powers fixed, it is
    one of the equilibria support enumeration finds in the other two's bimatrix game."""
    pos = example("no-pure-four.dip")
    game = AdjustmentGame(pos, influence)
    (grp,) = interaction_groups(game)
    assert len(grp) == 4 and game.joint_profiles == 315
    table = group_table(game, grp, tuple(0 for _ in game.players))
    assert pure_equilibria(table) == [] and pure_equilibria(table, tolerance=0.0) == []
    eq = solve_equilibrium(pos, influence, "pure", limits=Limits(time_limit=60))
    assert eq.kind == "mixed" and eq.status == "optimal" and eq.epsilon <= 1e-6
    idx = indices(game, eq)
    x = []
    for s in eq.strategies:
        v = np.zeros(len(game.options[game.players.index(s.power)]))
        for os, q in s.support:
            v[idx[s.power][os]] = q
        x.append(v)
    assert max(tensor_gains(table, x)) <= 1e-9
    mixing = [k for k, v in enumerate(x) if (v > 0).sum() > 1]
    assert len(mixing) == 2
    sub = table[tuple(slice(None) if k in mixing else int(np.argmax(x[k])) for k in range(4))]
    A, B = sub[..., mixing[0]], sub[..., mixing[1]]
    found = support_enumeration(A, B, first_only=False)
    assert any(np.allclose(fx, x[mixing[0]], atol=1e-7) and np.allclose(fy, x[mixing[1]], atol=1e-7)
               for fx, fy in found)


def test_small_position_mixed_equilibrium_is_pygambits():
    """pygambit (recorded by tests/tools/record_gambit.py, pygambit 16.7.0) finds no pure
    equilibrium of no-pure-four.dip's whole table either, and ``enumpoly_solve`` (every
    support's polynomial system) finds exactly one mixed equilibrium: dipsolve's."""
    import json
    rec = json.loads((ROOT / "tests" / "data" / "gambit" / "no-pure-four.json").read_text())
    pos = example("no-pure-four.dip")
    game = AdjustmentGame(pos, influence)
    (grp,) = interaction_groups(game)
    table = group_table(game, grp, tuple(0 for _ in game.players))
    assert np.allclose(np.array(rec["payoffs"]), table, rtol=1e-12, atol=0), \
        "not the game pygambit answered"
    assert rec["enumpure_solve"] == [] and len(rec["enumpoly_solve"]) == 1
    eq = solve_equilibrium(pos, influence, "mixed", limits=Limits(time_limit=60))
    assert eq.status == "optimal"
    idx = indices(game, eq)
    for s, theirs in zip(eq.strategies, rec["enumpoly_solve"][0]):
        ours = np.zeros(len(theirs))
        for os, q in s.support:
            ours[idx[s.power][os]] = q
        assert np.allclose(ours, theirs, atol=1e-9), s.power


# -- the generic solvers on random tables -------------------------------------------------------------

class TableGame:
    """A payoff table behind the questions `correlated_generation` asks."""

    def __init__(self, table: np.ndarray):
        self.table = table
        self.sizes = table.shape[:-1]
        self.rows = 0

    def payoff(self, profile, i):
        return float(self.table[tuple(profile) + (i,)])

    def values(self, profile, i, options, deadline=None):
        return self.option_values(profile, i)[list(options)]

    def option_values(self, profile, i, deadline=None):
        self.rows += 1
        idx = list(profile)
        idx[i] = slice(None)
        return self.table[tuple(idx) + (i,)]


@pytest.mark.parametrize("coarse", [False, True])
def test_correlated_generation_on_random_tables(coarse):
    """On random 4-player games: the distribution satisfies every constraint of the
    (coarse) correlated equilibrium in the full table, checked here directly."""
    rng = np.random.default_rng(11)
    for _ in range(5):
        table = rng.integers(0, 20, size=(4, 5, 3, 4, 4)).astype(float)
        game = TableGame(table)
        st = correlated_generation(game, range(4), [(0, 0, 0, 0)], coarse=coarse,
                                   tolerance=1e-9)
        assert st.converged and st.epsilon <= 1e-9
        assert st.columns < table[..., 0].size          # never the full table
        P = np.zeros(table.shape[:4])
        for s, q in st.distribution.items():
            P[s] = q
        for i in range(4):
            U = np.moveaxis(table[..., i], i, 0)
            Pi = np.moveaxis(P, i, 0)
            if coarse:
                dev = [float(((U[b][None] - U) * Pi).sum()) for b in range(U.shape[0])]
                assert max(dev) <= 1e-7
            else:
                for a in range(U.shape[0]):
                    for b in range(U.shape[0]):
                        assert float(((U[b] - U[a]) * Pi[a]).sum()) <= 1e-7


def test_small_support_nash_on_random_three_player_games():
    rng = np.random.default_rng(2)
    found = 0
    for _ in range(10):
        table = rng.random((3, 3, 3, 3)) * 10
        x = small_support_nash(table)
        if x is not None:
            found += 1
            assert all(abs(v.sum() - 1) < 1e-9 and v.min() >= 0 for v in x)
            assert max(tensor_gains(table, x)) <= 1e-8
    assert found >= 8


# -- the deadline: an injected clock -------------------------------------------------------------------

class JumpingClock:
    def __init__(self, to: float, when):
        self.to, self.when, self.jumped = to, when, False

    def __call__(self) -> float:
        if not self.jumped and self.when():
            self.jumped = True
        return self.to if self.jumped else 0.0


def test_deadline_during_the_column_generation_keeps_its_distribution():
    """The clock passes the search's share while the correlated LP is being generated:
    the distribution reached so far is answered with its certificate (computed in the
    time the certificate keeps): timed out, unless that certificate proves it."""
    pos = example("stress-correlated.dip")
    game = AdjustmentGame(pos, influence)
    clock = JumpingClock(0.9, when=lambda: game.stage == "correlated generation")
    eq = solve_equilibrium(pos, influence, "correlated", game=game,
                           deadline=Deadline(1.0, clock=clock))
    assert clock.jumped and eq.certified and eq.seconds == 0.9
    assert eq.groups[0].status == "timed out"
    assert eq.status == ("optimal" if eq.epsilon <= 1e-6 else "timed out")
    assert correlated_epsilon(game, joint_of(game, eq), False) == pytest.approx(eq.epsilon, abs=1e-9)


def test_cli_coarse_json(capsys):
    import json
    assert main(["adjust", str(ADJUST / "no-pure-four.dip"), "--equilibrium", "coarse",
                 "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["kind"] == "coarse" and obj["status"] == "optimal" and obj["epsilon"] <= 1e-6
    assert obj["correlated"] and abs(sum(d["probability"] for d in obj["correlated"][0]["distribution"]) - 1) < 1e-9


# -- against pygambit's recorded answers (tests/data/gambit; pygambit is not installed) ------------

GAMBIT = ROOT / "tests" / "data" / "gambit"


@pytest.mark.parametrize("seed", range(6))
def test_small_supports_find_one_of_gambits_equilibria(seed):
    """On the recorded random bimatrix games, the n-player small-support solver (run on
    the two-player table) returns one of the equilibria gambit's enummixed_solve lists."""
    import json
    data = json.loads((GAMBIT / f"support-enumeration-{seed}.json").read_text(encoding="utf-8"))
    A, B = np.array(data["A"]), np.array(data["B"])
    x = small_support_nash(np.stack([A, B], axis=-1), max_support=min(A.shape))
    assert x is not None
    assert any(np.allclose(x[0], t[0], atol=1e-7) and np.allclose(x[1], t[1], atol=1e-7)
               for t in data["enummixed_solve"])


def test_correlated_generation_on_the_trieste_game_and_gambits_equilibrium():
    """Trieste (3 x 3, no pure equilibrium, one mixed equilibrium by gambit): column
    generation finds a correlated equilibrium; gambit's Nash equilibrium, as a product
    distribution, passes the same exact check (every Nash equilibrium is correlated)."""
    import json
    data = json.loads((GAMBIT / "trieste.json").read_text(encoding="utf-8"))
    table = np.array(data["groups"][0]["payoffs"])
    st = correlated_generation(TableGame(table), range(2), [(0, 0)], tolerance=1e-9)
    assert st.converged and st.epsilon <= 1e-9
    ours = np.zeros(table.shape[:2])
    for s, q in st.distribution.items():
        ours[s] = q
    x, y = (np.array(v) for v in data["groups"][0]["enummixed_solve"][0])
    for P in (ours, np.outer(x, y)):
        for i, U in enumerate((table[..., 0], table[..., 1].T)):
            Pi = P if i == 0 else P.T
            for a in range(U.shape[0]):
                assert max(float(((U[b] - U[a]) * Pi[a]).sum()) for b in range(U.shape[0])) <= 1e-7


def test_cli_default_on_the_issues_position_is_certified(capsys):
    """`dipsolve adjust` on issue 15's position (the search cycles): a certified mixed or
    correlated equilibrium, never the pure profile the search stopped at."""
    import json
    assert main(["adjust", str(ADJUST / "stress-two-removers.dip"), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["kind"] in ("mixed", "correlated") and obj["status"] == "optimal"
    assert obj["certified"] and obj["epsilon"] <= 1e-6
    assert any(len(v) > 1 for v in obj["strategies"].values())


def test_cli_never_calls_an_unproven_answer_an_equilibrium(capsys):
    """Cut short at 0.2 s (or not): the summary line says "equilibrium" only when the
    status is optimal, and otherwise that the answer is not (known to be) one."""
    assert main(["adjust", str(ADJUST / "stress-two-removers.dip"), "--time-limit", "0.2"]) == 0
    out = capsys.readouterr().out
    (line,) = [x for x in out.splitlines() if not x.startswith(("#", " ", "[")) and "gain" in x]
    status = line.split(": ", 1)[1].split(";")[0]
    if status == "optimal":
        assert line.split(":")[0].endswith(" equilibrium")
    else:
        assert ", not an equilibrium" in line or ", not known to be an equilibrium" in line


def test_supports_near_fictitious_play_reach_beyond_the_size_cap():
    """A 4 x 4 zero-sum game whose only equilibrium mixes all four options: supports of at
    most three find nothing; the supports near fictitious play's mixtures (`hint`,
    `limit=0`: only those) find the equilibrium support enumeration finds."""
    from dipsolve.models.games import fictitious_play
    A = np.random.default_rng(28).random((4, 4)) * 10
    (eq,) = support_enumeration(A, -A, first_only=False)
    assert min((eq[0] > 0).sum(), (eq[1] > 0).sum()) == 4
    table = np.stack([A, -A], axis=-1)
    assert small_support_nash(table, max_support=3) is None
    hint, _ = fictitious_play(table, rounds=300)
    x = small_support_nash(table, max_support=3, hint=hint, limit=0)
    assert x is not None and np.allclose(x[0], eq[0], atol=1e-9) and np.allclose(x[1], eq[1], atol=1e-9)
