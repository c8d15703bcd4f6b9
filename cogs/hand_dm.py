"""Private hands: every human player's one live DM per game, edited when what it shows
changes, sent again as a new message when his turn starts (Discord notifies a new message, not
an edit), and a line mentioning him in the table's channel when his DMs are closed or the server
chose channel notices.

A game played from the hands (Kap Shap, Kap Tai Shap) shows the seat's hand as the game draws it,
what to do, and the buttons of his moves; a game played on the table message (Tsung Shap) sends a
short status instead: your turn, not your turn, game over (:attr:`Surface.where
<bot.render.family.Surface.where>`). Only :meth:`HandMessages.hand_payload` ever reads a hand,
and only the requesting seat's, from ``table.view_for(user_id)``.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.locale import t
from bot.render.family import render_of
from bot.render.text import game_title, localize, others_moves_text
from bot.services.tables import Step, Table
from cogs.common import pinging
from cogs.presenter_base import HAND_REPLY_SECONDS, DmState, HandReply, PresenterBase
from cogs.sheets import (
    COLOUR,
    aborted_text,
    add_fields,
    field_text,
    jump_url,
    seat_labels,
    time_runs_out,
    unbroken_embed,
)
from cogs.ui import hand_view, hint_button

__all__ = ["HAND_FILE", "MAX_OTHER_EVENTS", "HandMessages", "HandPayload"]

log = logging.getLogger("cogs.presenter")

MAX_OTHER_EVENTS = 200
"""The most events kept for one player's "since your last turn" (a 20-seat table's round)."""

HAND_FILE = "hand.png"


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


class HandMessages(PresenterBase):
    """The players' hand DMs, their turn notices and mention lines."""

    def _dm(self, table: Table, user_id: int) -> DmState:
        return self._dms.setdefault((table.id, user_id), DmState())

    def dm_closed(self, table: Table, user_id: int) -> bool:
        """Whether this player's DMs failed during this game."""
        state = self._dms.get((table.id, user_id))
        return state is not None and state.closed

    def signature(self, table: Table, user_id: int) -> tuple[Any, ...] | None:
        """What a player's hand view shows, in short: a DM is edited only when this changes."""
        seat_view = table.view_for(user_id)
        if seat_view is None or seat_view.seat is None:
            return None
        over = seat_view.result is not None or table.end_text is not None
        render = render_of(table.game)
        if render.where == "table":
            # The status DM: whose turn it is, and whether the game is over.
            return (
                seat_view.my_turn and table.running,
                seat_view.turn,
                seat_view.current,
                over,
                table.status,
            )
        mine = seat_view.my_turn and seat_view.seat not in table.out
        return (
            render.hand_key(seat_view, table.legal() if mine else []),
            mine,
            table.version if mine else None,
            over,
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
        render = render_of(table.game)
        if render.where == "table":
            return self._turn_notice(table, seat_view, legal, signature)
        loc = self.private_locale(table, user_id)
        embed = discord.Embed(
            title=t(loc, "Your hand — {game}", game=game_title(table.game, loc)), colour=COLOUR
        )
        if seat_view.result is not None:
            # The result says it all ("🏆 … won", "The game is drawn"): no "The game is over."
            status = render.result(seat_view.result, seat_labels(table), loc)
        elif table.end_text is not None:
            status = t(loc, "🏳️ {text}", text=localize(table.end_text, loc))
        elif not table.running:
            status = aborted_text(table, loc)
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
            status = render.prompt(seat_view, legal, loc)
        embed.description = status[:4096]
        others = self.others_moves(table, user_id, loc)
        if others is not None:
            embed.add_field(
                name=t(loc, "Since your last turn"), value=field_text(others), inline=False
            )
        add_fields(embed, render.hand_fields(seat_view, f"<#{table.channel_id}>", loc))
        guide = None
        if await self.bot.services.server.guide_on(user_id, table.guild_id, table.game):
            guide = render.hand_guide(seat_view, loc)
        if guide is not None:
            embed.add_field(name=t(loc, "Hand guide"), value=field_text(guide), inline=False)
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
            # What the signature keys (mine: his turn, and he still plays it).
            shown = table.legal() if signature[1] else []
            drawn = await asyncio.to_thread(
                render.hand, seat_view, shown, loc, guide=guide is not None
            )
            if drawn is not None:
                picture, description = drawn.png, drawn.alt
        view = None
        if table.running:
            # The Hint button only where a hint can help no one against a human.
            hint = table.hints_allowed()
            view = hand_view(table.id, table.version, seat_view, legal, loc, hint=hint)
        notice = self.notice_line(table, seat_view.seat)
        return HandPayload(unbroken_embed(embed), picture, view, signature, notice, description)

    def _turn_notice(
        self,
        table: Table,
        seat_view: Any,
        legal: Sequence[Any],
        signature: tuple[Any, ...],
    ) -> HandPayload:
        """The whole private view of a game played on the table message (Tsung Shap): a short
        notice (no hand, no buttons; the table message carries the buttons)."""
        user_id = table.seats[seat_view.seat].user_id if seat_view.seat is not None else None
        loc = self.private_locale(table, user_id or 0)
        embed = discord.Embed(title=f"{game_title(table.game, loc)}", colour=COLOUR)
        seats = seat_labels(table)
        render = render_of(table.game)
        if seat_view.result is not None:
            result = render.result(seat_view.result, seats, loc)
            status = t(loc, "🏁 Game over. {result}", result=result)
        elif table.end_text is not None:
            status = t(loc, "🏳️ {text}", text=localize(table.end_text, loc))
        elif not table.running:
            status = aborted_text(table, loc)
        elif seat_view.seat in table.out:
            status = t(loc, "You are out of this game: your seat folded.")
        elif seat_view.my_turn:
            # The notice above the embed already says "Your turn": say it once.
            noticed = self.notice_line(table, seat_view.seat) is not None
            moves = render.moves(seat_view, legal, loc, opener=not noticed)
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
        view = None
        if table.running and seat_view.my_turn and table.hints_allowed():
            # The moves are on the table message; the private Hint button is here.
            view = discord.ui.View(timeout=None)
            view.add_item(hint_button(table.id, loc))
        return HandPayload(unbroken_embed(embed), None, view, signature, notice)

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

    async def adopt_dms(self, table: Table) -> None:
        """Several processes serve the table: the DMs and mention lines another process sent
        for it (their ids are in the database) are taken over before this one updates a
        player's DM it holds no id of, so it edits them instead of sending a second hand. A
        process alone knows every DM it sent."""
        if self.bot.services.tables.poll_seconds is None:
            return
        unknown = {u for u in table.human_ids() if self._dm(table, u).message_id is None}
        if not unknown:
            return
        for message in await self.bot.services.server.messages(table.id):
            if message.user_id not in unknown:
                continue
            state = self._dm(table, message.user_id)
            if message.kind == "hand":
                state.channel_id, state.message_id = message.channel_id, message.message_id
            elif message.kind == "mention" and state.mention_id is None:
                state.mention_id = message.message_id
                state.mention_key = ("another process",)  # deleted or kept at this update

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
        reply = HandReply(message_id, interaction, now, original)
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
        await self.adopt_dms(table)
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

    async def _refresh(self, table: Table, state: DmState, user_id: int) -> None:
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
        self, table: Table, state: DmState, user_id: int, payload: HandPayload
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
        self, table: Table, state: DmState, user_id: int, payload: HandPayload
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
                if payload.picture is None and render_of(table.game).where == "hand":
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
        self, table: Table, user_id: int, state: DmState, key: tuple[Any, ...] | None
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
        on_table = render_of(table.game).where == "table"  # his moves are on the table message
        if on_table and not state.closed:
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
                if on_table
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
