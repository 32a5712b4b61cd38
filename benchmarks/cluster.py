"""Scaling of a tournament on the backends of `dipsolve.execution`, and Ray's cost per job.

1. The strength tournament of benchmarks/play.py (one dipsolve seat against six DumbBots,
   the dipsolve seat rotated) played on each backend: this process; 1 and 2 local worker
   processes; a local Ray of 1 and 2 CPUs.  Reported per backend: the wall time of the
   games (a local Ray's start-up apart), and the scaling efficiency of 2 workers,
   T(1 worker) / (2 x T(2 workers)).
2. The cost of a job that does nothing (`dipsolve.testing.jobs.square`): ``--jobs``
   trivial jobs on each backend, wall seconds per job: what Ray adds to every job.  Two
   runs: the first starts the workers (a local pool starts its processes in every run, Ray
   keeps its workers), the second is timed again ("warm").

    python benchmarks/cluster.py --games 14 --until 1910 --time-limit 0.1     # a few minutes
    python benchmarks/cluster.py --games 70 --time-limit 2                     # the issue's run: hours
    python benchmarks/cluster.py --games 0 --jobs 2000                         # the cost per job only
    python benchmarks/cluster.py --no-ray                                      # without the extra
    python benchmarks/cluster.py --json
    python benchmarks/cluster.py --backends local:1,local:2,ray:1,ray:2   # leave this process out

A dipsolve seat thinks against its clock, so a game's moves (and its length) can differ
between runs; the DumbBot seats are deterministic.  Give each worker a core of its own:
on a machine whose cores are busy, two workers are slower than two idle cores would be.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time


def _tournament(ex, args) -> tuple[float, int]:
    from dipsolve.play.bots import DumbBotPlayer
    from dipsolve.play.registry import make_bot
    from dipsolve.play.games import play_series
    seating = [make_bot("dipsolve", "influence", "sampled")] + [DumbBotPlayer()] * 6
    started = time.perf_counter()
    from dipsolve.core.results import Limits
    records = play_series(seating, args.games, limits=Limits(time_limit=args.time_limit, seed=args.seed),
                          until=args.until, rotate=True, executor=ex,
                          draw_after=None)      # played to --until, as every run recorded
    return time.perf_counter() - started, sum(len(r.phases) for r in records)


def _trivial(ex, jobs: int) -> float:
    from dipsolve.testing.jobs import square
    done = []
    started = time.perf_counter()
    ex.run(square, [(str(i), i) for i in range(jobs)], done.append)
    seconds = time.perf_counter() - started
    assert len(done) == jobs and all(d.ok for d in done)
    return seconds / jobs


BACKENDS = ("inprocess:1", "local:1", "local:2", "ray:1", "ray:2")


def _backends(args):
    """(label, workers, a function that makes the executor) for every backend measured."""
    from dipsolve.execution import InProcess, LocalPool
    out = []
    for name in args.backends:
        kind, workers = name.split(":")
        n = int(workers)
        if kind == "inprocess":
            out.append(("this process", 1, InProcess))
        elif kind == "local":
            out.append(("local processes", n, lambda n=n: LocalPool(n)))
        elif not args.no_ray:
            from dipsolve.execution.ray_cluster import RayExecutor
            out.append(("ray (local)", n, lambda n=n: RayExecutor(None, n)))
    return out


def _backend_list(text: str) -> list[str]:
    names = [t.strip() for t in text.split(",") if t.strip()]
    bad = [n for n in names if n not in BACKENDS]
    if bad or not names:
        raise argparse.ArgumentTypeError(
            f"unknown backend {bad[0] if bad else text!r}; expected some of {', '.join(BACKENDS)}")
    return names


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=14)
    ap.add_argument("--until", type=int, default=1910)
    ap.add_argument("--time-limit", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=400, help="trivial jobs for the per-job cost")
    ap.add_argument("--no-ray", action="store_true", help="leave Ray out (no 'cluster' extra)")
    ap.add_argument("--backends", type=_backend_list, default=list(BACKENDS),
                    help="comma-separated, in order (default all): " + ", ".join(BACKENDS))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    rows = []
    for label, workers, make in _backends(args):
        t0 = time.perf_counter()
        ex = make()
        startup = time.perf_counter() - t0
        try:
            per_job = _trivial(ex, args.jobs)
            warm = _trivial(ex, args.jobs)
            wall, phases = _tournament(ex, args) if args.games else (0.0, 0)
        finally:
            ex.close()
        row = {"backend": label, "workers": workers, "startup_seconds": round(startup, 2),
               "tournament_seconds": round(wall, 1), "phases": phases,
               "seconds_per_trivial_job": round(per_job, 5), "warm_seconds_per_trivial_job": round(warm, 5)}
        rows.append(row)
        print(f"  {label}, {workers}: start {startup:.1f} s, {args.games} games in {wall:.1f} s "
              f"({phases} phases), {1000 * per_job:.2f} ms a trivial job ({1000 * warm:.2f} warm)",
              file=sys.stderr, flush=True)

    for row in rows:
        one = next((r for r in rows if r["backend"] == row["backend"] and r["workers"] == 1), None)
        if row["workers"] == 2 and one is not None:
            if row["tournament_seconds"]:
                row["efficiency"] = round(one["tournament_seconds"] / (2 * row["tournament_seconds"]), 3)

    if args.json:
        print(json.dumps({"games": args.games, "until": args.until, "time_limit": args.time_limit,
                          "trivial_jobs": args.jobs, "cpus": os.cpu_count(), "rows": rows}))
        return 0
    print(f"{args.games} games (one dipsolve seat, rotated, against six DumbBots) to {args.until}, "
          f"{args.time_limit:g} s a move; {args.jobs} trivial jobs")
    print(f"{'backend':<18}{'workers':>8}{'start s':>9}{'games s':>9}{'phases':>8}"
          f"{'2-worker eff.':>15}{'ms/trivial job':>16}{'warm':>8}")
    for r in rows:
        eff = f"{r['efficiency']:.2f}" if "efficiency" in r else ""
        print(f"{r['backend']:<18}{r['workers']:>8}{r['startup_seconds']:>9.1f}"
              f"{r['tournament_seconds']:>9.1f}{r['phases']:>8}{eff:>15}"
              f"{1000 * r['seconds_per_trivial_job']:>16.2f}{1000 * r['warm_seconds_per_trivial_job']:>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
