"""A game's history, phase by phase: `Game` (as python-chess's ``Board`` holds its move stack).

A `Game` holds the board of every phase played, the orders given in it, their outcome
(`dipsolve.adjudicate`'s `Outcome`: each order's result and the next board), the result
codes a record gives, and the press sent during it; and the board to play now.

    >>> import dipsolve
    >>> game = dipsolve.Game()
    >>> game.phase.short
    'S1901M'
    >>> outcome = game.process({"France": ["A PAR - BUR"], "Germany": ["A MUN - BUR"]})
    >>> print(outcome.result_for("PAR"))
    France: A PAR - BUR: bounced
    >>> game.phase.short, len(game)
    ('F1901M', 2)
    >>> [ph.name for ph in game]
    ['S1901M', 'F1901M']
    >>> game.undo().name, game.phase.short
    ('S1901M', 'S1901M')

It reads and writes the ``diplomacy`` package's saved-game JSON (`Game.from_json`,
`Game.load`, `Game.to_json`, `Game.dumps`): a record read is written back as its file
wrote it (timestamps, hashes, message times, the order of its lists; Meta's engine's JSON
too), every phase still as read; a phase played anew is written from its values; and
what it writes reads back as the same game, and writes again byte for byte the same.  `load_record` reads a record through it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Iterable, Iterator, Mapping

from ..core.adjudicator import Outcome, adjudicate
from ..core.errors import DipsolveArgumentError, DipsolveInternalError, DipsolveRuleError, DipsolveSyntaxError
from ..core.names import check_power
from ..core.orders import Order
from ..core.position import Phase, Position
from ..core.variant import Variant
from .given_orders import check_orders
from .records import (Record, RecordPhase, Source, _parse_order, dumps_records, load_records, pick,
                      read_records, result_codes)

__all__ = ["Game", "GamePhase", "load_record"]


@dataclass(frozen=True)
class GamePhase:
    """One phase of a game: the board, the orders given, the record's result codes and
    the press; `outcome` is the adjudication of the orders (made when first asked for a
    phase read from a record)."""

    name: str
    position: Position
    orders: Mapping[str, tuple[Order, ...]] = field(default_factory=dict)
    results: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    messages: tuple[tuple[str, str, str], ...] = ()
    #: the phase as its record's file wrote it (`dipsolve.io.records.Source`), if read from one
    source: Source | None = field(default=None, compare=False, repr=False)

    @cached_property
    def outcome(self) -> Outcome:
        """What the orders did: `dipsolve.adjudicate` of this phase's board and orders."""
        return adjudicate(self.position, {p: list(os) for p, os in self.orders.items()})

    def as_record_phase(self) -> RecordPhase:
        return RecordPhase(self.name, self.position, self.orders, self.results, self.messages, self.source)

    @classmethod
    def of(cls, ph: RecordPhase) -> "GamePhase":
        return cls(ph.name, ph.position, ph.orders, ph.results, ph.messages, ph.source)


class Game:
    """A game's history: every phase played (`GamePhase`) and the board to play now.

    ``start`` (default: the standard opening board), ``id``, ``map`` and ``rules`` are the
    record's; ``players``, who played each power (power -> name), as the record says it
    (`dipsolve.io.records.Record.players`); ``winners``, the powers a record that ends the
    game names.  `process` plays the current phase, `undo` takes the last one back, `say`
    records press in the current phase; iterating gives every phase, the current one last
    (its orders empty)."""

    def __init__(self, start: Position | None = None, *, id: str = "dipsolve", map: str | None = None,
                 rules: Iterable[str] = ("NO_PRESS",), players: Mapping[str, str] | None = None) -> None:
        if start is not None and not isinstance(start, Position):
            raise DipsolveArgumentError(f"Game(): start: expected a Position, not a {type(start).__name__}",
                                        expected="a Position")
        if map is None:             # the start's own map (a variant's), else the standard one
            map = (start.map.name if start is not None else "") or "standard"
        for what, value in (("id", id), ("map", map)):
            if not isinstance(value, str):
                raise DipsolveArgumentError(f"Game(): {what}: expected a string, not a {type(value).__name__}",
                                            expected="a string")
        if isinstance(rules, str) or not all(isinstance(r, str) for r in rules):
            raise DipsolveArgumentError("Game(): rules: expected strings", expected="strings")
        if players is not None and (not isinstance(players, Mapping)
                                    or not all(isinstance(n, str) for n in players.values())):
            raise DipsolveArgumentError("Game(): players: expected power -> the player's name",
                                        expected="a mapping of power to name")
        self.id, self.map, self.rules = id, map, tuple(rules)
        game_map = (start or Position.initial()).map
        self.players: Mapping[str, str] = {check_power(p, "players", game_map): n
                                           for p, n in (players or {}).items()}
        self.winners: tuple[str, ...] = ()
        self._played: list[GamePhase] = []
        self._source: Source | None = None       # the game's own keys as its file wrote them
        self._variant: Variant | None = None     # the map file's variant a record was read on
        #: what reading the game's record skipped (`Record.warnings`)
        self.warnings: tuple[str, ...] = ()
        self._current = GamePhase((start or Position.initial()).phase.short, start or Position.initial())

    # -- the state --------------------------------------------------------------------------
    @property
    def position(self) -> Position:
        """The board to play now."""
        return self._current.position

    @property
    def phase(self) -> Phase:
        """The phase to play now."""
        return self.position.phase

    @property
    def phases(self) -> tuple[GamePhase, ...]:
        """Every phase, in order: those played, then the current one."""
        return (*self._played, self._current)

    @property
    def messages(self) -> tuple[tuple[str, str, str], ...]:
        """The press of the current phase: (sender, recipient, text)."""
        return self._current.messages

    def __iter__(self) -> Iterator[GamePhase]:
        return iter(self.phases)

    def __len__(self) -> int:
        return len(self._played) + 1

    def __repr__(self) -> str:
        return f"<Game {self.id!r}: {len(self._played)} phases played, {self._current.name} to play>"

    # -- playing ----------------------------------------------------------------------------
    def process(self, orders: Mapping[str, Iterable[Order | str]] | None = None) -> Outcome:
        """Adjudicate the current phase with ``orders`` (power -> orders, each an `Order`
        or its text; a unit without one holds, a power without any is in civil disorder)
        and move on to the next board.  Returns the `Outcome`.  The orders are checked as
        `dipsolve.adjudicate` checks them (`dipsolve.io.given_orders.check_orders`): a
        power named twice (``"France"``, ``"FRANCE"``) gives one list of orders, a unit
        ordered in both is ordered twice."""
        if self._current.name == "COMPLETED":
            raise DipsolveRuleError(f"game {self.id!r} is over", rule="game over")
        if orders is not None and not isinstance(orders, Mapping):
            raise DipsolveArgumentError(f"process(): orders: expected power -> orders, not a "
                                        f"{type(orders).__name__}", expected="a mapping of power to orders")
        checked = check_orders(orders or {}, self.position) or {}
        outcome = adjudicate(self.position, checked)
        given = {p: tuple(os) for p, os in checked.items()}
        done = GamePhase(self._current.name, self.position, given,
                         {k: tuple(v) for k, v in result_codes(outcome).items()}, self._current.messages)
        done.__dict__["outcome"] = outcome         # the cached_property, already known
        self._played.append(done)
        self._current = GamePhase(outcome.next.phase.short, outcome.next)
        return outcome

    def undo(self) -> GamePhase:
        """Take the last phase played back: its board is the one to play again (its press
        kept); returns the phase taken back."""
        if not self._played:
            raise DipsolveRuleError(f"game {self.id!r}: no phase to take back", rule="nothing to undo")
        last = self._played.pop()
        self._current = GamePhase(last.name, last.position, messages=last.messages)
        return last

    def say(self, sender: str, recipient: str, text: str) -> None:
        """Record press sent in the current phase (``recipient`` a power or ``"GLOBAL"``)."""
        if not all(isinstance(x, str) for x in (sender, recipient, text)):
            raise DipsolveArgumentError("say(): expected strings: sender, recipient, text",
                                        expected="strings")
        to = recipient if recipient.upper() == "GLOBAL" else check_power(recipient, "recipient")
        c = self._current
        self._current = GamePhase(c.name, c.position, c.orders, c.results,
                                  (*c.messages, (check_power(sender, "sender"), to, text)))

    # -- records ----------------------------------------------------------------------------
    @property
    def record(self) -> Record:
        """The game as a `Record` (what `dipsolve.analyze` and the pictures read)."""
        return Record(self.id, tuple(p.as_record_phase() for p in self.phases), self.map, self.rules,
                      self._source, self.players, self.winners, self.warnings, self._variant)

    @classmethod
    def from_record(cls, record: Record) -> "Game":
        """The game a `Record` holds; its last phase is the one to play (``COMPLETED``
        when the record ends the game)."""
        if not record.phases:
            raise DipsolveSyntaxError(f"game {record.id!r} has no phase", found=record.id)
        game = cls(record.phases[-1].position, id=record.id, map=record.map, rules=record.rules)
        game._source = record.source
        game._variant = record.variant
        game.warnings = record.warnings
        game.players, game.winners = record.players, record.winners     # the record's own objects
        game._played = [GamePhase.of(ph) for ph in record.phases[:-1]]
        game._current = GamePhase.of(record.phases[-1])
        return game

    @classmethod
    def from_play(cls, played: Any, id: str | None = None) -> "Game":
        """The game `dipsolve.play_game` played (a `dipsolve.play.games.GameRecord`),
        processed phase by phase from its start and checked to end on its final board; its
        players are the seats' bots."""
        game = cls(getattr(played, "start", None) or Position.initial(), id=id or f"dipsolve-{played.seed}",
                   players=played.seats)
        for ph in played.phases:
            game.process({p: [_parse_order(t, game.position.map) for t in ts] for p, ts in ph.orders.items()})
        if game.position != played.final:
            raise DipsolveInternalError(f"game {game.id}: replaying its orders does not end on its final board")
        return game

    @classmethod
    def from_json(cls, data: str | Mapping[str, Any], filename: str = "<string>",
                  variant: Variant | None = None) -> "Game":
        """The game of one saved game (its JSON text, or the dict `json.loads` gives);
        ``variant``: a game on a map file is read on it (`dipsolve.io.records.read_records`)."""
        text = data if isinstance(data, str) else json.dumps(data)
        return cls.from_record(pick(read_records(text, filename, variant), None, filename))

    @classmethod
    def load(cls, path: str, game: str | int | None = None, variant: Variant | None = None) -> "Game":
        """The game in the file at ``path``; ``game`` picks one of several by id or index;
        ``variant``: a game on a map file is read on it (`dipsolve.io.records.read_records`)."""
        return cls.from_record(pick(load_records(path, variant), game, str(path)))

    def to_json(self) -> dict[str, Any]:
        """The game in the saved-game format (a dict ready for `json.dumps`)."""
        return self.record.to_json()

    def dumps(self) -> str:
        """The game as one JSON line (what ``play --save`` writes)."""
        return dumps_records([self.record])

    def _repr_svg_(self) -> str:
        """The current board as a picture, for notebooks."""
        from .pictures import position_svg
        return position_svg(self.position)

    def _repr_html_(self) -> str:
        """The whole game, phase by phase, for notebooks."""
        return self.record._repr_html_()


def load_record(path: str, game: str | int | None = None, variant: Variant | None = None) -> Record:
    """The one game in the file at ``path`` (read through `Game`); for a file of several,
    ``game`` picks one by its id or by its index (0 for the first); a game played on a map
    file is read on its ``variant`` (`dipsolve.core.variant_files.find_variant` of the file)."""
    return Game.load(path, game, variant).record
