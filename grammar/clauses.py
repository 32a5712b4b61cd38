"""English clauses for the press gloss: words, verbs in their moods, orders and arrangements.

The English of a message (`dipsolve.grammar.english`) is built from clauses: a subject
and a verb phrase, conjugated as the sentence needs it (``conjugate``), or several
joined by "and" or "or":

    >>> conjugate("England", "hold Belgium")
    'England holds Belgium'
    >>> conjugate("England and France", "be at peace", "subj")
    'England and France be at peace'
    >>> conjugate("Italy", "declare war on him", "perfect")
    'Italy has declared war on him'
    >>> Clause(parts=(Clause("I", "win"), Clause("you", "lose")), joiner="or").render()
    'I win or you lose'

`Clauses` turns the constructs of a message tree (`dipsolve.grammar.tree.Node`) that
say what shall be (an order, an arrangement: ``PCE``, ``XDO``, ``DMZ``, ``AND`` ...)
into clauses, and names the powers, provinces, units and turns they mention.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from dipsolve.core.map import standard_map

from .daide_order import ORDER_RULES
from .tokens import POWER_TOKENS, REFEREE, province_tokens
from .tree import Node

__all__ = ["Clause", "Clauses", "conjugate", "join"]

_ADJECTIVES = {"Austria": "Austrian", "England": "English", "France": "French",
               "Germany": "German", "Italy": "Italian", "Russia": "Russian", "Turkey": "Turkish"}
_SEASON_NAMES = {"SPR": "Spring", "SUM": "Summer (Spring retreats)", "FAL": "Fall",
                 "AUT": "Autumn (Fall retreats)", "WIN": "Winter"}
_COAST_NAMES = {"NCS": "north coast", "SCS": "south coast", "ECS": "east coast",
                "WCS": "west coast", "NEC": "north-east coast", "SEC": "south-east coast",
                "NWC": "north-west coast", "SWC": "south-west coast"}
_IRREGULAR = {"be": "been", "win": "won", "make": "made", "keep": "kept", "send": "sent",
              "hold": "held", "give": "given", "have": "had", "build": "built", "say": "said",
              "do": "done", "tell": "told", "think": "thought"}


def _third(verb: str) -> str:
    if verb == "have":
        return "has"
    if verb == "do":
        return "does"
    if verb.endswith(("s", "sh", "ch", "x", "o")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _participle(verb: str) -> str:
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ied"
    return verb + "ed"


def _plural(subject: str) -> bool:
    return subject in ("I", "you", "we", "they") or " and " in subject or subject.startswith(
        ("both ", "all ", "exactly ", "between "))


def conjugate(subject: str, verb: str, mood: str = "ind", neg: bool = False) -> str:
    """``subject`` + the verb phrase ``verb`` (its first word a verb in the base form)
    in a mood: "subj" (that England *order*), "ind" (England *orders*), "perfect"
    (England *has ordered*), "inf" (*to order*, no subject)."""
    first, _, rest = verb.partition(" ")
    if mood == "inf":
        words = ("not to " if neg else "to ") + first
        return f"{words} {rest}".strip()
    if mood == "subj":
        v = ("not " if neg else "") + first
    elif mood == "perfect":
        v = ("have" if _plural(subject) else "has") + (" not " if neg else " ") + _participle(first)
    elif first == "be":
        v = "am" if subject == "I" else "are" if _plural(subject) else "is"
        v += " not" if neg else ""
    elif neg:
        v = ("do" if _plural(subject) else "does") + " not " + first
    else:
        v = first if _plural(subject) else _third(first)
    return f"{subject} {v} {rest}".strip()


def join(items: list[str], word: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c`` ("nobody" for none)."""
    if not items:
        return "nobody"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]


@dataclass(frozen=True)
class Clause:
    """An arrangement as a clause: a subject, a verb phrase, and whether it is denied;
    or several clauses joined by "and"/"or"."""

    subject: str = ""
    verb: str = ""
    neg: bool = False
    parts: tuple["Clause", ...] = ()
    joiner: str = "and"

    def render(self, mood: str = "ind") -> str:
        if self.parts:
            return join([f"({p.render(mood)})" if p.parts else p.render(mood)
                          for p in self.parts], self.joiner)
        return conjugate(self.subject, self.verb, mood, self.neg)

    def negated(self) -> "Clause":
        if self.parts:
            return Clause("it", "be so that " + self.render("ind"), True)
        return Clause(self.subject, self.verb, not self.neg)

    def then(self, tail: str) -> "Clause":
        if self.parts:
            return Clause("all this", f"hold {tail}", self.neg)
        return Clause(self.subject, f"{self.verb} {tail}", self.neg)


class Clauses(ABC):
    """Orders and arrangements of a message tree as clauses, and the words for what
    they name.  A message quoted inside another is said whole, by the subclass that
    says messages (`sentence`: the English writer)."""

    def __init__(self, dialect: str) -> None:
        self.dialect = dialect
        self.map = standard_map()

    # ---------------------------------------------------------------- words
    def power(self, token: str) -> str:
        return POWER_TOKENS.get(token, "the referee" if token == REFEREE else token)

    def powers(self, tokens: list[str]) -> str:
        return join([self.power(t) for t in tokens])

    def province(self, token: str) -> str:
        prov = self.map.provinces[province_tokens()[token]]
        return ("the " if prov.terrain == "sea" else "") + prov.name

    def provinces(self, tokens: list[str]) -> str:
        return join([self.province(t) for t in tokens])

    def place(self, n: Node) -> str:
        words = n.words()
        name = self.province(words[0])
        return f"{name} ({_COAST_NAMES[words[1]]})" if len(words) > 1 else name

    def unit(self, n: Node, article: str = "the") -> str:
        power, kind = n.words()[:2]
        what = {"AMY": "army", "FLT": "fleet", "UNT": "unit"}[kind]
        adjective = _ADJECTIVES.get(self.power(power), "referee's")
        loc = next(c for c in n.children() if c.rule == "location")
        if article == "a":
            article = "an" if adjective[0] in "AEIOU" else "a"
        return f"{article} {adjective} {what} in {self.place(loc)}"

    def kind_in(self, n: Node) -> str:
        """ "a fleet in Edinburgh": the unit without its power."""
        kind = {"AMY": "an army", "FLT": "a fleet", "UNT": "a unit"}[n.words()[1]]
        loc = next(c for c in n.children() if c.rule == "location")
        return f"{kind} in {self.place(loc)}"

    def turn(self, n: Node) -> str:
        season, year = n.words()
        return f"{_SEASON_NAMES[season]} {year}"

    def quote(self, n: Node) -> str:
        """A message another power said or is to say, in its own words."""
        return '"' + type(self)(self.dialect).sentence(n) + '"'

    @abstractmethod
    def sentence(self, n: Node) -> str:
        """The message ``n`` as a sentence."""

    # ---------------------------------------------------------------- orders
    def order(self, n: Node) -> Clause:
        rule, words = n.rule, n.words()
        units = [c for c in n.children() if c.rule == "unit"]
        places = [c for c in n.children() if c.rule == "location"]
        provinces = [w for w in words if w in province_tokens()]
        if rule in ("wve", "wve_dpp"):
            return Clause(self.power(words[0]) if words[0] in POWER_TOKENS else "I", "waive a build")
        who = self.unit(units[0])
        if rule == "hld":
            return Clause(who, "hold")
        if rule == "mto":
            return Clause(who, f"move to {self.place(places[-1])}")
        if rule == "sup_hld":
            return Clause(who, f"support {self.unit(units[1])}")
        if rule == "sup_mto":
            return Clause(who, f"support {self.unit(units[1])} into {self.province(provinces[0])}")
        if rule in ("cvy", "cnv"):
            dest = self.place(places[-1]) if rule == "cnv" else self.province(provinces[0])
            return Clause(who, f"convoy {self.unit(units[1])} to {dest}")
        if rule == "cto":
            return Clause(who, f"move to {self.province(provinces[0])} by convoy through "
                                f"{self.provinces(provinces[1:])}")
        if rule == "cto_dpp":
            return Clause(who, f"move to {self.place(places[-1])} by convoy of "
                                f"{join([self.unit(u) for u in units[1:]])}")
        if rule == "rto":
            return Clause(who, f"retreat to {self.place(places[-1])}")
        if rule == "dsb":
            return Clause(who, "disband")
        power = self.power(units[0].words()[0])
        if rule == "bld":
            return Clause(power, f"build {self.kind_in(units[0])}")
        return Clause(power, f"remove {who}")          # rem

    # ---------------------------------------------------------------- arrangements
    def clause(self, n: Node) -> Clause:
        """An arrangement (or, in DPP, any message) as a clause."""
        r, w, kids = n.rule, n.words(), n.children()
        if r in ORDER_RULES:
            return self.order(n)
        if r == "pce":
            return Clause(self.powers(w[1:]) if len(w) > 1 else "you and I", "be at peace")
        if r in ("aly", "aly_versus"):
            head, _, versus = " ".join(w[1:]).partition("VSS")
            allies = self.powers(head.split()) if head.split() else "you and I"
            against = f" against {self.powers(versus.split())}" if versus.split() else ""
            return Clause(allies, f"be allied{against}")
        if r == "drw":
            if len(w) == 2:            # DPP: a one-power draw is a victory
                return Clause(self.power(w[1]), "win the game")
            between = f" between {self.powers(w[1:])}" if len(w) > 1 else ""
            return Clause("the game", f"end in a draw{between}")
        if r == "slo":
            return Clause(self.power(w[1]), "win the game alone")
        if r == "not":
            if self.dialect == "dpp" and not kids:
                return Clause("we", "disagree")
            return self.clause(kids[0]).negated()
        if r == "nar":
            return Clause("there", "be no agreement on whether " + self.clause(kids[0]).render("ind"))
        if r == "xdo":
            orders = [self.order(k) for k in kids]
            return orders[0] if len(orders) == 1 else Clause(parts=tuple(orders))
        if r == "dmz":
            if self.dialect == "dpp":
                provinces = [t for t in w if t in province_tokens()]
                by = [t for t in w if t in POWER_TOKENS]
                if not provinces:
                    between = self.powers(by) if by else "you and me"
                    return Clause("there", f"be a demilitarized zone between {between}")
                kept = f"be kept empty{' by ' + self.powers(by) if by else ''}"
                return Clause(self.provinces(provinces), f"{kept} as a sort of Demilitarized Zone")
            powers = [t for t in w if t in POWER_TOKENS]
            provinces = [t for t in w if t in province_tokens()]
            return Clause(self.powers(powers), f"keep {self.provinces(provinces)} demilitarized")
        if r == "dmz_listed":
            return Clause(self.provinces(w[1:]), "be kept empty as a sort of Demilitarized Zone")
        if r in ("and", "orr", "logical"):
            joiner = "and" if r == "and" or w[0] == "AND" else "or"
            return Clause(parts=tuple(self.clause(k) for k in kids), joiner=joiner)
        if r == "scd":
            shares = []
            for k in kids:
                owner, *rest = k.words()
                who = "nobody" if owner == "UNO" else self.power(owner)
                what = (f"{rest[0]} centre{'' if rest[0] == '1' else 's'}" if rest and rest[0] not in province_tokens()
                        else self.provinces(rest))
                shares.append(f"{who} {'gets' if owner != 'UNO' else 'keeps'} {what}")
            return Clause("the supply centres", "be shared so that " + "; ".join(shares))
        if r == "occ":
            return Clause(parts=tuple(Clause(self.power(k.words()[0]), "have " + self.kind_in(k))
                                       for k in kids))
        if r == "cho":
            low, high = w[1], w[2]
            count = f"exactly {low}" if low == high else f"between {low} and {high}"
            options = [self.clause(k).render("ind") for k in kids]
            return Clause(f"{count} of these", "come true: " + "; ".join(options))
        if r in ("for", "for_period"):
            turns = [k for k in kids if k.rule == "turn"]
            when = (f"in {self.turn(turns[0])}" if r == "for"
                    else f"from {self.turn(turns[0])} to {self.turn(turns[1])}")
            return self.clause(kids[-1]).then(when)
        if r == "xoy":
            return Clause(self.power(w[1]), f"owe {self.power(w[2])} a favour")
        if r == "ydo":
            units = join([self.unit(k) for k in kids if k.rule == "unit"])
            return Clause(self.power(w[1]), f"decide the orders of {units}")
        if r == "snd":
            sender, *to = [t for t in w if t in POWER_TOKENS]
            return Clause(self.power(sender), f"send {self.powers(to)} the message {self.quote(kids[-1])}")
        if r == "fwd":
            powers = [t for t in w if t in POWER_TOKENS]
            *senders, receiver, target = powers
            return Clause(self.power(receiver), f"forward to {self.power(target)} every message "
                                                 f"from {self.powers(senders)}")
        if r == "bcc":
            powers = [t for t in w if t in POWER_TOKENS]
            sender, *to, target = powers
            return Clause(self.power(sender), f"copy to {self.power(target)} every message it "
                                               f"sends to {self.powers(to)}")
        if r == "rof":
            return Clause("you", "make me an offer")
        if r in ("ulb", "uub"):
            bound = "at least" if r == "ulb" else "at most"
            return Clause(f"my regard for {self.power(w[1])}", f"be {bound} {w[2]}")
        # anything else, said as a message
        return Clause("someone", f"say {self.quote(n)}")

    def infinitive(self, n: Node) -> str:
        """What a listener is asked to agree to (DPP): "ally with me against Austria"."""
        r, w = n.rule, n.words()
        if r in ("dmz", "dmz_listed"):
            return "demilitarize " + self.provinces([t for t in w if t in province_tokens()])
        if r in ("aly", "aly_versus"):
            head, _, versus = " ".join(w[1:]).partition("VSS")
            allies = self.powers(head.split()) if head.split() else "me"
            against = f" against {self.powers(versus.split())}" if versus.split() else ""
            return f"ally with {allies}{against}"
        if r == "pce":
            return "make peace" + (f" between {self.powers(w[1:])}" if len(w) > 1 else " with me")
        c = self.clause(n)
        return "agree that " + c.render("subj") if c.subject not in ("you",) else c.render("inf")

