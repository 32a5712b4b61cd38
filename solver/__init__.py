"""dipsolve: a declarative solver for Diplomacy."""
