"""The map file reader's worst cases: how long it takes to read or refuse them.

    python benchmarks/worst_map_file.py [--repeat 3] [--kb 60] [CASE ...]

Each input is ``examples/variants/isles.map`` and about ``--kb`` kilobytes more, handed
to `dipsolve.core.map_file.parse_map_file` (``USE``/``MAP`` names isles.map only); the
time is the best of ``--repeat`` runs, in one process, after one warm-up read.  The
inputs (each was quadratic or worse before 2026-11-29):

* ``nested-press`` -- DAIDE press nested on one line, ``PRP (AND (PRP (...)) (DMZ ...))``
  (the fuzz test's case: read as a power's line, every word a home, each placed by
  splitting the whole line again);
* ``press`` -- ``PRP (ALY (FRA GER) VSS (RUS))`` repeated on one line;
* ``victory`` -- ``VICTORY 5 5 5 ...`` (each number digit-counted at its place);
* ``distinct-homes`` -- ``AMBER H0 H1 H2 ...`` (each home looked up among those before);
* ``removals`` -- a location touching ``P0 ... Pn`` and, on its line, ``-Q0 ... -Qn``;
* ``removal-lines`` -- the same places, then ``AMEND NOR ABUTS -Q`` lines;
* ``drops`` -- the same places, then ``DROP XYZ`` lines.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _nested(depth: int) -> str:
    text = "PRP (ALY (FRA GER) VSS (RUS))"
    for _ in range(depth):
        text = f"PRP (AND ({text}) (DMZ (FRA GER) (BUR RUH)))"
    return text


def cases(n: int) -> dict[str, str]:
    """Each case's text beyond isles.map, about ``n`` characters."""
    press = "PRP (ALY (FRA GER) VSS (RUS)) "
    places = "COAST NOR ABUTS " + " ".join(f"P{i}" for i in range(n // 12))
    return {
        "nested-press": _nested(n // 40),
        "press": press * (n // len(press)),
        "victory": "VICTORY " + "5 " * (n // 2),
        "distinct-homes": "AMBER " + " ".join(f"H{i}" for i in range(n // 7)),
        "removals": places + " " + " ".join(f"-Q{i}" for i in range(n // 12)),
        "removal-lines": places + "\n" + "AMEND NOR ABUTS -Q\n" * (n // 36),
        "drops": places + "\n" + "DROP XYZ\n" * (n // 18),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--kb", type=int, default=60)
    ap.add_argument("case", nargs="*", help="the cases to run (all by default)")
    args = ap.parse_args()

    from dipsolve.core.errors import DipsolveError
    from dipsolve.core.map_file import parse_map_file
    from dipsolve.core.variant import VariantError
    isles = (ROOT / "examples" / "variants" / "isles.map").read_text(encoding="utf-8")

    def beside(name: str) -> tuple[str, str]:
        if name != "isles.map":
            raise VariantError(f"cannot read the file {name!r} it names: no such file")
        return isles, "isles.map"

    parse_map_file(isles, "isles.map")
    for name, extra in cases(args.kb * 1000).items():
        if args.case and name not in args.case:
            continue
        text = f"{isles}\n{extra}\n"
        best, said = float("inf"), ""
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            try:
                parse_map_file(text, "worst.map", beside)
                said = "read"
            except DipsolveError as e:
                said = f"{type(e).__name__}: {e.message[:60]}"
            best = min(best, time.perf_counter() - t0)
        print(f"{name:15} {len(text) / 1000:5.0f} kB {best * 1000:10.1f} ms  {said}", flush=True)


if __name__ == "__main__":
    main()
