"""``/replay`` and ``/review`` on a game played through slash commands (see test_play_slash)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

import pytest

from bot.app import KapBot
from bot.engine import Game
from bot.engine.record import parse_record
from bot.services.replays import ReviewService
from cogs.replay import Replays
from tests.discord.conftest import World
from tests.discord.tables_kit import exact_deal, no_incidents, table_of  # noqa: F401

ALICE = "6-6 6-6 1-1 4-4 3-1 3-3 6-5 5-2"
BOB = "5-5 6-1 4-1 3-2 6-2 6-3 4-2"
WALL = "2-2 6-4"
T = TypeVar("T")


class InlineExecutor(Executor):
    """Runs each task at once in the caller (the simulated Discord must settle)."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


@pytest.fixture
def deal(monkeypatch: pytest.MonkeyPatch) -> None:
    exact_deal(monkeypatch, Game.KAP_SHAP, [ALICE, BOB], WALL, dice=(1, 1, 2, 2))


def use_inline_reviews(
    world: World, *, public: bool = False, rollouts: int = 8, bot: KapBot | None = None
) -> None:
    cog = (bot or world.bot).get_cog("Replays")
    # discord.py loads an extension as a fresh module: compare the class by name.
    assert type(cog).__name__ == Replays.__name__
    assert isinstance(cog.reviews, ReviewService)  # type: ignore[union-attr]
    cog.reviews = ReviewService(  # type: ignore[union-attr]
        cog.replays, executor=InlineExecutor(), rollouts=rollouts, public=public
    )


async def play_game(world: World, *, finish: bool = True) -> str:
    ch = world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new", game="kap-shap")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    game_id = table_of(world).id
    for member, verb, tile in [
        (alice, "discard", "5-2"),
        (alice, "draw", None),
        (alice, "discard", "2-2"),
        (bob, "take", "5-2"),
        (bob, "discard", "6-3"),
        (bob, "draw", None),
        (bob, "discard", "6-4"),
        (alice, "take", "6-3"),
    ]:
        if tile is None:
            await member.slash(ch, verb)
        else:
            await member.slash(ch, verb, tile=tile)
    if finish:
        await alice.slash(ch, "declare")
    return game_id


def buttons(components: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {str(c["label"]): c for row in components for c in row["components"]}


async def test_replay_steps_through_a_finished_game(world: World, deal: None) -> None:
    _alice, bob, carol = world.members[:3]
    game_id = await play_game(world)

    r = await carol.slash(world.channel, "replay", game=game_id)
    assert r.response is not None and not r.ephemeral
    [embed] = r.response.embeds
    assert embed.author.name == "Step 0 of 9"
    assert "alice plays first" in (embed.description or "")
    # The game is over: every hand is public, bob's Gee Joon included.
    fields = {f.name: f.value for f in embed.fields}
    assert "`4-2`" in (fields["bob"] or "") and "`6-6`" in (fields["▶ alice"] or "")
    names = [a.filename for a in r.response.attachments]
    assert names == ["step.png", f"{game_id}.txt"]
    record = parse_record((await r.response.attachments[1].read()).decode())
    assert record.actions[-1] == "declare" and len(record.actions) == 9
    assert buttons(r.response.components)["◀"].get("disabled") is True
    assert buttons(r.response.components)["▶"]["custom_id"] == f"rp:{game_id}:1"

    step = await carol.click(r.response, label="▶")
    assert step.response is not None and step.response.id == r.response.id
    assert step.response.embeds[0].author.name == "Step 1 of 9"
    assert "alice discarded 5-2" in (step.response.embeds[0].description or "")
    step = await bob.click(step.response, label="▶")
    assert "alice drew 2-2" in (step.response.embeds[0].description or "")  # public now
    back = await bob.click(step.response, label="◀")
    assert back.response.embeds[0].author.name == "Step 1 of 9"


async def test_replay_refusals(world: World, deal: None) -> None:
    alice, carol = world.members[0], world.members[2]
    game_id = await play_game(world, finish=False)
    # A spectator of the live game cannot replay it (nor can a player) before it ends.
    r = await carol.slash(world.channel, "replay", game=game_id)
    assert r.ephemeral and "still being played" in r.response.content
    r = await alice.slash(world.channel, "review", game=game_id)
    assert r.ephemeral and "still being played" in r.response.content
    r = await carol.slash(world.channel, "replay", game="abcdef123456")
    assert r.ephemeral and r.response.content == "There is no game `abcdef123456` on this server."


async def test_review_shows_progress_then_the_result(world: World, deal: None) -> None:
    alice, bob, carol = world.members[:3]
    game_id = await play_game(world)
    use_inline_reviews(world)

    r = await alice.slash(world.channel, "review", game=game_id)
    assert r.response is not None and not r.ephemeral
    edits = [
        e.json.get("content", "")
        for e in world.env.http_requests
        if e.method == "PATCH" and "messages/@original" in e.path
    ]
    assert f"🔍 Reviewing game `{game_id}`: 0 of 4 decisions done…" in edits
    text = r.response.content
    assert text.startswith(f"📝 Review of game `{game_id}` for **alice**: 4 decisions")
    assert "play-outs" in text and "±" in text and "95 % confidence" in text
    assert "matched the expert" not in text

    # Someone else's game: refused while the server keeps reviews private.
    r = await bob.slash(world.channel, "review", game=game_id, member=alice)
    assert r.ephemeral and "only review your own games" in r.response.content
    r = await carol.slash(world.channel, "review", game=game_id)
    assert r.ephemeral and "You did not play game" in r.response.content


async def test_public_reviews_let_a_member_review_another(world: World, deal: None) -> None:
    alice, bob = world.members[:2]
    game_id = await play_game(world)
    use_inline_reviews(world, public=True)
    r = await bob.slash(world.channel, "review", game=game_id, member=alice)
    assert r.response is not None and not r.ephemeral
    assert r.response.content.startswith(f"📝 Review of game `{game_id}` for **alice**")


async def test_replay_buttons_work_after_a_restart(
    world: World, deal: None, restart: Callable[[], Awaitable[KapBot]]
) -> None:
    carol = world.members[2]
    game_id = await play_game(world)
    r = await carol.slash(world.channel, "replay", game=game_id)
    await restart()
    step = await carol.click(r.response, label="▶")
    assert step.response is not None and step.response.id == r.response.id
    assert step.response.embeds[0].author.name == "Step 1 of 9"


async def test_who_may_review_another_members_game(world: World, deal: None) -> None:
    """Refused by default; allowed once the owner allows it (/settings), or once the server
    makes reviews public (/kapadmin config)."""
    alice, bob, carol = world.members[:3]
    game_id = await play_game(world)
    use_inline_reviews(world)

    r = await bob.slash(world.channel, "review", game=game_id, member=alice)
    assert r.ephemeral and "only review your own games" in r.response.content
    assert "/settings reviews:True" in r.response.content  # says how to get permission
    assert "/kapadmin config reviews:public" in r.response.content

    # The owner allows it: anyone may review his games.
    r = await alice.slash(world.channel, "settings", reviews=True)
    assert r.ephemeral and "anyone may review your games" in r.response.content
    r = await bob.slash(world.channel, "review", game=game_id, member=alice)
    assert not r.ephemeral
    assert r.response.content.startswith(f"📝 Review of game `{game_id}` for **alice**")
    # ...and takes it back; bob's own games stay his alone.
    r = await alice.slash(world.channel, "settings", reviews=False)
    assert "only you review your games" in r.response.content
    r = await carol.slash(world.channel, "review", game=game_id, member=alice)
    assert r.ephemeral and "only review your own games" in r.response.content
    r = await alice.slash(world.channel, "review", game=game_id, member=bob)
    assert r.ephemeral and "only review your own games" in r.response.content

    # The server makes reviews public.
    r = await world.admin.slash(world.channel, "kapadmin config", reviews="public")
    assert r.ephemeral and "anyone may review anyone's games" in r.response.content
    r = await carol.slash(world.channel, "review", game=game_id, member=alice)
    assert not r.ephemeral
    assert r.response.content.startswith(f"📝 Review of game `{game_id}` for **alice**")
    r = await carol.slash(world.channel, "review", game=game_id, member=carol)
    assert r.ephemeral and "did not play" in r.response.content

    # Back to own: the server's choice wins over a public bot-wide default.
    r = await world.admin.slash(world.channel, "kapadmin config", reviews="own")
    use_inline_reviews(world, public=True)
    r = await carol.slash(world.channel, "review", game=game_id, member=alice)
    assert r.ephemeral and "only review your own games" in r.response.content


# Classic rules: alice is dealt a winning hand (the eye 6-6 6-6, 5-5 + 5-5, 4-4 + 1-1, 3-1 +
# 3-3) and discards 3-1 instead of declaring; she draws the other 3-1 and again discards it
# instead of declaring; she wins at last with the 2-2 bob discards. Two blunders.
WINNER = "6-6 6-6 5-5 5-5 4-4 1-1 3-1 3-3"
LOSER = "6-5 6-4 6-1 5-1 4-1 3-2 2-2"


async def test_review_pages_through_the_mistakes_with_the_position(
    world: World, monkeypatch: pytest.MonkeyPatch, restart: Callable[[], Awaitable[KapBot]]
) -> None:
    exact_deal(monkeypatch, Game.KAP_SHAP, [WINNER, LOSER], "2-1 3-1 5-2", dice=(1, 1, 2, 2))
    ch = world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new", game="kap-shap", rules="classic")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    game_id = table_of(world).id
    for member, verb, tile in [
        (alice, "discard", "3-1"),
        (bob, "draw", None),
        (bob, "discard", "6-5"),
        (alice, "draw", None),
        (alice, "discard", "3-1"),
        (bob, "draw", None),
        (bob, "discard", "2-2"),
        (alice, "take", "2-2"),
        (alice, "declare", None),
    ]:
        if tile is None:
            await member.slash(ch, verb)
        else:
            await member.slash(ch, verb, tile=tile)
    use_inline_reviews(world, rollouts=400)

    r = await alice.slash(ch, "review", game=game_id)
    message = r.response
    assert message is not None and not r.ephemeral
    text = message.content
    assert text.startswith(
        f"📝 Review of game `{game_id}` for **alice**: 5 decisions: 2 blunders; 3 the best move "
        "or about as good."
    )
    # The two blunders, the largest first (each a line with its loss and both chances).
    lines = [line for line in text.splitlines() if line.startswith("• ")]
    assert [line.split(":")[0] for line in lines] == ["• Action 5 (turn 3)", "• Action 1 (turn 1)"]
    assert all("Blunder, −" in line and "instead of declaring (100 %)" in line for line in lines)
    [embed] = message.embeds
    assert embed.title == "Blunder: action 5 (turn 3)"
    description = embed.description or ""
    assert "**Why:** The hand was a winning hand: declaring wins at once." in description
    assert "The expert's choice: declaring (100 %)." in description
    fields = {f.name: f.value for f in embed.fields}
    assert str(fields["The position"]).startswith("Hand: 6-6 6-6 1-1 4-4 3-1 5-5 5-5 3-3\n")
    assert embed.footer.text == f"Mistake 1 of 2 · game {game_id}"
    assert embed.image.url == "attachment://position.png"
    [picture] = message.attachments
    assert picture.filename == "position.png"
    assert (picture.description or "").startswith("Hand: 6-6 6-6 1-1 4-4 3-1")  # its alt text
    assert (await picture.read())[:8] == b"\x89PNG\r\n\x1a\n"
    found = buttons(message.components)
    assert found["◀"].get("disabled") is True
    assert found["▶"]["custom_id"] == f"rv:{game_id}:0:1"

    # Anyone may page through a public message: the other blunder.
    page = await bob.click(message, label="▶")
    assert page.response is not None and page.response.id == message.id
    [embed] = page.response.embeds
    assert embed.title == "Blunder: action 1 (turn 1)"
    assert embed.footer.text == f"Mistake 2 of 2 · game {game_id}"
    assert buttons(page.response.components)["▶"].get("disabled") is True

    # After a restart the review is made again (the same figures: its random numbers come
    # from the game and the seat), for a member who may review alice's seat.
    bot = await restart()
    use_inline_reviews(world, rollouts=400, bot=bot)
    refused = await bob.click(page.response, label="◀")
    assert refused.ephemeral and "no longer in memory" in refused.response.content
    back = await alice.click(page.response, label="◀")
    assert back.response is not None and back.response.id == message.id
    assert back.response.embeds[0].title == "Blunder: action 5 (turn 3)"
    assert back.response.content == text


async def test_a_review_with_one_mistake_has_no_page_buttons(world: World, deal: None) -> None:
    """bob's game of the scripted deal: one page at most, no ◀ ▶ to nowhere."""
    _alice, bob = world.members[:2]
    game_id = await play_game(world)
    use_inline_reviews(world, rollouts=400)
    r = await bob.slash(world.channel, "review", game=game_id)
    message = r.response
    assert message is not None and message.content.startswith(
        f"📝 Review of game `{game_id}` for **bob**: "
    )
    mistakes = [line for line in message.content.splitlines() if line.startswith("• ")]
    assert len(message.embeds) == (1 if mistakes else 0)
    assert len(mistakes) > 1 or not message.components
