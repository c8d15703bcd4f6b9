"""What the two domino families' terminal facets share until the client's tables move behind
them (issue 19 step 11): both methods raise NotImplementedError naming that step, and nothing
calls them before (``bot.terminal`` still plays both families with its own tables)."""

from __future__ import annotations

from typing import Any

from bot.terminal.family import Asker, Console, TableHooks

__all__ = ["DominoTerminal"]

_STEP = "moves in step 11 (today bot/terminal/__init__.py _Setup, _Table, _FishingTable)"


class DominoTerminal:
    """The shared part of a domino family's terminal facet."""

    def setup(self, game: str, ask: Asker) -> dict[str, Any]:
        """Not here yet."""
        raise NotImplementedError(_STEP)

    def hooks(self, console: Console, state: Any, human: int) -> TableHooks:
        """Not here yet."""
        raise NotImplementedError(_STEP)
