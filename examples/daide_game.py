"""Play a whole game on a real DAIDE server: one dipsolve seat against six DumbBots.

    python examples/daide_game.py [--out daide_game.json] [--until 1910] [--time-limit 3]
                                  [--deadline 20] [--seat dipsolve] [--power France]

Starts the ``diplomacy`` package's DAIDE server on 127.0.0.1 (in its own process, with
`dipsolve.testing.daide_server`; ``pip install -e '.[test]'`` installs the package: without
it the example says so in one line and exits with status 2),
connects seven ``dipsolve daide`` clients to it -- ``--seat`` (default ``dipsolve``) first,
asking for ``--power``, then six ``dumbbot`` -- and lets them play until the server ends
the game after the Fall turn of ``--until`` (or a solo).  Writes the server's record of
the game, the ``diplomacy`` package's saved-game JSON, to ``--out`` (the server's own
log beside it, ``OUT.server.log``) and prints each client's last line (the final centers
as the server told it), the power each seat played, and the last phase of the record.
(At a solo the ``diplomacy`` server closes the connections before its summary goes out:
the clients then end on OFF with the centers of the last SCO they saw; the record has
the solo.)
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from dipsolve.core.errors import DipsolveUnavailable
from dipsolve.core.map import POWERS, power_name
from dipsolve.testing.daide_server import DaideServerProcess, require_server


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="daide_game.json", help="the saved-game JSON to write")
    ap.add_argument("--until", type=int, default=1910, help="the last year played (default 1910)")
    ap.add_argument("--time-limit", type=float, default=3.0,
                    help="seconds the dipsolve seat thinks a turn (default 3)")
    ap.add_argument("--deadline", type=int, default=20,
                    help="the server's time limit a turn, seconds (default 20)")
    ap.add_argument("--seat", default="dipsolve", help="the bot of the first seat (default dipsolve)")
    ap.add_argument("--power", default="France",
                    help="the power the first seat asks for (default France; 'any' for none)")
    args = ap.parse_args()
    try:
        require_server()
    except DipsolveUnavailable as e:
        print(f"{Path(sys.argv[0]).name}: {e}", file=sys.stderr)
        return 2

    t0 = time.monotonic()
    bots = [args.seat] + ["dumbbot"] * 6
    # every seat asks for its power (the server seats 'FRA:name' at France), so that the
    # first seat gets its own whichever client signs on first
    seats: list[str | None] = [None] * 7
    if args.power != "any":
        first = power_name(args.power)
        if first is None:
            ap.error(f"unknown power {args.power!r}")
        seats = [first] + [p for p in POWERS if p != first]
    clients: list[subprocess.Popen] = []
    try:
        with DaideServerProcess(args.out, deadline=args.deadline, until=f"S{args.until + 1}M",
                                max_seconds=3600) as server:
            print(f"DAIDE server on 127.0.0.1:{server.port}", flush=True)
            for i, bot in enumerate(bots):
                cmd = [sys.executable, "-m", "dipsolve.cli", "daide", f"127.0.0.1:{server.port}",
                       "--bot", bot, "--name", bot, "--seed", str(i)]
                if seats[i]:
                    cmd += ["--power", seats[i]]
                if bot.startswith("dipsolve"):
                    cmd += ["--time-limit", str(args.time_limit)]
                print("  dipsolve " + " ".join(cmd[3:]), flush=True)
                clients.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                                text=True, start_new_session=True))
            server.wait(timeout=3700)
            for bot, c in zip(bots, clients):
                out, err = c.communicate(timeout=60)
                seat = next((x.split("playing ")[1].split(" (")[0] for x in err.splitlines()
                             if "playing " in x), "?")
                said = out.strip() or (err.strip().splitlines() or ["(nothing)"])[-1]
                print(f"{bot:>10} ({seat}): exit {c.returncode}: {said}")
    finally:
        for c in clients:
            if c.poll() is None:
                os.killpg(c.pid, signal.SIGKILL)
                c.wait()
    print(f"the server's record: {args.out} ({time.monotonic() - t0:.0f} s)")
    record = json.loads(Path(args.out).read_text(encoding="utf-8"))
    last = record["phases"][-1]
    counts = sorted(((len(c), p.title()) for p, c in last["state"]["centers"].items()), reverse=True)
    note = last["state"].get("note") or ""
    print(f"its last phase: {last['name']} ({len(record['phases'])} phases){'; ' + note if note else ''}; "
          f"centers: {', '.join(f'{p} {n}' for n, p in counts)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
