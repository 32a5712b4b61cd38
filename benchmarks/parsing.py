"""Reading orders (and press): dipsolve against the ``diplomacy`` package, in one process.

Two corpora of orders:

* every order of the DATC case files (``tests/datc/cases``, 684 orders), each written by
  `dipsolve.grammar.orders.format_order` in short, long and DAIDE notation;
* the orders of random phases (`dipsolve.testing.benchmark_phases`: openings and
  mid-game positions with realistic orders), the same way.

What is timed, for each order string:

* dipsolve, reading: ``parse_order_line(text)``, text to a typed `Order` with canonical
  locations (and the power, when the text names one): canonical short text through the
  fast path (`dipsolve.grammar.fastpath`), long through the Lark grammar, DAIDE through
  the DAIDE grammar; also a whole orders file (``parse_orders``: one ``Power: order`` a
  line, short notation), and the short strings through the grammar alone
  (``grammar_order_line``, no fast path: "short, grammar");
* the peer, reading: ``Game._expand_order(text.split())``, the string handling that
  ``Game.set_orders`` does first (``Map.compact``, ``rearrange``, ``vet``: aliases,
  abbreviations, order words; it returns normalised tokens, not an object) on the
  short-notation strings, without ``Power:``, as the peer takes them;
* reading and judging against the position: dipsolve ``parse_order_line`` for each
  order and then ``order_problems(position, pairs)`` (`dipsolve.core.rules`) for the
  phase; the peer ``Game.set_orders(power, texts)`` for each power, on a game already
  set to the position (building it is not timed), which expands, validates and files
  each order.

Press: ``dipsolve.grammar.press.parse_press`` over every valid message of the press
corpus converted into ``tests/data/press_cases.jsonl`` (messages per CPU second, the
fast path and the reference Earley parser alone; the peer has no press reader to compare
with), when both exist; see `time_press`.

    python benchmarks/parsing.py
    python benchmarks/parsing.py --press-only --repeat 7
    python benchmarks/parsing.py --phases 300 --repeat 5 --json

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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from adjudication import _cpu_model  # noqa: E402  (the machine line, as the other benchmark writes it)


# -- corpora --------------------------------------------------------------------------------

def datc_phases():
    """``[(position, {power: [Order]})]``: every DATC case file's position and orders."""
    sys.path.insert(0, str(ROOT / "tests"))
    from test_datc import CASE_FILES, split_case

    from dipsolve.grammar import parse_position
    out = []
    for path in CASE_FILES:
        position, orders = parse_position(split_case(path.read_text(encoding="utf-8"))[0], str(path))
        if orders:
            out.append((position, orders))
    return out


def random_phases(seed: int, n: int):
    from dipsolve.testing import benchmark_phases
    return benchmark_phases(seed, n)


def texts(phases, notation: str) -> list[list[tuple[str, str]]]:
    """Each phase's orders as ``(power, text)`` in one notation (short: without ``Power:``;
    long: with it; DAIDE: the power is in the order).  DAIDE cannot write a convoyed move
    with no sea route; such an order (none in either corpus) would be left out."""
    from dipsolve.grammar.orders import FormatError, format_order
    out = []
    for position, orders in phases:
        one = []
        for power, os in orders.items():
            for o in os:
                written_by = None if notation == "short" else power
                try:
                    one.append((power, format_order(o, written_by, notation, position=position)))
                except FormatError:
                    pass
        out.append(one)
    return out


# -- timing ---------------------------------------------------------------------------------

def _timed(fn) -> float:
    gc.collect()
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def race(runs: dict, repeat: int) -> dict[str, float]:
    """The best time of each run (a function returning its own seconds) over ``repeat``
    rounds; within a round every run goes once, in an order that rotates, so that a
    change in the machine's load falls on all of them alike."""
    best = {name: float("inf") for name in runs}
    names = list(runs)
    for r in range(repeat):
        for name in names[r % len(names):] + names[:r % len(names)]:
            best[name] = min(best[name], runs[name]())
    return best


def dipsolve_read(strings: list[str]):
    from dipsolve.grammar.orders import parse_order_line

    def run():
        for s in strings:
            parse_order_line(s)
    return lambda: _timed(run)


def dipsolve_grammar(strings: list[str]):
    """``parse_order_line`` without its fast path for canonical short text: the Lark
    grammar alone (None where this dipsolve has no fast path to leave out)."""
    try:
        from dipsolve.grammar.orders import grammar_order_line
    except ImportError:
        return None

    def run():
        for s in strings:
            grammar_order_line(s)
    return lambda: _timed(run)


def dipsolve_file(file_text: str):
    from dipsolve.grammar.orders import parse_orders
    return lambda: _timed(lambda: parse_orders(file_text))


def peer_read(strings: list[str]):
    from diplomacy import Game
    game = Game()

    def run():
        for s in strings:
            game._expand_order(s.split())
        game.error = []
    return lambda: _timed(run)


def dipsolve_validate(phases, phase_texts):
    """Read each phase's orders (short, with ``Power:``) and judge them together."""
    from dipsolve.grammar.orders import parse_order_line
    from dipsolve.core.rules import order_problems
    from dipsolve.core.position import Position

    jobs = [[f"{power}: {text}" for power, text in one] for one in phase_texts]

    def once() -> float:
        fresh = [Position.build(p.phase, p.units, p.centers, p.dislodged, p.standoffs)
                 for p, _ in phases]      # nothing cached from the run before (not timed)

        def run():
            for position, lines in zip(fresh, jobs):
                order_problems(position, [parse_order_line(line) for line in lines])
        return _timed(run)
    return once


def peer_validate(phases, phase_texts):
    """``Game.set_orders`` per power on a game set to the position (not timed)."""
    from dipsolve.testing.peer import PEER_POWER, to_peer_game

    def once() -> float:
        total = 0.0
        for (position, _), one in zip(phases, phase_texts):
            game = to_peer_game(position)
            by_power: dict[str, list[str]] = {}
            for power, text in one:
                by_power.setdefault(PEER_POWER[power], []).append(text)
            gc.collect(0)
            t0 = time.perf_counter()
            for power, lines in by_power.items():
                game.set_orders(power, lines)
            total += time.perf_counter() - t0
        return total
    return once


def press_corpus() -> list[dict] | None:
    """The press corpus as converted into the project's tests (a JSON-lines file of
    ``{"text", "valid", "level", ...}`` under ``tests/``), or None while there is none."""
    for path in sorted(ROOT.glob("tests/**/press_cases*.jsonl")):
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return None


def _cpu_timed(fn) -> float:
    gc.collect()
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def time_press(repeat: int) -> dict | None:
    """Press messages per second of CPU time (``time.process_time``; this machine is
    shared): ``parse_press`` over every valid message of the press corpus (DAIDE ones at
    the highest level, so that daidepp's levels 140-160 are read too; DPP-only ones with
    ``dialect="dpp"``), and the same messages through the reference parser alone
    (``reference=True``: Earley with every reading, what every message went through
    before the fast path), each run in turn.  None when the press grammar or its corpus
    is not there."""
    try:
        from dipsolve.grammar.press import LEVELS, parse_press
    except ImportError:
        return None
    cases = press_corpus()
    if not cases:
        return None
    top = max(LEVELS)
    valid = [(c["text"], "dpp" if c.get("dialect") == "dpp" else "daide")
             for c in cases if c.get("valid")]
    daide = [t for t, d in valid if d == "daide"]

    def run(reference: bool, texts=valid):
        def go():
            for text, dialect in texts:
                parse_press(text, level=top, dialect=dialect, reference=reference)
        return go
    runs = {"fast": run(False), "reference": run(True),
            "fast_daide": run(False, [(t, "daide") for t in daide]),
            "reference_daide": run(True, [(t, "daide") for t in daide])}
    for go in runs.values():
        go()    # warm up (grammars)
    best = race({k: (lambda go=go: _cpu_timed(go)) for k, go in runs.items()}, repeat)
    return {"messages": len(valid), "daide_messages": len(daide),
            "messages_per_s": round(len(valid) / best["fast"], 1),
            "reference_messages_per_s": round(len(valid) / best["reference"], 1),
            "daide_messages_per_s": round(len(daide) / best["fast_daide"], 1),
            "reference_daide_messages_per_s": round(len(daide) / best["reference_daide"], 1)}


# -- main -----------------------------------------------------------------------------------

def measure(name: str, phases, repeat: int) -> dict:
    short = texts(phases, "short")
    flat = {n: [t for one in texts(phases, n) for _, t in one] for n in ("short", "long", "daide")}
    count = len(flat["short"])
    file_text = "".join(f"{power}: {text}\n" for one in short for power, text in one)
    runs = {f"dipsolve_{n}": dipsolve_read(flat[n]) for n in ("short", "long", "daide")}
    grammar = dipsolve_grammar(flat["short"])
    if grammar is not None:
        runs["dipsolve_grammar_short"] = grammar
    runs.update(dipsolve_file=dipsolve_file(file_text), peer_short=peer_read(flat["short"]),
                dipsolve_validate=dipsolve_validate(phases, short),
                peer_validate=peer_validate(phases, short))
    for run in runs.values():     # warm up (grammars, map tables, the peer's caches)
        run()
    best = race(runs, repeat)
    out: dict = {"corpus": name, "orders": count, "phases": len(phases)}
    for key, seconds in best.items():
        out[f"{key}_per_s"] = round(count / seconds, 1)
    out["ratio_short"] = round(best["peer_short"] / best["dipsolve_short"], 2)
    out["ratio_validate"] = round(best["peer_validate"] / best["dipsolve_validate"], 2)
    if "dipsolve_grammar_short" in best:
        out["ratio_grammar_short"] = round(best["peer_short"] / best["dipsolve_grammar_short"], 2)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phases", type=int, default=200, help="random phases (default 200)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random phases (default 1)")
    ap.add_argument("--repeat", type=int, default=5, help="keep the best of this many runs (default 5)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--press-only", action="store_true", help="time press alone")
    args = ap.parse_args(argv)

    import diplomacy

    results = [] if args.press_only else [
        measure("DATC orders", datc_phases(), args.repeat),
        measure(f"random orders ({args.phases} phases, seed {args.seed})",
                random_phases(args.seed, args.phases), args.repeat)]
    press = time_press(args.repeat)
    doc = {"corpora": results, "press": press,
           "machine": {"nproc": os.cpu_count(), "cpu": _cpu_model(),
                       "python": platform.python_version(),
                       "peer": f"diplomacy {getattr(diplomacy, '__version__', '1.1.2')}"}}
    if args.json:
        print(json.dumps(doc, indent=2))
        return 0
    for r in results:
        print(f"{r['corpus']}: {r['orders']:,} orders in {r['phases']:,} phases, best of {args.repeat}")
        print(f"  dipsolve read, short       {r['dipsolve_short_per_s']:>10,.0f} orders/s")
        print(f"  dipsolve read, long        {r['dipsolve_long_per_s']:>10,.0f} orders/s")
        print(f"  dipsolve read, DAIDE       {r['dipsolve_daide_per_s']:>10,.0f} orders/s")
        print(f"  dipsolve read, orders file {r['dipsolve_file_per_s']:>10,.0f} orders/s")
        if "dipsolve_grammar_short_per_s" in r:
            print(f"  dipsolve short, grammar    {r['dipsolve_grammar_short_per_s']:>10,.0f} orders/s"
                  f"  ({r['ratio_grammar_short']:.2f}x the peer; no fast path)")
        print(f"  diplomacy _expand_order    {r['peer_short_per_s']:>10,.0f} orders/s")
        print(f"  ratio (short)              {r['ratio_short']:>10.2f}x")
        print(f"  dipsolve read + legality   {r['dipsolve_validate_per_s']:>10,.0f} orders/s")
        print(f"  diplomacy set_orders       {r['peer_validate_per_s']:>10,.0f} orders/s")
        print(f"  ratio (read and judge)     {r['ratio_validate']:>10.2f}x")
    if press is None:
        print("press: not timed (dipsolve.grammar.press.parse_press or the press corpus under "
              "tests/ is not there yet)")
    else:
        print(f"press: {press['messages']} valid messages ({press['daide_messages']} DAIDE), "
              f"messages per CPU second, best of {args.repeat}")
        print(f"  parse_press, all         {press['messages_per_s']:>10,.0f}"
              f"  (reference parser alone {press['reference_messages_per_s']:,.0f})")
        print(f"  parse_press, DAIDE       {press['daide_messages_per_s']:>10,.0f}"
              f"  (reference parser alone {press['reference_daide_messages_per_s']:,.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
