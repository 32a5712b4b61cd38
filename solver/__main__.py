"""`python -m dipsolve`: the command line (the same as the `dipsolve` console script)."""

import sys

from .cli import main

sys.exit(main())
