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

from dipsolve.play.bots import Bot
from dipsolve.play.registry import make_bot

from .client import DaideSession, GameEnd
from .wire import FM, Connection, DaideConnectionError


def play_daide(host: str, port: int, bot: Bot | str = "dipsolve", *, name: str = "dipsolve",
               power: str | None = None, passcode: int | None = None,
               time_limit: float | None = None, timeout: float = 600.0, seed: int | None = None,
               log: Callable[[str, str], None] | None = None,
               say: Callable[[str], None] | None = None) -> GameEnd:
    """Play one game at the DAIDE server at ``host``:``port`` and return how it ended.

    ``bot``: a `dipsolve.play.bots.Bot`, or a name `dipsolve.make_bot` knows (``dipsolve``,
    ``dipsolve:METHOD``, ``dumbbot``, ``random``).  ``name``: the name signed on with
    (NME).  ``power`` with ``passcode``: take that seat back (IAM).  ``time_limit``: the
    seconds the bot thinks a turn when the server sets none (with a server limit, 80%
    of it less half a second, and never more than ``time_limit``).  ``timeout``: give up
    when the server says nothing for that long (the connection, each message and the
    rest of a message begun: no wait is longer).  ``log(direction, text)`` sees every
    message (``>>`` out, ``<<`` in); ``say(text)`` what a user should know (a refused
    order, the server's complaint)."""
    if isinstance(bot, str):
        bot = make_bot(bot)
    prepare = getattr(bot, "prepare", None)
    if prepare is not None:
        prepare()            # its model and kernel loaded before the connection, so before any clock
    # every wait bounded by ``timeout``: the connection, the next message, the rest of one
    conn = Connection.open(host, port, connect_timeout=min(10.0, timeout), idle_timeout=timeout,
                           body_timeout=min(30.0, timeout))
    session = DaideSession(conn, bot, name=name, power=power, passcode=passcode,
                           time_limit=time_limit, log=log, say=say, seed=seed)
    try:
        end = session.run()
        end.game = session.history.game
        return end
    finally:                         # the game's end, an error, or Ctrl-C
        if not conn.closed:
            try:
                conn.send(FM)        # tell the server this client is leaving
            except DaideConnectionError:
                pass
        conn.close()
