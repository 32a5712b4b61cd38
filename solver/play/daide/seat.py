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
from dipsolve.play.bots import Bot, DipsolveBot
from dipsolve.play.negotiation import NegotiatingBot, Negotiator
from dipsolve.play.registry import make_bot

from .client import DaideSession, GameEnd
from .press import PRESS_WAIT, PressDesk
from .wire import FM, Connection, DaideConnectionError


def play_daide(host: str, port: int, bot: Bot | str = "dipsolve", *, name: str = "dipsolve",
               power: str | None = None, passcode: int | None = None,
               time_limit: float | None = None, timeout: float = 600.0, seed: int | None = None,
               log: Callable[[str, str], None] | None = None,
               say: Callable[[str], None] | None = None, press: int | None = None,
               press_policy: str = "honest", press_wait: float = PRESS_WAIT,
               press_trust: str = "learned") -> GameEnd:
    """Play one game at the DAIDE server at ``host``:``port`` and return how it ended.

    ``bot``: a `dipsolve.play.bots.Bot`, or a name `dipsolve.make_bot` knows (``dipsolve``,
    ``dipsolve:METHOD``, ``dumbbot``, ``random``).  ``name``: the name signed on with
    (NME).  ``power`` with ``passcode``: take that seat back (IAM).  ``time_limit``: the
    seconds the bot thinks a turn when the server sets none (with a server limit, 80%
    of it less half a second, and never more than ``time_limit``).  ``timeout``: give up
    when the server says nothing for that long (the connection, each message and the
    rest of a message begun: no wait is longer).  ``log(direction, text)`` sees every
    message (``>>`` out, ``<<`` in); ``say(text)`` what a user should know (a refused
    order, the server's complaint).

    ``press``: negotiate at this press level (10 to 130; the server's, if lower, is the
    one its messages are checked at), a dipsolve seat only: it proposes and answers in
    the press, ``press_policy`` "honest" (it keeps every agreement) or "opportunistic"
    (it breaks one when that is worth the trust lost), waiting up to ``press_wait``
    seconds a movement phase for the answers to its proposals, its trust in each power
    ``press_trust`` "learned" (from the agreements it kept and broke) or "prior" (every
    power at the prior whatever it did: no trust reasoning)
    (`dipsolve.play.negotiation`, `dipsolve.play.daide.press`).  The end's ``press``
    says what it sent and what was refused.  None (the default): no press is sent."""
    if isinstance(bot, str):
        bot = make_bot(bot)
    desk = None
    if press is not None:
        bot, desk = negotiating(bot, press, press_policy, press_wait, press_trust)
    prepare = getattr(bot, "prepare", None)
    if prepare is not None:
        prepare()            # its model and kernel loaded before the connection, so before any clock
    # every wait bounded by ``timeout``: the connection, the next message, the rest of one
    conn = Connection.open(host, port, connect_timeout=min(10.0, timeout), idle_timeout=timeout,
                           body_timeout=min(30.0, timeout))
    session = DaideSession(conn, bot, name=name, power=power, passcode=passcode,
                           time_limit=time_limit, log=log, say=say, seed=seed, press=desk)
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


def negotiating(bot: Bot, level: int, policy: str = "honest", wait: float = PRESS_WAIT,
                trust: str = "learned") -> tuple[NegotiatingBot, PressDesk]:
    """A dipsolve seat that negotiates at press ``level`` with ``policy`` and ``trust``, and
    its desk; `DipsolveArgumentError` for another bot, a level outside 10 to 130, a policy
    not in `dipsolve.play.negotiation.POLICIES`, a trust not in ``TRUST_MODES``, or a wait
    that is not a positive number."""
    if not isinstance(bot, DipsolveBot):
        raise DipsolveArgumentError(f"only a dipsolve seat negotiates (--press), not {getattr(bot, 'name', bot)!r}",
                                    expected="--bot dipsolve or dipsolve:METHOD")
    if isinstance(level, bool) or not isinstance(level, int) or not 10 <= level <= 130:
        raise DipsolveArgumentError(f"press level {level!r} is not a whole number from 10 to 130",
                                    expected="10 to 130")
    if isinstance(wait, bool) or not isinstance(wait, (int, float)) or not 0 < wait <= 600:
        raise DipsolveArgumentError(f"press wait {wait!r} is not a number of seconds above 0 and at most 600",
                                    expected="seconds")
    negotiator = Negotiator(power="", policy=policy, trust_mode=trust)
    return NegotiatingBot(bot, negotiator), PressDesk(negotiator, float(wait), level)
