"""The DAIDE message flow of a client: sign on, then play each turn with a dipsolve bot.

The client speaks DAIDE 0.x as a player (client-server protocol v1, message syntax
level 0):

1. sign-on: IM out, the server's RM in (its token table); ``NME ('name') ('version')``
   out (``IAM (power) (passcode)`` to take a seat back); ``YES (NME ...)`` and ``MAP
   ('name')`` in; ``MDF`` out, the map definition in (the map must be the standard one);
   ``YES (MAP ('name'))`` out (after IAM: ``HLO``, ``SCO``, ``NOW`` asked for instead);
   ``HLO (power) (passcode) (variant)`` in: our power, and
   the variant options (``LVL`` the press level, ``MTL``/``RTL``/``BTL`` the time limits
   of movement, retreat and build turns).  ``REJ (NME ...)`` or ``OFF`` here: the
   server refused the client (name taken, game full), `DaideRefused`.
2. each turn: ``SCO`` and ``NOW`` in (read by the grammar into a `Position`); with
   something to order, ``NOT (GOF)`` out (not ready while the bot thinks), then the
   bot's orders as ``SUB (turn) (order) ...``; each ``THX (order) (note)`` read: a note
   other than ``MBV`` is a rejected order, reported and replaced (a hold, a disband, a
   waive) and the whole set resubmitted once; units ``MIS`` still lists are ordered to
   hold (disband) the same way; then ``GOF`` (ready for the turn to be processed).  A
   THX or MIS of an earlier turn's SUB is not taken for this one's.  ``ORD`` results
   are tallied and kept in the seat's history with every ``FRM`` (the press passed on:
   its agreements, `dipsolve.track_agreements`); ``TME``, ``CCD``, ``OUT`` read and logged.
3. the end: ``DRW``, ``SLO (power)``, ``SMR`` read; ``OFF`` ends the session (FM out,
   socket closed); an end that arrives while the bot thinks is seen before any orders
   go out.  A message the client cannot read is answered ``HUH (ERR ...)``.

No press is sent unless the seat negotiates (``press``: `dipsolve.play.daide.press`, at a
server's level 10 and up): it then proposes, answers and sends its messages as ``SND``.
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence, Union

from dipsolve.core.bounds import check_nesting
from dipsolve.core.errors import DipsolveError, DipsolveLimitError, quote
from dipsolve.grammar import parse_daide
from dipsolve.grammar.daide_order import parse_daide_order
from dipsolve.grammar.notation import format_order
from dipsolve.grammar.tokens import SEASONS, power_tokens
from dipsolve.core.orders import (Build, Disband, Hold, Order, Retreat, UnitOrder, Waive)
from dipsolve.core.position import Position
from dipsolve.core.results import Limits
from dipsolve.core.variant import Variant as GameVariant
from dipsolve.core.variant import variant as standard_variant

from ..contract import take_turn
from .history import GameEnd, SeatHistory
from .press import PressDesk
from .wire import (DM, EM, ERROR_CODES, FM, IM, RM, Connection, DaideConnectionError,
                   DaideProtocolError, DaideRefused, TokenTable, Variant, _is_number, daide_turn, initial_message,
                   split_words)

__all__ = ["DaideSession", "GameEnd", "Variant", "parse_tree", "THX_NOTES"]

Tree = list[Union[str, "Tree"]]

#: the most characters of a server's message ``-v`` logs (escaped: `dipsolve.core.errors.quote`)
LOG_LENGTH = 2000

#: the messages that end a game
_END = frozenset({"DRW", "SLO", "SMR", "OFF"})

#: the notes of a THX, what they mean (MBV: the order is accepted)
THX_NOTES = {
    "MBV": "accepted", "BPR": "bad province", "CST": "no coast specified",
    "ESC": "not an empty supply center", "FAR": "not adjacent", "HSC": "not a home supply center",
    "NAS": "not at sea", "NMB": "no more builds allowed", "NMR": "no more removals allowed",
    "NRN": "no retreat needed", "NRS": "not the right season", "NSA": "no such army",
    "NSC": "not a supply center", "NSF": "no such fleet", "NSP": "no such province",
    "NST": "no such type", "NSU": "no such unit", "NVR": "not a valid retreat",
    "NYU": "not your unit", "YSC": "not your supply center",
}


def parse_tree(text: str) -> Tree:
    """DAIDE text as nested lists of words: ``HLO (FRA) (12) ((LVL 0))`` ->
    ``['HLO', ['FRA'], ['12'], [['LVL', '0']]]``; `DaideProtocolError` for unbalanced
    brackets, `DipsolveLimitError` for brackets nested deeper than ``max_nesting`` (the
    trees are walked by recursion: `tree_text`)."""
    check_nesting(text, "<from the server>")
    stack: list[Tree] = [[]]
    for w in split_words(text):
        if w == "(":
            stack.append([])
        elif w == ")":
            if len(stack) == 1:
                raise DaideProtocolError(f"a ')' without its '(' in {quote(text)}", found=")",
                                         expected="a balanced message")
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(w)
    if len(stack) != 1:
        raise DaideProtocolError(f"a '(' without its ')' in {quote(text)}", found="end of message",
                                 expected="')'")
    return stack[0]


def tree_text(t: Tree | str) -> str:
    """A tree written back as DAIDE text."""
    if isinstance(t, str):
        return t
    return "(" + " ".join(tree_text(x) for x in t) + ")"


def _body_text(items: Sequence[Tree | str]) -> str:
    return " ".join(tree_text(x) for x in items)


class _Phase:
    """What the client has done in the current turn."""

    def __init__(self, position: Position) -> None:
        self.position = position
        self.orders: list[Order] = []
        #: the orders of the last SUB that no THX has answered: (their text, the order)
        self.unanswered: list[tuple[str, Order]] = []
        self.resubmitted = False
        self.rejected: list[Order] = []
        self.gof_sent = False
        self.missing: list[str] = []


#: a seat's limits unless told otherwise: at most 5 s a turn (less when the server's time
#: limit is shorter), seed 0, on the wall clock
DAIDE_LIMITS = Limits(time_limit=5.0)


class DaideSession:
    """One seat at a DAIDE game: the sign-on, then the turns, until the game ends.

    ``bot`` is a `dipsolve.play.bots.Bot`, playing under ``limits`` (`dipsolve.Limits`):
    it thinks a turn at most ``limits.time_limit`` seconds on ``limits.clock``, and when
    the server sets a time limit, at most 80% of it less half a second; its random
    choices come from ``limits.seed`` (default `DAIDE_LIMITS`); ``log(direction, text)``
    sees every message (``>>`` out, ``<<`` in); ``say(text)`` what a user should know (a
    rejected order, the server's complaint).
    """

    def __init__(self, conn: Connection, bot, *, name: str = "dipsolve", version: str = "0.1",
                 power: str | None = None, passcode: int | None = None,
                 limits: Limits = DAIDE_LIMITS,
                 log: Callable[[str, str], None] | None = None,
                 say: Callable[[str], None] | None = None,
                 game: GameVariant | None = None, press: PressDesk | None = None) -> None:
        self.conn = conn
        #: the game played: its map's powers and DAIDE tokens, its victory (the standard game)
        self.game = game or standard_variant()
        self.power_of_token = power_tokens(self.game.map)
        self.token_of_power = {p: t for t, p in self.power_of_token.items()}
        self.bot = bot
        #: the bot contract stopped the bot (it overran a turn or raised): the seat holds
        self.bot_stopped = False
        self.name = name
        self.version = version
        self.want_power = power
        self.passcode = passcode
        self.limits = limits
        self.log = log or (lambda direction, text: None)
        self.say = say or (lambda text: None)
        self.rng = random.Random(limits.seed)
        self.table: TokenTable | None = None
        self.power: str | None = None
        self.variant = Variant()
        self.sco_text: str | None = None
        self.phase: _Phase | None = None
        self.end = GameEnd()
        self.game_over = False
        self.think_seconds: list[float] = []
        self.history = SeatHistory()          # the boards and orders seen: the seat's Game
        #: a negotiating seat's press (`dipsolve.play.daide.press`; None: the seat sends none)
        self.press = press

    # -- sending and receiving ---------------------------------------------------------

    def send(self, text: str) -> None:
        assert self.table is not None
        body = self.table.encode(text)
        self.log(">>", quote(text, LOG_LENGTH))       # a HUH repeats the server's words
        self.conn.send(DM, body)

    def receive(self) -> tuple[str, Tree] | None:
        """The next diplomacy message as (text, tree); None after an FM."""
        msg = self.conn.receive()
        if msg.type == EM:
            code = msg.body[0] << 8 | msg.body[1]
            what = ERROR_CODES.get(code, "unknown error")
            self.log("<<", f"EM 0x{code:02X} ({what})")
            raise DaideProtocolError(f"the server reported a protocol error: 0x{code:02X} ({what})",
                                     found=f"EM 0x{code:02X}", expected="a diplomacy message")
        if msg.type == FM:
            self.log("<<", "FM")
            self.conn.close()
            return None
        if msg.type == RM:
            raise DaideProtocolError("a second RM from the server", found="RM",
                                     expected="a diplomacy message")
        assert self.table is not None
        try:
            text = self.table.decode(msg.body)
        except DaideProtocolError:
            self.conn.send(EM, (0x0E).to_bytes(2, "big"))
            raise
        self.log("<<", quote(text, LOG_LENGTH))
        try:
            tree = parse_tree(text)
        except DipsolveLimitError as e:      # nested past max_nesting: the server's fault
            raise DaideProtocolError(f"a message from the server: {e.message}: {quote(text)}",
                                     found=text, expected="brackets nested at most "
                                     "max_nesting deep") from None
        if not tree or not isinstance(tree[0], str):
            self.huh(text, 0)
            return text, []
        self._check_shape(text, tree)
        return text, tree

    # -- the shapes of the server's messages -------------------------------------------

    def _check_shape(self, text: str, tree: Tree) -> None:
        """`DaideProtocolError` (after a ``HUH`` to the server) unless a message the
        client reads has the shape DAIDE gives it: every part checked before use (a
        bracketed power where a power token belongs, a result without an order, ...)."""
        head = tree[0]
        expected = _SHAPES.get(str(head))
        if expected is None:
            return
        if not getattr(self, "_shape_" + str(head))(tree):
            try:
                self.huh(text, 1)
            except DipsolveError:
                pass
            raise DaideProtocolError(f"the server's {head} is not {expected}: {quote(text)}",
                                     found=text, expected=expected)

    def _power(self, x: Tree | str) -> bool:
        return isinstance(x, str) and x in self.power_of_token

    def _province(self, x: Tree | str) -> bool:
        assert self.table is not None
        return isinstance(x, str) and self.table.is_province(x)

    @staticmethod
    def _number(x: Tree | str) -> bool:
        return isinstance(x, str) and _is_number(x) and len(x) < 8

    def _turn(self, x: Tree | str) -> bool:
        return (isinstance(x, list) and len(x) == 2 and isinstance(x[0], str)
                and x[0] in SEASONS and self._number(x[1]))

    def _unit(self, x: Tree | str) -> bool:
        """``(power AMY|FLT province)`` or ``(power FLT (province coast))``."""
        if not (isinstance(x, list) and len(x) == 3 and self._power(x[0]) and x[1] in ("AMY", "FLT")):
            return False
        loc = x[2]
        if isinstance(loc, list):
            return x[1] == "FLT" and len(loc) == 2 and self._province(loc[0]) and isinstance(loc[1], str)
        return self._province(loc)

    def _shape_SCO(self, tree: Tree) -> bool:
        return all(isinstance(e, list) and e and (self._power(e[0]) or e[0] == "UNO")
                   and all(self._province(p) for p in e[1:]) for e in tree[1:])

    def _shape_NOW(self, tree: Tree) -> bool:
        return len(tree) >= 2 and self._turn(tree[1]) and all(isinstance(e, list) for e in tree[2:])

    def _shape_SMR(self, tree: Tree) -> bool:
        return len(tree) >= 2 and self._turn(tree[1]) and all(
            isinstance(e, list) and len(e) in (4, 5) and self._power(e[0])
            and isinstance(e[1], list) and isinstance(e[2], list)
            and all(isinstance(w, str) for w in e[1] + e[2])
            and all(self._number(n) for n in e[3:]) for e in tree[2:])

    def _shape_SLO(self, tree: Tree) -> bool:
        return len(tree) == 2 and isinstance(tree[1], list) and len(tree[1]) == 1 and self._power(tree[1][0])

    def _shape_ORD(self, tree: Tree) -> bool:
        return (len(tree) == 4 and self._turn(tree[1]) and isinstance(tree[2], list) and len(tree[2]) >= 2
                and (self._unit(tree[2][0]) or self._power(tree[2][0]))
                and isinstance(tree[3], list) and len(tree[3]) >= 1
                and all(isinstance(w, str) and w in _RESULTS for w in tree[3]))

    def _shape_THX(self, tree: Tree) -> bool:
        return (len(tree) == 3 and isinstance(tree[1], list) and len(tree[1]) >= 2
                and isinstance(tree[2], list) and len(tree[2]) == 1 and isinstance(tree[2][0], str))

    def _shape_MIS(self, tree: Tree) -> bool:
        if len(tree) == 2 and isinstance(tree[1], list) and len(tree[1]) == 1 and self._number(tree[1][0]):
            return True              # MIS (n): removals or builds still to order
        return all(isinstance(e, list) and len(e) >= 3 and self._power(e[0]) for e in tree[1:])

    def _shape_HLO(self, tree: Tree) -> bool:
        return (len(tree) in (3, 4) and isinstance(tree[1], list) and len(tree[1]) == 1
                and self._power(tree[1][0]) and isinstance(tree[2], list) and len(tree[2]) == 1
                and self._number(tree[2][0]) and (len(tree) == 3 or isinstance(tree[3], list)))

    def _ours(self, order: Tree | str) -> bool:
        """Whether the order of an ORD (``((FRA AMY PAR) MTO BUR)``, ``(FRA WVE)``) is
        one of our power's."""
        assert isinstance(order, list) and self.power is not None
        unit = order[0]
        power = unit[0] if isinstance(unit, list) else unit
        return power == self.token_of_power[self.power]

    def huh(self, text: str, at_word: int = 0) -> None:
        """Tell the server we could not read ``text`` (``ERR`` before word ``at_word``)."""
        words = split_words(text)
        at = max(0, min(at_word, len(words)))
        self.send("HUH (" + " ".join(words[:at] + ["ERR"] + words[at:]) + ")")

    # -- the session ---------------------------------------------------------------------

    def run(self) -> GameEnd:
        """Sign on and play until the game ends; the end as the server told it."""
        self.sign_on()
        while True:
            got = self.receive_or_end()
            if got is None:
                return self.end
            try:
                self.handle(*got)
            except DaideConnectionError:
                if self._ended_meanwhile(drain=True):
                    return self.end
                raise
            if self.conn.closed:             # OFF: the game is over
                return self.end

    def _ended_meanwhile(self, drain: bool = False) -> bool:
        """Whether the messages already here end the game (the server may end it while
        the bot thinks); with ``drain``, after the connection failed, read what is left
        and handle the end."""
        if drain:
            while not self.game_over:
                try:
                    got = self.receive()
                except DipsolveError:
                    break
                if got is None:
                    break
                if got[1] and got[1][0] in _END:
                    self.handle(*got)
            return self.game_over
        assert self.table is not None
        for msg in self.conn.poll():
            if msg.type == DM and len(msg.body) >= 2:
                head = self.table.by_code.get(msg.body[0] << 8 | msg.body[1])
                if head in _END:
                    return True
        return False

    def receive_or_end(self) -> tuple[str, Tree] | None:
        try:
            got = self.receive()
        except DaideConnectionError:
            if self.game_over:
                return None
            raise
        if got is None and not self.game_over:
            raise DaideConnectionError("the server closed the connection (FM) before the game ended")
        return got

    def sign_on(self) -> None:
        self.conn.send(IM, initial_message()[4:])
        self.log(">>", "IM (version 1)")
        first = self.conn.receive()
        if first.type == EM:
            code = first.body[0] << 8 | first.body[1]
            raise DaideProtocolError(f"the server answered the IM with error 0x{code:02X} "
                                     f"({ERROR_CODES.get(code, 'unknown error')})",
                                     found=f"EM 0x{code:02X}", expected="RM")
        if first.type != RM:
            raise DaideProtocolError(f"the server's first message is a {first.name}, not an RM",
                                     found=first.name, expected="RM")
        self.table = TokenTable.from_rm(first.body)
        self.log("<<", f"RM ({'standard map' if not first.body else f'{len(first.body) // 6} tokens'})")
        self._check_tokens()
        rejoining = bool(self.want_power and self.passcode is not None)
        if rejoining:
            assert self.want_power is not None
            self.send(f"IAM ({self.token_of_power[self.want_power]}) ({self.passcode})")
        else:
            name = self.name
            if self.want_power:          # the diplomacy server seats 'FRA:name' at France
                name = f"{self.token_of_power[self.want_power]}:{name}"
            self.send(f"NME ('{name}') ('{self.version}')")
        while self.power is None:
            got = self.receive()
            if got is None:
                raise DaideRefused("the server closed the connection during the sign-on")
            text, tree = got
            head = tree[0] if tree else ""
            if head == "REJ":
                what = tree_text(tree[1]) if len(tree) > 1 else ""
                raise DaideRefused(f"the server refused the client: REJ {what} (the name is taken, "
                                   "the game is full, or it has no seat for this client)")
            if head == "OFF":
                raise DaideRefused("the server turned the client off before the game began "
                                   "(the game is full or over)")
            if head == "YES" and len(tree) > 1 and isinstance(tree[1], list) and tree[1][:1] == ["IAM"]:
                self.send("HLO")             # back in our seat: ask for the game's details
            elif head == "MAP":
                self.send("MDF")
            elif head == "MDF":
                self._check_map(text, tree)
            elif head == "HLO":
                self._hello(text, tree)
                if rejoining:
                    self.send("SCO")         # a game in progress: ask for the board
                    self.send("NOW")
            elif head in ("NOW", "ORD", "THX", "MIS"):
                raise DaideProtocolError(f"the server sent {head} before HLO (the client has no "
                                         f"power yet): {quote(text)}", found=str(head),
                                         expected="HLO (power) (passcode) (variant)")
            elif head in ("YES", "SCO", "TME", "HUH", "PRN", "FRM", "ADM", "CCD", "NOT"):
                self.handle(text, tree)
            else:
                self.huh(text)

    def _check_tokens(self) -> None:
        """The RM must name the standard map's powers and provinces (the one map dipsolve
        plays)."""
        assert self.table is not None
        powers = {n for n in self.table.by_name if self.table.is_power(n)}
        provinces = {n for n in self.table.by_name if self.table.is_province(n)}
        want_provinces = {p.daide.upper() for p in self.game.map.provinces.values()}
        if powers != set(self.power_of_token) or provinces != want_provinces:
            raise DaideProtocolError("the server's RM is not the standard map's (dipsolve plays "
                                     f"the standard map only): powers {' '.join(sorted(powers))}",
                                     found="another map", expected="the standard map")

    def _check_map(self, text: str, tree: Tree) -> None:
        """MDF: the powers and the supply centers must be the standard map's; then YES
        (MAP ...)."""
        powers = tree[1] if len(tree) > 1 and isinstance(tree[1], list) else []
        if sorted(p for p in powers if isinstance(p, str)) != sorted(self.power_of_token):
            self.send("REJ (MAP ('standard'))")
            raise DaideProtocolError(f"the map's powers are not the standard map's: {tree_text(powers)}",
                                     found=tree_text(powers), expected="AUS ENG FRA GER ITA RUS TUR")
        self.send("YES (MAP ('standard'))")

    def _hello(self, text: str, tree: Tree) -> None:
        try:
            power_tok = tree[1][0]
            self.power = self.power_of_token[power_tok] if isinstance(power_tok, str) else None
            passcode = tree[2][0]
            self.passcode = int(passcode) if isinstance(passcode, str) else None
            variants = tree[3] if len(tree) > 3 and isinstance(tree[3], list) else []
        except (IndexError, KeyError, TypeError, ValueError):
            self.power = None
            self.huh(text, 1)
            raise DaideProtocolError(f"cannot read the server's HLO: {quote(text)}", found=text,
                                     expected="HLO (power) (passcode) (variant)") from None
        self.variant = Variant.from_tree(variants)
        self.end.power = self.power
        if self.want_power and self.power != self.want_power:
            self.say(f"asked for {self.want_power}, the server seated the client at {self.power}")
        self.say(f"playing {self.power} (passcode {self.passcode}; press level "
                 f"{self.variant.level}; {quote(', '.join(self.variant.options)) or 'no variant options'})")

    # -- the turns -----------------------------------------------------------------------

    def _frm(self, text: str, tree: Tree) -> None:
        """FRM (power [number]) (powers) (message): kept in the seat's history, whole, under
        its sender and recipients (a message not of that shape is left out)."""
        parts = [t for t in tree[1:3] if isinstance(t, list)]
        if len(parts) < 2 or not parts[0] or not isinstance(parts[0][0], str):
            return
        sender = self.power_of_token.get(parts[0][0])
        to = [self.power_of_token.get(t) for t in parts[1] if isinstance(t, str)]
        if sender is not None and to and None not in to:
            self.history.press(sender, [r for r in to if r is not None], text)
            if self.press is not None:
                self.press.on_frm(self, sender, [r for r in to if r is not None], text)

    def handle(self, text: str, tree: Tree) -> None:
        head = tree[0] if tree else ""
        if head == "SCO":
            self.sco_text = text
            self._centers_from_sco(tree)
        elif head == "NOW":
            self._now(text)
        elif head == "THX":
            self._thx(text, tree)
        elif head == "MIS":
            self._mis(tree)
        elif head == "ORD":                   # ORD (turn) (order) (result [RET])
            self.history.order(_body_text(tree[2]))
            if self._ours(tree[2]):           # the results of every power's orders come
                for token in tree[3]:
                    self.end.results[str(token)] = self.end.results.get(str(token), 0) + 1
        elif head in ("TME", "CCD", "OUT", "NOT", "ADM", "YES"):
            pass
        elif head == "FRM":                   # press: kept in the history (answered by a negotiating seat)
            self._frm(text, tree)
        elif head == "HUH":
            self.say(f"the server did not understand a message: {quote(text)}")
            if self.press is not None:
                self.press.answered(head, text)
        elif head == "PRN":
            self.say(f"the server found unbalanced brackets in a message: {quote(text)}")
        elif head == "REJ":
            self.say(f"the server rejected: {quote(text)}")
            if self.press is not None:
                self.press.answered(head, text)
        elif head == "DRW":
            self.end.how = "draw"
            self.game_over = True
        elif head == "SLO":
            self.end.how = "solo"
            tok = tree[1][0] if len(tree) > 1 and isinstance(tree[1], list) and tree[1] else None
            self.end.winner = self.power_of_token.get(tok) if isinstance(tok, str) else None
            self.game_over = True
        elif head == "SMR":
            self._summary(tree)
            self.game_over = True
        elif head == "OFF":
            self.game_over = True
            try:
                self.conn.send(FM)
                self.log(">>", "FM")
            except DaideConnectionError:
                pass
            self.end.how = self.end.how if self.end.how in ("draw", "solo") else "off"
            self.conn.close()
        elif head in ("HLO", "MAP", "MDF"):
            pass
        else:
            self.huh(text)

    def _centers_from_sco(self, tree: Tree) -> None:
        counts: dict[str, int] = {}
        for entry in tree[1:]:
            if isinstance(entry, list) and entry and entry[0] in self.power_of_token:
                counts[self.power_of_token[str(entry[0])]] = len(entry) - 1
        self.end.centers = {p: counts.get(p, 0) for p in self.game.powers}

    def _summary(self, tree: Tree) -> None:
        if len(tree) > 1 and isinstance(tree[1], list):
            self.end.turn = " ".join(str(w) for w in tree[1])
        for entry in tree[2:]:
            if not isinstance(entry, list) or len(entry) < 4 or entry[0] not in self.power_of_token:
                continue
            power = self.power_of_token[str(entry[0])]
            name = " ".join(str(w) for w in entry[1]) if isinstance(entry[1], list) else str(entry[1])
            version = " ".join(str(w) for w in entry[2]) if isinstance(entry[2], list) else str(entry[2])
            self.end.players[power] = (name.strip("'"), version.strip("'"))
            if isinstance(entry[3], str) and _is_number(entry[3]):
                self.end.centers[power] = int(entry[3])
        # a server may end a solo without SLO (the diplomacy server sends it only when one
        # power has units left): a power with more than half the 34 centers has won
        leader = max(self.end.centers.items(), key=lambda kv: kv[1], default=None)
        if self.end.how != "solo" and leader is not None and leader[1] >= self.game.victory:
            self.end.how, self.end.winner = "solo", leader[0]

    def _now(self, text: str) -> None:
        board = text if self.sco_text is None else text + "\n" + self.sco_text
        try:
            position = parse_daide(board, "<NOW from the server>", game_map=self.game.map)
        except DipsolveError as e:
            self.say(f"cannot read the server's NOW: {e.message}")
            self.huh(text, _word_at(text, e.column if e.line == 1 else None))
            return
        self.end.phases += 1
        closed = self.history.board(position)
        if self.press is not None:
            self.press.on_board(self, closed, position)
        observe = getattr(self.bot, "observe", None)
        if closed is not None and observe is not None:
            observe(closed.position, closed.orders)    # every power's orders, as ORD said
        self.phase = _Phase(position)
        if not self._has_orders(position):
            self._go()
            return
        # not ready until the orders are in: a server may otherwise process the turn
        # while the bot thinks (the diplomacy server's GOF of the turn before can leave
        # an empty order set standing for this one)
        self.send("NOT (GOF)")
        if self.press is not None:           # proposals out, the table's answered
            self.press.before_orders(self, position)
            if self.game_over or self.conn.closed or self.phase.position is not position:
                return
        orders = self._decide(position)
        if self._ended_meanwhile():
            return                           # the end is waiting to be read: no orders
        if self.press is not None:
            self.press.after_orders(position, orders)
        if orders:
            self._submit(orders)
        else:
            self._go()

    def _think_time(self, kind: str) -> float:
        limit = self.variant.limit(kind)
        if limit:
            return min(max(0.1, 0.8 * limit - 0.5), self.limits.time_limit)
        return self.limits.time_limit

    def _has_orders(self, position: Position) -> bool:
        """Whether our power has anything to order in this turn."""
        assert self.power is not None
        kind = position.phase.kind
        if kind == "movement":
            return bool(position.units_of(self.power))
        if kind == "retreat":
            return any(d.unit.power == self.power for d in position.dislodged)
        return position.adjustment(self.power) != 0

    def _decide(self, position: Position) -> list[Order]:
        assert self.power is not None
        kind = position.phase.kind
        seconds = self._think_time(kind)
        if self.bot_stopped:
            return []                     # the contract stopped the bot: the server holds
        t0 = time.perf_counter()
        # the bot contract (`dipsolve.play.contract`): a turn bounded, a fault named
        turn = take_turn(self.bot, position, self.power, seconds, self.rng, clock=self.limits.clock)
        if turn.fault is not None:
            self.say(turn.fault.line())
            self.bot_stopped = turn.fault.stopped
        self.think_seconds.append(time.perf_counter() - t0)
        return turn.orders

    def _order_text(self, order: Order) -> str:
        assert self.phase is not None and self.power is not None
        return format_order(order, self.power, "daide", position=self.phase.position)

    def _submit(self, orders: list[Order]) -> None:
        """``SUB (turn) (order) ...``: the turn makes a server refuse orders that arrive
        after it has moved on (the whole SUB, REJ), rather than read them in the next turn."""
        phase = self.phase
        assert phase is not None
        written: list[tuple[str, Order]] = []
        for o in orders:
            try:
                written.append((self._order_text(o), o))
            except DipsolveError as e:      # an order DAIDE cannot carry: the unit holds
                self.say(f"cannot write {o} in DAIDE ({e.message}); left out")
        phase.orders = [o for _, o in written]
        phase.unanswered = [(_words(t), o) for t, o in written]
        if not written:
            self._go()
            return
        self.send(f"SUB ({daide_turn(phase.position)}) " + " ".join(f"({t})" for t, _ in written))

    def _go(self) -> None:
        assert self.phase is not None
        if not self.phase.gof_sent:
            self.phase.gof_sent = True
            self.send("GOF")

    def _thx(self, text: str, tree: Tree) -> None:
        phase = self.phase
        if phase is None or len(tree) < 3 or not isinstance(tree[1], list) or not isinstance(tree[2], list):
            return
        note = tree[2][0] if tree[2] else "MBV"
        order_text = _body_text(tree[1])
        order = self._answered(order_text)
        if order is None:            # a THX of an earlier turn's SUB (the server moved on)
            return
        if note != "MBV":
            meaning = THX_NOTES.get(str(note), "rejected")
            self.say(f"the server rejected the order {quote(order_text)}: {note} ({meaning})")
            phase.rejected.append(order)
        if not phase.unanswered:
            self._settle()

    def _answered(self, order_text: str) -> Order | None:
        """The order of the current SUB a THX answers (taken off the unanswered list), by
        its text, else by its unit; None if it answers none of them."""
        phase = self.phase
        assert phase is not None
        key = _words(order_text)
        for i, (text, order) in enumerate(phase.unanswered):
            if text == key:
                return phase.unanswered.pop(i)[1]
        try:
            _, echoed = parse_daide_order(order_text, source="<THX>", game_map=self.game.map)
        except DipsolveError:
            return None
        for i, (_, order) in enumerate(phase.unanswered):
            if type(order) is type(echoed) and getattr(order, "location", None) == getattr(echoed, "location", None):
                return phase.unanswered.pop(i)[1]
        return None

    def _mis(self, tree: Tree) -> None:
        phase = self.phase
        if phase is None:
            return
        if phase.unanswered:         # the MIS of an earlier SUB: this one's THX are due
            return
        phase.missing = [tree_text(u) for u in tree[1:] if isinstance(u, list)
                         and len(u) >= 3 and u[0] != "" and not _is_number(str(u[0]))]
        self._settle()

    def _settle(self) -> None:
        """After the THX of a SUB: resubmit once with rejected orders replaced and missing
        units ordered, then say GOF."""
        phase = self.phase
        assert phase is not None
        if not phase.resubmitted and (phase.rejected or self._missing_units()):
            kept = [self._fallback(o) if o in phase.rejected else o for o in phase.orders]
            fixed: list[Order] = [o for o in kept if o is not None]
            fixed += self._missing_units()
            phase.rejected = []
            phase.missing = []
            phase.resubmitted = True
            if fixed:
                self.say("resubmitting: " + "; ".join(str(o) for o in fixed))
                self._submit(fixed)
                return
        self._go()

    def _missing_units(self) -> list[Order]:
        """Holds (disbands) for the units of ours MIS lists that our orders do not cover."""
        phase = self.phase
        assert phase is not None and self.power is not None
        out: list[Order] = []
        ordered = {o.location for o in phase.orders if isinstance(o, UnitOrder)}
        for unit_text in phase.missing:
            words = split_words(unit_text)
            if "MRT" in words:
                words = words[:words.index("MRT")] + [")"]
            try:
                power, order = parse_daide_order(" ".join(words) + " HLD", source="<MIS>")
            except DipsolveError:
                continue
            if power != self.power or not isinstance(order, Hold) or order.location in ordered:
                continue
            if phase.position.phase.kind == "retreat":
                out.append(Disband(order.kind, order.location))
            elif phase.position.phase.kind == "movement":
                out.append(order)
        return out

    def _fallback(self, order: Order) -> Order | None:
        """What replaces a rejected order: a hold (movement), a disband (retreat), a
        waive (a build); a rejected removal or waive is dropped (the server removes by
        civil disorder)."""
        kind = self.phase.position.phase.kind if self.phase else "movement"
        if isinstance(order, Build):
            return Waive()
        if isinstance(order, UnitOrder) and kind == "movement":
            return Hold(order.kind, order.location)
        if isinstance(order, (Retreat, UnitOrder)) and kind == "retreat":
            return Disband(order.kind, order.location)
        return None


def _words(text: str) -> str:
    """DAIDE text with one space between words, to compare two spellings of it."""
    return " ".join(split_words(text))


#: the result tokens of an ORD
_RESULTS = frozenset({"SUC", "BNC", "CUT", "DSR", "FLD", "NSO", "RET"})
#: the messages whose shape is checked, and the shape in words
_SHAPES = {
    "SCO": "SCO (power province ...) ... (UNO province ...)",
    "NOW": "NOW (season year) (unit) ...",
    "SMR": "SMR (season year) (power ('name') ('version') centers [year]) ...",
    "SLO": "SLO (power)",
    "ORD": "ORD (season year) (order) (result)",
    "THX": "THX (order) (note)",
    "MIS": "MIS (unit) ... or MIS (number)",
    "HLO": "HLO (power) (passcode) (variant)",
}


def _word_at(text: str, column: int | None) -> int:
    """The index of the word of ``text`` at character ``column`` (1-based)."""
    if column is None:
        return 0
    return len(split_words(text[:max(0, column - 1)]))

