"""Writing output files: all of it or nothing.

Every command that writes a file goes through `write_atomic`: the text or bytes go to a
temporary file beside the target, which is renamed into place only when complete, so an
error never leaves a partly written file behind.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: str | os.PathLike[str], data: bytes | str) -> None:
    """Write all of ``data`` (str as UTF-8) to ``path`` or nothing, with the usual
    permissions (``mkstemp`` would leave 0600)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
