"""The bot's Discord surface, pinned for the refactor of issue 19: the custom ids of the
buttons and selects it posts (messages in servers keep them, so clicks on them must keep
working) and the slash command tree it publishes (see :mod:`tests.compat.discord_flows`)."""

from __future__ import annotations

from typing import Any

from tests.compat import discord_flows
from tests.compat.pinning import check_json, check_text, fail, read_json_pin


def _steps(pinned: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    return {name: flow["steps"] for name, flow in pinned.items()}


def _progress(step: dict[str, Any]) -> list[Any]:
    """What a step did to the table (or why it could not be made)."""
    if "broken" in step:
        return [step["broken"]]
    return [step["seen"]["version"], step["seen"]["status"]]


async def test_the_bot_posts_the_pinned_custom_ids() -> None:
    pinned = read_json_pin("discord/flows.json")
    played = await discord_flows.run_flows(_steps(pinned))
    assert list(played) == list(pinned)
    for name, flow in played.items():
        for step in flow["steps"]:
            if "broken" in step:
                fail(f"the {name} game, clicking the pinned custom ids: {step['broken']}")
        what = f"the {name} game's custom ids (table message, hand DMs, private replies)"
        check_json("discord/flows.json", flow, what, pinned[name])


async def test_clicks_on_the_pinned_custom_ids_still_act() -> None:
    # Each click is made on a component carrying the pinned id, as on a message posted before
    # an upgrade; what follows (the table's version and status, the stored actions) must be
    # the pinned game's, whatever ids the bot draws now.
    pinned = read_json_pin("discord/flows.json")
    played = await discord_flows.run_flows(_steps(pinned), inject=True)
    for name, flow in played.items():
        progress = [_progress(s) for s in flow["steps"]]
        expected = [_progress(s) for s in pinned[name]["steps"]]
        what = f"the {name} game clicked with the pinned custom ids (version, status per step)"
        check_json("discord/flows.json", progress, what, expected)
        what = f"the actions the {name} game stored, clicked with the pinned custom ids"
        check_json("discord/flows.json", flow["actions"], what, pinned[name]["actions"])


async def test_the_command_tree_is_the_pinned_one() -> None:
    pinned = read_json_pin("discord/command_tree.json")
    tree = await discord_flows.command_tree()
    check_json("discord/command_tree.json", tree["payload"], "the published commands",
               pinned["payload"])  # fmt: skip
    check_text(
        "discord/command_tree.json",
        tree["command_tree_hash"] + "\n",
        "the bot's hash of its command tree (kept in the database: a change re-syncs)",
        pinned["command_tree_hash"] + "\n",
    )
    assert tree["translated_sha256"] == pinned["translated_sha256"]
