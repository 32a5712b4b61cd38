"""Adjustment equilibria: dipsolve against pygambit on the same games, in one process.

For each example position of ``examples/adjustments`` (and the two winters of the
example game) both sides start from the position and the same evaluator (influence,
Hall & Loeb 4.1), with a fresh payoff cache each:

* dipsolve: ``solve_equilibrium(position, influence, kind)``: the combined search, the
  structure analysis, LP/MILP for the groups that need it, and the certificate;
* pygambit: the full strategic game (every joint profile evaluated for every power,
  the same payoff function), then ``enumpure_solve`` (pure) or ``lcp_solve`` (mixed, two
  players) or ``gnm_solve`` (mixed, more players); its answer's largest regret
  (``max_regret``) is printed beside dipsolve's certified epsilon.  Where the joint table is too large to build, the time
  pygambit would need just to fill it is estimated from the measured cost of one
  evaluation and printed as an estimate, never as a ratio.

A second table compares the solvers alone on the same two-player payoff tables:
dipsolve's support enumeration and Sandholm-Gilpin-Conitzer MILP against pygambit's
``lcp_solve`` and ``enummixed_solve``.

    python benchmarks/adjustments.py
    python benchmarks/adjustments.py --json
    python benchmarks/adjustments.py --only stress     # issue 15's large positions
    python benchmarks/adjustments.py --random 20       # 20 random ones of each shape
    python benchmarks/adjustments.py --within 5 --clock cpu   # issue 52: every kind, 5 s

pygambit is a peer, not a dependency (16.x has no wheel for Python 3.11 on Linux and
compiles for most of an hour; the 17.0 pre-release has one: ``pip install --pre
pygambit``): ``pip install -e '.[peers]'`` installs it.  Both APIs are used (17 made
``Game.from_arrays`` into ``StrategicGame.from_arrays``).  Without it
the benchmark times dipsolve alone and says so; the tests compare with pygambit's
recorded answers (``tests/tools/record_gambit.py``).

Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
GAMES = [("examples/adjustments/trieste.dip", "mixed"),
         ("examples/adjustments/two-groups.dip", "pure"),
         ("examples/adjustments/two-groups.dip", "mixed"),
         ("examples/adjustments/west-guessing.dip", "pure"),
         ("examples/adjustments/west-guessing.dip", "mixed"),
         ("examples/w1902a.dip", "pure"),
         ("examples/w1901a.dip", "pure"),
         ("examples/adjustments/billion.dip", "pure"),
         ("examples/adjustments/no-pure-four.dip", "pure"),
         ("examples/adjustments/no-pure-four.dip", "correlated"),
         # issue 15's stress positions (tests/tools/make_adjustment_examples.py): the
         # combined search cycles on all of them
         ("examples/adjustments/stress-two-removers.dip", "pure"),
         ("examples/adjustments/stress-two-removers.dip", "correlated"),
         ("examples/adjustments/stress-two-removers.dip", "coarse"),
         ("examples/adjustments/stress-two-removers.dip", "mixed"),
         ("examples/adjustments/stress-wide.dip", "pure"),
         ("examples/adjustments/stress-wide.dip", "correlated"),
         ("examples/adjustments/stress-correlated.dip", "pure"),
         ("examples/adjustments/stress-correlated.dip", "correlated"),
         ("examples/adjustments/stress-correlated.dip", "mixed"),
         ("examples/adjustments/stress-three-removers.dip", "pure"),
         ("examples/adjustments/stress-three-removers.dip", "correlated"),
         ("examples/adjustments/stress-three-removers.dip", "mixed"),
         ("examples/adjustments/worst-case-waives.dip", "pure")]
TABLE_LIMIT = 6_000        # joint profiles pygambit's side builds; larger ones are estimated


def _cpu_model() -> str:
    """The CPU's name, as the adjudication benchmark reports it."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from adjudication import _cpu_model as cpu_model
    return cpu_model()


def _load(path: str):
    from dipsolve.cli import load
    return load(str(ROOT / path))[0]


def _fresh(position):
    from dipsolve.core.position import Position
    return Position.build(position.phase, position.units, position.centers)


def time_dipsolve(position, kind: str) -> tuple[float, object]:
    from dipsolve.algorithms.evaluation import evaluator
    from dipsolve.models.equilibria import solve_equilibrium
    from dipsolve.core.results import Limits
    t0 = time.perf_counter()
    eq = solve_equilibrium(_fresh(position), evaluator("influence"), kind, limits=Limits(time_limit=600))
    return time.perf_counter() - t0, eq


def _pygambit():
    """pygambit, or None when it is not installed."""
    try:
        import pygambit
    except ModuleNotFoundError:
        return None
    return pygambit


def _from_arrays(gbt, *tables):
    """A strategic game of pygambit from payoff tables: ``StrategicGame.from_arrays``
    (pygambit 17, which dropped ``Game.from_arrays``), else ``Game.from_arrays`` (16)."""
    maker = getattr(gbt, "StrategicGame", None) or gbt.Game
    return maker.from_arrays(*tables)


def time_gambit(position, kind: str) -> tuple[float, int, float]:
    gbt = _pygambit()
    from dipsolve.algorithms.evaluation import evaluator
    from dipsolve.models.equilibria import AdjustmentGame
    t0 = time.perf_counter()
    game = AdjustmentGame(_fresh(position), evaluator("influence"))
    sizes = game.sizes
    table = np.empty(sizes + (len(sizes),))
    for profile in itertools.product(*(range(s) for s in sizes)):
        for i in range(len(sizes)):
            table[profile + (i,)] = game.payoff(profile, i)
    g = _from_arrays(gbt, *(table[..., i] for i in range(len(sizes))))
    if kind == "mixed" and len(sizes) == 2:
        found = gbt.nash.lcp_solve(g, rational=False).equilibria
    elif kind == "mixed":
        found = gbt.nash.gnm_solve(g).equilibria
    else:
        found = gbt.nash.enumpure_solve(g).equilibria
    seconds = time.perf_counter() - t0
    regret = max((float(e.max_regret()) for e in found), default=math.nan)
    return seconds, len(found), regret


def evaluation_cost(position, samples: int = 300) -> float:
    """Seconds per payoff evaluation (a fresh position each time, as a table needs)."""
    from dipsolve.algorithms.evaluation import evaluator
    from dipsolve.models.equilibria import AdjustmentGame
    game = AdjustmentGame(_fresh(position), evaluator("influence"))
    rng = np.random.default_rng(0)
    profiles = [tuple(int(rng.integers(s)) for s in game.sizes) for _ in range(samples)]
    t0 = time.perf_counter()
    for p in profiles:
        for i in range(len(game.sizes)):
            game.payoff(p, i)
    return (time.perf_counter() - t0) / (samples * len(game.sizes))


def solver_tables() -> list[tuple[str, np.ndarray, np.ndarray]]:
    """Two-player payoff tables of the examples (the influence evaluator), plus random
    ones of growing size, for the solver-only comparison."""
    from dipsolve.algorithms.evaluation import evaluator
    from dipsolve.models.equilibria import AdjustmentGame, group_table, interaction_groups
    out = []
    for path in ("examples/adjustments/trieste.dip", "examples/adjustments/west-guessing.dip",
                 "examples/adjustments/two-groups.dip"):
        game = AdjustmentGame(_load(path), evaluator("influence"))
        for grp in interaction_groups(game):
            if len(grp) == 2:
                t = group_table(game, grp, tuple(0 for _ in game.players))
                names = "+".join(game.players[i] for i in grp)
                out.append((f"{Path(path).name} {names} {t.shape[0]}x{t.shape[1]}", t[..., 0], t[..., 1]))
    rng = np.random.default_rng(1)
    for m in (6, 8, 10):
        out.append((f"random {m}x{m}", rng.random((m, m)) * 100, rng.random((m, m)) * 100))
    return out


def time_solvers(A: np.ndarray, B: np.ndarray) -> dict[str, float]:
    gbt = _pygambit()
    from dipsolve.models.games import sgc_milp, support_enumeration
    from dipsolve.core.results import Deadline, TimeUp
    out = {}
    t0 = time.perf_counter()
    try:
        support_enumeration(A, B, Deadline(30))
        out["dipsolve support enumeration"] = time.perf_counter() - t0
    except TimeUp:
        out["dipsolve support enumeration"] = math.nan     # more than 30 s
    t0 = time.perf_counter()
    sgc_milp(A, B, Deadline(120))
    out["dipsolve SGC MILP (CBC)"] = time.perf_counter() - t0
    if gbt is None:
        return out
    g = _from_arrays(gbt, A, B)
    t0 = time.perf_counter()
    gbt.nash.lcp_solve(g, rational=False)
    out["pygambit lcp_solve"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    gbt.nash.enummixed_solve(g, rational=False)
    out["pygambit enummixed_solve (all)"] = time.perf_counter() - t0
    return out


#: the generator's shapes of `--random`: two removers (8 of 16) or three (7 of 14)
SHAPES = {"two removers": {}, "three removers": {"units": 14, "removals": 7, "builders": 4}}
TRIOS = [("Austria", "Italy", "Turkey"), ("Austria", "Russia", "Turkey"),
         ("England", "France", "Germany"), ("France", "Germany", "Italy")]


def random_positions(n: int, kinds: list[str]) -> list[dict]:
    """Issue 15's sweep: ``n`` seeds of each shape of `random_adjustment_position`, each
    solved for every kind in ``kinds`` (fresh game each, time limit 60 s): the profiles,
    the kind answered, status, epsilon, seconds, and how the cycle was resolved."""
    from dipsolve.algorithms.adjustments import joint_count
    from dipsolve.algorithms.evaluation import evaluator
    from dipsolve.models.equilibria import solve_equilibrium
    from dipsolve.core.results import Limits
    from dipsolve.testing import random_adjustment_position
    rows = []
    for shape, kw in SHAPES.items():
        for seed in range(n):
            extra = dict(kw)
            if shape == "three removers":
                extra["removers"] = TRIOS[seed % len(TRIOS)]
            position = random_adjustment_position(seed, **extra)
            for kind in kinds:
                t0 = time.perf_counter()
                eq = solve_equilibrium(_fresh(position), evaluator("influence"), kind,
                                       limits=Limits(time_limit=60))
                rows.append({"shape": shape, "seed": seed, "asked": kind,
                             "profiles": joint_count(position, True), "answer": eq.kind,
                             "status": eq.status, "epsilon": eq.epsilon,
                             "seconds": time.perf_counter() - t0,
                             "method": eq.groups[0].method if eq.groups else "",
                             "note": eq.groups[0].note if eq.groups else "",
                             "cycled": any("cycled" in x for x in eq.notes)})
    return rows


def print_random(rows: list[dict]) -> None:
    print(f"{'shape':15} {'seed':>4} {'asked':10} {'profiles':>21} {'seconds':>8}  answer")
    for r in rows:
        print(f"{r['shape']:15} {r['seed']:4} {r['asked']:10} {r['profiles']:21,} "
              f"{r['seconds']:7.2f}s  {r['answer']} {r['status']}, epsilon {r['epsilon']:.2g}"
              f"{'' if r['cycled'] else ' (no cycle)'}; {r['method']}")
    for asked in dict.fromkeys(r["asked"] for r in rows):
        mine = [r for r in rows if r["asked"] == asked]
        cyc = [r for r in mine if r["cycled"]]
        ok = [r for r in cyc if r["status"] == "optimal" and r["epsilon"] <= 1e-6]
        secs = sorted(r["seconds"] for r in cyc)
        if secs:
            print(f"# {asked}: {len(cyc)} of {len(mine)} positions cycled; {len(ok)} of them "
                  f"certified (epsilon <= 1e-6); seconds median {secs[len(secs) // 2]:.2f}, "
                  f"max {secs[-1]:.2f}; answers: "
                  + ", ".join(f"{k} {sum(1 for r in cyc if r['answer'] == k)}"
                              for k in dict.fromkeys(r["answer"] for r in cyc)))


#: the kinds `--within` asks of every position
KINDS = ("pure", "mixed", "correlated", "coarse")


def within(seconds: float, clock: str, only: str | None) -> list[dict]:
    """Issue 52: every position of ``examples/adjustments`` and every kind, each call
    under ``Limits(time_limit=seconds, clock=clock)`` (a fresh game each): what it
    answered, whether certified, and the wall and CPU seconds it took."""
    from dipsolve.algorithms.evaluation import evaluator
    from dipsolve.models.equilibria import solve_equilibrium
    from dipsolve.core.results import Limits
    rows = []
    for path in sorted((ROOT / "examples" / "adjustments").glob("*.dip")):
        if only and only not in path.name:
            continue
        position = _load(str(path.relative_to(ROOT)))
        for kind in KINDS:
            w0, c0 = time.perf_counter(), time.process_time()
            eq = solve_equilibrium(_fresh(position), evaluator("influence"), kind,
                                   limits=Limits(time_limit=seconds, clock=clock))
            rows.append({"game": path.name, "asked": kind, "answer": eq.kind,
                         "status": eq.status, "epsilon": eq.epsilon,
                         "certified": eq.status == "optimal" and eq.epsilon <= 1e-6,
                         "wall_s": time.perf_counter() - w0, "cpu_s": time.process_time() - c0,
                         "method": "; ".join(g.method for g in eq.groups if len(g.powers) > 1)})
    return rows


def print_within(rows: list[dict], seconds: float, clock: str) -> None:
    print(f"{'game':28} {'asked':10} {'wall':>6} {'cpu':>6}  answer")
    for r in rows:
        print(f"{r['game']:28} {r['asked']:10} {r['wall_s']:5.2f}s {r['cpu_s']:5.2f}s  "
              f"{r['answer']} {r['status']}, epsilon {r['epsilon']:.2g}; {r['method']}")
    for kind in KINDS:
        mine = [r for r in rows if r["asked"] == kind]
        if mine:
            ok = sum(r["certified"] for r in mine)
            print(f"# {kind}: {ok} of {len(mine)} certified within {seconds:g} s ({clock} clock); "
                  f"slowest {max(r['wall_s'] for r in mine):.2f} s wall, "
                  f"{max(r['cpu_s'] for r in mine):.2f} s CPU")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--only", help="only the games whose file name contains this text "
                                   "(and no solver-only table)")
    ap.add_argument("--random", type=int, metavar="N",
                    help="instead: N seeded random large positions of each shape "
                         "(dipsolve.testing.random_adjustment_position)")
    ap.add_argument("--kinds", default="pure,correlated,mixed",
                    help="with --random: the kinds asked (comma-separated)")
    ap.add_argument("--within", type=float, metavar="S",
                    help="instead: every position of examples/adjustments and every kind, "
                         "each under a time limit of S seconds")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="with --within: the limit's clock (cpu on a shared machine)")
    args = ap.parse_args(argv)
    if args.within:
        rows = within(args.within, args.clock, args.only)
        if args.json:
            print(json.dumps(rows, indent=1))
        else:
            print(f"# {time.strftime('%Y-%m-%d %H:%M')}, {_cpu_model()}, nproc {os.cpu_count()}, "
                  f"load {os.getloadavg()[0]:.1f}, --within {args.within:g} --clock {args.clock}")
            print_within(rows, args.within, args.clock)
        return 0
    if args.random:
        rows = random_positions(args.random, args.kinds.split(","))
        if args.json:
            print(json.dumps(rows, indent=1))
        else:
            print(f"# {time.strftime('%Y-%m-%d %H:%M')}, {_cpu_model()}, nproc {os.cpu_count()}, "
                  f"load {os.getloadavg()[0]:.1f}")
            print_random(rows)
        return 0
    gambit = _pygambit()
    if gambit is None:
        print("# pygambit is not installed (pip install -e '.[peers]'): dipsolve alone, "
              "no pygambit columns", file=sys.stderr)
    rows = []
    for path, kind in GAMES:
        if args.only and args.only not in path:
            continue
        from dipsolve.algorithms.adjustments import joint_count
        from dipsolve.models.equilibria import AdjustmentGame
        position = _load(path)
        profiles = AdjustmentGame(position, lambda p, q: 0.0).joint_profiles
        ours, eq = time_dipsolve(position, kind)
        row = {"game": Path(path).name, "kind": kind, "profiles": profiles,
               "joint_count": joint_count(position), "dipsolve_s": ours, "status": eq.status,
               "epsilon": eq.epsilon, "answer": eq.kind, "evaluations": eq.evaluations}
        if gambit is not None and profiles <= TABLE_LIMIT:
            theirs, found, regret = time_gambit(position, kind)
            row.update(pygambit_s=theirs, pygambit_equilibria=found, pygambit_regret=regret,
                       ratio=theirs / ours)
        elif gambit is not None:
            cost = evaluation_cost(position)
            row.update(pygambit_estimate_s=cost * profiles * len(AdjustmentGame(position, lambda p, q: 0.0).sizes),
                       evaluation_s=cost)
        rows.append(row)
    solvers = ([] if args.only else
               [{"table": name, **time_solvers(A, B)} for name, A, B in solver_tables()])
    info = {"date": time.strftime("%Y-%m-%d"), "cpu": _cpu_model(), "nproc": os.cpu_count(),
            "python": sys.version.split()[0],
            "pygambit": getattr(gambit, "__version__", None) if gambit else None,
            "games": rows, "solvers": solvers}
    if args.json:
        def clean(v):     # NaN (nothing found, or more than 30 s) is null in JSON
            if isinstance(v, float) and math.isnan(v):
                return None
            if isinstance(v, dict):
                return {k: clean(x) for k, x in v.items()}
            if isinstance(v, list):
                return [clean(x) for x in v]
            return v
        print(json.dumps(clean(info), indent=1))
        return 0
    print(f"# {info['date']}, {info['cpu']}, nproc {info['nproc']}, Python {info['python']}, "
          f"{'pygambit ' + str(info['pygambit']) if gambit else 'pygambit not installed'}")
    print(f"{'game':26} {'asked':10} {'profiles':>21} {'dipsolve':>9} {'pygambit':>13} {'ratio':>7}"
          f"  dipsolve answer (kind, status, epsilon) / pygambit's")
    for r in rows:
        if "pygambit_s" in r:
            theirs, ratio = f"{r['pygambit_s']:.3f} s", f"{r['ratio']:.1f}x"
            peer = f"{r['pygambit_equilibria']} found, max regret {r['pygambit_regret']:.2g}"
        elif gambit is None:
            theirs, ratio, peer = "-", "-", "pygambit not installed"
        else:
            theirs, ratio = f"~{r['pygambit_estimate_s']:,.0f} s est", "-"
            peer = f"table too large (est. {r['evaluation_s'] * 1e6:.0f} us per evaluation)"
        print(f"{r['game']:26} {r['kind']:10} {r['profiles']:21,} {r['dipsolve_s']:8.3f}s {theirs:>13} "
              f"{ratio:>7}  {r['answer']} {r['status']}, epsilon {r['epsilon']:.2g} / {peer}")
    if not solvers:
        return 0
    print()
    names = list(solvers[0])[1:]
    print(f"{'two-player table':40} " + " ".join(f"{n[:24]:>24}" for n in names))
    for s in solvers:
        print(f"{s['table']:40} " + " ".join(f"{s[n] * 1000:21.1f} ms" for n in names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
