"""Press levels: what each rule needs, the lowest reading of a message, the error above it.

``press.lark`` gives each rule the lowest level that admits it (a ``// level N`` note
beside the rule; `rule_levels` reads them, so the grammar is their one source):

    >>> rule_levels()["prp"], rule_levels()["ins"], rule_levels().get("sub", 0)
    (10, 60, 0)

The level of a message is the highest among the rules it uses; at level 30 a message
may hold only one AND or ORR (a second one needs level 50).  Where a text parses in
more than one way (``NOT ( DRW )``: the client's "cancel my draw", level 0, or the
arrangement "no draw", level 10) every reading is kept (`dipsolve.grammar.parsers.
press_tree`: one from each of the two LALR starts, or Earley's), and `lowest` takes
the one that needs the lowest level.  A
message above a parser's level raises `PressLevelError`, naming the first token that
needs more (`level_error`):

    <press>:1:1: 'XOY' needs press level 110; this parser is at level 20
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from lark import Token, Tree

from .errors import DipsolveRuleError, Source
from .parsers import error_at, press_parser

__all__ = ["DAIDE_TOP", "LEVELS", "PressLevelError", "Reading", "effective_level",
           "first_token", "level_error", "lowest", "rule_levels"]

_HERE = Path(__file__).resolve().parent

#: the press levels of DAIDE 0.18 (0-130, 8000 free text) and daidepp's extensions
LEVELS = (0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 8000)
#: the top DAIDE level; 140-160 are daidepp's, not DAIDE's
DAIDE_TOP = 130
#: the rules that join arrangements: two or more in one message need level 50
_LOGICAL = ("and", "orr")


class PressLevelError(DipsolveRuleError):
    """The message is understood, but needs a higher press level than the parser's
    (the rule ``"press-level"``).

    ``token`` is the token that needs it, ``needed`` its level, ``level`` the parser's."""

    def __init__(self, message: str, *, token: str = "", needed: int = 0, level: int = 0,
                 **kw: Any) -> None:
        self.token = token
        self.needed = needed
        self.level = level
        kw.setdefault("rule", "press-level")
        super().__init__(message, **kw)


_LEVEL_NOTE = re.compile(r"//\s*level\s+(\d+)")
_ALIAS = re.compile(r"->\s*(\w+)")
_RULE_HEAD = re.compile(r"^\??(\w+)\s*:")


@cache
def rule_levels() -> dict[str, int]:
    """Rule (or alias) name -> the lowest press level that admits it, read from the
    ``// level N`` notes of ``press.lark``."""
    levels: dict[str, int] = {}
    for line in (_HERE / "press.lark").read_text(encoding="utf-8").splitlines():
        note = _LEVEL_NOTE.search(line)
        if note is None or line.lstrip().startswith("//"):
            continue
        alias = _ALIAS.search(line)
        head = _RULE_HEAD.match(line)
        name = alias.group(1) if alias else head.group(1) if head else None
        if name is None:
            raise RuntimeError(f"press.lark: a level note on no rule: {line.strip()!r}")
        levels[name] = int(note.group(1))
    return levels


# ---------------------------------------------------------------- the lowest reading
@dataclass(frozen=True, slots=True)
class Reading:
    """One reading of a (piece of a) message: its tree without ambiguity, the level it
    needs by its rules, and its AND/ORR nodes (two or more need level 50)."""

    tree: Tree
    level: int
    logical: int


def effective_level(r: Reading) -> int:
    """The level a reading needs, its AND and ORR counted."""
    return max(r.level, 50) if r.logical >= 2 else r.level


@cache
def _rule_order(dialect: str) -> dict[str, int]:
    """Rule (and alias) name -> its place in the grammar file: of two readings that
    need the same level, the one whose rule comes first is taken (the client-server
    commands come before press, so a top-level ``DRW (ENG FRA)`` is the draw command)."""
    order: dict[str, int] = {}
    for r in press_parser(dialect).rules:
        for name in (r.alias, r.origin.name):
            if name:
                order.setdefault(str(name), len(order))
    return order


def lowest(t: Tree, dialect: str = "daide") -> Reading:
    """The reading of the parse ``t`` (Earley's, ``_ambig`` nodes and all) that needs
    the lowest level; of two that need the same, the one whose rule comes first in the
    grammar.  DPP has no levels: every reading needs 0, and the grammar's order rules."""
    levels = rule_levels() if dialect == "daide" else {}
    return _lowest(t, levels, _rule_order(dialect))


def _lowest(t: Tree, levels: dict[str, int], order: dict[str, int]) -> Reading:
    if t.data == "_ambig":
        readings = [_lowest(c, levels, order) for c in t.children if isinstance(c, Tree)]
        return min(readings, key=lambda r: (effective_level(r), r.logical,
                                            order.get(str(r.tree.data), len(order))))
    children: list[Any] = []
    level = levels.get(str(t.data), 0)
    logical = 1 if t.data in _LOGICAL else 0
    for c in t.children:
        if isinstance(c, Tree):
            r = _lowest(c, levels, order)
            children.append(r.tree)
            level = max(level, r.level)
            logical += r.logical
        else:
            children.append(c)
    return Reading(Tree(t.data, children, t.meta), level, logical)


# ---------------------------------------------------------------- above the level
def first_token(t: Tree) -> Token:
    """The first token of a subtree that is not a bracket."""
    for c in t.children:
        if isinstance(c, Token):
            if c.type not in ("LP", "RP"):
                return c
        else:
            return first_token(c)
    return next(t.scan_values(lambda v: isinstance(v, Token)))  # pragma: no cover


def level_error(t: Tree, allowed: int, src: Source) -> PressLevelError | None:
    """The error naming the first token (in text order) of the DAIDE message ``t`` that
    needs more than ``allowed``; None when it needs no more."""
    levels = rule_levels()
    worst: list[tuple[int, int, Token]] = []   # (position, level, token)
    logical: list[Token] = []

    def visit(n: Tree) -> None:
        need = levels.get(str(n.data), 0)
        if need > allowed:
            tok = first_token(n)
            worst.append((tok.start_pos or 0, need, tok))
        if n.data in _LOGICAL:
            logical.append(first_token(n))
        for c in n.children:
            if isinstance(c, Tree):
                visit(c)
    visit(t)
    if len(logical) >= 2 and allowed < 50:
        second = sorted(logical, key=lambda k: k.start_pos or 0)[1]
        worst.append((second.start_pos or 0, 50, second))
    if not worst:
        return None
    _, need, tok = min(worst, key=lambda w: w[0])
    word = str(tok.value).upper()
    why = " (a second AND or ORR in one message)" if need == 50 and word in ("AND", "ORR") \
        and levels.get(word.lower(), 0) < 50 else ""
    if tok.type == "TEXT":
        message = f"free text {tok.value} needs press level {need}; this parser is at level {allowed}"
    else:
        if need > DAIDE_TOP and not why:
            why = " (a daidepp extension, not DAIDE 0.18)"
        message = f"{word!r} needs press level {need}{why}; this parser is at level {allowed}"
    return error_at(src, PressLevelError, message, tok,
                    f"a message of press level {allowed} or lower",
                    token=word, needed=need, level=allowed)
