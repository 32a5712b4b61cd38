#!/usr/bin/env python3
"""Record pygambit's answers on the games dipsolve's equilibrium tests compare with it.

pygambit (the Python face of Gambit: McKelvey, McLennan and Turocy, *Gambit: Software
Tools for Game Theory*) is the oracle of ``tests/test_equilibria.py`` and
``tests/test_games.py``, but it has no wheel for Python 3.11 on Linux and compiles from
source for most of an hour; so it is not in the test extra.  This tool, run once where
pygambit is installed (``pip install -e '.[peers]'``), computes its answers on exactly
the games the tests use and writes them, with the games' payoff arrays, as
``tests/data/gambit/*.json``; the tests compare dipsolve's answers with these files on
every run, without pygambit, after checking that each game is still the same one.

    python tests/tools/record_gambit.py            # (re)write tests/data/gambit/*.json
    python tests/tools/record_gambit.py --check    # recompute, compare, exit 1 on a difference

The games (`GAMES`):

``trieste``
    the 3 x 3 payoff table of ``examples/adjustments/trieste.dip`` (Austria, Italy; the
    influence evaluation): ``enumpure_solve`` and ``enummixed_solve``.
``two-groups``, ``west-guessing``
    the payoff table of each interaction group of those examples (the other players at
    their first order set): ``enumpure_solve``.
``support-enumeration-<seed>``
    six random nondegenerate 4 x 4 bimatrix games (`random_bimatrix`):
    ``enummixed_solve`` (every equilibrium).
``sgc-milp-<seed>``
    four random 6 x 5 bimatrix games: ``enummixed_solve``.
``zero-sum``
    a random 5 x 6 zero-sum game: ``lp_solve`` (the value and the strategies).
``no-pure-four``
    the whole 5 x 3 x 3 x 7 table of ``examples/adjustments/no-pure-four.dip`` (four
    powers, no pure equilibrium): ``enumpure_solve`` and ``enumpoly_solve``.

Floats are written with ``repr`` (JSON's own), so the arrays read back bit for bit.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "data" / "gambit"
ADJUST = ROOT / "examples" / "adjustments"


# -- the games -----------------------------------------------------------------------------------

def random_bimatrix(kind: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The random games of the tests, made exactly as they were when pygambit was run
    inside them: ``support-enumeration`` (integers 0..19 plus noise below 1e-3, so the
    game is nondegenerate, 4 x 4), ``sgc-milp`` (uniform in [0, 100), 6 x 5), ``zero-sum``
    (uniform in [0, 10), 5 x 6; the column player's payoffs are ``-A``)."""
    rng = np.random.default_rng(seed)
    if kind == "support-enumeration":
        A = rng.integers(0, 20, (4, 4)).astype(float)
        B = rng.integers(0, 20, (4, 4)).astype(float)
        A += rng.random((4, 4)) * 1e-3
        B += rng.random((4, 4)) * 1e-3
        return A, B
    if kind == "sgc-milp":
        return rng.random((6, 5)) * 100, rng.random((6, 5)) * 100
    if kind == "zero-sum":
        A = rng.random((5, 6)) * 10
        return A, -A
    raise ValueError(kind)


#: (kind, seed) of every random game
RANDOM = ([("support-enumeration", s) for s in range(6)]
          + [("sgc-milp", 100 + s) for s in range(4)] + [("zero-sum", 7)])


def example_groups(name: str) -> list[tuple[tuple[str, ...], np.ndarray]]:
    """Each interaction group of ``examples/adjustments/NAME.dip`` (the influence
    evaluation) with its payoff table, the other players at their first order set;
    for ``trieste``, its one 3 x 3 game."""
    from dipsolve.cli import load
    from dipsolve.algorithms.evaluation import evaluator
    from dipsolve.models.equilibria import AdjustmentGame, group_table, interaction_groups
    position = load(str(ADJUST / f"{name}.dip"))[0]
    game = AdjustmentGame(position, evaluator("influence"))
    groups = ((0, 1),) if name == "trieste" else interaction_groups(game)
    base = tuple(0 for _ in game.players)
    return [(tuple(game.players[i] for i in grp), group_table(game, grp, base)) for grp in groups]


# -- pygambit's answers ------------------------------------------------------------------------------

def _gambit() -> Any:
    try:
        import pygambit
    except ModuleNotFoundError:
        sys.exit("record_gambit: pygambit is not installed (pip install -e '.[peers]')")
    return pygambit


def gambit_pure(table: np.ndarray) -> list[list[int]]:
    """``enumpure_solve``: every pure equilibrium of a table, as option indices."""
    gbt = _gambit()
    maker = getattr(gbt, "StrategicGame", None) or gbt.Game     # pygambit 17 or 16
    g = maker.from_arrays(*(table[..., k] for k in range(table.shape[-1])))
    found = []
    for eq in gbt.nash.enumpure_solve(g).equilibria:
        found.append([next(j for j, s in enumerate(pl.strategies) if float(eq[s]) > 0.5)
                      for pl in g.players])
    return sorted(found)


def gambit_mixed(A: np.ndarray, B: np.ndarray) -> list[list[list[float]]]:
    """``enummixed_solve``: every extreme equilibrium of a bimatrix game, as [x, y]."""
    gbt = _gambit()
    g = gbt.Game.from_arrays(A, B)
    out = []
    for eq in gbt.nash.enummixed_solve(g, rational=False).equilibria:
        out.append([[float(eq[s]) for s in pl.strategies] for pl in g.players])
    return out


def gambit_lp(A: np.ndarray) -> dict[str, Any]:
    """``lp_solve`` of the zero-sum game ``(A, -A)``: the strategies and the value."""
    gbt = _gambit()
    g = gbt.Game.from_arrays(A, -A)
    eq = gbt.nash.lp_solve(g, rational=False).equilibria[0]
    x, y = ([float(eq[s]) for s in pl.strategies] for pl in g.players)
    return {"strategies": [x, y], "value": float(np.array(x) @ A @ np.array(y))}


def gambit_enumpoly(table: np.ndarray) -> list[list[list[float]]]:
    """``enumpoly_solve``: the equilibria of an n-player table found by solving the
    polynomial systems of every support (each player's mixture a list of probabilities)."""
    gbt = _gambit()
    maker = getattr(gbt, "StrategicGame", None) or gbt.Game     # pygambit 17 or 16
    g = maker.from_arrays(*(table[..., k] for k in range(table.shape[-1])))
    return [[[float(eq[s]) for s in pl.strategies] for pl in g.players]
            for eq in gbt.nash.enumpoly_solve(g).equilibria]


# -- the records -------------------------------------------------------------------------------------

def _example(name: str) -> dict[str, Any]:
    groups = []
    for players, table in example_groups(name):
        answers: dict[str, Any] = {"enumpure_solve": gambit_pure(table)}
        if name == "trieste":
            answers["enummixed_solve"] = gambit_mixed(table[..., 0], table[..., 1])
        groups.append({"players": list(players), "payoffs": table.tolist(), **answers})
    return {"made": f"examples/adjustments/{name}.dip, the influence evaluation: each "
                    f"interaction group's payoff table (the other players at their first "
                    f"order set); payoffs[a_1]...[a_k][i] is player i's",
            "groups": groups}


def _no_pure(name: str) -> dict[str, Any]:
    """A position with no pure equilibrium: its one group's whole table, pygambit's pure
    equilibria (none) and its mixed ones by ``enumpoly_solve`` (n players)."""
    ((players, table),) = example_groups(name)
    return {"made": f"examples/adjustments/{name}.dip, the influence evaluation: its one "
                    f"interaction group's whole payoff table; payoffs[a_1]...[a_k][i] is "
                    f"player i's",
            "players": list(players), "payoffs": table.tolist(),
            "enumpure_solve": gambit_pure(table), "enumpoly_solve": gambit_enumpoly(table)}


def _random(kind: str, seed: int) -> dict[str, Any]:
    A, B = random_bimatrix(kind, seed)
    record: dict[str, Any] = {"made": f"random_bimatrix({kind!r}, {seed}) of "
                                      f"tests/tools/record_gambit.py",
                              "kind": kind, "seed": seed, "A": A.tolist(), "B": B.tolist()}
    if kind == "zero-sum":
        record["lp_solve"] = gambit_lp(A)
    else:
        record["enummixed_solve"] = gambit_mixed(A, B)
    return record


#: file name -> how to make its record
GAMES: dict[str, Callable[[], dict[str, Any]]] = {
    **{name: (lambda name=name: _example(name)) for name in ("trieste", "two-groups", "west-guessing")},
    "no-pure-four": lambda: _no_pure("no-pure-four"),
    **{(f"{kind}-{seed}" if kind != "zero-sum" else kind): (lambda kind=kind, seed=seed: _random(kind, seed))
       for kind, seed in RANDOM},
}


def record(name: str) -> dict[str, Any]:
    out = GAMES[name]()
    out["gambit"] = f"pygambit {_gambit().__version__}"
    return out


def dumps(value: Any, indent: str = "") -> str:
    """JSON with one key a line and every list of numbers on one line (payoff tables are
    long: a number a line would make a data file of thousands of lines)."""
    inner = indent + " "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {dumps(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}" if items else "{}"
    if isinstance(value, list) and any(isinstance(v, (list, dict)) for v in value):
        items = [inner + dumps(v, inner) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    return json.dumps(value)


def load(name: str) -> dict[str, Any]:
    """A recorded game (for the tests)."""
    return json.loads((OUT / f"{name}.json").read_text(encoding="utf-8"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="recompute and compare with the files instead of writing them")
    args = ap.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    differ = []
    for name in GAMES:
        text = dumps(record(name)) + "\n"
        path = OUT / f"{name}.json"
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                differ.append(name)
            continue
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    if differ:
        print("differ from pygambit's answers now: " + ", ".join(differ))
        return 1
    if args.check:
        print(f"all {len(GAMES)} records agree with pygambit {_gambit().__version__}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
