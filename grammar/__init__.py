"""Lark grammars and transformers: text in, solver objects out."""
