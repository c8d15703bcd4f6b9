"""What players see: the public table message, private hands by DM, the end-of-game reveal.

**One table message per table**, edited as the game moves. Edits are coalesced: a change marks
the table *dirty*; the message is edited at once if its last edit is at least
:data:`EDIT_INTERVAL` old, otherwise by the bot's one scheduler tick (the play cog's
``tasks.loop``), so a burst of changes makes one edit and a channel sees at most about one edit
per second. Times come from the injected clock (virtual under simcord).

**Private hands.** Every human player has one live DM per game, edited when what it shows
changes: his hand, whether it is his turn, and (on his turn) the buttons, which carry the table's
version. Each DM's last *signature* is kept, so a change elsewhere at the table never touches it.
The DM's id is kept in the database, so after a restart the bot goes on editing the same message.

**Turn notices.** Discord does not notify an edit, so when a player's turn starts his hand DM is
sent again as a *new* message that starts with "🀄 Your turn at #channel — time runs out in 2
minutes" (a Discord timestamp, live and in the reader's language; a *new* message, which Discord
notifies) and the previous one is deleted: his DMs hold exactly one message per game, at
the bottom, and the notice line goes away when his turn ends. A player whose DMs are closed (or
every player, when the server chose channel notices) is mentioned in the table's channel instead:
one line, deleted when his turn ends. A member who turned notices off (``/settings``) gets his DM
edited in place. The player who just acted is not notified of his own next turn.

**Tsung Shap** has no hand: its table message shows everything (the row as a picture, scores,
piles, the turned tile, missed captures) with the current player's action buttons, and the DM is
a short status (your turn, not your turn, game over), with the same notices.

Only :meth:`Presenter.hand_payload` ever reads a hand, and only the requesting seat's, from
``table.view_for(user_id)``; everything public is drawn from the spectator view
``table.view_for(None)``, which holds no hand at all.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.app import KapBot
from bot.engine import (
    AnyAction,
    AnyEvent,
    Capture,
    Claim,
    Declare,
    Discard,
    Draw,
    EngineError,
    FishingResult,
    FishingView,
    Phase,
    Place,
    RuleSet,
    Take,
    Tile,
    View,
    make_rules,
)
from bot.locale import normalize, t
from bot.render import render_witness
from bot.render.alt_text import (
    discards_description,
    hand_description,
    row_description,
    witness_description,
)
from bot.render.table_art import (
    PoolGroup,
    discard_groups,
    render_discards,
    render_fishing_row,
    render_hand_view,
)
from bot.render.text import (
    SeatLabel,
    count_text,
    duration_text,
    fishing_fields,
    game_title,
    hand_prompt,
    legal_text,
    localize,
    others_moves_text,
    recent_text,
    result_text,
    rules_summary,
    rules_text,
    seats_text,
    short_tile,
    turn_text,
    unbroken,
    witness_text,
)
from bot.services.tables import Step, Table, TableStatus
from cogs.common import member_locale, pinging
from cogs.ui import fishing_table_view, hand_view, lobby_view, table_view

__all__ = ["EDIT_INTERVAL", "HandPayload", "Presenter", "jump_url", "unbroken_embed"]

log = logging.getLogger(__name__)

MAX_OTHER_EVENTS = 200
"""The most events kept for one player's "since your last turn" (a 20-seat table's round)."""

EDIT_INTERVAL = 1.0
"""Seconds between two edits of one table message."""

FLUSH_CONCURRENCY = 16
"""How many table messages the scheduler edits at once."""

HAND_FILE = "hand.png"
ROW_FILE = "row.png"
DISCARDS_FILE = "discards.png"
WIN_FILE = "winning-hand.png"
COLOUR = discord.Colour.from_rgb(28, 88, 60)  # the felt of the tile pictures


def jump_url(table: Table) -> str:
    """A link to the table message (or to the channel while there is none)."""
    if table.message_id is None:
        return f"<#{table.channel_id}>"
    return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{table.message_id}"


def unbroken_embed(embed: discord.Embed) -> discord.Embed:
    """``embed`` with every tile's notation kept on one line in its description and field
    values (:func:`bot.render.text.unbroken`; what members read, nothing that is parsed)."""
    if embed.description:
        embed.description = unbroken(embed.description)
    for i, shown in enumerate(embed.fields):
        embed.set_field_at(
            i, name=shown.name, value=unbroken(shown.value or ""), inline=bool(shown.inline)
        )
    return embed


def field_text(text: str, limit: int = 1024) -> str:
    """Text cut to fit an embed field (1024 characters), at a line end when it can be."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 2]
    if "\n" in cut:
        cut = cut[: cut.rindex("\n")]
    return cut + "\n…"


def seat_labels(table: Table) -> list[SeatLabel]:
    """The seats as the text renderer writes them."""
    return [SeatLabel(s.name, s.is_ai) for s in table.seats]


def discards_line(table: Table, public: View, locale: str = "en") -> str:
    """The table message's few words on the discards (the picture shows them all)."""
    if not public.pool:
        return t(locale, "*(no discards yet)*")
    last = public.pool[-1]
    dead = sum(1 for p in public.pool if p.dead)
    text = t(
        locale,
        "Latest: `{tile}` {name} from {player}",
        tile=last.tile,
        name=short_tile(last.tile, locale),
        player=table.seats[last.seat].name,
    )
    return text + (t(locale, " · {n} dead", n=dead) if dead else "")


HandPicture = tuple[tuple[Tile, ...], tuple[Tile, ...], tuple[PoolGroup, ...] | None]


def hand_picture(seat_view: View, legal: Sequence[AnyAction]) -> HandPicture:
    """What a player's hand picture shows: his hand, the tiles just come in (drawn or taken
    this turn), and, on his turn to take or draw, the discards with those he may take (his
    legal takes) marked. Also the key that tells whether the picture must be sent again."""
    new: list[Tile] = []
    if seat_view.my_turn:
        new += [t for t in (seat_view.just_taken, seat_view.drawn) if t is not None]
    discards = None
    if seat_view.my_turn and seat_view.phase is Phase.TAKE_OR_DRAW and seat_view.pool:
        takeable = {a.tile for a in legal if isinstance(a, Take) and a.tile is not None}
        discards = discard_groups(seat_view.pool, takeable)
    return tuple(seat_view.hand), tuple(new), discards


def discards_title(groups: Sequence[PoolGroup], locale: str = "en") -> str:
    """The heading of the discards in a hand picture."""
    if any(g.takeable for g in groups):
        return t(locale, "Discards: you may take one framed in gold")
    return t(locale, "Discards: none may be taken now")


def lobby_rules(table: Table) -> RuleSet | None:
    """The rules the lobby would start with, given who sits now (None if it cannot start)."""
    if table.rules is not None:
        return table.rules
    try:
        extra: dict[str, Any] = (
            {"settlement": table.settlement, "settle_rate": table.settle_rate}
            if table.by_difference
            else {}
        )
        players = max(2, len(table.seats))
        return make_rules(
            table.game, players, table.rule_set, table.sets, **table.variants, **extra
        )
    except EngineError:
        return None


def stakes_text(table: Table, locale: str = "en") -> str:
    """What a game is played for, after the rules summary: the ante and pot, or the rate."""
    if table.by_difference:
        return t(
            locale,
            " · settled at {chips} per point",
            chips=count_text(locale, table.settle_rate, "chip"),
        )
    # Every seat antes (members from their balance, computer seats from the house); the pot
    # also holds chips carried over from a drawn game.
    return t(locale, " · ante {ante} · pot {pot}", ante=f"{table.ante:,}", pot=f"{table.pot:,}")


def aborted_text(table: Table, locale: str = "en") -> str:
    """What an aborted game's message says about the chips."""
    if table.by_difference:
        return t(locale, "This game was ended before it finished: nobody pays.")
    return t(locale, "This game was ended before it finished: every ante was refunded.")


@dataclass(slots=True)
class HandPayload:
    """A rendered hand view: embed, picture (when the hand changed) and action buttons;
    ``content`` is the turn notice line while it is the player's turn."""

    embed: discord.Embed
    picture: bytes | None
    view: discord.ui.View | None
    signature: tuple[Any, ...]
    content: str | None = None
    description: str | None = None
    """The picture's alt text: the hand in words, for a screen reader or with images off."""

    def file(self) -> discord.File | None:
        """A fresh upload of the picture (a File can be sent only once)."""
        if self.picture is None:
            return None
        return discord.File(
            io.BytesIO(self.picture), filename=HAND_FILE, description=self.description
        )


HAND_REPLY_SECONDS = 14 * 60
"""How long an ephemeral hand view is kept to be edited at the end of its game: Discord lets
an interaction's replies be edited for 15 minutes."""


@dataclass(slots=True)
class _HandReply:
    """An ephemeral hand view with buttons (``/hand``, "My hand", or a click on one): its
    message, the interaction whose token may edit it, and when."""

    message_id: int
    interaction: discord.Interaction[Any]
    at: float
    original: bool
    """Whether the message is the interaction's own (a clicked one), not a followup of it."""


@dataclass(slots=True)
class _MessageState:
    dirty: bool = False
    last_edit: float = float("-inf")
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


@dataclass(slots=True)
class _DmState:
    channel_id: int | None = None
    message_id: int | None = None
    signature: tuple[Any, ...] | None = None
    closed: bool = False
    notes: tuple[str, ...] = ()
    others: list[tuple[int, AnyEvent]] = field(default_factory=list)
    """The other seats' events since this player's last move (his "since your last turn")."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    notified: tuple[Any, ...] | None = None  # the turn the player was last told about
    mention_id: int | None = None  # his turn's mention line in the channel
    mention_key: tuple[Any, ...] | None = None


def time_runs_out(deadline: float, locale: str = "en") -> str:
    """`` — time runs out in 2 minutes``: a Discord relative timestamp, which every member's
    client keeps current and words in his own language (a fixed "2 min left" would go stale
    while the notice sits in his DMs)."""
    return t(locale, " — time runs out {when}", when=f"<t:{int(deadline)}:R>")


class Presenter:
    """Renders tables and hands and keeps the table messages and DMs up to date."""

    def __init__(self, bot: KapBot) -> None:
        """Present for ``bot`` (its clock times the edits)."""
        self.bot = bot
        self._messages: dict[str, _MessageState] = {}
        self._dms: dict[tuple[str, int], _DmState] = {}
        self._hand_replies: dict[tuple[str, int], list[_HandReply]] = {}
        # Each server's chosen language (None: its Discord locale), read at each table edit.
        self._languages: dict[int, str | None] = {}
        self.wake: Callable[[], None] = lambda: None
        """Called when a table changed; the play cog's scheduler re-plans its sleep."""
        self.event_table: Callable[[int], Awaitable[bool]] | None = None
        """Set by the tournaments cog: whether a channel's table plays a tournament match (its
        next game opens by itself, so its end message offers no Rematch)."""

    def _now(self) -> float:
        return self.bot.clock.now().timestamp()

    # ------------------------------------------------------------------------- languages

    def public_locale(self, table: Table) -> str:
        """The language of a table's public messages: the server's setting
        (``/kapadmin config language``), else the server's own Discord locale."""
        chosen = self._languages.get(table.guild_id)
        if chosen:
            return chosen
        guild = self.bot.get_guild(table.guild_id)
        return normalize(None if guild is None else guild.preferred_locale)

    async def refresh_locale(self, guild_id: int) -> None:
        """Read the server's language setting (cached by the server service)."""
        settings = await self.bot.services.server.play_settings(guild_id)
        self._languages[guild_id] = settings.language

    def private_locale(self, table: Table, user_id: int) -> str:
        """The language of a member's DM: his client's, as last seen in an interaction, else
        the table's public language."""
        return member_locale(self.bot, user_id) or self.public_locale(table)

    # ------------------------------------------------------------------------- table message

    def table_embed(self, table: Table) -> discord.Embed:
        """The public embed of a table in any state (lobby, running, over)."""
        if table.status is TableStatus.LOBBY:
            return self.lobby_embed(table)
        return unbroken_embed(self._table_embed(table))

    def _table_embed(self, table: Table) -> discord.Embed:
        loc = self.public_locale(table)
        rules = table.rules
        title = t(loc, "{game} — table {id}", game=game_title(table.game, loc), id=table.id)
        embed = discord.Embed(title=title, colour=COLOUR)
        public = table.view_for(None)  # the spectator's view: no hand in it
        if public is None or rules is None:
            embed.description = t(loc, "This table was closed.")
            return embed
        seats = seat_labels(table)
        if isinstance(public, FishingView):
            return self._fishing_embed(table, public, embed)
        lines = [rules_summary(rules, loc) + stakes_text(table, loc)]
        if table.status is TableStatus.ABORTED:
            lines.append(t(loc, "This game was ended before it finished: every ante was refunded."))
        elif table.end_text is not None:
            lines.append(t(loc, "🏳️ {text}", text=localize(table.end_text, loc)))
        else:
            lines.append(turn_text(public, seats, table.deadline if table.running else None, loc))
        embed.description = "\n".join(lines)
        embed.add_field(
            name=t(loc, "Seats"), value=field_text(seats_text(public, seats, loc)), inline=True
        )
        embed.add_field(
            name=t(loc, "Wall"), value=count_text(loc, public.wall_size, "tile"), inline=True
        )
        embed.add_field(
            name=t(loc, "Discards ({n})", n=len(public.pool)),
            value=discards_line(table, public, loc),
            inline=False,
        )
        embed.add_field(
            name=t(loc, "Recent"), value=field_text(self._recent(table, loc)), inline=False
        )
        embed.set_image(url=f"attachment://{DISCARDS_FILE}")
        if table.running:
            embed.set_footer(
                text=t(
                    loc, "Play with /take /draw /discard /declare here, or the buttons in your DM."
                )
            )
        return embed

    def _recent(self, table: Table, locale: str) -> str:
        return recent_text([localize(line, locale) for line in table.recent], locale=locale)

    def _fishing_embed(
        self, table: Table, public: FishingView, embed: discord.Embed
    ) -> discord.Embed:
        """Tsung Shap's table: rules, turn, scores and piles, the row (as text and, attached,
        as a picture), the turned tile, claimable misses and the recent events."""
        loc = self.public_locale(table)
        rules = public.rules
        seats = seat_labels(table)
        lines = [rules_summary(rules, loc) + stakes_text(table, loc)]
        if table.status is TableStatus.ABORTED:
            lines.append(aborted_text(table, loc))
        elif table.end_text is not None:
            lines.append(t(loc, "🏳️ {text}", text=localize(table.end_text, loc)))
        else:
            lines.append(turn_text(public, seats, table.deadline if table.running else None, loc))
        embed.description = "\n".join(lines)
        for name, value in fishing_fields(public, seats, loc):
            embed.add_field(name=name, value=field_text(value), inline=False)
        embed.add_field(
            name=t(loc, "Recent"), value=field_text(self._recent(table, loc)), inline=False
        )
        embed.set_image(url=f"attachment://{ROW_FILE}")
        if table.running:
            embed.set_footer(
                text=t(loc, "Play with the buttons below, or /draw, /take and /discard side here.")
            )
        return embed

    async def table_files(self, table: Table) -> list[discord.File]:
        """The picture the table message carries (drawn in a thread): the face-up discards of
        Kap Shap and Kap Tai Shap, or Tsung Shap's row with the tile just turned over."""
        public = table.view_for(None)
        loc = self.public_locale(table)
        if table.status is TableStatus.LOBBY or public is None:
            return []
        if isinstance(public, FishingView):
            turned = public.turned if public.result is None else None
            title = None
            if turned is not None:
                title = t(
                    loc, "{name} turned {tile}", name=table.seats[public.current].name, tile=turned
                )
            picture = await asyncio.to_thread(
                render_fishing_row, public.row, turned, title=title, locale=loc
            )
            name = table.seats[public.current].name
            alt = row_description(public.row, turned, name, loc)
            return [discord.File(io.BytesIO(picture), filename=ROW_FILE, description=alt)]
        groups = discard_groups(public.pool)
        title = t(loc, "Discards")
        if public.pool:
            last = public.pool[-1]
            title = t(
                loc,
                "Discards · latest {tile} from {name}",
                tile=last.tile,
                name=table.seats[last.seat].name,
            )
        picture = await asyncio.to_thread(render_discards, groups, title=title, locale=loc)
        alt = discards_description(public.pool, loc)
        return [discord.File(io.BytesIO(picture), filename=DISCARDS_FILE, description=alt)]

    async def table_message(self, table: Table, *, edit: bool) -> dict[str, Any]:
        """Keyword arguments that send (``edit=False``) or edit the table message: embed,
        buttons and, for Tsung Shap, the row picture."""
        await self.refresh_locale(table.guild_id)
        kwargs: dict[str, Any] = {"embed": self.table_embed(table), "view": self.table_view(table)}
        files = await self.table_files(table)
        if files:
            kwargs["attachments" if edit else "files"] = files
        return kwargs

    def lobby_embed(self, table: Table) -> discord.Embed:
        """The lobby: seats, ante and the rules the game would start with."""
        loc = self.public_locale(table)
        embed = discord.Embed(
            title=t(loc, "{game} — new table", game=game_title(table.game, loc)), colour=COLOUR
        )
        rules = lobby_rules(table)
        host = t(loc, " (host)")
        seats = "\n".join(
            f"{i + 1}. {s.name}"
            + (" 🤖" if s.is_ai else "")
            + (host if s.user_id == table.host_id else "")
            for i, s in enumerate(table.seats)
        )
        stakes = (
            t(loc, "settled at **{rate}** chips per point", rate=f"{table.settle_rate:,}")
            if table.by_difference
            else t(loc, "ante **{ante}** chips", ante=f"{table.ante:,}")
        )
        embed.description = t(
            loc,
            "Host: {host} · {stakes} · turn timer {timer}",
            host=f"<@{table.host_id}>",
            stakes=stakes,
            timer=duration_text(table.turn_seconds, loc),
        )
        if table.lobby_closes_at is not None:
            # A lobby nobody starts closes by itself (the server's lobby time).
            embed.description += "\n" + t(
                loc,
                "Closes {when} unless started.",
                when=f"<t:{int(table.lobby_closes_at)}:R>",
            )
        embed.add_field(
            name=t(loc, "Seats ({n}/{max})", n=len(table.seats), max=table.max_seats),
            value=field_text(seats),
            inline=False,
        )
        rules_line = (
            rules_summary(rules, loc) if rules is not None else t(loc, "(needs more players)")
        )
        embed.add_field(name=t(loc, "Rules"), value=rules_line, inline=False)
        embed.set_footer(text=t(loc, "Join, add a computer player, then the host starts the game."))
        return unbroken_embed(embed)

    def table_view(self, table: Table) -> discord.ui.View:
        """The buttons under the table message in its current state (none once aborted)."""
        loc = self.public_locale(table)
        if table.status is TableStatus.LOBBY:
            return lobby_view(table.id, loc, full=len(table.seats) >= table.max_seats)
        if table.status is TableStatus.ABORTED:
            return discord.ui.View(timeout=None)  # an empty view removes the buttons
        public = table.view_for(None)
        if table.fishing and table.running and isinstance(public, FishingView):
            legal = [a for a in table.legal() if isinstance(a, Draw | Capture | Place | Claim)]
            combos = {str(c.capture): c for c in public.options}
            combos |= {str(c.claim): c for c in public.pending}
            return fishing_table_view(table.id, table.version, legal, loc, combos)
        # Once over, the Rematch button is on the end-of-game message (one is enough).
        return table_view(table.id, finished=not table.running, rematch=False, locale=loc)

    def rules_embed(self, table: Table, locale: str | None = None) -> discord.Embed:
        """The rules in force at a table, explained (in ``locale``, else the table's)."""
        loc = locale or self.public_locale(table)
        rules = lobby_rules(table)
        embed = discord.Embed(
            title=t(loc, "Rules — {game}", game=game_title(table.game, loc)), colour=COLOUR
        )
        if rules is None:
            embed.description = t(loc, "These settings need more players before they make a game.")
        else:
            embed.description = rules_text(
                rules, ante=table.ante, turn_seconds=table.turn_seconds, locale=loc
            )[:4096]
        return unbroken_embed(embed)

    def mark_edited(self, table: Table) -> None:
        """The table message was just edited by an interaction response."""
        state = self._messages.setdefault(table.id, _MessageState())
        state.dirty = False
        state.last_edit = self._now()
        self.wake()  # the table changed: its turn timer may have too

    def next_flush_at(self) -> float | None:
        """When the earliest coalesced edit falls due (epoch seconds), if any is pending."""
        due = [s.last_edit + EDIT_INTERVAL for s in self._messages.values() if s.dirty]
        return min(due) if due else None

    async def touch(self, table: Table, *, now: bool = False) -> None:
        """The table changed: edit its message now if allowed, else at the next tick."""
        state = self._messages.setdefault(table.id, _MessageState())
        state.dirty = True
        if now or self._now() - state.last_edit >= EDIT_INTERVAL:
            await self.flush(table)
        self.wake()  # the scheduler sleeps until the next due edit or deadline

    async def flush(self, table: Table) -> None:
        """Edit the table message if it is dirty (the state is read at edit time)."""
        state = self._messages.setdefault(table.id, _MessageState())
        async with state.lock:
            if not state.dirty:
                return
            state.dirty = False
            state.last_edit = self._now()
            await self._edit_table_message(table)

    async def flush_due(self, tables: Sequence[Table]) -> None:
        """The scheduler's tick: edit every dirty table message whose interval has passed."""
        now = self._now()
        due = [
            table
            for table in tables
            if (state := self._messages.get(table.id)) is not None
            and state.dirty
            and now - state.last_edit >= EDIT_INTERVAL
        ]
        limit = asyncio.Semaphore(FLUSH_CONCURRENCY)

        async def one(table: Table) -> None:
            # Each table on its own: one slow or failing edit never holds up the others.
            async with limit:
                try:
                    await self.flush(table)
                except Exception:
                    log.exception("table %s: could not edit its message", table.id)

        await asyncio.gather(*(one(t) for t in due))

    async def _edit_table_message(self, table: Table) -> None:
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        if table.message_id is not None:
            try:
                edit = await self.table_message(table, edit=True)
                await channel.get_partial_message(table.message_id).edit(**edit)
                return
            except discord.NotFound:
                log.info("table %s: its message is gone; posting a new one", table.id)
            except discord.HTTPException as exc:
                log.warning("table %s: could not edit its message: %s", table.id, exc)
                return
        try:
            message = await channel.send(**await self.table_message(table, edit=False))
        except discord.HTTPException as exc:
            log.warning("table %s: could not post its message: %s", table.id, exc)
            return
        await self.bot.services.tables.set_message(table, message.id)

    async def say(self, table: Table, text: str, *, mention: int | None = None) -> None:
        """A short line in the table's channel (a timeout, a DM problem)."""
        mentions = pinging([] if mention is None else [mention])
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            await channel.send(localize(text, self.public_locale(table)), allowed_mentions=mentions)
        except discord.HTTPException as exc:
            log.warning("table %s: could not post %r: %s", table.id, text, exc)

    async def announce_end(self, table: Table, settlement: str | None) -> None:
        """Reveal the winning hand (picture and arrangement) or the draw, with a rematch button."""
        state = table.state
        if state is None:
            return
        loc = self.public_locale(table)
        if state.result is None:
            if table.end_text is None:
                return
            # Ended by a resignation or a forfeit: the white flag, as in the table's lines.
            lines = [t(loc, "🏳️ {text}", text=localize(table.end_text, loc))] + (
                [localize(settlement, loc)] if settlement else []
            )
            await self._send_end(table, lines, None)
            return
        result = state.result
        seats = seat_labels(table)
        lines = [result_text(result, seats, loc)]
        file = None
        if isinstance(result, FishingResult):
            pass  # nothing hidden to reveal: the table message shows the final row and scores
        elif result.witness is not None and result.winner is not None:
            lines.append(
                t(
                    loc,
                    "Winning hand: {hand}",
                    hand=witness_text(result.witness, state.rules.four_two_value, loc),
                )
            )
            winner = table.seats[result.winner].name
            picture = await asyncio.to_thread(
                render_witness,
                result.witness,
                title=t(loc, "{name} wins", name=winner),
                locale=loc,
            )
            alt = witness_description(winner, result.witness, state.rules.four_two_value, loc)
            file = discord.File(io.BytesIO(picture), filename=WIN_FILE, description=alt)
        if settlement:
            lines.append(localize(settlement, loc))
        await self._send_end(table, lines, file)

    async def _send_end(self, table: Table, lines: list[str], file: discord.File | None) -> None:
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        event = self.event_table is not None and await self.event_table(table.channel_id)
        kwargs: dict[str, Any] = {
            "content": unbroken("\n".join(lines)),
            "view": table_view(
                table.id, finished=True, rematch=not event, locale=self.public_locale(table)
            ),
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        if file is not None:
            kwargs["file"] = file
        try:
            await channel.send(**kwargs)
        except discord.HTTPException as exc:
            log.warning("table %s: could not announce the end: %s", table.id, exc)

    # ------------------------------------------------------------------------- hands

    def _dm(self, table: Table, user_id: int) -> _DmState:
        return self._dms.setdefault((table.id, user_id), _DmState())

    def dm_closed(self, table: Table, user_id: int) -> bool:
        """Whether this player's DMs failed during this game."""
        state = self._dms.get((table.id, user_id))
        return state is not None and state.closed

    def signature(self, table: Table, user_id: int) -> tuple[Any, ...] | None:
        """What a player's hand view shows, in short: a DM is edited only when this changes."""
        seat_view = table.view_for(user_id)
        if seat_view is None or seat_view.seat is None:
            return None
        if isinstance(seat_view, FishingView):
            # The status DM: whose turn it is, and whether the game is over.
            return (
                seat_view.my_turn and table.running,
                seat_view.turn,
                seat_view.current,
                seat_view.result is not None or table.end_text is not None,
                table.status,
            )
        mine = seat_view.my_turn and seat_view.seat not in table.out
        return (
            hand_picture(seat_view, table.legal() if mine else []),
            mine,
            table.version if mine else None,
            seat_view.phase if mine else None,
            seat_view.result is not None or table.end_text is not None,
            table.status,
        )

    def turn_key(self, table: Table, user_id: int) -> tuple[Any, ...] | None:
        """Which turn of this player is running now (None unless it is his turn)."""
        state = table.state
        seat = table.seat_of(user_id)
        if not table.running or state is None or state.result is not None or seat is None:
            return None
        if state.current != seat or seat in table.out:
            return None
        return (state.turn, seat)

    def notice_line(self, table: Table, seat: int | None) -> str | None:
        """The turn notice that opens a player's DM while it is his turn."""
        state = table.state
        if seat is None or state is None or not table.running or state.result is not None:
            return None
        if state.current != seat or seat in table.out:
            return None
        loc = self.private_locale(table, table.seats[seat].user_id or 0)
        left = ""
        if table.deadline is not None:
            left = time_runs_out(table.deadline, loc)
        return t(
            loc, "🀄 Your turn at {channel}{left}.", channel=f"<#{table.channel_id}>", left=left
        )

    def note_steps(self, table: Table, steps: Sequence[Step]) -> None:
        """Keep what each player has not seen played yet: another seat's step is added to his
        "since your last turn" (public events only are ever worded from it), his own step
        starts it again."""
        seats = {user_id: table.seat_of(user_id) for user_id in table.human_ids()}
        for step in steps:
            for user_id, seat in seats.items():
                others = self._dm(table, user_id).others
                if step.seat == seat:
                    others.clear()
                else:
                    others.extend((step.seat, event) for event in step.events)
                    del others[:-MAX_OTHER_EVENTS]

    def others_moves(self, table: Table, user_id: int, locale: str) -> str | None:
        """The other seats' moves since this player's last one, in words (None: none)."""
        state = self._dms.get((table.id, user_id))
        if state is None or not table.running:
            return None
        names = [s.name for s in table.seats]
        return others_moves_text(state.others, names, table.seat_of(user_id), locale)

    def add_notes(self, table: Table, user_id: int, notes: Sequence[str]) -> None:
        """Remember a player's own last moves, told in his hand view."""
        if notes:
            self._dm(table, user_id).notes = tuple(notes)[-4:]

    async def hand_payload(
        self, table: Table, user_id: int, *, previous: tuple[Any, ...] | None = None
    ) -> HandPayload | None:
        """The hand view of one seated member; the picture is drawn only if the hand changed
        since ``previous`` (the signature of what the message shows now)."""
        seat_view = table.view_for(user_id)
        signature = self.signature(table, user_id)
        if seat_view is None or seat_view.seat is None or signature is None:
            return None
        legal = table.legal() if seat_view.my_turn else []
        if isinstance(seat_view, FishingView):
            return self._turn_notice(table, seat_view, legal, signature)
        loc = self.private_locale(table, user_id)
        embed = discord.Embed(
            title=t(loc, "Your hand — {game}", game=game_title(table.game, loc)), colour=COLOUR
        )
        if seat_view.result is not None:
            # result_text says it all ("🏆 … won", "The game is drawn"): no "The game is over."
            status = result_text(seat_view.result, seat_labels(table), loc)
        elif table.end_text is not None:
            status = t(loc, "🏳️ {text}", text=localize(table.end_text, loc))
        elif not table.running:
            status = t(loc, "This game was ended before it finished: every ante was refunded.")
        elif seat_view.seat in table.out:
            status = t(loc, "You are out of this game: your seat folded.")
        elif not seat_view.my_turn:
            # Whose turn it is, truthfully. At two seats it is always the other player's while
            # this DM stands; at a larger table the turn moves on without editing every DM.
            if len(table.seats) == 2:
                current = seat_labels(table)[seat_view.current].name
                status = t(
                    loc,
                    "It is not your turn: **{name}** is playing turn {turn}.",
                    name=current,
                    turn=seat_view.turn,
                )
            else:
                status = t(
                    loc,
                    "It is not your turn: the table message shows whose it is ({link}).",
                    link=jump_url(table),
                )
        else:
            status = hand_prompt(seat_view, legal, loc)
        embed.description = status[:4096]
        others = self.others_moves(table, user_id, loc)
        if others is not None:
            embed.add_field(
                name=t(loc, "Since your last turn"), value=field_text(others), inline=False
            )
        embed.add_field(
            name=t(loc, "Table"),
            value=t(
                loc,
                "{channel} · turn {turn} · wall {wall} · {discards} discard"
                if len(seat_view.pool) == 1
                else "{channel} · turn {turn} · wall {wall} · {discards} discards",
                channel=f"<#{table.channel_id}>",
                turn=seat_view.turn,
                wall=seat_view.wall_size,
                discards=len(seat_view.pool),
            ),
            inline=False,
        )
        notes = self._dm(table, user_id).notes
        if notes:
            embed.add_field(
                name=t(loc, "Your last moves"),
                value="\n".join(localize(n, loc) for n in notes),
                inline=False,
            )
        embed.set_image(url=f"attachment://{HAND_FILE}")
        embed.set_footer(text=t(loc, "table {id}", id=table.id))
        picture = description = None
        if previous is None or previous[0] != signature[0]:
            hand, new, discards = signature[0]
            description = hand_description(hand, new, discards, loc)
            picture = await asyncio.to_thread(
                render_hand_view,
                hand,
                new=new,
                discards=discards,
                discards_title=None if discards is None else discards_title(discards, loc),
                locale=loc,
            )
        view = None
        if table.running:
            hand_legal = [a for a in legal if isinstance(a, Take | Draw | Discard | Declare)]
            view = hand_view(table.id, table.version, seat_view, hand_legal, loc)
        notice = self.notice_line(table, seat_view.seat)
        return HandPayload(unbroken_embed(embed), picture, view, signature, notice, description)

    def _turn_notice(
        self,
        table: Table,
        seat_view: FishingView,
        legal: Sequence[AnyAction],
        signature: tuple[Any, ...],
    ) -> HandPayload:
        """Tsung Shap's whole private view: a short notice (no hand, no buttons; the table
        message carries the buttons)."""
        user_id = table.seats[seat_view.seat].user_id if seat_view.seat is not None else None
        loc = self.private_locale(table, user_id or 0)
        embed = discord.Embed(title=f"{game_title(table.game, loc)}", colour=COLOUR)
        seats = seat_labels(table)
        if seat_view.result is not None:
            status = t(
                loc, "🏁 Game over. {result}", result=result_text(seat_view.result, seats, loc)
            )
        elif table.end_text is not None:
            status = t(loc, "🏳️ {text}", text=localize(table.end_text, loc))
        elif not table.running:
            status = aborted_text(table, loc)
        elif seat_view.seat in table.out:
            status = t(loc, "You are out of this game: your seat folded.")
        elif seat_view.my_turn:
            # The notice above the embed already says "Your turn": say it once.
            noticed = self.notice_line(table, seat_view.seat) is not None
            moves = legal_text(seat_view, legal, loc, opener=not noticed)
            status = (
                t(loc, "Turn {turn} at {link}", turn=seat_view.turn, link=jump_url(table))
                + "\n\n"
                + moves
            )
        else:
            current = seats[seat_view.current].name
            status = t(
                loc,
                "It is not your turn: **{name}** is playing turn {turn} at {channel}.",
                name=current,
                turn=seat_view.turn,
                channel=f"<#{table.channel_id}>",
            )
        others = None if user_id is None else self.others_moves(table, user_id, loc)
        if others is not None:
            status += "\n\n" + t(loc, "**Since your last turn:** {moves}", moves=others)
        embed.description = status[:4096]
        embed.set_footer(text=t(loc, "table {id}", id=table.id))
        notice = self.notice_line(table, seat_view.seat)
        return HandPayload(unbroken_embed(embed), None, None, signature, notice)

    def record_dm(
        self, table: Table, user_id: int, channel_id: int, message_id: int, signature: Any
    ) -> None:
        """A DM of ours was just edited by an interaction response (a click in the DM): the
        player is right there, so his current turn counts as told."""
        state = self._dm(table, user_id)
        state.channel_id, state.message_id, state.signature = channel_id, message_id, signature
        state.notified = self.turn_key(table, user_id) or state.notified

    def dm_signature(self, table: Table, user_id: int) -> tuple[Any, ...] | None:
        """The signature of what the player's DM shows now (None if unknown)."""
        state = self._dms.get((table.id, user_id))
        return None if state is None else state.signature

    def dm_message_id(self, table: Table, user_id: int) -> int | None:
        """The id of the player's DM for this game, if one was sent."""
        state = self._dms.get((table.id, user_id))
        return None if state is None else state.message_id

    def assume_dm(self, table: Table, user_id: int) -> None:
        """After a restart: don't re-send this player's DM until it changes."""
        state = self._dm(table, user_id)
        state.signature = self.signature(table, user_id)
        state.notified = self.turn_key(table, user_id)

    async def restore_dms(self, table: Table) -> None:
        """After a restart: take over the DMs and mention lines sent before it (their ids are
        in the database), so each player keeps exactly one live hand DM. A player without a
        kept DM (a database from before ids were kept) who is to act gets a fresh one."""
        kept = await self.bot.services.server.messages(table.id)
        hands = {m.user_id: m for m in kept if m.kind == "hand"}
        for message in kept:
            state = self._dm(table, message.user_id)
            if message.kind == "mention":
                state.mention_id = message.message_id
                state.mention_key = ("before a restart",)  # deleted or kept at the next update
        current = table.current_seat
        for user_id in table.human_ids():
            hand = hands.get(user_id)
            if hand is not None:
                state = self._dm(table, user_id)
                state.channel_id, state.message_id = hand.channel_id, hand.message_id
                self.assume_dm(table, user_id)
            elif current is None or user_id != current.user_id:
                self.assume_dm(table, user_id)

    async def _notices(self, table: Table, user_id: int) -> tuple[bool, bool]:
        """Whether this player's turns are told by DM and by a channel mention."""
        server = self.bot.services.server
        if not await server.notices_on(user_id):
            return False, False
        settings = await server.play_settings(table.guild_id)
        return settings.dm_notices, settings.channel_notices

    def keep_hand_reply(
        self,
        table: Table,
        user_id: int,
        message_id: int,
        interaction: discord.Interaction[Any],
        *,
        original: bool,
    ) -> None:
        """An ephemeral hand view with buttons was just sent or edited through ``interaction``:
        keep it, so that the end of the game takes its buttons off (:meth:`close_hand_replies`).
        Only the bot can edit an ephemeral message, and only within its token's 15 minutes."""
        now = self._now()
        key = (table.id, user_id)
        replies = [
            r
            for r in self._hand_replies.get(key, [])
            if now - r.at < HAND_REPLY_SECONDS and r.message_id != message_id
        ]
        reply = _HandReply(message_id, interaction, now, original)
        self._hand_replies[key] = [*replies[-4:], reply]

    async def close_hand_replies(self, table: Table) -> None:
        """The game is over: every hand view a player keeps in an ephemeral reply shows the end
        and loses its buttons (those older than a token's life stay; a click on one is refused
        and takes its buttons off then: :meth:`cogs.desk.Desk.on_component`)."""
        now = self._now()
        for key in [k for k in self._hand_replies if k[0] == table.id]:
            user_id = key[1]
            for reply in self._hand_replies.pop(key):
                if now - reply.at >= HAND_REPLY_SECONDS:
                    continue
                # The picture stays as it is (previous: the current signature draws none).
                payload = await self.hand_payload(
                    table, user_id, previous=self.signature(table, user_id)
                )
                edit: dict[str, Any] = {"view": None}
                if payload is not None:
                    edit["embed"] = payload.embed
                try:
                    if reply.original:  # the clicked message: its interaction's own
                        await reply.interaction.edit_original_response(**edit)
                    else:  # a followup (/hand, My hand): edited by its id
                        await reply.interaction.followup.edit_message(reply.message_id, **edit)
                except discord.HTTPException as exc:
                    log.info("table %s: hand reply of %s not closed: %s", table.id, user_id, exc)

    async def update_dms(
        self, table: Table, *, skip: int | None = None, active: int | None = None
    ) -> None:
        """Bring every human's DM (and turn notice) up to date, all of them in parallel, and
        once the game is over take the buttons off the hand views kept in ephemeral replies.
        ``skip``: a player whose DM an interaction just edited; ``active``: the player who just
        acted (not notified of his own next turn)."""
        if not table.running:
            await self.close_hand_replies(table)
        users = [u for u in table.human_ids() if u != skip]
        await asyncio.gather(*(self.update_dm(table, u, active=u == active) for u in users))
        if skip is not None:
            # His DM was just edited by his click: a mention line of this turn may stay.
            state = self._dm(table, skip)
            key = self.turn_key(table, skip)
            await self._sync_mention(table, skip, state, key if state.mention_key == key else None)

    async def update_dm(self, table: Table, user_id: int, *, active: bool = False) -> None:
        """Send, edit or re-send one player's DM, and his mention line (never raises for
        delivery problems)."""
        state = self._dm(table, user_id)
        async with state.lock:
            key = self.turn_key(table, user_id)
            by_dm, by_channel = await self._notices(table, user_id)
            if active and key is not None:
                state.notified = key  # he is here: no need to call him
            mention = key if (by_channel or (state.closed and (by_dm or by_channel))) else None
            if active and mention != state.mention_key:
                mention = None  # he is here: no new call, but a line of this turn may stay
            if state.closed:
                await self._sync_mention(table, user_id, state, mention)
                return
            notify = (
                by_dm and key is not None and key != state.notified and state.message_id is not None
            )
            if notify or state.signature != self.signature(table, user_id):
                try:
                    if notify:
                        payload = await self.hand_payload(table, user_id)
                        if payload is not None:
                            await self._resend(table, state, user_id, payload)
                    else:
                        await self._refresh(table, state, user_id)
                    if key is not None:
                        state.notified = key
                except discord.Forbidden:
                    state.closed = True
                    log.info("table %s: cannot DM %s (DMs closed)", table.id, user_id)
                    await self._sync_mention(
                        table, user_id, state, key if by_dm or by_channel else None
                    )
                    return
                except discord.HTTPException as exc:
                    log.warning("table %s: DM to %s failed: %s", table.id, user_id, exc)
            # After the DM: a re-sent DM has a new id, and the mention line links to it.
            await self._sync_mention(table, user_id, state, mention)

    async def _refresh(self, table: Table, state: _DmState, user_id: int) -> None:
        """Edit the DM in place (or send the first one)."""
        previous = state.signature if state.message_id is not None else None
        payload = await self.hand_payload(table, user_id, previous=previous)
        if payload is None:
            return
        if not await self._deliver(table, state, user_id, payload):
            # The old DM was deleted: send a new one, picture included.
            payload = await self.hand_payload(table, user_id)
            if payload is not None:
                await self._deliver(table, state, user_id, payload)

    async def _resend(
        self, table: Table, state: _DmState, user_id: int, payload: HandPayload
    ) -> None:
        """A turn starts: the DM is sent again as a new message (Discord notifies it) and the
        old one is deleted, so the player's DMs hold one message for this game."""
        old_channel, old_message = state.channel_id, state.message_id
        state.message_id = None
        await self._deliver(table, state, user_id, payload)
        if old_message is not None and old_channel is not None:
            channel = self.bot.get_partial_messageable(
                old_channel, type=discord.ChannelType.private
            )
            try:
                await channel.get_partial_message(old_message).delete()
            except discord.HTTPException as exc:  # already deleted by the player: fine
                log.info("table %s: old DM of %s not deleted: %s", table.id, user_id, exc)

    async def _deliver(
        self, table: Table, state: _DmState, user_id: int, payload: HandPayload
    ) -> bool:
        """Edit the DM, or send it; False when the DM to edit is gone and had no picture."""
        if state.message_id is not None and state.channel_id is not None:
            channel = self.bot.get_partial_messageable(
                state.channel_id, type=discord.ChannelType.private
            )
            kwargs: dict[str, Any] = {
                "content": payload.content,
                "embed": payload.embed,
                "view": payload.view,
            }
            file = payload.file()
            if file is not None:
                kwargs["attachments"] = [file]
            try:
                await channel.get_partial_message(state.message_id).edit(**kwargs)
                state.signature = payload.signature
                return True
            except discord.NotFound:
                state.message_id = None  # the player deleted it: send a new one
                if payload.picture is None and not table.fishing:
                    return False
        dm: discord.abc.Messageable
        if state.channel_id is not None:
            # The DM channel is known (a re-sent turn notice): no need to open it again, which
            # would cost a request once discord.py's small cache of DM channels is full.
            dm = self.bot.get_partial_messageable(
                state.channel_id, type=discord.ChannelType.private
            )
        else:
            dm = await self.bot.create_dm(discord.Object(user_id))
        file = payload.file()
        send: dict[str, Any] = {"embed": payload.embed}
        if payload.content is not None:
            send["content"] = payload.content
        if payload.view is not None:
            send["view"] = payload.view
        if file is not None:
            send["file"] = file
        message = await dm.send(**send)
        channel_id = message.channel.id
        state.channel_id, state.message_id = channel_id, message.id
        state.signature = payload.signature
        await self.bot.services.server.keep_message(
            table.id, user_id, "hand", channel_id, message.id
        )
        return True

    async def _sync_mention(
        self, table: Table, user_id: int, state: _DmState, key: tuple[Any, ...] | None
    ) -> None:
        """One channel line mentioning the player while it is his turn (``key``), deleted when
        his turn ends."""
        if key is not None and state.mention_id is not None and state.mention_key == key:
            return
        if key is None and state.mention_id is None:
            return
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        server = self.bot.services.server
        if state.mention_id is not None:
            try:
                await channel.get_partial_message(state.mention_id).delete()
            except discord.HTTPException as exc:
                log.info("table %s: mention of %s not deleted: %s", table.id, user_id, exc)
            state.mention_id = state.mention_key = None
            if key is None:
                await server.forget_message(table.id, user_id, "mention")
        if key is None:
            return
        loc = self.public_locale(table)
        left = ""
        if table.deadline is not None:
            left = time_runs_out(table.deadline, loc)
        text = t(loc, "{member}, it's your turn{left}.", member=f"<@{user_id}>", left=left)
        if table.fishing and not state.closed:
            text += t(loc, " The table: {link}", link=jump_url(table))
        elif state.message_id is not None and state.channel_id is not None and not state.closed:
            text += t(
                loc,
                " Your hand: {link}",
                link=f"https://discord.com/channels/@me/{state.channel_id}/{state.message_id}",
            )
        if state.closed:
            how = (
                t(loc, "the buttons on the table message play your turn")
                if table.fishing
                else t(loc, "use `/hand` here or the **My hand** button to see your hand and play")
            )
            text += t(loc, " I can't DM you: {how}.", how=how)
        try:
            message = await channel.send(text, allowed_mentions=pinging([user_id]))
        except discord.HTTPException as exc:
            log.warning("table %s: could not mention %s: %s", table.id, user_id, exc)
            return
        state.mention_id, state.mention_key = message.id, key
        await server.keep_message(table.id, user_id, "mention", table.channel_id, message.id)

    def prune(self, live: set[str]) -> None:
        """Drop what is kept for tables that are gone (replaced by a rematch or a new table)."""
        for table_id in {k for k in self._messages if k not in live}:
            self._messages.pop(table_id, None)
        for key in [k for k in self._dms if k[0] not in live]:
            del self._dms[key]
        for key in [k for k in self._hand_replies if k[0] not in live]:
            del self._hand_replies[key]

    def forget(self, table_id: str) -> None:
        """Drop what is kept for a table that is gone."""
        self._messages.pop(table_id, None)
        for key in [k for k in self._dms if k[0] == table_id]:
            del self._dms[key]
        for key in [k for k in self._hand_replies if k[0] == table_id]:
            del self._hand_replies[key]
