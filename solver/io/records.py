"""Game records in and out: the ``diplomacy`` package's saved-game JSON, read into `Position`\\ s and orders, and written from dipsolve's games.

The format is the one of ``diplomacy.utils.export.to_saved_game_format`` (and of the
public game datasets): a game is a JSON object ``{"id", "map", "rules", "phases"}``; each
phase is ``{"name": "S1901M", "state": {...}, "orders": {...}, "results": {...},
"messages": [...]}``, its ``state`` the board *before* the phase (``units`` per power,
a dislodged unit written ``"*A PAR"``; ``retreats`` per power, unit -> its retreat
options; ``centers`` per power), its ``orders`` what each power ordered (the peer's
short notation, which is dipsolve's canonical one), its ``results`` each unit's result
codes (``"bounce"``, ``"cut"``, ``"dislodged"``, ...).  The last phase has no orders: it
is the board the game ended on (its name may be ``COMPLETED``).  A file holds one game
(pretty-printed or not), a JSON list of games, or JSON lines, one game a line.  Meta's
engine (dipcc's ``Game.to_json``, the form of Meta's published Cicero games) writes the
same phases without the timestamps and hash, and keeps a retreat phase for dislodged
units that can only disband (``"retreats": {"A RUH": []}``): it reads the same way, and
such a unit is kept, with no retreat, in the phase's `Position`.

Who played each power is read where a record says it: a ``"players"`` object, power ->
a name (or an object with a ``"name"``, as a DAIDE server's SMR gives a player's name and
version), which ``play --save`` writes (the seats' bots); or the ``diplomacy`` package's
power objects, ``"powers": {"FRANCE": {"controller": {timestamp: name}}}`` (every name
but ``dummy`` that controlled the power, in order).  The package ends a game with a phase
``COMPLETED`` whose note names the winners (``"Victory by: ENG, FRA"``: a draw of two, or
one power's solo); they are read too, and `Record.result` says how the game ended.

Reading (`read_records`, `load_records`, `load_record`) gives `Record`\\ s of
`RecordPhase`\\ s: the phase's `Position` (phase, units, centers and, in a retreat
phase, the dislodged units with the retreat options the record gives and the attacker's
origin as the phase before shows it), the orders by power (read by the project's order
reader, `dipsolve.grammar.parse_order`) and the recorded result codes.  Writing
(`Record.to_json`, `dumps_records`, `replay`; `dipsolve.io.game.Game.from_play`) makes the same format from
dipsolve's own games, which the ``diplomacy`` package loads.

Anything the reader cannot take (bad JSON, a truncated file, a phase that is not a
phase, an unknown power, province or order) is a `DipsolveSyntaxError` (or, for a board
that breaks the rules, a `DipsolveRuleError`) naming ``file:line:col`` where it can.
Press is no part of the game's boards: a phase's messages in another shape than a list
of message objects (games played by language-model players keep them as one string) are
skipped, and the record says so in `Record.warnings`.

This module never imports the ``diplomacy`` package: it is a peer the tests compare with.
"""

from __future__ import annotations

import gc
import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Mapping

from ..core.bounds import json_decoder
from ..core.errors import DipsolveError, DipsolveInternalError, DipsolveRuleError, DipsolveSyntaxError
from ..core.graph import sea_route
from ..core.map import Map
from ..core.orders import Convoy, Move, Order
from ..core.position import Dislodged, Phase, Position, Unit, written_retreats
from ..core.variant import VARIANTS, Variant, variant

__all__ = ["Record", "RecordPhase", "GameResult", "read_records", "load_records", "load_record", "dumps_records",
           "replay", "result_codes", "board_differences"]

#: the peer's power names (``"FRANCE"``) -> ours
_PHASE_NAME = re.compile(r"^([SF])(\d{1,4})([MR])$|^(W)(\d{1,4})(A)$")
#: the name the peer gives the board a finished game ended on
COMPLETED = "COMPLETED"


# -- the record -------------------------------------------------------------------------

@dataclass(frozen=True)
class RecordPhase:
    """One phase of a record: the board before it, the orders given, the results recorded."""

    #: the phase's name as the record writes it (``"S1901M"``; ``"COMPLETED"`` for the end)
    name: str
    position: Position
    #: power -> its orders, as dipsolve reads them (empty for the last phase)
    orders: Mapping[str, tuple[Order, ...]] = field(default_factory=dict)
    #: unit (``"A PAR"``) -> the result codes the record gives (``("bounce",)``; ``()``: it worked)
    results: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: the press of the phase: (sender, recipient, text), as the record gives them
    messages: tuple[tuple[str, str, str], ...] = ()
    #: the phase as the file wrote it (`Source`), written back as it was (timestamps,
    #: hashes, the order of its lists) while this phase's values are still the ones read
    source: "Source | None" = field(default=None, compare=False, repr=False)

    def orders_of(self) -> dict[str, list[Order]]:
        """The orders as `dipsolve.adjudicate` takes them (power -> list)."""
        return {p: list(os) for p, os in self.orders.items()}


@dataclass(frozen=True)
class Record:
    """One game: its id, map, rules and every phase, in order."""

    id: str
    phases: tuple[RecordPhase, ...]
    map: str = "standard"
    rules: tuple[str, ...] = ()
    #: the game's own JSON keys as the file wrote them (`Source`), written back likewise
    source: "Source | None" = field(default=None, compare=False, repr=False)
    #: who played each power, where the record says (power -> the player's name)
    players: Mapping[str, str] = field(default_factory=dict)
    #: the powers the record names as the winners of a game it ends (``COMPLETED``): one
    #: for a solo, several for a draw
    winners: tuple[str, ...] = ()
    #: what the reader skipped, one line a kind, naming the phases (press it cannot take:
    #: ``"messages of phases S1901M F1901M skipped: expected a JSON list, found a string"``);
    #: the boards and orders are read whole, and written back as the file wrote them
    warnings: tuple[str, ...] = field(default=(), compare=False)
    #: the variant the game was read on (its victory says a solo), when the reader was
    #: given it: a map file's (`read_records`' ``variant``); None: the shipped one ``map`` names
    variant: Variant | None = field(default=None, compare=False, repr=False)

    @property
    def names(self) -> list[str]:
        """The phases' names, in order (``["S1901M", "F1901M", ...]``)."""
        return [p.name for p in self.phases]

    @property
    def final(self) -> Position:
        """The board the record ends on."""
        return self.phases[-1].position

    def movements_before(self, phase: RecordPhase) -> tuple[tuple[Position, dict[str, list[Order]]], ...]:
        """The movement phases before ``phase`` (one of this record's), each as its position
        and every power's orders: what the learned opponent model fits
        (``dipsolve.strategy.Learned(history=...)``)."""
        out = []
        for ph in self.phases:
            if ph is phase:
                break
            if ph.position.phase.kind == "movement":
                out.append((ph.position, ph.orders_of()))
        return tuple(out)

    def phase(self, name: str) -> RecordPhase:
        """The phase called ``name`` (``"S1903M"``, any case; ``"Spring 1903 Movement"``
        too), or a `DipsolveSyntaxError` that lists the phases the record has."""
        wanted = name.strip().upper()
        for p in self.phases:
            if p.name.upper() == wanted:
                return p
        try:
            short = Phase.parse(name).short
        except DipsolveError:
            short = None
        for p in self.phases:
            if short is not None and p.position.phase.short == short and p.name != COMPLETED:
                return p
        raise DipsolveSyntaxError(f"no phase {name!r} in game {self.id!r} (it has {describe_names(self.names)})",
                                  found=name, expected="a phase of the record")

    @property
    def result(self) -> "GameResult":
        """How the game ended (a solo, a draw, over with no winner named) or, unfinished,
        where the record stops; with every power's centers on the last board."""
        last = self.phases[-1]
        m = last.position.map
        centers = {p: len(last.position.centers_of(p)) for p in m.powers}
        over = last.name == COMPLETED
        if over and self.winners:
            return GameResult("solo" if len(self.winners) == 1 else "draw", self.winners, last.name, centers)
        played_on = self.variant or (variant(self.map) if self.map in VARIANTS else None)
        solo = played_on.winner(last.position.centers) if played_on is not None else None
        if solo is not None:
            return GameResult("solo", (solo,), last.name, centers)
        return GameResult("ended" if over else "unfinished", (), last.name, centers)

    def _repr_html_(self) -> str:
        """The whole game, phase by phase, for notebooks (`dipsolve.io.pictures_html`)."""
        from .pictures_html import game_html, notebook_html
        return notebook_html(game_html(self))

    def to_json(self) -> dict[str, Any]:
        """The game in the saved-game format (a dict ready for `json.dumps`)."""
        return _game_json(self)


@dataclass(frozen=True)
class GameResult:
    """How a record's game ended, or where it stops (`Record.result`)."""

    #: "solo", "draw", "ended" (over, the record names no winner) or "unfinished"
    how: str
    #: the solo's winner, or the powers in the draw
    winners: tuple[str, ...]
    #: the last phase's name (``COMPLETED`` for a game the record ends)
    phase: str
    #: every power's supply centers on the last board, in the map's order
    centers: dict[str, int]

    def line(self) -> str:
        """The result in words: ``a draw: England, France; centers: England 12, ...``."""
        head = {"solo": f"a solo win for {', '.join(self.winners)}",
                "draw": f"a draw: {', '.join(self.winners)}",
                "ended": f"over at {self.phase}, no winner named",
                "unfinished": f"unfinished at {self.phase}"}[self.how]
        counts = ", ".join(f"{p} {n}" for p, n in sorted(self.centers.items(), key=lambda kv: (-kv[1], kv[0])))
        return f"{head}; centers: {counts}"


@dataclass(frozen=True, eq=False)
class Source:
    """What a file wrote for a game or a phase (``raw``, its JSON object) and the values
    read from it (``read``).  A writer writes ``raw`` back only while the game's or phase's
    values are those very objects (`unchanged`): a phase replaced or played anew is
    written from its values."""

    raw: Mapping[str, Any]
    read: tuple[Any, ...]

    def unchanged(self, *values: Any) -> bool:
        return len(values) == len(self.read) and all(a is b for a, b in zip(values, self.read))


def describe_names(names: list[str]) -> str:
    """``S1901M F1901M ... (12 phases)``: the phases of a record, in a line."""
    if len(names) <= 12:
        return " ".join(names)
    return " ".join(names[:6]) + " ... " + " ".join(names[-3:]) + f" ({len(names)} phases)"


# -- reading --------------------------------------------------------------------------------

class _Source:
    """The text being read and its name: turns an offset, or a value to look for, into
    ``file:line:col`` for an error."""

    def __init__(self, text: str, filename: str) -> None:
        self.text = text
        self.filename = filename

    def where(self, pos: int) -> dict[str, Any]:
        line = self.text.count("\n", 0, pos) + 1
        start = self.text.rfind("\n", 0, pos) + 1
        end = self.text.find("\n", pos)
        src = self.text[start:end if end >= 0 else len(self.text)]
        return {"filename": self.filename, "line": line, "column": pos - start + 1,
                "source_line": src if len(src) <= 200 else None}

    def error(self, message: str, start: int, value: Any = None, *, found: str | None = None,
              expected: str | None = None, rule: bool = False) -> DipsolveError:
        """An error at the first place ``value`` (as JSON writes it) appears at or after
        ``start`` (the start of its game), or at ``start`` itself."""
        pos, width = start, 1
        if value is not None:
            needle = json.dumps(value)
            i = self.text.find(needle, start)
            if i < 0 and isinstance(value, str):
                needle = value
                i = self.text.find(value, start)
            if i >= 0:
                pos, width = i, len(needle)
        where = self.where(pos)
        if rule:
            return DipsolveRuleError(message, found=found, expected=expected, width=width, **where)
        return DipsolveSyntaxError(message, found=found, expected=expected, width=width, **where)


def read_records(text: str, filename: str = "<string>", variant: Variant | None = None) -> list[Record]:
    """Every game in ``text``: one JSON object, a JSON list of them, or JSON lines.

    A game's ``"map"`` names its variant: one dipsolve ships (``"standard"``), or a user's
    map or variant file, by the file's name (``"small.map"``: what ``play --variant
    FILE --save`` writes; an older record's path, ``"maps/small.map"``, is read by its
    file's name too, and the ``diplomacy`` package's ``"colonial"`` as ``colonial.map``).  A record names a file but never opens it: a game on a file is read
    on ``variant`` (`dipsolve.core.variant_files.find_variant` of the file), which must be
    the variant the game names; a game on a file without it, or on another variant than
    ``variant``, is a `DipsolveSyntaxError` at its ``"map"``.

    The cyclic garbage collector is paused while the record is read (and put back as
    it was): reading builds hundreds of thousands of objects, none in a cycle, and the
    collections they set off took a third of the time (`benchmarks/records.py`)."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return _read_records(text, filename, variant)
    finally:
        if paused:
            gc.enable()


def _read_records(text: str, filename: str, chosen: Variant | None) -> list[Record]:
    src = _Source(text, filename)
    games: list[tuple[int, Any]] = []
    decoder = json_decoder(text, filename)      # nesting and numbers within dipsolve.core.bounds
    pos = _skip_space(text, 0)
    if pos >= len(text):
        raise DipsolveSyntaxError("empty record: expected a saved game (a JSON object)", **src.where(0),
                                  expected="a JSON object")
    while pos < len(text):
        try:
            value, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as e:
            raise _json_error(src, e) from None
        except RecursionError:
            raise DipsolveSyntaxError("the JSON is nested too deeply", **src.where(pos)) from None
        if isinstance(value, list) and not games:
            games += [(pos, v) for v in value]
        else:
            games.append((pos, value))
        pos = _skip_space(text, end)
    return [_read_game(src, start, value, chosen) for start, value in games]


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


def _json_error(src: _Source, e: json.JSONDecodeError) -> DipsolveSyntaxError:
    rest = src.text[e.pos:].strip()
    if not rest or (e.msg.startswith("Unterminated string") and '"' not in rest[1:]):
        msg = f"the record ends too early (truncated?): {e.msg.lower()}"
    else:
        msg = f"not JSON: {e.msg.lower()}"
    return DipsolveSyntaxError(msg, found=rest[:1] or "end of file", **src.where(e.pos))


def load_records(path: str, variant: Variant | None = None) -> list[Record]:
    """Every game in the file at ``path`` (see `read_records`, and its ``variant`` for a
    game on a map file), within the bounds the command line keeps
    (`dipsolve.core.bounds.read_bytes`: at most ``max_file_bytes``, a device refused before
    reading)."""
    from ..core.bounds import decode_text, read_bytes
    try:
        text = decode_text(read_bytes(path))
    except UnicodeDecodeError as e:
        raise DipsolveSyntaxError(f"cannot read the record: not a text file (byte {e.start} is "
                                  "not UTF-8)", filename=str(path)) from None
    except OSError as e:
        raise DipsolveSyntaxError(f"cannot read the record: {e.strerror or e}",
                                  filename=str(path)) from None
    return read_records(text, str(path), variant)


def pick(records: list[Record], game: str | int | None, filename: str) -> Record:
    """One of ``records``, as `load_record` picks it."""
    if game is None:
        if len(records) == 1:
            return records[0]
        raise DipsolveSyntaxError(f"{len(records)} games in the record: say which (by id or index: "
                                  f"{', '.join(r.id for r in records[:5])}{', ...' if len(records) > 5 else ''})",
                                  filename=filename, expected="one game")
    for i, r in enumerate(records):
        if r.id == str(game):
            return r
    if isinstance(game, int) or str(game).isdigit():
        i = int(game)
        if 0 <= i < len(records):
            return records[i]
    raise DipsolveSyntaxError(f"no game {game!r} in the record (it has {len(records)}: "
                              f"{', '.join(r.id for r in records[:5])}{', ...' if len(records) > 5 else ''})",
                              filename=filename, found=str(game), expected="a game's id or index")


_JSON_NAMES: dict[type, str] = {dict: "a JSON object", list: "a JSON list", str: "a string"}


def _expect(src: _Source, start: int, value: Any, kind: type, what: str, look_for: Any = None) -> Any:
    if not isinstance(value, kind):
        found = type(value).__name__ if value is not None else "null"
        expected = _JSON_NAMES.get(kind, "a value")
        raise src.error(f"{what}: expected {expected}, found {found}", start, look_for,
                        found=found, expected=expected)
    return value


def _file_name(map_name: str) -> str:
    """The map file a game's ``"map"`` names: its file's name (``"maps/small.map"``:
    ``"small.map"``), or for a bare name, as the ``diplomacy`` package names its own maps
    (``"colonial"``), that name's ``.map`` file."""
    name = map_name.replace("\\", "/").rsplit("/", 1)[-1]
    return name if name.endswith((".map", ".variant")) else f"{name}.map"


def _played_on(src: _Source, start: int, map_name: Any, chosen: Variant | None) -> Variant:
    """The variant a game whose ``"map"`` is ``map_name`` is read on (see `read_records`)."""
    if not isinstance(map_name, str):
        found = type(map_name).__name__ if map_name is not None else "null"
        raise src.error(f"map: expected a variant's name (a string), found {found}", start, "map",
                        found=found, expected="a string")
    if chosen is not None:
        if map_name == chosen.name or (map_name not in VARIANTS and _file_name(map_name) == chosen.name):
            return chosen
        raise src.error(f"map {map_name!r}: the game was played on {map_name!r}, not on the variant "
                        f"given ({chosen.name!r})", start, map_name, found=map_name,
                        expected=repr(chosen.name))
    if map_name in VARIANTS:
        return variant(map_name)
    raise src.error(f"map {map_name!r}: not a variant dipsolve ships ({', '.join(VARIANTS)}); a game "
                    f"on a map file is read with that file (--variant PATH/{_file_name(map_name)}; in "
                    f"Python, read_records' variant=)", start, map_name, found=map_name,
                    expected="a shipped variant, or the game's map file given")


def _read_game(src: _Source, start: int, game: Any, chosen: Variant | None = None) -> Record:
    _expect(src, start, game, dict, "a saved game")
    if "phases" not in game:
        raise src.error("not a saved game: no \"phases\" (expected the diplomacy package's "
                        "saved-game format)", start, expected='"phases"')
    gid = game.get("id")
    gid = "" if gid is None else str(gid)
    map_name = game.get("map", "standard")
    played_on = _played_on(src, start, map_name, chosen)
    rules = game.get("rules") or []
    _expect(src, start, rules, list, "rules")
    phases_json = _expect(src, start, game["phases"], list, "phases")
    if not phases_json:
        raise src.error("a saved game with no phases", start, expected="at least one phase")
    m = played_on.map
    phases: list[RecordPhase] = []
    skipped: dict[str, list[str]] = {}          # what was skipped -> the phases
    for i, ph in enumerate(phases_json):
        phases.append(_read_phase(src, start, ph, i, phases, m, skipped))
    rules_read = tuple(str(r) for r in rules)
    warnings = tuple(what.replace("PHASES", f"{'phase' if len(names) == 1 else 'phases'} "
                                           f"{describe_names(names)}")
                     for what, names in skipped.items())
    players = _players(src, start, game, m)
    winners = _winners(phases_json[-1], m) if phases[-1].name == COMPLETED else ()
    return Record(gid, tuple(phases), map_name, rules_read,
                  Source(game, (gid, map_name, rules_read, players, winners)), players, winners,
                  warnings, played_on if chosen is not None else None)


def _players(src: _Source, start: int, game: dict[str, Any], m: Map) -> dict[str, str]:
    """Who played each power, where the game says (see the module's text)."""
    out: dict[str, str] = {}
    if game.get("players") is not None:
        for pname, who in _expect(src, start, game["players"], dict, "players", "players").items():
            name = who.get("name") if isinstance(who, dict) else who
            if not isinstance(name, str):
                raise src.error(f"players: {pname}: expected a name (a string, or an object with a "
                                f"\"name\")", start, pname, found=type(name).__name__, expected="a name")
            out[_power(src, start, pname, m)] = name
    elif isinstance(game.get("powers"), dict):     # the diplomacy package's power objects
        for pname, power in game["powers"].items():
            history = power.get("controller") if isinstance(power, dict) else None
            if not isinstance(history, dict):
                continue
            times = sorted(history, key=lambda t: (len(str(t)), str(t)))  # timestamps in order
            names = [history[t] for t in times if isinstance(history[t], str) and history[t] != "dummy"]
            if names:
                out[_power(src, start, pname, m)] = ", ".join(dict.fromkeys(names))
    return out


def _winners(last: Any, m: Map) -> tuple[str, ...]:
    """The winners a ``COMPLETED`` phase's note names (``"Victory by: ENG, FRA"``, the
    ``diplomacy`` package's: each power's first three letters, its token); none when the
    note says nothing this reader knows."""
    note = last.get("state", {}).get("note") if isinstance(last, dict) else None
    if not isinstance(note, str) or not note.startswith("Victory by:"):
        return ()
    by_abbr = {m.power_tokens.get(p, p.upper()[:3]): p for p in m.powers}
    named = [by_abbr.get(w.strip().upper(), by_abbr.get(w.strip().upper()[:3]))
             for w in note[len("Victory by:"):].split(",")]
    if not named or None in named:
        return ()
    return tuple(p for p in named if p is not None)


def _read_phase(src: _Source, start: int, ph: Any, index: int, before: list[RecordPhase],
                m: Map, skipped: dict[str, list[str]]) -> RecordPhase:
    _expect(src, start, ph, dict, f"phase {index + 1}")
    name = _expect(src, start, ph.get("name"), str, f"phase {index + 1}: name")
    state = _expect(src, start, ph.get("state"), dict, f"phase {name}: state", name)
    phase = _phase(src, start, name, before)
    units: list[Unit] = []
    stars: set[tuple[str, str, str]] = set()
    units_json = _expect(src, start, state.get("units", {}), dict, f"phase {name}: units", name)
    for pname, texts in units_json.items():
        power = _power(src, start, pname, m)
        for text in _expect(src, start, texts, list, f"phase {name}: units of {pname}", pname):
            if not isinstance(text, str):       # (the message is built only when needed)
                _expect(src, start, text, str, f"phase {name}: a unit of {pname}", pname)
            kind, loc = _unit(src, start, text.lstrip("*"), m, text)
            if text.startswith("*"):
                stars.add((power, kind, loc))
            else:
                units.append(Unit(power, kind, loc))
    dislodged: list[Dislodged] = []
    retreats = _expect(src, start, state.get("retreats", {}) or {}, dict, f"phase {name}: retreats", name)
    for pname, table in retreats.items():
        power = _power(src, start, pname, m)
        for text, options in _expect(src, start, table, dict, f"phase {name}: retreats of {pname}",
                                     pname).items():
            kind, loc = _unit(src, start, text, m, text)
            opts = _expect(src, start, options, list, f"phase {name}: retreats of {text}", text)
            locs = tuple(sorted({_location(src, start, o, m) for o in opts}))
            stars.discard((power, kind, loc))
            # kept even without a retreat (it can only disband): the peer never writes
            # one, but webDiplomacy and Meta's engine keep a retreat phase for it
            u = Unit(power, kind, loc)
            dislodged.append(Dislodged(u, _attacker_origin(u, before, m), locs))
    centers: dict[str, str] = {}
    for pname, provs in _expect(src, start, state.get("centers", {}), dict,
                                f"phase {name}: centers", name).items():
        power = _power(src, start, pname, m)
        for p in _expect(src, start, provs, list, f"phase {name}: centers of {pname}", pname):
            prov = _location(src, start, p, m)
            if prov not in m.centers:
                raise src.error(f"phase {name}: {prov} is not a supply center", start, p,
                                found=str(p), expected="a supply center")
            if centers.get(prov, power) != power:
                raise src.error(f"phase {name}: supply center {prov} owned by {centers[prov]} and {power}",
                                start, p, found=str(p), rule=True)
            centers[prov] = power
    standoffs = _standoffs(units, before, m) if dislodged else ()
    position = Position.build(phase, units, centers, dislodged, standoffs, game_map=m)
    problems = position.problems()
    if problems:
        msg, subject = problems[0]
        raise src.error(f"phase {name}: {msg}", start, name, rule=True)
    orders = _orders(src, start, ph.get("orders") or {}, name, m)
    results: dict[str, tuple[str, ...]] = {}
    for unit_text, codes in _expect(src, start, ph.get("results") or {}, dict,
                                    f"phase {name}: results", name).items():
        if not isinstance(codes, list):
            _expect(src, start, codes, list, f"phase {name}: results of {unit_text}", unit_text)
        results[str(unit_text)] = tuple(str(c) for c in codes)
    read = _messages(ph.get("messages") or [], name, skipped)
    return RecordPhase(name, position, orders, results, read, Source(ph, (name, position, orders, results, read)))


def _messages(value: Any, name: str, skipped: dict[str, list[str]]) -> tuple[tuple[str, str, str], ...]:
    """A phase's press: (sender, recipient, text) of each message object; what is in
    another shape is skipped and noted in ``skipped`` (what, with ``PHASES`` where the
    phases go -> the phases)."""
    def skip(what: str) -> None:
        phases = skipped.setdefault(what, [])
        if name not in phases:
            phases.append(name)
    if not isinstance(value, list):
        skip(f"the messages of PHASES skipped: expected a JSON list, found {_json_kind(value)}")
        return ()
    out = []
    for msg in value:
        if not isinstance(msg, dict):
            skip(f"messages of PHASES skipped: expected JSON objects, found {_json_kind(msg)}")
            continue
        out.append((str(msg.get("sender", "")), str(msg.get("recipient", "")), str(msg.get("message", ""))))
    return tuple(out)


def _json_kind(value: Any) -> str:
    """What a JSON value is, in words (``a string``, ``a JSON object``)."""
    kinds = {str: "a string", dict: "a JSON object", list: "a JSON list", bool: "true or false",
             int: "a number", float: "a number"}
    return "null" if value is None else kinds.get(type(value), type(value).__name__)


def _phase(src: _Source, start: int, name: str, before: list[RecordPhase]) -> Phase:
    if name == COMPLETED:
        # the board the game ended on: the last phase's own board when the game ended
        # without playing it (a draw), else the board after it
        if not before:
            raise src.error("a game that is COMPLETED before its first phase", start, name)
        last = before[-1]
        if not any(last.orders.values()):
            return last.position.phase
        return _after(last.position.phase)
    match = _PHASE_NAME.match(name)
    if match is None:
        raise src.error(f"unknown phase name {name!r} (expected e.g. S1901M, F1901R, W1901A or COMPLETED)",
                        start, name, found=name, expected="a phase name")
    season, year, kind = (g for g in match.groups() if g is not None)
    return Phase({"S": "Spring", "F": "Fall", "W": "Winter"}[season], int(year),
                 {"M": "movement", "R": "retreat", "A": "adjustment"}[kind])


def _after(phase: Phase) -> Phase:
    if phase.season == "Spring":
        return Phase("Fall", phase.year, "movement")
    if phase.season == "Fall":
        return Phase("Winter", phase.year, "adjustment")
    return Phase("Spring", phase.year + 1, "movement")


def _power(src: _Source, start: int, name: Any, m: Map) -> str:
    """A power as the peer writes it (``"FRANCE"``: upper case) on ``m``."""
    ours = m.memo.get("records.powers")
    if ours is None:
        ours = m.memo["records.powers"] = {p.upper(): p for p in m.powers}
    power = ours.get(str(name).upper())
    if power is None:
        raise src.error(f"unknown power {name!r} (expected one of {', '.join(ours)})", start,
                        name, found=str(name), expected="a power")
    return power


def _location(src: _Source, start: int, text: Any, m: Map) -> str:
    if type(text) is str and text in m.province_of:     # as the peer writes it
        return text
    loc = str(text).upper()
    if not isinstance(text, str) or loc not in m.province_of:
        raise src.error(f"unknown location {text!r}", start, text, found=str(text),
                        expected="a province or coast (PAR, STP/SC)")
    return loc


def _unit_texts(m: Map) -> dict[str, tuple[str, str]]:
    """``"A PAR"`` -> ``("A", "PAR")`` for every unit place of the map ``m`` as the peer
    writes it, made once a map (in `Map.memo`)."""
    table = m.memo.get("records.unit_texts")
    if table is None:
        table = m.memo["records.unit_texts"] = {f"{kind} {loc}": (kind, loc)
                                                for kind in ("A", "F") for loc in m.province_of}
    return table


def _unit(src: _Source, start: int, text: str, m: Map, look_for: str) -> tuple[str, str]:
    known = _unit_texts(m).get(text)
    if known is not None:
        return known
    parts = text.split()
    if len(parts) != 2 or parts[0].upper() not in ("A", "F"):
        raise src.error(f"not a unit: {text!r} (expected e.g. 'A PAR' or 'F STP/SC')", start, look_for,
                        found=text, expected="a unit")
    return parts[0].upper(), _location(src, start, parts[1], m)


def _parse_order(text: str, m: Map) -> Order:
    """An order as the peer writes it, on ``m``; each text read once a map (in `Map.memo`,
    at most 4,096 of them)."""
    read = m.memo.get("records.orders")
    if read is None:
        read = m.memo["records.orders"] = {}
    order = read.get(text)
    if order is None:
        from ..grammar import parse_order_line
        order = parse_order_line(text, m)[1]     # under its power's key: a "Power:" prefix adds nothing
        if len(read) < 4096:
            read[text] = order
    return order


def _orders(src: _Source, start: int, table: Any, name: str, m: Map) -> dict[str, tuple[Order, ...]]:
    out: dict[str, tuple[Order, ...]] = {}
    keys: dict[str, str] = {}
    for pname, texts in _expect(src, start, table, dict, f"phase {name}: orders", name).items():
        power = _power(src, start, pname, m)
        if power in keys:
            raise src.error(f"phase {name}: the orders of {power} are given twice, under "
                            f"{keys[power]!r} and {pname!r}", start, pname, found=str(pname),
                            expected=f"one list of orders for {power}")
        keys[power] = str(pname)
        if texts is None:
            continue
        given: list[Order] = []
        for text in _expect(src, start, texts, list, f"phase {name}: orders of {pname}", pname):
            if not isinstance(text, str):
                _expect(src, start, text, str, f"phase {name}: an order of {pname}", pname)
            try:
                given.append(_parse_order(text, m))
            except DipsolveError as e:
                raise src.error(f"phase {name}, {pname}: cannot read the order {text!r}: {e.message}",
                                start, text, found=text, expected=e.expected or "an order") from None
        out[power] = tuple(given)
    return out


def _attacker_origin(u: Unit, before: list[RecordPhase], m: Map) -> str | None:
    """Where the unit that dislodged ``u`` came from, as the movement phase before shows
    it: the successful move into its province (None if it came by convoy, as the
    peer's ``game.dislodged`` has it, or when the record does not show it)."""
    if not before or before[-1].position.phase.kind != "movement":
        return None
    prev = before[-1]
    po = m.province_of
    prov = po[u.location]
    for power, orders in prev.orders.items():
        for o in orders:
            if not isinstance(o, Move) or po.get(o.target) != prov:
                continue
            if prev.results.get(f"{o.kind} {o.location}", ()):
                continue          # bounced, void, dislodged: not the attacker
            mover = prev.position.unit_in.get(po.get(o.location, o.location))
            if mover is None or mover.location != o.location or mover.power != power:
                continue
            if o.kind == "A" and _convoyed(o, prev, m):
                return None
            return po[o.location]
    return None


def _standoffs(units: list[Unit], before: list[RecordPhase], m: Map) -> tuple[str, ...]:
    """The provinces left empty by a standoff in the movement phase before (a retreat
    phase's): targets of bounced moves where no unit stands now."""
    if not before or before[-1].position.phase.kind != "movement":
        return ()
    prev = before[-1]
    po = m.province_of
    occupied = {po[u.location] for u in units}
    moves = [o for orders in prev.orders.values() for o in orders
             if isinstance(o, Move) and o.target in po and o.location in po]
    # a move that lost a head-to-head battle is no standoff (the winner left its target)
    won = {(po[o.location], po[o.target]) for o in moves
           if not prev.results.get(f"{o.kind} {o.location}", ())}
    return tuple(sorted({po[o.target] for o in moves
                         if po[o.target] not in occupied
                         and "bounce" in prev.results.get(f"{o.kind} {o.location}", ())
                         and (po[o.target], po[o.location]) not in won}))


def _convoyed(move: Move, prev: RecordPhase, m: Map) -> bool:
    """Whether the peer moved the army by convoy: ``VIA``, no land route, or a chain of
    fleets ordered to convoy it (and not dislodged) from its origin to its target."""
    if move.via_convoy or not m.can_move("A", move.location, move.target):
        return True
    po = m.province_of
    fleets = set()
    for orders in prev.orders.values():
        for o in orders:
            if (isinstance(o, Convoy) and o.convoyed_location == move.location and o.target == move.target
                    and "dislodged" not in prev.results.get(f"F {o.location}", ())):
                fleets.add(po[o.location])
    if not fleets:
        return False
    return sea_route(m, po[move.location], po[move.target], fleets)


def board_differences(ours: Position, theirs: Position, compare_phase: bool = True, *,
                      names: tuple[str, str] = ("dipsolve", "the record")) -> list[str]:
    """The differences between two boards of the same moment, one line each (empty when
    they agree): the phase, units, dislodged units with their retreat options, center
    owners.  ``names`` says whose each board is (dipsolve's adjudication and the record's,
    or the peer's)."""
    a_name, b_name = names
    out: list[str] = []
    if compare_phase and ours.phase != theirs.phase:
        out.append(f"phase: {a_name} {ours.phase.short}, {b_name} {theirs.phase.short}")
    a, b = set(ours.units), set(theirs.units)
    out += [f"unit only in {a_name}: {u.power} {u}" for u in sorted(a - b)]
    out += [f"unit only in {b_name}: {u.power} {u}" for u in sorted(b - a)]
    ra = {d.unit: tuple(sorted(d.retreats)) for d in ours.dislodged}
    rb = {d.unit: tuple(sorted(d.retreats)) for d in theirs.dislodged}
    for u in sorted(set(ra) | set(rb)):
        if ra.get(u) != rb.get(u):
            out.append(f"retreats of {u.power} {u}: {a_name} {_retreats_text(u, ours, ra)}; "
                       f"{b_name} {_retreats_text(u, theirs, rb)}")
    ca, cb = ours.owner, theirs.owner
    for c in sorted(set(ca) | set(cb)):
        if ca.get(c) != cb.get(c):
            out.append(f"center {c}: {a_name} {ca.get(c)}, {b_name} {cb.get(c)}")
    return out


def _retreats_text(unit: Unit, board: Position, retreats: Mapping[Unit, tuple[str, ...]]) -> str:
    """What a board says of a unit's retreat, for `board_differences`: its options, or
    that it is dislodged with none (it can only disband), not dislodged, or not there."""
    if unit in retreats:
        return " ".join(retreats[unit]) or "(dislodged, no retreat open: it can only disband)"
    return "(not dislodged)" if unit in board.units else "(not on the board)"


# -- writing --------------------------------------------------------------------------------

def result_codes(outcome: Any) -> dict[str, list[str]]:
    """The peer's result codes of an `Outcome`, per unit (``{"A PAR": ["bounce"]}``)."""
    from ..core.rules import Reason
    codes = {Reason.BOUNCED: "bounce", Reason.DISLODGED: "dislodged", Reason.CUT: "cut",
             Reason.VOID: "void", Reason.NO_CONVOY: "no convoy", Reason.DISRUPTED: "disrupted",
             Reason.RETREAT_BOUNCED: "bounce", Reason.DISBANDED: "disband",
             Reason.DESTROYED: "disband", Reason.ILLEGAL: "void"}
    out: dict[str, list[str]] = {}
    kind = outcome.position.phase.kind
    for r in outcome.results:
        loc = getattr(r.order, "location", None)
        if loc is None:
            continue
        key = f"{r.order.kind} {loc}"
        code = codes.get(r.reason)
        entry = out.setdefault(key, [])
        if code and code not in entry:
            entry.append(code)
        if kind == "movement" and "dislodged by" in r.detail and "dislodged" not in entry:
            entry.append("dislodged")
    if kind == "movement":
        for u in outcome.destroyed:
            entry = out.setdefault(f"{u.kind} {u.location}", [])
            if "dislodged" not in entry:
                entry.append("dislodged")
    return out


def _state(position: Position, name: str, influence: Mapping[str, set[str]], note: str = "") -> dict[str, Any]:
    m = position.map
    units = {p.upper(): [f"{u.kind} {u.location}" for u in position.units_of(p)] for p in m.powers}
    retreats: dict[str, dict[str, list[str]]] = {p.upper(): {} for p in m.powers}
    for d in position.dislodged:
        units[d.unit.power.upper()].append(f"*{d.unit.kind} {d.unit.location}")
        retreats[d.unit.power.upper()][f"{d.unit.kind} {d.unit.location}"] = list(written_retreats(m, d))
    builds: dict[str, dict[str, Any]] = {}
    for p in m.powers:
        count = position.adjustment(p) if position.phase.kind == "adjustment" else 0
        homes: list[str] = []
        if count > 0:
            homes = position.buildable(p)
            count = min(count, len(homes))
        builds[p.upper()] = {"count": count, "homes": homes}
    return {"timestamp": 0, "zobrist_hash": "0", "note": note, "name": name, "units": units,
            "retreats": retreats,
            "centers": {p.upper(): position.centers_of(p) for p in m.powers},
            "homes": {p.upper(): sorted(m.homes.get(p, ())) for p in m.powers},
            "influence": {p.upper(): sorted(influence.get(p, ())) for p in m.powers},
            "civil_disorder": {p.upper(): 0 for p in m.powers}, "builds": builds}


def _influence(position: Position, before: Mapping[str, set[str]]) -> dict[str, set[str]]:
    """Each power's influence (the peer's: the provinces it last occupied or owns)."""
    m = position.map
    po = m.province_of
    now = {p: set(before.get(p, ())) for p in m.powers}
    for u in position.units:
        prov = po[u.location]
        for p in m.powers:
            now[p].discard(prov)
        now[u.power].add(prov)
    return now


def _game_json(record: Record) -> dict[str, Any]:
    phases = []
    powers = record.phases[0].position.map.powers
    influence: dict[str, set[str]] = {p: set(record.phases[0].position.centers_of(p)) for p in powers}
    game_unchanged = record.source is not None and record.source.unchanged(
        record.id, record.map, record.rules, record.players, record.winners)
    for ph in record.phases:
        influence = _influence(ph.position, influence)
        # (a COMPLETED phase's note names the winners: written from the values when they changed)
        if ph.source is not None and ph.source.unchanged(ph.name, ph.position, ph.orders, ph.results,
                                                         ph.messages) and (ph.name != COMPLETED or game_unchanged):
            phases.append(ph.source.raw)         # as the file wrote it: its timestamps, hash, order
            continue
        tokens = ph.position.map.power_tokens
        note = ("Victory by: " + ", ".join(tokens.get(w, w.upper()[:3]) for w in record.winners)
                if ph.name == COMPLETED and record.winners else "")
        state = _state(ph.position, ph.name, influence, note)
        state.update(game_id=record.id, map=record.map, rules=list(record.rules))
        phases.append({"name": ph.name, "state": state,
                       "orders": {p.upper(): [str(o) for o in ph.orders[p]] for p in powers if p in ph.orders},
                       "results": {k: list(v) for k, v in ph.results.items()},
                       "messages": [{"sender": a, "recipient": b, "message": m, "phase": ph.name}
                                    for a, b, m in ph.messages]})
    if game_unchanged:
        assert record.source is not None
        return {**record.source.raw, "phases": phases}
    players = {"players": {p.upper(): record.players[p] for p in powers if p in record.players}} \
        if record.players else {}
    return {"id": record.id, "map": record.map, "rules": list(record.rules), **players, "phases": phases}


def dumps_records(records: Iterable[Record]) -> str:
    """The games as JSON lines (one game a line: the peer's `load_saved_games_from_disk` reads it)."""
    return "".join(json.dumps(r.to_json(), separators=(",", ":")) + "\n" for r in records)


def replay(start: Position, phases: Iterable[Mapping[str, Iterable[Order]]], *, id: str = "dipsolve",
           rules: Iterable[str] = ("NO_PRESS",)) -> Record:
    """The record of a game played from ``start`` with these orders, phase after phase
    (each adjudicated by `dipsolve.adjudicate`), ending on the board they lead to."""
    from ..core.adjudicator import adjudicate
    out: list[RecordPhase] = []
    position = start
    for orders in phases:
        given = {p: tuple(os) for p, os in orders.items()}
        outcome = adjudicate(position, given)
        results = {k: tuple(v) for k, v in result_codes(outcome).items()}
        out.append(RecordPhase(position.phase.short, position, given, results))
        position = outcome.next
    out.append(RecordPhase(position.phase.short, position))
    return Record(id, tuple(out), start.map.name or "standard", tuple(rules))


def iter_positions(record: Record) -> Iterator[tuple[RecordPhase, RecordPhase | None]]:
    """Each phase with the one after it (None after the last)."""
    for i, ph in enumerate(record.phases):
        yield ph, record.phases[i + 1] if i + 1 < len(record.phases) else None
