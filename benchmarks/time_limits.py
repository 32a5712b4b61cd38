"""Every command that takes ``--time-limit``, on every example it applies to: is the limit kept?

For each run (one process, as a user runs it, with ``DIPSOLVE_TIMINGS=1``):

- *work*: from the moment the command's time limit starts counting (its first
  `dipsolve.core.results.Deadline`: after Python has started, the libraries are imported and
  the input is read) to the end of its output, as the command itself reports it on
  stderr: the set-up of the model, the solve, the certificate or replay, the printing;
- *start-up*: the rest of the process's wall time (Python, imports, reading the input);
- *reported*: the ``seconds`` in the command's ``--json`` answer (the solver's own clock).

A run keeps the limit when its work is within 10% of it; every run must also come back
with a status (optimal, feasible, infeasible or timed out) and exit status 0.

    python benchmarks/time_limits.py                   # 0.2 s, every example
    python benchmarks/time_limits.py --limit 1 --json

Commands: ``solve`` (every method, one power per file, rotating), ``path`` (every power
from the start to 18 centers, and the example of examples/path/), ``adjust`` (every
position with adjustments, and ``--worst-case`` with and without waives).  ``play``
takes a limit per move, not per call, and is measured by benchmarks/play.py.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]


def wall(cmd: list[str]) -> tuple[float, subprocess.CompletedProcess]:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "DIPSOLVE_TIMINGS": "1"})
    return time.perf_counter() - t0, proc


def work(stderr: str) -> float | None:
    """The command's own figure: seconds from its time limit's start to its last output."""
    for line in stderr.splitlines():
        if line.startswith("dipsolve-timings: "):
            return json.loads(line.split(": ", 1)[1])["work"]
    return None


def dipsolve(*args: str) -> list[str]:
    return [sys.executable, "-m", "dipsolve.cli", *args]


def powers_with_units(path: Path) -> list[str]:
    import dipsolve
    position = dipsolve.Position.from_file(str(path))
    return [p for p in POWERS if position.units_of(p)]


def cases(limit: str) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    files = sorted(ROOT.glob("examples/*.dip")) + sorted(ROOT.glob("examples/*/*.dip"))
    k = 0
    for f in files:
        rel = f.relative_to(ROOT).as_posix()
        powers = powers_with_units(f)
        if not powers:
            continue
        for method in ("agenda", "minimax", "expectimax", "cpsat"):
            power = powers[k % len(powers)]
            k += 1
            out.append((f"solve {rel} {power} {method}",
                        dipsolve("solve", rel, "--power", power, "--method", method,
                                 "--time-limit", limit, "--json")))
    for power in POWERS:
        out.append((f"path {power} 18", dipsolve("path", "--power", power, "--target", "18",
                                                 "--time-limit", limit, "--json")))
    for f in sorted(ROOT.glob("examples/path/*.dip")):
        rel = f.relative_to(ROOT).as_posix()
        out.append((f"path {rel}", dipsolve("path", "--from", rel, "--power", "Germany",
                                            "--time-limit", limit, "--json")))
    for f in sorted(ROOT.glob("examples/adjustments/*.dip")) + [ROOT / "examples/w1901a.dip",
                                                                  ROOT / "examples/w1902a.dip"]:
        rel = f.relative_to(ROOT).as_posix()
        out.append((f"adjust {rel}", dipsolve("adjust", rel, "--time-limit", limit, "--json")))
    out.append(("adjust --worst-case", dipsolve("adjust", "--worst-case", "--time-limit", limit, "--json")))
    out.append(("adjust --worst-case --waives",
                dipsolve("adjust", "--worst-case", "--waives", "--time-limit", limit, "--json")))
    return out


def reported(stdout: str) -> tuple[float | None, list[str]]:
    """The largest ``seconds`` (or ``wall_time``) and every ``status`` in the JSON lines."""
    seconds: list[float] = []
    statuses: list[str] = []

    def walk(obj):
        if isinstance(obj, dict):
            for key, value in obj.items():
                if key in ("seconds", "wall_time") and isinstance(value, (int, float)):
                    seconds.append(float(value))
                elif key == "status" and isinstance(value, str):
                    statuses.append(value)
                else:
                    walk(value)
        elif isinstance(obj, list):
            for value in obj:
                walk(value)

    for line in stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                walk(json.loads(line))
            except json.JSONDecodeError:
                pass
    return (max(seconds) if seconds else None), statuses


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--limit", type=float, default=0.2, help="the time limit given (seconds)")
    ap.add_argument("--only", help="run only the cases whose name contains this text")
    ap.add_argument("--json", action="store_true", help="one JSON object per case")
    args = ap.parse_args()
    bad = 0
    rows = []
    for name, cmd in cases(repr(args.limit)):
        if args.only and args.only not in name:
            continue
        seconds, proc = wall(cmd)
        own, statuses = reported(proc.stdout)
        net = work(proc.stderr)
        ok = (proc.returncode == 0 and bool(statuses) and net is not None
              and net <= 1.1 * args.limit)
        bad += not ok
        row = {"case": name, "limit": args.limit, "wall": round(seconds, 3),
               "work": net, "startup": None if net is None else round(seconds - net, 3),
               "reported": own, "status": statuses[:1], "exit": proc.returncode, "kept": ok}
        rows.append(row)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            own_s = f"{own:.3f}" if own is not None else "  -  "
            net_s = f"{net:6.3f}" if net is not None else "   -  "
            print(f"{'ok ' if ok else 'BAD'} {name:58} work {net_s}  start-up {seconds - (net or 0):5.2f}"
                  f"  reported {own_s}  {statuses[0] if statuses else proc.stderr.strip()[:60]}",
                  flush=True)
    worst = max((r["work"] / args.limit for r in rows if r["work"] is not None), default=0.0)
    print(f"{len(rows) - bad}/{len(rows)} runs kept {args.limit} s within 10%; worst "
          f"work/limit {worst:.2f}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
