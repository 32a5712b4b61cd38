"""Whole games: the bots (`bots`), their registry (`registry`), the harness (`games`) and
the DAIDE client (`daide`)."""

#: a seat's opponent model unless told otherwise: "learned", a best response to draws of
#: the policy fitted to the others' orders, from a prior fitted to dipsolve's own
#: self-play (the prior alone in the first phase).  It knows nobody's program, as the
#: phase game does not, and plays better than it in every field measured
#: (docs/history/2026-11-27-issue-24.md, "Which model a seat plays by default").
#: ``solve``, which sees one position and no table, plays the phase game.  Here, below
#: both the registry and the bots, so that neither imports the other for it.
SEAT_DEFAULT = "learned"
