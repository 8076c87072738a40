"""``python -m engine simulate | check-track | playtest ...``: see :mod:`engine.cli`."""

import os
import sys

from engine.cli import main

try:
    sys.exit(main())
except BrokenPipeError:
    # The reader went away (``| head``): not an error of ours.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(0)
