"""The English gloss of a press message: a writer, beside `format_order` for orders.

    >>> from dipsolve.grammar.press import parse_press
    >>> english(parse_press("PRP(XDO((ENG FLT EDI) SUP (ENG AMY LVP) MTO CLY))").tree)
    'I propose that the English fleet in Edinburgh support the English army in Liverpool into Clyde.'
    >>> english(parse_press("FRM ITA (FRM AUS (DWR))", dialect="dpp").tree, "dpp")
    'Italy says Austria has declared war on him.'

Written in the manner of the glosses of the Hall & Loeb seed (section 5): the sender
speaks ("I propose that ..."), arrangements become clauses (`dipsolve.grammar.clauses`),
a forwarded message is reported ("Italy says Austria has declared war on him"), and a
client-server command is said plainly ("send me the position").  ``Press.english()``
is this function on the message's tree.
"""

from __future__ import annotations

import re
from typing import Callable, NamedTuple

from .clauses import Clauses, conjugate, join
from .daide_order import ORDER_RULES
from .tokens import POWER_TOKENS, REFEREE, canonical_text, province_tokens
from .tree import Node

__all__ = ["english", "statement"]

#: what a DAIDE order-result token says about the order
_OUTCOMES = {
    "SUC": "succeeded", "BNC": "bounced", "CUT": "was cut", "DSR": "failed (convoy disrupted)",
    "NSO": "had no matching order", "RET": "must retreat", "MBV": "is accepted",
    "FAR": "is refused: not adjacent", "NSP": "is refused: no such province",
    "NSU": "is refused: no such unit", "NAS": "is refused: not at sea",
    "NSF": "is refused: no such fleet", "NSA": "is refused: no such army",
    "NYU": "is refused: not your unit", "NRN": "is refused: no retreat needed",
    "NVR": "is refused: not a valid retreat", "YSC": "is refused: not your supply centre",
    "ESC": "is refused: not an empty supply centre", "HSC": "is refused: not a home supply centre",
    "NSC": "is refused: not a supply centre", "CST": "is refused: no coast given",
    "NMB": "is refused: no more builds allowed", "NMR": "is refused: no more removals allowed",
    "NRS": "is refused: not the right season", "FLD": "failed", "VLD": "succeeded",
    "NST": "is refused: no such unit type"}


def _still_to_order(count: int) -> str:
    """MIS (number): removals still to order (positive) or builds (negative)."""
    return (f"{count} more removals are needed" if count >= 0
            else f"{-count} more builds are to be ordered or waived")

#: the verbs of messages that say an arrangement, and the mood the arrangement takes
_SAYING = {"prp": ("propose that", "subj"), "ins": ("insist that", "subj"),
           "sug": ("suggest that", "subj"), "qry": ("ask whether", "ind"),
           "thk": ("think that", "ind"), "fct": ("state as a fact that", "ind")}


def english(tree: Node, dialect: str = "daide") -> str:
    """A message tree (`Press.tree`) in English, as one sentence."""
    return _English(dialect).sentence(tree)


def statement(arrangement: Node) -> str:
    """An arrangement (``PCE``, ``DMZ``, ``XDO``, ``AND`` ...) said as what is so, not as a
    proposal: what an agreement holds its parties to.

        >>> from dipsolve.grammar.press import parse_press
        >>> statement(parse_press("DMZ (FRA GER) (BUR)").tree)
        'France and Germany keep Burgundy demilitarized.'
    """
    text = _English("daide").clause(arrangement).render("ind")
    return text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")


class _English(Clauses):
    """Says messages; ``speaker`` and ``listener`` are who says a message to whom ("I"
    and "you" unless a FRM or SND says otherwise)."""

    def __init__(self, dialect: str) -> None:
        super().__init__(dialect)
        #: arrangements already named once (DPP: "I accept your proposal ..." then "... it")
        self.mentioned: list[Node] = []

    # ---------------------------------------------------------------- messages
    def sentence(self, n: Node) -> str:
        text = self.say(n, "I", "you")
        text = text[0].upper() + text[1:]
        return text if text.endswith(("?", ".", '"')) else text + "."

    def say(self, n: Node, speaker: str, listener: str, mood: str = "ind") -> str:
        """What ``speaker`` says to ``listener`` with the message ``n`` (no final stop):
        the message's rule looked up in `_DPP_SAYS` (DPP) and `_SAYS` (a writer may
        decline with None), else an arrangement proposed, else a command (`command`)."""
        me = speaker

        def v(verb: str, neg: bool = False) -> str:
            return conjugate(me, verb, mood, neg)

        said = _Said(n, n.words(), n.children(), v, me, listener, mood)
        for writers in ((_DPP_SAYS, _SAYS) if self.dialect == "dpp" else (_SAYS,)):
            writer = writers.get(n.rule)
            text = writer(self, said) if writer is not None else None
            if text is not None:
                return text
        if self._is_arrangement(n):
            return v(f"propose that {self.clause(n).render('subj')}")
        return self.command(n, v)

    def _thk_query(self, s: "_Said") -> str:
        inner = s.kids[0]
        neg = inner.rule == "not_query"
        said = self.clause((inner.children()[0] if neg else inner).children()[0])
        verb = "think that" if s.n.rule == "thk_query" else "state as a fact that"
        return s.v(f"{verb} {(said.negated() if neg else said).render('ind')}")

    def _why(self, s: "_Said") -> str:
        inner = s.kids[0]
        verb = {"thk": "think", "fct": "state", "sug": "suggest", "prp": "propose",
                "ins": "insist"}[inner.rule]
        m = "ind" if inner.rule in ("thk", "fct") else "subj"
        return s.v(f"ask why you {verb} that {self.clause(inner.children()[0]).render(m)}")

    def _answer(self, s: "_Said") -> str:
        """YES, REJ, BWX, NOT (DAIDE), IDK (DPP): a reply to a message, or (DPP) to bare content."""
        r, kids = s.n.rule, s.kids
        if kids and r != "idk":
            return self._reply(r, kids[0], s.speaker, s.listener, s.mood)
        if kids and kids[0].rule == "proposal" and kids[0].words()[0] == "QRY" \
                and self._is_arrangement(kids[0].children()[0]):
            return s.v(f"do not know whether {self.clause(kids[0].children()[0]).render('ind')}")
        if kids and r == "idk":
            return s.v(f"do not know about {self.quote(kids[0])}")
        word = {"yes": "agree", "rej": "refuse", "nop": "refuse", "bwx": "will not answer",
                "idk": "do not know"}[r]
        return s.v(word)

    def _dpp_not(self, s: "_Said") -> str | None:
        if self.dialect != "dpp":
            return None          # DAIDE's NOT is an arrangement
        if not s.kids:
            return s.v("disagree")
        inner = s.kids[0]
        if inner.rule == "pce":
            who = self.powers(inner.words()[1:]) if len(inner.words()) > 1 else s.listener
            return s.v(f"declare war on {who}")
        return s.v(f"propose that {self._as_clause(inner, 'subj', neg=True)}")

    def _from(self, s: "_Said") -> str | None:
        if self.dialect == "daide":
            sender, *to = [t for t in s.w if t in POWER_TOKENS]
            return f"{self.power(sender)} to {self.powers(to)}: {self.quote(s.kids[-1])}"
        return self._dpp_from(s.n) if s.n.rule == "frm" else None

    def _send_message(self, s: "_Said") -> str:
        to = [t for t in s.w if t in POWER_TOKENS]
        turns = [k for k in s.kids if k.rule == "turn"]
        when = f" (in {self.turn(turns[0])})" if turns else ""
        return f"to {self.powers(to)}{when}: {self.quote(s.kids[-1])}"

    def _dpp_exp(self, s: "_Said") -> str:
        turns = [self.turn(k) for k in s.kids if k.rule == "turn"]
        said = [k for k in s.kids if k.rule != "turn"]
        when = f" before {turns[0]}" if turns else ""
        what = (": " + "; ".join(self.quote(k) for k in said)) if said else ""
        return s.v(f"accuse you of breaking your promises{when}{what}")

    def _dpp_ord(self, s: "_Said") -> str:
        turns = [self.turn(k) for k in s.kids if k.rule == "turn"]
        results = [f"{self.order(k).render('ind')}" for k in s.kids if k.rule in ORDER_RULES]
        notes = [_OUTCOMES.get(t, t) for t in s.w[1:] if t in _OUTCOMES]
        done = "; ".join(f"{o} ({note})" for o, note in zip(results, notes))
        return f"the results of {turns[0]}" + (f": {done}" if done else ": no orders")

    def _units_of(self, s: "_Said") -> list[str]:
        return [self.unit(k) for k in s.kids if k.rule == "unit"]

    # ---------------------------------------------------------------- pieces of messages
    _ARRANGEMENTS = frozenset({"pce", "aly", "aly_versus", "drw", "slo", "not", "nar", "xdo",
                               "dmz", "dmz_listed", "and", "orr", "scd", "occ", "cho", "for",
                               "for_period", "xoy", "ydo", "snd", "fwd", "bcc", "rof", "ulb",
                               "uub"})

    def _is_arrangement(self, n: Node) -> bool:
        if self.dialect == "dpp":
            if n.rule == "logical":
                return all(self._is_arrangement(k) for k in n.children())
            return n.rule in ("pce", "aly", "aly_versus", "dmz", "dmz_listed", "xdo", "scd",
                              "xoy", "drw")
        return n.rule in self._ARRANGEMENTS

    def _as_clause(self, n: Node, mood: str, neg: bool = False) -> str:
        if self._is_arrangement(n) or n.rule in ORDER_RULES:
            c = self.clause(n)
            return (c.negated() if neg else c).render(mood)
        return ("it is not so that " if neg else "") + self.quote(n)

    def _noun(self, n: Node) -> str:
        return {"prp": "proposal", "ins": "demand", "sug": "suggestion"}.get(n.rule, "message")

    def _target(self, n: Node) -> str:
        w = n.words()
        units = [k for k in n.children() if k.rule == "unit"]
        if units:
            return self.unit(units[0])
        return self.power(w[1]) if w[1] in POWER_TOKENS or w[1] == REFEREE else self.province(w[1])

    def _tokens(self, n: Node) -> str:
        return '"' + canonical_text(n.tokens()) + '"'

    def _reply(self, r: str, inner: Node, me: str, listener: str, mood: str) -> str:
        verb = {"yes": "accept", "rej": "reject", "nop": "reject", "bwx": "will not answer"}[r]
        if r == "bwx":
            return conjugate(me, f"will not answer {self.quote(inner)}", mood)
        if inner.rule == "proposal" and inner.words()[0] in ("PRP", "INS") \
                and self._is_arrangement(inner.children()[0]):
            noun = "proposal" if inner.words()[0] == "PRP" else "demand"
            return conjugate(me, f"{verb} your {noun} that "
                                 f"{self.clause(inner.children()[0]).render('subj')}", mood)
        if inner.rule in ("prp", "ins", "sug") and self._is_arrangement(inner.children()[0]):
            return conjugate(me, f"{verb} your {self._noun(inner)} that "
                                 f"{self.clause(inner.children()[0]).render('subj')}", mood)
        if self.dialect == "dpp" and self._is_arrangement(inner):
            if inner in self.mentioned:
                return conjugate(me, f"{verb} it", mood)
            self.mentioned.append(inner)
            return conjugate(me, f"{verb} your proposal to {self.infinitive(inner)}", mood)
        return conjugate(me, f"{'agree to' if r == 'yes' else 'refuse'} {self.quote(inner)}", mood)

    def _conditional(self, n: Node, me: str, listener: str) -> str:
        kids = n.children()
        condition = kids[0]
        if self.dialect == "dpp" and self._is_arrangement(condition):
            cond = conjugate(listener, f"agree to {self.infinitive(condition)}")
        elif self._is_arrangement(condition) or condition.rule in ORDER_RULES:
            cond = self.clause(condition).render("ind")
        else:
            cond = self.say(condition, listener, me)
        then = self.say(kids[1], me, listener)
        text = f"if {cond} then {then}"
        if len(kids) > 2:
            text += f", otherwise {self.say(kids[2], me, listener)}"
        return text

    def _dpp_from(self, n: Node) -> str:
        """FRM X (msg): X said msg to me.  A bare arrangement from X is X's proposal;
        a message X forwards (FRM Y (...)) is reported: "X says Y has ..."."""
        powers = [t for t in n.words() if t in POWER_TOKENS or t == REFEREE]
        sender = self.power(powers[0])
        listener = self.powers(powers[1:]) if len(powers) > 1 else "me"
        out = []
        for m in n.children():
            if m.rule == "frm":
                inner_powers = [t for t in m.words() if t in POWER_TOKENS or t == REFEREE]
                origin = self.power(inner_powers[0])
                reports = [self.say(k, origin, "him", "perfect") for k in m.children()]
                out.append(f"{sender} says " + "; ".join(reports))
            else:
                out.append(self.say(m, sender, listener))
        return "; ".join(out)

    def _dpp_send(self, n: Node) -> str:
        """SND X (msg): I say msg to X; the first "you" is named ("you, Russia,")."""
        powers = [t for t in n.words() if t in POWER_TOKENS or t == REFEREE]
        names = self.powers(powers)
        out = []
        for m in n.children():
            text = self.say(m, "I", "you")
            named, count = re.subn(r"\byou\b", f"you, {names},", text, count=1)
            out.append(named if count else f"to {names}: {text}")
        return "; ".join(out)

    # ---------------------------------------------------------------- commands
    def command(self, n: Node, v: Callable[..., str]) -> str:
        """A client-server command or report (and DPP's other messages), said plainly: the
        fixed sentences of `_SIMPLE`, else the rule's writer in `_COMMANDS`."""
        r, w = n.rule, n.words()
        if r == "request":
            return f"send me the {w[0]} message" if w else ""
        if r in _SIMPLE:
            return _SIMPLE[r]
        kids = n.children()
        turns = [k for k in kids if k.rule == "turn"]
        writer = _COMMANDS.get(r)
        if writer is None:
            return f"the message {canonical_text(n.tokens())}"
        return writer(self, _Command(n, w, kids, turns, [t.strip("'") for t in w if t.startswith("'")],
                                     [k for k in kids if k.rule in ORDER_RULES]))

    def _submit(self, c: "_Command") -> str:
        when = f" for {self.turn(c.turns[0])}" if c.turns else ""
        if not c.orders:
            return "I submit orders" + when
        return f"I submit{when}: " + "; ".join(self.order(o).render("ind") for o in c.orders)

    def _hlo(self, c: "_Command") -> str:
        power = "an observer" if c.w[1] == "UNO" else self.power(c.w[1])
        options = "; ".join(" ".join(o.words()) for o in c.kids if o.rule in
                            ("variant_option", "pda", "ptl", "npr", "npb"))
        return f"you play {power}, passcode {c.w[2]}" + (f" ({options})" if options else "")

    def _units_listed(self, c: "_Command") -> str:
        units = [self._unit_on_board(k) for k in c.kids if k.rule == "unit_on_board"]
        head = f"the position in {self.turn(c.turns[0])}" if c.n.rule == "now" else "orders are missing for"
        return f"{head}: " + "; ".join(units)

    def _sco(self, c: "_Command") -> str:
        owners = []
        for k in c.kids:
            owner, *provinces = k.words()
            who = "unowned" if owner == "UNO" else self.power(owner)
            owners.append(f"{who}: {self.provinces(provinces)}")
        return "supply centres: " + "; ".join(owners)

    def _withdrawn(self, n: Node) -> str:
        r = n.rule
        return {"gof": "my go-ahead (wait for the deadline)", "drw_command": "my draw",
                "sub_request": "all my orders", "tme_request": "my time warnings",
                "tme": f"my time warning at {n.words()[-1]} seconds" if n.words()[1:] else ""}.get(
            r, "my order that " + self.order(n.children()[0]).render("ind") if r == "sub_order"
            else f"my draw between {self.powers(n.words()[1:])}" if r == "drw_powers_command"
            else f"the civil disorder of {self.power(n.words()[-1])}" if r == "ccd"
            else canonical_text(n.tokens()))

    def _quote_command(self, n: Node) -> str:
        return '"' + canonical_text(n.tokens()) + '"'

    def _unit_on_board(self, n: Node) -> str:
        head = self.unit(n)
        retreats = [self.place(k) for k in n.children() if k.rule == "location"][1:]
        retreats += [self.province(t) for t in n.words() if t in province_tokens()]
        if "MRT" in n.words():
            return head + " (must retreat" + (f" to {join(retreats, 'or')})" if retreats
                                               else ", or disband)")
        return head

    def _outcome(self, n: Node) -> str:
        words = [t for t in n.tokens() if t not in "()"]
        return ", ".join(_OUTCOMES.get(t, t) for t in words)

    def _period(self, n: Node) -> str:
        turns = [self.turn(k) for k in n.children() if k.rule == "turn"]
        words = n.words()
        if not turns:
            return f"turn {words[0]}"
        if "-" not in words:
            return turns[0]
        if len(turns) == 2:
            return f"{turns[0]} to {turns[1]}"
        return f"from {turns[0]} on" if n.parts[0] != "-" else f"until {turns[0]}"


# -- the writers, by the message's rule ------------------------------------------------------

class _Said(NamedTuple):
    """A message being said: the node, its words and children, the verb conjugated for
    the speaker (``v``), who says it to whom, in which mood."""

    n: Node
    w: list[str]
    kids: list[Node]
    v: Callable[..., str]
    speaker: str
    listener: str
    mood: str


class _Command(NamedTuple):
    """A command being said: the node, its words, children, turns, quoted texts, orders."""

    n: Node
    w: list[str]
    kids: list[Node]
    turns: list[Node]
    texts: list[str]
    orders: list[Node]


_SayWriter = Callable[[_English, _Said], "str | None"]


def _saying(e: _English, s: _Said) -> str | None:
    """PRP, INS, SUG, QRY, THK, FCT of an arrangement (else not said here)."""
    if not (s.kids and e._is_arrangement(s.kids[0])):
        return None
    verb, mood = _SAYING[s.n.rule]
    return s.v(f"{verb} {e.clause(s.kids[0]).render(mood)}")


#: what a message says, by its rule (the DPP-only forms are `_English._dpp_say`'s)
_SAYS: dict[str, _SayWriter] = {
    **{r: _saying for r in _SAYING},
    "proposal": lambda e, s: s.v(  # DPP QRY/INS/PRP of a whole message
        {"QRY": "ask whether", "INS": "insist that", "PRP": "propose that"}[s.w[0]] + " "
        + e._as_clause(s.kids[0], "subj" if s.w[0] != "QRY" else "ind")),
    "thk_query": _English._thk_query,
    "fct_query": _English._thk_query,
    "idk_query": lambda e, s: s.v(
        f"do not know whether {e.clause(s.kids[0].children()[0]).render('ind')}"),
    "idk_request": lambda e, s: s.v(
        f"have no suggestion for {e.unit(s.kids[0].children()[0])}" if s.kids[0].rule == "wht"
        else f"have no suggestion on how to attack {e._target(s.kids[0])}"),
    "idk_explanation": lambda e, s: s.v(f"see nothing to explain in {e.turn(s.kids[0].children()[0])}"),
    "sry": lambda e, s: s.v(f"be sorry about {e.turn(s.kids[0].children()[0])}"),
    "why": _English._why,
    "pob": lambda e, s: ("the position on the board implies that "
                         + e.clause(s.kids[0].children()[0].children()[0]).render("ind")),
    "idk_proposal": lambda e, s: s.v(
        f"do not know whether to accept your {e._noun(s.kids[0])} that "
        f"{e.clause(s.kids[0].children()[0]).render('subj')}"),
    "emotion": lambda e, s: s.v(
        f"be {dict(UHY='unhappy', HPY='happy', ANG='angry')[s.w[0]]} about {e.quote(s.kids[0])}"),
    **{r: _English._answer for r in ("yes", "rej", "bwx", "nop", "idk")},
    "not": _English._dpp_not,
    "huh": lambda e, s: s.v(f"do not understand {e._tokens(s.kids[0])}"),
    "huh_command": lambda e, s: s.v(f"do not understand {e._tokens(s.kids[0])}"),
    "ccl": lambda e, s: s.v(f"cancel the message {e.quote(s.kids[0])}"),
    "try": lambda e, s: s.v(
        f"understand {join(listed)}" if (listed := [t for t in s.n.tokens() if t not in "()"][1:])
        else "understand no press"),
    "vocabulary": lambda e, s: s.v(
        f"{dict(TRY='understand', PSV='understand but do not use', ACT='use but do not understand')[s.w[0]]}"
        f" {join(s.w[1:])}" if len(s.w) > 1 else "understand no press"),
    "wht": lambda e, s: s.v(f"ask what {e.unit(s.kids[0])} should do"),
    "how": lambda e, s: s.v(f"ask how to attack {e._target(s.n)}"),
    "exp": lambda e, s: s.v(
        f"ask you to explain your moves in {e.turn(s.kids[0])}, after {e.quote(s.kids[-1])}"),
    "iff": lambda e, s: e._conditional(s.n, s.speaker, s.listener),
    "frm": _English._from,
    "frm_command": _English._from,
    "send_message": _English._send_message,
    "snd": lambda e, s: e._dpp_send(s.n) if e.dialect == "dpp" else None,
    "snt": lambda e, s: s.v(f"have sent {e.power(s.w[1])} " + "; ".join(e.quote(k) for k in s.kids)),
    "free_text": lambda e, s: s.v(f"say {s.w[0]}"),
    "dwr": lambda e, s: s.v(f"declare war on {e.powers(s.w[1:]) if len(s.w) > 1 else s.listener}"),
}

#: the DPP messages whose arguments differ from DAIDE's (most may be left out)
_DPP_SAYS: dict[str, _SayWriter] = {
    "sry": lambda e, s: s.v("be sorry"),
    "wht": lambda e, s: s.v(f"ask what {join(units)} should do" if (units := e._units_of(s))
                            else "ask what my units should do"),
    "exp": _English._dpp_exp,
    "hlo": lambda e, s: f"you play {e.power(s.w[1])}" + (f" ({', '.join(s.w[2:])})" if s.w[2:] else ""),
    "ord": _English._dpp_ord,
    "mis": lambda e, s: ("orders are missing for " + join(units) if (units := e._units_of(s))
                         else _still_to_order(int(s.w[-1]))),
    "out": lambda e, s: e.power(s.w[1]) + " " + {"CDD": "is in civil disorder", "OUT": "is out of the game",
                                                 "NSC": "is not a country"}[s.w[0]],
}

#: the commands said in a fixed sentence
_SIMPLE = {
    "obs": "I am an observer", "map_request": "which map is played?",
    "mdf_request": "send me the map definition", "now_request": "send me the position",
    "sco_request": "send me the supply centre owners", "tme_request":
    "how long is it to the deadline?", "hlo_request": "send me my power again",
    "mis_request": "which orders are missing?", "gof": "process the orders when all are in",
    "ord_request": "send me the last results", "drw_command": "I accept a draw",
    "off": "exit now", "sub_request": "all my orders", "rof": "make me an offer",
    "end": "I offer to disconnect", "slp": "I will wait for input", "sry": "I am sorry",
    "ppt": "I offer to become your puppet",
}

_CommandWriter = Callable[[_English, _Command], str]

#: what a command or report says, by its rule
_COMMANDS: dict[str, _CommandWriter] = {
    "bare_order": lambda e, c: e.order(c.kids[0]).render("ind"),
    "nme": lambda e, c: f"my name is '{c.texts[0]}', version '{c.texts[1]}'",
    "iam": lambda e, c: f"I am {e.power(c.w[1])} again (passcode {c.w[-1]})",
    "map": lambda e, c: f"the map is '{c.texts[0]}'",
    "mdf": lambda e, c: f"the map definition for {e.powers([t for t in c.w if t in POWER_TOKENS])}",
    "hst": lambda e, c: f"send me the results of {e.turn(c.kids[0])}",
    "tme": lambda e, c: f"{c.w[1]} seconds to the deadline" if len(c.w) > 1 else "the deadline is near",
    "adm": lambda e, c: f"admin message from '{c.texts[0]}': '{c.texts[1]}'",
    "sub": _English._submit,
    "not_command": lambda e, c: f"I withdraw {e._withdrawn(c.kids[0])}",
    "sub_order": lambda e, c: "my order that " + e.order(c.kids[0]).render("ind"),
    "drw_powers_command": lambda e, c: f"I accept a draw between {e.powers(c.w[1:])}",
    "yes_command": lambda e, c: f"accepted: {e._quote_command(c.kids[0])}",
    "rej_command": lambda e, c: f"rejected: {e._quote_command(c.kids[0])}",
    "hlo": _English._hlo,
    "now": _English._units_listed,
    "mis": _English._units_listed,
    "sco": _English._sco,
    "thx": lambda e, c: f"order received: {e.order(c.orders[0]).render('ind')} ({e._outcome(c.kids[-1])})",
    "mis_count": lambda e, c: _still_to_order(int(c.w[-1])),
    "ord": lambda e, c: (f"in {e.turn(c.turns[0])}: {e.order(c.orders[0]).render('ind')} "
                         f"({e._outcome(c.kids[-1])})"),
    "sve": lambda e, c: f"save the game as '{c.texts[0]}'",
    "lod": lambda e, c: f"load the game '{c.texts[0]}'",
    "prn": lambda e, c: f"bad brackets in \"{canonical_text(c.n.tokens())[4:]}\"",
    "ccd": lambda e, c: f"{e.power(c.w[1])} is in civil disorder",
    "slo_command": lambda e, c: f"{e.power(c.w[1])} has won the game alone",
    "smr": lambda e, c: f"the game is over ({e.turn(c.turns[0])})",
    "out": lambda e, c: f"{e.power(c.w[-1])} is out of the game",
    # DPP
    "logical": lambda e, c: join([e.say(k, "I", "you") for k in c.kids], "and" if c.w[0] == "AND" else "or"),
    "favour": lambda e, c: (("I owe you a favour" if c.w[0] == "IOU" else "you owe me a favour")
                            + (f" of {c.w[1]}" if len(c.w) > 1 else "")),
    "for": lambda e, c: f"for {e._period(c.kids[0])}: " + "; ".join(e.say(k, "I", "you") for k in c.kids[1:]),
    "alt": lambda e, c: "please use the DPP syntax" if len(c.w) > 1 else "please use another syntax",
    "rpt": lambda e, c: "please repeat " + (e.quote(c.kids[0]) if c.kids else "your message"),
    "log": lambda e, c: f"log {e.quote(c.kids[0])}",
    "thk_order": lambda e, c: f"I predict: {e.order(c.kids[0]).render('ind')} ({_OUTCOMES.get(c.w[-1], c.w[-1])})",
}
