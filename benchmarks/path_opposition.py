"""The fewest years to a solo against a defence: `dipsolve path --opposition`, timed on mid-game positions.

Issue 51's measure: mid-game positions (movement and adjustment phases of 1903–1910) from
the real records of the tests' corpus (``tests/data/records``) and from self-play (games of
seven DumbBots played here, seeds 0 to ``--selfplay`` - 1), and for every power with at
least 6 centers in them, the exact answer to 18 centers under the ``hold`` and the
``supported`` opposition (`dipsolve.models.path.solve_path`), each within ``--time-limit``
seconds on one CP-SAT worker.  Reported per model: how many were proven (optimal, or
infeasible within ``--years``), only bounded (a plan not proven shortest, or no plan yet,
with the bound), the median, 90th percentile and longest wall time, and the calls that
overran their limit by more than 10%.  Every plan is replayed through the adjudicator
against the opposition's orders inside the solve (a plan that does not replay is an
error, never an answer).

    python benchmarks/path_opposition.py --limit 50         # 50 positions, every power with 6 or more
    python benchmarks/path_opposition.py --limit 10 --time-limit 10
    python benchmarks/path_opposition.py --json-out results.json

Speed is measured here, never asserted in tests.
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
from pathlib import Path

from adjudication import _cpu_model   # benchmarks/adjudication.py: the machine's CPU name

RECORDS = Path(__file__).resolve().parent.parent / "tests" / "data" / "records"


def positions(selfplay: int, first: int, last: int, min_centers: int) -> list[tuple[str, object, str]]:
    """(where, position, power) for every power with ``min_centers`` or more in every
    movement and adjustment phase from ``first`` to ``last``."""
    import dipsolve
    from dipsolve.core.map import POWERS

    games: list[tuple[str, list]] = []
    for f in sorted(RECORDS.glob("*.json")):
        record = dipsolve.load_records(str(f))[0]
        games.append((f.stem, [(p.name, p.position) for p in record.phases]))
    from dipsolve.core.results import Limits
    from dipsolve.play.bots import DumbBotPlayer
    from dipsolve.play.games import play_game
    for seed in range(selfplay):
        seen: list = []
        play_game({p: DumbBotPlayer() for p in POWERS}, limits=Limits(seed=seed), until=last,
                  draw_after=None, on_phase=seen.append)
        games.append((f"dumbbot-selfplay-{seed}", [(p.phase.short, p) for p in seen]))
    out = []
    for name, phases in games:
        for short, pos in phases:
            if not first <= pos.phase.year <= last or pos.phase.kind == "retreat":
                continue
            for power in POWERS:
                if len(pos.centers_of(power)) >= min_centers:
                    out.append((f"{name} {short}", pos, power))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--selfplay", type=int, default=4, help="self-play games of seven DumbBots (default 4)")
    ap.add_argument("--first", type=int, default=1903)
    ap.add_argument("--last", type=int, default=1910)
    ap.add_argument("--min-centers", type=int, default=6)
    ap.add_argument("--target", type=int, default=18)
    ap.add_argument("--years", type=int, default=None, help="look no further than this many years")
    ap.add_argument("--time-limit", type=float, default=60.0, help="per solve (default 60 s)")
    ap.add_argument("--limit", type=int, default=0,
                    help="at most this many positions, spread evenly, each with every power that "
                         "has --min-centers (0: all)")
    ap.add_argument("--oppositions", default="hold,supported")
    ap.add_argument("--json-out", metavar="FILE")
    args = ap.parse_args(argv)

    from dipsolve.core.results import Limits
    from dipsolve.models.path import solve_path
    from dipsolve.models.path_problem import moves_within

    cases = positions(args.selfplay, args.first, args.last, args.min_centers)
    places = list(dict.fromkeys(where for where, _, _ in cases))
    if args.limit and len(places) > args.limit:
        step = len(places) / args.limit
        keep = {places[int(i * step)] for i in range(args.limit)}
        cases = [c for c in cases if c[0] in keep]
        places = [w for w in places if w in keep]
    load = os.getloadavg()[0]
    print(f"# {datetime.date.today()}, {_cpu_model()}, nproc {os.cpu_count()}, load {load:.1f}, "
          f"Python {platform.python_version()}: {len(places)} positions, {len(cases)} powers in them, "
          f"target {args.target}, "
          f"{args.time_limit:g} s a solve, 1 CP-SAT worker", file=sys.stderr)
    rows = []
    for where, pos, power in cases:
        for opposition in args.oppositions.split(","):
            t0 = time.perf_counter()
            sol = solve_path(pos, power, args.target, max_moves=moves_within(pos.phase, args.years),
                             opposition=opposition, limits=Limits(time_limit=args.time_limit))
            wall = time.perf_counter() - t0
            proven = sol.status in ("optimal", "infeasible")
            rows.append({"where": where, "power": power, "centers": len(pos.centers_of(power)),
                         "opposition": opposition, "status": str(sol.status), "years": sol.years,
                         "bound_years": sol.bound_years, "proven": proven, "seconds": round(wall, 3)})
            print(f"  {where:34} {power:8} {rows[-1]['centers']:2}  {opposition:9} {sol.status!s:10} "
                  f"years {sol.years!s:4} bound {sol.bound_years!s:4} {wall:6.2f} s", file=sys.stderr)
    summary = {}
    for opposition in args.oppositions.split(","):
        mine = [r for r in rows if r["opposition"] == opposition]
        secs = sorted(r["seconds"] for r in mine)
        p90 = secs[min(len(secs) - 1, int(round(0.9 * (len(secs) - 1))))] if secs else None
        summary[opposition] = {
            "answers": len(mine), "proven": sum(r["proven"] for r in mine),
            "bounded": sum(not r["proven"] for r in mine),
            "statuses": {s: sum(r["status"] == s for r in mine) for s in sorted({r["status"] for r in mine})},
            "median_seconds": statistics.median(secs) if secs else None, "p90_seconds": p90,
            "max_seconds": secs[-1] if secs else None,
            "over_limit_10pct": sum(s > 1.1 * args.time_limit for s in secs)}
        s = summary[opposition]
        print(f"{opposition:9} {s['answers']} answers: {s['proven']} proven, {s['bounded']} bounded "
              f"{s['statuses']}; median {s['median_seconds']:.2f} s, 90th percentile {s['p90_seconds']:.2f} s, "
              f"longest {s['max_seconds']:.2f} s, {s['over_limit_10pct']} over the limit by more than 10%")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps({
            "date": str(datetime.date.today()), "cpu": _cpu_model(), "nproc": os.cpu_count(),
            "load": load, "time_limit": args.time_limit, "target": args.target, "positions": len(places),
            "summary": summary, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
