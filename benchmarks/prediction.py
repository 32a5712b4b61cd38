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
    python benchmarks/prediction.py --early --test 8 --until 1906
    python benchmarks/prediction.py --speed --test 4

``--speed`` times the prior's first draw for every power in every movement phase of the
``--test`` games (CPU time; a position's features are computed at its first draw and kept,
so this is the cost a fresh position has: a look-ahead's, or a learner reading a phase).

``--early`` measures the policy as a seat has it during a game: fitted after each movement
phase to that game's phases so far (as `DipsolveBot` refits it), and judged on the next
one, phase by phase; started from no prior (every legal order alike, ``L2``) and from the
package's prior (`default_prior`, fitted to dipsolve's own self-play, ``PRIOR_L2``).

Apart from ``--speed``, no clock is read: the figures depend only on the seeds.
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
    p.add_argument("--early", action="store_true",
                   help="judge the policy fitted during each test game, phase by phase, "
                        "with and without the package's prior (no training games)")
    p.add_argument("--speed", action="store_true",
                   help="time the prior's draws in the --test games' fresh positions (CPU time)")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = p.parse_args(argv)
    if args.train < 1 or args.test < 1:
        p.error("--train and --test take at least 1 game each")
    if args.speed:
        return speed(args.test, args.until, args.json)
    if args.early:
        return early(args.test, args.until, args.json)
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


def speed(tests: int, until: int, as_json: bool) -> int:
    """`--speed`: the CPU time of the prior's draws for all the powers with units in each
    movement phase of ``tests`` DumbBot games (seeds 0 on), each position fresh."""
    import time
    from dipsolve.algorithms.order_policy import default_prior

    policy = default_prior()
    positions = [pos for s in range(tests) for pos, _ in dumbbot_game(s, until)]
    rng = random.Random(0)
    start = time.process_time()
    for pos in positions:
        for power in pos.powers():
            if pos.units_of(power):
                policy.draw(pos, power, rng)
    seconds = time.process_time() - start
    out = {"test_games": tests, "until": until, "positions": len(positions),
           "cpu_seconds": round(seconds, 3), "ms_per_position": round(1000 * seconds / len(positions), 2)}
    if as_json:
        print(json.dumps(out, indent=2))
    else:
        print(f"{out['positions']} fresh positions ({tests} games to {until}): every power's draw "
              f"{out['ms_per_position']:.2f} ms a position (CPU, {out['cpu_seconds']:.2f} s in all)")
    return 0


def early(tests: int, until: int, as_json: bool) -> int:
    """`--early`: each of ``tests`` DumbBot games (seeds 0 on) watched as a seat watches
    it, the policy refitted after every movement phase and judged on the next."""
    from dipsolve.algorithms.order_policy import PolicyLearner, default_prior

    starts = {"no prior": lambda: PolicyLearner(), "prior": lambda: PolicyLearner(prior=default_prior())}
    scores: dict[str, dict[str, list[tuple[float, float, int]]]] = {name: {} for name in starts}
    for seed in range(tests):
        game = dumbbot_game(seed, until)
        learners = {name: make() for name, make in starts.items()}
        for k, (pos, orders) in enumerate(game):
            if k:
                judge = PolicyLearner()
                judge.observe(pos, orders, POWERS_SEEN)
                for name, learner in learners.items():
                    scores[name].setdefault(pos.phase.short, []).append(
                        (judge.log_likelihood(learner.policy), judge.top_one(learner.policy), judge.observed))
            for learner in learners.values():
                learner.observe(pos, orders, POWERS_SEEN)
                learner.fit()

    def mean(rows: list[tuple[float, float, int]], i: int) -> float:
        return sum(r[i] * r[2] for r in rows) / sum(r[2] for r in rows)

    phases = list(scores["no prior"])
    table = {name: {ph: {"log_probability": round(mean(rows, 0), 3), "top_one": round(mean(rows, 1), 3)}
                    for ph, rows in by_phase.items()} for name, by_phase in scores.items()}
    overall = {name: round(mean([r for rows in by_phase.values() for r in rows], 0), 3)
               for name, by_phase in scores.items()}
    if as_json:
        print(json.dumps({"test_games": tests, "until": until, "by_phase": table, "overall": overall}, indent=2))
        return 0
    print(f"{tests} DumbBot games to {until}, the policy refitted after each movement phase, judged "
          f"on the next (mean log-probability of the order played / most likely order played)")
    print(f"  {'phase':8} " + "  ".join(f"{name:>16}" for name in starts))
    for ph in phases:
        print(f"  {ph:8} " + "  ".join(f"{table[n][ph]['log_probability']:8.3f} {table[n][ph]['top_one']:6.1%}"
                                      for n in starts))
    print(f"  {'all':8} " + "  ".join(f"{overall[n]:8.3f}{'':8}" for n in starts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
