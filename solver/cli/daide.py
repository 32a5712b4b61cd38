"""``dipsolve daide``: take a seat at a DAIDE server's game and play it with a bot.

    dipsolve daide HOST:PORT [--bot dipsolve|dipsolve:METHOD|dumbbot|random] [--name NAME]
                   [--power P [--passcode N]] [--time-limit S] [--nodes N] [--timeout S]
                   [--press LEVEL [--press-policy honest|opportunistic] [--press-wait S]
                                  [--press-trust learned|prior]] [--json] [-v]

Exit status: 0 when the game ends (the server's OFF, after DRW/SLO/SMR); 1 for the
server's fault: the connection cannot be made, is lost, or goes silent, the server
refuses the client, or it sends what DAIDE does not allow (garbage, a message of the
wrong shape: the message quoted shortened and escaped); 2 for bad input (a bad
HOST:PORT, a bad option); 130 (143, 129) on Ctrl-C (SIGTERM, SIGHUP), after an FM to
the server.  Errors are
one line on stderr; ``-v`` logs every message in and out on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from ..core.results import Limits
from ..play import PRESS_POLICIES, TRUST_MODES
from ..play.registry import bots_help
from .options import (SEAT_DEFAULT, SEAT_MODELS, UserError, add_json, add_nodes, add_power, add_time_limit,
                      integer, number, range_help)
from .output import check_destination

if TYPE_CHECKING:
    from ..play.daide.press import Press

#: exit status for a connection that failed, was lost, or was refused
EXIT_CONNECTION = 1

_DESCRIPTION = """\
Connect to a DAIDE server (the Diplomacy AI Development Environment: TCP, client-server
protocol version 1) and play one seat of its game with a dipsolve bot until the game
ends: sign on (NME, MAP, MDF, YES (MAP), HLO), then every turn read the board (NOW,
SCO), submit the bot's orders (SUB), read the server's verdict (THX, MIS; a rejected
order is reported and replaced by a hold, disband or waive and the orders resubmitted
once) and the results (ORD), until DRW/SLO, SMR and OFF.

The time a bot thinks each turn: 80% of the server's time limit for the turn (MTL, RTL
or BTL in HLO) less half a second, at most --time-limit; without a server limit,
--time-limit (default 5 s).

Press: without --press the seat sends none (it plays "gunboat"; the press it is sent is
kept in its history).  With --press LEVEL (10 to 130; 30 for everything it says) a
dipsolve seat negotiates: each movement phase it proposes peace (PCE) to its
neighbours, demilitarized zones (DMZ) on their contested borders, an alliance (ALY ...
VSS ...) against the leader and supporting orders (XDO) to its allies, waits up to
--press-wait seconds (default 3) for the answers, and answers proposals (YES/REJ) by
their value to it; its search counts its allies' units friendly in proportion to their
trust (a Beta-Bernoulli estimate from the agreements each kept and broke) and expects
a power to keep what it agreed with that probability.  --press-policy honest (default)
keeps every agreement it accepted; opportunistic breaks one when what breaking it gains
is worth more than the trust it loses.  --press-trust prior trusts every power at the
prior (2/3) whatever it did: no trust reasoning, the baseline it is measured against.
Every message is read by dipsolve's own press grammar at the lower of LEVEL and the
server's level before it is sent, and not sent (counted) if refused.  See docs/daide.md.

Every message from the server is checked against its shape in DAIDE before it is used;
what the client repeats of a server's message (its complaints, -v's log, an error) is
shortened and escaped.

Exit status: 0 at the game's end; 1 for the server's fault: the connection fails, is
lost or goes silent for --timeout seconds (no wait is longer: the connection, the next
message, the rest of a message begun), the server refuses the client (REJ: name taken,
game full), or it sends garbage or a message of the wrong shape; 2 for bad input (a bad
HOST:PORT, a bad option)."""


def register(subparsers: Any) -> None:
    """Add ``daide`` to the ``dipsolve`` subcommands."""
    p = subparsers.add_parser(
        "daide", help="play a seat of a game on a DAIDE server with a bot",
        description=_DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("address", metavar="HOST:PORT", help="the DAIDE server, e.g. 127.0.0.1:16713")
    p.add_argument("--bot", default="dipsolve", metavar="BOT",
                   help=f"the player (default: dipsolve): {bots_help()}")
    p.add_argument("--opponents", choices=SEAT_MODELS, default=SEAT_DEFAULT,
                   help="a dipsolve seat's model of the others: learned (default: a best response "
                        "to draws of a policy fitted to the orders the others give, as the server "
                        "reports them, from a prior fitted to dipsolve's own self-play), equilibrium (the "
                        "phase as a game), sampled (DumbBot's policy), worst, expected or hold")
    p.add_argument("--name", default="dipsolve", help="the name sent in NME (default: dipsolve)")
    add_power(p, help="ask for this power's seat (the diplomacy server seats 'FRA:NAME' at "
                      "France); with --passcode, take it back with IAM")
    p.add_argument("--passcode", type=integer, metavar="N",
                   help="with --power: rejoin that seat (IAM) with the passcode HLO gave")
    add_time_limit(p, 5.0, help="seconds the bot may think a turn, at most (default 5; less when "
                                "the server's time limit is shorter: 80%% of it less half a second)")
    add_nodes(p, "a dipsolve bot's search of each turn")
    p.add_argument("--timeout", type=number, default=600.0, metavar="S",
                   help=f"give up when the server says nothing for S seconds (default 600; "
                        f"{range_help('timeout')})")
    p.add_argument("--seed", type=integer, default=0, metavar="K",
                   help=f"seed of the bot's random choices (default 0; {range_help('seed')})")
    p.add_argument("--press", type=integer, metavar="LEVEL",
                   help="negotiate in the press at this DAIDE level, 10 to 130 (30: peace, alliances, "
                        "DMZs, supporting orders); a dipsolve seat only; default: no press is sent")
    p.add_argument("--press-policy", choices=PRESS_POLICIES, default=None,
                   help="with --press: honest (default: keep every agreement accepted) or "
                        "opportunistic (break one when that is worth more than the trust lost)")
    p.add_argument("--press-wait", type=number, default=None, metavar="S",
                   help="with --press: seconds to wait each movement phase for the answers to "
                        "its proposals (default 3)")
    p.add_argument("--press-trust", choices=TRUST_MODES, default=None,
                   help="with --press: learned (default: trust each power by the agreements it "
                        "kept and broke) or prior (every power trusted at the prior, 2/3, "
                        "whatever it did: no trust reasoning, a baseline to measure it by)")
    p.add_argument("--save", metavar="DIR",
                   help="write the seat's game (the server's boards, every power's orders) to "
                        "DIR/daide-POWER.json, the saved-game JSON play --save writes")
    add_json(p, help="the end of the game as one JSON object (how, winner, turn, power, "
                     "phases, centers, players); errors as a JSON object too")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="log every message in (<<) and out (>>) on stderr")
    p.set_defaults(func=cmd_daide)


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` -> (host, port), or `UserError`."""
    host, sep, port_text = text.strip().rpartition(":")
    host = host.strip("[]")
    if (not sep or not host or not port_text.isdigit() or len(port_text) > 5
            or not 0 < int(port_text) < 65536):
        raise UserError(f"bad server address {text!r} (expected HOST:PORT, e.g. 127.0.0.1:16713)")
    return host, int(port_text)


def cmd_daide(args: argparse.Namespace) -> int:
    from ..play.daide.seat import play_daide
    from ..play.daide.wire import DaideError
    from .play import seating

    host, port = parse_address(args.address)
    if args.passcode is not None and args.power is None:
        raise UserError("--passcode needs --power (the seat to take back)")
    bot = seating(args.bot, [], opponents=args.opponents)[0]
    press = check_press(args, bot)
    limits = Limits(time_limit=args.time_limit, seed=args.seed, nodes=args.nodes)
    if args.save:                           # the folder checked before the game, not after
        check_destination(seat_path(args.save, None), create_folder=True)

    def log(direction: str, text: str) -> None:
        if args.verbose:
            sys.stderr.write(f"{direction} {text}\n")

    def say(text: str) -> None:
        sys.stderr.write(f"dipsolve daide: {text}\n")

    try:
        end = play_daide(host, port, bot, name=args.name, power=args.power,
                         passcode=args.passcode, limits=limits, timeout=args.timeout,
                         log=log, say=say, press=press)
    except DaideError as e:                 # the server's fault, or a lost connection
        if args.json:
            print(json.dumps(e.to_json()))
        else:
            sys.stderr.write(f"dipsolve daide: {e.message}\n")
        return EXIT_CONNECTION
    if end.press is not None and not args.json:
        p = end.press
        broken = ", ".join(f"{power} {n}" for power, n in sorted(p["broken"].items())) or "none"
        say(f"press ({p['policy']}): {p['sent']} messages sent, {p['refused']} refused by dipsolve's grammar, "
            f"{p['rejected']} rejected by the server; {p['agreements']} agreements; broken: {broken}")
    if args.save and end.game is not None:
        save_seat(args.save, end)
    print(json.dumps(end.to_json()) if args.json else end.line())
    return 0


def check_press(args: argparse.Namespace, bot: Any) -> Press | None:
    """The press options, checked (`UserError`: one line, exit status 2), as one
    `dipsolve.Press` (None without ``--press``)."""
    from ..core.errors import DipsolveArgumentError
    from ..play.daide.press import Press
    from ..play.daide.seat import negotiating
    if args.press is None:
        for option, given in (("--press-policy", args.press_policy), ("--press-wait", args.press_wait),
                              ("--press-trust", args.press_trust)):
            if given is not None:
                raise UserError(f"{option} needs --press LEVEL (without it the seat sends no press)")
        return None
    try:
        given = {"policy": args.press_policy, "wait": args.press_wait, "trust": args.press_trust}
        press = Press(args.press, **{k: v for k, v in given.items() if v is not None})   # Press's defaults
        negotiating(bot, press)
    except DipsolveArgumentError as e:
        raise UserError(e.message) from None
    return press


def seat_path(folder: str, power: str | None) -> str:
    """The file ``--save`` writes the seat's game to: ``folder/daide-POWER.json``."""
    import os
    return os.path.join(folder, f"daide-{power or 'unseated'}.json")


def save_seat(folder: str, end: Any) -> str:
    """Write the seat's game to `seat_path` with the writer ``play --save`` uses
    (`dipsolve.Game.dumps`), as ``play --save`` writes (`Outputs`: checked, the folder
    made, the file replaced whole); the path written."""
    from .output import Outputs
    path = seat_path(folder, end.power)
    outputs = Outputs()
    outputs.plan(path, folder=True)
    outputs.put(path, end.game.dumps())
    outputs.commit(finished=True)           # a game played to its end: saved even after Ctrl-C
    return path
