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
    assert any(text.startswith("Expert — never slips") for text in levels), levels
    assert any(text.startswith("Beginner — first games") for text in levels), levels
    assert not any(text.startswith("Random") for text in levels), levels


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


async def test_variants_are_chosen_shown_refused_and_the_carried_pot_is_counted(
    world: World,
) -> None:
    ch = world.channel
    alice, bob = world.members[:2]
    offered = await alice.autocomplete(ch, "table new", "variant", "pot")
    assert "pot_carries_over=true" in [c["value"] for c in offered]
    offered = await alice.autocomplete(ch, "table new", "variant", "", game="tsung-shap")
    assert "auto_capture=true" in [c["value"] for c in offered]

    # The engine's reason for a combination that does not work; unknown flags; own options.
    r = await alice.slash(ch, "table new", rules="classic", variant="exclude_own_discards=true")
    assert r.ephemeral and "exclude_own_discards applies only when any discard may be taken" in (
        r.response.content
    )
    r = await alice.slash(ch, "table new", variant="colour=red")
    assert r.ephemeral and r.response.content.startswith("No variant 'colour' for this game")
    r = await alice.slash(ch, "table new", variant="sets=3")
    assert r.ephemeral and "`sets` option" in r.response.content
    r = await alice.slash(ch, "table new", variant="x" * 1900)
    assert r.ephemeral and len(r.response.content) < 300

    # Shown in the lobby and in /table rules.
    r = await alice.slash(ch, "table new", ante=10, variant="pot_carries_over=true max_turns=1")
    assert not r.ephemeral
    assert "hand of 8 · pot_carries_over=true, max_turns=1" in message_text(r.response)
    r = await bob.slash(ch, "table rules")
    assert "**Variants:** `pot_carries_over=true` · `max_turns=1`" in message_text(r.response)
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    table = table_of(world)
    assert table.rules is not None and table.rules.pot_carries_over
    while table.running:  # the timer plays alice's single turn; the turn cap draws the game
        await world.env.advance_time(table.turn_seconds + 1)
    assert table.state is not None and table.state.result is not None
    assert table.state.result.winner is None

    # The next game at this table adds its antes to the 20 chips carried over.
    await alice.slash(ch, "table new", ante=10, variant="pot_carries_over=true")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    table = table_of(world)
    assert table.pot == 40
    await world.env.advance_time(1)
    assert any("· ante 10 · pot 40" in message_text(m) for m in ch.history())
