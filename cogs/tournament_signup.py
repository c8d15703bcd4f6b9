"""The sign-up message of a tournament: its line, its embed (the rules and entrants, then the
results), and its Join / Leave / Check in buttons, ``DynamicItem``s that carry the event id (so
they work after a restart) and hand the click to the ``/tournament`` cog
(:class:`cogs.tournaments.Tournaments`). Every sentence of the cog is in :data:`TEXT`.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

import discord

from bot.locale import N_, t
from bot.services.tournaments import TEXT as SERVICE_TEXT
from bot.services.tournaments import TournamentView, board_shows_standings, board_text, say_in
from cogs.common import guarded, locale_of

__all__ = [
    "BUTTON_CONTEXT",
    "BUTTON_TEMPLATE",
    "STATUSES",
    "TEXT",
    "SignupHandler",
    "TournamentButton",
    "signup_content",
    "signup_embed",
    "signup_view",
]

# User-facing sentences of this cog, in one place.
TEXT = {
    "joined": N_("You are in **{name}**."),
    "left": N_("You left **{name}**; your buy-in was refunded."),
    "created": N_("Tournament **#{id} {name}** is open for sign-up."),
    "started": N_("**{name}** has started."),
    "checkin_opened": N_("Check-in for **{name}** is open; it starts when check-in closes."),
    "dropped": N_("You left **{name}**. Your results so far stand."),
    "done": N_("Done."),
    "no_history": N_("No tournament has finished in this server yet."),
    "guild_only": N_("Tournaments are run in a server channel."),
    "text_channel": N_("A tournament needs a text channel to open its match threads in."),
    "stopped": N_("🛑 The tournament ended this game (time, a drop or a new pairing)."),
    "unavailable": N_("Tournaments are not available right now; try again in a moment."),
    "players": N_("Players ({n})"),
    "nobody": N_("Nobody yet"),
    "buy_in": N_("Buy-in"),
    "pool": N_("Prize pool"),
    "chips": N_("{amount} chips"),
    "footer": N_("Status: {status} · organiser {name}"),
    "status": N_("Status: {status}"),
    "over": N_("🏆 **{name}** is over."),
    "history": N_("**#{id} {name}** ({when}): {top}"),
    "removed": N_("{who} is no longer entered in **{name}**; any buy-in was refunded."),
    "removed_dm": N_(
        "The organiser took you out of the tournament **{name}** before it started; "
        "{n} chips of buy-in were refunded to you."
    ),
    "winner_or_draw": N_("Name the winner, or set `drawn` for a drawn match (not both)."),
    "edited": N_("**{name}** has its new settings; the sign-up message shows them."),
    "seed_order": N_("Name the entrants in seed order as mentions: `@first @second …`."),
    "seeded": N_("The first seeds of **{name}**: {order}. The others follow by rating."),
    "seeded_none": N_("**{name}** is seeded by rating again."),
    # --- late registration and the waitlist (issue 23, i23-entries) ---
    "waitlisted": N_(
        "**{name}** is full: you are number {n} on its waitlist. You pay the buy-in only when "
        "a seat frees for you before the start; you will get a DM."
    ),
    "waitlist": N_("Waitlist ({n})"),
    "exported": N_(
        "**{name}**: the whole event (JSON and CSV) and the records of its {n} finished games."
    ),
    "exported_no_records": N_(
        "**{name}**: the whole event (JSON and CSV). The records of its games ({size} MB) are "
        "over this server's {limit} MB upload limit: open each with `/replay` by its game id "
        "(in the JSON and matches.csv)."
    ),
    # Schedule (issue 23).
    "starts": N_("Starts"),
    "remind_on": N_(
        "You will get a DM an hour and 10 minutes before **{name}** starts, and when its "
        "check-in opens. Press 「Remind me」 again to stop."
    ),
    "remind_off": N_("No more reminders by DM for **{name}**."),
    "schedule_head": N_("**{name}**: its schedule"),
    "schedule_role": N_("• Reminders ping: {role}"),
    "schedule_none": N_("no role"),
    "schedule_start": N_("• Starts: {when}"),
    "schedule_times": N_("• Rounds start at: {times}"),
    "schedule_break": N_("• A break of {n} minutes between rounds"),
    "schedule_asap": N_("• Each round starts as soon as the one before ends"),
}

# An event's status, in words (the footer of its sign-up message).
STATUSES = {
    "registration": N_("sign-up open"),
    "check-in": N_("check-in"),
    "running": N_("running"),
    "paused": N_("paused"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
}
# The sign-up buttons' labels ("Join" and "Leave" alone are the table's: sit down, stand up).
BUTTON_CONTEXT = "tournament"
BUTTON_TEMPLATE = r"tourney:(?P<id>[0-9]+):(?P<verb>join|leave|checkin|ready|remind)"


@runtime_checkable
class SignupHandler(Protocol):
    """What a sign-up button hands its click to (the ``/tournament`` cog)."""

    async def join_or_leave(
        self, interaction: discord.Interaction[Any], tournament_id: int, verb: str
    ) -> None:
        """The Join / Leave / Check in buttons."""
        ...


def signup_content(view: TournamentView, locale: str = "en") -> str:
    """The line above the sign-up message's embed: what the event is doing now (open for
    sign-up, checking in, running, paused, over, cancelled)."""
    record = view.record
    name = record.name
    if record.status == "registration":
        return t(locale, TEXT["created"], id=record.id, name=name)
    said = {
        "check-in": TEXT["checkin_opened"],
        "running": TEXT["started"],
        "paused": SERVICE_TEXT["paused"],
        "finished": TEXT["over"],
    }.get(record.status)
    if said is None:  # cancelled
        said = SERVICE_TEXT["cancelled"] if view.settings.buy_in else SERVICE_TEXT["cancelled_free"]
    return t(locale, said, name=name)


def signup_embed(
    view: TournamentView, locale: str = "en", organiser: str | None = None
) -> discord.Embed:
    """The sign-up message of an event (public: in the server's language): its rules and
    entrants while it runs, its results once it is over. ``organiser``: his name (a footer
    shows a mention as an id), else the one stored when the event was created."""
    record, settings = view.record, view.settings
    embed = discord.Embed(
        title=f"🏆 #{record.id} {record.name}",
        description=board_text(view, say_in(locale))[:3500],
        colour=discord.Colour.gold(),
    )
    if not board_shows_standings(view):  # then the standings name the players
        names = [e.name for e in view.entries]
        shown = t(locale, ", ").join(names[:40]) + (
            f" … (+{len(names) - 40})" if len(names) > 40 else ""
        )
        embed.add_field(
            name=t(locale, TEXT["players"], n=len(names)),
            value=shown or t(locale, TEXT["nobody"]),
            inline=False,
        )
    waiting = [name for _, name in view.waitlist]
    if waiting and record.status in ("registration", "check-in"):
        order = [f"{i}. {name}" for i, name in enumerate(waiting[:20], start=1)]
        more = f" … (+{len(waiting) - 20})" if len(waiting) > 20 else ""
        embed.add_field(
            name=t(locale, TEXT["waitlist"], n=len(waiting)),
            value=(t(locale, ", ").join(order) + more)[:1024],
            inline=False,
        )
    if settings.buy_in:
        chips = TEXT["chips"]
        embed.add_field(
            name=t(locale, TEXT["buy_in"]), value=t(locale, chips, amount=f"{settings.buy_in:,}")
        )
        embed.add_field(
            name=t(locale, TEXT["pool"]), value=t(locale, chips, amount=f"{view.pool:,}")
        )
    starts = record.options.get("starts_at")
    if starts and record.status in ("registration", "check-in"):
        # A Discord timestamp: each member reads the start in his own time zone.
        at = int(datetime.fromisoformat(starts).timestamp())
        embed.add_field(name=t(locale, TEXT["starts"]), value=f"<t:{at}:F> (<t:{at}:R>)")
    status = STATUSES.get(record.status)
    said = t(locale, status) if status else record.status
    organiser = organiser or record.options.get("organiser_name")
    if organiser:
        footer = t(locale, TEXT["footer"], status=said, name=organiser)
    else:
        footer = t(locale, TEXT["status"], status=said)
    embed.set_footer(text=footer[:2048])
    return embed


def signup_view(view: TournamentView, locale: str = "en") -> discord.ui.View:
    """Join / Leave while sign-up is open (Check in / Leave during check-in), and Remind me
    when there is something to remind of (a start time, or a check-in to open); Join alone
    while late entry is open after the start; no buttons otherwise."""
    buttons = discord.ui.View(timeout=None)
    options = view.record.options
    late = view.event is not None and view.event.late_entry_round() is not None
    if view.record.status in ("running", "paused") and late:
        buttons.add_item(TournamentButton(view.id, "join", locale))
    elif view.record.status == "registration":
        buttons.add_item(TournamentButton(view.id, "join", locale))
        buttons.add_item(TournamentButton(view.id, "leave", locale))
    elif view.record.status == "check-in":
        buttons.add_item(TournamentButton(view.id, "checkin", locale))
        buttons.add_item(TournamentButton(view.id, "leave", locale))
    signing_up = view.record.status in ("registration", "check-in")
    if signing_up and (options.get("starts_at") or options.get("checkin_minutes")):
        buttons.add_item(TournamentButton(view.id, "remind", locale))
    return buttons


class TournamentButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    """Join or Leave on a sign-up message."""

    def __init__(self, tournament_id: int, verb: str, locale: str = "en") -> None:
        label = {
            "join": "Join",
            "checkin": "Check in",
            "ready": "Ready",
            "remind": "Remind me",
        }.get(verb, "Leave")
        label = t(locale, label, context=BUTTON_CONTEXT)
        quiet = verb in ("leave", "remind")
        style = discord.ButtonStyle.secondary if quiet else discord.ButtonStyle.success
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"tourney:{tournament_id}:{verb}")
        )
        self.tournament_id = tournament_id
        self.verb = verb

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TournamentButton:
        """Rebuild the button from a click (also after a restart)."""
        return cls(int(match["id"]), match["verb"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Join or leave the event."""
        cog = interaction.client.get_cog("Tournaments") if interaction.client else None
        if not isinstance(cog, SignupHandler):
            await interaction.response.send_message(
                t(locale_of(interaction), TEXT["unavailable"]), ephemeral=True
            )
            return
        async with guarded(interaction, f"tournament {self.verb}"):
            await cog.join_or_leave(interaction, self.tournament_id, self.verb)
