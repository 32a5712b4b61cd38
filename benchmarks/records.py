"""Game records: reading saved games and re-adjudicating them, dipsolve against the `diplomacy` package.

    python benchmarks/records.py [--games 20] [--seed 0] [--until S1911M] [--repeat 3] [--json]

The games are played by the peer's own engine with random legal orders
(`dipsolve.testing.peer.random_peer_game`) and exported with its
``to_saved_game_format``, as JSON lines.  Timed, best of ``--repeat`` runs, in one process:

* reading: dipsolve's `dipsolve.read_records` on the whole text (JSON, every phase's
  `Position`, every order through the order grammar) against the peer's
  ``from_saved_game_format`` on each line (``json.loads`` included on both sides);
* re-adjudicating every phase against the record: dipsolve's
  `dipsolve.analyze(record, check_only=True)` (each phase adjudicated and compared, the
  differences classified) against the peer's replay of each phase as its
  ``is_valid_saved_game`` does it (a game set to the phase's state, the orders filed,
  ``process()``).

Every figure is CPU time of this process (``time.process_time``: the machine is shared),
the best of ``--repeat`` rounds; within a round each engine goes once, in turn.
"""

from __future__ import annotations

import argparse
import gc
import json
import time


def race(runs: dict, repeat: int) -> dict[str, float]:
    """The best CPU time of each run over ``repeat`` rounds, the runs in turn in each."""
    best = {name: float("inf") for name in runs}
    for _ in range(repeat):
        for name, fn in runs.items():
            gc.collect()
            t0 = time.process_time()
            fn()
            best[name] = min(best[name], time.process_time() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--until", default="S1911M")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = ap.parse_args()

    from diplomacy import Game
    from diplomacy.utils.export import from_saved_game_format, to_saved_game_format
    from diplomacy.utils.game_phase_data import GamePhaseData

    import dipsolve
    from dipsolve.testing.peer import random_peer_game

    saved = [to_saved_game_format(random_peer_game(args.seed + i, args.until)[0]) for i in range(args.games)]
    text = "".join(json.dumps(g) + "\n" for g in saved)
    phases = sum(len(g["phases"]) for g in saved)
    checked = phases - len(saved)
    records = dipsolve.read_records(text)          # warm: the grammar is built once

    reads = race({"ours": lambda: dipsolve.read_records(text),
                  "peer": lambda: [from_saved_game_format(json.loads(line)) for line in text.splitlines()]},
                 args.repeat)
    ours_read, peer_read = reads["ours"], reads["peer"]

    def ours_check() -> None:
        for r in records:
            dipsolve.analyze(r, check_only=True)

    def peer_check() -> None:
        for g in saved:
            for phase in g["phases"][:-1]:
                game = Game(map_name="standard", rules=["SOLITAIRE", *g["rules"]])
                game.set_phase_data(GamePhaseData.from_dict(phase))
                game.clear_orders()
                for power, orders in phase["orders"].items():
                    game.set_orders(power, orders)
                game.process()

    ours_check()                                   # warm: the analysis imports once
    checks = race({"ours": ours_check, "peer": peer_check}, args.repeat)
    ours_adj, peer_adj = checks["ours"], checks["peer"]
    if args.json:
        print(json.dumps({"games": args.games, "phases": phases, "repeat": args.repeat,
                          "read_phases_per_s": round(phases / ours_read, 1),
                          "peer_read_phases_per_s": round(phases / peer_read, 1),
                          "readjudicate_phases_per_s": round(checked / ours_adj, 1),
                          "peer_readjudicate_phases_per_s": round(checked / peer_adj, 1)}))
        return
    print(f"{args.games} games, {phases} phases ({len(text) / 1e6:.1f} MB of JSON lines), "
          f"CPU time, best of {args.repeat}")
    print(f"read:           dipsolve {phases / ours_read:8.0f} phases/s   diplomacy {phases / peer_read:8.0f} "
          f"phases/s   ratio {peer_read / ours_read:.1f}x")
    print(f"re-adjudicate:  dipsolve {checked / ours_adj:8.0f} phases/s   diplomacy {checked / peer_adj:8.0f} "
          f"phases/s   ratio {peer_adj / ours_adj:.1f}x")


if __name__ == "__main__":
    main()
