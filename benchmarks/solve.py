"""``dipsolve solve``: how well the time limit is kept, how fast positions are judged, and
how early the agenda search finds the best order set.

Three measurements:

1. *time limit*: every method (agenda, minimax, expectimax, cpsat) through
   `dipsolve.api.solve` on a fixed set of positions (the 1901 start and random mid-game
   positions, `dipsolve.testing.random_position`), for every power with units, at each
   ``--limits`` value: the wall time of ``solve`` against the limit (the issue asks for
   10%), and whether orders came back for every unit.  ``cpsat`` runs with OR-Tools
   loaded before the clock starts (as a bot's check loads it before a game); *cold
   start* runs it in fresh processes, where the import (about a second) is inside the
   limit: below 2.5 s the method answers with the agenda search, ``timed out``;
2. *speed*: positions judged per second (adjudication plus influence evaluation), the
   agenda search's inner loop;
3. *best-first vs enumeration*: for small powers (at most ``--max-units`` units), the
   number of order sets the agenda search evaluates before it first tests the best set
   (with everybody else holding), against the number of useful order sets an exhaustive
   enumeration evaluates: the saving that Hall & Loeb's best-first search promises
   (seed 002, 3.2–3.3).

    python benchmarks/solve.py
    python benchmarks/solve.py --positions 6 --limits 0.5 2 --json

Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import time


def _positions(n: int):
    from dipsolve.core.position import Position
    from dipsolve.testing import random_position
    out = [("start", Position.initial())]
    for seed in range(n - 1):
        out.append((f"random {seed}", random_position(seed, n_units=22 + seed % 8)))
    return out


def time_limits(positions, methods, limits, models=("default",)):
    import dataclasses

    from dipsolve.api import DEFAULT_LIMITS, MethodUnavailable, check_method, solve
    from dipsolve.search.strategy import named
    rows = []
    for method, model in itertools.product(methods, models):
        opponents = None if model == "default" else model
        try:
            check_method(method)         # cpsat: OR-Tools loaded before the clock starts
        except MethodUnavailable:
            rows += [{"method": method, "opponents": model, "limit": limit, "available": False}
                     for limit in limits]
            continue
        for limit in limits:
            ratios, missing, statuses = [], 0, {}
            strategy = named(method, opponents)
            call_limits = dataclasses.replace(DEFAULT_LIMITS, time_limit=limit)
            for _, position in positions:
                for power in position.powers():
                    units = position.units_of(power)
                    if not units:
                        continue
                    t0 = time.perf_counter()
                    s = solve(position, power, strategy, limits=call_limits)
                    wall = time.perf_counter() - t0
                    ratios.append(wall / limit)
                    statuses[str(s.status)] = statuses.get(str(s.status), 0) + 1
                    if {(o.kind, o.location) for o in s.orders} != {(u.kind, u.location) for u in units}:
                        missing += 1
            over = sum(1 for r in ratios if r > 1.10)
            rows.append({"method": method, "opponents": model, "limit": limit, "available": True,
                         "runs": len(ratios),
                         "mean_ratio": sum(ratios) / len(ratios), "max_ratio": max(ratios),
                         "over_10pct": over, "missing_orders": missing, "statuses": statuses})
    return rows


_COLD = """
import json, sys, time
from dipsolve.api import solve
from dipsolve.core.position import Position
from dipsolve.core.results import Limits
from dipsolve.search.strategy import CpSat, Strategy
limit = float(sys.argv[1])
t0 = time.perf_counter()
s = solve(Position.initial(), "Turkey", Strategy(CpSat()), limits=Limits(time_limit=limit, workers=2))
wall = time.perf_counter() - t0
print(json.dumps({"wall": wall, "status": str(s.status), "orders": len(s.orders),
                  "loaded": "ortools.sat.python.cp_model" in sys.modules}))
"""


def cold_start(limits, repeat: int = 3):
    """cpsat in fresh processes (Turkey, 1901): OR-Tools' import inside the limit; the
    wall time of the call, not of the interpreter's start."""
    rows = []
    for limit in limits:
        runs = [json.loads(subprocess.run([sys.executable, "-c", _COLD, str(limit)], check=True,
                                          capture_output=True, text=True).stdout)
                for _ in range(repeat)]
        rows.append({"limit": limit, "runs": len(runs),
                     "max_ratio": max(r["wall"] for r in runs) / limit,
                     "mean_ratio": sum(r["wall"] for r in runs) / len(runs) / limit,
                     "statuses": sorted(r["status"] for r in runs),
                     "model_loaded": sum(r["loaded"] for r in runs)})
    return rows


def speed(positions, seconds: float = 2.0):
    """Positions judged per second: adjudicate + influence, on fresh order sets."""
    from dipsolve.core.adjudicator import adjudicate
    from dipsolve.algorithms.evaluation import influence
    from dipsolve.core.legal import useful_orders
    jobs = []
    for _, position in positions:
        for power in position.powers():
            opts = useful_orders(position, power)
            for unit, orders in opts.items():
                for o in orders:
                    jobs.append((position, power, o))
    n = 0
    t0 = time.perf_counter()
    for position, power, o in itertools.cycle(jobs):
        influence(adjudicate(position, {power: [o]}).next, power)
        n += 1
        if n % 200 == 0 and time.perf_counter() - t0 >= seconds:
            break
    return n / (time.perf_counter() - t0)


def best_first(positions, max_units: int):
    """Order sets evaluated by the agenda search before it tests the best set, against
    an exhaustive enumeration of the useful sets (everybody else holding)."""
    from dipsolve.core.adjudicator import adjudicate
    from dipsolve.algorithms.evaluation import influence
    from dipsolve.search.agenda import AgendaSearch
    from dipsolve.core.legal import useful_orders, useless
    rows = []
    for name, position in positions:
        for power in position.powers():
            units = position.units_of(power)
            if not units or len(units) > max_units:
                continue
            opts = useful_orders(position, power)
            best, count = float("-inf"), 0
            for combo in itertools.product(*opts.values()):
                if useless(position, combo):
                    continue
                count += 1
                best = max(best, influence(adjudicate(position, {power: list(combo)}).next, power))
            evaluated_at_best = None
            search = AgendaSearch(position, power, influence)

            def test(orders, search=search):
                nonlocal evaluated_at_best
                v = search.value(frozenset(orders))
                if evaluated_at_best is None and v >= best - 1e-9:
                    evaluated_at_best = len(search.values)
                return v
            search.test = test
            r = search.run()
            rows.append({"position": name, "power": power, "units": len(units),
                         "enumerated": count, "agenda_evaluations": r.evaluations,
                         "evaluations_to_best": evaluated_at_best,
                         "found_best": r.best.value >= best - 1e-9})
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=4, help="positions (the start and random ones)")
    ap.add_argument("--limits", type=float, nargs="+", default=[0.5, 2.0], help="time limits (s)")
    ap.add_argument("--methods", nargs="+", default=["agenda", "minimax", "expectimax", "cpsat"])
    ap.add_argument("--opponents", nargs="+", default=["default", "sampled"],
                    help="opponent models: default (each method's own) and/or sampled")
    ap.add_argument("--max-units", type=int, default=4, help="largest power enumerated exhaustively")
    ap.add_argument("--cold-limits", type=float, nargs="*", default=[0.2, 2.0, 3.0, 5.0],
                    help="time limits of the cold-start cpsat runs (none: skip them)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    positions = _positions(args.positions)
    out = {"machine": {"nproc": os.cpu_count(), "python": sys.version.split()[0]},
           "positions": [n for n, _ in positions],
           "cold_start": cold_start(args.cold_limits) if "cpsat" in args.methods else [],
           "time_limit": time_limits(positions, args.methods, args.limits, args.opponents),
           "positions_per_second": speed(positions),
           "best_first": best_first(positions, args.max_units)}
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"positions: {', '.join(out['positions'])}; nproc {out['machine']['nproc']}")
    print("\ntime limit kept (wall / limit), every power of every position:")
    print(f"  {'method':<11} {'opponents':<9} {'limit':>6} {'runs':>5} {'mean':>6} {'max':>6} {'>110%':>6} {'no orders':>9}  statuses")
    for r in out["time_limit"]:
        if not r["available"]:
            print(f"  {r['method']:<11} {r['opponents']:<9} {r['limit']:>6g}  not available")
            continue
        st = ", ".join(f"{k} {v}" for k, v in sorted(r["statuses"].items()))
        print(f"  {r['method']:<11} {r['opponents']:<9} {r['limit']:>6g} {r['runs']:>5} {r['mean_ratio']:>6.3f} "
              f"{r['max_ratio']:>6.3f} {r['over_10pct']:>6} {r['missing_orders']:>9}  {st}")
    print("  (max per method: " + ", ".join(
        f"{m} {max(r['max_ratio'] for r in out['time_limit'] if r['method'] == m and r['available']):.3f}"
        for m in args.methods if any(r["available"] for r in out["time_limit"] if r["method"] == m)) + ")")
    if out["cold_start"]:
        print("\ncpsat from a cold start (a fresh process, OR-Tools' import inside the limit; Turkey 1901):")
        print(f"  {'limit':>6} {'runs':>5} {'mean':>6} {'max':>6}  model loaded  statuses")
        for r in out["cold_start"]:
            print(f"  {r['limit']:>6g} {r['runs']:>5} {r['mean_ratio']:>6.3f} {r['max_ratio']:>6.3f}  "
                  f"{r['model_loaded']:>12}  {', '.join(r['statuses'])}")
    print(f"\npositions judged per second (adjudicate + influence): {out['positions_per_second']:,.0f}")
    rows = out["best_first"]
    if rows:
        print(f"\nbest-first vs enumeration (powers of at most {args.max_units} units, others holding):")
        print(f"  {'position':<10} {'power':<8} {'units':>5} {'enumerated':>10} {'agenda':>7} {'to best':>8}  ratio")
        for r in rows:
            to_best = r["evaluations_to_best"]
            ratio = f"{r['enumerated'] / to_best:.1f}x" if to_best else "never"
            print(f"  {r['position']:<10} {r['power']:<8} {r['units']:>5} {r['enumerated']:>10} "
                  f"{r['agenda_evaluations']:>7} {to_best if to_best else '-':>8}  {ratio}")
        total_e = sum(r["enumerated"] for r in rows)
        total_b = sum(r["evaluations_to_best"] or r["agenda_evaluations"] for r in rows)
        print(f"  all: {total_e} enumerated, {total_b} evaluated by the agenda search before "
              f"testing the best: {total_e / total_b:.1f}x fewer")
    return 0


if __name__ == "__main__":
    sys.exit(main())
