"""Variants from their files: by name (`VARIANTS`) or from a file a user has, a variant
file (``.variant``, its map beside it) or a map file of the ``diplomacy`` package's format
(``.map``, `dipsolve.core.map_file`); what ``--variant NAME|FILE`` names."""

from __future__ import annotations

from pathlib import Path

from .bounds import read_text
from .errors import DipsolveFileError
from .map_file import parse_map_file
from .variant import VARIANTS, Variant, VariantError, read_variant, variant

__all__ = ["find_variant"]


def _read(path: Path, named_in: str | None = None) -> str:
    """A variant or map file's text (within ``max_file_bytes``), or a clear error naming
    it (and the file that named it)."""
    try:
        return read_text(path)
    except (OSError, UnicodeDecodeError) as e:
        why = getattr(e, "strerror", None) or "not UTF-8 text"
        if named_in is not None:
            raise VariantError(f"cannot read the file {path.name!r} it names: {why}",
                               filename=named_in) from None
        raise DipsolveFileError(f"cannot read: {why}", filename=str(path)) from None


def find_variant(text: str) -> Variant:
    """The variant ``--variant`` names: one of `VARIANTS` by name, or a file: a variant
    file (``.variant``, its map beside it) or a map in the ``diplomacy`` package's
    format (``.map``, `dipsolve.core.map_file`); a clear `DipsolveError` for anything else."""
    if text in VARIANTS:
        return variant(text)
    path = Path(text)
    if path.suffix not in (".variant", ".map"):
        return variant(text)          # the unknown name, refused naming the variants
    body = _read(path)
    if path.suffix == ".map":
        return parse_map_file(body, text, lambda name: (_read(path.parent / name, text),
                                                        str(path.parent / name)))
    return read_variant(body, text, lambda name: _read(path.parent / name, text))
