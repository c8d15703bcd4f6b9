"""Words the bot shows on Discord: limits of command texts, the lobby, the table's Recent lines."""

from __future__ import annotations

from discord import app_commands

from tests.discord.conftest import World
from tests.discord.tables_kit import (
    message_text,
    no_incidents,  # noqa: F401  (autouse: no error logged)
    table_of,
)


def _walk(commands: list[app_commands.Command | app_commands.Group]) -> list[tuple[str, str]]:
    """(where, text) of every description, option description and choice name."""
    out: list[tuple[str, str]] = []
    for command in commands:
        out.append((command.qualified_name, command.description))
        if isinstance(command, app_commands.Group):
            out += _walk(list(command.commands))
            continue
        for param in command.parameters:
            out.append((f"{command.qualified_name} {param.name}", param.description))
            out += [(f"{command.qualified_name} {param.name}", c.name) for c in param.choices]
    return out


async def test_every_command_text_fits_discords_100_characters(world: World) -> None:
    texts = _walk(list(world.bot.tree.get_commands()))
    assert len(texts) > 50
    too_long = [(where, len(text)) for where, text in texts if len(text) > 100]
    assert too_long == []
    described = dict(texts)
    assert described["table"] == "Tables of Kap Shap, Kap Tai Shap and Tsung Shap"
    levels = [text for where, text in texts if where == "table addbot level"]
    assert any(text.startswith("expert — strong") for text in levels), levels
    assert any(text.startswith("random — beginner") for text in levels), levels


async def test_the_lobby_writes_amounts_and_timers_for_people(world: World) -> None:
    alice = world.members[0]
    r = await alice.slash(world.channel, "table new", ante=5000, timer=86_400)
    text = message_text(r.response)
    assert "ante **5,000** chips" in text and "turn timer 1 day" in text
    r = await alice.slash(world.channel, "table start")
    assert r.response.content == (
        "At least two players are needed: ask someone to join, or add an AI."
    )


async def test_recent_lines_are_moves_not_turn_headers(world: World) -> None:
    ch = world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new", ante=0)
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    table = table_of(world)
    for _ in range(6):
        await world.env.advance_time(table.turn_seconds + 1)  # the timer plays each turn
    assert sum("discarded" in line for line in table.recent) >= 3
    assert not any(line.startswith("Turn ") and "to play" in line for line in table.recent)
    await world.env.advance_time(1)
    [embed] = ch.history()[0].embeds
    [recent] = [f.value for f in embed.fields if f.name == "Recent"]
    assert "to play." not in recent
