"""How well the learned order policy predicts a table: fitted on some DumbBot games, judged on others.

The `learned` seat (`dipsolve.algorithms.order_policy`) fits a conditional logit to the
orders the other powers give.  This measures what that fit is worth as a prediction,
on seeded games of seven DumbBots (`dipsolve.algorithms.dumbbot`, the field of the
strength benchmark): the policy is fitted to six powers' orders in ``--train`` games
(Austria's are left out, as a seat's own would be) and judged on the same six powers in
``--test`` other games, unit by unit, each unit's order given its power's other orders:

* the mean log-probability of the order played (0 is a certain prediction), beside a
  uniform guess over the unit's legal orders;
* how often the policy's most likely order is the one played.

    python benchmarks/prediction.py                       # 5 games to fit, 1 to judge, to 1908
    python benchmarks/prediction.py --train 1 --test 3 --json

No clock is read: the figures depend only on the seeds.
"""

from __future__ import annotations

import argparse
import json
import random
import sys

POWERS_SEEN = ("England", "France", "Germany", "Italy", "Russia", "Turkey")


def dumbbot_game(seed: int, until: int) -> list:
    """The movement phases of one DumbBot self-play game: (position, orders) each."""
    from dipsolve.algorithms import dumbbot
    from dipsolve.core.adjudicator import adjudicate
    from dipsolve.core.position import Position

    pos = Position.initial()
    rngs = {p: random.Random(f"{seed}:{p}") for p in pos.map.powers}
    phases = []
    while pos.phase.year <= until:
        orders = {p: dumbbot.orders(pos, p, rngs[p]) for p in pos.map.powers}
        if pos.phase.kind == "movement":
            phases.append((pos, orders))
        pos = adjudicate(pos, orders).next
    return phases


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--train", type=int, default=5, help="games the policy is fitted on (default 5)")
    p.add_argument("--test", type=int, default=1, help="games it is judged on (default 1)")
    p.add_argument("--until", type=int, default=1908, help="last year of each game (default 1908)")
    p.add_argument("--iterations", type=int, default=300, help="Adam iterations of the fit (default 300)")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = p.parse_args(argv)
    if args.train < 1 or args.test < 1:
        p.error("--train and --test take at least 1 game each")
    from dipsolve.algorithms.order_policy import FEATURES, OrderPolicy, PolicyLearner

    games = [dumbbot_game(s, args.until) for s in range(args.train + args.test)]
    fit = PolicyLearner()
    for g in games[:args.train]:
        for pos, orders in g:
            fit.observe(pos, orders, POWERS_SEEN)
    policy = fit.fit(args.iterations)
    judge = PolicyLearner()
    for g in games[args.train:]:
        for pos, orders in g:
            judge.observe(pos, orders, POWERS_SEEN)
    out = {"train_games": args.train, "test_games": args.test, "until": args.until,
           "features": len(FEATURES), "units_fitted": fit.observed, "units_judged": judge.observed,
           "log_probability": round(judge.log_likelihood(policy), 3),
           "top_one": round(judge.top_one(policy), 3),
           "uniform_log_probability": round(judge.log_likelihood(OrderPolicy()), 3),
           "fitted_log_probability": round(fit.log_likelihood(policy), 3)}
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"fitted on {out['units_fitted']} units ({args.train} games), judged on "
              f"{out['units_judged']} ({args.test} games), {out['features']} features")
        print(f"  mean log-probability of the order played  {out['log_probability']:7.3f} "
              f"(uniform {out['uniform_log_probability']:.3f}; on the games fitted {out['fitted_log_probability']:.3f})")
        print(f"  most likely order is the one played       {out['top_one']:7.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
