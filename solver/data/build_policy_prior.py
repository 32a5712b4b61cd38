"""Build ``policy_prior.tsv``, the policy a learned seat starts from before it has seen a table.

    python solver/data/build_policy_prior.py --games 8 --until 1906 --time-limit 0.2 --jobs 2

Seven of dipsolve's own learned seats (`dipsolve.play.bots.DipsolveBot`, started from no
prior: every legal order alike) play each other from the 1901 start, ``--time-limit``
seconds of CPU a phase; every power's orders in every movement phase are kept, and one
conditional logit (`dipsolve.algorithms.order_policy.PolicyLearner`, 300 iterations) is
fitted to all of them.  No other bot's games are read: the prior is how a searching
player of this kind plays, not how DumbBot or any opponent does.  The seats think
against the clock, so two runs give slightly different games and weights.

The output (committed; the data are dipsolve's own, under the project's licence) is the
weights file of `dipsolve.algorithms.order_policy.read_policy`, with how it was made in
its header.  `benchmarks/prediction.py --early` measures what it is worth.
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import datetime, timezone


def self_play(games: int, seed: int, until: int, time_limit: float, jobs: int) -> list[list]:
    """The movement phases (position, every power's orders) of ``games`` games of seven
    learned seats without a prior (`dipsolve.play.games.play_series`, read back through
    `dipsolve.io.game.Game.from_play`)."""
    from dipsolve.io.game import Game
    from dipsolve.play.bots import DipsolveBot
    from dipsolve.play.games import play_series

    seat = DipsolveBot(clock="cpu", prior=False)
    records = play_series([seat] * 7, games, seed=seed, until=until, time_limit=time_limit,
                          jobs=jobs, clock="cpu")
    return [[(ph.position, dict(ph.orders)) for ph in Game.from_play(r).phases
             if ph.position.phase.kind == "movement" and ph.orders] for r in records]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=8, help="self-play games (default 8)")
    p.add_argument("--until", type=int, default=1906, help="last year of each game (default 1906)")
    p.add_argument("--time-limit", type=float, default=0.2, help="CPU seconds a seat's phase (default 0.2)")
    p.add_argument("--jobs", type=int, default=1, help="games played at once (default 1)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    p.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "policy_prior.tsv"),
                   help="the file written (default: policy_prior.tsv beside this script)")
    args = p.parse_args(argv)
    if args.games < 1 or args.jobs < 1 or not args.time_limit > 0:
        p.error("--games and --jobs take at least 1, --time-limit more than 0")
    from dipsolve.algorithms.order_policy import PolicyLearner, write_policy
    from dipsolve.core.files import write_atomic

    games = self_play(args.games, args.seed, args.until, args.time_limit, args.jobs)
    learner = PolicyLearner()
    for game in games:
        for position, orders in game:
            learner.observe(position, orders, position.powers())
    policy = learner.fit(iterations=300)
    header = (f"The prior of the learned seat's order policy (dipsolve.algorithms.order_policy.default_prior).\n"
              f"Made by solver/data/build_policy_prior.py --games {args.games} --until {args.until} "
              f"--time-limit {args.time_limit} --seed {args.seed}\n"
              f"on {datetime.now(timezone.utc):%Y-%m-%d}: seven dipsolve learned seats (no prior) playing each other,\n"
              f"{learner.observed} unit orders of {sum(len(g) for g in games)} movement phases; "
              f"mean log-probability of the order played {learner.log_likelihood():.3f}.\n"
              f"dipsolve's own data, under the project's licence.\n\n"
              f"feature\tweight")
    text = write_policy(policy, header)
    write_atomic(args.out, text)
    print(f"{args.out}: {learner.observed} unit orders, {len(games)} games", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
