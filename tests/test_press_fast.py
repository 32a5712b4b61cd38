"""The fast path of the press reader (LALR, `dipsolve.grammar.parsers.press_tree`) against
the reference parser (Earley, every reading): the same `Press` (tree, level, orders and
where they are written) or the same error, on the whole press corpus at several levels,
on generated messages and on mutations of them."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from test_press import _GENERATORS, CASES, TOP, _respaced

from dipsolve.grammar import parsers
from dipsolve.grammar.errors import DipsolveError
from dipsolve.grammar.press import parse_press

_LEVELS = (0, 10, 20, 30, 50, 110, TOP, 8000)


def _outcome(text: str, level: int, dialect: str, reference: bool):
    try:
        p = parse_press(text, level=level, dialect=dialect, reference=reference)
    except DipsolveError as e:
        return ("error", type(e).__name__, str(e), e.line, e.column)
    return ("press", p, p.level, p.to_json(), p.located_orders)


def _same_both_ways(text: str, dialect: str = "daide", levels=_LEVELS) -> None:
    for level in levels:
        assert _outcome(text, level, dialect, False) == _outcome(text, level, dialect, True), \
            (text, level)


@pytest.mark.parametrize("case", CASES, ids=[f"{i}" for i in range(len(CASES))])
def test_fast_path_equals_the_reference_on_the_corpus(case):
    _same_both_ways(case["text"])
    if case["dialect"] in ("dpp", "both"):
        _same_both_ways(case["text"], "dpp", (0,))


def test_an_unambiguous_message_never_reaches_earley(monkeypatch):
    def no_earley(dialect="daide"):
        raise AssertionError("Earley called")
    monkeypatch.setattr(parsers, "press_parser", no_earley)
    for text in ("PRP (XDO ((ENG FLT EDI) SUP (ENG AMY LVP) MTO CLY))", "NOW (SPR 1901)",
                 "YES (PRP (PCE (AUS GER)))", "IFF (PCE (ENG FRA)) THN (PRP (PCE (ITA TUR)))",
                 "NOT (DRW)", "FRM (AUS) (ENG GER) (PRP (PCE (AUS GER)))"):
        assert parse_press(text, level=TOP).canonical     # the last two: two LALR readings
    with pytest.raises(AssertionError, match="Earley called"):
        parse_press("PRP (PCE (AUS))", level=TOP)          # an error: Earley reports it


def _mutated(tokens: list[str], rnd: random.Random) -> list[str]:
    out = list(tokens)
    for _ in range(rnd.randint(1, 3)):
        i = rnd.randrange(len(out) + 1)
        move = rnd.choice(("drop", "insert", "swap"))
        if move == "drop" and out:
            del out[min(i, len(out) - 1)]
        elif move == "insert":
            out.insert(i, rnd.choice(tokens + ["(", ")", "XDO", "PCE", "AND", "DRW", "NOT"]))
        elif len(out) > 1:
            j = rnd.randrange(len(out))
            out[min(i, len(out) - 1)], out[j] = out[j], out[min(i, len(out) - 1)]
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.randoms(use_true_random=False), st.booleans())
def test_fast_path_equals_the_reference_on_generated_messages(data, rnd, mutate):
    tokens = _GENERATORS["daide"].tokens(lambda n: data.draw(st.integers(0, n - 1)))
    if mutate:
        tokens = _mutated(tokens, rnd)
    _same_both_ways(_respaced(tokens, rnd), levels=(0, 30, TOP))
