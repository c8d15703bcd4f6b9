"""``kapshap demo``: the whole bot on a simulated Discord server, played in the browser.

A second composition root beside :mod:`bot.app`: the same bot (:func:`bot.app.create_bot`, every
cog, the real services, a SQLite file of its own in a temporary directory) runs against simcord's
in-memory Discord instead of discord.com, and simcord's preview draws that Discord in a browser:
messages, embeds, pictures, buttons, selects and a composer for the slash commands, each as the
chosen member sees them. No token and no network: everything stays in this process.

**The scene.** A server ("Kap Shap Club") with a few channels and members; a short welcome message
in the first channel says what to try.

**Views.** A simcord preview session shows one channel, as one of the members it lists, and only
one session may be open at a time. So the demo serves its own page at ``--host``/``--port``: it
forwards every request to the current preview session (simcord binds it to 127.0.0.1 on a port of
its own and checks the Host header, hence the rewriting), and adds a bar at the top to act as
another member or to go to another channel or to the member's direct messages with the bot (where
his hand arrives). Changing the view closes the session and opens the one asked for; the page
reloads on it.

**Who may ask.** The page holds the session's capability (simcord's key to act as the members),
so the demo answers only requests addressed to it: the Host header must name the address it
serves (a page elsewhere that points a name of its own at this machine, DNS rebinding, gets a 421)
and a request a page of another site makes (its Origin, or the browser's Sec-Fetch-Site) gets a
403. The capability is in the page itself, which another site cannot read, never in a script
another page could include; a change of view is a POST. simcord's own checks stay: the demo
forwards a request as if from the session's address only once it passed these.

**Time.** simcord's clock is virtual: it moves only when told. A driver advances it with the
wall clock (turn timers and the bot's coalesced table edits run as on Discord) and republishes
the pages when the bot changed something on its own, e.g. a computer player moved after a timer.
Browser actions and the driver take turns through one lock, because simcord runs one operation at
a time.
"""

from __future__ import annotations

from bot.demo.cli import build_parser, main, running_demo, serve
from bot.demo.commands import CommandNames, typed_command
from bot.demo.scene import CHANNELS, GUILD_ID, MEMBERS, WELCOME, DemoView, demo_settings, welcome
from bot.demo.server import Demo
from bot.demo.web import PREFIX, allowed_hosts, inject

__all__ = [
    "CHANNELS",
    "GUILD_ID",
    "MEMBERS",
    "PREFIX",
    "WELCOME",
    "CommandNames",
    "Demo",
    "DemoView",
    "allowed_hosts",
    "build_parser",
    "demo_settings",
    "inject",
    "main",
    "running_demo",
    "serve",
    "typed_command",
    "welcome",
]
