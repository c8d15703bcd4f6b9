"""The bot on simcord for the end-to-end Chinese tests (the fixtures of tests/discord)."""

from tests.discord.conftest import env, locales, restart, settings, simcord_bot  # noqa: F401
