"""An event from the first pairing to the final ranking and the prize money.

:class:`Event` is the whole state of a running event as plain values — settings, players in seed
order, the rounds with their matches and results, who withdrew — and every step is a method that
changes it: :meth:`Event.next_round` pairs or seats the next round, :meth:`Event.record` takes a
result in, :meth:`Event.withdraw` drops or disqualifies a player. :meth:`Event.to_dict` and
:meth:`Event.from_dict` round-trip it through JSON-compatible values, so a service stores it
after every step and carries on after a restart. Pairing is deterministic given the state; the
only randomness (seeding players without a rating) happens in :meth:`Event.start`.

Match ids: Swiss and round robin ``R{round}-{n}`` (``R{round}-bye`` for a bye); a group stage
``R{round}-{group}{n}`` (``R3-B2``; ``R{round}-{group}-bye`` for a rest); elimination and the
Swiss playoff use the bracket's node ids (``W1-3``, ``L2-1``, ``GF``, ``GF2``, ``3P``); table
rounds ``R{round}-T{n}`` and the final table ``F``; an arena's matches ``A{n}``, all in its one
round (phase ``arena``), appended as players finish (:meth:`Event.arena_pair`).

An elimination event with a group stage (``settings.groups``) first plays the groups' round
robins (phase ``group``, :mod:`bot.tournament.groups`); when they are over ``cut`` holds the
bracket's seeds (by group place) and the bracket is played as without groups.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from random import Random
from typing import Any

from bot.tournament.arena import ArenaStanding, arena_scores, arena_standings, pair_arena
from bot.tournament.bracket import (
    Bracket,
    KnockoutStanding,
    Resolved,
    double_elimination,
    knockout_standings,
    placing,
    resolve,
    single_elimination,
)
from bot.tournament.groups import bracket_seeds, group_name, group_standings, snake_groups
from bot.tournament.matches import bye_result, forfeit_result
from bot.tournament.model import (
    LATE_ENTRY_FORMATS,
    EventSettings,
    Format,
    How,
    Match,
    Player,
    PlayerId,
    Result,
    Round,
    TournamentError,
    seed_players,
)
from bot.tournament.payout import payouts
from bot.tournament.roundrobin import round_robin_schedule
from bot.tournament.seating import seat_by_seed, seat_by_standings, table_sizes
from bot.tournament.standings import (
    PairStanding,
    TableStanding,
    met_counts,
    opponents_met,
    pair_standings,
    table_points,
    table_standings,
)
from bot.tournament.swiss import pair_swiss

__all__ = ["DISQUALIFIED", "DROPPED", "GROUP_STAGE", "MAX_ROUND_ROBIN", "STATE_VERSION", "Event"]

STATE_VERSION = 1
DROPPED = "dropped"
DISQUALIFIED = "disqualified"
MAX_ROUND_ROBIN = 24  # a round robin of N players takes N − 1 rounds: for small groups only
KNOCKOUT_PHASES = frozenset({"bracket", "playoff"})
GROUP_STAGE = "group"  # the phase of a group stage's rounds, and where its non-qualifiers went out
ELIMINATION = frozenset({Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION})


@dataclass
class Event:
    """The state of one event (see the module docstring)."""

    settings: EventSettings
    players: list[Player]  # seed order: seed 1 first
    rounds: list[Round] = field(default_factory=list)
    withdrawn: dict[PlayerId, str] = field(default_factory=dict)
    # The Swiss playoff's seeds, or the bracket's after a group stage, once it starts.
    cut: list[PlayerId] = field(default_factory=list)
    finished: bool = False
    no_shows: dict[PlayerId, int] = field(default_factory=dict)  # no-shows in a row
    late: dict[PlayerId, int] = field(default_factory=dict)  # late entrant -> his first round
    closing: bool = False  # arena: its time is up; games in play finish, nobody is paired

    # ---------------------------------------------------------------- creation and lookups

    @classmethod
    def start(
        cls,
        settings: EventSettings,
        entrants: Sequence[Player],
        rng: Random,
        *,
        fixed: Sequence[PlayerId] = (),
    ) -> Event:
        """A new event for ``entrants``, seeded (ratings first, the rest at random by
        ``rng``); the players in ``fixed`` (the organiser's order, set by hand) take the first
        seeds in that order, the others follow in theirs. Raises :class:`TournamentError` when
        the number of players does not fit."""
        n = len(entrants)
        if n < 2:
            raise TournamentError("An event needs at least two players.")
        if n > settings.seats_limit:
            raise TournamentError(f"This event takes at most {settings.seats_limit} players.")
        if settings.format is Format.TABLE_ROUNDS and n < settings.table_min:
            raise TournamentError(f"Table rounds need at least {settings.table_min} players.")
        if settings.format is Format.ROUND_ROBIN and n > MAX_ROUND_ROBIN:
            raise TournamentError(
                f"A round robin is for at most {MAX_ROUND_ROBIN} players; use Swiss."
            )
        if not any(not p.ai for p in entrants):
            raise TournamentError("An event needs at least one human player.")
        if settings.groups and settings.format in ELIMINATION and n < 3:
            raise TournamentError("A group stage needs at least three players.")
        seeded = seed_players(entrants, rng)
        by_id = {p.id: p for p in seeded}
        first = [by_id[p] for p in dict.fromkeys(fixed) if p in by_id]
        return cls(settings, first + [p for p in seeded if p not in first])

    @property
    def seeds(self) -> list[PlayerId]:
        """Player ids in seed order."""
        return [p.id for p in self.players]

    def player(self, pid: PlayerId) -> Player:
        """The entrant with this id."""
        for p in self.players:
            if p.id == pid:
                return p
        raise TournamentError("That player is not in this event.")

    def seed_of(self, pid: PlayerId) -> int:
        """The seed (1 = top) of a player."""
        return self.seeds.index(pid) + 1

    @property
    def starters(self) -> int:
        """How many players the event started with (late entrants do not change the number
        of Swiss rounds it was announced with)."""
        return len(self.players) - len(self.late)

    @property
    def active(self) -> list[PlayerId]:
        """Players still in the event (not dropped or disqualified), seed order."""
        return [p for p in self.seeds if p not in self.withdrawn]

    @property
    def current_round(self) -> Round | None:
        """The latest round, or None before the first."""
        return self.rounds[-1] if self.rounds else None

    def find(self, match_id: str) -> tuple[Round, Match]:
        """The round and match with this id (searched from the latest round back)."""
        for rnd in reversed(self.rounds):
            for m in rnd.matches:
                if m.id == match_id:
                    return rnd, m
        raise TournamentError(f"There is no match {match_id} in this event.")

    def is_knockout(self, match_id: str) -> bool:
        """Whether a match must produce a winner (elimination and playoff matches)."""
        rnd, _ = self.find(match_id)
        return rnd.phase in KNOCKOUT_PHASES

    def open_matches(self) -> list[Match]:
        """The matches of the current round still waiting for a result."""
        rnd = self.current_round
        return [] if rnd is None else [m for m in rnd.matches if not m.done]

    # ---------------------------------------------------------------- late entry

    def late_entry_round(self) -> int | None:
        """The round a member joining now would first play in, or None when late entry is
        closed: the format has none (:data:`LATE_ENTRY_FORMATS`, ``late_until`` 0), that round
        is past ``late_until`` or past the last Swiss round, or the playoff has begun. The one
        place that decides whether a late entry is allowed."""
        s = self.settings
        if self.finished or not s.late_until or s.format not in LATE_ENTRY_FORMATS or self.cut:
            return None
        first = self._number()  # the round after the current one: the next to be paired
        if first > s.late_until or first > s.swiss_rounds(self.starters):
            return None
        return first

    def join_late(self, player: Player) -> int:
        """Enter ``player`` after the start (the last seed); he is paired from the next round,
        and the rounds before it score 0 for him (:mod:`bot.tournament.standings`). The round
        he first plays in. Raises :class:`TournamentError` when late entry is closed."""
        first = self.late_entry_round()
        if first is None:
            if self.settings.late_until and self.settings.format in LATE_ENTRY_FORMATS:
                raise TournamentError(
                    f"Late entry to this event closed with round {self.settings.late_until}."
                )
            raise TournamentError("This event takes no entries after its start.")
        if any(p.id == player.id for p in self.players):
            raise TournamentError("A player is entered twice.")
        if len(self.players) >= self.settings.seats_limit:
            raise TournamentError(f"This event takes at most {self.settings.seats_limit} players.")
        self.players.append(player)
        self.late[player.id] = first
        return first

    def missed(self) -> dict[PlayerId, int]:
        """The rounds each late entrant has missed so far (finished Swiss rounds before his
        first): they score 0 for him."""
        done = [r.number for r in self._rounds("swiss") if r.done]
        return {p: sum(1 for n in done if n < first) for p, first in self.late.items()}

    # ---------------------------------------------------------------- results and withdrawals

    def record(self, match_id: str, result: Result) -> None:
        """Take in the result of a match of the current round."""
        rnd = self.current_round
        if rnd is None or all(m.id != match_id for m in rnd.matches):
            raise TournamentError(f"Match {match_id} is not in the current round.")
        _, match = self.find(match_id)
        if match.done:
            raise TournamentError(f"Match {match_id} already has its result.")
        if set(result.games_won) - set(match.players):
            raise TournamentError(f"The result of {match_id} names someone who did not play.")
        if result.winner is not None and result.winner not in match.players:
            raise TournamentError(f"The winner of {match_id} did not play in it.")
        if rnd.phase in KNOCKOUT_PHASES and result.winner is None:
            raise TournamentError(f"Match {match_id} is a knockout match: it needs a winner.")
        if rnd.phase in ("tables", "final") and result.winner is not None:
            raise TournamentError("A table has game winners, not a match winner.")
        match.result = result
        if result.how in (How.PLAYED, How.TIME):
            for p in match.players:  # he played: his run of no-shows is over
                self.no_shows.pop(p, None)

    def no_show(self, match_id: str, absent: Collection[PlayerId]) -> list[PlayerId]:
        """The presence check at the start of a two-player match of the current round: the
        ``absent`` players (who neither acted nor pressed Ready in the window) lose it by
        forfeit at once. Both absent: a double loss (no winner; a knockout match sends the
        higher seed through). A player with ``settings.no_show_limit`` no-shows in a row is
        withdrawn (dropped); the ids so withdrawn are returned. A match already decided (played
        out, or forfeited by a drop, within the window) is left as it is."""
        rnd = self.current_round
        if rnd is None or all(m.id != match_id for m in rnd.matches):
            raise TournamentError(f"Match {match_id} is not in the current round.")
        _, match = self.find(match_id)
        if len(match.players) != 2:
            raise TournamentError("Only a two-player match has a no-show window.")
        missing = [p for p in match.players if p in absent]
        if not missing or match.done:
            return []
        present = [p for p in match.players if p not in missing]
        if present:
            winner: PlayerId | None = present[0]
        elif rnd.phase in KNOCKOUT_PHASES:
            winner = min(match.players, key=self.seed_of)
        else:
            winner = None
        match.result = forfeit_result(winner, match.players)
        out = []
        for p in missing:
            self.no_shows[p] = self.no_shows.get(p, 0) + 1
            if self.no_shows[p] >= self.settings.no_show_limit and p not in self.withdrawn:
                self.withdraw(p)
                out.append(p)
        return out

    def set_result(self, match_id: str, winner: PlayerId | None) -> Result:
        """The organiser enters (or corrects) the result of a two-player match of the current
        round: ``winner`` wins it as if by the games needed (None: a drawn match). Only the
        current round, so no later pairing rests on the result it replaces; the standings are
        computed from the results, so they follow. The result it stored."""
        rnd = self.current_round
        if rnd is None or all(m.id != match_id for m in rnd.matches):
            raise TournamentError(f"Match {match_id} is not in the current round.")
        _, match = self.find(match_id)
        if match.is_bye or len(match.players) != 2:
            raise TournamentError(f"Match {match_id} is not a match of two players.")
        if winner is not None and winner not in match.players:
            raise TournamentError(f"The winner of {match_id} did not play in it.")
        needed = self.settings.wins_needed
        won = {p: needed if p == winner else 0 for p in match.players}
        result = Result(winner, won, sum(won.values()), how=How.ORGANISER)
        before = match.result
        match.result = None
        try:
            self.record(match_id, result)
        except TournamentError:
            match.result = before
            raise
        return result

    def withdraw(self, pid: PlayerId, *, disqualify: bool = False) -> list[str]:
        """Drop (or disqualify) a player: no more pairings; results so far stand. His unfinished
        two-player match of the current round is forfeited to the opponent; the ids of the
        matches so decided are returned (a table plays on without him being re-seated)."""
        self.player(pid)
        if pid in self.withdrawn and not disqualify:
            raise TournamentError("That player has already left the event.")
        self.withdrawn[pid] = DISQUALIFIED if disqualify else DROPPED
        decided = []
        for m in self.open_matches():
            if pid in m.players and len(m.players) == 2:
                other = m.players[0] if m.players[1] == pid else m.players[1]
                if other in self.withdrawn:
                    rnd, _ = self.find(m.id)
                    winner = (
                        min(m.players, key=self.seed_of) if rnd.phase in KNOCKOUT_PHASES else None
                    )
                else:
                    winner = other
                m.result = forfeit_result(winner, m.players)
                decided.append(m.id)
        return decided

    def unpair(self) -> Round:
        """Take back the current round before it is played (to pair it again, e.g. after a
        drop). Refused once a game result is in."""
        rnd = self.current_round
        if rnd is None:
            raise TournamentError("No round has been paired yet.")
        if self.settings.format is Format.ARENA:
            raise TournamentError("An arena pairs players as they finish; it cannot be re-paired.")
        if any(
            m.result is not None and m.result.how in (How.PLAYED, How.TIME, How.ORGANISER)
            for m in rnd.matches
        ):
            raise TournamentError("The round has results already; it cannot be re-paired.")
        self.rounds.pop()
        for p, first in self.late.items():
            if first == rnd.number + 1:  # he joined during it: he plays in it when re-paired
                self.late[p] = rnd.number
        if rnd.phase in KNOCKOUT_PHASES and not any(r.phase == rnd.phase for r in self.rounds):
            self.cut = []  # the cut (or the groups' qualifiers) is taken again when re-paired
        self.finished = False
        return rnd

    # ---------------------------------------------------------------- pairing

    def next_round(self) -> Round | None:
        """Pair or seat the next round and return it; None (and ``finished``) when the event
        is over. A round may come out already done (only byes and forfeits): ask again."""
        if self.finished:
            raise TournamentError("The event is over.")
        rnd = self.current_round
        if rnd is not None and not rnd.done:
            raise TournamentError(f"Round {rnd.number} is not finished yet.")
        fmt = self.settings.format
        if fmt is Format.ARENA:
            new = self._next_arena()
        elif fmt is Format.SWISS:
            new = self._next_swiss()
        elif fmt in ELIMINATION:
            new = self._next_elimination()
        elif fmt is Format.ROUND_ROBIN:
            new = self._next_round_robin()
        else:
            new = self._next_tables()
        if new is None:
            self.finished = True
            return None
        self.rounds.append(new)
        return new

    def _rounds(self, *phases: str) -> list[Round]:
        return [r for r in self.rounds if r.phase in phases]

    def _number(self) -> int:
        return len(self.rounds) + 1

    def _next_swiss(self) -> Round | None:
        swiss = self._rounds("swiss")
        total = self.settings.swiss_rounds(self.starters)
        if len(swiss) < total and len(self.active) >= 2 and not self.cut:
            return self._pair_swiss_round()
        if self.settings.top_cut:
            if not self.cut:
                ranked = [r.player for r in self.standings() if r.player not in self.withdrawn]
                cut = ranked[: self.settings.top_cut]
                if len(cut) < 2:
                    return None
                self.cut = cut
            return self._next_bracket("playoff", self.cut)
        return None

    def _pair_swiss_round(self) -> Round:
        n = self._number()
        matches = [m for r in self._rounds("swiss") for m in r.matches]
        rows = pair_standings(self.seeds, matches, missed=self.missed())
        ranked = [r.player for r in rows if r.player not in self.withdrawn]
        scores = {r.player: r.score for r in rows}
        had_bye = {r.player for r in rows if r.byes}
        pairing = pair_swiss(ranked, scores, opponents_met(matches), had_bye)
        out = [Match(f"R{n}-{i}", pair) for i, pair in enumerate(pairing.pairs, start=1)]
        if pairing.bye is not None:
            out.append(Match(f"R{n}-bye", (pairing.bye,), bye_result(pairing.bye)))
        return Round(n, "swiss", out)

    def _next_round_robin(self) -> Round | None:
        schedule = round_robin_schedule(self.seeds)
        done = len(self._rounds("round-robin"))
        if done >= len(schedule):
            return None
        n = self._number()
        pairs, rest = schedule[done]
        out = []
        for i, (a, b) in enumerate(pairs, start=1):
            match = Match(f"R{n}-{i}", (a, b))
            self._forfeit_if_withdrawn(match, knockout=False)
            out.append(match)
        if rest is not None:
            out.append(Match(f"R{n}-bye", (rest,), bye_result(rest)))
        return Round(n, "round-robin", out)

    # ---------------------------------------------------------------- group stage

    def groups(self) -> list[list[PlayerId]]:
        """The group stage's groups (snake-seeded from the seeds), or none without one."""
        size = self.settings.groups
        if not size or self.settings.format not in ELIMINATION:
            return []
        return snake_groups(self.seeds, size)

    def group_tables(self) -> list[list[PairStanding]]:
        """Every group's standings (empty without a group stage)."""
        matches = [m for r in self._rounds(GROUP_STAGE) for m in r.matches]
        return group_standings(self.groups(), matches)

    @property
    def in_groups(self) -> bool:
        """Whether the event is (still) in its group stage."""
        return bool(self.groups()) and not self.cut

    def _next_elimination(self) -> Round | None:
        if self.in_groups:
            new = self._next_group_round()
            if new is not None:
                return new
            qualified = bracket_seeds(self.group_tables(), self.withdrawn)
            if len(qualified) < 2:  # everyone else withdrew: the groups decide it all
                return None
            self.cut = qualified
        return self._next_bracket("bracket", self.cut or self.seeds)

    def _next_group_round(self) -> Round | None:
        groups = self.groups()
        schedules = [round_robin_schedule(g) for g in groups]
        done = len(self._rounds(GROUP_STAGE))
        if done >= max(len(s) for s in schedules):
            return None
        n = self._number()
        out = []
        for index, schedule in enumerate(schedules):
            if done >= len(schedule):  # a smaller group has finished its round robin
                continue
            name = group_name(index)
            pairs, rest = schedule[done]
            for i, (a, b) in enumerate(pairs, start=1):
                match = Match(f"R{n}-{name}{i}", (a, b))
                self._forfeit_if_withdrawn(match, knockout=False)
                out.append(match)
            if rest is not None:
                out.append(Match(f"R{n}-{name}-bye", (rest,), bye_result(rest)))
        return Round(n, GROUP_STAGE, out)

    def _forfeit_if_withdrawn(self, match: Match, *, knockout: bool) -> None:
        gone = [p for p in match.players if p in self.withdrawn]
        if not gone:
            return
        staying = [p for p in match.players if p not in self.withdrawn]
        if staying:
            winner: PlayerId | None = staying[0]
        else:
            winner = min(match.players, key=self.seed_of) if knockout else None
        match.result = forfeit_result(winner, match.players)

    # ---------------------------------------------------------------- the arena

    def _next_arena(self) -> Round | None:
        """The arena's one round, paired from every player, at its start; nothing after it
        (its matches are added by :meth:`arena_pair`; :meth:`next_round` is asked again only
        once its time is up and every game has ended)."""
        if self.rounds:
            if not self.closing:
                raise TournamentError("The arena's time is not up yet.")
            return None
        rnd = Round(1, "arena", [])
        self.rounds.append(rnd)
        try:
            self.arena_pair()
        finally:
            self.rounds.pop()
        return rnd

    def free_players(self) -> list[PlayerId]:
        """The arena's players waiting for a game: neither withdrawn (away) nor in a game,
        longest waiting first (see :mod:`bot.tournament.arena`)."""
        last: dict[PlayerId, int] = {}
        busy: set[PlayerId] = set()
        matches = self.rounds[0].matches if self.rounds else []
        for i, m in enumerate(matches):
            for p in m.players:
                last[p] = i
                if not m.done:
                    busy.add(p)
        seed = {p: i for i, p in enumerate(self.seeds)}
        free = [p for p in self.active if p not in busy]
        return sorted(free, key=lambda p: (last.get(p, -1), seed[p]))

    def arena_pair(self) -> list[Match]:
        """Pair the arena's free players (:func:`pair_arena`), add their matches to its round
        and return them; none once its time is up."""
        if self.settings.format is not Format.ARENA:
            raise TournamentError("Only an arena pairs players as they finish.")
        rnd = self.current_round
        if rnd is None or self.closing or self.finished:
            return []
        points = arena_scores(self.seeds, rnd.matches)
        last: dict[PlayerId, PlayerId] = {}
        for m in rnd.matches:
            if len(m.players) == 2:
                a, b = m.players
                last[a], last[b] = b, a
        new = []
        computers = {p.id for p in self.players if p.ai}
        for a, b in pair_arena(self.free_players(), points, last, computers):
            match = Match(f"A{len(rnd.matches) + 1}", (a, b))
            rnd.matches.append(match)
            new.append(match)
        return new

    def close_arena(self) -> None:
        """The arena's time is up: nobody is paired again; games in play finish and count."""
        if self.settings.format is not Format.ARENA:
            raise TournamentError("Only an arena pairs players as they finish.")
        self.closing = True

    def join(self, player: Player) -> None:
        """A player enters the arena while it runs (seeded last), or comes back after he left
        (his results stand; a disqualified player does not come back)."""
        if self.settings.format is not Format.ARENA:
            raise TournamentError("Only an arena takes players once it has started.")
        if self.closing or self.finished:
            raise TournamentError("The event is over.")
        if any(p.id == player.id for p in self.players):
            if self.withdrawn.get(player.id) == DISQUALIFIED:
                raise TournamentError("That player has already left the event.")
            self.withdrawn.pop(player.id, None)
            self.no_shows.pop(player.id, None)
            return
        if len(self.players) >= self.settings.seats_limit:
            raise TournamentError(f"This event takes at most {self.settings.seats_limit} players.")
        self.players.append(player)

    def arena_standings(self) -> list[ArenaStanding]:
        """The arena's standings (see :mod:`bot.tournament.arena`)."""
        return arena_standings(self.seeds, self._rounds("arena")[0].matches if self.rounds else [])

    # ---------------------------------------------------------------- brackets

    def bracket(self) -> tuple[Bracket, list[PlayerId]] | None:
        """The elimination bracket (or the Swiss playoff once it has started) and its seeds."""
        s = self.settings
        if s.format in ELIMINATION:
            if self.in_groups:
                return None
            seeds = list(self.cut) if s.groups else self.seeds
            if s.format is Format.SINGLE_ELIMINATION:
                return single_elimination(len(seeds), third_place=s.third_place), seeds
            return double_elimination(len(seeds), reset=s.grand_final_reset), seeds
        if s.format is Format.SWISS and self.cut:
            return single_elimination(len(self.cut), third_place=s.third_place), list(self.cut)
        return None

    def bracket_state(self) -> dict[str, Resolved] | None:
        """Every bracket node's state (who plays, who won), or None without a bracket."""
        found = self.bracket()
        if found is None:
            return None
        bracket, seeds = found
        winners = {
            m.id: m.result.winner
            for r in self._rounds("bracket", "playoff")
            for m in r.matches
            if m.result is not None and m.result.winner is not None
        }
        return resolve(bracket, seeds, winners)

    def _next_bracket(self, phase: str, seeds: list[PlayerId]) -> Round | None:
        found = self.bracket()
        assert found is not None
        bracket, _ = found
        state = self.bracket_state()
        assert state is not None
        scheduled = {m.id for r in self._rounds(phase) for m in r.matches}
        out = []
        for node in bracket.nodes:
            s = state[node.id]
            if s.playable and node.id not in scheduled:
                a, b = s.players
                assert a is not None and b is not None
                pair = (a, b) if seeds.index(a) < seeds.index(b) else (b, a)
                match = Match(node.id, pair)
                self._forfeit_if_withdrawn(match, knockout=True)
                out.append(match)
        if not out:
            return None
        return Round(self._number(), phase, out)

    # ---------------------------------------------------------------- table rounds

    def _next_tables(self) -> Round | None:
        played = self._rounds("tables")
        active = self.active
        s = self.settings
        if len(played) < s.table_rounds() and len(active) >= 2:
            n = self._number()
            sizes = table_sizes(len(active), s.table_size, s.table_min)
            if not played:
                tables = seat_by_seed(active, sizes)
            else:
                ranked = [r.player for r in self.standings() if r.player not in self.withdrawn]
                met = met_counts(m for r in played for m in r.matches)
                tables = seat_by_standings(ranked, sizes, met)
            return Round(
                n,
                "tables",
                [Match(f"R{n}-T{i}", tuple(t)) for i, t in enumerate(tables, start=1)],
            )
        if s.final_table >= 2 and not self._rounds("final") and len(active) >= 2:
            ranked = [r.player for r in self.standings() if r.player not in self.withdrawn]
            return Round(self._number(), "final", [Match("F", tuple(ranked[: s.final_table]))])
        return None

    # ---------------------------------------------------------------- standings and prizes

    def standings(
        self,
    ) -> list[PairStanding] | list[TableStanding] | list[KnockoutStanding] | list[ArenaStanding]:
        """Current standings: Swiss or round-robin rounds (a Swiss playoff is its bracket);
        the table rounds before the final table; for elimination formats the bracket's (who is
        still in, who went out where)."""
        if self.settings.format is Format.TABLE_ROUNDS:
            return self.table_standings()
        if self.settings.format is Format.ARENA:
            return self.arena_standings()
        if self.settings.format in ELIMINATION:
            if self.groups():
                return self._group_event_standings()
            found, state = self.bracket(), self.bracket_state()
            assert found is not None and state is not None
            return knockout_standings(found[0], state, found[1])
        return self.pair_standings()

    def _group_event_standings(self) -> list[PairStanding] | list[KnockoutStanding]:
        """An event with a group stage: in the groups, every group's table side by side (the
        group winners first, then the runners-up …, ranked by group place); once the bracket
        has started, its standings, then the players who went out in the groups by group
        place (sharing a rank per place)."""
        tables = self.group_tables()
        by_place = sorted(
            (row for rows in tables for row in rows),
            key=lambda r: (r.rank, self.seed_of(r.player)),
        )
        if self.in_groups:
            out: list[PairStanding] = []
            for row in by_place:
                same = out and out[-1].rank == row.rank
                out.append(replace(row, rank=out[-1].rank if same else len(out) + 1))
            return out
        found, state = self.bracket(), self.bracket_state()
        assert found is not None and state is not None
        rows = knockout_standings(found[0], state, found[1])
        last_place = None
        for row in by_place:
            if row.player in self.cut:
                continue
            rank = rows[-1].rank if row.rank == last_place else len(rows) + 1
            last_place = row.rank
            rows.append(
                KnockoutStanding(
                    rank, row.player, self.seed_of(row.player), row.wins, row.losses, GROUP_STAGE
                )
            )
        return rows

    def pair_standings(self) -> list[PairStanding]:
        """Two-player standings (see :mod:`bot.tournament.standings`)."""
        phases = {
            Format.SWISS: ("swiss",),
            Format.ROUND_ROBIN: ("round-robin",),
        }.get(self.settings.format, ("bracket",))
        matches = [m for r in self._rounds(*phases) for m in r.matches]
        return pair_standings(
            self.seeds,
            matches,
            bye_scores=self.settings.format is not Format.ROUND_ROBIN,
            missed=self.missed(),
        )

    def table_standings(self) -> list[TableStanding]:
        """Table-rounds standings, before the final table."""
        return table_standings(self.seeds, [m for r in self._rounds("tables") for m in r.matches])

    def ranking(self) -> list[PlayerId]:
        """The final order of every player (or the current one while the event runs).
        Disqualified players come last."""
        fmt = self.settings.format
        order: list[PlayerId]
        if fmt in ELIMINATION and self.finished and self.bracket() is not None:
            found, state = self.bracket(), self.bracket_state()
            assert found is not None and state is not None
            top = placing(found[0], state, found[1].index)
            order = top + [r.player for r in self.standings() if r.player not in top]
        else:
            order = [r.player for r in self.standings()]
            if fmt is Format.SWISS and self.cut and self.finished:
                found, state = self.bracket(), self.bracket_state()
                assert found is not None and state is not None
                top = placing(found[0], state, self.cut.index)
                order = top + [p for p in order if p not in top]
            final = self._rounds("final")
            if final and final[0].matches[0].result is not None:
                table = final[0].matches[0]
                assert table.result is not None
                wins = table.result.games_won
                place = {p: i for i, p in enumerate(order)}
                top = sorted(
                    table.players,
                    key=lambda p: (-table_points(table, p), -wins.get(p, 0), place[p]),
                )
                order = top + [p for p in order if p not in top]
        return [p for p in order if self.withdrawn.get(p) != DISQUALIFIED] + [
            p for p in order if self.withdrawn.get(p) == DISQUALIFIED
        ]

    def eligible_for_prizes(self, pid: PlayerId) -> bool:
        """Humans who were not disqualified (computer fillers never win prize money)."""
        return not self.player(pid).ai and self.withdrawn.get(pid) != DISQUALIFIED

    def payouts(self, pool: int) -> dict[PlayerId, int]:
        """The prize money of the finished event (see :mod:`bot.tournament.payout`)."""
        if not self.finished:
            raise TournamentError("The event is not over yet.")
        return payouts(pool, self.settings.prize_split, self.ranking(), self.eligible_for_prizes)

    # ---------------------------------------------------------------- persistence

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-compatible values."""
        return {
            "version": STATE_VERSION,
            "settings": self.settings.to_dict(),
            "players": [p.to_dict() for p in self.players],
            "rounds": [r.to_dict() for r in self.rounds],
            "withdrawn": [[p, why] for p, why in self.withdrawn.items()],
            "cut": list(self.cut),
            "finished": self.finished,
            "no_shows": [[p, n] for p, n in self.no_shows.items()],
            "late": [[p, n] for p, n in self.late.items()],
            "closing": self.closing,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        """The event stored by :meth:`to_dict`."""
        if data.get("version") != STATE_VERSION:
            raise TournamentError("This event was stored by another version of the bot.")
        return cls(
            EventSettings.from_dict(data["settings"]),
            [Player.from_dict(p) for p in data["players"]],
            [Round.from_dict(r) for r in data["rounds"]],
            {int(p): str(why) for p, why in data.get("withdrawn", [])},
            [int(p) for p in data.get("cut", [])],
            bool(data.get("finished", False)),
            {int(p): int(n) for p, n in data.get("no_shows", [])},
            {int(p): int(n) for p, n in data.get("late", [])},
            bool(data.get("closing", False)),
        )
