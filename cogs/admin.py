"""Server administration: ``/kapadmin grant|config|house|endtable|sync``.

The group is registered with ``default_permissions(manage_guild=True)``: Discord hides it from
members without Manage Server. A server's admins can override that in Server Settings →
Integrations, so every command also checks Manage Server at run time: minting chips and ending
games are powers the bot wants tied to the permission itself, whatever the integration settings.

``sync`` has two levels. Copying the commands to *this* server (instant) or clearing those copies
is a server matter, open to managers. Syncing the *global* command list changes the bot in every
server, so only the bot's owners may (``KAPSHAP_OWNER_IDS``, or the application's owner or team as
Discord reports it). The bot itself never syncs globally on start (``bot.app`` syncs only to the
development guild when one is configured).
"""

from __future__ import annotations

import logging
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import KapBot, Services, command_tree_hash
from bot.locale import LOCALE_NAMES, LOCALES, N_, nt, t
from bot.render.text import duration_text
from bot.services.chips import MAX_AMOUNT
from bot.services.errors import InvalidTarget, UserError, mention
from bot.services.guild_settings import LIMITS, GuildSettings
from bot.services.server import AUTO_LANGUAGE, PlaySettings
from bot.services.tournaments import OrganiserRoles
from cogs.chips import NO_PINGS, guild_of, reply_private
from cogs.common import guarded, locale_of, pinging, public_locale_of

__all__ = ["TABLE_ENDED_EVENT", "AdminCog", "setup"]

log = logging.getLogger(__name__)

TABLE_ENDED_EVENT = "kap_table_ended"
"""Dispatched as ``bot.dispatch(TABLE_ENDED_EVENT, table, admin_id)`` after ``/kapadmin endtable``.

The tables cog owns the public table message; listening for ``on_kap_table_ended`` lets it redraw
that message (no buttons, "ended by an admin") without this cog knowing how it is drawn.
"""

SyncScope = Literal["guild", "global", "clear"]

# Slash option ranges = the service's limits, so the client refuses what the service would.
_ANTE, _START, _DAILY, _TURN = (
    LIMITS[name] for name in ("ante", "starting_chips", "daily_amount", "turn_seconds")
)


def _require_manager(interaction: discord.Interaction[Any]) -> None:
    """Refuse members without Manage Server (see the module docstring for why at run time)."""
    if not interaction.permissions.manage_guild:
        raise UserError("You need the Manage Server permission to use `/kapadmin`.")


NOTICE_CHOICES = [
    app_commands.Choice(name="DM: a new message in the player's DM", value="dm"),
    app_commands.Choice(name="Channel: mention the player at the table", value="channel"),
    app_commands.Choice(name="Both DM and channel mention", value="both"),
]
#: Each language is named in itself, so a manager finds his own whatever the client's language.
LANGUAGE_CHOICES = [
    app_commands.Choice(name="Auto: the server's own language", value=AUTO_LANGUAGE),
    *(app_commands.Choice(name=LOCALE_NAMES[code], value=code) for code in LOCALES),
]


REVIEW_CHOICES = [
    app_commands.Choice(name="Own: members review only their own games", value="own"),
    app_commands.Choice(name="Public: anyone may review anyone's games", value="public"),
]


def _play_text(play: PlaySettings, locale: str = "en", reviews_public: bool = False) -> str:
    """The server's play settings, for ``/kapadmin config`` (``reviews_public``: the bot-wide
    default of the reviews setting)."""
    modes = {
        "dm": N_("by DM"),
        "channel": N_("by a mention in the channel"),
        "both": N_("by DM and mention"),
    }
    language = (
        LOCALE_NAMES[play.language]
        if play.language
        else t(locale, "auto (the server's own language)")
    )
    mode = play.review_mode or ("public" if reviews_public else "own")
    review_words = {
        "own": N_("own games only (unless the player allows it in `/settings`)"),
        "public": N_("anyone may review anyone's games"),
    }
    reviews = t(locale, review_words[mode]) + (
        t(locale, " (bot default)") if play.review_mode is None else ""
    )
    return "\n".join(
        [
            t(
                locale,
                "• **Turn notices**: {mode} (closed DMs: a mention)",
                mode=t(locale, modes[play.notice_mode]),
            ),
            t(
                locale,
                "• **Timeouts in a row before a player is out**: {n}",
                n=play.timeout_limit,
            ),
            t(locale, "• **A lobby nobody starts closes after**: {n} min", n=play.lobby_minutes),
            t(locale, "• **Reviews**: {reviews}", reviews=reviews),
            t(locale, "• **Language of public messages**: {language}", language=language),
            t(locale, "• **Time zone of event times**: {zone}", zone=play.time_zone),
        ]
    )


def _settings_text(current: GuildSettings, changed: bool, locale: str = "en") -> str:
    """The server's settings as a short list, marking those left at the bot's default."""

    def line(name: str, value: str) -> str:
        origin = t(locale, " (bot default)") if current.is_default(name) else ""
        label = t(locale, LIMITS[name].label, context="term")
        return t(
            locale,
            "• **{label}**: {value}{origin}",
            label=label[:1].upper() + label[1:],
            value=value,
            origin=origin,
        )

    def chips(n: int) -> str:
        return t(locale, "{n} chips", n=f"{n:,}")

    head = t(locale, "Server settings updated:") if changed else t(locale, "Server settings:")
    return "\n".join(
        [
            head,
            line("ante", chips(current.ante)),
            line("starting_chips", chips(current.starting_chips)),
            line(
                "daily_amount",
                chips(current.daily_amount) if current.daily_amount else t(locale, "off"),
            ),
            line("turn_seconds", duration_text(current.turn_seconds, locale)),
            "",
            t(
                locale,
                "New accounts and new tables use these; existing balances and open tables keep "
                "theirs.",
            ),
        ]
    )


@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
class AdminCog(commands.GroupCog, name="Admin", group_name="kapadmin"):
    """Commands for server managers."""

    def __init__(self, bot: KapBot) -> None:
        """Commands for ``bot``."""
        self.bot = bot
        super().__init__()

    @property
    def services(self) -> Services:
        """The bot's services."""
        return self.bot.services

    @app_commands.command(name="grant", description="Add chips to a member, or remove some")
    @app_commands.describe(
        member="Whose chips to change",
        amount="Chips to add; a negative number removes chips (never below zero)",
    )
    async def grant(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member,
        amount: app_commands.Range[int, -MAX_AMOUNT, MAX_AMOUNT],
    ) -> None:
        """Mint or burn chips, recorded in the ledger with the admin's id."""
        async with guarded(interaction, "/kapadmin grant"):
            _require_manager(interaction)
            guild_id = guild_of(interaction)
            if member.bot:
                raise InvalidTarget("Bots don't hold chips.")
            grant = await self.services.chips.grant(
                guild_id, interaction.user.id, member.id, amount, f"interaction:{interaction.id}"
            )
            loc = await public_locale_of(interaction)
            values = {
                "admin": interaction.user.display_name,
                "amount": f"{abs(amount):,}",
                "member": member.mention,
                "name": member.display_name,
                "balance": f"{grant.balance:,}",
            }
            # Public, so chips created or destroyed by staff are visible to the server.
            await interaction.response.send_message(
                t(
                    loc,
                    "🏦 {admin} granted **{amount} chips** to {member}. {name} now has "
                    "{balance} chips.",
                    **values,
                )
                if amount > 0
                else t(
                    loc,
                    "🏦 {admin} removed **{amount} chips** from {member}. {name} now has "
                    "{balance} chips.",
                    **values,
                ),
                allowed_mentions=pinging([member.id]),
            )

    @app_commands.command(name="config", description="Show or change this server's defaults")
    @app_commands.describe(
        ante="Default ante of new tables, in chips (0 = free tables)",
        starting_chips="Chips a member's new account starts with",
        daily_amount="Chips of the daily claim (0 turns it off)",
        turn_seconds="Default turn timer of new tables, in seconds",
        notices="How players are told their turn has come",
        timeouts="Turns in a row a player may time out before he is out (default 3)",
        lobby_minutes="Minutes after which a lobby nobody starts closes (default 15)",
        reviews="Who may /review a member's games: the member only, or anyone",
        organiser_role="Members with this role may create tournaments (managers always may)",
        reset="Go back to the bot's defaults first (then apply any values given)",
        language="Language of the table messages and channel lines (auto: the server's own)",
        time_zone="Time zone of the times members type, e.g. Europe/London (default UTC)",
    )
    @app_commands.choices(notices=NOTICE_CHOICES, reviews=REVIEW_CHOICES, language=LANGUAGE_CHOICES)
    async def config(
        self,
        interaction: discord.Interaction[Any],
        ante: app_commands.Range[int, _ANTE.minimum, _ANTE.maximum] | None = None,
        starting_chips: app_commands.Range[int, _START.minimum, _START.maximum] | None = None,
        daily_amount: app_commands.Range[int, _DAILY.minimum, _DAILY.maximum] | None = None,
        turn_seconds: app_commands.Range[int, _TURN.minimum, _TURN.maximum] | None = None,
        notices: str | None = None,
        timeouts: app_commands.Range[int, 1, 20] | None = None,
        lobby_minutes: app_commands.Range[int, 1, 1440] | None = None,
        reviews: str | None = None,
        organiser_role: discord.Role | None = None,
        reset: bool = False,
        language: str | None = None,
        time_zone: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        """With no option, show the settings; otherwise change the ones given."""
        async with guarded(interaction, "/kapadmin config"):
            _require_manager(interaction)
            guild_id = guild_of(interaction)
            changed = reset or any(
                v is not None
                for v in (
                    ante,
                    starting_chips,
                    daily_amount,
                    turn_seconds,
                    notices,
                    timeouts,
                    lobby_minutes,
                    reviews,
                    language,
                    organiser_role,
                    time_zone,
                )
            )
            play = await self.services.server.update_play_settings(
                guild_id,
                notice_mode=notices,
                timeout_limit=timeouts,
                lobby_minutes=lobby_minutes,
                review_mode=reviews,
                language=language,
                reset=reset,
                time_zone=time_zone,
            )
            current = await self.services.guild_settings.update(
                guild_id,
                ante=ante,
                starting_chips=starting_chips,
                daily_amount=daily_amount,
                turn_seconds=turn_seconds,
                reset=reset,
            )
            roles = OrganiserRoles(self.services.db)
            if organiser_role is not None or reset:
                await roles.set(guild_id, None if organiser_role is None else organiser_role.id)
            role_id = await roles.get(guild_id)
            if changed:
                log.info(
                    "guild %s settings changed by %s: %s", guild_id, interaction.user.id, current
                )
            loc = locale_of(interaction)
            text = _settings_text(current, changed, loc)
            head, _, tail = text.rpartition("\n\n")
            organisers = (
                t(loc, "{role} and server managers", role=f"<@&{role_id}>")
                if role_id is not None
                else t(loc, "server managers")
            )
            await reply_private(
                interaction,
                f"{head}\n{_play_text(play, loc, self.bot.settings.review_public)}\n"
                + t(loc, "• **Tournament organisers**: {organisers}", organisers=organisers)
                + f"\n\n{tail}",
            )

    @app_commands.command(name="house", description="The house account: balance, or fund it")
    @app_commands.describe(fund="Chips to add to the house (it stakes the computer players' antes)")
    async def house(
        self,
        interaction: discord.Interaction[Any],
        fund: app_commands.Range[int, 1, MAX_AMOUNT] | None = None,
    ) -> None:
        """Show the house balance; with ``fund``, mint chips into it (recorded)."""
        async with guarded(interaction, "/kapadmin house"):
            _require_manager(interaction)
            guild_id = guild_of(interaction)
            chips = self.services.chips
            loc = locale_of(interaction)
            explain = t(
                loc,
                "The house stakes every computer player's ante and collects the pot when a "
                "computer player wins; a table with computer players can start only if the "
                "house can stake them.",
            )
            if fund is None:
                balance = await chips.house_balance(guild_id)
                await reply_private(
                    interaction,
                    t(loc, "🏦 The house has **{chips} chips**.", chips=f"{balance:,}")
                    + f"\n{explain}",
                )
                return
            grant = await chips.fund_house(
                guild_id, interaction.user.id, fund, f"interaction:{interaction.id}"
            )
            # Public, like a grant: chips created by staff are visible to the server.
            await interaction.response.send_message(
                t(
                    await public_locale_of(interaction),
                    "🏦 {admin} funded the house with **{fund} chips**. The house now has "
                    "{balance} chips.",
                    admin=interaction.user.display_name,
                    fund=f"{fund:,}",
                    balance=f"{grant.balance:,}",
                ),
                allowed_mentions=NO_PINGS,
            )

    @app_commands.command(
        name="endtable", description="Abort the table in this channel and refund every ante"
    )
    async def endtable(self, interaction: discord.Interaction[Any]) -> None:
        """End the lobby or game in this channel at once; every ante held goes back."""
        async with guarded(interaction, "/kapadmin endtable"):
            _require_manager(interaction)
            guild_of(interaction)
            channel_id = interaction.channel_id
            services = self.services
            table = await services.tables.lookup(channel_id) if channel_id is not None else None
            if table is None or channel_id is None:
                raise UserError("There is no table in this channel.")
            # Read the antes before the refund settles the pot: the message lists them.
            pot = await services.chips.pot(table.id)
            ended = await services.tables.cancel(channel_id, interaction.user.id, admin=True)
            self.bot.dispatch(TABLE_ENDED_EVENT, ended, interaction.user.id)
            refunds = dict(pot.antes) if pot is not None else {}
            loc = await public_locale_of(interaction)
            if refunds:
                listed = ", ".join(
                    f"{mention(user_id)} "
                    + nt(loc, "{n} chip", "{n} chips", amount, n=f"{amount:,}")
                    for user_id, amount in refunds.items()
                )
                detail = t(loc, "Every ante was refunded: {listed}.", listed=listed)
            else:
                detail = t(loc, "No ante had been taken.")
            await interaction.response.send_message(
                t(
                    loc,
                    "🛑 {admin} ended the table `{id}`. {detail}",
                    admin=interaction.user.display_name,
                    id=ended.id,
                    detail=detail,
                ),
                allowed_mentions=NO_PINGS,
            )

    @app_commands.command(name="sync", description="Publish the slash commands to Discord")
    @app_commands.describe(
        # Discord cuts a description at 100 characters.
        scope="guild: this server now; clear: remove this server's copies; global: all (owners)"
    )
    async def sync(self, interaction: discord.Interaction[Any], scope: SyncScope = "guild") -> None:
        """Sync the command tree; see the module docstring for who may do what."""
        async with guarded(interaction, f"/kapadmin sync {scope}"):
            _require_manager(interaction)
            guild_id = guild_of(interaction)
            if scope == "global" and not await self._is_owner(interaction.user):
                raise UserError(
                    "Only the bot's owners can sync commands globally. "
                    "Use `/kapadmin sync scope:guild` to update this server."
                )
            # Syncing is an HTTP round trip per scope: answer within Discord's 3 seconds first.
            await interaction.response.defer(ephemeral=True, thinking=True)
            tree = self.bot.tree
            guild = discord.Object(guild_id)
            loc = locale_of(interaction)
            if scope == "global":
                synced = await tree.sync()
                await self.services.server.set_command_hash(command_tree_hash(tree))
                text = t(
                    loc,
                    "Synced {n} global commands for every server. If this server also has its "
                    "own copies, `/kapadmin sync scope:clear` removes the doubles.",
                    n=len(synced),
                )
            elif scope == "guild":
                tree.copy_global_to(guild=guild)
                synced = await tree.sync(guild=guild)
                text = t(loc, "Synced {n} commands to this server.", n=len(synced))
            else:
                tree.clear_commands(guild=guild)
                await tree.sync(guild=guild)
                text = t(
                    loc, "Removed this server's copies of the commands; the global ones remain."
                )
            log.info("commands synced (%s) by %s in guild %s", scope, interaction.user.id, guild_id)
            await interaction.followup.send(text, ephemeral=True)

    async def _is_owner(self, user: discord.abc.User) -> bool:
        """A bot owner: listed in the settings, or the application's owner (or team)."""
        return user.id in self.bot.settings.owner_ids or await self.bot.is_owner(user)


async def setup(bot: commands.Bot) -> None:
    """Register the cog."""
    if not isinstance(bot, KapBot):  # pragma: no cover - loaded by KapBot only
        raise TypeError("cogs.admin needs a KapBot")
    await bot.add_cog(AdminCog(bot))
