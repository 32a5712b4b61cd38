"""Write the stress positions of ``examples/adjustments/`` from the seeded generator
`dipsolve.testing.random_adjustments.random_adjustment_position` (issue 15).

    python tests/tools/make_adjustment_examples.py          # writes the files
    python tests/tools/make_adjustment_examples.py --check  # exits 1 if a file differs

Each file starts with a comment saying how it was made (the generator call) and what it
shows; the rest is `Position.to_text`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from dipsolve.algorithms.adjustments import joint_count
from dipsolve.testing.random_adjustments import random_adjustment_position

ADJUST = Path(__file__).resolve().parents[2] / "examples" / "adjustments"

#: (file, generator keywords, what it shows)
EXAMPLES: list[tuple[str, dict[str, Any], str]] = [
    ("stress-two-removers.dip", {"rng": 5},
     "Two neighbouring powers each remove 8 of 16 units (12,870 choices each) next to four\n"
     "powers building in free home centers: one interacting group of six powers.  The\n"
     "combined search cycles; a correlated equilibrium by column generation, then a mixed\n"
     "one by the double oracle from its support."),
    ("stress-correlated.dip", {"rng": 3},
     "Two removers (8 of 16) and four builders, six interacting powers.  The search\n"
     "cycles: a correlated equilibrium by column generation, certified in the whole game;\n"
     "a mixed one has the removers mix over five and six order sets (the double oracle,\n"
     "its restricted games solved by following the logit branch)."),
    ("stress-wide.dip", {"rng": 7},
     "Two removers (8 of 16) and four builders, six interacting powers, 2.5e13 profiles\n"
     "counting waives; the search cycles."),
    ("stress-three-removers.dip",
     {"rng": 11, "removers": ("France", "Germany", "Italy"), "units": 14, "removals": 7,
      "builders": 4},
     "Three neighbouring powers each remove 7 of 14 units (3,432 choices each) next to\n"
     "four builders: seven interacting powers, 6.1e15 profiles counting waives.  The\n"
     "search cycles; several powers mix at once."),
    ("no-pure-four.dip",
     {"rng": 11, "units": 3, "removals": 1, "builders": 2, "builder_units": 2},
     "A small game with no pure equilibrium: four interacting powers, 315 joint profiles\n"
     "(every one checked in tests/test_equilibria_large.py).  Its mixed equilibrium is\n"
     "found by small-support enumeration and checked exactly on the full table."),
]


def text(name: str, kwargs: dict[str, Any], what: str) -> str:
    pos = random_adjustment_position(**kwargs)
    call = ", ".join(f"{k}={v!r}" for k, v in kwargs.items())
    head = [f"# {line}" if line else "#" for line in what.splitlines()]
    head += [f"# Made by tests/tools/make_adjustment_examples.py: "
             f"dipsolve.testing.random_adjustment_position({call});",
             f"# {joint_count(pos, True):,} joint adjustment profiles counting waives, "
             f"{joint_count(pos, False):,} without."]
    return "\n".join(head) + "\n" + pos.to_text()


def main(argv: list[str]) -> int:
    check = "--check" in argv
    bad = 0
    for name, kwargs, what in EXAMPLES:
        out = text(name, kwargs, what)
        path = ADJUST / name
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != out:
                print(f"{path} differs from the generator's", file=sys.stderr)
                bad += 1
        else:
            path.write_text(out, encoding="utf-8")
            print(f"wrote {path}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
