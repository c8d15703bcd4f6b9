"""Short plain-text posts of an event: a round's pairings, the standings, the final results.

Text goes with the pictures of :mod:`bot.render.tournament_art`: it carries names the picture
font cannot draw (Chinese names), and it is what a screen reader reads."""

from __future__ import annotations

from bot.tournament.event import DISQUALIFIED, Event
from bot.tournament.model import Format, How, PlayerId, Round
from bot.tournament.standings import PairStanding, TableStanding, format_score, pair_standings

__all__ = ["display_name", "pairings_text", "results_text", "standings_text"]

_PHASES = {
    "swiss": "Swiss",
    "playoff": "Playoff",
    "bracket": "Bracket",
    "round-robin": "Round robin",
    "tables": "Tables",
    "final": "Final table",
}


def display_name(event: Event, pid: PlayerId) -> str:
    """A player's name, marked ``(AI)`` for a computer filler."""
    player = event.player(pid)
    return f"{player.name} (AI)" if player.ai else player.name


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def pairings_text(event: Event, rnd: Round) -> str:
    """The matches of a round, one a line: ``1. Alice (2) v Bob (1½)`` in Swiss (scores
    before the round), ``W2-1: Alice v Bob`` in a bracket, ``Table 1 (5 seats): …``."""
    lines = [f"Round {rnd.number} ({_PHASES.get(rnd.phase, rnd.phase)})"]
    scores: dict[PlayerId, str] = {}
    if rnd.phase == "swiss":
        # Scores before this round: the standings of the earlier Swiss rounds.
        earlier = [
            m
            for r in event.rounds
            if r.phase == "swiss" and r.number < rnd.number
            for m in r.matches
        ]
        scores = {
            r.player: f" ({format_score(r.score)})" for r in pair_standings(event.seeds, earlier)
        }
    for i, m in enumerate(rnd.matches, start=1):
        names = [display_name(event, p) + scores.get(p, "") for p in m.players]
        if m.is_bye:
            kind = "rests" if rnd.phase == "round-robin" else "has a bye (a win)"
            lines.append(f"{names[0]} {kind}")
        elif len(m.players) == 2:
            label = m.id if rnd.phase in ("bracket", "playoff") else str(i)
            note = " (forfeit)" if m.result is not None and m.result.how is How.FORFEIT else ""
            lines.append(f"{label}. {names[0]} v {names[1]}{note}")
        else:
            label = "Final table" if rnd.phase == "final" else f"Table {i}"
            lines.append(f"{label} ({len(m.players)} seats): {', '.join(names)}")
    return "\n".join(lines)


def standings_text(event: Event, limit: int = 10) -> str:
    """The top ``limit`` lines of the standings with their tie-break figures."""
    rows = event.standings()
    lines = []
    for r in rows[:limit]:
        name = display_name(event, r.player)
        if event.withdrawn.get(r.player):
            name += " (DQ)" if event.withdrawn[r.player] == DISQUALIFIED else " (dropped)"
        if isinstance(r, PairStanding):
            lines.append(
                f"{r.rank}. {name} {format_score(r.score)} "
                f"(M-Buch {format_score(r.median_buchholz)}, Buch {format_score(r.buchholz)}, "
                f"games {r.games_won})"
            )
        elif isinstance(r, TableStanding):
            lines.append(
                f"{r.rank}. {name} {r.points} pts ({r.wins} wins, "
                f"opp. avg {float(r.opponents_average):.2f})"
            )
    if len(rows) > limit:
        lines.append(f"… and {len(rows) - limit} more")
    return "\n".join(lines)


def results_text(event: Event, pool: int) -> str:
    """The final results: the top places and the prize winners with their chips."""
    paid = event.payouts(pool)
    ranking = event.ranking()
    shown = max(3, len(event.settings.prize_split))
    lines = ["Final results"]
    for place, pid in enumerate(ranking[:shown], start=1):
        prize = f" — {paid[pid]} chips" if pid in paid else ""
        lines.append(f"{_ordinal(place)} {display_name(event, pid)}{prize}")
    late = [pid for pid in paid if ranking.index(pid) >= shown]
    for pid in late:
        place = ranking.index(pid) + 1
        lines.append(f"{_ordinal(place)} {display_name(event, pid)} — {paid[pid]} chips")
    if pool and not paid:
        lines.append("Nobody could be paid: every buy-in is refunded.")
    elif any(event.player(p).ai for p in ranking[: len(event.settings.prize_split)]):
        lines.append("Computer players win no prize money: their prizes went to the humans.")
    if event.settings.format is Format.TABLE_ROUNDS and event.settings.final_table:
        lines.append("The top places were decided at the final table.")
    return "\n".join(lines)
