"""A DAIDE seat's history as a `dipsolve.Game`, and how its game ended (`GameEnd`).

The history: each board the server sent (NOW, with the SCO before it), every power's
orders its ORD messages reported, and the press it passed on (FRM), phase by phase.

The server adjudicates, not dipsolve: the boards are the server's, kept as it sent them
(a `Game` read from them, as from a record), and the orders are those it says were given
(read by the project's order reader, DAIDE notation).  `SeatHistory.game` is the seat's
game so far; it is written with the writer ``play --save`` uses (`Game.dumps`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dipsolve.core.errors import DipsolveError
from dipsolve.core.orders import Order
from dipsolve.core.position import Position
from dipsolve.io.game import Game
from dipsolve.io.records import Record, RecordPhase

__all__ = ["GameEnd", "SeatHistory"]


@dataclass
class GameEnd:
    """How the game ended, as the server said it."""

    #: "draw", "solo", or "off" (the server turned the game off without saying more)
    how: str = "off"
    winner: str | None = None
    #: the last turn and each power's centers, from SMR (or the last SCO)
    turn: str | None = None
    centers: dict[str, int] = field(default_factory=dict)
    #: power -> (name, version) of its player, from SMR
    players: dict[str, tuple[str, str]] = field(default_factory=dict)
    power: str | None = None
    phases: int = 0
    #: our orders' results as ORD gave them: result token (SUC, BNC, CUT, ...) -> count
    results: dict[str, int] = field(default_factory=dict)
    #: a negotiating seat's press: messages sent, refused by its grammar, rejected by the
    #: server, agreements made and broken (`dipsolve.play.daide.press.PressDesk.summary`)
    press: dict | None = None
    #: the seat's game (a `dipsolve.Game`: the server's boards, every power's orders)
    game: Any = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict:
        """The end as JSON: ``how`` (draw, solo, off), ``winner``, ``turn``, ``power``
        (our seat), ``phases`` (turns seen), ``centers`` and ``players`` per power,
        ``results`` (our orders' results from ORD: token -> count); a negotiating seat's
        ``press`` (`dipsolve.play.daide.press.PressDesk.summary`)."""
        out = {"how": self.how, "winner": self.winner, "turn": self.turn, "power": self.power,
               "phases": self.phases, "centers": dict(self.centers), "results": dict(self.results),
               "players": {p: {"name": n, "version": v} for p, (n, v) in self.players.items()}}
        if self.press is not None:
            out["press"] = self.press
        return out

    def line(self) -> str:
        head = {"draw": "a draw", "solo": f"a solo win for {self.winner}",
                "off": "the server ended the game"}[self.how]
        counts = ", ".join(f"{p} {n}" for p, n in sorted(self.centers.items(),
                                                           key=lambda kv: (-kv[1], kv[0])))
        at = f" ({self.turn})" if self.turn else ""
        return f"game over{at}: {head}; centers: {counts or 'unknown'}"


class SeatHistory:
    """The boards and orders a seat saw, turn by turn (`board`, `order`), and the `Game`
    they make (`game`)."""

    def __init__(self, id: str = "daide") -> None:
        self.id = id
        self._phases: list[RecordPhase] = []
        self._board: Position | None = None
        self._orders: dict[str, list[Order]] = {}
        self._press: list[tuple[str, str, str]] = []

    def board(self, position: Position) -> RecordPhase | None:
        """The server's board of a new turn (NOW): the turn before is closed with the
        orders reported for it, and returned (None when there was none).  The same board
        again (a NOW sent twice) changes nothing."""
        closed = None
        if self._board is not None:
            if position == self._board:
                return None
            closed = self._phase(self._board, self._orders, self._press)
            self._phases.append(closed)
        self._board, self._orders, self._press = position, {}, []
        return closed

    def order(self, text: str) -> bool:
        """An order ORD reported for the current turn (its DAIDE text, ``( FRA AMY PAR )
        MTO BUR``); False, and nothing kept, when it cannot be read on this board."""
        if self._board is None:
            return False
        from dipsolve.grammar.orders import parse_order_line
        try:
            power, order = parse_order_line(text, self._board.map, position=self._board)
        except DipsolveError:
            return False
        if power is None:
            return False
        self._orders.setdefault(power, []).append(order)
        return True

    def press(self, sender: str, recipients: list[str], text: str) -> bool:
        """A press message the server passed on (FRM) in the current turn: its sender, its
        recipients (powers' names) and its text as sent (``FRM (FRA) (ENG) (PRP (...))``),
        kept as the record keeps press, a message per recipient; False, and nothing kept,
        before the first board.  `dipsolve.track_agreements` reads it from the game."""
        if self._board is None:
            return False
        self._press += [(sender, r, text) for r in recipients]
        return True

    @staticmethod
    def _phase(position: Position, orders: dict[str, list[Order]],
               press: list[tuple[str, str, str]] | None = None) -> RecordPhase:
        return RecordPhase(position.phase.short, position, {p: tuple(os) for p, os in orders.items()},
                           messages=tuple(press or ()))

    @property
    def game(self) -> Game | None:
        """The seat's game so far (None before the first board): every turn played, and the
        current one, its orders those reported so far."""
        if self._board is None:
            return None
        phases = (*self._phases, self._phase(self._board, self._orders, self._press))
        m = self._board.map
        return Game.from_record(Record(self.id, phases, m.name or "standard", ()))
