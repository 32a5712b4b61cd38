"""Variants from their files: by name (`VARIANTS`) or from a file a user has, a variant
file (``.variant``, its map beside it) or a map file of the ``diplomacy`` package's format
(``.map``, `dipsolve.core.map_file`); what ``--variant NAME|FILE`` names."""

from __future__ import annotations

from pathlib import Path, PurePath

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


def _beside(folder: Path, name: str, named_in: str) -> Path:
    """The file ``name`` that a map or variant file (``named_in``) names, in ``folder``,
    the folder of the file ``--variant`` named (or in a folder within it); `VariantError`
    for a name that leads out of it (``../../etc/passwd``, ``/etc/passwd``, a link out):
    a map file is data, and reads nothing of the machine but its own folder's files."""
    path = folder / name
    inside = folder.resolve()
    try:
        within = not PurePath(name).is_absolute() and path.resolve().is_relative_to(inside)
    except (OSError, RuntimeError, ValueError):       # a loop of links, a NUL in the name
        within = False
    if not within:
        raise VariantError(f"{name!r}: outside the map's folder (a map or variant file names files "
                           f"of its own folder only)", filename=named_in)
    return path


def find_variant(text: str) -> Variant:
    """The variant ``--variant`` names: one of `VARIANTS` by name, or a file: a variant
    file (``.variant``, its map beside it) or a map in the ``diplomacy`` package's
    format (``.map``, `dipsolve.core.map_file`); a clear `DipsolveError` for anything else.

    A user's file is a variant named by its file's name (``small.map``, ``mine.variant``:
    never a shipped variant's name, so a game saved on it is never read back on a shipped
    map), which a saved game's ``"map"`` says; the files it names (``USE``, ``MAP``, a
    variant's ``map`` line) are read from its own folder only."""
    if text in VARIANTS:
        return variant(text)
    path = Path(text)
    if path.suffix not in (".variant", ".map"):
        return variant(text)          # the unknown name, refused naming the variants
    body = _read(path)
    folder = path.parent

    def beside(name: str) -> Path:
        return _beside(folder, name, text)
    if path.suffix == ".map":
        return parse_map_file(body, text, lambda name: (_read(beside(name), text), str(beside(name))),
                              name=path.name)
    return read_variant(body, text, lambda name: _read(beside(name), text), name=path.name)
