"""Adjudication speed of fresh phases: dipsolve against the ``diplomacy`` package and Meta's dipcc, in one process.

The same random movement phases (a quarter openings of 22 units, the rest mid-game
positions of 22 to 28 units, with realistic orders: `dipsolve.testing.benchmark_phases`)
are adjudicated by both engines.  Only the adjudication is timed:

* dipsolve: ``adjudicate(position, orders)``, which returns the next position (the
  per-order reports are built lazily; the second dipsolve figure includes them);
* the peer: ``Game.process()`` alone, on a game already set to the position with the
  orders filed (building the game and filing the orders is not timed);
* dipcc, Meta's C++ engine, where it is built (`benchmarks/peers/dipcc.py` says where it
  is looked for; the run says so when it is not): ``Game.process()`` alone, likewise,
  and ``set_orders`` + ``process()`` (its own order parsing counted);
* from text, side by side: dipsolve reading every order string
  (`dipsolve.grammar.orders.parse_order_line`, which makes each `Order` and so its code,
  `dipsolve.core.orders.code`) and then ``adjudicate``, against dipcc's ``set_orders`` +
  ``process()``, both given the same strings (dipcc's notation, which is dipsolve's short
  one): the cost of orders that carry their code is counted here, not hidden.

dipsolve's compiled kernel (numba, `dipsolve.core.fast_kernel`) is loaded before anything
is timed (``fast_kernel.warm()``, as ``dipsolve play`` does before its first game; the run
says so); ``adjudicate`` takes it for a movement phase once it is loaded, and the
reference path without numba (``DIPSOLVE_NO_NUMBA=1``: then the run says that instead).

The engines take turns, each once a round (``--repeat`` rounds, best of each).

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


def time_dipsolve_text(phases) -> float:
    """dipsolve from text: each order string read (`parse_order_line`), then adjudicated."""
    from dipsolve.core.adjudicator import adjudicate
    from dipsolve.grammar.orders import parse_order_line
    from dipsolve.testing.peer import peer_order

    texts = [{p: [peer_order(o) for o in os] for p, os in orders.items()} for _, orders in phases]
    phases = _fresh(phases)
    gc.collect()
    t0 = clock()
    for (pos, _), strings in zip(phases, texts):
        m = pos.map
        adjudicate(pos, {p: [parse_order_line(s, m)[1] for s in os] for p, os in strings.items()})
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


def time_dipcc(pydipcc, phases, with_orders: bool) -> float:
    from peers import dipcc

    total = 0.0
    for pos, orders in phases:
        strings = dipcc.order_strings(orders)
        game = dipcc.new_game(pydipcc, pos, None if with_orders else strings)
        gc.collect(0)
        t0 = clock()
        if with_orders:
            for power, os in strings.items():
                game.set_orders(power, os)
        game.process()
        total += clock() - t0
    return total


def dipcc_agrees(pydipcc, phases) -> int:
    """On how many phases dipcc's units after the phase are dipsolve's (no retreats
    pending in either)."""
    from dipsolve.core.adjudicator import adjudicate
    from peers import dipcc

    same = 0
    for pos, orders in phases:
        game = dipcc.new_game(pydipcc, pos, dipcc.order_strings(orders))
        game.process()
        same += dipcc.units_of(game) == sorted(adjudicate(pos, orders).next.units)
    return same


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
    from dipsolve.core import fast_kernel, fast_resolver

    warmed = fast_kernel.warm()
    kernel = ("compiled kernel loaded first (fast_kernel.warm(), "
              f"{warmed:.1f} s, not timed)" if fast_resolver.ready()
              else f"reference path only ({fast_resolver.why_not()})")

    from dipsolve.testing import benchmark_phases

    phases = benchmark_phases(args.seed, args.phases)
    units = sum(len(p.units) for p, _ in phases) / len(phases)
    if args.no_peer:
        time_dipsolve(phases[:50], True)
        ours = min(time_dipsolve(phases, False) for _ in range(args.repeat))
        ours_full = min(time_dipsolve(phases, True) for _ in range(args.repeat))
        print(f"{args.phases} movement phases (seed {args.seed}), best of {args.repeat}, {args.clock} time, "
              f"{kernel}: adjudicate() {args.phases / ours:,.0f} phases/s, with results "
              f"{args.phases / ours_full:,.0f}")
        return 0
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from peers import dipcc

    pydipcc, where = dipcc.load()
    runs = {"dipsolve": lambda: time_dipsolve(phases, False),
            "dipsolve_results": lambda: time_dipsolve(phases, True),
            "dipsolve_text": lambda: time_dipsolve_text(phases),
            "peer": lambda: time_peer(phases)}
    if pydipcc is not None:
        runs["dipcc"] = lambda: time_dipcc(pydipcc, phases, False)
        runs["dipcc_orders"] = lambda: time_dipcc(pydipcc, phases, True)
    # warm up every engine (imports, map caches)
    time_dipsolve(phases[:50], True)
    time_dipsolve_text(phases[:50])
    time_peer(phases[:20])
    if pydipcc is not None:
        time_dipcc(pydipcc, phases[:20], True)
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(args.repeat):
        for name, run in runs.items():
            best[name] = min(best[name], run())
    ours, ours_full, peer = best["dipsolve"], best["dipsolve_results"], best["peer"]

    import diplomacy

    out = {
        "phases": args.phases,
        "seed": args.seed,
        "mean_units": round(units, 1),
        "dipsolve_phases_per_s": round(args.phases / ours, 1),
        "dipsolve_with_results_phases_per_s": round(args.phases / ours_full, 1),
        "dipsolve_from_text_phases_per_s": round(args.phases / best["dipsolve_text"], 1),
        "kernel": kernel,
        "peer_phases_per_s": round(args.phases / peer, 1),
        "ratio": round(peer / ours, 2),
        "ratio_with_results": round(peer / ours_full, 2),
        "clock": args.clock,
        "dipcc": where,
        "machine": {"nproc": os.cpu_count(), "cpu": _cpu_model(),
                    "python": platform.python_version(),
                    "peer": f"diplomacy {getattr(diplomacy, '__version__', '1.1.2')}"},
    }
    if pydipcc is not None:
        out["dipcc_phases_per_s"] = round(args.phases / best["dipcc"], 1)
        out["dipcc_with_orders_phases_per_s"] = round(args.phases / best["dipcc_orders"], 1)
        out["ratio_dipcc"] = round(best["dipcc"] / ours, 2)
        out["ratio_dipcc_with_orders"] = round(best["dipcc_orders"] / ours, 2)
        out["ratio_dipcc_from_text"] = round(best["dipcc_orders"] / best["dipsolve_text"], 2)
        out["dipcc_agrees"] = dipcc_agrees(pydipcc, phases)
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{args.phases} movement phases (seed {args.seed}, {units:.1f} units on average), "
          f"best of {args.repeat}, {args.clock} time; {kernel}")
    print(f"  dipsolve adjudicate()            {out['dipsolve_phases_per_s']:>10,.0f} phases/s")
    print(f"  dipsolve adjudicate() + results  {out['dipsolve_with_results_phases_per_s']:>10,.0f} phases/s")
    print(f"  dipsolve from text (read + adj.) {out['dipsolve_from_text_phases_per_s']:>10,.0f} phases/s")
    print(f"  diplomacy Game.process()         {out['peer_phases_per_s']:>10,.0f} phases/s")
    print(f"  ratio dipsolve / peer            {out['ratio']:>10.1f}x  ({out['ratio_with_results']:.1f}x with results)")
    if pydipcc is None:
        print(f"  dipcc: not measured: {where}")
        return 0
    print(f"  dipcc Game.process()             {out['dipcc_phases_per_s']:>10,.0f} phases/s")
    print(f"  dipcc set_orders() + process()   {out['dipcc_with_orders_phases_per_s']:>10,.0f} phases/s")
    print(f"  ratio dipsolve / dipcc           {out['ratio_dipcc']:>10.2f}x  "
          f"({out['ratio_dipcc_with_orders']:.2f}x counting dipcc's order parsing)")
    print(f"  from text, both reading strings  {out['ratio_dipcc_from_text']:>10.2f}x  "
          "(dipsolve parse + adjudicate against dipcc set_orders + process)")
    print(f"  dipcc's units equal dipsolve's   {out['dipcc_agrees']:>10,} of {args.phases} phases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
