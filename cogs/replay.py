"""``/replay game:<id>`` and ``/review game:<id>``: finished games stepped through, and reviewed.

* ``/replay`` shows a finished game of this server one action per step, with ◀ ▶ buttons whose
  custom ids (``rp:{game}:{step}``) carry everything, so they keep working after a restart. The
  game is over, so every hand is shown. The game's record (``docs/record-format.md``) comes as a
  file with the first page.
* ``/review`` reviews the caller's decisions in one of his finished games (another member's only
  when that member allows it in ``/settings`` or the server's ``reviews`` setting is ``public``,
  by default ``KAPSHAP_REVIEW_PUBLIC``), off the event loop in a process pool: the reply is
  edited with the progress, then with what the review found (each decision judged against the
  best move, :mod:`bot.ai.review`) and the named mistakes, largest first; ◀ ▶ page through them
  (``rv:{game}:{seat}:{page}``), each with why, the expert's choice and the picture of the
  position as the player saw it.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import time
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import KapBot
from bot.limits import fit_message
from bot.locale import EventLine, nt, t
from bot.render.family import render_for, render_of
from bot.render.text import game_title, localize
from bot.services.errors import UserError
from bot.services.replays import (
    Decision,
    LoadedGame,
    Progress,
    ReplayService,
    ReviewResult,
    ReviewService,
    frame,
    hints_used,
    summary_lines,
)
from bot.services.review_text import (
    expert_text,
    method_text,
    position_lines,
    reason_text,
    review_sentence,
    tally_text,
    verdict_word,
)
from cogs.common import guarded, public_locale_of

__all__ = ["ReplayButton", "Replays"]

log = logging.getLogger(__name__)

PROGRESS_EVERY = 1.0
"""Seconds between two progress edits of a review reply (Discord rate-limits edits)."""


def _guild(interaction: discord.Interaction[Any]) -> int:
    if interaction.guild_id is None:
        raise UserError("Games belong to a server: use this command in a server channel.")
    return interaction.guild_id


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"rp:(?P<game>[0-9a-f]{1,32}):(?P<step>[0-9]{1,6})",
):
    """◀ / ▶ of a replay: ``rp:{game}:{step}`` shows the position after ``step`` actions."""

    def __init__(self, game_id: str, step: int, *, label: str, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"rp:{game_id}:{step}",
            )
        )
        self.game_id = game_id
        self.step = step

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ReplayButton:
        """Rebuild the button from its custom id (after a restart too)."""
        return cls(match["game"], int(match["step"]), label="")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Show the requested step in place."""
        async with guarded(interaction, "replay button"):
            cog = interaction.client.get_cog(Replays.__cog_name__)
            if not isinstance(cog, Replays):
                raise UserError("Replays are not available right now; try again in a moment.")
            game = await cog.replays.load(self.game_id, _guild(interaction))
            # The replay is a public message: the server's language.
            locale = await public_locale_of(interaction)
            embed, files, buttons = replay_page(game, self.step, with_record=False, locale=locale)
            await interaction.response.edit_message(embed=embed, attachments=files, view=buttons)


class HistoryReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"kap:replay:(?P<game>[0-9a-f]{1,32})",
):
    """The **Replay** button of a ``/history`` entry (custom id ``kap:replay:{game}``, see
    ``cogs.stats.REPLAY_ID``): the same as ``/replay game:{game}``, in a new message, so the
    history stays where it was."""

    def __init__(self, game_id: str) -> None:
        super().__init__(
            discord.ui.Button(
                label="Replay",
                style=discord.ButtonStyle.secondary,
                custom_id=f"kap:replay:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> HistoryReplayButton:
        """Rebuild the button from its custom id (after a restart too)."""
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Post the replay of that game, from its dealt position."""
        async with guarded(interaction, "history replay button"):
            cog = interaction.client.get_cog(Replays.__cog_name__)
            if not isinstance(cog, Replays):
                raise UserError("Replays are not available right now; try again in a moment.")
            game = await cog.replays.load(self.game_id, _guild(interaction))
            locale = await public_locale_of(interaction)  # posted for everyone to see
            embed, files, buttons = replay_page(game, 0, with_record=True, locale=locale)
            await interaction.response.send_message(embed=embed, files=files, view=buttons)


def replay_line(line: str, rules: Any, locale: str = "en") -> str:
    """A line of a replay step in ``locale``. The game is over, so a drawn tile is named (the
    table's public wording hides it) and a winning hand is told tile by tile (the game's
    :meth:`~bot.render.family.Words.replay_event`; ``rules`` are the game's rules, or the 4-2
    rule alone)."""
    if locale == "en" or not isinstance(line, EventLine):
        return localize(line, locale)
    try:
        words = render_for(line.event)
    except LookupError:
        return str(line)
    return words.replay_event(line.event, line.names, rules, locale) or str(line)


def replay_page(
    game: LoadedGame, step: int, *, with_record: bool, locale: str = "en"
) -> tuple[discord.Embed, list[discord.File], discord.ui.View]:
    """The embed, picture (and record file) and buttons of one step of a replay, in
    ``locale``."""
    loc = locale
    shown = frame(game, step)
    record = game.record
    names = record.names
    render = render_of(record.rules.game)
    embed = discord.Embed(
        title=t(
            loc,
            "Replay of game {game} — {title}",
            game=game.id,
            title=game_title(record.rules.game, loc),
        ),
        description="\n".join(replay_line(line, record.rules, loc) for line in shown.lines)
        or "\u200b",
    )
    embed.set_author(name=t(loc, "Step {step} of {total}", step=shown.step, total=shown.total))
    used = hints_used(record.tags)
    if used:
        # An unrated game's record notes every hint its player asked for (docs/record-format.md).
        embed.description = (
            (embed.description or "")
            + "\n"
            + nt(loc, "💡 {n} hint used in this game.", "💡 {n} hints used in this game.", used)
        )
    sheet = render.replay_sheet(shown.table, shown.views, names, loc)
    for field in sheet.fields:
        embed.add_field(name=field.name, value=field.value, inline=field.inline)
    if sheet.footer is not None:
        embed.set_footer(text=sheet.footer)
    files = []
    # The attachments' descriptions are their alt text (what a screen reader says).
    picture = render.replay(shown.table, shown.step, loc)
    if picture is not None:
        embed.set_image(url=f"attachment://{picture.filename}")
        files.append(
            discord.File(
                io.BytesIO(picture.png), filename=picture.filename, description=picture.alt
            )
        )
    if with_record:
        files.append(
            discord.File(
                io.BytesIO(game.text.encode()),
                filename=f"{game.id}.txt",
                description=t(
                    loc, "The record of game {game} (a text file to replay or study)", game=game.id
                ),
            )
        )
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(
        ReplayButton(game.id, max(shown.step - 1, 0), label="◀", disabled=shown.step == 0)
    )
    buttons.add_item(
        ReplayButton(
            game.id,
            min(shown.step + 1, shown.total),
            label="▶",
            disabled=shown.step == shown.total,
        )
    )
    return embed, files, buttons


def progress_text(game_id: str, progress: Progress, locale: str = "en") -> str:
    """What the review reply says while it runs (in ``locale``)."""
    if progress.waiting:
        return nt(
            locale,
            "⏳ Your review of game `{game}` is queued: {n} review ahead of it (at most a few "
            "run at once).",
            "⏳ Your review of game `{game}` is queued: {n} reviews ahead of it (at most a few "
            "run at once).",
            progress.queued,
            game=game_id,
        )
    return t(
        locale,
        "🔍 Reviewing game `{game}`: {done} of {total} decisions done…",
        game=game_id,
        done=progress.done,
        total=progress.total,
    )


class Replays(commands.Cog):
    """``/replay`` and ``/review``."""

    def __init__(self, bot: KapBot) -> None:
        self.bot = bot
        self.replays = ReplayService(bot.services.games)
        settings = bot.settings
        self.reviews = ReviewService(
            self.replays,
            max_running=settings.max_reviews,
            rollouts=settings.review_rollouts,
            public=settings.review_public,
        )
        self._results: dict[tuple[str, int], ReviewResult] = {}

    async def cog_unload(self) -> None:
        """Stop the review pool."""
        self.reviews.close()

    @app_commands.command(name="replay", description="Step through a finished game of this server")
    @app_commands.describe(game="The game's id (shown when it ends)")
    @app_commands.guild_only()
    async def replay(self, interaction: discord.Interaction[Any], game: str) -> None:
        """Show the dealt position with ◀ ▶ and the record as a file."""
        async with guarded(interaction, "/replay"):
            loaded = await self.replays.load(game, _guild(interaction))
            locale = await public_locale_of(interaction)  # a public message
            embed, files, buttons = replay_page(loaded, 0, with_record=True, locale=locale)
            await interaction.response.send_message(embed=embed, files=files, view=buttons)

    @app_commands.command(name="review", description="Review your decisions in a finished game")
    @app_commands.describe(
        game="The game's id", member="Whose decisions (yours unless he or the server allows others)"
    )
    @app_commands.guild_only()
    async def review(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        member: discord.Member | None = None,
    ) -> None:
        """Check the request, answer at once, then edit the reply as the review runs."""
        async with guarded(interaction, "/review"):
            loaded = await self.replays.load(game, _guild(interaction))
            server = self.bot.services.server
            mode = (await server.play_settings(loaded.guild_id)).review_mode
            # The owner's permission is asked only when someone else's game is asked for.
            owner_allows = (
                member is not None
                and member.id != interaction.user.id
                and await server.reviews_allowed(member.id)
            )
            seat = self.reviews.seat_to_review(
                loaded,
                interaction.user.id,
                None if member is None else member.id,
                public=None if mode is None else mode == "public",
                owner_allows=owner_allows,
            )
            locale = await public_locale_of(interaction)
            await interaction.response.send_message(
                t(locale, "🔍 Reviewing game `{game}`…", game=loaded.id)
            )
            last: list[tuple[float, str]] = []

            async def report(progress: Progress) -> None:
                # The first report and every queue move are shown; then at most one edit per
                # PROGRESS_EVERY seconds (Discord rate-limits message edits).
                text = progress_text(loaded.id, progress, locale)
                now = time.monotonic()
                if last and (
                    text == last[-1][1]
                    or (now - last[-1][0] < PROGRESS_EVERY and not progress.waiting)
                ):
                    return
                last.append((now, text))
                await interaction.edit_original_response(content=text)

            result = await self.reviews.review(loaded, seat, report)
            self.remember(result)
            content, embed, files, buttons = await asyncio.to_thread(
                review_message, result, 0, locale
            )
            await interaction.edit_original_response(
                content=content, embed=embed, attachments=files, view=buttons
            )

    def remember(self, result: ReviewResult) -> None:
        """Keep a finished review for its pages (the most recent :data:`KEPT_REVIEWS`)."""
        key = (result.game_id, result.seat)
        self._results.pop(key, None)
        self._results[key] = result
        while len(self._results) > KEPT_REVIEWS:
            self._results.pop(next(iter(self._results)))

    async def review_for_page(
        self, interaction: discord.Interaction[Any], game_id: str, seat: int
    ) -> ReviewResult:
        """The review a page button shows: kept in memory, or (after a restart) made again,
        which gives the same figures (its random numbers come from the game and the seat),
        if the member who clicks may see it."""
        found = self._results.get((game_id, seat))
        if found is not None:
            return found
        loaded = await self.replays.load(game_id, _guild(interaction))
        if not 0 <= seat < len(loaded.user_ids):
            raise UserError(
                "This review is no longer in memory, and only a member who may review this "
                "seat can make it again: ask for it with `/review`."
            )
        server = self.bot.services.server
        owner = loaded.user_ids[seat]
        mode = (await server.play_settings(loaded.guild_id)).review_mode
        allows = owner is not None and await server.reviews_allowed(owner)
        try:
            allowed = owner is not None and seat == self.reviews.seat_to_review(
                loaded,
                interaction.user.id,
                owner,
                public=None if mode is None else mode == "public",
                owner_allows=allows,
            )
        except UserError:
            allowed = False
        if not allowed:
            raise UserError(
                "This review is no longer in memory, and only a member who may review this "
                "seat can make it again: ask for it with `/review`."
            )
        await interaction.response.defer()

        async def quiet(_: Progress) -> None:
            return None

        result = await self.reviews.review(loaded, seat, quiet)
        self.remember(result)
        return result


KEPT_REVIEWS = 64
"""Finished reviews kept in memory for their page buttons (older ones are made again)."""


def review_head(result: ReviewResult, locale: str = "en") -> str:
    """The first lines of a review: whose, what it found, the named mistakes (largest first)
    and how the chances were found."""
    head = t(
        locale,
        "📝 Review of game `{game}` for **{name}**: {tally}",
        game=result.game_id,
        name=result.name,
        tally=tally_text(result.decisions, locale),
    )
    lines = [head, *(f"• {line}" for line in summary_lines(result, locale=locale))]
    if result.hints:
        # The expert's hints he asked for (an unrated game): they shaped his moves.
        lines.append(
            nt(
                locale,
                "💡 {n} hint used in this game.",
                "💡 {n} hints used in this game.",
                result.hints,
            )
        )
    if result.decisions:
        lines.append(f"-# {method_text(result.rollouts, locale)}")
    return fit_message("\n".join(lines))


def review_message(
    result: ReviewResult, page: int, locale: str = "en"
) -> tuple[str, discord.Embed | None, list[discord.File], discord.ui.View | None]:
    """The review's message: its text, and, when it names mistakes, page ``page`` of them
    (the position's picture and ◀ ▶)."""
    content = review_head(result, locale)
    mistakes = result.mistakes
    if not mistakes:
        return content, None, [], None
    embed, files, buttons = review_page(result, page, locale)
    return content, embed, files, buttons


def review_page(
    result: ReviewResult, page: int, locale: str = "en"
) -> tuple[discord.Embed, list[discord.File], discord.ui.View | None]:
    """Page ``page`` (clamped) of a review's named mistakes: the verdict, why, the better move
    and the expert's choice, and the position as the player saw it (his hand, or the Tsung
    Shap row), with ◀ ▶ to the others (none when there is only one)."""
    loc = locale
    mistakes = result.mistakes
    page = max(0, min(page, len(mistakes) - 1))
    decision = mistakes[page]
    lines = [review_sentence(decision, loc)]
    reason = reason_text(decision, loc)
    if reason is not None:
        lines.append(t(loc, "**Why:** {reason}", reason=reason))
    lines.append(expert_text(decision, loc))
    embed = discord.Embed(
        title=t(
            loc,
            "{verdict}: action {number} (turn {turn})",
            verdict=verdict_word(decision.verdict, loc).capitalize(),
            number=decision.number,
            turn=decision.turn,
        ),
        description="\n".join(lines)[:4096],
    )
    position = decision.position
    words = position_lines(position, loc) if position is not None else []
    if words:
        embed.add_field(name=t(loc, "The position"), value="\n".join(words)[:1024], inline=False)
    embed.set_footer(
        text=t(
            loc,
            "Mistake {page} of {total} · game {game}",
            page=page + 1,
            total=len(mistakes),
            game=result.game_id,
        )
    )
    files: list[discord.File] = []
    picture = _position_picture(decision, loc)
    if picture is not None:
        embed.set_image(url=f"attachment://{POSITION_FILE}")
        files.append(
            discord.File(
                io.BytesIO(picture),
                filename=POSITION_FILE,
                description="; ".join(words)[:1024] or None,
            )
        )
    if len(mistakes) == 1:
        return embed, files, None  # nothing to page through
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(
        ReviewPageButton(
            result.game_id, result.seat, max(page - 1, 0), label="◀", disabled=page == 0
        )
    )
    buttons.add_item(
        ReviewPageButton(
            result.game_id,
            result.seat,
            min(page + 1, len(mistakes) - 1),
            label="▶",
            disabled=page == len(mistakes) - 1,
        )
    )
    return embed, files, buttons


POSITION_FILE = "position.png"


def _position_picture(decision: Decision, locale: str) -> bytes | None:
    """The picture of the position the player decided in, as he saw it (the game's
    :meth:`~bot.render.family.Pictures.position`: his hand picture with the discards he could
    take, or the Tsung Shap row and his tile)."""
    position = decision.position
    if position is None:
        return None
    picture = render_of(position.rules.game).position(position, decision.legal, locale)
    return None if picture is None else picture.png


class ReviewPageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"rv:(?P<game>[0-9a-f]{1,32}):(?P<seat>[0-9]{1,2}):(?P<page>[0-9]{1,3})",
):
    """◀ / ▶ of a review: ``rv:{game}:{seat}:{page}`` shows that named mistake."""

    def __init__(
        self, game_id: str, seat: int, page: int, *, label: str, disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"rv:{game_id}:{seat}:{page}",
            )
        )
        self.game_id = game_id
        self.seat = seat
        self.page = page

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ReviewPageButton:
        """Rebuild the button from its custom id (after a restart too)."""
        return cls(match["game"], int(match["seat"]), int(match["page"]), label="")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Show the requested page in place."""
        async with guarded(interaction, "review page button"):
            cog = interaction.client.get_cog(Replays.__cog_name__)
            if not isinstance(cog, Replays):
                raise UserError("Reviews are not available right now; try again in a moment.")
            result = await cog.review_for_page(interaction, self.game_id, self.seat)
            locale = await public_locale_of(interaction)  # the review is a public message
            content, embed, files, buttons = await asyncio.to_thread(
                review_message, result, self.page, locale
            )
            if interaction.response.is_done():  # deferred while the review was made again
                await interaction.edit_original_response(
                    content=content, embed=embed, attachments=files, view=buttons
                )
            else:
                await interaction.response.edit_message(
                    content=content, embed=embed, attachments=files, view=buttons
                )


async def setup(bot: commands.Bot) -> None:
    """Register the persistent replay buttons and the cog."""
    if not isinstance(bot, KapBot):  # pragma: no cover - loaded by KapBot only
        raise TypeError("cogs.replay needs a KapBot")
    bot.add_dynamic_items(ReplayButton, HistoryReplayButton, ReviewPageButton)
    await bot.add_cog(Replays(bot))


async def teardown(bot: commands.Bot) -> None:
    """Forget the replay buttons when the extension is unloaded."""
    bot.remove_dynamic_items(ReplayButton, HistoryReplayButton, ReviewPageButton)
