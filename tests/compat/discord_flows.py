"""The bot's Discord surface pinned by the compatibility tests: the custom ids of its buttons
and selects, and the slash command tree it publishes.

Custom ids are stored in messages already posted in servers (lobbies, table messages, hand DMs):
a click on one of them after an upgrade must still act. :data:`FLOWS` are short games played
through the whole bot on simcord (docs/simcord-guide.md): one of each kind, dealt by the bot's
seeded shuffle, from ``/table new`` through the lobby's buttons, the moves (on the hand DM, or
Tsung Shap's on the table message), ``My hand``, the computer level select, to a resignation
and the finished table. :func:`run_flows` records every click and, after each, the custom ids on
the table message, on each player's latest DM and on the private reply; game ids (random in the
bot) are written ``{game1}``, ``{game2}`` … in order of appearance.

Run again with the pinned steps, :func:`run_flows` clicks the pinned custom ids. With
``inject=True`` it first writes the pinned (old) custom id onto the button being clicked, as if
the message had been posted by the code that made the pins, and checks the click still acts.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import random
import re
import tempfile
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import simcord
from simcord.components import walk_components

from bot.app import KapBot, command_tree_hash, create_bot
from bot.config import Settings

__all__ = ["FLOWS", "Flow", "command_tree", "run_flows", "running_bot"]

GUILD_ID = 1_000_000_000_000_000_001
DEAL_SEED = 20261126
MEMBERS = ("alice", "bob", "carol")


@dataclass(frozen=True, slots=True)
class Flow:
    """One scripted game: the host's ``/table new`` options, who fills the lobby (member names,
    or ``ai:LEVEL`` for a computer seat added with the Add AI select), how many moves are
    played by buttons, and whether the player to move resigns afterwards."""

    name: str
    options: dict[str, Any]
    fill: tuple[str, ...]
    moves: int
    resign: bool = True


FLOWS = (
    Flow("kap-shap", {"game": "kap-shap"}, ("bob",), 14),
    Flow("kap-tai-shap", {"game": "kap-tai-shap", "seats": 3}, ("bob", "ai:club"), 8, False),
    Flow("tsung-shap", {"game": "tsung-shap"}, ("bob",), 24),
)
"""Kap Shap (Culin: takes, sometimes from a select), Kap Tai Shap for three with a computer seat
(not resigned: a fold would not end it), Tsung Shap (moves on the table message)."""

_PREFERENCE = (
    "declare", "play:claim", "play:capture", "take", "choose-take", "draw", "play:draw",
    "play:place", "discard",
)  # fmt: skip
"""Which of a player's components a move clicks: the first (in the message's order) whose
``verb:arg`` starts with the earliest of these."""


def settings(directory: Path) -> Settings:
    """The bot's settings for a run: a fresh database, ante 10, the test guild as development
    guild (commands synced there at once)."""
    return Settings(
        discord_token=None,
        db_path=directory / "kapshap.sqlite3",
        default_ante=10,
        starting_chips=1000,
        daily_amount=100,
        turn_seconds=120,
        dev_guild_id=GUILD_ID,
        # One shard: simcord needs the count that discord.py would otherwise ask Discord for.
        shard_count=1,
    )


@contextlib.asynccontextmanager
async def running_bot() -> AsyncIterator[tuple[simcord.Env, KapBot]]:
    """``async with running_bot() as (env, bot):`` the whole bot on simcord, on a fresh
    database, its deals shuffled by a seeded generator."""
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(settings(Path(tmp)), rng=random.Random(DEAL_SEED))
        try:
            async with simcord.run(bot) as env:
                # As tests/discord/conftest.py: a shorter settle interval (simcord is pinned).
                env._settle_internal = functools.partial(  # type: ignore[method-assign]
                    env._settle_internal, idle=0.001
                )
                yield env, bot
        finally:
            if not bot.is_closed():
                await bot.close()


# ---------------------------------------------------------------------------------------------
# Game ids


class Ids:
    """Game ids, written ``{gameN}`` in order of first appearance, and back."""

    _HEX = re.compile(r"(?<![0-9a-f])[0-9a-f]{12}(?![0-9a-f])")

    def __init__(self) -> None:
        self._names: dict[str, str] = {}

    def norm(self, custom_id: str) -> str:
        """``kap:15dbf86f19a5:2:draw`` -> ``kap:{game1}:2:draw``."""

        def name(match: re.Match[str]) -> str:
            found = match.group(0)
            if found not in self._names:
                self._names[found] = f"{{game{len(self._names) + 1}}}"
            return self._names[found]

        return self._HEX.sub(name, custom_id)

    def real(self, pinned: str) -> str:
        """The custom id of this run for a pinned one."""
        for real, name in self._names.items():
            pinned = pinned.replace(name, real)
        return pinned


def _ids(message: discord.Message | None) -> list[str]:
    if message is None:
        return []
    return [
        child.custom_id
        for row in message.components
        for child in getattr(row, "children", [])
        if getattr(child, "custom_id", None)
    ]


def _components(message: discord.Message) -> Iterator[Any]:
    for row in message.components:
        yield from getattr(row, "children", [])


# ---------------------------------------------------------------------------------------------
# Running a flow


class _Game:
    """One flow's world: its channel, members, the latest private reply."""

    def __init__(
        self, env: simcord.Env, bot: KapBot, channel: simcord.ChannelHandle,
        members: dict[str, simcord.MemberActor], ids: Ids,
    ) -> None:  # fmt: skip
        self.env, self.bot, self.channel, self.members, self.ids = env, bot, channel, members, ids
        self.reply: discord.Message | None = None
        self.lobby: discord.Message | None = None

    @property
    def table(self) -> Any:
        return self.bot.services.tables.get(self.channel.id)

    def table_message(self) -> discord.Message | None:
        table = self.table
        wanted = getattr(table, "message_id", None) or (self.lobby.id if self.lobby else None)
        return next((m for m in self.channel.history() if m.id == wanted), None)

    def last_dm(self, member: str) -> discord.Message | None:
        dm = self.members[member].user.dm_channel
        history = dm.history() if dm is not None else []
        return history[-1] if history else None

    def message(self, where: str, actor: str) -> discord.Message:
        """The message a step acts on: the table message, the actor's latest DM, or the
        latest private reply."""
        if where == "table":
            found = self.table_message()
        elif where == "dm":
            found = self.last_dm(actor)
        else:
            found = self.reply
        assert found is not None, f"no {where} message for {actor}"
        return found

    async def seen(self, players: tuple[str, ...]) -> dict[str, Any]:
        """What the step left: custom ids on the table message, the players' latest DMs and
        the private reply, and the table's version and status."""
        await self.env.advance_time(2)  # the table message's coalesced edit goes out
        table = self.table
        table_message = self.table_message()
        out: dict[str, Any] = {
            "table": [self.ids.norm(i) for i in _ids(table_message)],
            "channel": [
                [self.ids.norm(i) for i in _ids(m)]
                for m in self.channel.history()
                if _ids(m) and (table_message is None or m.id != table_message.id)
            ],
            "dm": {p: [self.ids.norm(i) for i in _ids(self.last_dm(p))] for p in players},
            "reply": [self.ids.norm(i) for i in _ids(self.reply)],
            "version": getattr(table, "version", None),
            "status": str(table.status) if table is not None else None,
        }
        return out

    async def perform(self, step: dict[str, Any], inject: bool) -> None:
        """Do one step: a slash command, a click or a select."""
        actor = self.members[step["actor"]]
        if "slash" in step:
            result = await actor.slash(self.channel, step["slash"], **step.get("options", {}))
            self._replied(result, step["slash"])
            return
        message = self.message(step["where"], step["actor"])
        custom_id = self.ids.real(step["custom_id"])
        # The label only tells an injected id from the same id on another button.
        label = _inject(self.env, message, step, custom_id) if inject else None
        user: Any = actor.user if step["where"] == "dm" else actor
        if "values" in step:
            result = await user.select(message, step["values"], custom_id=custom_id)
        else:
            result = await user.click(message, custom_id=custom_id, label=label)
        self._replied(result, step["custom_id"])

    def _replied(self, result: simcord.InteractionResult, what: str) -> None:
        response = result.response
        message = getattr(response, "message", None) if response is not None else None
        if message is not None and what == "table new":
            self.lobby = message
        if message is not None and result.ephemeral:
            self.reply = message


def _inject(
    env: simcord.Env, message: discord.Message, step: dict[str, Any], custom_id: str
) -> str | None:
    """Write ``custom_id`` onto the component the pinned step clicked (found by its label, or
    the first of its kind), as a message posted by the code of the pins would carry it; that
    component's label."""
    stored = env.backend.get_message(message.channel.id, message.id)
    select = "values" in step
    candidates = [
        c for c in walk_components(stored.components)
        if (c.get("type") != 2) == select and c.get("custom_id")
    ]  # fmt: skip
    assert candidates, f"nothing to click on the message for {step}"
    target = next((c for c in candidates if c.get("label") == step.get("label")), candidates[0])
    target["custom_id"] = custom_id
    label = target.get("label")
    return None if label is None else str(label)


def _choose(message: discord.Message) -> dict[str, Any]:
    """The component a move clicks, by :data:`_PREFERENCE` (a select: its first option)."""
    moves = [
        (":".join((c.custom_id or "").split(":")[3:]), c)
        for c in _components(message)
        if getattr(c, "custom_id", None) and not getattr(c, "disabled", False)
    ]
    for wanted in _PREFERENCE:
        child = next((c for move, c in moves if move.startswith(wanted)), None)
        if child is not None:
            if isinstance(child, discord.SelectMenu):
                return {"custom_id": child.custom_id, "values": [child.options[0].value]}
            return {"custom_id": child.custom_id, "label": child.label}
    raise AssertionError(f"no move on the message: {_ids(message)}")


def _click(game: _Game, actor: str, where: str, label: str) -> dict[str, Any]:
    message = game.message(where, actor)
    for child in _components(message):
        if getattr(child, "label", None) == label:
            return {"actor": actor, "where": where, "custom_id": child.custom_id, "label": label}
    raise AssertionError(f"no {label!r} on the {where} message: {_ids(message)}")


def _planned(game: _Game, flow: Flow) -> Iterator[dict[str, Any]]:
    """The steps of a flow, decided as it goes (to make the pins)."""
    yield {"actor": "alice", "slash": "table new", "options": flow.options}
    for who in flow.fill:
        if who.startswith("ai:"):
            yield _click(game, "alice", "table", "Add AI")
            assert game.reply is not None
            select = next(c for c in _components(game.reply) if isinstance(c, discord.SelectMenu))
            yield {"actor": "alice", "where": "reply", "custom_id": select.custom_id,
                   "values": [who[3:]]}  # fmt: skip
        else:
            yield _click(game, who, "table", "Join")
    yield _click(game, "alice", "table", "Start")
    yield _click(game, "carol", "table", "Rules")
    for move in range(flow.moves):
        table = game.table
        if not table.running or table.current_seat is None:
            break
        actor = next(n for n, m in game.members.items() if m.id == table.current_seat.user_id)
        # once: the hand from the table message, a move from it
        if move == 1 and table.game != "tsung-shap":
            yield _click(game, actor, "table", "My hand")
            where = "reply" if game.reply is not None and _ids(game.reply) else "table"
        else:
            where = "table" if table.game == "tsung-shap" else "dm"
        yield {"actor": actor, "where": where, **_choose(game.message(where, actor))}
    table = game.table
    if flow.resign and table.running and table.current_seat is not None:
        actor = next(n for n, m in game.members.items() if m.id == table.current_seat.user_id)
        yield {"actor": actor, "slash": "table resign"}
        yield _click(game, actor, "reply", "Resign")


async def run_flows(
    pinned: dict[str, list[dict[str, Any]]] | None = None, *, inject: bool = False
) -> dict[str, Any]:
    """Play every flow (the pinned steps when given, else decided as they go); each flow's
    steps with what each step left, and the notation of every action the bot stored."""
    out: dict[str, Any] = {}
    with _incidents() as incidents:
        async with running_bot() as (env, bot):
            await _play(env, bot, pinned, inject, out)
    assert not incidents, f"the bot logged errors: {incidents}"
    return out


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.seen.append(f"{record.name}: {record.getMessage()}")


@contextlib.contextmanager
def _incidents() -> Iterator[list[str]]:
    """Errors the bot logs meanwhile (discord.py logs an exception in a click's callback
    instead of raising it, so simcord's own error check would not see it)."""
    handler = _Collect()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler.seen
    finally:
        root.removeHandler(handler)


async def _play(
    env: simcord.Env,
    bot: KapBot,
    pinned: dict[str, list[dict[str, Any]]] | None,
    inject: bool,
    out: dict[str, Any],
) -> None:
    """Play the flows in one running bot, each in a channel of its own."""
    guild = env.create_guild("Kap Shap Club", id=GUILD_ID)
    for flow in FLOWS:
        # Members of their own, so that no DM of another flow is anyone's latest.
        members = {
            name: guild.add_member(env.create_user(f"{name}-{flow.name}")) for name in MEMBERS
        }
        channel = guild.create_text_channel(flow.name)
        await env.settle()
        game = _Game(env, bot, channel, members, Ids())
        players = ("alice", *(f for f in flow.fill if not f.startswith("ai:")))
        steps = iter(pinned[flow.name]) if pinned is not None else _planned(game, flow)
        done: list[dict[str, Any]] = []
        for number, step in enumerate(steps, 1):
            plain = {k: v for k, v in step.items() if k != "seen"}
            try:
                await game.perform(plain, inject)
            except (simcord.SetupError, AssertionError) as error:
                # The pinned click cannot be made any more: say so where the steps stop.
                done.append({**plain, "broken": f"step {number} cannot be made: {error}"})
                break
            if "custom_id" in plain:
                plain["custom_id"] = game.ids.norm(plain["custom_id"])
            done.append({**plain, "seen": await game.seen(players)})
        table = game.table
        actions = [] if table is None else await bot.services.games.actions(table.id)
        out[flow.name] = {
            "steps": done,
            "actions": [a.notation for a in actions],
        }


async def command_tree() -> dict[str, Any]:
    """The global command tree as the bot publishes it: discord.py's payload with every
    translation (names, descriptions, options, choices in each locale), and the hash the bot
    keeps of what it published (:func:`bot.app.command_tree_hash`)."""
    async with running_bot() as (_, bot):
        tree = bot.tree
        translator = tree.translator
        assert translator is not None
        payload = [await c.get_translated_payload(tree, translator) for c in tree.get_commands()]
        text = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
        return {
            "command_tree_hash": command_tree_hash(tree),
            "translated_sha256": hashlib.sha256(text.encode()).hexdigest(),
            "payload": json.loads(text),
        }
