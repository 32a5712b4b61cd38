"""Reading one press message: `parse_press`, DAIDE (press levels 0-130) or DPP, to a `Press`.

    >>> p = parse_press("PRP(XDO((ENG FLT EDI) SUP (ENG AMY LVP) MTO CLY))")
    >>> p.level, p.canonical
    (20, 'PRP (XDO ((ENG FLT EDI) SUP (ENG AMY LVP) MTO CLY))')
    >>> p.english()
    'I propose that the English fleet in Edinburgh support the English army in Liverpool into Clyde.'
    >>> p.orders()
    [('England', SupportMove(kind='F', location='EDI', supported_kind='A', supported_location='LVP', target='CLY'))]

A message is cut into tokens (`dipsolve.grammar.tokens`), parsed by ``press.lark`` (every
DAIDE message: the client-server protocol and press levels 0 to 130, with daidepp's
extensions above) or ``dpp.lark`` (the Diplomacy Programming Project language of the
Hall & Loeb seed, section 5; `dipsolve.grammar.parsers`), its lowest-level reading taken
(`dipsolve.grammar.levels`), what the grammar leaves open checked here (coasts, supply
centres, FOR inside FOR), and its orders read (`dipsolve.grammar.daide_order`).  The
result is a `Press` (`dipsolve.grammar.message`) holding the message's tree of `Node`
(`dipsolve.grammar.tree`), which can say itself in English (`dipsolve.grammar.english`).

A parser ``parse_press(text, level=L)`` accepts a message when it is valid and its
level is at most L; one that is valid but needs a higher level raises
`PressLevelError`, naming the token that needs it:

    <press>:1:1: 'XOY' needs press level 110; this parser is at level 20

Errors are the project's: `DipsolveSyntaxError` (not understood), with the column, a
caret and the tokens that would have been accepted there, and `PressLevelError` (a
`DipsolveRuleError`, rule ``"press-level"``: understood, but above the level allowed).
"""

from __future__ import annotations

from lark import Token, Tree
from lark.exceptions import UnexpectedInput

from dipsolve.core.bounds import LIMITS, check_digits, check_int, check_nesting, limit_error
from dipsolve.core.map import standard_map

from .daide_order import ORDER_RULES, parse_daide_order, read_location, read_order, read_unit
from .errors import DipsolveError, DipsolveLimitError, DipsolveSyntaxError, Source, Span, placed, placed_at
from .levels import DAIDE_TOP, LEVELS, PressLevelError, effective_level, first_token, level_error, lowest
from .message import OrderAt, Press
from .parsers import DIALECTS, error_at, press_tree, syntax_error
from .tokens import province_tokens
from .tree import Node, Part

__all__ = ["DIALECTS", "LEVELS", "Node", "OrderAt", "Press", "PressLevelError",
           "parse_daide_order", "parse_press"]


def parse_press(text: str, *, level: int = DAIDE_TOP, dialect: str = "daide",
                source: str = "<press>", line: int = 1, reference: bool = False) -> Press:
    """One message -> `Press`.

    ``dialect="daide"``: DAIDE message syntax v0.18, client-server messages and press
    (bare arrangements and bare orders too); the message is accepted when its lowest
    level is at most ``level``, else `PressLevelError` names the first token above it.
    ``dialect="dpp"``: the Diplomacy Programming Project language of the Hall & Loeb
    seed (``FRM RUS (DMZ (BLA ARM))``), which has no levels (``level`` is ignored).
    Raises `DipsolveSyntaxError` for what is not understood.  Errors name ``source``
    and count lines from ``line`` (for a file read one message a line).
    ``reference=True`` reads with the reference parser alone (Earley, every reading;
    `dipsolve.grammar.parsers.press_tree`), for tests and benchmarks: the result is
    the same.
    """
    if dialect not in DIALECTS:
        raise DipsolveSyntaxError(f"unknown dialect {dialect!r} (expected daide or dpp)",
                                  found=dialect, expected="daide or dpp")
    check_int(level, "press level", "press_levels")
    _check_bounds(text, source, line)
    src = Source(text, source)
    try:
        return _parse_press(text, src, level, dialect, line, reference)
    except DipsolveError as e:
        if line == 1:
            raise
        raise placed(e, line=(e.line or 1) + line - 1) from None


def _check_bounds(text: str, source: str, line: int) -> None:
    """The message's length and bracket depth within `dipsolve.core.bounds` (before the
    parser, and the walks of its tree, descend into it)."""
    if len(text) > LIMITS["max_press_length"].value:
        raise limit_error("max_press_length", f"a message of {len(text):,} characters",
                          filename=source, line=line, column=1, source_line=text[:80])
    check_nesting(text, source, line_offset=line - 1)


def _parse_press(text: str, src: Source, level: int, dialect: str, line: int,
                 reference: bool) -> Press:
    if not text.strip():
        raise src.error(DipsolveSyntaxError, "expected a message, found nothing", 1, 1,
                        found="end of message", expected="a message")
    try:
        parsed = press_tree(text, dialect, reference=reference)
    except UnexpectedInput as e:
        raise syntax_error(e, src, "message") from None
    reading = lowest(parsed, dialect)
    tree = reading.tree.children[0] if reading.tree.data == "start" else reading.tree
    assert isinstance(tree, Tree)
    located = _check(tree, src, line - 1, dialect)
    if dialect == "dpp":
        return Press(_to_node(tree), "dpp", None, tuple(located))
    error = level_error(tree, level, src)
    if error is not None:
        raise error
    return Press(_to_node(tree), "daide", effective_level(reading), tuple(located))


#: rules that carry a whole press message (a FOR inside it is its own)
_SAID = frozenset({"snd", "frm", "send_message", "frm_command", "iff"})


def _check(t: Tree, src: Source, line_offset: int = 0, dialect: str = "daide") -> list[OrderAt]:
    """What the grammar leaves to be checked, in text order: coasts the province has,
    supply centres where the spec says centres, no FOR inside a FOR (outside a press
    message); and the orders of the message, built."""
    centres = standard_map().centers
    orders: list[OrderAt] = []

    def visit(n: Tree, in_for: bool, carrier: str) -> None:
        rule = str(n.data)
        for tok in n.children:      # numbers: digits counted before any int() reads them
            if isinstance(tok, Token) and tok.type in ("INTEGER", "DECIMAL"):
                try:
                    check_digits(tok.value)
                except DipsolveLimitError as e:
                    raise placed_at(e, src, Span(tok.line or 1, tok.column or 1, tok.value)) from None
        if rule in ORDER_RULES:
            power, order = read_order(n, src)
            m = n.meta
            width = (m.end_pos - m.start_pos) if m.line == m.end_line else len(src.line_text(m.line))
            orders.append(OrderAt(power, order, m.line + line_offset, m.column, width, carrier))
        elif rule == "location":
            read_location(n, src)
        elif rule == "unit":
            read_unit(n, src)
        elif rule == "centres":
            for c in n.children:
                if isinstance(c, Token) and c.type == "PROVINCE" \
                        and province_tokens()[c.value.upper()] not in centres:
                    raise error_at(src, DipsolveSyntaxError,
                                   f"expected a supply centre, found {c.value!r}", c,
                                   "a supply centre")
        elif rule in ("for", "for_period") and dialect == "daide":
            if in_for:
                raise error_at(src, DipsolveSyntaxError, "a FOR inside a FOR (only allowed "
                               "inside a press message it carries)", first_token(n),
                               "an arrangement without FOR")
            in_for = True
        elif rule in _SAID:
            in_for = False
        for c in n.children:
            if isinstance(c, Tree):
                visit(c, in_for, carrier if rule in ("unit", "location") or rule in ORDER_RULES
                      else rule)
    visit(t, False, str(t.data))
    return orders


def _to_node(t: Tree) -> Node:
    parts: list[Part] = []
    for c in t.children:
        if isinstance(c, Tree):
            parts.append(_to_node(c))
        elif c.type == "LP":
            parts.append("(")
        elif c.type == "RP":
            parts.append(")")
        elif c.type == "TEXT":
            parts.append(str(c.value))
        else:
            parts.append(str(c.value).upper())
    return Node(str(t.data), tuple(parts))
