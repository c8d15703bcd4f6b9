"""``kapshap ratings``: recompute or inspect the skill ratings without starting the bot.

``kapshap ratings rebuild`` replays every finished game stored in the database and recomputes
every rating (the order and the arithmetic are the live ones, so without new parameters the
result is identical: it says so). With ``--mu/--sigma/--beta/--tau/--scale/--base/--centre`` it
switches the bot to those model parameters. Run it while the bot is stopped: only one process
may open a database. The database is the bot's (``DATABASE_URL`` or ``KAPSHAP_DB_PATH``, from the
environment and ``.env`` as ``kapshap run`` reads them) unless ``--path`` names a file.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.config import ConfigError, database_target
from bot.services.clock import SystemClock
from bot.services.ratings import RatingService, params_with
from bot.storage.db import Database, mask_url

__all__ = ["main"]

_PARAMS = ("mu", "sigma", "beta", "tau", "base", "scale", "centre")


async def _rebuild(path: str | Path, overrides: dict[str, float]) -> int:
    db = await Database.open(path)
    try:
        ratings = RatingService(db, SystemClock())
        current = await ratings.model_params()
        try:
            params = params_with(current, overrides) if overrides else None
        except ValueError as exc:
            print(f"kapshap ratings: {exc}", file=sys.stderr)
            return 2
        before = await ratings.all_ratings()
        games = await ratings.rebuild(params)
        after = await ratings.all_ratings()
    finally:
        await db.close()
    members = len({(m.guild_id, m.user_id) for m in after})
    print(f"{mask_url(path)}: {games:,} games recorded, {members:,} members rated")
    if params is not None:
        print(f"model: {params.to_json()}")
    elif after == before:
        print("every rating is identical to the live one")
    else:
        print("some ratings changed (games that were never recorded live are now included)")
    return 0


async def _show(path: str | Path) -> int:
    db = await Database.open(path)
    try:
        params = await RatingService(db, SystemClock()).model_params()
    finally:
        await db.close()
    print(f"model: {params.to_json()}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """``kapshap ratings rebuild [--beta X …] [--path FILE]``, ``kapshap ratings model``."""
    parser = argparse.ArgumentParser(
        prog="kapshap ratings", description="Recompute or inspect the skill ratings."
    )
    parser.add_argument(
        "command",
        choices=("rebuild", "model"),
        help="rebuild: recompute every rating from the stored games (optionally with new model "
        "parameters); model: print the model parameters in force",
    )
    parser.add_argument(
        "--path",
        type=Path,
        help="database file (default: the bot's, DATABASE_URL or KAPSHAP_DB_PATH, from the "
        "environment and the settings file)",
    )
    parser.add_argument(
        "--env-file", type=Path, default=Path(".env"), help="settings file (default: .env)"
    )
    for name in _PARAMS:
        parser.add_argument(f"--{name}", type=float, help=f"rebuild with this {name}")
    args = parser.parse_args(argv)
    try:
        path = database_target(args.env_file) if args.path is None else args.path
    except ConfigError as exc:
        print(f"kapshap ratings: {exc}", file=sys.stderr)
        return 2
    if isinstance(path, Path) and not path.exists():
        print(f"kapshap ratings: {path} does not exist", file=sys.stderr)
        return 2
    overrides = {n: getattr(args, n) for n in _PARAMS if getattr(args, n) is not None}
    if args.command == "model":
        if overrides:
            print("kapshap ratings: model parameters go with `rebuild`", file=sys.stderr)
            return 2
        return asyncio.run(_show(path))
    return asyncio.run(_rebuild(path, overrides))
