"""Statistics commands: ``/stats [member] [game]``, ``/history [member]``, and the rating and
wins leaderboards that ``/leaderboard by:rating|wins`` shows.

The cog only translates: one :class:`~bot.services.ratings.RatingService` call in, an embed out
(with a PNG chart of the rating history for ``/stats``, drawn off the event loop).

``/history`` puts a **Replay** button under each game, custom id ``kap:replay:{game_id}``
(:data:`REPLAY_ID`): the replay cog answers it (``cogs.replay.HistoryReplayButton``, the same as
``/replay game:{game_id}``). This module does not handle that id itself.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import KapBot
from bot.games import UnknownGame, find, games
from bot.locale import N_, nt, t
from bot.render.alt_text import rating_description
from bot.render.charts import rating_chart
from bot.services.errors import UserError, mention
from bot.services.ratings import HistoryEntry, MemberStats, RatingService
from cogs.common import guarded, locale_of, public_locale_of, services_of

__all__ = [
    "HISTORY_SIZE",
    "PAGE_SIZE",
    "REPLAY_ID",
    "RatingBoardButton",
    "StatsCog",
    "rating_board_message",
    "replay_custom_id",
    "setup",
]

PAGE_SIZE = 10
"""Leaderboard lines per page (as the chips leaderboard)."""

HISTORY_SIZE = 10
"""Games listed by ``/history``."""

REPLAY_ID = "kap:replay:{game_id}"
"""Custom id of a history entry's Replay button; the replay cog handles it."""

GAME_CHOICES = [app_commands.Choice(name=game.name, value=game.name) for game in games()]
"""``/stats game:``: every game by its name (the registry's order)."""
_RESULT_WORDS = {"win": N_("🏆 Won"), "loss": N_("Lost"), "draw": N_("Drawn")}
_EVERY_GAME = N_("Every game")  # a module constant: the extractor misses N_ nested in t()
_POSITIONS = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"), N_("5th"), N_("6th"))

NO_PINGS = discord.AllowedMentions.none()

log = logging.getLogger(__name__)


def replay_custom_id(game_id: str) -> str:
    """The Replay button's custom id for a game (:data:`REPLAY_ID`)."""
    return REPLAY_ID.format(game_id=game_id)


def _guild(interaction: discord.Interaction[Any]) -> int:
    if interaction.guild_id is None:  # pragma: no cover - the commands are guild_only
        raise UserError("Statistics belong to a server: use this command in one.")
    return interaction.guild_id


def _ratings(interaction: discord.Interaction[Any]) -> RatingService:
    return services_of(interaction).ratings


def _title(game: str, locale: str = "en") -> str:
    try:
        return t(locale, find(game).short)
    except UnknownGame:
        return t(locale, _EVERY_GAME)


def _rating_text(rating: int, provisional: bool, locale: str = "en") -> str:
    return f"{rating:,}" + (t(locale, " (provisional)") if provisional else "")


# ----------------------------------------------------------------------------- leaderboard


class RatingBoardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        r"lbr:(?P<by>rating|wins):(?P<game>[a-z-]{1,16}):(?P<guild>[0-9]+)"
        r":(?P<offset>[0-9]+):(?P<owner>[0-9]+)"
    ),
):
    """◀ / ▶ on a rating or wins leaderboard: ``lbr:{by}:{game}:{guild}:{offset}:{owner}``.

    As on the chips leaderboard, the member the board was drawn for turns the page in place; a
    click by anyone else gets his own ephemeral copy of that page (with his own rank).
    """

    def __init__(
        self,
        by: str,
        game: str,
        guild_id: int,
        offset: int,
        owner_id: int,
        *,
        label: str,
        disabled: bool,
    ) -> None:
        """A button showing the page at ``offset`` of the ``by`` board of ``game``."""
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"lbr:{by}:{game}:{guild_id}:{offset}:{owner_id}",
            )
        )
        self.by, self.game, self.guild_id = by, game, guild_id
        self.offset, self.owner_id = offset, owner_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> RatingBoardButton:
        """Rebuild the button from its custom id."""
        return cls(
            match["by"],
            match["game"],
            int(match["guild"]),
            int(match["offset"]),
            int(match["owner"]),
            label="",
            disabled=False,
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Show the requested page to the clicker."""
        async with guarded(interaction, "rating leaderboard button"):
            if _guild(interaction) != self.guild_id:
                raise UserError("This leaderboard belongs to another server.")
            user = interaction.user
            own = user.id == self.owner_id
            message = interaction.message
            ephemeral = message is not None and message.flags.ephemeral
            game = None if self.game == "all" else self.game
            embed, view = await rating_board_message(
                _ratings(interaction),
                self.guild_id,
                by=self.by,
                game=game,
                offset=self.offset,
                viewer_id=user.id,
                viewer_name=user.display_name,
                public=own and not ephemeral,
                locale=locale_of(interaction)
                if not own or ephemeral
                else await public_locale_of(interaction),
            )
            if own:
                await interaction.response.edit_message(embed=embed, view=view)
            else:
                await interaction.response.send_message(
                    embed=embed, view=view, ephemeral=True, allowed_mentions=NO_PINGS
                )


async def rating_board_message(
    ratings: RatingService,
    guild_id: int,
    *,
    by: str,
    game: str | None,
    offset: int,
    viewer_id: int,
    viewer_name: str,
    public: bool,
    locale: str = "en",
) -> tuple[discord.Embed, discord.ui.View]:
    """One page of the ``rating`` or ``wins`` board, the viewer's rank in the footer, in
    ``locale``.

    Three indexed queries (the page, the count, the viewer's rank), whatever the server's size.
    """
    page = await ratings.leaderboard(
        guild_id, by=by, game=game, user_id=viewer_id, offset=offset, limit=PAGE_SIZE
    )
    total, offset = page.total, page.offset
    loc = locale
    lines = []
    for rank, user_id, value, provisional in page.rows:
        you = t(loc, " ← you") if user_id == viewer_id else ""
        shown = _rating_text(value, provisional, loc) if by == "rating" else _wins(value, loc)
        lines.append(f"**#{rank:,}** {mention(user_id)} — {shown}{you}")
    heading = t(loc, "Rating") if by == "rating" else t(loc, "Wins")
    nobody = (
        t(loc, "Nobody has played rated games here yet.")
        if by == "rating"
        else t(loc, "Nobody has played games here yet.")
    )
    embed = discord.Embed(
        title=f"🏆 {heading} — {_title(page.game, loc)}",
        description="\n".join(lines) or nobody,
        colour=discord.Colour.gold(),
    )
    pages = max(1, -(-total // PAGE_SIZE))
    embed.set_author(
        name=t(
            loc, "Page {page} of {pages}", page=f"{offset // PAGE_SIZE + 1:,}", pages=f"{pages:,}"
        )
    )
    if page.own is None:
        rank_text = t(loc, "not ranked yet")
    else:
        rank, value, provisional = page.own
        shown = _rating_text(value, provisional, loc) if by == "rating" else _wins(value, loc)
        rank_text = t(
            loc, "#{rank} of {total} ({shown})", rank=f"{rank:,}", total=f"{total:,}", shown=shown
        )
    embed.set_footer(
        text=t(loc, "{name} · Your rank: {rank}", name=viewer_name, rank=rank_text)
        if public
        else t(loc, "Your rank: {rank}", rank=rank_text)
    )
    view = discord.ui.View(timeout=None)
    key = page.game
    for label, target, disabled in (
        ("◀", max(0, offset - PAGE_SIZE), offset == 0),
        ("▶", offset + PAGE_SIZE, offset + PAGE_SIZE >= total),
    ):
        view.add_item(
            RatingBoardButton(by, key, guild_id, target, viewer_id, label=label, disabled=disabled)
        )
    return embed, view


def _wins(value: int, locale: str = "en") -> str:
    return nt(locale, "{count} win", "{count} wins", value, count=f"{value:,}")


# ----------------------------------------------------------------------------- stats


def stats_embed(stats: MemberStats, name: str, locale: str = "en") -> discord.Embed:
    """The ``/stats`` embed (the chart is attached separately), in ``locale``."""
    loc = locale
    embed = discord.Embed(
        title=f"📊 {name} — {_title(stats.game or 'all', loc)}", colour=discord.Colour.blurple()
    )
    if stats.games == 0:
        embed.description = t(loc, "No finished games yet.")
        return embed
    rate = f"{stats.win_rate:.0%}" if stats.win_rate is not None else "—"
    embed.add_field(
        name=t(loc, "Games"),
        value=t(
            loc,
            "{games} played · {wins} won · {draws} drawn · {losses} lost\nWin rate {rate}",
            games=f"{stats.games:,}",
            wins=f"{stats.wins:,}",
            draws=f"{stats.draws:,}",
            losses=f"{stats.losses:,}",
            rate=rate,
        ),
        inline=False,
    )
    if stats.ratings:
        embed.add_field(
            name=t(loc, "Rating"),
            value="\n".join(
                t(
                    loc,
                    "{game}: **{rating}**",
                    game=_title(game, loc),
                    rating=_rating_text(value, provisional, loc),
                )
                for game, (value, provisional) in stats.ratings.items()
            ),
            inline=True,
        )
    embed.add_field(
        name=t(loc, "Streaks"),
        value=t(
            loc,
            "Current: {current}\nBest: {best}",
            current=_wins(stats.current_streak, loc),
            best=_wins(stats.best_streak, loc),
        ),
        inline=True,
    )
    positions = "\n".join(
        t(
            loc,
            "{position} to play: {won}/{played} won",
            position=t(loc, _POSITIONS[p]) if p < len(_POSITIONS) else p + 1,
            won=won,
            played=played,
        )
        for p, (played, won) in stats.by_position.items()
    )
    embed.add_field(name=t(loc, "By seat (order of play)"), value=positions, inline=True)
    if stats.favourite_eye is not None:
        eye, times = stats.favourite_eye
        embed.add_field(
            name=t(loc, "Favourite winning arrangement"),
            value=t(loc, "Eye {eye} ({wins})", eye=eye, wins=_wins(times, loc)),
            inline=False,
        )
    if stats.tsung_games and stats.average_score is not None:
        per = stats.tsung_games
        embed.add_field(
            name=t(loc, "Tsung Shap"),
            value=t(
                loc,
                "Average score {score} · captures {captures} ({per_game} a game) · "
                "sweeps {sweeps} · claims {claims}",
                score=f"{stats.average_score:.1f}",
                captures=f"{stats.captures:,}",
                per_game=f"{stats.captures / per:.1f}",
                sweeps=f"{stats.sweeps:,}",
                claims=f"{stats.claims:,}",
            ),
            inline=False,
        )
    return embed


def history_lines(entries: list[HistoryEntry], locale: str = "en") -> str:
    """One line per game of ``/history``, numbered like the Replay buttons, in ``locale``."""
    lines = []
    for number, entry in enumerate(entries, start=1):
        when = discord.utils.format_dt(entry.finished_at, "R")
        rating = (
            t(locale, " · rating {rating}", rating=f"{entry.rating:,}")
            if entry.rating is not None
            else t(locale, " · unrated")
            if entry.unrated
            else ""
        )
        against = ", ".join(discord.utils.escape_markdown(o) for o in entry.opponents)
        lines.append(
            f"**{number}.** {t(locale, _RESULT_WORDS[entry.result])} · "
            + t(locale, "{game} vs {against}", game=_title(entry.game, locale), against=against)
            + f" · {when}{rating} · `{entry.game_id}`"
        )
    return "\n".join(lines)


def history_view(entries: list[HistoryEntry], locale: str = "en") -> discord.ui.View:
    """A Replay button per game (custom id :data:`REPLAY_ID`), answered by the replay cog."""
    view = discord.ui.View(timeout=None)
    for number, entry in enumerate(entries, start=1):
        view.add_item(
            discord.ui.Button(
                label=t(locale, "Replay {number}", number=number),
                style=discord.ButtonStyle.secondary,
                custom_id=replay_custom_id(entry.game_id),
            )
        )
    return view


class StatsCog(commands.Cog, name="Stats"):
    """Statistics and game history."""

    def __init__(self, bot: KapBot) -> None:
        """The cog reads the bot's rating service."""
        self.bot = bot
        self._catch_up: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        """Record, in the background, finished games that were never recorded (older than
        ratings, or cut short by a crash): one short transaction per game, so the bot answers
        meanwhile."""
        self._catch_up = asyncio.create_task(self._record_missing(), name="ratings catch-up")

    async def cog_unload(self) -> None:
        """Stop the catch-up (it resumes at the next start: each game is recorded once)."""
        if self._catch_up is not None and not self._catch_up.done():
            self._catch_up.cancel()

    async def _record_missing(self) -> None:
        try:
            recorded = await self.bot.services.ratings.record_missing()
        except Exception:
            log.exception("recording the unrecorded finished games failed")
            return
        if recorded:
            log.info("recorded and rated %s finished games that had not been", recorded)

    @app_commands.command(name="stats", description="A member's games, rating and records")
    @app_commands.guild_only()
    @app_commands.describe(
        member="Whose statistics (default: yours)", game="One game only (default: every game)"
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member | None = None,
        game: str | None = None,
    ) -> None:
        """Games, wins, draws, win rate, rating with a chart, seats, streaks, arrangement."""
        async with guarded(interaction, "/stats"):
            guild_id = _guild(interaction)
            who = member or interaction.user
            if who.bot:
                raise UserError("Bots have no statistics.")
            await interaction.response.defer(thinking=True)
            stats = await self.bot.services.ratings.stats(guild_id, who.id, game)
            locale = await public_locale_of(interaction)
            embed = stats_embed(stats, who.display_name, locale)
            files = []
            if stats.rating_history:
                series = {_title(g, locale): v for g, v in sorted(stats.rating_history.items())}
                png = await asyncio.to_thread(
                    rating_chart,
                    series,
                    title=t(locale, "Rating of {name}", name=who.display_name),
                    locale=locale,
                )
                alt = rating_description(who.display_name, series, locale)
                files.append(discord.File(io.BytesIO(png), filename="rating.png", description=alt))
                embed.set_image(url="attachment://rating.png")
            await interaction.followup.send(embed=embed, files=files, allowed_mentions=NO_PINGS)

    @app_commands.command(name="history", description="A member's recent games, to replay")
    @app_commands.guild_only()
    @app_commands.describe(member="Whose games (default: yours)")
    async def history(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        """The latest games with result and opponents, and a Replay button for each."""
        async with guarded(interaction, "/history"):
            guild_id = _guild(interaction)
            who = member or interaction.user
            if who.bot:
                raise UserError("Bots have no game history.")
            entries = await self.bot.services.ratings.history(guild_id, who.id, HISTORY_SIZE)
            locale = locale_of(interaction)
            embed = discord.Embed(
                title=t(locale, "🕘 Recent games of {name}", name=who.display_name),
                description=history_lines(entries, locale) or t(locale, "No finished games yet."),
                colour=discord.Colour.blurple(),
            )
            await interaction.response.send_message(
                embed=embed,
                view=history_view(entries, locale),
                ephemeral=True,
                allowed_mentions=NO_PINGS,
            )


async def setup(bot: commands.Bot) -> None:
    """Register the persistent rating leaderboard buttons and the cog."""
    if not isinstance(bot, KapBot):  # pragma: no cover - loaded by KapBot only
        raise TypeError("cogs.stats needs a KapBot")
    bot.add_dynamic_items(RatingBoardButton)
    await bot.add_cog(StatsCog(bot))


async def teardown(bot: commands.Bot) -> None:
    """Forget the rating leaderboard buttons when the extension is unloaded."""
    bot.remove_dynamic_items(RatingBoardButton)
