"""DAIDE tokens: the tables of power, coast, season and province tokens, and the lexer.

DAIDE is a language of three-letter tokens and brackets (message syntax v0.18,
D. Norman, 2010).  This module is the grammar's one table of each kind of token (the
order reader, the order writer, the ``NOW``/``SCO`` reader and the press reader all
look them up here) and `DaideLexer`, which cuts DAIDE text into tokens and names each
token's kind, so that the grammars see only kinds (a power, a province, ``MTO``):

    >>> POWER_TOKENS["FRA"], POWER_TOKEN_OF["Turkey"], province_tokens()["ECH"]
    ('France', 'TUR', 'ENG')
    >>> [(t.type, str(t)) for t in DaideLexer().lex("( FRA AMY PAR ) MTO BUR")][:4]
    [('LP', '('), ('POWER', 'FRA'), ('UNKNOWN', 'AMY'), ('PROVINCE', 'PAR')]
    >>> canonical_text(["PRP", "(", "PCE", "(", "AUS", "GER", ")", ")"])
    'PRP (PCE (AUS GER))'

(``AMY`` is ``UNKNOWN`` to the bare lexer: each grammar's lexer, in
`dipsolve.grammar.parsers`, adds that grammar's keywords, read from its ``.lark`` file
by `keywords_of`.)
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any, Iterable, Iterator

from lark import Token
from lark.lexer import Lexer

from dipsolve.core.map import Map, standard_map

__all__ = ["COAST_TOKENS", "POWER_TOKENS", "POWER_TOKEN_OF", "REFEREE", "SEASONS", "power_tokens",
           "SEASON_TOKENS", "DaideLexer", "canonical_text", "keywords_of", "province_tokens"]

_HERE = Path(__file__).resolve().parent



def power_tokens(game_map: Map | None = None) -> dict[str, str]:
    """DAIDE power token -> the power of ``game_map`` (the standard map when none is
    given): the tokens its variant declares (``power`` lines of ``data/*.variant``)."""
    m = game_map or standard_map()
    return {m.power_tokens[p]: p for p in m.powers}


#: DAIDE power token -> the power's name ("FRA" -> "France") in the standard game: the
#: DAIDE lexer's and the press readers' table (press is read for the standard game only)
POWER_TOKENS: dict[str, str] = power_tokens()
#: the power's name -> its DAIDE token ("France" -> "FRA"), in the standard game
POWER_TOKEN_OF: dict[str, str] = {name: token for token, name in POWER_TOKENS.items()}
#: the referee, a power in DPP (``FRM REF (...)``)
REFEREE = "REF"
#: DAIDE coast tokens (the standard map uses the first four; the spec has eight)
COAST_TOKENS = ("NCS", "SCS", "ECS", "WCS", "NEC", "SEC", "NWC", "SWC")
#: DAIDE season token -> (the season, the phase kind)
SEASONS: dict[str, tuple[str, str]] = {
    "SPR": ("Spring", "movement"), "SUM": ("Spring", "retreat"), "FAL": ("Fall", "movement"),
    "AUT": ("Fall", "retreat"), "WIN": ("Winter", "adjustment")}
SEASON_TOKENS = tuple(SEASONS)


@cache
def province_tokens() -> dict[str, str]:
    """DAIDE province token -> province abbreviation on the standard map ("ECH" -> "ENG")."""
    return {p.daide.upper(): p.abbr for p in standard_map().provinces.values()}


def canonical_text(tokens: Iterable[str]) -> str:
    """Tokens joined as the DAIDE spec writes them: one space between tokens, none
    after ``(`` or before ``)``: ``PRP (PCE (AUS GER))``."""
    out: list[str] = []
    prev = None
    for t in tokens:
        if prev is not None and prev != "(" and t != ")":
            out.append(" ")
        out.append(t)
        prev = t
    return "".join(out)


@cache
def keywords_of(grammar: str) -> frozenset[str]:
    """The keywords of a grammar beside this file: its ``%declare``'d terminals that are
    DAIDE tokens (three capitals), read from the .lark file and the ones it imports, so
    that the grammar is their one list."""
    text = (_HERE / grammar).read_text(encoding="utf-8")
    words: set[str] = set()
    for line in re.findall(r"^%declare\s+(.*)$", text, re.M):
        words.update(w for w in line.split() if re.fullmatch(r"[A-Z]{3}", w))
    for imported in set(re.findall(r"^%import\s+\.(\w+)", text, re.M)):
        words |= keywords_of(f"{imported}.lark")
    return frozenset(words)


_PIECE = re.compile(r"\(|\)|'[^']*'?|[^\s()']+")
_INTEGER = re.compile(r"-?\d+\Z")
_DECIMAL = re.compile(r"-?\d*\.\d+\Z")


class DaideLexer(Lexer):
    """Cuts DAIDE text into tokens and names each token's kind.

    Brackets are ``LP``/``RP``; ``'text'`` is ``TEXT``; numbers are ``INTEGER`` or
    ``DECIMAL``; a word is its keyword (``MTO``), or ``POWER``, ``PROVINCE``, ``COAST``,
    ``SEASON``, ``DASH`` (DPP's turn ranges), or ``UNKNOWN``, which no rule takes, so
    the parser reports it with what it expected there.  Subclasses set the keywords
    (and the power tokens: DPP adds REF, the referee).
    """

    keywords: frozenset[str] = frozenset()
    powers: frozenset[str] = frozenset(POWER_TOKENS)

    def __init__(self, lexer_conf: Any = None) -> None:  # Lark hands over its configuration
        self.provinces = province_tokens()

    def kind(self, word: str) -> str:
        up = word.upper()
        if up in self.keywords:
            return up
        if up in self.powers:
            return "POWER"
        if up in self.provinces:
            return "PROVINCE"
        if up in COAST_TOKENS:
            return "COAST"
        if up in SEASONS:
            return "SEASON"
        if _INTEGER.match(word):
            return "INTEGER"
        if _DECIMAL.match(word):
            return "DECIMAL"
        if word == "-":
            return "DASH"
        return "UNKNOWN"

    # Lark's interface for a custom lexer class (its base class types the newer one)
    def lex(self, text: str) -> Iterator[Token]:  # type: ignore[override]
        line, line_start, last = 1, 0, 0
        for m in _PIECE.finditer(text):
            start, piece = m.start(), m.group()
            newlines = text.count("\n", last, start)
            if newlines:
                line += newlines
                line_start = text.rfind("\n", last, start) + 1
            last = m.end()
            if piece == "(":
                kind = "LP"
            elif piece == ")":
                kind = "RP"
            elif piece.startswith("'"):
                kind = "TEXT" if len(piece) > 1 and piece.endswith("'") else "UNKNOWN"
            else:
                kind = self.kind(piece)
            column = start - line_start + 1
            yield Token(kind, piece, start, line, column, line, column + len(piece), m.end())
