"""How much of the phase game one second of CPU buys: iterations and profiles judged.

    python benchmarks/phase_game_speed.py [--positions 6] [--time-limit 1] [--json]

Positions: ``dipsolve.testing.random_position(100 + i, 22, season="Spring",
year=1904)``; in each, the first power (alphabetically) with a unit plays the phase game
(`dipsolve.search.phase_game.PhaseGame`, default settings, no heuristic, no CP-SAT
oracle) for ``--time-limit`` seconds of this process's CPU time.  Printed per position:
the iterations of smooth fictitious play and the distinct joint profiles adjudicated.
Run it on two commits to compare them (the count depends on the machine and on what the
clock lets the search reach, so compare runs made in turn, at the same load).

Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def main(argv: list[str] | None = None) -> int:
    from dipsolve.algorithms.evaluation import influence
    from dipsolve.core.results import Deadline
    from dipsolve.search.phase_game import PhaseGame
    from dipsolve.testing.random_positions import random_position

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=6, help="positions (default 6)")
    ap.add_argument("--time-limit", type=float, default=1.0, help="CPU seconds a position (default 1)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    rows = []
    for i in range(args.positions):
        pos = random_position(100 + i, 22, season="Spring", year=1904)
        power = sorted({u.power for u in pos.units})[0]
        game = PhaseGame(pos, power, influence, seed=i,
                         deadline=Deadline(args.time_limit, clock=time.process_time))
        answer = game.run()
        rows.append({"position": i, "power": power, "iterations": answer.iterations,
                     "profiles": answer.profiles})
    total = {"iterations": sum(r["iterations"] for r in rows), "profiles": sum(r["profiles"] for r in rows)}
    if args.json:
        print(json.dumps({"time_limit": args.time_limit, "positions": rows, "total": total}))
    else:
        for r in rows:
            print(f"position {r['position']} ({r['power']}): {r['iterations']} iterations, "
                  f"{r['profiles']} profiles")
        print(f"total: {total['iterations']} iterations, {total['profiles']} profiles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
