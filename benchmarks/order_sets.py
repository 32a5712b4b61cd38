"""The search path: many order sets of one power over one position, `Resolver` (compiled and reference) against `adjudicate`, dipcc and the `diplomacy` package.

    python benchmarks/order_sets.py [--positions 8] [--sets 1000] [--seed 1] [--repeat 5] [--json]

Positions: the mid-game ones (22 units or more, movement) of
`dipsolve.testing.benchmark_phases(seed, ...)`; in each, the power with the most units
varies its orders (``--sets`` random legal order sets of it,
`dipsolve.testing.random_orders`), every other power's orders are the phase's own,
fixed.  Timed, CPU time of this process (``time.process_time``; the machine is shared),
each way once per round, in turn, best of ``--repeat`` rounds; per order set:

* ``adjudicate``: ``adjudicate(position, {**fixed, power: orders}).next`` (every order
  matched, the whole next `Position` built);
* ``resolve``: ``resolver.resolve({power: orders}).units`` (who is where after the
  phase), the resolver built once per position (its building is timed too, once), on
  the compiled kernel (numba, `dipsolve.core.fast_resolver`) when it is installed;
* ``resolve + next``: ``resolver.resolve({power: orders}).next``, the same next
  `Position` as `adjudicate`'s;
* ``resolve packed``, ``resolve packed + next``: the same with each set packed
  beforehand by ``resolver.pack({power: orders})`` (as a search that resolves a candidate
  set many times hands it over: no `Order` looked up a set); the resolvers and their
  packed sets made once, before the rounds; ``pack``: the packing, per set, timed once
  per round (a fresh resolver each round, so that no order's code is cached from before);
* ``resolve (reference)``, ``resolve + next (reference)``: the same with
  ``Resolver(..., compiled=False)``, the pure-Python path;
* ``dipcc``, Meta's C++ engine, where it is built (`benchmarks/peers/dipcc.py`; the run
  says so when it is not): the game at the position with the fixed powers' orders
  filed, made once; per set a copy of it (``Game(base)``), ``set_orders`` of the
  varied power (the strings made beforehand) and ``process()``;
* ``diplomacy``: the package's ``Game.process()`` alone, on a game set to the position
  with all orders filed beforehand (its set-up, far slower, not timed), for the first
  ``--peer-sets`` sets of each position only (it is slow); per set.

Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adjudication import _cpu_model  # noqa: E402  (the machine line, as the other benchmark writes it)


def cases(seed: int, positions: int, sets: int):
    from dipsolve.testing import benchmark_phases, random_orders
    rng = random.Random(seed)
    out = []
    for position, orders in benchmark_phases(seed, positions * 8):
        if len(position.units) < 22 or position.phase.kind != "movement":
            continue
        counts: dict[str, int] = {}
        for u in position.units:
            counts[u.power] = counts.get(u.power, 0) + 1
        power = max(sorted(counts), key=counts.__getitem__)
        fixed = {p: os for p, os in orders.items() if p != power}
        varied = [list(random_orders(rng, position).get(power, [])) for _ in range(sets)]
        out.append((position, power, fixed, varied))
        if len(out) == positions:
            break
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=8)
    ap.add_argument("--sets", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--peer-sets", type=int, default=50,
                    help="order sets a position the diplomacy package processes (default 50)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    from dipsolve.core import fast_kernel, fast_resolver
    from dipsolve.core.adjudicator import adjudicate
    from dipsolve.core.resolver import Resolver
    from peers import dipcc

    fast_kernel.warm()                          # the compiled kernel loaded (or compiled) first
    work = cases(args.seed, args.positions, args.sets)
    total = sum(len(v) for *_, v in work)
    pydipcc, where = dipcc.load()

    def current() -> None:
        for position, power, fixed, varied in work:
            for os in varied:
                adjudicate(position, {**fixed, power: os}).next

    def resolved(full: bool, compiled: bool | None = None):
        def run() -> None:
            for position, power, fixed, varied in work:
                r = Resolver(position, fixed, compiled=compiled)
                if full:
                    for os in varied:
                        r.resolve({power: os}).next
                else:
                    for os in varied:
                        r.resolve({power: os}).units
        return run

    packed: list = []             # (resolver, its packed sets) a position, made by pack()

    def pack() -> None:
        packed.clear()
        for position, power, fixed, varied in work:
            r = Resolver(position, fixed)
            packed.append((r, [r.pack({power: os}) for os in varied]))

    def resolved_packed(full: bool):
        def run() -> None:
            if full:
                for r, ps in packed:
                    for p in ps:
                        r.resolve(p).next
            else:
                for r, ps in packed:
                    for p in ps:
                        r.resolve(p).units
        return run

    def peer_process() -> float:
        """CPU time of the diplomacy package's process() alone, per set."""
        from dipsolve.testing.peer import set_peer_orders, to_peer_game
        spent, count = 0.0, 0
        for position, power, fixed, varied in work:
            for os in varied[:args.peer_sets]:
                game = to_peer_game(position)
                set_peer_orders(game, {**fixed, power: os})
                game.error = []
                t0 = time.process_time()
                game.process()
                spent += time.process_time() - t0
                count += 1
        return spent / count * total

    games = []
    if pydipcc is not None:
        for position, power, fixed, varied in work:
            base = dipcc.new_game(pydipcc, position, dipcc.order_strings(fixed))
            games.append((base, power.upper(), [dipcc.order_strings({power: os})[power.upper()]
                                                for os in varied]))

    def on_dipcc() -> None:
        Game = pydipcc.Game
        for base, power, sets in games:
            for strings in sets:
                g = Game(base)
                g.set_orders(power, strings)
                g.process()

    runs = {"adjudicate": current, "resolve": resolved(False), "resolve + next": resolved(True),
            "pack": pack, "resolve packed": resolved_packed(False),
            "resolve packed + next": resolved_packed(True),
            "resolve (reference)": resolved(False, False),
            "resolve + next (reference)": resolved(True, False)}
    if pydipcc is not None:
        runs["dipcc"] = on_dipcc
    for run in runs.values():
        run()                                   # warm up (tables, caches, the kernel's load)
    best = {name: float("inf") for name in runs}
    best["diplomacy"] = float("inf")
    for _ in range(args.repeat):
        for name, run in runs.items():
            gc.collect()
            t0 = time.process_time()
            run()
            best[name] = min(best[name], time.process_time() - t0)
        gc.collect()
        best["diplomacy"] = min(best["diplomacy"], peer_process())
    runs["diplomacy"] = peer_process
    per = {name: best[name] / total * 1e6 for name in runs}
    doc = {"positions": len(work), "order_sets": total,
           "mean_units": round(sum(len(p.units) for p, *_ in work) / len(work), 1),
           "us_per_set": {k: round(v, 1) for k, v in per.items()},
           "speedup_resolve": round(per["adjudicate"] / per["resolve"], 2),
           "speedup_resolve_next": round(per["adjudicate"] / per["resolve + next"], 2),
           "compiled": fast_resolver.ready(), "why_not_compiled": fast_resolver.why_not(),
           "dipcc": where,
           "machine": {"nproc": os.cpu_count(), "cpu": _cpu_model(),
                       "python": platform.python_version()}}
    if pydipcc is not None:
        doc["vs_dipcc"] = {k: round(per["dipcc"] / v, 2) for k, v in per.items()}
    if args.json:
        print(json.dumps(doc, indent=2))
        return 0
    print(f"{doc['positions']} positions ({doc['mean_units']} units on average), "
          f"{total:,} order sets, CPU time, best of {args.repeat}, engines in turn")
    print("  compiled resolver: " + ("in use (numba)" if fast_resolver.ready()
                                     else "off: " + fast_resolver.why_not()))
    if pydipcc is None:
        print(f"  dipcc: not measured: {where}")
    for name, us in per.items():
        line = f"  {name:28} {us:8.1f} us a set   {per['adjudicate'] / us:5.2f}x adjudicate"
        if pydipcc is not None:
            line += f"   {per['dipcc'] / us:5.2f}x dipcc"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
