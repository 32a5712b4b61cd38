"""The order reader's worst cases: how long it takes to refuse them.

    python benchmarks/worst_orders.py [--repeat 3] [--kb 100]

Each input is handed to `dipsolve.parse_orders` (against the Fall 1901 example
position, as ``dipsolve validate`` reads orders) and to `dipsolve.parse_position` (a
unit's name in a ``.dip`` file), and must be refused with a `DipsolveError`; the time is
the best of ``--repeat`` runs, in one process, after one warm-up read (the grammars
loaded).  The inputs (``--kb`` kilobytes where the case is long):

* ``run`` -- an order followed by a run of one unknown word, ``A BUR - PAR BUR BUR ...``
  (the issue's case; the reader tried every head of the name: quadratic);
* ``run-at-bound`` -- the same cut to ``max_order_length`` characters, the longest line
  the reader still reads (the bound's worst case);
* ``x-run`` -- one unknown word of ``--kb`` kB (``A PAR - XXXX...``);
* ``unit-name`` -- a position whose unit's name is a run of words (``units: A PAR BUR BUR
  ...``): the position reader shares the name lookup.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--kb", type=int, default=100)
    args = ap.parse_args()

    import dipsolve
    from dipsolve.core.bounds import LIMITS
    position, _ = dipsolve.parse_position((ROOT / "examples" / "f1901m.dip").read_text())
    limit = int(LIMITS["max_order_length"].value) if "max_order_length" in LIMITS else None
    n = args.kb * 1000
    head = "France: A BUR - PAR"
    run = head + " BUR" * ((n - len(head)) // 4)
    cases = {
        "run": lambda: dipsolve.parse_orders(run, position=position),
        "run-at-bound": lambda: dipsolve.parse_orders(run[:limit or 1000], position=position),
        "x-run": lambda: dipsolve.parse_orders("France: A PAR - " + "X" * n, position=position),
        "unit-name": lambda: dipsolve.parse_position("phase: S1901M\n[France]\nunits: A PAR"
                                                     + " BUR" * (n // 4) + "\n"),
    }
    for name, read in cases.items():
        try:
            read()
        except dipsolve.DipsolveError:
            pass
        best = float("inf")
        said = ""
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            try:
                read()
                said = "accepted"
            except dipsolve.DipsolveError as e:
                said = f"{type(e).__name__}: {e.message[:70]}"
            best = min(best, time.perf_counter() - t0)
        print(f"{name:13} {best * 1000:10.1f} ms  {said}")


if __name__ == "__main__":
    main()
