"""Test oracles: independent definitions the package is checked against, never imported by it."""
