"""Issue 26's five figures in one run, each engine side by side: the search path, fresh phases, press, records, play; and issue 48's engine, compiled and plain.

    python benchmarks/side_by_side.py [--quick] [--plain] [--before PATH] [--json]

Runs, one after the other, each in a process of its own, with ``--json``:

* ``order_sets.py`` (the search path: many order sets of one power over one position):
  dipsolve's `Resolver` (its sets packed first, the packing stated apart, and given as
  orders), dipcc, the ``diplomacy`` package, per set;
* ``adjudication.py --clock cpu`` (fresh phases): ``adjudicate(...).next``, the same with
  ``.results`` read, from order text (dipsolve's reader, then ``adjudicate``), against
  dipcc's ``process()`` (and with its ``set_orders``), the ``diplomacy`` package's
  ``process()``;
* with ``--plain``, both again in a process with ``DIPSOLVE_NO_NUMBA=1`` (the engine as
  plain Python; the fresh phases also by the pre-issue-48 reference kept under
  ``tests/oracle``), and ``engine.py`` (the engine's cold compile in a fresh process with
  an empty ``NUMBA_CACHE_DIR``, and its cached load);
* ``parsing.py --press-only`` (press, messages a second; no peer reads DAIDE press);
* ``records.py`` (saved games read, against the ``diplomacy`` package);
* ``play.py`` twice, DumbBot-only games (``--only references``) and a dipsolve seat
  (``--only dipsolve``, 0.5 s a phase), games a CPU minute of the process that plays them
  (``resource.getrusage``), with this checkout's code and, given ``--before PATH`` (a
  folder holding an older ``dipsolve`` package, put first on ``PYTHONPATH``), with that
  one, in turn.

Every benchmark loads dipsolve's one rules engine (``kernel.load()``) before it times
anything and says how it runs.  dipcc is Meta's C++ engine where it is built
(`peers/dipcc.py`); the rows say when it is not.  Every ratio is dipcc's (or the
peer's) time over dipsolve's, taken in the same process (above 1: dipsolve faster).
Every figure is CPU time (``time.process_time`` in the benchmarks, the children's
rusage for play); the machine's load is printed before and after (``os.getloadavg``).
Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run(script: str, *args: str, pythonpath: str | None = None, cwd: Path = HERE.parent) -> tuple[dict, float]:
    """``python benchmarks/SCRIPT ARGS --json`` in a process of its own: its JSON answer and
    the CPU seconds it took (user + system)."""
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath + os.pathsep + env.get("PYTHONPATH", "")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([sys.executable, str(cwd / "benchmarks" / script), *args, "--json"],
                         capture_output=True, text=True, env=env, cwd=cwd, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise SystemExit(f"{script} failed ({out.returncode}):\n{out.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return json.loads(out.stdout.strip().splitlines()[-1] if script == "play.py" else out.stdout), cpu


def _span(xs: list[float]) -> str:
    """``lo-hi`` of some figures (one figure alone)."""
    lo, hi = min(xs), max(xs)
    return f"{lo:.2f}" if lo == hi else f"{lo:.2f}-{hi:.2f}"


def engine_rows(tag: str, sets: dict, fresh: dict) -> list[tuple[str, ...]]:
    """The search path's and the fresh phases' rows of one process (``tag`` names it)."""
    us, vs = sets["us_per_set"], sets.get("vs_dipcc", {})
    built = "ratio_dipcc" in fresh
    process = f"{fresh['dipcc_phases_per_s']:,.0f} process()" if built else "not built"
    rows = [
        (f"search path{tag}, us a set: packed / as orders (pack apart)",
         f"{us['resolve packed']:.1f} / {us['resolve']:.1f} (pack {us['pack']:.1f})",
         f"{us['dipcc']:.1f}" if "dipcc" in us else "not built",
         f"{us['diplomacy']:.1f}" if "diplomacy" in us else "-",
         f"{vs['resolve packed']:.2f}x / {vs['resolve']:.2f}x" if vs else "-", ">= 3x dipcc"),
        (f"fresh phase{tag}, adjudicate().next, phases a second",
         f"{fresh['dipsolve_phases_per_s']:,.0f}", process, f"{fresh['peer_phases_per_s']:,.0f}",
         f"{fresh['ratio_dipcc']:.2f}x" if built else "-", ">= 1.5x dipcc"),
        (f"fresh phase{tag} + .results, phases a second",
         f"{fresh['dipsolve_with_results_phases_per_s']:,.0f}", process, "-",
         f"{fresh['ratio_dipcc_with_results']:.2f}x" if built else "-", "-"),
        (f"from order text{tag} (read + adjudicate), phases a second",
         f"{fresh['dipsolve_from_text_phases_per_s']:,.0f}",
         f"{fresh['dipcc_with_orders_phases_per_s']:,.0f} set_orders + process()" if built
         else "not built", "-",
         f"{fresh['ratio_dipcc_from_text']:.2f}x" if built else "-", "-"),
    ]
    if "reference_phases_per_s" in fresh:
        rows.append((f"fresh phase{tag}, pre-issue-48 reference (tests/oracle), phases a second",
                     f"{fresh['reference_phases_per_s']:,.0f}", process, "-",
                     f"{fresh['ratio_dipcc_reference']:.2f}x" if built else "-",
                     f"(the engine {1 / fresh['ratio_reference']:.2f}x its time)"))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer sets, phases and rounds (a smoke run)")
    ap.add_argument("--before", metavar="PATH",
                    help="a folder with an older dipsolve package: play's games a minute with it too")
    ap.add_argument("--plain", action="store_true",
                    help="the search path and fresh phases with the engine as plain Python too "
                         "(DIPSOLVE_NO_NUMBA=1), and the engine's cold compile and cached load")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    q = args.quick
    load = [os.getloadavg()]
    t0 = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    plain = ["--plain"] if args.plain else []
    sets, _ = run("order_sets.py", *(["--positions", "2", "--sets", "200", "--repeat", "1"] if q
                                     else ["--repeat", "5"]), *plain)
    fresh, _ = run("adjudication.py", "--clock", "cpu",
                   *(["--phases", "300", "--repeat", "1"] if q else ["--repeat", "3"]), *plain)
    loads = run("engine.py", "--runs", "1" if q else "2")[0] if args.plain else None
    press = run("parsing.py", "--press-only", "--repeat", "1" if q else "5")[0]["press"]
    records, _ = run("records.py", *(["--games", "3", "--repeat", "1"] if q
                                     else ["--games", "20", "--until", "S1911M", "--repeat", "5"]))
    plays: dict[str, dict[str, float]] = {}
    settings = {"DumbBot games": ["--only", "references", "--games", "4" if q else "20",
                                  "--until", "1902" if q else "1910", "--quiet"],
                "a dipsolve seat": ["--only", "dipsolve", "--games", "1" if q else "7",
                                    "--until", "1901" if q else "1903", "--time-limit", "0.5",
                                    "--quiet"]}
    for name, argv_play in settings.items():
        plays[name] = {}
        for who, path in (("before", args.before), ("this code", None)):
            if who == "before" and not path:
                continue
            doc, cpu = run("play.py", *argv_play, pythonpath=path,
                           cwd=Path(path) if path and (Path(path) / "benchmarks").is_dir() else HERE.parent)
            games = sum(s["games"] for s in doc["series"])
            plays[name][who] = round(games / cpu * 60, 1)
    load.append(os.getloadavg())
    rows = engine_rows("", sets, fresh)
    if args.plain:
        rows += engine_rows(" [plain Python]", sets["plain"], fresh["plain"])
    if loads is not None and loads.get("compiled"):
        rows.append(("engine: cold compile / cached load, s (wall; CPU)",
                     f"{_span(loads['cold_s'])} / {_span(loads['cached_s'])} "
                     f"({_span(loads['cold_cpu_s'])} / {_span(loads['cached_cpu_s'])})",
                     "-", "-", "-", "-"))
    rows += [
        ("press, messages a second", f"{press['messages_per_s']:,.0f}", "-", "-", "-", ">= 2,000"),
        ("records read, phases a second", f"{records['read_phases_per_s']:,.0f}", "-",
         f"{records['peer_read_phases_per_s']:,.0f}",
         f"{records['read_phases_per_s'] / records['peer_read_phases_per_s']:.2f}x the peer",
         ">= 1.5x the peer"),
    ]
    for name, v in plays.items():
        rows.append((f"play, {name}, games a CPU minute",
                     " / ".join(f"{who}: {g:,.1f}" for who, g in v.items()), "-", "-", "-",
                     "before and after"))
    doc = {"date": t0, "load": [round(x, 2) for x in load[0]] + [round(x, 2) for x in load[1]],
           "nproc": os.cpu_count(), "cpu": fresh["machine"]["cpu"], "dipcc": sets.get("dipcc"),
           "engine": fresh["engine"], "order_sets": sets, "adjudication": fresh,
           "engine_load": loads, "press": press, "records": records, "play": plays}
    if args.json:
        print(json.dumps(doc, indent=2))
        return 0
    print(f"# {t0}, nproc {os.cpu_count()} ({fresh['machine']['cpu']}), load {load[0][0]:.2f} before, "
          f"{load[1][0]:.2f} after; CPU time; dipcc: {sets.get('dipcc')}")
    print(f"# {fresh['kernel']}")
    head = ("figure", "dipsolve", "dipcc", "diplomacy", "ratio (dipcc's time / dipsolve's)", "target")
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    for r in [head, *rows]:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
