"""The study tools in Chinese, end to end: a zh-TW and a zh-CN member of a server whose language
is zh-TW finish a game, then read their ``/stats`` (and its chart), ``/history``, press a Replay
button and page through the replay with ◀ ▶, run ``/replay`` and ``/review``, and get refused
once or twice. Every message, response, followup, edit, attachment description and chart
caption they saw is read: no English may be left but names and notation
(:func:`tests.locale.english.english_in`).

Public messages (the replay, the review, ``/stats``) are in the server's language, zh-TW; the
replies only one member sees (``/history``, refusals) are in his own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import discord
import pytest
import simcord

import bot.render.charts as charts
from bot.ai.review import (
    ACTION_PHRASES,
    REASONS,
    REVIEW_TEMPLATES,
    SENTENCES,
    VERDICT_WORDS,
    Decision,
    Estimate,
    Verdict,
    Words,
)
from bot.ai.review_words import HINTS
from bot.engine import Game, describe_event
from bot.engine.events import TurnStarted
from bot.engine.record import replay
from bot.locale import EventLine, catalogue, placeholders
from bot.render.charts import rating_chart
from bot.services.replays import LoadedGame, review_sentence, summary_lines
from bot.services.review_text import expert_text, say
from cogs.replay import replay_line, replay_page
from tests.discord.conftest import (  # noqa: F401  (the simulated Discord's fixtures)
    World,
    env,
    settings,
    simcord_bot,
    world,
)
from tests.discord.tables_kit import exact_deal, no_incidents, table_of  # noqa: F401  (autouse)
from tests.discord.test_replay_review import (
    ALICE,
    BOB,
    LOSER,
    WALL,
    WINNER,
    play_game,
    use_inline_reviews,
)
from tests.discord.test_stats import play
from tests.engine.test_record import PRESETS, random_game
from tests.locale.english import english_in

CHINESE = ("zh-TW", "zh-CN")
NAMES = ("alice", "bob", "carol")


@pytest.fixture
def chart_texts(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text drawn into a rating chart (its title, axis labels, legend, captions)."""
    drawn: list[str] = []
    original = charts.draw_text

    def draw_text(draw: Any, x: float, y: float, text: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append(text)
        return original(draw, x, y, text, *args, **kwargs)

    monkeypatch.setattr(charts, "draw_text", draw_text)
    yield drawn


class Seen:
    """What one member saw: every message of his interactions, as discord.py reads them."""

    def __init__(self) -> None:
        self.messages: list[discord.Message | str] = []

    def add(self, result: simcord.InteractionResult) -> simcord.InteractionResult:
        """Keep the response, its attachments' descriptions and the followups."""
        for shown in [result.response, *result.followups]:
            if shown is None:
                continue
            message = shown.message
            self.messages.append(message)
            self.messages += [a.description for a in message.attachments if a.description]
        return result


def labels(message: simcord.ResponseMessage) -> list[str]:
    return [str(c.get("label")) for row in message.components for c in row["components"]]


async def page_through(
    member: simcord.MemberActor, first: simcord.InteractionResult, seen: Seen
) -> int:
    """Press ▶ to the last step, then ◀ once: the number of steps shown."""
    page = first.response
    assert page is not None
    steps = 0
    while True:
        buttons = {c["label"]: c for row in page.components for c in row["components"]}
        if buttons["▶"].get("disabled"):
            break
        page = seen.add(await member.click(page, label="▶")).response
        assert page is not None
        steps += 1
    seen.add(await member.click(page, label="◀"))
    return steps


async def test_the_study_tools_speak_chinese(
    world: World,  # noqa: F811  (the fixture)
    locales: dict[int, str],
    monkeypatch: pytest.MonkeyPatch,
    chart_texts: list[str],
) -> None:
    ch = world.channel
    alice, bob, carol = world.members[:3]
    locales[alice.id], locales[bob.id], locales[carol.id] = "zh-TW", "zh-CN", "zh-CN"
    r = await world.admin.slash(ch, "kapadmin config", language="zh-TW")
    assert "繁體中文" in r.response.content  # type: ignore[union-attr]
    exact_deal(monkeypatch, Game.KAP_SHAP, [ALICE, BOB], WALL, dice=(1, 1, 2, 2))
    game_id = await play_game(world)
    # A Tsung Shap game too (captures, placements: other replay lines), played by the service.
    fishing_id = await play(world, 4242, [bob, alice], game="tsung-shap", seed=3)
    use_inline_reviews(world)
    seen = {alice.id: Seen(), bob.id: Seen(), carol.id: Seen()}

    # /stats: a public embed (the server's zh-TW) with the rating chart.
    r = seen[alice.id].add(await alice.slash(ch, "stats"))
    [embed] = r.response.embeds  # type: ignore[union-attr]
    assert embed.title == "📊 alice — 所有牌局" or "alice" in (embed.title or "")
    assert [a.filename for a in r.response.attachments] == ["rating.png"]  # type: ignore[union-attr]
    assert chart_texts and any("積分" in text for text in chart_texts)
    seen[bob.id].add(await bob.slash(ch, "stats", member=alice, game="tsung-shap"))
    chart_words = list(chart_texts)

    # /history: his own language; the Replay button posts the replay, paged with ◀ ▶.
    for member, script in ((alice, "重播"), (bob, "回放")):
        r = seen[member.id].add(await member.slash(ch, "history"))
        assert r.ephemeral and r.response is not None
        assert labels(r.response) == [f"{script} 1", f"{script} 2"]
        replay = seen[member.id].add(await member.click(r.response, label=f"{script} 2"))
        assert replay.response is not None and not replay.ephemeral
        [embed] = replay.response.embeds
        assert embed.author.name == "第 0 步（共 9 步）"  # public: the server's zh-TW
        assert "alice 先手" in (embed.description or "")
        assert await page_through(member, replay, seen[member.id]) == 9

    # /replay directly, both games, every step.
    r = seen[bob.id].add(await bob.slash(ch, "replay", game=fishing_id))
    assert r.response is not None and "爭十" in (r.response.embeds[0].title or "")
    assert await page_through(bob, r, seen[bob.id]) > 3
    r = seen[carol.id].add(await carol.slash(ch, "replay", game=game_id))
    descriptions = [a.description for a in r.response.attachments]  # type: ignore[union-attr]
    assert descriptions == ["第 0 步後的棄牌", f"牌局 {game_id} 的牌譜（可用來重播或研究的文字檔）"]
    await page_through(carol, r, seen[carol.id])

    # /review: progress edits, then the mistakes list, in the server's language.
    start = len(world.env.http_requests)
    r = seen[alice.id].add(await alice.slash(ch, "review", game=game_id))
    assert r.response is not None and not r.ephemeral
    # Every text the reply held: the first answer, then each progress edit.
    first = [
        e.json.get("data", {}).get("content", "")
        for e in world.env.http_requests[start:]
        if e.method == "POST" and e.path.endswith("/callback") and e.json
    ]
    edits = [
        e.json.get("content", "")
        for e in world.env.http_requests[start:]
        if e.method == "PATCH" and "messages/@original" in e.path and e.json
    ]
    assert first and first[0].startswith("🔍 正在覆盤牌局"), first
    assert edits and all(isinstance(text, str) for text in edits)
    seen[alice.id].messages += first
    seen[alice.id].messages += edits
    text = r.response.content
    assert "覆盤" in text and "個決定" in text, text

    r = seen[bob.id].add(await bob.slash(ch, "review", game=game_id))
    assert r.response is not None and "bob" in r.response.content

    # Refusals: only he reads them, in his own language.
    for member, kwargs in (
        (carol, {"game": "abcdef123456"}),
        (bob, {"game": game_id, "member": alice}),
    ):
        command = "review" if "member" in kwargs else "replay"
        r = seen[member.id].add(await member.slash(ch, command, **kwargs))
        assert r.ephemeral
    r = seen[carol.id].add(await carol.slash(ch, "review", game=game_id))
    assert r.ephemeral and "你没有玩牌局" in r.response.content  # type: ignore[union-attr]

    # The rating and wins leaderboards (cogs/stats.py) too.
    seen[bob.id].add(await bob.slash(ch, "leaderboard", by="rating"))
    seen[alice.id].add(await alice.slash(ch, "leaderboard", by="wins", game="tsung-shap"))

    # The games' ids are notation (hexadecimal): their letters are no English.
    allowed = {*NAMES, *re.findall(r"[a-z]+", f"{game_id} {fishing_id}")}
    for who in seen.values():
        assert len(who.messages) > 2
        found = english_in(who.messages, allowed=allowed)
        assert found == [], "\n".join(found)
    assert english_in(chart_words, allowed=NAMES) == []


def _decision(played: str, best: str, verdict: Verdict, reason: Words | None = None) -> Decision:
    after, before = Estimate(0.22, 0.03, 200), Estimate(0.31, 0.03, 200)
    return Decision(
        3, 2, 0, played, best, best, after, before, before, 0.09, 0.02, verdict, 3, 400,
        reason=reason,
    )  # fmt: skip


@pytest.mark.parametrize("locale", CHINESE)
def test_every_review_template_is_translated(locale: str) -> None:
    """Each of the AI layer's review templates is in the catalogue, with the same
    placeholders and no English left."""
    cat = catalogue(locale)
    assert cat is not None
    assert set(REVIEW_TEMPLATES) == {
        *ACTION_PHRASES.values(),
        *VERDICT_WORDS.values(),
        *SENTENCES.values(),
        *REASONS.values(),
        *HINTS.values(),
    }
    for template in REVIEW_TEMPLATES:
        message = cat.get(template)
        assert message is not None and message.string, template
        assert isinstance(message.string, str)
        assert placeholders(message.string) == placeholders(template)
        assert english_in([message.string]) == [], template


NOTATIONS = (
    "draw",
    "take",
    "take 6-4",
    "discard 3-1",
    "declare",
    "place left",
    "capture pair right",
    "capture triplet ends",
    "claim pair left",
    "claim triplet ends",
)


@pytest.mark.parametrize("locale", CHINESE)
def test_every_review_sentence_is_chinese(locale: str) -> None:
    """Every action in every kind of sentence, every reason, and the summary's lines, say no
    English."""
    sentences = []
    for played in NOTATIONS:
        for best in NOTATIONS:
            for verdict in Verdict:
                decision = _decision(played, best, verdict)
                sentences += [review_sentence(decision, locale), expert_text(decision, locale)]
    for template in REASONS.values():
        values = {name: "6-4" for name in placeholders(template)}
        values.update({k: "bob" for k in ("name",) if k in values})
        values.update(
            {k: "20" for k in ("points", "best_points", "after", "before") if k in values}
        )
        words = Words(template, tuple(values.items()))
        sentences.append(say(words, locale))
    assert english_in(sentences, allowed=["bob"]) == []
    one = review_sentence(_decision("draw", "take 6-4", Verdict.MISTAKE), locale)
    if locale == "zh-TW":
        assert (
            one
            == "失誤，−9 個百分點（± 2）：選擇摸牌（22 % ± 3 %）而不是吃 6-4 紅頭十（31 % ± 3 %）。"
        )
    else:
        assert (
            one
            == "失误，−9 个百分点（± 2）：选择摸牌（22 % ± 3 %）而不是吃 6-4 红头十（31 % ± 3 %）。"
        )
    assert review_sentence(_decision("draw", "take 6-4", Verdict.MISTAKE), "en") == (
        "Mistake, −9 points (± 2): drawing (22 % ± 3 %) instead of taking 6-4 (31 % ± 3 %)."
    )

    class Result:
        mistakes = (_decision("capture pair left", "place right", Verdict.BLUNDER),)

    [line] = summary_lines(Result(), locale=locale)  # type: ignore[arg-type]
    assert english_in([line]) == [] and line.startswith("第 3 步")


@pytest.mark.parametrize("locale", CHINESE)
def test_a_tsung_shap_review_turns_a_tile_over(locale: str) -> None:
    """Tsung Shap's draw turns the next tile of one's pile over: 翻牌 in its review, where a
    Kap Shap review says 摸牌 (the same English "drawing")."""
    decision = _decision("draw", "claim pair left", Verdict.MISTAKE)
    choose = "選擇" if locale == "zh-TW" else "选择"
    assert f"{choose}翻牌（" in review_sentence(decision, locale, fishing=True)
    assert f"{choose}摸牌（" in review_sentence(decision, locale)


@pytest.mark.parametrize("locale", CHINESE)
def test_chart_captions_are_chinese(locale: str, chart_texts: list[str]) -> None:
    """The rating chart's own words (the games axis, the empty chart) follow the locale."""
    rating_chart({"夾十": [1000, 1040, 1010]}, title="alice 的積分", locale=locale)
    rating_chart({"夾十": []}, title="alice", locale=locale)
    assert english_in(chart_texts, allowed=NAMES) == []
    rated = "局計積分牌局" if locale == "zh-TW" else "局计积分牌局"
    assert f"3 {rated}" in chart_texts
    assert any("積分的牌局" in t or "积分的牌局" in t for t in chart_texts)
    rating_chart({"Kap Shap": [1000, 1040]})
    assert "2 rated games" in chart_texts  # English stays English


def _embed_texts(embed: discord.Embed) -> list[str]:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    parts += [embed.author.name or ""]
    for embed_field in embed.fields:
        parts += [embed_field.name or "", embed_field.value or ""]
    return [p for p in parts if p]


@pytest.mark.parametrize("locale", CHINESE)
@pytest.mark.parametrize("preset", range(len(PRESETS)))
def test_every_replay_step_of_every_game_kind_is_chinese(locale: str, preset: int) -> None:
    """Every step of random games of each kind and variant (draws, claims, sweeps, winning
    hands with wild fours): no English on the page but the players' names."""
    for seed in (1, 2):
        record = random_game(preset, seed)
        game = LoadedGame("abc", 1, record, tuple(None for _ in record.seats))
        names = {word for seat in record.seats for word in seat.name.split()}
        four_two = record.rules.four_two_value
        # Every line of every step (what frame() shows), worded once each...
        texts = [
            replay_line(EventLine(describe_event(e, item.seat, record.names), e, record.names),
                        four_two, locale)
            for item in replay(record)
            for e in item.events
            if not isinstance(e, TurnStarted)
        ]  # fmt: skip
        # ...and a few whole pages (pictures are slow to draw).
        total = len(record.actions)
        for step in sorted({0, total // 2, total}):
            embed, files, _ = replay_page(game, step, with_record=step == 0, locale=locale)
            texts += _embed_texts(embed)
            texts += [f.description for f in files if f.description]
        assert len(texts) > total // 2
        assert english_in(texts, allowed={*names, "abc"}) == []


def test_a_big_table_replays_in_chinese() -> None:
    """Beyond four seats the hands are one field of lines: its heading is Chinese too."""
    record = random_game(3, 1, limit=12)
    game = LoadedGame("abc", 1, record, tuple(None for _ in record.seats))
    embed, _, _ = replay_page(game, 5, with_record=False, locale="zh-CN")
    assert "手牌" in [f.name for f in embed.fields]
    assert embed.author.name == "第 5 步（共 12 步）"


async def test_review_pages_speak_chinese(
    world: World,  # noqa: F811  (the fixture)
    locales: dict[int, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The review's mistakes with their pictures, paged through, in the server's language:
    the verdicts, why, the expert's choice, the position and the pictures' descriptions."""
    ch = world.channel
    alice, bob = world.members[:2]
    locales[alice.id], locales[bob.id] = "zh-TW", "zh-CN"
    await world.admin.slash(ch, "kapadmin config", language="zh-TW")
    exact_deal(monkeypatch, Game.KAP_SHAP, [WINNER, LOSER], "2-1 3-1 5-2", dice=(1, 1, 2, 2))
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
        await (member.slash(ch, verb) if tile is None else member.slash(ch, verb, tile=tile))
    use_inline_reviews(world, rollouts=400)
    seen = Seen()
    r = seen.add(await alice.slash(ch, "review", game=game_id))
    assert r.response is not None
    assert "2 個大錯" in r.response.content and "第 5 步（第 3 手）" in r.response.content
    [embed] = r.response.embeds
    assert embed.title == "大錯：第 5 步（第 3 手）"
    assert "**原因：**手牌已經胡了：胡牌就立刻贏。" in (embed.description or "")
    page = seen.add(await bob.click(r.response, label="▶"))
    assert page.response is not None and page.response.embeds[0].title == "大錯：第 1 步（第 1 手）"
    allowed = {*NAMES, *re.findall(r"[a-z]+", game_id)}
    found = english_in(seen.messages, allowed=allowed)
    assert found == [], "\n".join(found)
