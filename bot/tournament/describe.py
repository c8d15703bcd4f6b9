"""Short plain-text posts of an event: a round's pairings, the standings, the final results.

Text goes with the pictures of :mod:`bot.render.tournament_art`: it carries names the picture
font cannot draw (Chinese names), and it is what a screen reader reads. Each function takes a
:data:`~bot.tournament.text.Say` for the language of the post (English by default)."""

from __future__ import annotations

from bot.tournament.arena import ArenaStanding
from bot.tournament.bracket import KnockoutStanding
from bot.tournament.event import DISQUALIFIED, Event
from bot.tournament.groups import group_name
from bot.tournament.model import Format, How, PlayerId, Round
from bot.tournament.standings import PairStanding, TableStanding, format_score, pair_standings
from bot.tournament.text import N_, Say, english, ordinal

__all__ = [
    "board_standings_text",
    "display_name",
    "knockout_status",
    "match_label",
    "pairings_text",
    "phase_name",
    "results_text",
    "standings_text",
]

_PHASES = {
    "swiss": N_("Swiss"),
    "playoff": N_("Playoff"),
    "bracket": N_("Bracket"),
    "round-robin": N_("Round robin"),
    "tables": N_("Tables"),
    "final": N_("Final table"),
    "group": N_("Groups"),
    "arena": N_("Arena"),
}


def phase_name(phase: str, say: Say = english) -> str:
    """A round's phase in words (``Swiss``, ``Playoff`` …)."""
    return say(_PHASES[phase]) if phase in _PHASES else phase


# The grand final's match ids are letters (the others are notation: ``W2-1``, ``R3-2``, ``F``).
_LABELS = {"GF": N_("GF"), "GF2": N_("GF2"), "3P": N_("3P")}


def match_label(match_id: str, say: Say = english) -> str:
    """A match's label in a post or a thread's name: its id, the grand final's in words."""
    return say(_LABELS[match_id]) if match_id in _LABELS else match_id


def display_name(event: Event, pid: PlayerId, say: Say = english) -> str:
    """A player's name. A computer filler's is its label (``Computer 1 (greedy)``, made once
    by the service that fills the event): it says it is a computer, so nothing is added."""
    return event.player(pid).name


def pairings_text(event: Event, rnd: Round, say: Say = english) -> str:
    """The matches of a round, one a line: ``1. Alice (2) v Bob (1½)`` in Swiss (scores
    before the round), ``W2-1: Alice v Bob`` in a bracket, ``Table 1 (5 seats): …``."""
    lines = [
        say(N_("Round {number} ({phase})"), number=rnd.number, phase=phase_name(rnd.phase, say))
    ]
    scores: dict[PlayerId, str] = {}
    if rnd.phase == "swiss":
        # Scores before this round: the standings of the earlier Swiss rounds.
        earlier = [
            m
            for r in event.rounds
            if r.phase == "swiss" and r.number < rnd.number
            for m in r.matches
        ]
        scores = {r.player: format_score(r.score) for r in pair_standings(event.seeds, earlier)}

    def named(pid: PlayerId) -> str:
        name = display_name(event, pid, say)
        if pid not in scores:
            return name
        return say(N_("{name} ({score})"), name=name, score=scores[pid])

    for i, m in enumerate(rnd.matches, start=1):
        names = [named(p) for p in m.players]
        if m.is_bye:
            if rnd.phase in ("round-robin", "group"):
                lines.append(say(N_("{name} rests"), name=names[0]))
            else:
                lines.append(say(N_("{name} has a bye (a win)"), name=names[0]))
        elif len(m.players) == 2:
            if rnd.phase in ("bracket", "playoff", "arena"):
                label = match_label(m.id, say)
            elif rnd.phase == "group":  # R2-B1: group B's first match of the round
                label = say(N_("Group {match}"), match=m.id.split("-", 1)[1])
            else:
                label = str(i)
            if m.result is not None and m.result.how is How.FORFEIT:
                template = N_("{label}. {a} v {b} (forfeit)")
            else:
                template = N_("{label}. {a} v {b}")
            lines.append(say(template, label=label, a=names[0], b=names[1]))
        else:
            joined = say(N_(", ")).join(names)
            if rnd.phase == "final":
                line = say(N_("Final table ({n} seats): {names}"), n=len(m.players), names=joined)
            else:
                line = say(
                    N_("Table {number} ({n} seats): {names}"),
                    number=i,
                    n=len(m.players),
                    names=joined,
                )
            lines.append(line)
    return "\n".join(lines)


def _standing_name(event: Event, pid: PlayerId, say: Say) -> str:
    """A player's name in the standings, marked when he dropped or was disqualified."""
    name = display_name(event, pid, say)
    if event.withdrawn.get(pid):
        if event.withdrawn[pid] == DISQUALIFIED:
            return say(N_("{name} (DQ)"), name=name)
        return say(N_("{name} (dropped)"), name=name)
    return name


def standings_text(event: Event, limit: int = 10, say: Say = english) -> str:
    """The top ``limit`` lines of the standings with their tie-break figures; during a group
    stage every group's table (``limit`` lines in all), each under its name."""
    if event.in_groups:
        lines: list[str] = []
        shown = total = 0
        for i, table in enumerate(event.group_tables()):
            total += len(table)
            if len(lines) >= limit:
                continue
            lines.append(say(N_("Group {name}"), name=group_name(i)))
            for r in table[: max(0, limit - len(lines))]:
                lines.append(_standing_line(event, r, say))
                shown += 1
        if shown < total:
            lines.append(say(N_("… and {n} more"), n=total - shown))
        return "\n".join(lines)
    rows = event.standings()
    lines = [_standing_line(event, r, say) for r in rows[:limit]]
    if len(rows) > limit:
        lines.append(say(N_("… and {n} more"), n=len(rows) - limit))
    return "\n".join(lines)


def board_standings_text(event: Event, limit: int = 10, say: Say = english) -> str:
    """The live standings board's text (issue 23), short enough for a phone: where the event
    stands (the round and how many of its matches are decided), then the top ``limit``
    players, one short line each (the score, the points, or where an elimination player
    stands; the tie-breaks are on the picture and in ``/tournament show``), and how many more."""
    lines = []
    rnd = event.current_round
    if rnd is not None:
        played = [m for m in rnd.matches if not m.is_bye]
        lines.append(
            say(
                N_("Round {number}: {done} of {total} matches decided"),
                number=rnd.number,
                done=sum(1 for m in played if m.done),
                total=len(played),
            )
        )
    rows = event.standings()
    for r in rows[:limit]:
        name = _standing_name(event, r.player, say)
        if isinstance(r, PairStanding):
            line = say(
                N_("{rank}. {name} · {score}"), rank=r.rank, name=name, score=format_score(r.score)
            )
        elif isinstance(r, TableStanding):
            line = say(N_("{rank}. {name} · {points} pts"), rank=r.rank, name=name, points=r.points)
        elif isinstance(r, ArenaStanding):
            line = say(N_("{rank}. {name} · {points} pts"), rank=r.rank, name=name, points=r.points)
            line = f"{line} 🔥" if r.on_fire else line  # on fire: the next win counts double
        else:
            line = say(
                N_("{rank}. {name}: {status} ({wins}-{losses})"),
                rank=r.rank,
                name=name,
                status=knockout_status(r, say),
                wins=r.wins,
                losses=r.losses,
            )
        lines.append(line)
    if len(rows) > limit:
        lines.append(say(N_("… and {n} more"), n=len(rows) - limit))
    return "\n".join(lines)


def _standing_line(
    event: Event, r: PairStanding | TableStanding | ArenaStanding | KnockoutStanding, say: Say
) -> str:
    """One line of :func:`standings_text`: the place, the name and the format's figures."""
    name = _standing_name(event, r.player, say)
    if isinstance(r, ArenaStanding):
        line = say(
            N_("{rank}. {name} {points} pts ({games} games, {wins} wins)"),
            rank=r.rank,
            name=name,
            points=r.points,
            games=r.games,
            wins=r.wins,
        )
        return f"{line} 🔥" if r.on_fire else line  # on fire: the next win counts double
    if isinstance(r, PairStanding):
        return say(
            N_("{rank}. {name} {score} (M-Buch {median}, Buch {buchholz}, games {games})"),
            rank=r.rank,
            name=name,
            score=format_score(r.score),
            median=format_score(r.median_buchholz),
            buchholz=format_score(r.buchholz),
            games=r.games_won,
        )
    if isinstance(r, TableStanding):
        return say(
            N_("{rank}. {name} {points} pts ({wins} wins, opp. avg {average})"),
            rank=r.rank,
            name=name,
            points=r.points,
            wins=r.wins,
            average=f"{float(r.opponents_average):.2f}",
        )
    return say(
        N_("{rank}. {name}: {status} ({wins}-{losses})"),
        rank=r.rank,
        name=name,
        status=knockout_status(r, say),
        wins=r.wins,
        losses=r.losses,
    )


def knockout_status(row: KnockoutStanding, say: Say = english) -> str:
    """Where a player of an elimination event stands: ``champion``, ``still in`` or
    ``knocked out in W2-1`` (the match, as the bracket picture and the pairings name it)."""
    if row.champion:
        return say(N_("champion"))
    if row.out_in is None:
        return say(N_("still in"))
    if row.out_in == "group":
        return say(N_("out in the group stage"))
    return say(N_("knocked out in {match}"), match=match_label(row.out_in, say))


def results_text(event: Event, pool: int, say: Say = english) -> str:
    """The final results: the top places and the prize winners with their chips."""
    paid = event.payouts(pool)
    ranking = event.ranking()
    shown = max(3, len(event.settings.prize_split))

    def line(place: int, pid: PlayerId) -> str:
        name = display_name(event, pid, say)
        if pid in paid:
            return say(
                N_("{place} {name} — {chips} chips"),
                place=ordinal(place, say),
                name=name,
                chips=paid[pid],
            )
        return say(N_("{place} {name}"), place=ordinal(place, say), name=name)

    lines = [say(N_("Final results"))]
    for place, pid in enumerate(ranking[:shown], start=1):
        lines.append(line(place, pid))
    late = [pid for pid in paid if ranking.index(pid) >= shown]
    for pid in late:
        lines.append(line(ranking.index(pid) + 1, pid))
    if pool and not paid:
        lines.append(say(N_("Nobody could be paid: every buy-in is refunded.")))
    elif paid and any(event.player(p).ai for p in ranking[: len(event.settings.prize_split)]):
        lines.append(
            say(N_("Computer players win no prize money: their prizes went to the humans."))
        )
    if event.settings.format is Format.TABLE_ROUNDS and event.settings.final_table:
        lines.append(say(N_("The top places were decided at the final table.")))
    return "\n".join(lines)
