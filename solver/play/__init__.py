"""Whole games: the bots (`bots`), their registry (`registry`), the harness (`games`), the
negotiating seat (`negotiation`) and the DAIDE client (`daide`)."""

#: a seat's opponent model unless told otherwise, the one default of ``solve``, ``play``
#: and ``daide``: `dipsolve.search.methods.DEFAULT_OPPONENTS` ("learned", a best response
#: to draws of the policy fitted to the others' orders, from a prior fitted to dipsolve's
#: own self-play), spelled here so that the command line's help does not load the search
#: (a test holds the two equal)
SEAT_DEFAULT = "learned"

#: a negotiating seat's press policies (`dipsolve.play.negotiation`): keep every agreement,
#: or break one when that is worth the trust lost; here so that the command line's help
#: does not load the seat
PRESS_POLICIES = ("honest", "opportunistic")
#: how a negotiating seat trusts the others: from the agreements each kept and broke, or
#: every power at the prior whatever it did (no trust reasoning: a baseline to measure it by)
TRUST_MODES = ("learned", "prior")
