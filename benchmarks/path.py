"""Fastest path to 16 and 18 centers: the exact CP-SAT model for all seven powers, timed.

For each power and target (16, 18) from the 1901 start:

* the exact model (`dipsolve.models.path.solve_path`): wall time, status, game years,
  movement phases, and the CP-SAT attempts it took (one per horizon tried);
* the seed's three graph searches (`dipsolve.algorithms.path.search`): nodes expanded and the
  median time of ``--repeat`` runs;
* the ratio of the exact model's time to the breadth-first and A* searches' times.

There is no external peer for this question (no package answers it), so the ratio is
to the project's own searches, which answer the paper's relaxed question, not the real
one.  Speed is measured here, never asserted in tests.

    python benchmarks/path.py                     # full rules, 16 and 18, all powers
    python benchmarks/path.py --rules paper       # the paper's framing
    python benchmarks/path.py --json
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time

from adjudication import _cpu_model   # benchmarks/adjudication.py: the machine's CPU name


def time_search(power: str, algorithm: str, target: int, repeat: int) -> tuple[float, int, int | None]:
    """Median seconds of ``repeat`` runs, nodes expanded, moves."""
    from dipsolve.algorithms.path import search
    from dipsolve.core.position import Position

    start = Position.initial()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = search(start, power, algorithm, target)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), r.nodes_expanded, r.objective


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", choices=("full", "paper"), default="full")
    ap.add_argument("--targets", default="16,18", help="comma-separated targets (default 16,18)")
    ap.add_argument("--powers", default="", help="comma-separated powers (default: all seven)")
    ap.add_argument("--time-limit", type=float, default=60.0, help="per solve (default 60 s)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=50, help="runs of each search (median)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    from dipsolve.core.map import POWERS, power_name
    from dipsolve.models.path import solve_path
    from dipsolve.core.results import Limits
    from dipsolve.core.position import Position

    powers = [power_name(p) for p in args.powers.split(",")] if args.powers else list(POWERS)
    targets = [int(t) for t in args.targets.split(",")]
    start = Position.initial()
    rows = []
    for power in powers:
        for target in targets:
            searches = {a: time_search(power, a, target, args.repeat) for a in ("bfs", "greedy", "astar")}
            sol = solve_path(start, power, target, args.rules, limits=Limits(time_limit=args.time_limit, workers=args.workers))
            row = {"power": power, "target": target, "rules": args.rules, "status": sol.status,
                   "years": sol.years, "moves": sol.objective, "reached": sol.reached,
                   "bound": sol.bound_phase, "seconds": round(sol.seconds, 3),
                   "attempts": [(a.phase, a.status, round(a.seconds, 3)) for a in sol.attempts],
                   "searches": {a: {"seconds": s, "nodes_expanded": n, "moves": mv}
                                for a, (s, n, mv) in searches.items()},
                   "ratio_to_bfs": sol.seconds / searches["bfs"][0],
                   "ratio_to_astar": sol.seconds / searches["astar"][0]}
            rows.append(row)
            if not args.json:
                print(f"{power:8} {target}  {sol.status:9} {sol.years} years ({sol.objective} phases, "
                      f"{sol.reached})  {sol.seconds:6.2f} s  attempts {row['attempts']}", file=sys.stderr)
    machine = {"nproc": os.cpu_count(), "cpu": _cpu_model(), "python": platform.python_version(),
               "load_average": [round(x, 2) for x in os.getloadavg()],
               "date": datetime.date.today().isoformat()}
    if args.json:
        print(json.dumps({"machine": machine, "rules": args.rules, "rows": rows}))
        return 0
    print(f"# dipsolve path: exact CP-SAT model, {args.rules} rules, from the 1901 start")
    print(f"# machine: {machine['nproc']} cores, {machine['cpu']}, Python {machine['python']}, "
          f"load average {machine['load_average']} at the end, {machine['date']}")
    print("# no external peer answers this question: ratios are to dipsolve's own BFS and A* searches")
    print()
    print("| power | N | status | years | phases | exact (s) | BFS nodes / ms | A* nodes / ms "
          "| exact / BFS | exact / A* |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        b, a = r["searches"]["bfs"], r["searches"]["astar"]
        print(f"| {r['power']} | {r['target']} | {r['status']} | {r['years']} | {r['moves']} | "
              f"{r['seconds']:.2f} | {b['nodes_expanded']} / {b['seconds'] * 1e3:.2f} | "
              f"{a['nodes_expanded']} / {a['seconds'] * 1e3:.2f} | {r['ratio_to_bfs']:,.0f}x | "
              f"{r['ratio_to_astar']:,.0f}x |")
    total = sum(r["seconds"] for r in rows)
    worst = max(rows, key=lambda r: r["seconds"])
    print()
    print(f"total {total:.1f} s; slowest {worst['power']} {worst['target']}: {worst['seconds']:.2f} s; "
          f"all optimal: {all(r['status'] == 'optimal' for r in rows)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
