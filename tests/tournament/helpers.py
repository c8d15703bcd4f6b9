"""Shared helpers for the tournament tests: players and random play of whole events."""

from __future__ import annotations

from random import Random

from bot.tournament import (
    Event,
    EventSettings,
    GameRecord,
    Player,
    match_result,
    table_result,
)


def make_players(n: int, *, rated: bool = True, ai: int = 0) -> list[Player]:
    """``n`` players with ids 1…n; player i rated 2000 − i (so seed i when all are rated); the
    last ``ai`` of them are computer fillers."""
    return [
        Player(i, f"P{i}", 2000.0 - i if rated else None, ai=i > n - ai) for i in range(1, n + 1)
    ]


def play_open_matches(event: Event, rng: Random, *, draws: bool = True) -> None:
    """Play every open match of the current round game by game with random winners, through
    the same decision functions a service uses."""
    rnd = event.current_round
    assert rnd is not None
    for match in event.open_matches():
        games: list[GameRecord] = []
        if rnd.phase in ("tables", "final"):
            final = rnd.phase == "final"
            while (
                result := table_result(event.settings, match.players, games, final=final)
            ) is None:
                games.append(GameRecord(rng.choice([*match.players, None])))
        else:
            knockout = event.is_knockout(match.id)
            a, b = match.players
            choices = [a, b, None] if draws else [a, b]
            while True:
                result = match_result(event.settings, (a, b), games, knockout=knockout)
                if result is not None:
                    break
                if len(games) > 40:
                    result = match_result(
                        event.settings, (a, b), games, knockout=knockout, timed_out=True
                    )
                    assert result is not None
                    break
                games.append(GameRecord(rng.choice(choices)))
        event.record(match.id, result)


def run_event(event: Event, rng: Random, *, round_trip: bool = True) -> Event:
    """Play the event to its end; with ``round_trip`` the state goes through to_dict/from_dict
    after every step, as a service storing it would."""
    for _ in range(500):
        rnd = event.next_round()
        if round_trip:
            event = Event.from_dict(event.to_dict())
        if rnd is None:
            return event
        play_open_matches(event, rng)
        if round_trip:
            event = Event.from_dict(event.to_dict())
    raise AssertionError("the event did not end")


def new_event(settings: EventSettings, n: int, seed: int = 0, **kw: object) -> Event:
    """A started event of ``n`` players."""
    return Event.start(settings, make_players(n, **kw), Random(seed))  # type: ignore[arg-type]
