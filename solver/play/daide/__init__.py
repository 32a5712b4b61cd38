"""DAIDE: play a seat of a game on a DAIDE server (`wire`: the bytes; `client`: the message flow)."""
