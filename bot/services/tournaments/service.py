"""The tournament service: one class, :class:`TournamentService`, built in layers.

Each layer is a module you can read whole and stands on the one before it, so that a method
calls only what is defined below it (no module imports a later one):

* :mod:`~bot.services.tournaments.core`: the state, reading events (``view``, ``current``,
  ``choices``, ``history``), the organiser role, locks and the helpers every part uses;
* :mod:`~bot.services.tournaments.rounds`: ``advance`` and its steps (count games, decide
  matches, open games, pair rounds, pay out), ``game_ended``, ``table_aborted``;
* :mod:`~bot.services.tournaments.signup`: ``create``, ``join``, ``leave``, ``fill``,
  ``start``, ``check_in``;
* :mod:`~bot.services.tournaments.lifecycle`: ``expire_due`` (the clock), ``drop``, ``repair``,
  ``pause``, ``resume``, ``cancel``, ``resume_all``;
* :mod:`~bot.services.tournaments.presence`: the no-show window (``ready``, its clock, its
  down time at a restart);
* :mod:`~bot.services.tournaments.board`: the live standings board (whose turn it is to draw
  it, which message it is);
* :mod:`~bot.services.tournaments.schedule`: reminders before the start, DM reminders, the
  rounds' schedule (``set_schedule``, ``toggle_reminders``, their clock).
"""

from __future__ import annotations

from bot.services.tournaments.schedule import TournamentSchedule

__all__ = ["TournamentService"]


class TournamentService(TournamentSchedule):
    """Create, fill, run and pay out tournaments."""
