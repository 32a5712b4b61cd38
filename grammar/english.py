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
from typing import Callable

from .clauses import Clauses, conjugate, join
from .daide_order import ORDER_RULES
from .tokens import POWER_TOKENS, REFEREE, canonical_text, province_tokens
from .tree import Node

__all__ = ["english"]

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
        """What ``speaker`` says to ``listener`` with the message ``n`` (no final stop)."""
        r, w, kids = n.rule, n.words(), n.children()
        me = speaker

        def v(verb: str, neg: bool = False) -> str:
            return conjugate(me, verb, mood, neg)

        if self.dialect == "dpp":
            dpp = self._dpp_say(n, v)
            if dpp is not None:
                return dpp

        if r in _SAYING and (kids and self._is_arrangement(kids[0])):
            verb, m = _SAYING[r]
            return v(f"{verb} {self.clause(kids[0]).render(m)}")
        if r == "proposal":          # DPP QRY/INS/PRP of a whole message
            verb = {"QRY": "ask whether", "INS": "insist that", "PRP": "propose that"}[w[0]]
            return v(f"{verb} {self._as_clause(kids[0], 'subj' if w[0] != 'QRY' else 'ind')}")
        if r in ("thk_query", "fct_query"):
            inner = kids[0]
            neg = inner.rule == "not_query"
            arrangement = (inner.children()[0] if neg else inner).children()[0]
            verb = "think that" if r == "thk_query" else "state as a fact that"
            return v(f"{verb} {self.clause(arrangement).render('ind') if not neg else self.clause(arrangement).negated().render('ind')}")
        if r == "idk_query":
            return v(f"do not know whether {self.clause(kids[0].children()[0]).render('ind')}")
        if r == "idk_request":
            inner = kids[0]
            if inner.rule == "wht":
                return v(f"have no suggestion for {self.unit(inner.children()[0])}")
            return v(f"have no suggestion on how to attack {self._target(inner)}")
        if r == "idk_explanation":
            return v(f"see nothing to explain in {self.turn(kids[0].children()[0])}")
        if r == "sry":
            return v(f"be sorry about {self.turn(kids[0].children()[0])}")
        if r == "why":
            inner = kids[0]
            verb = {"thk": "think", "fct": "state", "sug": "suggest", "prp": "propose",
                    "ins": "insist"}[inner.rule]
            m = "ind" if inner.rule in ("thk", "fct") else "subj"
            return v(f"ask why you {verb} that {self.clause(inner.children()[0]).render(m)}")
        if r == "pob":
            fact = kids[0].children()[0]
            return f"the position on the board implies that {self.clause(fact.children()[0]).render('ind')}"
        if r == "idk_proposal":
            inner = kids[0]
            return v(f"do not know whether to accept your {self._noun(inner)} that "
                     f"{self.clause(inner.children()[0]).render('subj')}")
        if r == "emotion":
            feeling = {"UHY": "unhappy", "HPY": "happy", "ANG": "angry"}[w[0]]
            return v(f"be {feeling} about {self.quote(kids[0])}")
        if r in ("yes", "rej", "bwx", "nop") and kids:
            return self._reply(r, kids[0], me, listener, mood)
        if r == "idk" and kids:                           # DPP
            inner = kids[0]
            if inner.rule == "proposal" and inner.words()[0] == "QRY" \
                    and self._is_arrangement(inner.children()[0]):
                return v(f"do not know whether {self.clause(inner.children()[0]).render('ind')}")
            return v(f"do not know about {self.quote(inner)}")
        if r in ("yes", "rej", "bwx", "nop", "idk"):   # DPP, bare content
            word = {"yes": "agree", "rej": "refuse", "nop": "refuse", "bwx": "will not answer",
                    "idk": "do not know"}[r]
            tail = f" to {self.quote(kids[0])}" if kids else ""
            return v(word + tail)
        if r == "not" and self.dialect == "dpp":
            if not kids:
                return v("disagree")
            inner = kids[0]
            if inner.rule == "pce":
                who = self.powers(inner.words()[1:]) if len(inner.words()) > 1 else listener
                return v(f"declare war on {who}")
            return v(f"propose that {self._as_clause(inner, 'subj', neg=True)}")
        if r in ("huh", "huh_command"):
            return v(f"do not understand {self._tokens(kids[0])}")
        if r == "ccl":
            return v(f"cancel the message {self.quote(kids[0])}")
        if r == "try":
            listed = [t for t in n.tokens() if t not in "()"][1:]
            return v(f"understand {join(listed)}" if listed else "understand no press")
        if r == "vocabulary":
            verb = {"TRY": "understand", "PSV": "understand but do not use",
                    "ACT": "use but do not understand"}[w[0]]
            return v(f"{verb} {join(w[1:])}" if len(w) > 1 else "understand no press")
        if r == "wht":
            return v(f"ask what {self.unit(kids[0])} should do")
        if r == "how":
            return v(f"ask how to attack {self._target(n)}")
        if r == "exp":
            turn = self.turn(kids[0])
            return v(f"ask you to explain your moves in {turn}, after {self.quote(kids[-1])}")
        if r == "iff":
            return self._conditional(n, me, listener)
        if r in ("frm", "frm_command") and self.dialect == "daide":
            sender, *to = [t for t in w if t in POWER_TOKENS]
            return f"{self.power(sender)} to {self.powers(to)}: {self.quote(kids[-1])}"
        if r == "frm":
            return self._dpp_from(n)
        if r == "send_message":
            to = [t for t in w if t in POWER_TOKENS]
            turns = [k for k in kids if k.rule == "turn"]
            when = f" (in {self.turn(turns[0])})" if turns else ""
            return f"to {self.powers(to)}{when}: {self.quote(kids[-1])}"
        if r == "snd" and self.dialect == "dpp":
            return self._dpp_send(n)
        if r == "snt":
            return v(f"have sent {self.power(w[1])} " + "; ".join(self.quote(k) for k in kids))
        if r == "free_text":
            return v(f"say {w[0]}")
        if r == "dwr":
            who = self.powers(w[1:]) if len(w) > 1 else listener
            return v(f"declare war on {who}")
        if self._is_arrangement(n):
            return v(f"propose that {self.clause(n).render('subj')}")
        return self.command(n, v)

    def _dpp_say(self, n: Node, v: Callable[..., str]) -> str | None:
        """The DPP messages whose arguments differ from DAIDE's (most may be left out)."""
        r, w, kids = n.rule, n.words(), n.children()
        turns = [self.turn(k) for k in kids if k.rule == "turn"]
        said = [k for k in kids if k.rule != "turn"]
        if r == "sry":
            return v("be sorry")
        if r == "wht":
            units = [self.unit(k) for k in kids if k.rule == "unit"]
            return v(f"ask what {join(units)} should do" if units else "ask what my units should do")
        if r == "exp":
            when = f" before {turns[0]}" if turns else ""
            what = (": " + "; ".join(self.quote(k) for k in said)) if said else ""
            return v(f"accuse you of breaking your promises{when}{what}")
        if r == "hlo":
            options = [t for t in w[2:]]
            return f"you play {self.power(w[1])}" + (f" ({', '.join(options)})" if options else "")
        if r == "ord":
            results = [f"{self.order(k).render('ind')}" for k in kids if k.rule in ORDER_RULES]
            notes = [_OUTCOMES.get(t, t) for t in w[1:] if t in _OUTCOMES]
            done = "; ".join(f"{o} ({note})" for o, note in zip(results, notes))
            return f"the results of {turns[0]}" + (f": {done}" if done else ": no orders")
        if r == "mis":
            units = [self.unit(k) for k in kids if k.rule == "unit"]
            if units:
                return "orders are missing for " + join(units)
            return _still_to_order(int(w[-1]))
        if r == "out":
            what = {"CDD": "is in civil disorder", "OUT": "is out of the game",
                    "NSC": "is not a country"}[w[0]]
            return f"{self.power(w[1])} {what}"
        return None

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
        r, w, kids = n.rule, n.words(), n.children()
        turns = [k for k in kids if k.rule == "turn"]
        when = f" for {self.turn(turns[0])}" if turns else ""
        texts = [t.strip("'") for t in w if t.startswith("'")]
        orders = [k for k in kids if k.rule in ORDER_RULES]
        simple = {
            "obs": "I am an observer", "map_request": "which map is played?",
            "mdf_request": "send me the map definition", "now_request": "send me the position",
            "sco_request": "send me the supply centre owners", "tme_request":
            "how long is it to the deadline?", "hlo_request": "send me my power again",
            "mis_request": "which orders are missing?", "gof": "process the orders when all are in",
            "ord_request": "send me the last results", "drw_command": "I accept a draw",
            "off": "exit now", "sub_request": "all my orders", "rof": "make me an offer",
            "end": "I offer to disconnect", "slp": "I will wait for input", "sry": "I am sorry",
            "request": f"send me the {w[0]} message" if w else "",
        }
        if r in simple:
            return simple[r]
        if r == "bare_order":
            return self.order(kids[0]).render("ind")
        if r == "nme":
            return f"my name is '{texts[0]}', version '{texts[1]}'"
        if r == "iam":
            return f"I am {self.power(w[1])} again (passcode {w[-1]})"
        if r == "map":
            return f"the map is '{texts[0]}'"
        if r == "mdf":
            return f"the map definition for {self.powers([t for t in w if t in POWER_TOKENS])}"
        if r == "hst":
            return f"send me the results of {self.turn(kids[0])}"
        if r == "tme":
            return f"{w[1]} seconds to the deadline" if len(w) > 1 else "the deadline is near"
        if r == "adm":
            return f"admin message from '{texts[0]}': '{texts[1]}'"
        if r == "sub":
            return f"I submit{when}: " + "; ".join(self.order(o).render("ind") for o in orders) \
                if orders else "I submit orders" + when
        if r == "not_command":
            return f"I withdraw {self._withdrawn(kids[0])}"
        if r == "sub_order":
            return "my order that " + self.order(kids[0]).render("ind")
        if r == "drw_powers_command":
            return f"I accept a draw between {self.powers(w[1:])}"
        if r in ("yes_command", "rej_command"):
            verb = "accepted" if r == "yes_command" else "rejected"
            return f"{verb}: {self._quote_command(kids[0])}"
        if r == "hlo":
            power = "an observer" if w[1] == "UNO" else self.power(w[1])
            options = "; ".join(" ".join(o.words()) for o in kids if o.rule in
                                ("variant_option", "pda", "ptl", "npr", "npb"))
            return f"you play {power}, passcode {w[2]}" + (f" ({options})" if options else "")
        if r in ("now", "mis"):
            units = [self._unit_on_board(k) for k in kids if k.rule == "unit_on_board"]
            head = f"the position in {self.turn(turns[0])}" if r == "now" else "orders are missing for"
            return f"{head}: " + "; ".join(units)
        if r == "sco":
            owners = []
            for k in kids:
                owner, *provinces = k.words()
                who = "unowned" if owner == "UNO" else self.power(owner)
                owners.append(f"{who}: {self.provinces(provinces)}")
            return "supply centres: " + "; ".join(owners)
        if r == "thx":
            return f"order received: {self.order(orders[0]).render('ind')} ({self._outcome(kids[-1])})"
        if r == "mis_count":
            return _still_to_order(int(w[-1]))
        if r == "ord":
            return (f"in {self.turn(turns[0])}: {self.order(orders[0]).render('ind')} "
                    f"({self._outcome(kids[-1])})")
        if r == "sve":
            return f"save the game as '{texts[0]}'"
        if r == "lod":
            return f"load the game '{texts[0]}'"
        if r == "prn":
            return f"bad brackets in \"{canonical_text(n.tokens())[4:]}\""
        if r == "ccd":
            return f"{self.power(w[1])} is in civil disorder"
        if r == "slo_command":
            return f"{self.power(w[1])} has won the game alone"
        if r == "smr":
            return f"the game is over ({self.turn(turns[0])})"
        if r in ("out",):
            return f"{self.power(w[-1])} is out of the game"
        # DPP
        if r == "logical":
            return join([self.say(k, "I", "you") for k in kids], "and" if w[0] == "AND" else "or")
        if r == "favour":
            amount = f" of {w[1]}" if len(w) > 1 else ""
            return ("I owe you a favour" if w[0] == "IOU" else "you owe me a favour") + amount
        if r == "for":
            period = self._period(kids[0])
            return f"for {period}: " + "; ".join(self.say(k, "I", "you") for k in kids[1:])
        if r == "ppt":
            return "I offer to become your puppet"
        if r == "alt":
            return "please use the DPP syntax" if len(w) > 1 else "please use another syntax"
        if r == "rpt":
            return "please repeat " + (self.quote(kids[0]) if kids else "your message")
        if r == "log":
            return f"log {self.quote(kids[0])}"
        if r == "thk_order":
            return f"I predict: {self.order(kids[0]).render('ind')} ({_OUTCOMES.get(w[-1], w[-1])})"
        return f"the message {canonical_text(n.tokens())}"

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
