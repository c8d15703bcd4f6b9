"""High Pair in the terminal client (``kapshap play --game high-pair``): the generic loop with
the toy's hooks plays a seeded game to its end; bad input gets one line; ``--lang zh-TW`` runs
too. The client knows the toy only through the registry."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

import pytest

import bot.terminal
from bot.engine.family import engine_of
from bot.games import registered
from bot.locale import t
from tests.games.toy import TOY
from tests.games.toy.ai import GreedyPlayer
from tests.games.toy.engine import Discard, Draw, Show, ToyState

GAME = "high-pair"
SEED = 3


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    with registered(TOY):
        yield


def _script(seed: int) -> tuple[list[str], ToyState]:
    """The lines a player types to play the seeded game (draw, then show a pair or throw the
    highest card), and the game's end, computed through the toy's own engine: the client
    deals from ``Random(seed)`` and the greedy computer plays without chance."""
    engine = engine_of(GAME)
    rules = engine.make_rules(GAME, 2)
    state: ToyState = engine.new_game(
        rules, ["You", "Bot 1"], engine.deal(rules, random.Random(seed), thrower=0)
    )
    bot, lines = GreedyPlayer(), []
    while state.result is None:
        legal = engine.legal_actions(state)
        if state.current == 1:
            state, _ = engine.apply(
                state, bot.choose(engine.view(state, 1), legal, random.Random())
            )
            continue
        action = Draw() if Draw() in legal else Show() if Show() in legal else None
        if action is None:
            action = Discard(max(engine.view(state, 0).hand))
        lines.append({"draw": "d", "show": "s"}.get(str(action), str(action).split()[-1]))
        state, _ = engine.apply(state, action)
    return lines, state


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_seeded_game_is_played_to_its_end(lang: str) -> None:
    lines, final = _script(SEED)
    assert final.result is not None
    typed = ["take 6-6", *lines, "n"]  # one bad line first; no second game
    out, err = io.StringIO(), io.StringIO()
    status = bot.terminal.main(
        ["--game", GAME, "--seed", str(SEED), "--ai", "greedy", "--lang", lang],
        stdin=io.StringIO("\n".join(typed) + "\n"),
        stdout=out,
        stderr=err,
    )
    text = out.getvalue()
    assert status == 0 and err.getvalue() == "", err.getvalue()
    assert "High Pair: hand of 3." in text and f"Seed: {SEED}." in text
    # The bad line is refused in one line, and the game goes on.
    refused = [line for line in text.splitlines() if line.startswith("! ")]
    assert len(refused) == 1 and "take 6-6" in refused[0]
    # The seats' names are the client's, in the table's language.
    names = [t(lang, "You"), t(lang, "Bot {n}", n=1)]
    pair = final.result.pairs[0]
    assert f"{names[0]}: best pair {'-' if pair is None else pair}." in text
    if final.result.winner is None:
        assert "The game is drawn: no higher pair." in text
    else:
        winner = names[final.result.winner]
        assert f"{winner} won with a pair of {final.result.pairs[final.result.winner]}." in text


def test_the_toy_is_offered_and_its_options_are_checked() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert bot.terminal.main(["--help"], stdin=io.StringIO(), stdout=out, stderr=err) == 0
    assert "high-pair" in out.getvalue()
    out, err = io.StringIO(), io.StringIO()
    status = bot.terminal.main(
        ["--game", GAME, "--ai", "master"], stdin=io.StringIO(), stdout=out, stderr=err
    )
    assert status == 2 and "'random', 'greedy'" in err.getvalue()
    assert len(err.getvalue().splitlines()) == 1
