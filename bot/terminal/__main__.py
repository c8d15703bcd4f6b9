"""``python -m bot.terminal``: the same as ``kapshap play``."""

import sys

from bot.terminal import main

sys.exit(main())
