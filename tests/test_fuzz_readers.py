"""Fuzzing every reader: arbitrary and mutated input gives an answer or the project's error.

Each reader of `READERS` (positions in ``.dip`` and DAIDE ``NOW``/``SCO``, orders in the
three notations, one DAIDE order, phases, press at every level and in DPP, values files,
plan JSON, saved-game records, a path's known defence, map files of the ``diplomacy``
package's format, variant files and dipsolve's declared maps (each error placed in its
file, each variant read starting on a board that reads back); and the bytes a DAIDE
server sends) is handed arbitrary
text and mutations of valid examples (characters flipped, spans deleted or duplicated,
brackets nested far past ``max_nesting``, numbers of thousands of digits, ``1e400``,
``NaN``), and must answer or raise a `DipsolveError`
(whose message and JSON form must themselves be made without error): never another
exception, and never a hang (each example is under Hypothesis's deadline).

The default run tries `FEW` examples a reader; ``--hypothesis-profile=long`` (see
``tests/conftest.py`` and CONTRIBUTING.md) tries 20,000.  The round-trip properties of
the readers stay beside them (test_orders_grammar.py, test_press.py, ...); the tests
that only fed them noise live here.
"""

from __future__ import annotations

import json
import string
from datetime import timedelta
from functools import cache
from pathlib import Path
from typing import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dipsolve.core.errors import DipsolveError
from dipsolve.grammar import format_order, parse_orders, parse_position_text
from dipsolve.grammar.daide_order import parse_daide_order
from dipsolve.grammar.levels import LEVELS
from dipsolve.grammar.orders import parse_order_line
from dipsolve.grammar.press import parse_press

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

#: examples a reader tries in the default run (the long profile sets its own)
FEW = 100


def fuzz_settings(examples: int = FEW) -> settings:
    """The settings of a fuzz test: ``examples`` in the default run, the profile's under
    ``--hypothesis-profile=long``; a deadline for every example (a reader that hangs
    fails), generous enough for a machine shared with other work."""
    long = settings.default.max_examples > 1000
    count = settings.default.max_examples if long else examples
    return settings(max_examples=count,
                    deadline=timedelta(seconds=10),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


# -- the valid examples mutated ------------------------------------------------------------

@cache
def _dip_examples() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(EXAMPLES.glob("*.dip"))] + \
        [(EXAMPLES / "adjustments" / "trieste.dip").read_text(encoding="utf-8")]


_DAIDE_POSITIONS = [
    "NOW ( SPR 1901 ) ( AUS AMY BUD ) ( AUS AMY VIE ) ( AUS FLT TRI ) ( RUS FLT ( STP SCS ) )\n"
    "SCO ( AUS BUD TRI VIE ) ( RUS STP ) ( UNO SER )",
    "SCO ( FRA BRE MAR PAR ) NOW ( AUT 1902 ) ( FRA AMY PAR MRT ( BUR GAS ) ) ( GER AMY BUR )",
    "NOW ( WIN 1901 ) ( ENG FLT LON )",
]


@cache
def _orders_examples(notation: str) -> list[str]:
    """The ``[orders]`` of the example positions, in ``notation``, one a line."""
    out = []
    for text in _dip_examples():
        _, orders = parse_position_text(text)
        lines = [format_order(o, p, notation) for p, os in orders.items() for o in os]
        if lines:
            out.append("\n".join(lines) + "\n")
    return out


@cache
def _press_examples(dialect: str) -> list[str]:
    cases = [json.loads(line) for line in
             (ROOT / "tests" / "data" / "press_cases.jsonl").read_text(encoding="utf-8").splitlines()]
    return [c["text"] for c in cases if c["dialect"] == dialect and c["valid"]]


_PLANS = [
    json.dumps({"power": "Germany", "plan": [
        {"phase": "S1901M", "orders": ["A BER - KIE", "F KIE - DEN", "A MUN - RUH"]},
        {"phase": "F1901M", "orders": {"Germany": ["A KIE - HOL", "A RUH - BEL"]}},
        {"phase": "W1901A", "orders": [{"power": "Germany", "order": "A BER B"}]}]}, indent=1),
    '[{"phase": "Spring 1901 Movement", "orders": ["France: A PAR - BUR"]}]',
]

@cache
def _record_examples() -> list[str]:
    """Saved games (the diplomacy package's JSON): the 1901 openings replayed, as one
    object and as JSON lines of two; and a game with DAIDE press (docs/press.md's)."""
    from dipsolve.grammar import parse_position_text
    from dipsolve.core.position import Position
    from dipsolve.io.records import dumps_records, replay
    _, spring = parse_position_text((EXAMPLES / "start.dip").read_text(encoding="utf-8"))
    one = replay(Position.initial(), [spring, {}], id="fuzz")
    press = ROOT / "tests" / "data" / "doc_commands" / "agreements.json"
    return [dumps_records([one]), dumps_records([one, replay(Position.initial(), [{}], id="two")]),
            press.read_text(encoding="utf-8")]


_VALUES = [(EXAMPLES / "solve" / "turkey-1901.values").read_text(encoding="utf-8"),
           "power: FRA\ndefault: 10\nParis = 100\nBurgundy: 55.5\n# a comment\nMAR 1e3\n"]

#: what a mutation inserts: noise, brackets, numbers past every bound, names and keywords
_PIECES = (list(string.printable) + ["é", "\x00", "\ufeff", "\r\n", "ø", "١٩٠١", "->", "(", ")",
           "[", "]", "{", "}", '"', "'", "VIA", " S ", "/NC", "PRP", "AND", "NOW", "SCO",
           "phase:", "units:", "[orders]", "1e400", "-1e400", "NaN", "Infinity", "-0", "1901",
           "0", "99999", "S99999M", ":", ","])


@st.composite
def _mutation(draw, text: str) -> str:
    """``text`` with 1 to 4 edits: a character flipped, a span deleted or duplicated, a
    span nested in brackets (up to 3,000 deep), a number of up to 6,000 digits, a piece
    inserted."""
    for _ in range(draw(st.integers(1, 4))):
        n = len(text)
        at = draw(st.integers(0, n))
        span = draw(st.integers(0, 40))
        how = draw(st.sampled_from(["flip", "delete", "duplicate", "nest", "number", "insert"]))
        if how == "flip" and n:
            i = min(at, n - 1)
            text = text[:i] + draw(st.sampled_from(_PIECES)) + text[i + 1:]
        elif how == "delete":
            text = text[:at] + text[at + span:]
        elif how == "duplicate":
            to = draw(st.integers(0, n))
            text = text[:to] + text[at:at + span] + text[to:]
        elif how == "nest":
            depth = draw(st.sampled_from([2, 63, 64, 65, 200, 3000]))
            left, right = draw(st.sampled_from([("(", ")"), ("[", "]"), ("{", "}"),
                                                ("AND (", ") (PCE (ENG FRA))")]))
            text = text[:at] + left * depth + text[at:at + span] + right * depth + text[at + span:]
        elif how == "number":
            digits = draw(st.sampled_from([1, 4, 5, 20, 21, 400, 4301, 6000]))
            text = text[:at] + draw(st.sampled_from("-9")).lstrip("9") + "9" * digits + text[at:]
        else:
            text = text[:at] + draw(st.sampled_from(_PIECES) | st.text(max_size=8)) + text[at:]
    return text


def inputs(examples: list[str]) -> st.SearchStrategy[str]:
    """Arbitrary text, a valid example mutated, or a soup of the examples' words."""
    words = sorted({w for text in examples for w in text.replace("(", " ( ").replace(")", " ) ").split()})
    soup = st.lists(st.sampled_from(words) | st.sampled_from(_PIECES), max_size=16)
    return st.one_of(st.text(max_size=80),
                     st.sampled_from(examples).flatmap(_mutation),
                     soup.map(" ".join), soup.map("".join))


# -- the readers ---------------------------------------------------------------------------

def _read_position(text: str) -> object:
    return parse_position_text(text, "<fuzz>")


def _read_orders(text: str) -> object:
    """An orders file alone, then against the 1901 start (where most orders of the
    examples are for units that are not there: a `DipsolveRuleError` each)."""
    from dipsolve.core.position import Position
    orders = parse_orders(text, "<fuzz>")
    try:
        parse_orders(text, "<fuzz>", position=Position.initial())
    except DipsolveError as e:
        assert str(e) and json.dumps(e.to_json())
    return orders


def _read_order_lines(text: str) -> object:
    for line in text.splitlines()[:20]:
        try:
            parse_order_line(line)
        except DipsolveError:
            pass
    return parse_orders(text)


def _read_press(dialect: str) -> Callable[[str], object]:
    def read(text: str, level: int = max(LEVELS)) -> object:
        try:
            press = parse_press(text, level=level, dialect=dialect, source="<fuzz>")
        except DipsolveError as e:
            # the text's fault is placed in it; the level's (press_levels) is not
            assert (e.line is not None and e.column is not None) or getattr(e, "limit", None) \
                == "press_levels", e
            raise
        press.english(), press.pretty(), press.to_json(), press.orders()
        # what was read reads back the same from its canonical form
        assert parse_press(press.canonical, level=level, dialect=dialect) == press
        return press
    return read


def _read_values(text: str) -> object:
    from dipsolve.algorithms.evaluation import parse_values
    return parse_values(text, "<fuzz>")


def _read_plan(text: str) -> object:
    from dipsolve.cli.render import parse_plan
    return parse_plan(text, "<fuzz>")


def _read_records(text: str) -> object:
    from dipsolve.io.records import read_records
    return read_records(text, "<fuzz>")


def _read_results(text: str) -> object:
    from dipsolve.execution.journal import read_results
    return read_results(text, "<fuzz>", {"command": "batch", "task": "adjudicate"})


def _results_examples() -> list[str]:
    head = json.dumps({"dipsolve": "results", "run": {"command": "batch", "task": "adjudicate"}})
    return [head + "\n", "\n".join([head, json.dumps({"id": "a.dip", "status": "ok", "result": {}}),
                                     json.dumps({"id": "a.dip", "status": "failed", "attempts": 2}),
                                     json.dumps({"id": "x:3", "status": "error", "error": {}})]) + "\n"]


def _read_position_lines(text: str) -> object:
    from dipsolve.cli.batch import _position_lines, run_job
    settings = {"task": "adjudicate", "power": None, "time_limit": 1.0}
    return [run_job((settings, item)) for _, item in _position_lines(text, "<fuzz>") or []]


def _position_lines_examples() -> list[str]:
    start = (EXAMPLES / "start.dip").read_text(encoding="utf-8")
    return [json.dumps({"id": "opening", "position": start, "orders": "France: A PAR - BUR"}) + "\n"
            + json.dumps({"position": start}) + "\n"]


@cache
def _defence_start() -> object:
    from dipsolve.io.records import load_records
    record = load_records(str(EXAMPLES / "records" / "meta-game_443831_GERMANY_EI.json"))[0]
    return next(p.position for p in record.phases if p.position.phase.short == "F1908M")


def _read_defence(text: str) -> object:
    from dipsolve.models.path_defence import read_defence
    return read_defence(text, "<fuzz>", _defence_start(), "England")  # type: ignore[arg-type]


def _read_phase(text: str) -> object:
    from dipsolve.core.position import Phase
    return Phase.parse(text)


# -- map and variant files (``--variant FILE``) ---------------------------------------------

DATA = ROOT / "solver" / "data"

#: a map file of the ``diplomacy`` package's format that uses another (isles.map, "beside"
#: it) and amends it: AMEND, DROP, UNPLAYED, HOME, INHABITS, UNITS, RULE, several VICTORY
_MAP_AMENDED = """\
USE isles.map
RULE NO_PRESS
VICTORY 4 3
BEGIN FALL 1903 MOVEMENT
AMEND MID ABUTS -cap
AMEND cap ABUTS -MID
DROP ISL
UNOWNED MID CAP
AMBER (AMBERITE) NOR
INHABITS POR
UNITS
A POR
COBALT (COBALTIAN) HAR SOU
UNITS
A HAR
GREY (GREYISH) MID
A MID
UNPLAYED GREY
"""


def _map_beside(name: str) -> tuple[str, str]:
    """The one file beside a fuzzed map file: examples/variants/isles.map."""
    from dipsolve.core.variant import VariantError
    if name != "isles.map":
        raise VariantError(f"cannot read the file {name!r} it names: no such file")
    return (EXAMPLES / "variants" / "isles.map").read_text(encoding="utf-8"), "isles.map"


def _read_variant_text(name: str) -> str:
    """The map a fuzzed variant file names: one of the shipped ones' files."""
    from dipsolve.core.variant import VariantError
    if name not in ("standard.map", "pure.map", "ancmed.map"):
        raise VariantError(f"cannot read the file {name!r} it names: no such file")
    return (DATA / name).read_text(encoding="utf-8")


#: the errors that name no line: what a whole file lacks
_FILE_LEVEL = ("no locations", "no powers", "no map line", "no name", "no powers,", "no start",
               "no victory", "no seasons")


def _a_start_that_reads_back(v: object) -> object:
    """What the readers' checks promise of a variant read: its start is a position that
    reads back as itself, and adjudicates (every unit holding)."""
    from dipsolve.core.adjudicator import adjudicate
    from dipsolve.core.errors import DipsolveError
    from dipsolve.core.position import Position
    try:
        start = Position.initial(v)      # type: ignore[arg-type]
    except DipsolveError as e:
        raise AssertionError(f"a variant read whose start is refused: {e}") from None
    assert Position.from_text(start.to_text(), game_map=start.map) == start
    adjudicate(start, {})
    return v


def _placed(read: Callable[[str], object]) -> Callable[[str], object]:
    """``read``, whose every error names the file, and its line unless it is about what
    the whole file lacks."""
    def placed(text: str) -> object:
        try:
            return _a_start_that_reads_back(read(text))
        except DipsolveError as e:
            assert e.filename is not None, e
            assert e.line is not None or e.message.startswith(_FILE_LEVEL), e
            raise
    return placed


def _read_map_file(text: str) -> object:
    from dipsolve.core.map_file import parse_map_file
    return parse_map_file(text, "<fuzz>", _map_beside)


def _read_variant_file(text: str) -> object:
    from dipsolve.core.variant import read_variant
    return read_variant(text, "<fuzz>", _read_variant_text)


def _read_declared_map(text: str) -> object:
    """A declared map (``data/pure.map``'s format) as the standard game's powers' map."""
    from dipsolve.core.map import POWERS, read_declared_map
    from dipsolve.core.variant import Variant
    m = read_declared_map(text, POWERS, filename="<fuzz>")
    units = tuple((p, "A", h) for p in POWERS for h in sorted(m.homes.get(p, ()))[:1]
                  if m.can_stand("A", h))
    return Variant("<fuzz>", m, POWERS, "S1901M", units, max(1, len(m.centers)), ("Spring", "Fall", "Winter"))


def _variant_examples() -> list[str]:
    return [(DATA / f"{name}.variant").read_text(encoding="utf-8") for name in ("pure", "ancmed", "standard")]


def _hear_press(text: str) -> object:
    """A negotiating seat (`dipsolve.play.negotiation.Negotiator`) hearing a peer's press,
    its answers each valid press at level 30 (a hostile peer gets no traceback)."""
    from dipsolve.core.position import Position
    from dipsolve.play.negotiation import Negotiator
    seat = Negotiator("Germany")
    replies = seat.hear("S1901M", "France", ["Germany"], text, Position.initial())
    assert all(seat.write(to, body, "SPR 1901") is not None for to, body in replies), replies
    return replies


_HEARD = ["PRP (PCE (FRA GER))", "FRM (FRA) (GER) (PRP (DMZ (FRA GER) (BUR)))", "PRP (ALY (FRA GER) VSS (RUS))",
          "PRP (XDO ((GER AMY MUN) SUP (FRA AMY PAR) MTO BUR))", "YES (PRP (PCE (FRA GER)))",
          "PRP (AND (PCE (FRA GER)) (DMZ (FRA GER) (BUR RUH)))", "CCL (PRP (PCE (FRA GER)))"]


#: reader name -> (the reader, its valid examples)
READERS: dict[str, tuple[Callable[[str], object], Callable[[], list[str]]]] = {
    "position-dip": (_read_position, _dip_examples),
    "position-daide": (_read_position, lambda: _DAIDE_POSITIONS),
    "orders-short": (_read_orders, lambda: _orders_examples("short")),
    "orders-long": (_read_orders, lambda: _orders_examples("long")),
    "orders-daide": (_read_orders, lambda: _orders_examples("daide")),
    "order-lines": (_read_order_lines, lambda: _orders_examples("short") + _orders_examples("daide")),
    "daide-order": (parse_daide_order, lambda: ["( FRA AMY PAR ) MTO BUR",
                                                "( ENG FLT NTH ) CVY ( ENG AMY LON ) CTO NWY",
                                                "( RUS FLT STP ) BLD", "FRA WVE"]),
    "press-daide": (_read_press("daide"), lambda: _press_examples("daide")),
    "press-dpp": (_read_press("dpp"), lambda: _press_examples("dpp")),
    "press-heard": (_hear_press, lambda: _HEARD),
    "values": (_read_values, lambda: _VALUES),
    "plan-json": (_read_plan, lambda: _PLANS),
    "records": (_read_records, _record_examples),
    "results-file": (_read_results, _results_examples),
    "batch-positions": (_read_position_lines, _position_lines_examples),
    "path-defence": (_read_defence, lambda: [(EXAMPLES / "path" / "defence-france-1909.txt")
                                             .read_text(encoding="utf-8")]),
    "phase": (_read_phase, lambda: ["S1901M", "Spring 1901 Movement", "W1999A", "Fall 1905 Retreats"]),
    "map-file": (_placed(_read_map_file), lambda: [(EXAMPLES / "variants" / "isles.map").read_text(encoding="utf-8"),
                                                  _MAP_AMENDED]),
    "variant-file": (_placed(_read_variant_file), _variant_examples),
    "declared-map": (_placed(_read_declared_map), lambda: [(DATA / f"{name}.map").read_text(encoding="utf-8")
                                                          for name in ("pure", "standard")]),
}


def _only_our_errors(read: Callable[..., object], *args: object) -> None:
    try:
        read(*args)
    except DipsolveError as e:
        assert str(e) and json.dumps(e.to_json())      # the error itself is whole


@pytest.mark.parametrize("name", READERS)
def test_examples_are_read(name):
    """The examples the mutations start from are valid (so that a mutation is near
    the language, not far off it)."""
    read, examples = READERS[name]
    for text in examples():
        read(text)


@pytest.mark.parametrize("name", READERS)
@fuzz_settings()
@given(data=st.data())
def test_a_reader_answers_or_raises_the_projects_error(name, data):
    read, examples = READERS[name]
    _only_our_errors(read, data.draw(inputs(examples()), label="text"))


@fuzz_settings()
@given(text=inputs(_press_examples("daide")),
       level=st.sampled_from(LEVELS) | st.integers(-5, 9000) | st.integers(-10**30, 10**30))
def test_press_at_every_level_answers_or_raises_the_projects_error(text, level):
    _only_our_errors(_read_press("daide"), text, level)


# -- DAIDE messages from a server (bytes on the wire) ------------------------------------------

@cache
def _wire_examples() -> list[bytes]:
    """Frames a server sends: an RM (the standard map), DMs of a turn, a board, press."""
    from dipsolve.play.daide.wire import DM, RM, TokenTable, frame
    table = TokenTable.from_rm(b"")
    texts = ["HLO ( FRA ) ( 1234 ) ( ( LVL 20 ) ( MTL 600 ) )", _DAIDE_POSITIONS[0].replace("\n", " "),
             "NOW ( SPR 1901 ) ( AUS AMY BUD ) ( RUS FLT ( STP SCS ) )",
             "THX ( ( FRA AMY PAR ) MTO BUR ) ( MBV )", "MIS ( 3 )", "FRM ( ENG ) ( FRA ) ( PRP ( PCE ( ENG FRA ) ) )"]
    return [frame(RM, b"") + b"".join(frame(DM, table.encode(t)) for t in texts)]


@st.composite
def _bytes_mutation(draw, data: bytes) -> bytes:
    """``data`` with 1 to 4 edits: a byte flipped, a span deleted or duplicated."""
    for _ in range(draw(st.integers(1, 4))):
        n = len(data)
        at = draw(st.integers(0, n))
        span = draw(st.integers(0, 24))
        how = draw(st.sampled_from(["flip", "delete", "duplicate", "insert"]))
        if how == "flip" and n:
            i = min(at, n - 1)
            data = data[:i] + bytes([draw(st.integers(0, 255))]) + data[i + 1:]
        elif how == "delete":
            data = data[:at] + data[at + span:]
        elif how == "duplicate":
            to = draw(st.integers(0, n))
            data = data[:to] + data[at:at + span] + data[to:]
        else:
            data = data[:at] + draw(st.binary(max_size=8)) + data[at:]
    return data


def _read_wire(data: bytes) -> None:
    """What the client does with bytes from a server: frames cut and checked, the token
    table an RM gives, each DM decoded to text, its tree, a board read; and the text
    encoded back."""
    from dipsolve.play.daide.client import parse_tree
    from dipsolve.play.daide.wire import DM, RM, TokenTable, parse_frames
    messages, _ = parse_frames(data)
    table = TokenTable.from_rm(b"")
    for m in messages:
        if m.type == RM:
            table = TokenTable.from_rm(m.body)
        elif m.type == DM:
            text = table.decode(m.body)
            parse_tree(text)
            table.encode(text)
            if text.startswith(("NOW", "SCO")):
                parse_position_text(text, "<server>")


def test_the_wire_examples_are_read():
    for data in _wire_examples():
        _read_wire(data)


@fuzz_settings()
@given(data=st.binary(max_size=200) | st.sampled_from(_wire_examples()).flatmap(_bytes_mutation))
def test_daide_messages_from_a_server_answer_or_raise_the_projects_error(data):
    _only_our_errors(_read_wire, data)


# -- the DAIDE client's inputs: whole sessions of (mutated) server messages -------------------

_SESSION = [
    "YES ( NME ( 'dipsolve' ) ( '0.1' ) )", "MAP ( 'standard' )",
    "MDF ( AUS ENG FRA GER ITA RUS TUR ) ( ( ( AUS BUD TRI VIE ) ) ( ADR ) ) ( ( ADR ( FLT ALB ) ) )",
    "HLO ( FRA ) ( 1234 ) ( ( LVL 0 ) ( MTL 30 ) )",
    "SCO ( AUS BUD TRI VIE ) ( FRA BRE MAR PAR ) ( UNO BEL SPA )",
    "NOW ( SPR 1901 ) ( FRA FLT BRE ) ( FRA AMY MAR ) ( FRA AMY PAR ) ( GER AMY MUN )",
    "THX ( ( FRA AMY PAR ) MTO BUR ) ( FAR )", "MIS ( FRA AMY PAR )",
    "ORD ( SPR 1901 ) ( ( FRA AMY PAR ) MTO BUR ) ( SUC )",
    "ORD ( SPR 1901 ) ( ( GER AMY MUN ) MTO BUR ) ( BNC )",
    "NOW ( SUM 1901 ) ( FRA AMY BUR MRT ( PAR GAS ) ) ( GER AMY BUR )",
    "HUH ( 'x' )", "REJ ( SUB )", "TME ( 5 )", "CCD ( GER )", "DRW",
    "SMR ( SPR 1901 ) ( FRA ( 'dipsolve' ) ( '0.1' ) 3 ) ( GER ( 'b' ) ( '1' ) 3 1902 )",
    "SLO ( FRA )", "OFF",
]


class _Scripted:
    """A DAIDE connection without a socket: the messages given, then the server gone."""

    def __init__(self, bodies: list[bytes]) -> None:
        from dipsolve.play.daide.wire import DM, RM
        self.messages = [(RM, b"")] + [(DM, b) for b in bodies]
        self.closed = False

    def send(self, kind: int, body: bytes = b"") -> None:
        from dipsolve.play.daide.wire import DaideConnectionError
        if self.closed:
            raise DaideConnectionError("the connection is closed")

    def receive(self):
        from dipsolve.play.daide.wire import DaideConnectionError, Message
        if not self.messages:
            self.closed = True
            raise DaideConnectionError("the server closed the connection")
        return Message(*self.messages.pop(0))

    def poll(self):
        from dipsolve.play.daide.wire import Message
        return [Message(k, b) for k, b in self.messages]

    def close(self) -> None:
        self.closed = True


def _read_session(text: str) -> object:
    """A game as the client plays it: each line a message from the server (the lines
    that are no DAIDE tokens dropped), played by a random bot; what the client says and
    logs is checked to be escaped and short."""
    from dipsolve.play.registry import make_bot
    from dipsolve.play.daide.client import LOG_LENGTH, DaideSession
    from dipsolve.core.results import Limits
    from dipsolve.play.daide.wire import TokenTable
    table = TokenTable.from_rm(b"")
    bodies = []
    for line in text.split("\n")[:40]:
        try:
            bodies.append(table.encode(line))
        except DipsolveError:
            continue
    said: list[str] = []

    def say(t: str) -> None:
        said.append(t)

    def log(direction: str, t: str) -> None:
        said.append(t)

    session = DaideSession(_Scripted(bodies), make_bot("random"), limits=Limits(time_limit=0.05),  # type: ignore[arg-type]
                           say=say, log=log)
    try:
        return session.run()
    finally:
        for t in said:
            assert t.isprintable() and len(t) <= LOG_LENGTH + 40, t


READERS["daide-session"] = (_read_session, lambda: ["\n".join(_SESSION)])


# -- the order reader's worst cases: long runs of words, lines about the bound -------------------

_RUN_WORDS = ["BUR", "bur", "X", "Paris", "-", "S", "A", "F", "St.", "(", "nc", "\u0410", "PAR/NC", "via"]


@st.composite
def _worst_orders(draw) -> str:
    """An order followed (or interrupted) by a run of one word, 1 to 30,000 times: the
    recovery and the name suggestions must stay linear, an order past max_order_length is
    refused before its line is read."""
    from dipsolve.core.bounds import LIMITS
    head = draw(st.sampled_from(["A PAR - BUR", "France: A PAR -", "A", "F NTH C A LON -",
                                 "( FRA AMY PAR ) MTO", "A Paris supports", ""]))
    # one line (a file of many bad lines is its own case: tests/test_hostile_input.py)
    word = draw(st.sampled_from(_RUN_WORDS) | st.text(st.characters(blacklist_characters="\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"),
                                                      min_size=1, max_size=6))
    limit = int(LIMITS["max_order_length"].value)
    count = draw(st.sampled_from([1, 2, 50, 240, limit // 4, limit // 4 + 1, 5000, 30000])
                 | st.integers(1, 400))
    sep = draw(st.sampled_from([" ", "", ", ", " - "]))
    if "," in sep:
        # separated, the run is that many orders, each read in full (about 0.1 ms each): the
        # work of a file of that many orders, linear; kept to a few thousand for the deadline
        count = min(count, 3000)
    tail = draw(st.sampled_from(["", " - MUN", "\nA MAR H", " # a comment"]))
    return head + " " + sep.join([word] * count) + tail


@fuzz_settings()
@given(text=_worst_orders())
def test_the_order_readers_worst_cases_answer_or_raise_the_projects_error(text):
    for read in (_read_orders, _read_order_lines):
        _only_our_errors(read, text)


# -- every position the readers accept is written and read back the same ----------------------

@pytest.mark.parametrize("name", ["position-dip", "position-daide", "records"])
@fuzz_settings()
@given(data=st.data())
def test_every_position_a_reader_accepts_is_written_and_read_back(name, data):
    """What a reader accepts, its writer writes and the reader reads back equal (an
    army never on a coast, nor retreating to one: the writer could not say so)."""
    from dipsolve.io.records import dumps_records, read_records
    read, examples = READERS[name]
    text = data.draw(inputs(examples()), label="text")
    try:
        got = read(text)
    except DipsolveError:
        return
    if name == "records":
        if not got:              # "[]": a list of no games; no position to write back
            return
        again = read_records(dumps_records(got), "<written>")
        assert [[p.position for p in r.phases] for r in again] == [[p.position for p in r.phases] for r in got]
        positions = [p.position for r in got for p in r.phases]
    else:
        position = got[0]
        assert parse_position_text(position.to_text(), "<written>")[0] == position
        positions = [position]
    for position in positions:
        for u in list(position.units) + [d.unit for d in position.dislodged]:
            assert u.kind == "F" or "/" not in u.location
        for d in position.dislodged:
            assert d.unit.kind == "F" or all("/" not in r for r in d.retreats)
