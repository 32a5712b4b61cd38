"""Start-up time: how long ``dipsolve --help`` takes before a user sees anything.

    python benchmarks/startup.py [--runs N] [--python PYTHON]

Runs, each N times in a fresh process, and prints the median (and the fastest) wall
time of each:

- ``python -c pass``: the interpreter alone (with the installation's ``.pth`` files; an
  editable install adds its finder here);
- ``python -c "import dipsolve"``;
- ``dipsolve --help`` and ``dipsolve COMMAND --help`` for every command (the console
  script, or ``python -m dipsolve.cli`` when there is none beside PYTHON).

The goal (issue 13) is ``dipsolve --help`` under 0.15 s: building the parser imports no
solver, grammar or model (`dipsolve.cli.main`).  Wall time depends on the machine and
its load: compare figures from one run, never across machines.

Python's bytecode cache is on for the runs (as in an installed package: pip compiles
it), even where ``PYTHONDONTWRITEBYTECODE`` is set: without a cache every run compiles
every dipsolve module it imports from source (about 30 ms more for ``--help`` on the
machine of BENCHMARKS.md), which measures the compiler, not dipsolve.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

COMMANDS = ("adjudicate", "show", "parse", "validate", "solve", "path", "adjust", "play", "render")


def wall_times(cmd: list[str], runs: int, env: dict[str, str]) -> list[float]:
    """Seconds each of ``runs`` runs of ``cmd`` took, output discarded."""
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                       env=env)
        out.append(time.perf_counter() - start)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=20, help="runs of each command (default 20)")
    ap.add_argument("--python", default=sys.executable, help="the interpreter (default: this one)")
    args = ap.parse_args()
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    python = args.python
    script = Path(python).with_name("dipsolve")
    dipsolve = [str(script)] if script.exists() else [python, "-m", "dipsolve.cli"]
    cases = [("python -c pass", [python, "-c", "pass"]),
             ("python -c 'import dipsolve'", [python, "-c", "import dipsolve"]),
             ("dipsolve --help", [*dipsolve, "--help"])]
    cases += [(f"dipsolve {c} --help", [*dipsolve, c, "--help"]) for c in COMMANDS]
    for _, cmd in cases:            # warm the caches (bytecode, the file system)
        wall_times(cmd, 1, env)
    width = max(len(name) for name, _ in cases)
    print(f"{'command':{width}}  {'median s':>8}  {'min s':>6}   ({args.runs} runs each)")
    for name, cmd in cases:
        t = wall_times(cmd, args.runs, env)
        print(f"{name:{width}}  {statistics.median(t):8.3f}  {min(t):6.3f}")


if __name__ == "__main__":
    main()
