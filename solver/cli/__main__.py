"""``python -m dipsolve.cli``: the same as the ``dipsolve`` command."""

import sys

from . import main

sys.exit(main())
