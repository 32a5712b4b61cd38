"""The search path: many order sets of one power over one position, `Resolver` against `adjudicate`, dipcc and the `diplomacy` package.

    python benchmarks/order_sets.py [--positions 8] [--sets 1000] [--seed 1] [--repeat 5] [--plain] [--json]

Positions: the mid-game ones (22 units or more, movement) of
`dipsolve.testing.benchmark_phases(seed, ...)`; in each, the power with the most units
varies its orders (``--sets`` random legal order sets of it,
`dipsolve.testing.random_orders`), every other power's orders are the phase's own,
fixed.  Timed, CPU time of this process (``time.process_time``; the machine is shared),
each way in turn on one position, then all again on the next (the order reversed, the
packing always before the packed sets' turns), ``--repeat`` rounds of all the positions,
the best round of each way kept; per order set:

* ``adjudicate``: ``adjudicate(position, {**fixed, power: orders}).next`` (a fresh phase:
  every order matched, the whole next `Position` built);
* ``resolve``: ``resolver.resolve({power: orders}).units`` (who is where after the
  phase), the resolver built once per position (its building is timed too, once);
* ``resolve + next``: ``resolver.resolve({power: orders}).next``, the same next
  `Position` as `adjudicate`'s;
* ``resolve packed``, ``resolve packed + next``: the same with each set packed
  beforehand by ``resolver.pack({power: orders})`` (as a search that resolves a candidate
  set many times hands it over), by the resolver that ``pack`` made in the same round;
  ``pack``: the packing alone, per set (a fresh resolver each round, its building
  included), stated apart;
* ``dipcc``, Meta's C++ engine, where it is built (`benchmarks/peers/dipcc.py`; the run
  says so when it is not): the game at the position with the fixed powers' orders
  filed, made once; per set a copy of it (``Game(base)``), ``set_orders`` of the
  varied power (the strings made beforehand) and ``process()``;
* ``diplomacy``: the package's ``Game.process()`` alone, on a game set to the position
  with all orders filed beforehand (its set-up, far slower, not timed), for the first
  ``--peer-sets`` sets of each position only (it is slow); per set.

Every figure runs on dipsolve's one rules engine (`dipsolve.core.kernel`), loaded before
anything is timed (``kernel.load()``; the run says how long it took, and whether it runs
compiled or as plain Python, and why).  ``--plain`` runs the same benchmark again in a
process of its own with ``DIPSOLVE_NO_NUMBA=1`` (the engine as plain Python) and shows
both; each ratio is dipcc's time over dipsolve's, in the same process (above 1: dipsolve
faster).

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


def measure(args) -> dict:
    """One run in this process: the engine loaded, every way timed in turn."""
    import engine
    from dipsolve.core.adjudicator import adjudicate
    from dipsolve.core.resolver import Resolver
    from peers import dipcc

    eng = engine.load()                         # the engine compiled (or loaded) first
    work = cases(args.seed, args.positions, args.sets)
    total = sum(len(v) for *_, v in work)
    pydipcc, where = dipcc.load()

    # every way takes one position at a time (``i``, an index into ``work``), so that the
    # ways take turns position by position
    def current(i: int) -> None:
        position, power, fixed, varied = work[i]
        for given in varied:
            adjudicate(position, {**fixed, power: given}).next

    def resolved(full: bool):
        def run(i: int) -> None:
            position, power, fixed, varied = work[i]
            r = Resolver(position, fixed)
            if full:
                for given in varied:
                    r.resolve({power: given}).next
            else:
                for given in varied:
                    r.resolve({power: given}).units
        return run

    packed: list = [None] * len(work)     # (resolver, its packed sets) a position, made by pack()

    def pack(i: int) -> None:
        position, power, fixed, varied = work[i]
        r = Resolver(position, fixed)
        packed[i] = (r, [r.pack({power: given}) for given in varied])

    def resolved_packed(full: bool):
        def run(i: int) -> None:
            r, ps = packed[i]
            if full:
                for p in ps:
                    r.resolve(p).next
            else:
                for p in ps:
                    r.resolve(p).units
        return run

    def peer_process(i: int) -> float:
        """CPU time of the diplomacy package's process() alone on the first
        ``--peer-sets`` sets of position ``i``, scaled to all its sets."""
        from dipsolve.testing.peer import set_peer_orders, to_peer_game
        position, power, fixed, varied = work[i]
        spent, count = 0.0, 0
        for given in varied[:args.peer_sets]:
            game = to_peer_game(position)
            set_peer_orders(game, {**fixed, power: given})
            game.error = []
            t0 = time.process_time()
            game.process()
            spent += time.process_time() - t0
            count += 1
        return spent / count * len(varied)

    games = []
    if pydipcc is not None:
        for position, power, fixed, varied in work:
            base = dipcc.new_game(pydipcc, position, dipcc.order_strings(fixed))
            games.append((base, power.upper(), [dipcc.order_strings({power: given})[power.upper()]
                                                for given in varied]))

    def on_dipcc(i: int) -> None:
        Game = pydipcc.Game
        base, power, sets = games[i]
        for strings in sets:
            g = Game(base)
            g.set_orders(power, strings)
            g.process()

    runs = {"adjudicate": current, "resolve": resolved(False), "resolve + next": resolved(True),
            "pack": pack, "resolve packed": resolved_packed(False),
            "resolve packed + next": resolved_packed(True)}
    if pydipcc is not None:
        runs["dipcc"] = on_dipcc
    for run in runs.values():
        run(0)                                  # warm up (tables, caches)
    rounds: dict[str, list[float]] = {name: [] for name in runs}
    if not args.no_diplomacy:
        rounds["diplomacy"] = []
    load = [os.getloadavg()]
    for _ in range(args.repeat):
        spent = dict.fromkeys(rounds, 0.0)
        order = list(runs)
        for i in range(len(work)):
            for name in order:
                gc.collect()
                t0 = time.process_time()
                runs[name](i)
                spent[name] += time.process_time() - t0
            if not args.no_diplomacy:
                gc.collect()
                spent["diplomacy"] += peer_process(i)
            # the ways swap ends from one position to the next; the packing stays before
            # the packed sets' turns (they resolve what it made)
            order.reverse()
            order.remove("pack")
            order.insert(min(order.index("resolve packed"), order.index("resolve packed + next")), "pack")
        for name, t in spent.items():
            rounds[name].append(t)
    load.append(os.getloadavg())
    per = {name: min(ts) / total * 1e6 for name, ts in rounds.items()}
    if pydipcc is not None:
        ratio_rounds = {k: [round(d / t, 2) for d, t in zip(rounds["dipcc"], ts)] for k, ts in rounds.items()}
    doc = {"positions": len(work), "order_sets": total, "repeat": args.repeat,
           "mean_units": round(sum(len(p.units) for p, *_ in work) / len(work), 1),
           "us_per_set": {k: round(v, 2) for k, v in per.items()},
           "us_per_set_rounds": {k: [round(t / total * 1e6, 2) for t in ts] for k, ts in rounds.items()},
           "speedup_resolve": round(per["adjudicate"] / per["resolve"], 2),
           "speedup_resolve_next": round(per["adjudicate"] / per["resolve + next"], 2),
           "engine": eng, "kernel": engine.describe(eng),
           "compiled": eng["compiled"], "why_plain": eng["why_plain"],
           "load": [round(x, 2) for x in load[0]] + [round(x, 2) for x in load[1]],
           "dipcc": where,
           "machine": {"nproc": os.cpu_count(), "cpu": _cpu_model(),
                       "python": platform.python_version()}}
    if pydipcc is not None:
        doc["vs_dipcc"] = {k: round(per["dipcc"] / v, 2) for k, v in per.items()}
        doc["vs_dipcc_rounds"] = ratio_rounds
    return doc


def report(doc: dict, plain: dict | None) -> None:
    print(f"{doc['positions']} positions ({doc['mean_units']} units on average), "
          f"{doc['order_sets']:,} order sets, CPU time, best of {doc['repeat']} rounds, engines in turn; "
          f"load {doc['load'][0]:.2f} before, {doc['load'][3]:.2f} after")
    docs = [("compiled" if doc["compiled"] else "plain", doc)]
    if plain is not None:
        docs.append(("DIPSOLVE_NO_NUMBA=1", plain))
    for title, d in docs:
        print(f"  [{title}] {d['kernel']}")
        if "vs_dipcc" not in d:
            print(f"    dipcc: not measured: {d['dipcc']}")
        per = d["us_per_set"]
        for name, us in per.items():
            line = f"    {name:24} {us:9.2f} us a set   {per['adjudicate'] / us:6.2f}x adjudicate"
            if "vs_dipcc" in d:
                line += f"   {d['vs_dipcc'][name]:6.2f}x dipcc"
                xs = d["vs_dipcc_rounds"][name]
                if len(xs) > 1 and name != "dipcc":
                    line += f" (rounds {min(xs):.2f}-{max(xs):.2f})"
            print(line)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=8)
    ap.add_argument("--sets", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--peer-sets", type=int, default=50,
                    help="order sets a position the diplomacy package processes (default 50)")
    ap.add_argument("--no-diplomacy", action="store_true", help="leave the diplomacy package out")
    ap.add_argument("--plain", action="store_true",
                    help="run it again in a process with DIPSOLVE_NO_NUMBA=1 (the engine as "
                         "plain Python) and show both")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    doc = measure(args)
    plain = None
    if args.plain:
        import engine

        child = ["--positions", str(args.positions), "--sets", str(args.sets), "--seed", str(args.seed),
                 "--repeat", str(args.repeat), "--peer-sets", str(args.peer_sets)]
        plain = engine.run_plain("order_sets.py", child + (["--no-diplomacy"] if args.no_diplomacy else []))
        doc["plain"] = plain
    if args.json:
        print(json.dumps(doc, indent=2))
        return 0
    report(doc, plain)
    return 0


if __name__ == "__main__":
    sys.exit(main())
