"""Negotiation at the table: dipsolve seats that negotiate against their non-negotiating selves, on a real DAIDE server.

Issue 53's field (item 5).  Each game is played on the ``diplomacy`` package's DAIDE
server on 127.0.0.1 (`dipsolve.testing.daide_server`, a game with press, started and
killed for each game) by seven ``dipsolve daide`` clients, each in its own process.  A
series seats seven clients of two kinds, the seats rotated (the game of seed g seats client
i at power ``(i + g) mod 7``: over seven games every kind plays every power; a run split in
two, ``--seed 0 --games 12`` then ``--seed 12 --games 23``, seats as one run of 35; with
several series, game g of each is played before game g + 1 of any, so that a run cut
short holds as many games of each):

- ``press``: ``--negotiators`` honest negotiating dipsolve seats (``--press 30``) and
  the rest dipsolve seats without press (``gunboat``): the same search, the same time;
- ``policy``: ``--negotiators`` opportunistic negotiating seats, the rest honest ones
  that learn each power's trust from the agreements it kept and broke;
- ``policy-prior``: the same, the honest seats without trust reasoning (``--press-trust
  prior``: every power trusted at the prior whatever it did); beside ``policy``, the
  effect of trust reasoning when some seats stab (``--negotiators 1``: one stabber);
- ``dumbbot``: ``--negotiators`` honest negotiating seats and the rest DumbBots.

A game ends at a solo, when no supply centre has changed hands for ``--draw-after``
years (a draw), or on reaching Spring of the year after ``--until``.  Reported per kind of
seat, as ``benchmarks/play.py`` reports a seat (its interval code, `play.mean_interval`,
and the package's Wilson interval): mean final centres with a normal 95% interval, solo
and survival rates with Wilson 95% intervals; and for the negotiating seats the messages
they sent, those dipsolve's grammar refused to send and those the server rejected (REJ
or HUH), the agreements accepted and, from the server's record (every power's orders:
`dipsolve.track_agreements`), the agreements each kind's orders broke; and the seats the
bot contract stopped (`dipsolve.play.contract`: a turn overran or its bot raised; its
units hold from then on, breaking what they had promised).  Each client's stderr is kept
beside the server's record (``--keep DIR``).  Two series played on the same seeds (so
seated alike) are also compared game by game: each role's mean centres, the second series
less the first, with a 95% interval (`paired`).  With ``--keep``, each game's result, as
it ends, is a line of ``DIR/games.jsonl``; ``--summarize DIR/games.jsonl`` reports those again
(a run stopped, or two runs' files joined) without playing.

    python benchmarks/press.py --games 2 --until 1902 --time-limit 0.5     # a quick look (minutes)
    python benchmarks/press.py --games 35 --series press --json             # the issue's measurement (hours)
    python benchmarks/press.py --games 35 --series policy,policy-prior --negotiators 1 --keep runs/stab

Strength is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from play import mean_interval      # the interval play.py prints, beside this file

from dipsolve.core.map import POWERS
from dipsolve.play.games import wilson      # the package's Wilson interval (its standings use it)

#: the series and how they seat their clients: (the negotiators' kind, the others' kind)
SERIES = {"press": ("press:honest", "gunboat"), "policy": ("press:opportunistic", "press:honest"),
          "policy-prior": ("press:opportunistic", "press:honest:prior"), "dumbbot": ("press:honest", "dumbbot")}
#: a kind of seat -> its ``dipsolve daide`` options
KINDS = {"press:honest": ["--bot", "dipsolve", "--press", "30", "--press-policy", "honest"],
         "press:honest:prior": ["--bot", "dipsolve", "--press", "30", "--press-policy", "honest",
                                "--press-trust", "prior"],
         "press:opportunistic": ["--bot", "dipsolve", "--press", "30", "--press-policy", "opportunistic"],
         "gunboat": ["--bot", "dipsolve"], "dumbbot": ["--bot", "dumbbot"]}
TOKENS = {"Austria": "AUS", "England": "ENG", "France": "FRA", "Germany": "GER", "Italy": "ITA",
          "Russia": "RUS", "Turkey": "TUR"}


def seating(series: str, negotiators: int, game: int) -> dict[str, str]:
    """Power -> kind of seat in game number ``game`` of ``series`` (rotated)."""
    first, rest = SERIES[series]
    kinds = [first] * negotiators + [rest] * (len(POWERS) - negotiators)
    return {POWERS[(i + game) % len(POWERS)]: kind for i, kind in enumerate(kinds)}


def play_one(seats: dict[str, str], args, folder: Path, seed: int) -> dict:
    """One game on a fresh server: the record's result, each client's end, the press counts."""
    from dipsolve.testing.daide_server import DaideServerProcess
    out = folder / f"game-{seed}.json"
    clients: dict[str, subprocess.Popen] = {}
    logs: dict = {}
    ends: dict[str, dict | None] = {}
    try:
        with DaideServerProcess(out, deadline=args.deadline, until=f"S{args.until + 1}M", press=True,
                                draw_after=args.draw_after, max_seconds=args.max_seconds) as server:
            for power, kind in seats.items():
                cmd = [sys.executable, "-m", "dipsolve.cli", "daide", f"127.0.0.1:{server.port}",
                       "--power", TOKENS[power], "--name", f"{kind}-{TOKENS[power]}", "--seed", str(seed),
                       "--timeout", str(args.deadline * 4), "--json", *KINDS[kind]]
                if kind != "dumbbot":
                    cmd += ["--time-limit", str(args.time_limit)]
                if kind.startswith("press"):
                    cmd += ["--press-wait", str(args.press_wait)]
                logs[power] = open(folder / f"game-{seed}-{TOKENS[power]}.log", "w", encoding="utf-8")
                clients[power] = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=logs[power], text=True,
                                                  start_new_session=True)
            server.wait(timeout=args.max_seconds + 30)
            for power, c in clients.items():
                stdout, _ = c.communicate(timeout=120)
                try:
                    ends[power] = json.loads(stdout.strip().splitlines()[-1])
                except (ValueError, IndexError):
                    ends[power] = None
    finally:
        for c in clients.values():
            if c.poll() is None:
                os.killpg(c.pid, signal.SIGKILL)
                c.wait()
        for log in logs.values():
            log.close()
    # a seat the bot contract stopped (its turn overran, or its bot raised) holds from then on
    stopped = sorted(p for p in seats if "hold from here on" in
                     (folder / f"game-{seed}-{TOKENS[p]}.log").read_text(encoding="utf-8", errors="replace"))
    import dipsolve
    record = dipsolve.load_record(str(out))
    result = record.result
    ledger = dipsolve.track_agreements(record)
    broken = {p: len({v.agreement for v in vs}) for p, vs in ledger.violations().items()}
    accepted = {p: 0 for p in POWERS}
    for a in ledger:
        if any(c.state.value == "accepted" for c in a.changes):
            for p in a.parties:
                accepted[p] = accepted.get(p, 0) + 1
    return {"seed": seed, "seats": seats, "how": result.how, "winners": list(result.winners),
            "phase": result.phase, "centers": dict(result.centers), "broken": broken, "accepted": accepted,
            "press": {p: (e or {}).get("press") for p, e in ends.items()},
            "client_failed": sorted(p for p, e in ends.items() if e is None), "stopped": stopped}


def summarize(games: list[dict]) -> dict:
    """Per kind of seat: seats, mean centres and solo and survival rates with their 95%
    intervals, and the press counts."""
    out: dict[str, dict] = {}
    kinds = sorted({k for g in games for k in g["seats"].values()})
    for kind in kinds:
        seats = [(g, p) for g in games for p, k in g["seats"].items() if k == kind]
        centers = [float(g["centers"].get(p, 0)) for g, p in seats]
        solos = sum(g["how"] == "solo" and p in g["winners"] for g, p in seats)
        survived = sum(c > 0 for c in centers)
        m, lo, hi = mean_interval(centers)
        press = [g["press"].get(p) for g, p in seats if g["press"].get(p)]
        out[kind] = {"seats": len(seats), "mean_centers": m, "centers_interval": [lo, hi],
                     "solos": solos, "solo_interval": list(wilson(solos, len(seats))),
                     "survived": survived, "survival_interval": list(wilson(survived, len(seats))),
                     "sent": sum(x["sent"] for x in press), "refused": sum(x["refused"] for x in press),
                     "rejected": sum(x["rejected"] for x in press),
                     "stabs": sum(x["stabs"] for x in press),
                     "accepted": sum(g["accepted"].get(p, 0) for g, p in seats),
                     "broken": sum(g["broken"].get(p, 0) for g, p in seats),
                     "client_failed": sum(p in g["client_failed"] for g, p in seats),
                     "stopped": sum(p in g.get("stopped", ()) for g, p in seats)}
    return out


def _print(series: str, summary: dict, games: list[dict], seconds: float | None) -> None:
    ends = {}
    for g in games:
        ends[g["how"]] = ends.get(g["how"], 0) + 1
    took = "" if seconds is None else f", {seconds:.0f} s"
    print(f"{series}: {len(games)} games ({', '.join(f'{n} {h}' for h, n in sorted(ends.items()))}){took}")
    for kind, s in summary.items():
        lo, hi = s["centers_interval"]
        slo, shi = s["solo_interval"]
        vlo, vhi = s["survival_interval"]
        print(f"  {kind:20} {s['seats']:3} seats: centers {s['mean_centers']:.2f} ({lo:.2f}-{hi:.2f}), "
              f"solos {100 * s['solos'] / max(1, s['seats']):.1f}% ({100 * slo:.0f}-{100 * shi:.0f}), "
              f"survived {100 * s['survived'] / max(1, s['seats']):.1f}% ({100 * vlo:.0f}-{100 * vhi:.0f})")
        if kind.startswith("press"):
            print(f"  {'':20} messages sent {s['sent']}, refused by the grammar {s['refused']}, rejected by "
                  f"the server {s['rejected']}; agreements accepted {s['accepted']}, broken {s['broken']} "
                  f"(on purpose: {s['stabs']})")
        if s["client_failed"] or s["stopped"]:
            print(f"  {'':20} {s['client_failed']} clients ended without their summary, {s['stopped']} seats "
                  f"stopped by the bot contract (a turn overran: its units held from then on)")


def paired(played: dict[str, list[dict]]) -> list[dict]:
    """For every two series played on the same seeds (so the same seating): per role (the
    first kind of seat, and the rest), the game-by-game difference of its mean centres,
    the second series less the first, with its 95% interval (``policy`` beside
    ``policy-prior``: what trust reasoning changes when the same seats stab)."""
    out = []
    names = list(played)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            ga = {g["seed"]: g for g in played[a]}
            gb = {g["seed"]: g for g in played[b]}
            seeds = sorted(set(ga) & set(gb))
            if not seeds:
                continue
            for role, kinds in (("first", (SERIES[a][0], SERIES[b][0])), ("rest", (SERIES[a][1], SERIES[b][1]))):
                diffs = []
                for s in seeds:
                    means = []
                    for g, kind in ((ga[s], kinds[0]), (gb[s], kinds[1])):
                        cs = [g["centers"].get(p, 0) for p, k in g["seats"].items() if k == kind]
                        means.append(sum(cs) / len(cs))
                    diffs.append(means[1] - means[0])
                m, lo, hi = mean_interval(diffs)
                out.append({"series": [a, b], "kinds": list(kinds), "games": len(seeds),
                            "difference": m, "interval": [lo, hi]})
    return out


def _print_paired(pairs: list[dict]) -> None:
    for p in pairs:
        a, b = p["series"]
        lo, hi = p["interval"]
        print(f"paired, {p['games']} games: {p['kinds'][1]} in {b} less {p['kinds'][0]} in {a}: "
              f"{p['difference']:+.2f} centers ({lo:+.2f} to {hi:+.2f})")


def summarize_file(path: str, as_json: bool) -> int:
    """``--summarize``: the report of the games in a games.jsonl, by series."""
    played: dict[str, list[dict]] = {}
    try:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if line.strip():
                    game = json.loads(line)
                    played.setdefault(game.pop("series"), []).append(game)
    except (OSError, ValueError, KeyError, AttributeError) as e:
        print(f"press.py: {path}: not a games.jsonl press.py wrote ({type(e).__name__}: {e})", file=sys.stderr)
        return 2
    report = {name: {"games": games, "summary": summarize(games)} for name, games in played.items()}
    if as_json:
        print(json.dumps({"series": report, "paired": paired(played)}, indent=1))
    else:
        for name, r in report.items():
            _print(name, r["summary"], r["games"], None)
        _print_paired(paired(played))
    return 0


#: the numeric options: (flag, type, default, what)
OPTIONS = (("--games", int, 35, "games per series"),
           ("--negotiators", int, 3, "seats of the first kind of each series, of seven (1 to 6)"),
           ("--until", int, 1935, "the last year played"),
           ("--draw-after", int, 5, "a draw when no centre changes hands for this many years (0: never)"),
           ("--time-limit", float, 2.0, "seconds a dipsolve seat thinks a turn"),
           ("--press-wait", float, 3.0, "seconds a negotiator waits for the answers to its proposals"),
           ("--deadline", int, 30, "the server's time limit a turn, seconds"),
           ("--max-seconds", float, 7200.0, "give a game up after this long"),
           ("--seed", int, 0, "the first game's seed"))


def series_names(text: str) -> list[str]:
    """``--series``: names of `SERIES`, comma-separated."""
    names = [s.strip() for s in text.split(",") if s.strip()]
    if not names or any(s not in SERIES for s in names):
        raise argparse.ArgumentTypeError(f"expected names of {', '.join(SERIES)}, comma-separated, not {text!r}")
    return names


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--series", type=series_names, default=["press", "policy"],
                    help=f"comma-separated, of {', '.join(SERIES)} (default press,policy)")
    for flag, kind, default, what in OPTIONS:
        ap.add_argument(flag, type=kind, default=default, help=f"{what} (default {default})")
    ap.add_argument("--keep", metavar="DIR", help="keep the server's records here, and each game's result as a "
                                                  "line of DIR/games.jsonl (default: a temporary folder)")
    ap.add_argument("--summarize", metavar="FILE", help="report the games of a games.jsonl again; play none")
    ap.add_argument("--json", action="store_true", help="every game and the summaries as JSON")
    args = ap.parse_args(argv)
    if args.games < 1 or not 1 <= args.negotiators <= 6 or args.until < 1901:
        ap.error("--games must be 1 or more, --negotiators 1 to 6, --until 1901 or later")
    series = args.series
    if args.summarize:
        return summarize_file(args.summarize, args.json)
    from dipsolve.core.errors import DipsolveUnavailable
    from dipsolve.testing.daide_server import require_server
    try:
        require_server()
    except DipsolveUnavailable as e:
        print(f"press.py: {e}", file=sys.stderr)
        return 2
    scratch = None if args.keep else tempfile.TemporaryDirectory(prefix="dipsolve-press-")
    folder = Path(args.keep or scratch.name)  # type: ignore[union-attr]
    folder.mkdir(parents=True, exist_ok=True)
    played: dict[str, list[dict]] = {name: [] for name in series}
    seconds = dict.fromkeys(series, 0.0)
    lines = folder / "games.jsonl" if args.keep else None
    try:
        for g in range(args.games):
            for name in series:
                started = time.monotonic()
                seats = seating(name, args.negotiators, args.seed + g)
                (folder / name).mkdir(exist_ok=True)
                last = play_one(seats, args, folder / name, args.seed + g)
                played[name].append(last)
                seconds[name] += time.monotonic() - started
                if lines is not None:
                    with open(lines, "a", encoding="utf-8") as f:
                        f.write(json.dumps({"series": name, **last}) + "\n")
                print(f"  {name}: game {g + 1}/{args.games} (seed {last['seed']}): {last['how']} at "
                      f"{last['phase']}; " + ", ".join(f"{p} {seats[p]} {last['centers'].get(p, 0)}" for p in POWERS),
                      file=sys.stderr, flush=True)
    finally:
        if scratch is not None:
            scratch.cleanup()
    report = {name: {"games": games, "summary": summarize(games), "seconds": seconds[name]}
              for name, games in played.items()}
    if not args.json:
        for name, r in report.items():
            _print(name, r["summary"], r["games"], r["seconds"])
        _print_paired(paired(played))
    if args.json:
        print(json.dumps({"settings": vars(args), "series": report, "paired": paired(played)}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
