"""The rules engine in the benchmarks: loaded before anything is timed, and the same benchmark run with it as plain Python.

dipsolve has one rules engine (`dipsolve.core.kernel`), compiled by numba where it is
installed, plain Python where it is not or where ``DIPSOLVE_NO_NUMBA=1`` turns it off; no
other engine is picked.  A benchmark calls `load` first, so that no timed run pays the
compilation or the load from numba's cache, and reports what it got (`load`'s seconds,
`kernel.compiled()`, `kernel.why_plain`).  `run_plain` runs a benchmark script again in
a process of its own with ``DIPSOLVE_NO_NUMBA=1``, so that one table shows the engine
compiled and plain, each against dipcc in its own process.

    python benchmarks/engine.py [--runs 2] [--json]     # cold compile and cached load

`load_times`: the engine's cold compile (a fresh process with an empty
``NUMBA_CACHE_DIR`` calling ``kernel.load()``) and its cached load (a second fresh process
with the cache the first one wrote), each run ``--runs`` times with a new empty cache each
time; ``kernel.load()``'s own figure (wall seconds, as it returns them) and the child's
CPU seconds for the load alone (``time.process_time`` around the call).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def load() -> dict[str, Any]:
    """Load the engine in this process (``kernel.load()``) and say what was loaded: its
    seconds (wall, as `load` returns them, and this process's CPU time), whether it
    runs compiled, why not, numba's version."""
    from dipsolve.core import kernel

    cpu = time.process_time()
    seconds = kernel.load()
    cpu = time.process_time() - cpu
    numba = None
    if kernel.compiled():
        import numba as nb
        numba = nb.__version__
    return {"load_s": round(seconds, 3), "load_cpu_s": round(cpu, 3),
            "compiled": kernel.compiled(), "why_plain": kernel.why_plain, "numba": numba}


def describe(engine: dict[str, Any]) -> str:
    """One line: how the engine runs in this process."""
    if engine["compiled"]:
        return (f"engine compiled (numba {engine['numba']}), kernel.load() "
                f"{engine['load_s']:.2f} s before timing, not timed")
    return f"engine as plain Python ({engine['why_plain']})"


def run_plain(script: str, args: list[str]) -> dict[str, Any]:
    """``python benchmarks/SCRIPT ARGS --json`` in a process of its own with
    ``DIPSOLVE_NO_NUMBA=1`` (the engine as plain Python): its JSON answer."""
    env = dict(os.environ, DIPSOLVE_NO_NUMBA="1")
    out = subprocess.run([sys.executable, str(HERE / script), *args, "--json"],
                         capture_output=True, text=True, env=env, cwd=HERE.parent, check=False)
    if out.returncode != 0:
        raise SystemExit(f"{script} with DIPSOLVE_NO_NUMBA=1 failed ({out.returncode}):\n{out.stderr}")
    return json.loads(out.stdout)


_CHILD = ("import json, time\n"
          "t0 = time.process_time()\n"
          "from dipsolve.core import kernel\n"
          "c0 = time.process_time()\n"
          "s = kernel.load()\n"
          "c1 = time.process_time()\n"
          "print(json.dumps({'load_s': s, 'load_cpu_s': c1 - c0, 'import_cpu_s': c0 - t0,\n"
          "                  'compiled': kernel.compiled(), 'why_plain': kernel.why_plain}))\n")


def _child(cache: str) -> dict[str, Any]:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    env.pop("DIPSOLVE_NO_NUMBA", None)
    out = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True,
                         env=env, cwd=HERE.parent, check=False)
    if out.returncode != 0:
        raise SystemExit(f"kernel.load() failed in a fresh process:\n{out.stderr}")
    return json.loads(out.stdout)


def load_times(runs: int = 2) -> dict[str, Any]:
    """Cold compile and cached load of the engine, each in a fresh process, ``runs``
    times (a new empty ``NUMBA_CACHE_DIR`` each time)."""
    cold, cached = [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="dipsolve-numba-") as cache:
            cold.append(_child(cache))
            cached.append(_child(cache))
            if not any(Path(cache).rglob("*.nbi")):
                raise SystemExit(f"kernel.load() wrote no cache under NUMBA_CACHE_DIR={cache}")
    if not all(d["compiled"] for d in cold + cached):
        return {"compiled": False, "why_plain": cold[0]["why_plain"]}
    pick = lambda docs, key: [round(d[key], 2) for d in docs]  # noqa: E731
    return {"compiled": True, "runs": runs,
            "cold_s": pick(cold, "load_s"), "cold_cpu_s": pick(cold, "load_cpu_s"),
            "cached_s": pick(cached, "load_s"), "cached_cpu_s": pick(cached, "load_cpu_s")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="The engine's cold compile and cached load, each in a fresh process.")
    ap.add_argument("--runs", type=int, default=2, help="cold compiles, each with its cached load (default 2)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    load_avg = [os.getloadavg()]
    doc = load_times(args.runs)
    load_avg.append(os.getloadavg())
    doc["load"] = [round(x, 2) for x in load_avg[0]] + [round(x, 2) for x in load_avg[1]]
    if args.json:
        print(json.dumps(doc, indent=2))
        return 0
    if not doc["compiled"]:
        print(f"engine as plain Python: {doc['why_plain']}")
        return 0
    print(f"load {load_avg[0][0]:.2f} before, {load_avg[1][0]:.2f} after; {args.runs} fresh caches")
    show = lambda xs: ", ".join(f"{x:.2f}" for x in xs)  # noqa: E731
    print(f"  cold compile (empty NUMBA_CACHE_DIR): {show(doc['cold_s'])} s wall, {show(doc['cold_cpu_s'])} s CPU")
    print(f"  cached load (the cache just written): {show(doc['cached_s'])} s wall, "
          f"{show(doc['cached_cpu_s'])} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
