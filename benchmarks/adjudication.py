"""Adjudication speed of fresh phases: dipsolve against the ``diplomacy`` package and Meta's dipcc, in one process.

The same random movement phases (a quarter openings of 22 units, the rest mid-game
positions of 22 to 28 units, with realistic orders: `dipsolve.testing.benchmark_phases`)
are adjudicated by every engine.  Only the adjudication is timed:

* dipsolve: ``adjudicate(position, orders).next`` (`dipsolve.core.adjudicator`: a
  `Position` and orders in, the next `Position` out); the second dipsolve figure reads
  the per-order results too (``.results``, built from the same run of the engine when
  first asked); the third is the public ``dipsolve.adjudicate``, whose arguments are
  checked at the door (`dipsolve.public`) before the same call;
* the peer: ``Game.process()`` alone, on a game already set to the position with the
  orders filed (building the game and filing the orders is not timed);
* dipcc, Meta's C++ engine, where it is built (`benchmarks/peers/dipcc.py` says where it
  is looked for; the run says so when it is not): ``Game.process()`` alone, likewise,
  and ``set_orders`` + ``process()`` (its own order parsing counted);
* from text, side by side: dipsolve reading every order string
  (`dipsolve.grammar.orders.parse_order_line`) and then ``adjudicate(...).next``, against
  dipcc's ``set_orders`` + ``process()``, both given the same strings (dipcc's notation,
  which is dipsolve's short one);
* with ``--reference`` (meant for the engine as plain Python, below): the pre-issue-48
  reference adjudicator, ``adjudicate_movement(position, orders).next`` of
  ``tests/oracle/reference.py``, kept there as a test oracle, never by the package.

dipsolve's one rules engine (`dipsolve.core.kernel`) is loaded before anything is timed
(``kernel.load()``: compiled by numba where installed, from numba's cache after the first
time; the run says how long it took, whether it runs compiled, and if not why:
``kernel.why_plain``).  ``--plain`` runs the same benchmark again in a process of its own
with ``DIPSOLVE_NO_NUMBA=1`` (the engine as plain Python, with ``--reference``) and prints
both, each against dipcc in its own process.

The engines take turns chunk by chunk (``--chunk`` phases each, every engine in turn on
the same chunk, the order reversed from one chunk to the next), ``--repeat`` rounds of all
the phases, the best round of each engine kept; every ratio is dipcc's time over
dipsolve's (above 1: dipsolve faster), of the best rounds, and round by round in the JSON
(``ratio_dipcc_rounds``).

    python benchmarks/adjudication.py --phases 2000 --seed 1
    python benchmarks/adjudication.py --plain --json
    python benchmarks/adjudication.py --clock wall    # wall time, not this process's CPU time
    python benchmarks/adjudication.py --no-peer --repeat 7   # dipsolve alone

The clock is this process's CPU time (``time.process_time``) unless ``--clock wall``: on a
machine shared with other work it counts only the time this process ran, which the other
work's load does not inflate.

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
clock = time.process_time

HERE = os.path.dirname(os.path.abspath(__file__))


def _time_next(adjudicate, phases) -> float:
    """``adjudicate(position, orders).next`` on fresh positions, timed."""
    phases = _fresh(phases)
    gc.collect()
    t0 = clock()
    for pos, orders in phases:
        adjudicate(pos, orders).next
    return clock() - t0


def time_dipsolve(phases, with_results: bool) -> float:
    """``adjudicate(position, orders).next`` (and ``.results`` with ``with_results``)."""
    from dipsolve.core.adjudicator import adjudicate

    if not with_results:
        return _time_next(adjudicate, phases)
    phases = _fresh(phases)
    gc.collect()
    t0 = clock()
    for pos, orders in phases:
        out = adjudicate(pos, orders)
        out.next
        out.results
    return clock() - t0


def time_public(phases) -> float:
    """``dipsolve.adjudicate(position, orders).next``: the public API, its arguments
    checked at the door (`dipsolve.public`) before the same call."""
    import dipsolve

    return _time_next(dipsolve.adjudicate, phases)


def time_reference(phases) -> float:
    """The pre-issue-48 reference: ``adjudicate_movement(position, orders).next``."""
    # tests/oracle/reference.py: the recursive adjudicator that was the package's definition
    # of a movement phase before issue 48, kept under tests/ as an oracle only; imported
    # here for this one comparison row (``--reference``), never by the package
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))
    try:
        from oracle.reference import adjudicate_movement
    finally:
        sys.path.pop(0)
    return _time_next(adjudicate_movement, phases)


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
        adjudicate(pos, {p: [parse_order_line(s, m)[1] for s in os] for p, os in strings.items()}).next
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
            for power, given in strings.items():
                game.set_orders(power, given)
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


#: the figures, in the order the engines take turns; (JSON key, label)
FIGURES = (("dipsolve", "dipsolve adjudicate().next"),
           ("dipsolve_results", "dipsolve + .results"),
           ("dipsolve_public", "dipsolve.adjudicate (checked)"),
           ("dipsolve_text", "dipsolve from text (read + adj.)"),
           ("reference", "reference (tests/oracle, pre-48)"),
           ("peer", "diplomacy Game.process()"),
           ("dipcc", "dipcc Game.process()"),
           ("dipcc_orders", "dipcc set_orders() + process()"))


def measure(args) -> dict:
    """One run of the benchmark in this process: the engine loaded, every engine timed
    in turn, best of ``--repeat`` rounds."""
    global clock
    clock = CLOCKS[args.clock]
    sys.path.insert(0, HERE)
    import engine
    from peers import dipcc

    eng = engine.load()

    from dipsolve.testing import benchmark_phases

    phases = benchmark_phases(args.seed, args.phases)
    units = sum(len(p.units) for p, _ in phases) / len(phases)
    pydipcc, where = (None, "not asked (--no-peer)") if args.no_peer else dipcc.load()
    runs = {"dipsolve": lambda ps: time_dipsolve(ps, False),
            "dipsolve_results": lambda ps: time_dipsolve(ps, True),
            "dipsolve_public": time_public}
    if not args.no_peer:
        runs["dipsolve_text"] = time_dipsolve_text
    if args.reference:
        runs["reference"] = time_reference
    if not args.no_peer:
        runs["peer"] = time_peer
    if pydipcc is not None:
        runs["dipcc"] = lambda ps: time_dipcc(pydipcc, ps, False)
        runs["dipcc_orders"] = lambda ps: time_dipcc(pydipcc, ps, True)
    # warm up every engine (imports, map caches)
    warm = phases[:50]
    time_dipsolve(warm, True)
    time_public(warm)
    if "dipsolve_text" in runs:
        time_dipsolve_text(warm)
    if args.reference:
        time_reference(warm)
    if "peer" in runs:
        time_peer(phases[:20])
    if pydipcc is not None:
        time_dipcc(pydipcc, phases[:20], True)
    # the engines take turns chunk by chunk (``--chunk`` phases), forwards and backwards in
    # turn, so that a change in the machine's other work falls on all of them alike
    chunks = [phases[i:i + args.chunk] for i in range(0, len(phases), args.chunk)]
    rounds: dict[str, list[float]] = {name: [] for name in runs}
    load = [os.getloadavg()]
    for _ in range(args.repeat):
        spent = dict.fromkeys(runs, 0.0)
        order = list(runs)
        for chunk in chunks:
            for name in order:
                spent[name] += runs[name](chunk)
            order.reverse()
        for name, t in spent.items():
            rounds[name].append(t)
    load.append(os.getloadavg())
    best = {name: min(ts) for name, ts in rounds.items()}
    n = args.phases
    out = {
        "phases": n, "seed": args.seed, "repeat": args.repeat, "chunk": args.chunk, "clock": args.clock,
        "mean_units": round(units, 1),
        "engine": eng, "kernel": engine.describe(eng),
        "load": [round(x, 2) for x in load[0]] + [round(x, 2) for x in load[1]],
        "us_per_phase": {name: round(t / n * 1e6, 1) for name, t in best.items()},
        "us_per_phase_rounds": {name: [round(t / n * 1e6, 1) for t in ts] for name, ts in rounds.items()},
        "dipcc": where,
        "machine": {"nproc": os.cpu_count(), "cpu": _cpu_model(), "python": platform.python_version()},
    }
    for name, t in best.items():
        out[f"{name}_phases_per_s"] = round(n / t, 1)
    # the names side_by_side.py and earlier runs read
    out["dipsolve_with_results_phases_per_s"] = out["dipsolve_results_phases_per_s"]
    if "dipsolve_text" in best:
        out["dipsolve_from_text_phases_per_s"] = out["dipsolve_text_phases_per_s"]
    if "peer" in best:
        import diplomacy

        out["machine"]["peer"] = f"diplomacy {getattr(diplomacy, '__version__', '1.1.2')}"
        out["ratio"] = round(best["peer"] / best["dipsolve"], 2)
        out["ratio_with_results"] = round(best["peer"] / best["dipsolve_results"], 2)
    if args.reference:
        out["ratio_reference"] = round(best["reference"] / best["dipsolve"], 2)
    if pydipcc is not None:
        # dipcc's time over dipsolve's in each round (the same chunks, the same minutes)
        out["ratio_dipcc_rounds"] = {
            name: [round(d / t, 2) for d, t in zip(rounds["dipcc_orders" if name == "dipsolve_text" else "dipcc"],
                                                   rounds[name])]
            for name in ("dipsolve", "dipsolve_results", "dipsolve_public", "dipsolve_text", "reference")
            if name in rounds}
        out["dipcc_with_orders_phases_per_s"] = out["dipcc_orders_phases_per_s"]
        out["ratio_dipcc"] = round(best["dipcc"] / best["dipsolve"], 2)
        out["ratio_dipcc_with_results"] = round(best["dipcc"] / best["dipsolve_results"], 2)
        out["ratio_dipcc_public"] = round(best["dipcc"] / best["dipsolve_public"], 2)
        out["ratio_dipcc_with_orders"] = round(best["dipcc_orders"] / best["dipsolve"], 2)
        out["ratio_dipcc_from_text"] = round(best["dipcc_orders"] / best["dipsolve_text"], 2)
        if args.reference:
            out["ratio_dipcc_reference"] = round(best["dipcc"] / best["reference"], 2)
        out["dipcc_agrees"] = dipcc_agrees(pydipcc, phases)
    return out


def _ratios(doc: dict) -> dict[str, str]:
    """Each figure's ratio against dipcc (its time over dipsolve's), as text."""
    if "ratio_dipcc" not in doc:
        return {}
    r = {"dipsolve": f"{doc['ratio_dipcc']:.2f}x dipcc process()",
         "dipsolve_results": f"{doc['ratio_dipcc_with_results']:.2f}x dipcc process()",
         "dipsolve_public": f"{doc['ratio_dipcc_public']:.2f}x dipcc process()",
         "dipsolve_text": f"{doc['ratio_dipcc_from_text']:.2f}x dipcc set_orders + process()"}
    if "ratio_dipcc_reference" in doc:
        r["reference"] = f"{doc['ratio_dipcc_reference']:.2f}x dipcc process()"
    for name, xs in doc.get("ratio_dipcc_rounds", {}).items():
        if len(xs) > 1:
            r[name] += f" (rounds {min(xs):.2f}-{max(xs):.2f})"
    return r


def report(doc: dict, plain: dict | None) -> None:
    print(f"{doc['phases']} movement phases (seed {doc['seed']}, {doc['mean_units']:.1f} units on average), "
          f"best of {doc['repeat']} rounds, engines in turn every {doc['chunk']} phases, {doc['clock']} time; "
          f"load {doc['load'][0]:.2f} before, {doc['load'][3]:.2f} after")
    docs = [("compiled" if doc["engine"]["compiled"] else "plain", doc)]
    if plain is not None:
        docs.append(("DIPSOLVE_NO_NUMBA=1", plain))
    for title, d in docs:
        print(f"  [{title}] {d['kernel']}")
        ratios = _ratios(d)
        for key, label in FIGURES:
            if key not in d["us_per_phase"]:
                continue
            line = (f"    {label:34} {d[f'{key}_phases_per_s']:>9,.0f} phases/s "
                    f"{d['us_per_phase'][key]:>8.1f} us a phase")
            if key in ratios:
                line += f"   {ratios[key]}"
            print(line)
        if "ratio" in d:
            print(f"    ratio diplomacy / dipsolve         {d['ratio']:>9.1f}x "
                  f"({d['ratio_with_results']:.1f}x with results)")
        if "ratio_reference" in d:
            print(f"    ratio reference / dipsolve         {d['ratio_reference']:>9.2f}x "
                  "(the pre-issue-48 reference's time over the engine's)")
        if "dipcc_agrees" in d:
            print(f"    dipcc's units equal dipsolve's     {d['dipcc_agrees']:>9,} of {d['phases']} phases")
        elif d["dipcc"] and "ratio_dipcc" not in d:
            print(f"    dipcc: not measured: {d['dipcc']}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phases", type=int, default=2000, help="movement phases (default 2000)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random phases (default 1)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="time each engine this many times and keep the best (default 3)")
    ap.add_argument("--chunk", type=int, default=100,
                    help="phases each engine times before the next takes its turn (default 100)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                    help="this process's CPU time (default) or wall time")
    ap.add_argument("--no-peer", action="store_true",
                    help="time dipsolve alone (no diplomacy package, no dipcc, no reading of text)")
    ap.add_argument("--reference", action="store_true",
                    help="time the pre-issue-48 reference too (tests/oracle/reference.py)")
    ap.add_argument("--plain", action="store_true",
                    help="run it again in a process with DIPSOLVE_NO_NUMBA=1 (the engine as "
                         "plain Python, with --reference) and show both")
    args = ap.parse_args(argv)
    doc = measure(args)
    plain = None
    if args.plain:
        import engine

        child = ["--phases", str(args.phases), "--seed", str(args.seed), "--repeat", str(args.repeat),
                 "--chunk", str(args.chunk), "--clock", args.clock, "--reference"] + (["--no-peer"] if args.no_peer else [])
        plain = engine.run_plain("adjudication.py", child)
        doc["plain"] = plain
    if args.json:
        print(json.dumps(doc, indent=2))
        return 0
    report(doc, plain)
    return 0


if __name__ == "__main__":
    sys.exit(main())
