"""An event as plain data, CSV and JSON: what ``/tournament export`` hands out.

Pure like the rest of the package: the service adds what only it knows (the event's id, name,
dates, the pool and the prizes it paid, which games each match played) and the game records.

* :func:`event_data`: every entrant (seed, rating, computer or not, withdrawn or disqualified),
  every round's pairings and results, the standings with each tie-break the format uses, the
  final (or current) place of every player and the prizes; with a group stage, every group's
  table and the bracket's seeds it gave (and each player's group in the standings);
* :func:`standings_csv` and :func:`matches_csv`: the same as two spreadsheets (one row a
  player, one row a match), for the tools organisers already use.

Tie-break columns are the standing's own fields (:mod:`bot.tournament.standings`,
:class:`bot.tournament.bracket.KnockoutStanding`), so a format that adds one exports it too.
"""

from __future__ import annotations

import csv
import dataclasses
import io
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from bot.tournament.event import Event
from bot.tournament.groups import group_name
from bot.tournament.model import PlayerId

__all__ = ["EXPORT_VERSION", "event_data", "matches_csv", "standings_csv"]

EXPORT_VERSION = 1


def _plain(value: Any) -> Any:
    """A standing's field as a JSON value (exact fractions as text, opponents as a list)."""
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, tuple):
        return list(value)
    return value


def event_data(
    event: Event,
    *,
    meta: Mapping[str, Any],
    prizes: Mapping[PlayerId, int],
    games: Mapping[str, Sequence[str]] | None = None,
) -> dict[str, Any]:
    """The whole event as JSON-compatible values. ``meta`` (id, name, status, dates, pool)
    comes first as given; ``games`` maps a match id to the ids of the games it played."""
    games = games or {}
    ranking = event.ranking()
    place = {p: i for i, p in enumerate(ranking, 1)}
    standings = {s.player: s for s in event.standings()}
    groups: list[dict[str, Any]] = [
        {
            "name": group_name(i),
            "standings": [
                {"name": event.player(r.player).name, "player": r.player}
                | {k: _plain(v) for k, v in dataclasses.asdict(r).items() if k != "player"}
                for r in table
            ],
        }
        for i, table in enumerate(event.group_tables())
    ]
    group_of = {
        r.player: group_name(i) for i, table in enumerate(event.group_tables()) for r in table
    }
    entrants = [
        {
            "seed": seed,
            "id": p.id,
            "name": p.name,
            "rating": p.rating,
            "computer": p.ai,
            "withdrawn": event.withdrawn.get(p.id),
        }
        for seed, p in enumerate(event.players, 1)
    ]
    rows = []
    for pid in ranking:
        row: dict[str, Any] = {"place": place[pid], "id": pid, "name": event.player(pid).name}
        found = standings.get(pid)
        if found is not None:
            for key, value in dataclasses.asdict(found).items():
                if key != "player":
                    row[key] = _plain(value)
        if pid in group_of:
            row["group"] = group_of[pid]
        row["prize"] = prizes.get(pid, 0)
        rows.append(row)
    rounds = []
    for played in event.rounds:
        matches = []
        for match in played.matches:
            result = None if match.result is None else match.result.to_dict()
            matches.append(
                {
                    "id": match.id,
                    "players": [[p, event.player(p).name] for p in match.players],
                    "result": result,
                    "games": list(games.get(match.id, ())),
                }
            )
        rounds.append({"number": played.number, "phase": played.phase, "matches": matches})
    return {
        "export_version": EXPORT_VERSION,
        **meta,
        "settings": event.settings.to_dict(),
        "finished": event.finished,
        "entrants": entrants,
        "rounds": rounds,
        "standings": rows,
        # A group stage (issue 23): every group's table, and the bracket's seeds it gave.
        "groups": groups,
        "qualified": list(event.cut) if groups else [],
        "prizes": [[p, a] for p, a in prizes.items()],
    }


def _csv(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def standings_csv(data: Mapping[str, Any]) -> str:
    """One row a player, in place order: every column of :func:`event_data`'s standings (the
    opponents joined by spaces)."""
    rows: list[dict[str, Any]] = list(data["standings"])
    header: list[str] = []
    for row in rows:
        header.extend(k for k in row if k not in header)

    def cell(value: Any) -> Any:
        if isinstance(value, list):
            return " ".join(str(v) for v in value)
        return "" if value is None else value

    return _csv(header, [[cell(row.get(k)) for k in header] for row in rows])


def matches_csv(data: Mapping[str, Any]) -> str:
    """One row a match, in the order played: round, phase, match, the players, the winner, how
    it was decided, games won and points by player, and the ids of its games."""
    rows = []
    for played in data["rounds"]:
        for match in played["matches"]:
            result = match["result"] or {}
            won = {int(p): n for p, n in result.get("games_won", [])}
            points = {int(p): n for p, n in result.get("points", [])}
            players = [p for p, _ in match["players"]]
            rows.append(
                [
                    played["number"],
                    played["phase"],
                    match["id"],
                    " | ".join(name for _, name in match["players"]),
                    " ".join(str(p) for p in players),
                    "" if not result else (result.get("winner") or ""),
                    result.get("how", ""),
                    " ".join(str(won.get(p, 0)) for p in players) if result else "",
                    " ".join(str(points.get(p, 0)) for p in players) if points else "",
                    " ".join(match["games"]),
                ]
            )
    header = [
        "round",
        "phase",
        "match",
        "players",
        "player_ids",
        "winner_id",
        "how",
        "games_won",
        "points",
        "game_ids",
    ]
    return _csv(header, rows)
