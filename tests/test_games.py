"""The generic game solvers of dipsolve.models.games, each alone: against pygambit's
recorded answers (tests/tools/record_gambit.py writes tests/data/gambit/), against
brute force, and under a deadline that has passed (an injected clock)."""

from __future__ import annotations

import importlib.util
import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from dipsolve.models.games import (Mixed, Profile, correlated_lp, double_oracle,
                                   fictitious_play, logit_tracing, pure_equilibria, sgc_milp,
                                   small_support_nash, support_enumeration, table_nash,
                                   tensor_gains, two_player_gain, zero_sum_lp)
from dipsolve.core.results import Deadline, TimeUp

ROOT = Path(__file__).resolve().parents[1]
GAMBIT = ROOT / "tests" / "data" / "gambit"


def _tool():
    spec = importlib.util.spec_from_file_location("record_gambit", ROOT / "tests/tools/record_gambit.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RECORD = _tool()


def recorded(kind: str, seed: int) -> tuple[np.ndarray, np.ndarray, dict]:
    """A recorded random game, checked to be the one the tool makes (numpy's generator
    has not changed under it), and pygambit's answers on it."""
    name = kind if kind == "zero-sum" else f"{kind}-{seed}"
    data = json.loads((GAMBIT / f"{name}.json").read_text(encoding="utf-8"))
    A, B = np.array(data["A"]), np.array(data["B"])
    again = RECORD.random_bimatrix(kind, seed)
    assert np.array_equal(A, again[0]) and np.array_equal(B, again[1]), \
        f"{name}: not the game pygambit answered (re-run tests/tools/record_gambit.py)"
    return A, B, data


def same_profile(a, b, tol=1e-7) -> bool:
    return all(np.allclose(x, y, atol=tol) for x, y in zip(a, b))


def expired() -> Deadline:
    return Deadline(1.0, clock=lambda: 5.0, start=0.0)


def test_every_recorded_game_is_tested():
    names = {p.stem for p in GAMBIT.glob("*.json")}
    assert names == set(RECORD.GAMES)


# -- support enumeration ----------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_support_enumeration_finds_every_equilibrium_gambit_finds(seed):
    A, B, data = recorded("support-enumeration", seed)
    ours = support_enumeration(A, B, first_only=False)
    theirs = data["enummixed_solve"]
    assert len(ours) == len(theirs)
    for t in theirs:
        assert any(same_profile(o, t) for o in ours)


@settings(max_examples=40, deadline=None)
@given(arrays(np.float64, (2, 3, 3), elements=st.floats(0, 100, allow_nan=False)),
       st.integers(0, 2 ** 32 - 1))
def test_support_enumeration_answers_are_equilibria(payoffs, seed):
    noise = np.random.default_rng(seed).random(payoffs.shape) * 1e-3    # nondegenerate
    A, B = payoffs[0] + noise[0], payoffs[1] + noise[1]
    found = support_enumeration(A, B, first_only=False)
    assert found                              # a nondegenerate game has one
    for x, y in found:
        assert two_player_gain(A, B, x, y) <= 1e-7 * max(1.0, float(np.abs(payoffs).max()))


def test_support_enumeration_stops_at_the_deadline():
    A, B, _ = recorded("support-enumeration", 0)
    with pytest.raises(TimeUp):
        support_enumeration(A, B, expired())


# -- the Sandholm-Gilpin-Conitzer MILP --------------------------------------------------------------

@pytest.mark.parametrize("seed", range(100, 104))
def test_sgc_milp_equilibrium_is_one_of_gambits(seed):
    A, B, data = recorded("sgc-milp", seed)
    x, y = sgc_milp(A, B)
    assert two_player_gain(A, B, x, y) <= 1e-7
    assert any(same_profile((x, y), t, tol=1e-6) for t in data["enummixed_solve"])


def test_sgc_milp_does_not_start_after_the_deadline():
    A, B, _ = recorded("sgc-milp", 100)
    with pytest.raises(TimeUp):
        sgc_milp(A, B, expired())


# -- zero-sum LP ------------------------------------------------------------------------------------

def test_zero_sum_lp_value_matches_gambit():
    A, _, data = recorded("zero-sum", 7)
    x, y = zero_sum_lp(A)
    value = float(x @ A @ y)
    assert value == pytest.approx(data["lp_solve"]["value"], abs=1e-6)
    # each strategy guarantees the value against every reply
    assert float((A @ y).max()) - value <= 1e-6 and value - float((x @ A).min()) <= 1e-6


def test_zero_sum_lp_stops_at_the_deadline():
    with pytest.raises(TimeUp):
        zero_sum_lp(np.eye(3), expired())


# -- pure equilibria --------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(arrays(np.float64, (2, 3, 2, 3), elements=st.integers(0, 4).map(float)))
def test_pure_equilibria_are_exactly_the_profiles_nobody_leaves(table):
    """Brute force on three-player tables with many ties: a profile is found if and only
    if no player has a strictly better option against the others."""
    k = table.ndim - 1
    found = set(pure_equilibria(table, tolerance=0.0))
    for profile in itertools.product(*(range(s) for s in table.shape[:k])):
        stable = all(table[profile + (i,)] >= max(
            table[profile[:i] + (a,) + profile[i + 1:] + (i,)] for a in range(table.shape[i]))
            for i in range(k))
        assert (profile in found) == stable


def test_pure_equilibria_of_the_prisoners_dilemma():
    A = np.array([[3.0, 0.0], [5.0, 1.0]])
    assert pure_equilibria(np.stack([A, A.T], axis=-1)) == [(1, 1)]


# -- correlated LP, fictitious play, gains ----------------------------------------------------------

def test_correlated_lp_on_three_players_is_a_correlated_equilibrium():
    rng = np.random.default_rng(3)
    table = rng.random((3, 4, 3, 3)) * 50
    dist = correlated_lp(table)
    assert dist is not None and dist.sum() == pytest.approx(1) and dist.min() >= -1e-12
    # no player gains by any deviation rule: following a recommendation is best
    for i in range(3):
        U, P = np.moveaxis(table[..., i], i, 0), np.moveaxis(dist, i, 0)
        for a in range(U.shape[0]):
            for b in range(U.shape[0]):
                assert float((P[a] * (U[b] - U[a])).sum()) <= 1e-7


def test_correlated_lp_of_chicken_beats_every_nash_welfare():
    """Aumann's example: in chicken a correlated equilibrium has more welfare than the
    mixed Nash equilibrium (and the LP maximises it)."""
    chicken = np.array([[[6.0, 6.0], [2.0, 7.0]], [[7.0, 2.0], [0.0, 0.0]]])
    dist = correlated_lp(chicken)
    welfare = float((dist * chicken.sum(axis=-1)).sum())
    assert welfare == pytest.approx(10.5)       # 1/2 (6,6), 1/4 (2,7), 1/4 (7,2) is 10.5
    with pytest.raises(TimeUp):
        correlated_lp(chicken, expired())


def test_fictitious_play_reports_the_epsilon_of_its_answer():
    rng = np.random.default_rng(3)
    table = rng.random((3, 4, 3, 3)) * 50
    strategies, eps = fictitious_play(table, rounds=3000)
    assert eps == pytest.approx(max(tensor_gains(table, strategies)))
    # an expired deadline: the first mixture, its epsilon honest
    first, eps0 = fictitious_play(table, expired(), start=(1, 2, 0))
    assert [int(s.argmax()) for s in first] == [1, 2, 0]
    assert eps0 == pytest.approx(max(tensor_gains(table, first))) and eps0 >= eps


def test_tensor_gains_of_a_pure_profile_are_the_best_responses():
    rng = np.random.default_rng(11)
    table = rng.random((3, 4, 2))
    x, y = np.eye(3)[1], np.eye(4)[2]
    gains = tensor_gains(table, [x, y])
    assert gains == pytest.approx([table[:, 2, 0].max() - table[1, 2, 0],
                                   table[1, :, 1].max() - table[1, 2, 1]])


# -- the double oracle ------------------------------------------------------------------------------

class TableOracle:
    """A game given as a table, asked only the double oracle's two questions."""

    def __init__(self, table: np.ndarray):
        self.table = table
        self.k = table.ndim - 1

    def payoff(self, profile: Profile, i: int) -> float:
        return float(self.table[profile + (i,)])

    def expectations(self, mixed: Mixed, i: int, deadline: Deadline | None = None):
        if deadline is not None:
            deadline.check()
        strategies = []
        for j, m in enumerate(mixed):
            s = np.zeros(self.table.shape[j])
            for a, p in m.items():
                s[a] = p
            strategies.append(s)
        v = self.table[..., i]
        for j in range(self.k - 1, -1, -1):
            if j != i:
                v = np.tensordot(v, strategies[j], axes=([j], [0]))
        return v, float(v @ strategies[i])


@pytest.mark.parametrize("seed", range(4))
def test_double_oracle_finds_an_equilibrium_of_the_whole_game(seed):
    A, B, _ = recorded("sgc-milp", 100 + seed)
    found = double_oracle(TableOracle(np.stack([A, B], axis=-1)), (0, 1), (0, 0))
    assert found is not None
    mixed, rounds = found
    x, y = np.zeros(6), np.zeros(5)
    for a, p in mixed[0].items():
        x[a] = p
    for b, p in mixed[1].items():
        y[b] = p
    assert two_player_gain(A, B, x, y) <= 1e-7 and rounds >= 1


def test_double_oracle_keeps_the_players_outside_the_group_and_stops_at_the_deadline():
    rng = np.random.default_rng(5)
    table = rng.random((4, 4, 3, 3))
    oracle = TableOracle(table)
    found = double_oracle(oracle, (0, 1), (1, 2, 2))
    if found is not None:
        mixed, _ = found
        assert mixed[2] == {2: 1.0}
    with pytest.raises(TimeUp):
        double_oracle(oracle, (0, 1), (1, 2, 2), expired())


# -- the logit branch -------------------------------------------------------------------------------

def is_equilibrium(table: np.ndarray, x) -> bool:
    return all(abs(float(s.sum()) - 1.0) < 1e-9 and float(s.min()) >= 0.0 for s in x) and \
        max(tensor_gains(table, x)) <= 1e-9 * max(1.0, float(np.abs(table).max()))


@settings(max_examples=60, deadline=None)
@given(arrays(np.float64, (2, 3, 3, 3), elements=st.integers(0, 5).map(float)))
def test_logit_tracing_never_answers_what_is_not_an_equilibrium(table):
    """Tables with many ties (degenerate games, where the branch may be lost): the
    answer is None or an equilibrium, checked in the whole table."""
    x = logit_tracing(table)
    assert x is None or is_equilibrium(table, x)


@pytest.mark.parametrize("shape", [(3, 3, 3), (2, 2, 2, 6, 6), (2, 3, 4, 5)])
def test_logit_tracing_finds_an_equilibrium_of_generic_games(shape):
    """Random real payoffs (generic games, where the branch reaches an equilibrium):
    found every time, and an equilibrium."""
    rng = np.random.default_rng(len(shape))
    for _ in range(4):
        table = rng.random(shape + (len(shape),)) * 100
        x = logit_tracing(table)
        assert x is not None and is_equilibrium(table, x)


def test_logit_tracing_finds_what_small_supports_cannot():
    """A 4 x 4 zero-sum game whose only equilibrium mixes all four options: supports of
    at most three find nothing; the branch finds the equilibrium support enumeration
    finds, and `table_nash` says which solver did."""
    A = np.random.default_rng(28).random((4, 4)) * 10
    (eq,) = support_enumeration(A, -A, first_only=False)
    table = np.stack([A, -A], axis=-1)
    assert small_support_nash(table, max_support=3) is None
    x = logit_tracing(table)
    assert x is not None and same_profile(x, eq, tol=1e-9)
    found, method = table_nash(table)
    assert method == "logit tracing" and same_profile(found, eq, tol=1e-9)


def test_logit_tracing_of_a_constant_game_and_at_the_deadline():
    table = np.full((2, 3, 2, 3), 7.0)
    x = logit_tracing(table)
    assert x is not None and is_equilibrium(table, x)
    with pytest.raises(TimeUp):
        logit_tracing(np.random.default_rng(1).random((3, 3, 3, 3)), expired())
    with pytest.raises(TimeUp):
        table_nash(np.random.default_rng(1).random((3, 3, 3, 3)), expired())


def test_matching_pennies_everywhere():
    """One game every solver knows the answer of: (1/2, 1/2) for both."""
    A = np.array([[1.0, -1.0], [-1.0, 1.0]])
    half = [np.array([0.5, 0.5])] * 2
    assert same_profile(logit_tracing(np.stack([A, -A], axis=-1)), half)
    assert same_profile(zero_sum_lp(A), half)
    assert same_profile(support_enumeration(A, -A)[0], half)
    assert same_profile(sgc_milp(A, -A), half)
    assert pure_equilibria(np.stack([A, -A], axis=-1)) == []
    assert math.isclose(max(tensor_gains(np.stack([A, -A], axis=-1), half)), 0.0, abs_tol=1e-12)
