"""Order selection: the CP-SAT order model against brute-force enumeration.

The question: which orders, one per unit of a power, maximize the value of the outcome
in the worst of a few opponent scenarios?  The model (`dipsolve.models.order_model.
select_orders`) answers it with one CP-SAT solve; the only peer is enumeration: every
combination of the same candidate orders, adjudicated against every scenario and
valued with the same `LinearValue` (the influence evaluation linearized,
`LinearValue.first_order`, what `select_orders` maximizes for influence by default).

* dipsolve's adjudicator: the enumeration is run in full when it has at most
  ``--full`` adjudications (and must find the model's value); beyond that, a sample
  of ``--sample`` random combinations is timed and the total extrapolated (marked ``~``);
* the ``diplomacy`` package: ``Game.process()`` on a sample of the same order sets
  (building the game and filing the orders not timed, as in benchmarks/adjudication.py),
  extrapolated to the whole enumeration.

The positions: the 1901 start (Germany, Russia) and random mid-game positions
(`dipsolve.testing.random_position`, fixed seeds) for powers of 3 to 12 units, with 1
and 3 scenarios of random orders for the other powers.

    python benchmarks/order_model.py
    python benchmarks/order_model.py --json

The model's time includes linearizing the evaluation, building the model, solving and
replaying the answer through the adjudicator.  Speed is measured here, never asserted in
tests.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import os
import platform
import random
import statistics
import time


def _instances(scenario_counts: list[int]):
    """(label, position, power, scenarios) for each benchmark input."""
    from dipsolve.core.position import Position
    from dipsolve.testing import random_orders, random_position

    start = Position.initial()
    bases = [("1901 start", start, "Germany"), ("1901 start", start, "Russia")]
    wanted = {3: 101, 5: 202, 7: 303, 9: 404, 12: 505}
    for size, seed in wanted.items():
        s = seed
        while True:
            position = random_position(s, 34 if size >= 9 else 28)
            powers = [p for p in position.powers() if len(position.units_of(p)) == size]
            if powers:
                bases.append((f"mid-game (seed {s})", position, powers[0]))
                break
            s += 1
    for label, position, power in bases:
        for k in scenario_counts:
            rng = random.Random(f"{label}|{power}|{k}")
            scenarios = []
            for _ in range(k):
                orders = random_orders(rng, position)
                orders.pop(power, None)
                scenarios.append((1.0, orders))
            yield label, position, power, scenarios


def _value(position, power, linear, scenarios, combo) -> float:
    from dipsolve.core.adjudicator import adjudicate

    return min(linear(adjudicate(position, {**sc, power: list(combo)})) for _, sc in scenarios)


def _enumerate(position, power, linear, candidates, scenarios, full: int, sample: int, rng):
    """(seconds, exact) for enumerating every combination, and the best value when run
    in full."""
    units = list(candidates)
    combos = 1
    for u in units:
        combos *= len(candidates[u])
    if combos * len(scenarios) <= full:
        t0 = time.perf_counter()
        best = max(_value(position, power, linear, scenarios, c)
                   for c in itertools.product(*(candidates[u] for u in units)))
        return time.perf_counter() - t0, True, best, combos
    picks = [tuple(rng.choice(candidates[u]) for u in units) for _ in range(sample)]
    t0 = time.perf_counter()
    for c in picks:
        _value(position, power, linear, scenarios, c)
    per = (time.perf_counter() - t0) / sample
    return per * combos, False, None, combos


def _peer_seconds(position, power, candidates, scenarios, sample: int, rng) -> float:
    """Seconds per adjudication of one order set by the diplomacy package."""
    from dipsolve.testing.peer import set_peer_orders, to_peer_game

    units = list(candidates)
    total = 0.0
    for _ in range(sample):
        combo = [rng.choice(candidates[u]) for u in units]
        for _, sc in scenarios:
            game = to_peer_game(position)
            set_peer_orders(game, {**sc, power: combo})
            game.error = []
            gc.collect(0)
            t0 = time.perf_counter()
            game.process()
            total += time.perf_counter() - t0
    return total / (sample * len(scenarios))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--full", type=int, default=40_000,
                    help="enumerate in full up to this many adjudications (default 40,000)")
    ap.add_argument("--sample", type=int, default=300,
                    help="combinations timed to extrapolate a larger enumeration (default 300)")
    ap.add_argument("--peer-sample", type=int, default=40,
                    help="order sets the diplomacy package adjudicates per input (default 40)")
    ap.add_argument("--repeat", type=int, default=3, help="model solves per input, median kept (default 3)")
    ap.add_argument("--scenarios", default="1,3", help="scenario counts (default 1,3)")
    ap.add_argument("--time-limit", type=float, default=60.0, help="model time limit (default 60 s)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)

    from dipsolve.algorithms.evaluation import influence
    from dipsolve.core.results import Limits
    from dipsolve.models.order_model import select_orders
    from dipsolve.core.legal import useful_orders

    rows = []
    for label, position, power, scenarios in _instances([int(x) for x in args.scenarios.split(",")]):
        candidates = useful_orders(position, power)
        times, sel = [], None
        for _ in range(args.repeat):
            # timed: linearizing the evaluation, building, solving, replaying
            t0 = time.perf_counter()
            sel = select_orders(position, power, candidates=candidates, scenarios=scenarios,
                                evaluate=influence, limits=Limits(time_limit=args.time_limit))
            times.append(time.perf_counter() - t0)
        assert sel is not None and not sel.excluded
        linear = sel.linear
        rng = random.Random(7)
        brute, exact, best, combos = _enumerate(position, power, linear, candidates, scenarios,
                                                args.full, args.sample, rng)
        if exact and sel.status == "optimal" and abs(best - sel.objective) > 1e-6:
            raise SystemExit(f"{label} {power}: enumeration found {best}, the model {sel.objective}")
        peer = _peer_seconds(position, power, candidates, scenarios, args.peer_sample, rng) \
            * combos * len(scenarios)
        model = statistics.median(times)
        rows.append({
            "position": label, "phase": position.phase.short, "power": power,
            "units": len(position.units_of(power)), "board_units": len(position.units),
            "scenarios": len(scenarios), "combinations": combos,
            "model_seconds": round(model, 4), "status": str(sel.status), "value": sel.objective,
            "variables": sel.variables, "constraints": sel.constraints,
            "enumeration_seconds": brute, "enumeration_measured": exact,
            "peer_enumeration_seconds": peer,
            "ratio": brute / model, "peer_ratio": peer / model})
    import diplomacy

    out = {"rows": rows, "machine": {
        "nproc": os.cpu_count(), "python": platform.python_version(),
        "peer": f"diplomacy {getattr(diplomacy, '__version__', '1.1.2')}",
        "model": "CP-SAT, 2 workers, median of %d" % args.repeat}}
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    head = (f"{'position':<22} {'power':<8} {'units':>5} {'scen':>4} {'combinations':>14} "
            f"{'model s':>8} {'status':>8} {'enumerate s':>13} {'ratio':>11} {'diplomacy s':>13} {'ratio':>11}")
    print(head)
    for r in rows:
        mark = "" if r["enumeration_measured"] else "~"
        print(f"{r['position']:<22} {r['power']:<8} {r['units']:>5} {r['scenarios']:>4} "
              f"{r['combinations']:>14,} {r['model_seconds']:>8.3f} {r['status']:>8} "
              f"{mark + _fmt(r['enumeration_seconds']):>13} {mark + _fmt(r['ratio']) + 'x':>11} "
              f"{'~' + _fmt(r['peer_enumeration_seconds']):>13} {'~' + _fmt(r['peer_ratio']) + 'x':>11}")
    print("~: extrapolated from a timed sample; ratio: enumeration time / model time")
    return 0


def _fmt(x: float) -> str:
    if x >= 1e5:
        return f"{x:.1e}"
    if x >= 100:
        return f"{x:,.0f}"
    return f"{x:.3g}"


if __name__ == "__main__":
    raise SystemExit(main())
