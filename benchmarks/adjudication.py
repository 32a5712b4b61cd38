"""Adjudication speed: dipsolve against the ``diplomacy`` package, in one process.

The same random movement phases (a quarter openings of 22 units, the rest mid-game
positions of 22 to 28 units, with realistic orders: `dipsolve.testing.benchmark_phases`)
are adjudicated by both engines.  Only the adjudication is timed:

* dipsolve: ``adjudicate(position, orders)``, which returns the next position (the
  per-order reports are built lazily; the second dipsolve figure includes them);
* the peer: ``Game.process()`` alone, on a game already set to the position with the
  orders filed (building the game and filing the orders is not timed).

    python benchmarks/adjudication.py --phases 2000 --seed 1
    python benchmarks/adjudication.py --json
    python benchmarks/adjudication.py --clock cpu     # this process's CPU time, not the wall
    python benchmarks/adjudication.py --clock cpu --no-peer --repeat 7   # dipsolve alone

On a machine shared with other work, ``--clock cpu`` (``time.process_time``) counts only
the time this process ran, which the other work's load does not inflate.

Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import sys
import time


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _fresh(phases):
    """New Position objects with the same content: nothing a position caches about
    itself (``Position.memo``) survives from one timed run to the next."""
    from dipsolve.core.position import Position

    return [(Position.build(p.phase, p.units, p.centers, p.dislodged, p.standoffs), o)
            for p, o in phases]


#: the clock every figure is taken with (``--clock``)
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
clock = time.perf_counter


def time_dipsolve(phases, with_results: bool) -> float:
    from dipsolve.core.adjudicator import adjudicate

    phases = _fresh(phases)
    gc.collect()
    t0 = clock()
    if with_results:
        for pos, orders in phases:
            adjudicate(pos, orders).results
    else:
        for pos, orders in phases:
            adjudicate(pos, orders)
    return clock() - t0


def time_peer(phases) -> float:
    from dipsolve.testing.peer import set_peer_orders, to_peer_game

    total = 0.0
    for pos, orders in phases:
        game = to_peer_game(pos)
        set_peer_orders(game, orders)
        game.error = []
        gc.collect(0)
        t0 = clock()
        game.process()
        total += clock() - t0
    return total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phases", type=int, default=2000, help="movement phases (default 2000)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random phases (default 1)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="time each engine this many times and keep the best (default 3)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                    help="wall time (default) or this process's CPU time")
    ap.add_argument("--no-peer", action="store_true",
                    help="time dipsolve alone (two versions compared, not the peer)")
    args = ap.parse_args(argv)
    global clock
    clock = CLOCKS[args.clock]

    from dipsolve.testing import benchmark_phases

    phases = benchmark_phases(args.seed, args.phases)
    units = sum(len(p.units) for p, _ in phases) / len(phases)
    # warm up both engines (imports, map caches)
    time_dipsolve(phases[:50], True)
    ours = min(time_dipsolve(phases, False) for _ in range(args.repeat))
    ours_full = min(time_dipsolve(phases, True) for _ in range(args.repeat))
    if args.no_peer:
        print(f"{args.phases} movement phases (seed {args.seed}), best of {args.repeat}, {args.clock} time: "
              f"adjudicate() {args.phases / ours:,.0f} phases/s, with results {args.phases / ours_full:,.0f}")
        return 0
    time_peer(phases[:20])
    peer = min(time_peer(phases) for _ in range(args.repeat))

    import diplomacy

    out = {
        "phases": args.phases,
        "seed": args.seed,
        "mean_units": round(units, 1),
        "dipsolve_phases_per_s": round(args.phases / ours, 1),
        "dipsolve_with_results_phases_per_s": round(args.phases / ours_full, 1),
        "peer_phases_per_s": round(args.phases / peer, 1),
        "ratio": round(peer / ours, 2),
        "ratio_with_results": round(peer / ours_full, 2),
        "clock": args.clock,
        "machine": {"nproc": os.cpu_count(), "cpu": _cpu_model(),
                    "python": platform.python_version(),
                    "peer": f"diplomacy {getattr(diplomacy, '__version__', '1.1.2')}"},
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{args.phases} movement phases (seed {args.seed}, {units:.1f} units on average), "
          f"best of {args.repeat}, {args.clock} time")
    print(f"  dipsolve adjudicate()            {out['dipsolve_phases_per_s']:>10,.0f} phases/s")
    print(f"  dipsolve adjudicate() + results  {out['dipsolve_with_results_phases_per_s']:>10,.0f} phases/s")
    print(f"  diplomacy Game.process()         {out['peer_phases_per_s']:>10,.0f} phases/s")
    print(f"  ratio dipsolve / peer            {out['ratio']:>10.1f}x  ({out['ratio_with_results']:.1f}x with results)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
