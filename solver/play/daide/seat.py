"""One seat at a DAIDE server from Python: connect, play the game with a bot, leave.

    >>> import dipsolve
    >>> end = dipsolve.play_daide("127.0.0.1", 16713, "dumbbot")     # doctest: +SKIP
    >>> print(end.line())                                             # doctest: +SKIP

`play_daide` is what ``dipsolve daide HOST:PORT`` runs: it opens the connection
(`Connection.open`), plays the sign-on and every turn (`DaideSession.run`), and, however
the game ends for this client (the server's end, an error, Ctrl-C), tells the server it
is leaving (an FM) and closes the socket.  A refused sign-on, a lost, silent or
unreachable server raise `DaideConnectionError` (`DaideRefused` for a refusal); what the
server says that the protocol does not allow raises `DaideProtocolError`; both are
`dipsolve.DipsolveError`.  The end carries the seat's history as a `dipsolve.Game`
(``end.game``: `dipsolve.play.daide.history.SeatHistory`).
"""

from __future__ import annotations

from typing import Callable

from dipsolve.core.errors import DipsolveArgumentError
from dipsolve.core.results import Limits
from dipsolve.play.bots import Bot, DipsolveBot
from dipsolve.play.games import game_limits, under_limits
from dipsolve.play.negotiation import NegotiatingBot, Negotiator
from dipsolve.play.registry import make_bot

from .client import DAIDE_LIMITS, DaideSession, GameEnd
from .press import Press, PressDesk
from .wire import FM, Connection, DaideConnectionError


def play_daide(host: str, port: int, bot: Bot | str = "dipsolve", *, name: str = "dipsolve",
               power: str | None = None, passcode: int | None = None, limits: Limits | None = None,
               timeout: float = 600.0, log: Callable[[str, str], None] | None = None,
               say: Callable[[str], None] | None = None, press: Press | None = None) -> GameEnd:
    """Play one game at the DAIDE server at ``host``:``port`` and return how it ended.

    ``bot``: a `dipsolve.play.bots.Bot`, or a name `dipsolve.make_bot` knows (``dipsolve``,
    ``dipsolve:METHOD``, ``dumbbot``, ``random``).  ``name``: the name signed on with
    (NME).  ``power`` with ``passcode``: take that seat back (IAM).  ``limits``
    (`dipsolve.Limits`, default `DAIDE_LIMITS`): the bot thinks a turn at most
    ``limits.time_limit`` seconds, and less when the server sets a time limit (80% of it
    less half a second), on ``limits.clock`` and within ``limits.nodes`` of work (a seat
    that takes limits: a dipsolve seat), its random choices from ``limits.seed``; a
    seat's CP-SAT workers are its own (``limits.workers`` other than 1 is refused).
    ``timeout``: give up when the server says nothing for that long (the connection, each
    message and the rest of a message begun: no wait is longer).  ``log(direction,
    text)`` sees every message (``>>`` out, ``<<`` in); ``say(text)`` what a user should
    know (a refused order, the server's complaint).

    ``press`` (a `dipsolve.Press`): negotiate as it says, a dipsolve seat only: the seat
    proposes and answers in the press (`dipsolve.play.negotiation`,
    `dipsolve.play.daide.press`), and the end's ``press`` says what it sent and what was
    refused.  None (the default): no press is sent."""
    limits = game_limits(limits, "play_daide", DAIDE_LIMITS)
    if isinstance(bot, str):
        bot = make_bot(bot)
    bot = under_limits(bot, limits)
    desk = None
    if press is not None:
        bot, desk = negotiating(bot, press)
    prepare = getattr(bot, "prepare", None)
    if prepare is not None:
        prepare()            # its model and kernel loaded before the connection, so before any clock
    # every wait bounded by ``timeout``: the connection, the next message, the rest of one
    conn = Connection.open(host, port, connect_timeout=min(10.0, timeout), idle_timeout=timeout,
                           body_timeout=min(30.0, timeout))
    session = DaideSession(conn, bot, name=name, power=power, passcode=passcode,
                           limits=limits, log=log, say=say, press=desk)
    try:
        end = session.run()
        end.game = session.history.game
        if desk is not None:
            end.press = desk.summary()
        return end
    finally:                         # the game's end, an error, or Ctrl-C
        if not conn.closed:
            try:
                conn.send(FM)        # tell the server this client is leaving
            except DaideConnectionError:
                pass
        conn.close()


def negotiating(bot: Bot, press: Press) -> tuple[NegotiatingBot, PressDesk]:
    """A dipsolve seat that negotiates as ``press`` says, and its desk;
    `DipsolveArgumentError` for another bot or for ``press`` not a `Press`."""
    if not isinstance(press, Press):
        raise DipsolveArgumentError(f"press {press!r} is not a dipsolve.Press (e.g. Press(30))",
                                    expected="dipsolve.Press")
    if not isinstance(bot, DipsolveBot):
        raise DipsolveArgumentError(f"only a dipsolve seat negotiates (--press), not {getattr(bot, 'name', bot)!r}",
                                    expected="--bot dipsolve or dipsolve:METHOD")
    negotiator = Negotiator(power="", policy=press.policy, trust_mode=press.trust)
    return NegotiatingBot(bot, negotiator), PressDesk(negotiator, press.wait, press.level)
