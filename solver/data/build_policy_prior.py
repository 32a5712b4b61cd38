"""Build ``policy_prior.tsv``, the policy a learned seat starts from before it has seen a table.

    python solver/data/build_policy_prior.py --games 8 --until 1906 --time-limit 0.2 --jobs 2
    python solver/data/build_policy_prior.py --records DIR --source TEXT --out FILE

With ``--records`` the prior is fitted to games people played: every power's orders in
every movement phase of the saved games there (a folder of them, or files; any format
`dipsolve.io.records.load_records` reads), one conditional logit
(`dipsolve.algorithms.order_policy.PolicyLearner`, 300 iterations) fitted to all of them.
``--source`` names where the games came from and under which licence, for the file's
header.  Fitted to the 40 games Meta published of its Cicero agent playing six people each
on webDiplomacy (github.com/facebookresearch/diplomacy_cicero at commit
e85afeddb34f5b7c1ea0827203b425a0f7e68ead, ``data/cicero_redacted_games/``, MIT), the prior
predicts a DumbBot table's first phases better than the package's, but a seat playing from
it is level against DumbBot and seven of them in self-play are less balanced
(docs/history/2026-11-28-issue-24.md, "A prior fitted to games people played"), so
the package's file stays the self-play one below.

``--games N`` adds (or, without ``--records``, is all of) the orders of N games of seven of
dipsolve's own learned seats (`dipsolve.play.bots.DipsolveBot`, which start from the
package's prior) playing each other from the 1901 start, ``--time-limit`` seconds of CPU a
phase.  The package's file was made so (``--games 8 --until 1906 --time-limit 0.2 --seed 0``)
on 2026-11-27, by seats started from no prior (every legal order alike: the seat's
``prior=False`` then, at commit ef36260; the option left the code with issue 50, and a
seat without a prior is that commit's);
`benchmarks/fresh_draws.py` and `benchmarks/prediction.py --early` measure what a prior is
worth.

The output (committed) is the weights file of
`dipsolve.algorithms.order_policy.read_policy`, with how it was made in its header.  The
weights are a model fitted to the games, not the games, and carry the project's licence.
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import datetime, timezone


def self_play(games: int, seed: int, until: int, time_limit: float, jobs: int) -> list[list]:
    """The movement phases (position, every power's orders) of ``games`` games of seven
    learned seats (`dipsolve.play.games.play_series`, read back through
    `dipsolve.io.game.Game.from_play`)."""
    from dipsolve.io.game import Game
    from dipsolve.play.bots import DipsolveBot
    from dipsolve.play.games import play_series
    from dipsolve.core.results import Limits

    seat = DipsolveBot(clock="cpu")
    records = play_series([seat] * 7, games, limits=Limits(time_limit=time_limit, seed=seed, clock="cpu"),
                          until=until, jobs=jobs, draw_after=None)   # to ``until``: the shipped prior's games
    return [_movement_phases(Game.from_play(r)) for r in records]


def _movement_phases(game) -> list:
    """A game's movement phases with orders, as (position, every power's orders)."""
    return [(ph.position, dict(ph.orders)) for ph in game.phases
            if ph.position.phase.kind == "movement" and ph.orders]


def recorded(paths: list[str]) -> list[list]:
    """The movement phases (position, every power's orders) of every game saved in
    ``paths`` (files, or folders whose files are read in name order)."""
    from dipsolve.io.game import Game
    from dipsolve.io.records import load_records

    files = []
    for path in paths:
        files += sorted(os.path.join(path, f) for f in os.listdir(path)) if os.path.isdir(path) else [path]
    return [_movement_phases(Game.from_record(record)) for f in files for record in load_records(f)]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--records", nargs="*", default=[], metavar="PATH",
                   help="saved games people played (files, or folders of them)")
    p.add_argument("--source", default="", help="where the --records came from and their licence (for the header)")
    p.add_argument("--games", type=int, default=0, help="self-play games of dipsolve's seats (default 0)")
    p.add_argument("--until", type=int, default=1906, help="last year of each self-play game (default 1906)")
    p.add_argument("--time-limit", type=float, default=0.2, help="CPU seconds a seat's phase (default 0.2)")
    p.add_argument("--jobs", type=int, default=1, help="self-play games played at once (default 1)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first self-play game (default 0)")
    p.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "policy_prior.tsv"),
                   help="the file written (default: policy_prior.tsv beside this script)")
    args = p.parse_args(argv)
    if args.games < 0 or args.jobs < 1 or not args.time_limit > 0:
        p.error("--games takes at least 0, --jobs at least 1, --time-limit more than 0")
    if not args.records and not args.games:
        p.error("nothing to fit: give --records, --games or both")
    if args.records and not args.source:
        p.error("--records needs --source: where the games came from and their licence")
    from dipsolve.algorithms.order_policy import PolicyLearner, write_policy
    from dipsolve.core.errors import DipsolveError
    from dipsolve.core.files import write_atomic

    try:
        people = recorded(args.records)
    except (DipsolveError, OSError) as e:      # a record that is missing or does not read
        p.error(str(e))
    own = self_play(args.games, args.seed, args.until, args.time_limit, args.jobs) if args.games else []
    learner = PolicyLearner()
    for game in people + own:
        for position, orders in game:
            learner.observe(position, orders, position.powers())
    policy = learner.fit(iterations=300)
    made = []
    if people:
        made.append(f"the {sum(len(g) for g in people)} movement phases of {len(people)} games people played:\n"
                    f"{args.source}")
    if own:
        made.append(f"the {sum(len(g) for g in own)} movement phases of {len(own)} games of seven dipsolve "
                    f"learned seats playing each other\n(--games {args.games} --until {args.until} "
                    f"--time-limit {args.time_limit} --seed {args.seed})")
    header = (f"The prior of the learned seat's order policy (dipsolve.algorithms.order_policy.default_prior).\n"
              f"Made by solver/data/build_policy_prior.py on {datetime.now(timezone.utc):%Y-%m-%d}, fitted to\n"
              + ";\nand ".join(made) + ".\n"
              f"{learner.observed} unit orders; mean log-probability of the order played {learner.log_likelihood():.3f}.\n"
              f"A model fitted to those games (not the games), under the project's licence.\n\n"
              f"feature\tweight")
    text = write_policy(policy, header)
    write_atomic(args.out, text)
    print(f"{args.out}: {learner.observed} unit orders, {len(people)} recorded and {len(own)} self-play games",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
