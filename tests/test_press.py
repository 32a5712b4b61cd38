"""DAIDE press (message syntax v0.18, levels 0-130 and daidepp's 140-160) and the 1995
DPP language of the Hall & Loeb seed: `dipsolve.grammar.press.parse_press` and
``dipsolve parse --press``.

The labelled corpus (tests/data/press_cases.jsonl, converted once from
../shared/press by tests/tools/convert_press.py, which lists its six fixes) is read
case by case: valid or not, the lowest level, the dialect."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dipsolve.cli import main
from dipsolve.grammar.errors import DipsolveRuleError, DipsolveSyntaxError
from dipsolve.grammar.levels import rule_levels
from dipsolve.grammar.parsers import press_parser
from dipsolve.grammar.press import LEVELS, Press, PressLevelError, parse_press
from dipsolve.grammar.tokens import COAST_TOKENS, POWER_TOKENS, province_tokens
from dipsolve.core.map import standard_map
from dipsolve.core.orders import Build, Move, SupportMove

CASES = [json.loads(line) for line in
         (Path(__file__).parent / "data" / "press_cases.jsonl").read_text(encoding="utf-8").splitlines()]
TOP = max(LEVELS)


def test_the_corpus_is_all_there():
    assert len(CASES) == 343
    assert sum(1 for c in CASES if "fix" in c) == 6


def _below(level: int) -> int | None:
    lower = [lv for lv in LEVELS if lv < level]
    return lower[-1] if lower else None


@pytest.mark.parametrize("case", CASES, ids=[f"{i}" for i in range(len(CASES))])
def test_every_corpus_case_is_classified_as_labelled(case):
    text = case["text"]
    if case["dialect"] in ("dpp", "both"):
        assert isinstance(parse_press(text, dialect="dpp"), Press)
        assert parse_press(text, dialect="dpp").level is None
    if case["dialect"] == "dpp":     # DPP only: not DAIDE
        with pytest.raises(DipsolveSyntaxError):
            parse_press(text, level=TOP)
        return
    if not case["valid"]:
        with pytest.raises(DipsolveSyntaxError):
            parse_press(text, level=TOP)
        return
    level = case["level"]
    press = parse_press(text, level=TOP)
    assert press.level == level
    assert parse_press(text, level=level) == press            # accepted at its own level
    lower = _below(level)
    if lower is not None:                                       # rejected just below it
        with pytest.raises(PressLevelError) as info:
            parse_press(text, level=lower)
        assert info.value.needed > lower
    if level > 130:                                             # daidepp's, not DAIDE's
        with pytest.raises(PressLevelError):
            parse_press(text)
    again = parse_press(press.canonical, level=TOP)             # canonical reads back the same
    assert again == press and again.level == press.level


# ------------------------------------------------------------ the seed's DPP examples
SEED = [
    ("FRM ITA (FRM AUS (DWR))", "Italy says Austria has declared war on him."),
    ("FRM RUS (DMZ (BLA ARM))",
     "Russia proposes that the Black Sea and Armenia be kept empty as a sort of Demilitarized Zone."),
    ("SND RUS (IFF ALY (VSS AUS) THN (YES (DMZ BLA ARM)) ELS (NOP (DMZ BLA ARM)))",
     "If you, Russia, agree to ally with me against Austria then I accept your proposal to "
     "demilitarize the Black Sea and Armenia, otherwise I reject it."),
]


@pytest.mark.parametrize("text, gloss", SEED)
def test_the_seeds_dpp_examples_read_with_the_seeds_english(text, gloss):
    press = parse_press(text, dialect="dpp")
    assert press.english() == gloss
    assert press.level is None and press.dialect == "dpp"
    assert parse_press(press.canonical, dialect="dpp") == press
    with pytest.raises(DipsolveSyntaxError):       # DPP, not DAIDE
        parse_press(text)


def test_dpp_tree():
    assert parse_press("FRM RUS (DMZ (BLA ARM))", dialect="dpp").pretty() == (
        "frm  FRM RUS\n"
        "  dmz_listed  DMZ BLA ARM")


# ------------------------------------------------------------ levels
def _level_error(text: str, level: int) -> str:
    with pytest.raises(PressLevelError) as info:
        parse_press(text, level=level)
    assert isinstance(info.value, DipsolveRuleError)
    return str(info.value)


def test_a_message_above_the_level_names_the_token_and_its_level():
    assert _level_error("XOY (ENG) (GER)", 20) == (
        "<press>:1:1: 'XOY' needs press level 110; this parser is at level 20\n"
        "XOY (ENG) (GER)\n"
        "^^^")
    assert _level_error("PRP (XDO ((ENG FLT EDI) MTO CLY))", 10) == (
        "<press>:1:6: 'XDO' needs press level 20; this parser is at level 10\n"
        "PRP (XDO ((ENG FLT EDI) MTO CLY))\n"
        "     ^^^")
    assert _level_error("PRP (AND (PCE (AUS GER)) (ORR (DRW) (SLO (ENG))))", 30) == (
        "<press>:1:27: 'ORR' needs press level 50 (a second AND or ORR in one message); "
        "this parser is at level 30\n"
        "PRP (AND (PCE (AUS GER)) (ORR (DRW) (SLO (ENG))))\n"
        "                          ^^^")
    assert _level_error("HPY (PRP (PCE (AUS GER)))", 130).splitlines()[0] == (
        "<press>:1:1: 'HPY' needs press level 140 (a daidepp extension, not DAIDE 0.18); "
        "this parser is at level 130")
    assert _level_error("SND (FRA) ('hello')", 130).splitlines()[0] == (
        "<press>:1:12: free text 'hello' needs press level 8000; this parser is at level 130")


def test_the_first_token_above_the_level_is_named():
    err = pytest.raises(PressLevelError, parse_press,
                        "IFF (PCE (ENG FRA)) THN (PRP (XOY (ENG) (FRA)))", level=60).value
    assert (err.token, err.needed, err.level, err.column) == ("IFF", 100, 60, 1)


def test_a_level_error_names_its_rule_and_keeps_it_on_a_later_line():
    err = pytest.raises(PressLevelError, parse_press, "XOY (ENG) (GER)", level=20,
                        source="msgs.txt", line=7).value
    assert (err.rule, err.token, err.needed, err.line, err.column) == ("press-level", "XOY", 110, 7, 1)
    assert err.to_json()["rule"] == "press-level" and err.to_json()["error"] == "rule"


@pytest.mark.parametrize("text, level", [
    ("NOT ( DRW )", 0),                  # the client's "cancel my draw", not "no draw"
    ("DRW", 0), ("DRW (ENG FRA)", 10), ("PRP (DRW)", 10),
    ("HUH (PRP (PCE (AUS ENG)))", 0),     # the server's syntax error report
    ("SND (FRA) (HUH (ERR PRP (PCE (AUS ENG))))", 10),
    ("FRM (AUS) (ENG) (PRP (PCE (AUS ENG)))", 10),          # from the server
    ("YES (FRM (AUS) (ENG) (PRP (PCE (AUS ENG))))", 120),   # forwarded press
    ("FCT (PCE (AUS ENG))", 10), ("FCT (QRY (PCE (AUS ENG)))", 60),
    ("PRP (OCC (ENG UNT BEL))", 40), ("IDK (WHT (ENG FLT EDI))", 70),
    ("FOR (WIN 103) (XDO ((RUS FLT SEV) BLD))", 90),
    ("HLO (ENG) (1234) ((LVL 20) (MTL 1200))", 0), ("HLO (ENG) (1234) ((LVL 20) (PDA))", 10),
    ("NOW (SUM 1901) (ENG FLT NTH MRT (LON YOR (STP NCS)))", 0),
    ("THX ((ENG FLT NTH) MTO NWY) (MBV)", 0), ("MIS (-2)", 0), ("ORD (SPR 1901) ((ENG AMY LVP) HLD) (SUC RET)", 0),
    ("NME ('dumbbot') ('1.0')", 0), ("YES (MAP ('standard'))", 0), ("REJ (SND (FRA) (PRP (DRW)))", 10),
    ("SMR (SPR 1905) (ENG ('a') ('1') 10) (FRA ('b') ('2') 0 1904)", 0),
    ("MDF (AUS ENG) (((AUS BUD) (UNO SER)) (BOH)) ((BUL (AMY SER) ((FLT ECS) RUM BLA)))", 0),
    ("PRN ( PRP ( PCE", 0), ("TRY ()", 10),
])
def test_levels_of_particular_forms(text, level):
    assert parse_press(text, level=TOP).level == level


def test_rule_levels_come_from_the_grammar():
    levels = rule_levels()
    assert levels["prp"] == 10 and levels["xdo"] == 20 and levels["and"] == 30
    assert levels["scd"] == 40 and levels["cho"] == 50 and levels["ins"] == 60
    assert levels["fct"] == 10            # the appendix's "610" is a misprint for 10
    assert levels["wht"] == 70 and levels["exp"] == 80 and levels["for"] == 90
    assert levels["iff"] == 100 and levels["xoy"] == 110 and levels["fwd"] == 120
    assert levels["why"] == 130 and levels["emotion"] == 140 and levels["free_text"] == 8000
    assert set(levels.values()) <= set(LEVELS)


# ------------------------------------------------------------ errors that are not levels
def _syntax_error(text: str, **kw) -> str:
    with pytest.raises(DipsolveSyntaxError) as info:
        parse_press(text, **kw)
    return str(info.value)


def test_syntax_errors_point_at_the_token_and_list_what_was_expected():
    assert _syntax_error("PRP (PCE (AUS GRE))") == (
        "<press>:1:15: expected a power (AUS, ENG, FRA, GER, ITA, RUS, TUR), found 'GRE'\n"
        "PRP (PCE (AUS GRE))\n"
        "              ^^^")
    assert _syntax_error("PRP (PCE (AUS GER)") == (
        "<press>:1:19: expected ')', found end of message\n"
        "PRP (PCE (AUS GER)\n"
        "                  ^")
    assert _syntax_error("PRP (XDO ((FRA FLT LYO) MTO WES))").splitlines()[0] == (
        "<press>:1:20: expected '(' or a province, found 'LYO' "
        "(not a DAIDE token: Gulf of Lyon is GOL)")
    assert _syntax_error("SCD (ENG BOH)").splitlines()[0] == (
        "<press>:1:10: expected a supply centre, found 'BOH'")
    assert _syntax_error("FOR (SPR 1901) (FOR (SPR 1902) (DRW))").splitlines()[0] == (
        "<press>:1:17: a FOR inside a FOR (only allowed inside a press message it carries)")
    assert _syntax_error("").splitlines()[0] == "<press>:1:1: expected a message, found nothing"


def test_a_level_error_is_not_a_syntax_error():
    with pytest.raises(PressLevelError) as info:
        parse_press("XOY (ENG) (GER)", level=100)
    assert not isinstance(info.value, DipsolveSyntaxError)


def test_errors_in_a_file_count_lines():
    with pytest.raises(PressLevelError) as info:
        parse_press("XOY (ENG) (GER)", level=20, source="talk.txt", line=7)
    assert str(info.value).splitlines()[0].startswith("talk.txt:7:1: 'XOY' needs press level 110")


# ------------------------------------------------------------ the Press value
def test_canonical_spacing_case_and_equality():
    a = parse_press("prp(xdo((eng flt (stp scs)) sup (eng amy lvp) mto cly))")
    assert a.canonical == "PRP (XDO ((ENG FLT (STP SCS)) SUP (ENG AMY LVP) MTO CLY))"
    assert a == parse_press(" PRP ( XDO ( ( ENG FLT ( STP SCS ) ) SUP ( ENG AMY LVP ) MTO CLY ) ) ")
    assert a != parse_press("PRP (XDO ((ENG FLT (STP SCS)) SUP (ENG AMY LVP) MTO YOR))")
    assert str(a) == a.canonical and hash(a) == hash(parse_press(a.canonical))


def test_tree_orders_and_json():
    p = parse_press("PRP (AND (XDO ((ENG FLT EDI) SUP (ENG AMY LVP) MTO CLY)) ((RUS FLT (STP SCS)) MTO GOB))")
    assert p.pretty() == (
        "prp  PRP\n"
        "  and  AND\n"
        "    xdo  XDO\n"
        "      sup_mto  (ENG FLT EDI) SUP (ENG AMY LVP) MTO CLY\n"
        "    mto  (RUS FLT (STP SCS)) MTO GOB")
    assert p.orders() == [("England", SupportMove("F", "EDI", "A", "LVP", "CLY")),
                          ("Russia", Move("F", "STP/SC", "BOT"))]
    obj = p.to_json()
    assert obj["level"] == 30 and obj["canonical"] == p.canonical
    assert obj["tree"]["rule"] == "prp" and obj["tree"]["parts"][0] == "PRP"
    assert [o["order"] for o in obj["orders"]] == ["F EDI S A LVP - CLY", "F STP/SC - BOT"]
    assert [(o["column"], o["in"]) for o in obj["orders"]] == [(16, "xdo"), (59, "and")]
    assert parse_press("SUB ((RUS FLT (STP SCS)) BLD) (RUS WVE)").orders()[0] == (
        "Russia", Build("F", "STP/SC"))


@pytest.mark.parametrize("text, english", [
    ("PRP (PCE (AUS GER))", "I propose that Austria and Germany be at peace."),
    ("PRP (XDO ((ENG FLT EDI) SUP (ENG AMY LVP) MTO CLY))",
     "I propose that the English fleet in Edinburgh support the English army in Liverpool into Clyde."),
    ("YES (PRP (ALY (ITA TUR) VSS (ENG RUS)))",
     "I accept your proposal that Italy and Turkey be allied against England and Russia."),
    ("QRY (DMZ (AUS GER) (BOH))", "I ask whether Austria and Germany keep Bohemia demilitarized."),
    ("THK (NOT (QRY (PCE (GER FRA))))", "I think that Germany and France are not at peace."),
    ("IFF (PCE (ENG FRA)) THN (PRP (PCE (ITA TUR))) ELS (PRP (PCE (RUS ITA)))",
     "If England and France are at peace then I propose that Italy and Turkey be at peace, "
     "otherwise I propose that Russia and Italy be at peace."),
    ("FRM (AUS) (ENG GER) (PRP (PCE (AUS GER)))",
     'Austria to England and Germany: "I propose that Austria and Germany be at peace."'),
    ("PRP (FOR ((SPR 1901) (FAL 1903)) (XDO ((RUS FLT SEV) BLD)))",
     "I propose that Russia build a fleet in Sevastopol from Spring 1901 to Fall 1903."),
    ("SUB (SPR 1901) ((ENG AMY LVP) HLD) ((ENG FLT LON) MTO NTH)",
     "I submit for Spring 1901: the English army in Liverpool holds; the English fleet in "
     "London moves to the North Sea."),
    ("NOT (DRW)", "I withdraw my draw."),
    ("(FRA FLT ECH) CVY (FRA AMY BEL) CTO YOR",
     "The French fleet in the English Channel convoys the French army in Belgium to Yorkshire."),
])
def test_english(text, english):
    assert parse_press(text, level=TOP).english() == english


# ------------------------------------------------------------ generated messages
class _Generator:
    """Random messages from a grammar's own rules, with the few facts the grammar leaves
    to press.py: a coast its province has, supply centres where centres are asked for,
    no FOR inside a FOR (outside a message it carries)."""

    CARRIERS = {"snd", "frm", "send_message", "frm_command", "iff"}

    def __init__(self, dialect: str) -> None:
        self.dialect = dialect
        self.rules: dict[str, list[list]] = {}
        for r in press_parser(dialect).rules:
            self.rules.setdefault(r.origin.name, []).append(list(r.expansion))
        self.height = self._heights()
        m = standard_map()
        self.provinces = sorted(province_tokens())
        self.centres = sorted(t for t, p in province_tokens().items() if p in m.centers)
        self.coasts = sorted((m.provinces[p].daide, c + "S") for p in m.provinces
                             for c in m.provinces[p].coasts)

    def _heights(self) -> dict[str, int]:
        h: dict[str, int] = {}
        changed = True
        while changed:
            changed = False
            for name, expansions in self.rules.items():
                best = min((1 + max((0 if s.is_term else h.get(s.name, 10**6)) for s in e)
                            if e else 1) for e in expansions)
                if best < h.get(name, 10**6):
                    h[name] = best
                    changed = True
        return h

    def tokens(self, choose, name: str = "start", depth: int = 0, ctx: frozenset = frozenset()) -> list[str]:
        if not name.startswith("_"):
            if name in ("centres", "share", "sco"):
                ctx = ctx | {"centre"}
            if name == "for" and self.dialect == "daide":
                ctx = ctx | {"for"}
            if name in self.CARRIERS:
                ctx = ctx - {"for"}
        options = self.rules[name]
        if "for" in ctx:
            options = [e for e in options if not (len(e) == 1 and e[0].name == "for")] or options
        if depth > 6:
            low = min(self._cost(e) for e in options)
            options = [e for e in options if self._cost(e) == low]
        expansion = options[choose(len(options))]
        if name == "location" and len(expansion) == 4:
            prov, coast = self.coasts[choose(len(self.coasts))]
            return ["(", prov, coast, ")"]
        out: list[str] = []
        for s in expansion:
            if s.is_term:
                out.append(self.terminal(choose, s.name, ctx))
            else:
                out += self.tokens(choose, s.name, depth + 1, ctx)
        return out

    def _cost(self, expansion) -> int:
        return max((0 if s.is_term else self.height[s.name]) for s in expansion) if expansion else 0

    def terminal(self, choose, kind: str, ctx: frozenset) -> str:
        pick = {
            "LP": ["("], "RP": [")"], "POWER": list(POWER_TOKENS) + (["REF"] if self.dialect == "dpp" else []),
            "PROVINCE": self.centres if "centre" in ctx else self.provinces,
            "COAST": list(COAST_TOKENS[:4]), "SEASON": ["SPR", "SUM", "FAL", "AUT", "WIN"],
            "INTEGER": ["0", "1", "2", "1901", "-3"], "DECIMAL": ["0.5", "1.25"],
            "TEXT": ["'hello'", "'Bot 1.0'"], "DASH": ["-"],
        }.get(kind, [kind])
        return pick[choose(len(pick))]


_GENERATORS = {d: _Generator(d) for d in ("daide", "dpp")}


def _respaced(tokens: list[str], rnd: random.Random) -> str:
    out = ""
    for t in tokens:
        word = t if t.startswith("'") else (t.lower() if rnd.random() < 0.3 else t)
        if out and (out[-1] not in "( " and t != ")" or rnd.random() < 0.3):
            out += " " * rnd.randint(1, 2)
        out += word
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(["daide", "dpp"]), st.randoms(use_true_random=False))
def test_generated_messages_read_back_from_their_canonical_form(data, dialect, rnd):
    tokens = _GENERATORS[dialect].tokens(lambda n: data.draw(st.integers(0, n - 1)))
    text = _respaced(tokens, rnd)
    press = parse_press(text, level=TOP, dialect=dialect)
    again = parse_press(press.canonical, level=TOP, dialect=dialect)
    assert again == press and again.level == press.level
    assert again.canonical == press.canonical
    assert press.english()                      # every construct has its English
    if dialect == "daide" and press.level:
        lower = _below(press.level)
        with pytest.raises(PressLevelError):
            parse_press(text, level=lower)
        assert parse_press(text, level=press.level) == press


# ------------------------------------------------------------ dipsolve parse --press
def test_cli_prints_canonical_level_tree_and_english(capsys):
    assert main(["parse", "--press", "--english", "PRP(XDO((ENG", "FLT", "EDI)", "HLD))"]) == 0
    assert capsys.readouterr().out == (
        "canonical: PRP (XDO ((ENG FLT EDI) HLD))\n"
        "level:     20\n"
        "tree:\n"
        "  prp  PRP\n"
        "    xdo  XDO\n"
        "      hld  (ENG FLT EDI) HLD\n"
        "orders:    England: F EDI H\n"
        "english:   I propose that the English fleet in Edinburgh hold.\n\n")


def test_cli_rejects_above_the_level_with_status_2(capsys):
    assert main(["parse", "--press", "--level", "20", "XOY (ENG) (GER)"]) == 2
    assert capsys.readouterr().err == (
        "<press>:1:1: 'XOY' needs press level 110; this parser is at level 20\n"
        "XOY (ENG) (GER)\n"
        "^^^\n")


def test_cli_dpp_json(capsys):
    assert main(["parse", "--press", "--dialect", "dpp", "--json", SEED[0][0]]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["valid"] and obj["level"] is None and obj["dialect"] == "dpp"
    assert obj["english"] == SEED[0][1]
    assert obj["tree"] == {"rule": "frm", "parts": ["FRM", "ITA", {"rule": "frm", "parts": [
        "FRM", "AUS", {"rule": "dwr", "parts": ["DWR"]}]}]}


def test_cli_file_one_message_a_line(tmp_path, capsys):
    f = tmp_path / "talk.txt"
    f.write_text("PRP (PCE (AUS GER))\n# a comment\n\nXOY (ENG) (GER)\nPRP (PCE (AUS GRE))\n")
    assert main(["parse", "--press", "--level", "100", "--json", "-f", str(f)]) == 2
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["line"], r["valid"], r.get("kind")) for r in rows] == [
        (1, True, None), (4, False, "level"), (5, False, "syntax")]
    assert rows[1]["needed_level"] == 110 and rows[2]["col"] == 15
    assert rows[2]["error"] == "syntax" and rows[1]["error"] == "rule" and rows[1]["message"]


def test_cli_position_judges_the_orders_in_xdo(capsys):
    start = str(Path(__file__).parents[1] / "examples" / "start.dip")
    text = "PRP (AND (XDO ((ENG FLT LON) MTO PAR)) (XDO ((FRA AMY PAR) MTO BUR)))"
    assert main(["parse", "--press", "--position", start, text]) == 2
    err = capsys.readouterr().err
    assert err == ("<press>:1:16: F LON - PAR: a fleet cannot enter Paris (inland)\n"
                   f"{text}\n"
                   "               ^^^^^^^^^^^^^^^^^^^^^\n")
    assert main(["parse", "--press", "--position", start, "--json",
                 "PRP (XDO ((FRA AMY PAR) MTO BUR))"]) == 0
    assert json.loads(capsys.readouterr().out)["orders"][0]["problem"] is None


def test_cli_usage_mistakes(capsys):
    assert main(["parse", "--press"]) == 2
    assert "nothing to parse" in capsys.readouterr().err
    assert main(["parse", "--press", "--level", "-1", "DRW"]) == 2
