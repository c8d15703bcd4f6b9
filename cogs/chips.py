"""Chips commands: ``/chips balance|daily|give|history`` and ``/leaderboard``.

The cog only translates: interaction in, one :class:`~bot.services.chips.ChipsService` call,
message out. Every rule (accounts opened with the server's starting chips, one daily claim per UTC
day, balances never negative, idempotent gifts) lives in the service.

Every handler body runs inside :func:`cogs.common.guarded`, the error policy shared by all cogs:
a :class:`~bot.services.errors.UserError` becomes a short ephemeral explanation; anything else is
logged with an incident id, and the member sees an apology quoting that id. Errors are handled
inside the handler rather than in ``CommandTree.on_error`` because discord.py calls the tree's
handler for *every* failed command, and a refusal ("not enough chips") is an answer, not a failure
worth a traceback in the log.

Members intent is off (no privileged intents): names come from ``interaction.user`` and from the
``Member`` objects Discord resolves for slash options, never from the member cache; leaderboard
lines use mentions, which the client renders as names without pinging anyone.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import KapBot, Services
from bot.locale import N_, t
from bot.services.chips import MAX_AMOUNT, LeaderboardEntry, RankInfo
from bot.services.errors import AlreadyClaimed, InvalidTarget, UserError, mention
from cogs.common import guarded, locale_of, pinging, public_locale_of, services_of
from cogs.stats import GAME_CHOICES, rating_board_message

__all__ = [
    "HISTORY_SIZE",
    "NO_PINGS",
    "PAGE_SIZE",
    "ChipsCog",
    "LeaderboardButton",
    "guild_of",
    "leaderboard_message",
    "reply_private",
    "setup",
]

PAGE_SIZE = 10
"""Leaderboard lines per page."""

HISTORY_SIZE = 15
"""Ledger entries shown by ``/chips history``."""

# Nobody is pinged by a reply unless a message says so explicitly (gifts ping the recipient).
NO_PINGS = discord.AllowedMentions.none()

TimestampStyle = Literal["f", "F", "d", "D", "t", "T", "R"]


# ------------------------------------------------------------------------------------ helpers


def guild_of(interaction: discord.Interaction[Any]) -> int:
    """The server the interaction comes from (chips are per server)."""
    if interaction.guild_id is None:
        # The commands are guild_only; this guards buttons and future commands.
        raise UserError("Chips belong to a server: use this command in a server channel.")
    return interaction.guild_id


async def reply_private(
    interaction: discord.Interaction[Any],
    content: str | None = None,
    *,
    embed: discord.Embed | None = None,
    view: discord.ui.View | None = None,
) -> None:
    """Answer ephemerally, whether or not the interaction was already responded to or deferred."""
    kwargs: dict[str, Any] = {"ephemeral": True, "allowed_mentions": NO_PINGS}
    if embed is not None:
        kwargs["embed"] = embed
    if view is not None:
        kwargs["view"] = view
    if interaction.response.is_done():
        await interaction.followup.send(content or "", **kwargs)
    else:
        await interaction.response.send_message(content, **kwargs)


def _timestamp(moment: datetime, style: TimestampStyle = "R") -> str:
    """Discord timestamp markup: every client shows it in the reader's own time zone."""
    return discord.utils.format_dt(moment, style=style)


def _rank_text(info: RankInfo, locale: str = "en") -> str:
    return t(
        locale,
        "#{rank} of {total} ({chips} chips)",
        rank=f"{info.rank:,}",
        total=f"{info.total:,}",
        chips=f"{info.balance:,}",
    )


# -------------------------------------------------------------------------------- leaderboard


class LeaderboardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"lb:(?P<guild>[0-9]+):(?P<offset>[0-9]+):(?P<owner>[0-9]+)",
):
    """◀ / ▶ on a leaderboard page. The custom id carries everything, so it survives restarts.

    ``lb:{guild}:{offset}:{owner}``: the page to show and the member the message was drawn for.
    A click by that member turns the page in place. A click by anyone else answers with an
    *ephemeral* copy of that page drawn for the clicker (his own rank in the footer, his own
    buttons): editing the shared message would replace its owner's rank with the clicker's and
    flip the page under everyone else reading it, so each member pages his own view instead.
    """

    def __init__(
        self, guild_id: int, offset: int, owner_id: int, *, label: str, disabled: bool
    ) -> None:
        """A button that shows the page at ``offset`` of ``guild_id`` to ``owner_id``."""
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"lb:{guild_id}:{offset}:{owner_id}",
            )
        )
        self.guild_id = guild_id
        self.offset = offset
        self.owner_id = owner_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> LeaderboardButton:
        """Rebuild the button from its custom id (the label does not matter for a click)."""
        return cls(
            int(match["guild"]), int(match["offset"]), int(match["owner"]), label="", disabled=False
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Show the requested page to the clicker (see the class docstring for where)."""
        async with guarded(interaction, "leaderboard button"):
            guild_id = guild_of(interaction)
            if guild_id != self.guild_id:  # a forged or copied custom id
                raise UserError("This leaderboard belongs to another server.")
            user = interaction.user
            own = user.id == self.owner_id
            embed, view = await leaderboard_message(
                services_of(interaction),
                guild_id,
                self.offset,
                viewer_id=user.id,
                viewer_name=user.display_name,
                public=own and not _is_ephemeral(interaction.message),
                locale=locale_of(interaction)
                if not own or _is_ephemeral(interaction.message)
                else await public_locale_of(interaction),
            )
            if own:
                await interaction.response.edit_message(embed=embed, view=view)
            else:
                await reply_private(interaction, embed=embed, view=view)


def _is_ephemeral(message: discord.Message | None) -> bool:
    return message is not None and message.flags.ephemeral


async def leaderboard_message(
    services: Services,
    guild_id: int,
    offset: int,
    *,
    viewer_id: int,
    viewer_name: str,
    public: bool,
    locale: str = "en",
) -> tuple[discord.Embed, discord.ui.View]:
    """One leaderboard page for ``viewer_id``, with his rank in the footer, and its buttons.

    Two indexed queries whatever the server's size (one page, one rank) plus the account counter;
    no query loads the whole board. The viewer's account is opened first if he has none: looking
    at the board is a use of the chips like any other, and it guarantees a rank to show.
    """
    chips = services.chips
    await chips.balance(guild_id, viewer_id)
    total = await chips.account_count(guild_id)
    last_page = max(0, (total - 1) // PAGE_SIZE * PAGE_SIZE)
    # A page id from an old message may point past the end or between pages: snap it to a page.
    offset = min(max(0, offset // PAGE_SIZE * PAGE_SIZE), last_page)
    entries = await chips.leaderboard(guild_id, offset, PAGE_SIZE)
    info = await chips.rank(guild_id, viewer_id)

    loc = locale
    embed = discord.Embed(
        title=t(loc, "🏆 Leaderboard"),
        description=_board_lines(entries, viewer_id, loc) or t(loc, "Nobody has chips yet."),
        colour=discord.Colour.gold(),
    )
    pages = max(1, -(-total // PAGE_SIZE))
    embed.set_author(
        name=t(
            loc, "Page {page} of {pages}", page=f"{offset // PAGE_SIZE + 1:,}", pages=f"{pages:,}"
        )
    )
    rank = t(loc, "no account") if info is None else _rank_text(info, loc)
    # On a public message everyone reads the footer, so say whose rank it is.
    embed.set_footer(
        text=t(loc, "{name} · Your rank: {rank}", name=viewer_name, rank=rank)
        if public
        else t(loc, "Your rank: {rank}", rank=rank)
    )

    view = discord.ui.View(timeout=None)
    view.add_item(
        LeaderboardButton(
            guild_id, max(0, offset - PAGE_SIZE), viewer_id, label="◀", disabled=offset == 0
        )
    )
    view.add_item(
        LeaderboardButton(
            guild_id,
            offset + PAGE_SIZE,
            viewer_id,
            label="▶",
            disabled=offset + PAGE_SIZE >= total,
        )
    )
    return embed, view


def _board_lines(entries: list[LeaderboardEntry], viewer_id: int, locale: str = "en") -> str:
    lines = []
    for entry in entries:
        you = t(locale, " ← you") if entry.user_id == viewer_id else ""
        chips = t(locale, "{n} chips", n=f"{entry.balance:,}")
        lines.append(f"**#{entry.rank:,}** {mention(entry.user_id)} — {chips}{you}")
    return "\n".join(lines)


# ------------------------------------------------------------------------------------ history

_NOTE_USER = re.compile(r"^(?:to|from) ([0-9]+)$")

_KIND_LABELS = {
    "start": N_("Starting chips"),
    "daily": N_("Daily claim"),
    "give_out": N_("Gift to"),
    "give_in": N_("Gift from"),
    "ante": N_("Ante"),
    "payout": N_("Pot won"),
    "refund": N_("Ante refunded"),
    "rake": N_("House rake"),
}


def _history_line(
    kind: str,
    delta: int,
    balance_after: int | None,
    when: datetime,
    game_id: str | None,
    actor_id: int | None,
    note: str | None,
    locale: str = "en",
) -> str:
    if kind == "grant":
        if actor_id is not None:
            admin = mention(actor_id)
            label = (
                t(locale, "Granted by {admin}", admin=admin)
                if delta > 0
                else t(locale, "Removed by {admin}", admin=admin)
            )
        else:
            label = (
                t(locale, "Granted by an admin") if delta > 0 else t(locale, "Removed by an admin")
            )
    else:
        label = t(locale, _KIND_LABELS[kind]) if kind in _KIND_LABELS else kind
    match = _NOTE_USER.match(note or "")
    if match is not None:  # gifts record the other member as "to 123" / "from 123"
        label += f" {mention(int(match[1]))}"
    game = t(locale, " · game `{game}`", game=game_id) if game_id else ""
    after = "" if balance_after is None else f" → {balance_after:,}"
    return f"{_timestamp(when, 'd')} `{delta:+,}` **{label}**{game}{after}"


# ------------------------------------------------------------------------------------ the cog


class ChipsCog(commands.Cog, name="Chips"):
    """Balances, the daily claim, gifts, history and the leaderboard."""

    chips = app_commands.Group(
        name="chips", description="Your chips in this server", guild_only=True
    )

    def __init__(self, bot: KapBot) -> None:
        """Commands for ``bot``; services are looked up per call (they exist from setup_hook)."""
        self.bot = bot

    @property
    def services(self) -> Services:
        """The bot's services."""
        return self.bot.services

    @chips.command(name="balance", description="Show your chips, or another member's")
    @app_commands.describe(member="Whose balance to show (default: yours)")
    async def balance(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        """Your balance (opening your account on first use) or another member's."""
        async with guarded(interaction, "/chips balance"):
            guild_id = guild_of(interaction)
            chips = self.services.chips
            user = interaction.user
            loc = locale_of(interaction)
            if member is None or member.id == user.id:
                await chips.balance(guild_id, user.id)
                info = await chips.rank(guild_id, user.id)
                if info is None:  # pragma: no cover - the account was just opened
                    raise RuntimeError(f"no account for {user.id} right after opening it")
                text = t(
                    loc,
                    "You have **{chips} chips** (rank #{rank} of {total}).",
                    chips=f"{info.balance:,}",
                    rank=f"{info.rank:,}",
                    total=f"{info.total:,}",
                )
            elif member.bot:
                raise InvalidTarget("Bots don't hold chips.")
            else:
                # Only looking: another member's account is not opened on his behalf.
                info = await chips.rank(guild_id, member.id)
                if info is None:
                    start = (await self.services.guild_settings.get(guild_id)).starting_chips
                    text = t(
                        loc,
                        "{name} has no chips account yet; it will open with {chips} chips the "
                        "first time they play.",
                        name=member.display_name,
                        chips=f"{start:,}",
                    )
                else:
                    text = t(
                        loc,
                        "{name} has **{chips} chips** (rank #{rank} of {total}).",
                        name=member.display_name,
                        chips=f"{info.balance:,}",
                        rank=f"{info.rank:,}",
                        total=f"{info.total:,}",
                    )
            await reply_private(interaction, text)

    @chips.command(name="daily", description="Claim your free chips (once per UTC day)")
    async def daily(self, interaction: discord.Interaction[Any]) -> None:
        """Claim the daily chips; a second claim the same UTC day says when the next one is."""
        async with guarded(interaction, "/chips daily"):
            guild_id = guild_of(interaction)
            try:
                claim = await self.services.chips.daily(guild_id, interaction.user.id)
            except AlreadyClaimed as exc:
                # The service's message gives a UTC time; a Discord timestamp shows the reader's
                # local time and counts down by itself.
                when = exc.next_claim_at
                raise UserError(
                    "You already claimed your daily chips today. Next claim {relative} ({when}).",
                    relative=_timestamp(when),
                    when=_timestamp(when, "f"),
                ) from None
            await reply_private(
                interaction,
                t(
                    locale_of(interaction),
                    "🎁 You claimed **{amount} chips**. Balance: {balance} chips. "
                    "Next claim {when}.",
                    amount=f"{claim.amount:,}",
                    balance=f"{claim.balance:,}",
                    when=_timestamp(claim.next_claim_at),
                ),
            )

    @chips.command(name="give", description="Give some of your chips to another member")
    @app_commands.describe(member="Who receives the chips", amount="How many chips to give")
    async def give(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member,
        amount: app_commands.Range[int, 1, MAX_AMOUNT],
    ) -> None:
        """Move chips to another member; the interaction id makes a retried gift a no-op."""
        async with guarded(interaction, "/chips give"):
            guild_id = guild_of(interaction)
            giver = interaction.user
            if member.bot:
                raise InvalidTarget("Bots don't hold chips: give them to a member.")
            if member.id == giver.id:
                raise InvalidTarget("You can't give chips to yourself.")
            gift = await self.services.chips.give(
                guild_id, giver.id, member.id, amount, f"interaction:{interaction.id}"
            )
            await interaction.response.send_message(
                t(
                    await public_locale_of(interaction),
                    "💸 {giver} gave **{amount} chips** to {member}.\n"
                    "{giver} now has {giver_balance} chips; {receiver} now has "
                    "{receiver_balance} chips.",
                    giver=giver.display_name,
                    amount=f"{gift.amount:,}",
                    member=member.mention,
                    giver_balance=f"{gift.from_balance:,}",
                    receiver=member.display_name,
                    receiver_balance=f"{gift.to_balance:,}",
                ),
                # Ping the recipient (he should know), nobody else.
                allowed_mentions=pinging([member.id]),
            )

    @chips.command(name="history", description="Your latest chip movements")
    async def history(self, interaction: discord.Interaction[Any]) -> None:
        """Your last ledger entries, newest first (only you see them)."""
        async with guarded(interaction, "/chips history"):
            guild_id = guild_of(interaction)
            chips = self.services.chips
            user_id = interaction.user.id
            balance = await chips.balance(guild_id, user_id)  # first use opens the account
            entries = await chips.history(guild_id, user_id, limit=HISTORY_SIZE)
            lines = [
                _history_line(
                    str(e.kind),
                    e.delta,
                    e.balance_after,
                    e.created_at,
                    e.game_id,
                    e.actor_id,
                    e.note,
                    locale_of(interaction),
                )
                for e in entries
            ]
            loc = locale_of(interaction)
            embed = discord.Embed(
                title=t(loc, "Your chip history"),
                description="\n".join(lines) or t(loc, "No chip movements yet."),
                colour=discord.Colour.blurple(),
            )
            embed.set_footer(
                text=t(
                    loc,
                    "Balance: {balance} chips · last {n} entries, newest first",
                    balance=f"{balance:,}",
                    n=len(lines),
                )
            )
            await reply_private(interaction, embed=embed)

    @app_commands.command(
        name="leaderboard", description="The best members of this server: chips, rating or wins"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        by="Rank by chips (default), rating or wins", game="Rating or wins in one game"
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        by: Literal["chips", "rating", "wins"] = "chips",
        game: str | None = None,
    ) -> None:
        """A public board, 10 per page, with ◀ ▶ buttons and the caller's rank in the footer."""
        async with guarded(interaction, "/leaderboard"):
            guild_id = guild_of(interaction)
            user = interaction.user
            if by != "chips":  # ratings and wins: cogs/stats.py
                embed, view = await rating_board_message(
                    self.services.ratings,
                    guild_id,
                    by=by,
                    game=game,
                    offset=0,
                    viewer_id=user.id,
                    viewer_name=user.display_name,
                    public=True,
                    locale=await public_locale_of(interaction),
                )
                await interaction.response.send_message(
                    embed=embed, view=view, allowed_mentions=NO_PINGS
                )
                return
            if game is not None:
                raise UserError("Chips are counted across every game: rank by rating or wins.")
            embed, view = await leaderboard_message(
                self.services,
                guild_id,
                0,
                viewer_id=user.id,
                viewer_name=user.display_name,
                public=True,
                locale=await public_locale_of(interaction),
            )
            await interaction.response.send_message(
                embed=embed, view=view, allowed_mentions=NO_PINGS
            )


async def setup(bot: commands.Bot) -> None:
    """Register the persistent leaderboard buttons and the cog."""
    if not isinstance(bot, KapBot):  # pragma: no cover - loaded by KapBot only
        raise TypeError("cogs.chips needs a KapBot")
    bot.add_dynamic_items(LeaderboardButton)
    await bot.add_cog(ChipsCog(bot))


async def teardown(bot: commands.Bot) -> None:
    """Forget the leaderboard buttons when the extension is unloaded."""
    bot.remove_dynamic_items(LeaderboardButton)
