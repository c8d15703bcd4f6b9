"""Shared plumbing of the game cogs: reaching the services, and answering errors.

Every handler runs inside :func:`guarded`. A :class:`~bot.services.errors.UserError` (a player's
mistake) becomes a short ephemeral reply with its message; anything else is a bug: it is logged
with an incident id and the user gets an apology quoting that id, so a report can be matched to
the log line.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import time
import weakref
from collections.abc import AsyncIterator, Iterable
from datetime import timedelta
from typing import Any

import discord
from discord.ext import tasks

from bot.app import KapBot, Services
from bot.limits import fit_message, quote_input
from bot.locale import normalize, t
from bot.logs import bound
from bot.render.text import unbroken
from bot.services.errors import DatabaseUnavailable, UserError
from bot.services.lifecycle import InFlight
from cogs.ui import parse_custom_id

__all__ = [
    "INCIDENT_LOGGER",
    "bot_of",
    "command_of",
    "guarded",
    "locale_of",
    "member_locale",
    "pinging",
    "public_locale_of",
    "reply_ephemeral",
    "report_incident",
    "services_of",
    "wake_in",
]

INCIDENT_LOGGER = "kapshap.incident"
#: Discord's error code for a second answer to one interaction.
ALREADY_ACKNOWLEDGED = 40060
log = logging.getLogger(INCIDENT_LOGGER)


def bot_of(interaction: discord.Interaction[Any]) -> KapBot:
    """The bot an interaction arrived at."""
    client = interaction.client
    if not isinstance(client, KapBot):
        raise TypeError(f"the game cogs need a KapBot, not {type(client).__name__}")
    return client


def pinging(user_ids: Iterable[int]) -> discord.AllowedMentions:
    """The pings a message means: these members, by id, and nobody else (no role, no
    ``@everyone``, however the text reads). Every other message pings nobody: the bot's
    default is :meth:`discord.AllowedMentions.none` (:class:`bot.app.KapBot`)."""
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        replied_user=False,
        users=[discord.Object(u) for u in dict.fromkeys(user_ids)],
    )


def locale_of(interaction: discord.Interaction[Any]) -> str:
    """The language of a reply only this member sees: his Discord client's (``en`` by default).

    Also remembered (per bot, in memory) for the DMs the bot sends him later unprompted."""
    locale = normalize(interaction.locale)
    _MEMBER_LOCALES.setdefault(interaction.client, {})[interaction.user.id] = locale
    return locale


#: Each member's language as last seen in one of his interactions, per bot: a DM sent later
#: (his hand when his turn comes) speaks it. Lost on restart: until he acts again his DMs use
#: the server's language.
_MEMBER_LOCALES: weakref.WeakKeyDictionary[Any, dict[int, str]] = weakref.WeakKeyDictionary()


async def public_locale_of(interaction: discord.Interaction[Any]) -> str:
    """The language of a message everyone in the channel sees: the server's setting
    (``/kapadmin config language``), else the server's own Discord locale."""
    if interaction.guild_id is not None:
        settings = await services_of(interaction).server.play_settings(interaction.guild_id)
        if settings.language:
            return settings.language
    guild = interaction.guild
    return normalize(guild.preferred_locale if guild is not None else interaction.guild_locale)


def member_locale(client: Any, user_id: int) -> str | None:
    """A member's language as last seen in an interaction, or None."""
    return _MEMBER_LOCALES.get(client, {}).get(user_id)


def services_of(interaction: discord.Interaction[Any]) -> Services:
    """The services of the bot an interaction arrived at."""
    return bot_of(interaction).services


async def reply_ephemeral(interaction: discord.Interaction[Any], text: str) -> None:
    """Answer ``text`` privately, whether or not the interaction was already answered.

    ``text`` is cut to Discord's message limit: a refusal must reach the user whatever he typed.
    """
    text = fit_message(text)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as exc:
        if exc.code == ALREADY_ACKNOWLEDGED:
            # A second delivery of an interaction the first one answered: nothing went wrong.
            log.info("interaction %s was already answered", interaction.id)
            return
        # The token may have expired (15 minutes) or the channel vanished: nothing to tell.
        log.warning("could not answer interaction %s: %s", interaction.id, quote_input(text))


async def report_incident(
    interaction: discord.Interaction[Any] | None,
    error: BaseException,
    what: str,
    *,
    bot: KapBot | None = None,
) -> str:
    """Log an unexpected error with a fresh incident id; apologise to the user (if any).

    A database that cannot be reached right now is no bug: one warning line, no incident, and
    the member is told to try again (the transaction was rolled back; the pool reconnects by
    itself). The returned id is then empty. Either is counted in the metrics of ``bot`` (by
    default the bot of the interaction).
    """
    client = bot if bot is not None or interaction is None else interaction.client
    observer = client.observer if isinstance(client, KapBot) else None
    if isinstance(error, DatabaseUnavailable):
        if observer is not None:
            observer.incident("database_unavailable")
        log.warning("%s failed: %s", what, error)
        if interaction is not None:
            await reply_ephemeral(
                interaction,
                t(
                    locale_of(interaction),
                    "The game is not available right now; try again in a moment.",
                ),
            )
        return ""
    incident = secrets.token_hex(4)
    if observer is not None:
        observer.incident("bug")
    with bound(incident=incident):
        log.error(
            "incident %s: %s failed (user %s, channel %s)",
            incident,
            what,
            None if interaction is None else interaction.user.id,
            None if interaction is None else interaction.channel_id,
            exc_info=(type(error), error, error.__traceback__),
        )
    if interaction is not None:
        await reply_ephemeral(
            interaction,
            t(
                locale_of(interaction),
                "Sorry, something went wrong (incident `{incident}`). It has been logged.",
                incident=incident,
            ),
        )
    return incident


def command_of(interaction: discord.Interaction[Any]) -> str:
    """The metrics' name of what an interaction asked for: ``/table new`` for a command,
    ``component take`` for a table's button (its verb), ``component rp`` for another button
    (the prefix of its custom id), never an id: the names stay few (docs/metrics.md)."""
    command = interaction.command
    if command is not None:
        return f"/{command.qualified_name}"
    kind = "modal" if interaction.type is discord.InteractionType.modal_submit else "component"
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    parsed = parse_custom_id(custom_id)
    if parsed is not None:
        return f"{kind} {parsed.verb}"
    prefix = custom_id.split(":", 1)[0][:MAX_PREFIX]
    return f"{kind} {prefix}" if prefix else kind


#: The longest custom id prefix :func:`command_of` names (ours are a few letters).
MAX_PREFIX = 16


def in_flight(
    interaction: discord.Interaction[Any], what: str
) -> contextlib.AbstractContextManager[None]:
    """The handler's body counted as an action in flight of its bot (a stop waits for it)."""
    client = interaction.client
    tracker: InFlight | None = client.in_flight if isinstance(client, KapBot) else None
    return contextlib.nullcontext() if tracker is None else tracker.action(what)


@contextlib.asynccontextmanager
async def guarded(interaction: discord.Interaction[Any], what: str) -> AsyncIterator[None]:
    """Run a handler body: player mistakes get their message, bugs get an incident id.

    Every interaction handler runs inside it, so this is where each is counted for the
    metrics, by command and outcome (:data:`bot.ops.observer.OUTCOMES`), with its duration.
    Every log line of the body says which server, channel and shard the interaction came from
    (:func:`bot.logs.bound`); the bot counts the body as an action in flight, which a stop
    (SIGTERM) lets finish (:meth:`bot.app.KapBot.shutdown`)."""
    started = time.monotonic()
    locale_of(interaction)  # remember the member's language for his later DMs
    outcome = "ok"
    guild = interaction.guild
    # Discord sends a DM's interactions to shard 0; a server's, to the server's shard.
    shard = 0 if interaction.guild_id is None else None if guild is None else guild.shard_id
    try:
        with (
            bound(server=interaction.guild_id, channel=interaction.channel_id, shard=shard),
            in_flight(interaction, what),
        ):
            yield
    except UserError as exc:
        outcome = "refused"
        await reply_ephemeral(interaction, unbroken(exc.localized(locale_of(interaction))))
    except discord.HTTPException as exc:
        if exc.code == ALREADY_ACKNOWLEDGED:
            outcome = "answered"
            log.info("%s: interaction %s was already answered", what, interaction.id)
            return
        outcome = "error"
        await report_incident(interaction, exc, what)
    except Exception as exc:
        outcome = "error" if await report_incident(interaction, exc, what) else "unavailable"
    finally:
        client = interaction.client
        if isinstance(client, KapBot):
            client.observer.interaction(
                command_of(interaction), outcome, time.monotonic() - started
            )


def wake_in(loop: tasks.Loop[Any], wait: float) -> None:
    """Set a running ``tasks.loop``'s next pass ``wait`` seconds from now (its clock:
    ``discord.utils.utcnow``, virtual under simcord), for a loop that sleeps until its next
    due work rather than ticking.

    ``tasks.Loop.change_interval`` counts from the start of the last pass and, when the
    loop is sleeping, re-arms its sleep at once; called during a pass, it only sets the next
    one (the pass plans again when it ends anyway). Before its first pass, nothing is set."""
    planned = loop.next_iteration
    if planned is None or loop.seconds is None:
        return
    now = discord.utils.utcnow()
    last = planned - timedelta(seconds=loop.seconds)
    target = now + timedelta(seconds=wait)
    interval = max(0.0, (target - last).total_seconds())
    if abs(interval - loop.seconds) > 1e-6:
        loop.change_interval(seconds=interval)
