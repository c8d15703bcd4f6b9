"""Game records in the terminal: ``kapshap record export``, ``replay``, ``review``, ``analyse``.

* ``kapshap record export GAME_ID [--db PATH] [-o FILE] [--force]``: a stored game as a record
  (``docs/record-format.md``), read through :mod:`bot.services.replays` (storage); a game still
  being played only with ``--force`` (its record shows every hand and the wall).
* ``kapshap replay FILE [--all]``: step through a record (Enter for the next action, ``q`` to
  stop; ``--all`` prints every step at once). The game is over, so every hand is shown.
* ``kapshap review FILE [--seat N] [--rollouts N] [--seed N] [--lang L]``: the seat's
  decisions judged against the best move (:mod:`bot.ai.review`), the named mistakes first with
  why, the position and the ``kapshap analyse --at N`` that opens it, then every decision in
  the game's order.
* ``kapshap analyse FILE [--at N] [--rollouts N]``: the position in which the record's action
  N was played (a record's deal and actions are the notation of a position; without ``--at``,
  after the last action), every legal action of the seat to play with its estimated chance to
  win, how much it trails the best and its verdict, the move played marked. ``kapshap analyse
  --position TEXT`` (or a FILE holding a position rather than a record) does the same for a
  position typed in the short notation of :mod:`bot.engine.position`: only what the seat to
  play can see.

Every number of the command line is bounded (:mod:`bot.limits`) and only regular files of at
most :data:`bot.limits.MAX_RECORD_BYTES` are read; a refusal is one line on stderr.
"""

from __future__ import annotations

import argparse
import os
import random
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TextIO

from bot.ai.levels import player_for
from bot.ai.review import (
    Decision,
    assess,
    decisions_of,
    default_rollouts,
    review_decision,
    review_rng,
)
from bot.engine import legal_actions, view
from bot.engine.family import Action, State, engine_of
from bot.engine.position import PositionError, parse_position, write_position
from bot.engine.record import GameRecord, RecordError, parse_record, replay, result_line
from bot.limits import (
    MAX_POSITION_CHARS,
    MAX_RECORD_BYTES,
    MAX_ROLLOUTS,
    MAX_SEED,
    MIN_ROLLOUTS,
    quote_input,
)
from bot.locale import LOCALES, t
from bot.services.review_text import (
    decision_line,
    expert_text,
    method_text,
    option_line,
    ordered,
    position_lines,
    reason_text,
    tally_text,
)

__all__ = ["main", "main_analyse", "main_record", "main_replay", "main_review"]


class _Parser(argparse.ArgumentParser):
    """argparse whose refusals are one line on stderr (``kapshap review: argument --rollouts:
    must be …``) with exit status 2, as argparse's own."""

    def __init__(self, *args: Any, stream: TextIO | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.stream = stream
        """Where the refusal goes (None: standard error)."""

    def error(self, message: str) -> NoReturn:
        """Refuse the command line in one line."""
        print(f"{self.prog}: {message} (see {self.prog} --help)", file=self.stream or sys.stderr)
        raise SystemExit(2)


class _UsageError(Exception):
    """A command line that reads but asks for something the file does not have (exit 2)."""


def _whole(low: int, high: int, what: str) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high`` (``what`` it counts)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None  # not a number (or thousands of digits long)
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"must be a whole number from {low:,} to {high:,} ({what}), not {quote_input(text)}"
            )
        return value

    return parse


_ROLLOUTS = _whole(MIN_ROLLOUTS, MAX_ROLLOUTS, "play-outs per decision")
_SEED = _whole(0, MAX_SEED, "a random seed")


def _shown(path: str) -> str:
    """A path as one line of an error message."""
    return "".join(char if char.isprintable() else "?" for char in path)


def _read_text(path: str, err: TextIO) -> str | None:
    """The text of a record or position file, or None after saying why not in one line.

    Only a regular file of at most :data:`~bot.limits.MAX_RECORD_BYTES` is read: a FIFO, a
    device (``/dev/zero``) or a directory is refused before anything is read from it (the file
    is opened without blocking and checked on the open descriptor, so it cannot be swapped
    between the check and the read).
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        print(f"Cannot read {_shown(path)}: {exc.strerror}.", file=err)
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            print(f"Cannot read {_shown(path)}: not a regular file.", file=err)
            return None
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_RECORD_BYTES:
            chunk = os.read(fd, MAX_RECORD_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        print(f"Cannot read {_shown(path)}: {exc.strerror}.", file=err)
        return None
    finally:
        os.close(fd)
    if size > MAX_RECORD_BYTES:
        print(
            f"Cannot read {_shown(path)}: larger than {MAX_RECORD_BYTES:,} bytes, so not a "
            "record (a whole game of 20 seats is about 6 KB).",
            file=err,
        )
        return None
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError:
        print(f"Cannot read {_shown(path)}: not UTF-8 text.", file=err)
        return None


def _read(path: str, err: TextIO, text: str | None = None) -> GameRecord | None:
    """The record in file ``path`` (whose ``text`` the caller may have read already)."""
    if text is None:
        text = _read_text(path, err)
        if text is None:
            return None
    try:
        return parse_record(text)
    except RecordError as exc:
        print(f"{_shown(path)}: {exc}", file=err)
        return None


def _position(state: State) -> list[str]:
    """Every seat's hand (or points) and the table, in the words of the game's family."""
    return engine_of(state.rules.game).position_lines(state, None)


def main_replay(
    argv: list[str], inp: TextIO = sys.stdin, out: TextIO = sys.stdout, err: TextIO = sys.stderr
) -> int:
    """``kapshap replay FILE``."""
    parser = _Parser(prog="kapshap replay", description="Step through a record.", stream=err)
    parser.add_argument("file")
    parser.add_argument("--all", action="store_true", help="print every step without waiting")
    args = parser.parse_args(argv)
    record = _read(args.file, err)
    if record is None:
        return 1
    from bot.engine import describe_event, new_game

    state = new_game(record.rules, record.names, record.deal)
    print(
        f"{record.rules.describe()}; {record.names[record.deal.first_seat]} plays first.", file=out
    )
    print("\n".join(_position(state)), file=out)
    for step in replay(record):
        if not args.all:
            print("[Enter: next, q: quit] ", end="", file=out, flush=True)
            answer = inp.readline()
            if not answer or answer.strip().lower() == "q":
                return 0
        print(f"\n{step.number}. {record.names[step.seat]}: {step.action}", file=out)
        for event in step.events:
            print(f"   {describe_event(event, step.seat, record.names)}", file=out)
        print("\n".join(_position(step.state)), file=out)
    print(f"\nResult: {result_line(step.state if record.actions else state)}", file=out)
    return 0


def _lang(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang",
        choices=LOCALES,
        default="en",
        help="language of the review: en, zh-TW (Traditional Chinese), zh-CN (Simplified)",
    )


def main_review(argv: list[str], out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    """``kapshap review FILE``."""
    parser = _Parser(
        prog="kapshap review",
        description="Review a seat's decisions: each judged against the best move by "
        "play-outs of the tiles it could not see; mistakes first, with the position.",
        stream=err,
    )
    parser.add_argument("file")
    parser.add_argument("--seat", type=int, default=0, help="the seat to review (default 0)")
    parser.add_argument(
        "--rollouts",
        type=_ROLLOUTS,
        default=None,
        help="play-outs a decision may spend at most (default: the game's)",
    )
    parser.add_argument("--seed", type=_SEED, default=0)
    _lang(parser)
    args = parser.parse_args(argv)
    loc: str = args.lang
    record = _read(args.file, err)
    if record is None:
        return 1
    if not 0 <= args.seat < record.rules.players:
        print(f"Seat {args.seat} is not at this table.", file=err)
        return 2
    numbers = decisions_of(record, args.seat)
    decisions: list[Decision] = []
    for i, number in enumerate(numbers, 1):
        print(f"\rReviewing decision {i} of {len(numbers)}…", end="", file=err, flush=True)
        decisions.append(review_decision(record, number, args.rollouts, args.seed))
    if numbers:
        print("", file=err)
    budget = args.rollouts if args.rollouts is not None else default_rollouts(record.rules)
    name = record.names[args.seat]
    print(
        t(
            loc,
            "{name} (seat {seat}): {tally}",
            name=name,
            seat=args.seat,
            tally=tally_text(decisions, loc),
        ),
        file=out,
    )
    if not decisions:
        return 0
    print(method_text(budget, loc), file=out)
    for d in ordered(decisions):
        print(f"\n{decision_line(d, loc)}", file=out)
        reason = reason_text(d, loc)
        if reason is not None:
            print("    " + t(loc, "Why: {reason}", reason=reason), file=out)
        if d.position is not None:
            for line in position_lines(d.position, loc):
                print(f"    {line}", file=out)
        print(f"    {expert_text(d, loc)}", file=out)
        print(
            "    "
            + t(
                loc,
                "Study it: {command}",
                command=f"`kapshap analyse {_shown(args.file)} --at {d.number}`",
            ),
            file=out,
        )
    print("\n" + t(loc, "Every decision, in the game's order:"), file=out)
    for d in decisions:
        print(f"  {decision_line(d, loc)}", file=out)
    return 0


@dataclass(frozen=True, slots=True)
class _Position:
    """A position to analyse: the state, the seat to play, and, from a record, the number of
    the action played there and that action (None for a typed position or the record's end)."""

    state: State
    seat: int
    number: int | None = None
    played: Action | None = None
    typed: str | None = None


def _load_position(args: argparse.Namespace, err: TextIO) -> _Position | None:
    """The position to analyse, or None after saying why not."""
    text: str | None = args.position
    if text is not None and len(text) > MAX_POSITION_CHARS:
        print(f"Position: longer than {MAX_POSITION_CHARS:,} characters.", file=err)
        return None
    if text is None:
        if args.file is None:
            print("Give a record FILE or --position TEXT.", file=err)
            return None
        text = _read_text(args.file, err)
        if text is None:
            return None
        if text.lstrip().lower().startswith("kapshap record"):
            record = _read(args.file, err, text)
            if record is None:
                return None
            return _record_position(record, args.at)
    if args.at is not None:
        raise _UsageError("--at is for a record; a position is one position already.")
    try:
        state, seat = parse_position(text)
    except PositionError as exc:
        print(f"Position: {exc}.", file=err)
        return None
    if not legal_actions(state):
        print("Position: the seat to play has no legal action.", file=err)
        return None
    return _Position(state, seat)


def _record_position(record: GameRecord, at: int | None) -> _Position:
    """The position of a record in which action ``at`` is played (None: after the last)."""
    last = len(record.actions) + 1
    if at is not None and not 1 <= at <= last:
        raise _UsageError(
            f"--at must be from 1 (the deal) to {last} (after the last action), not {at}."
        )
    number = last if at is None else at
    from bot.engine import new_game

    state: State = new_game(record.rules, record.names, record.deal)
    played: Action | None = None
    for step in replay(record):
        if step.number == number:
            played = step.action
            break
        state = step.state
    try:
        typed = write_position(state).strip().replace("\n", "; ")
    except PositionError:
        typed = None  # a compulsory draw or pending claims: no notation, nothing to show
    return _Position(state, state.current, number, played, typed)


def main_analyse(argv: list[str], out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    """``kapshap analyse FILE`` or ``kapshap analyse --position TEXT``."""
    parser = _Parser(
        stream=err,
        prog="kapshap analyse",
        description="Every legal action's chance to win in a position given as a record "
        "or in position notation (docs/record-format.md), judged against the best one.",
    )
    parser.add_argument(
        "file", nargs="?", help="a record (the position is after its actions) or a position"
    )
    parser.add_argument(
        "--at",
        type=int,
        default=None,
        help="the position in which the record's action N is played (1: the deal; the "
        "numbers of kapshap review); default: after the last action",
    )
    parser.add_argument("-p", "--position", default=None, help="a position, e.g. 'kap-shap; ...'")
    parser.add_argument(
        "--rollouts",
        type=_ROLLOUTS,
        default=None,
        help="play-outs the position may spend at most (default: the game's)",
    )
    parser.add_argument("--seed", type=_SEED, default=0)
    _lang(parser)
    args = parser.parse_args(argv)
    loc: str = args.lang
    try:
        loaded = _load_position(args, err)
    except _UsageError as exc:
        print(exc, file=err)
        return 2
    if loaded is None:
        return 1
    state, seat = loaded.state, loaded.seat
    if state.result is not None:
        print(f"The game is over: {result_line(state)}.", file=err)
        return 2
    legal = legal_actions(state)
    seen = view(state, seat)
    for line in position_lines(seen, loc):
        print(f"   {line}", file=out)
    if loaded.typed is not None:
        print(f"   {t(loc, 'As a position (--position): {text}', text=loaded.typed)}", file=out)
    name = state.seats[seat] if loaded.number is not None else t(loc, "Seat {seat}", seat=seat)
    if loaded.number is not None:
        where = t(
            loc,
            "Before action {number} (turn {turn}): {name} to play; chance to win after each "
            "move, the best first:",
            number=loaded.number,
            turn=state.turn,
            name=name,
        )
    else:
        where = t(
            loc,
            "{name} to play (turn {turn}); chance to win after each move, the best first:",
            name=name,
            turn=state.turn,
        )
    print(where, file=out)
    expert = player_for(state.rules.game, "expert").choose(seen, legal, random.Random(args.seed))
    budget = args.rollouts if args.rollouts is not None else default_rollouts(state.rules)
    result = assess(
        state,
        seat,
        rollouts=budget,
        rng=review_rng(args.seed, loaded.number or 0),
        played=loaded.played,
        expert=expert,
    )
    for option in result.options:
        print(option_line(option, loc, played=result.played, expert=result.expert), file=out)
    print(method_text(budget, loc), file=out)
    return 0


def main_record(argv: list[str], out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    """``kapshap record export GAME_ID``."""
    parser = _Parser(prog="kapshap record", description="Game records.", stream=err)
    sub = parser.add_subparsers(dest="verb", required=True, parser_class=_Parser)
    export = sub.add_parser("export", help="write a stored game as a record", stream=err)
    export.add_argument("game_id")
    export.add_argument(
        "--db",
        default=None,
        help="database file or postgresql:// URL (default: the settings', DATABASE_URL first)",
    )
    export.add_argument(
        "--env-file", type=Path, default=Path(".env"), help="settings file (default: .env)"
    )
    export.add_argument("-o", "--output", default=None, help="file to write (default: stdout)")
    export.add_argument(
        "--force",
        action="store_true",
        help="export a game still being played (its record shows every hand and the wall)",
    )
    args = parser.parse_args(argv)
    import asyncio

    from bot.config import ConfigError, database_target
    from bot.services.errors import UserError
    from bot.services.replays import ReplayService
    from bot.storage.db import Database, is_database_url, mask_url
    from bot.storage.errors import StorageError
    from bot.storage.games import GamesRepo

    db_path: str | Path
    try:
        if args.db:
            db_path = args.db if is_database_url(args.db) else Path(args.db)
        else:
            db_path = database_target(args.env_file)
    except ConfigError as exc:
        print(f"Settings: {exc}", file=err)
        return 1
    if isinstance(db_path, Path) and not db_path.exists():
        print(f"No database at {_shown(str(db_path))}.", file=err)
        return 1
    shown = mask_url(db_path)

    class Refused(Exception):
        """A one-line refusal of the export."""

    async def export_text() -> str:
        db = await Database.open(db_path)
        try:
            games = GamesRepo(db)
            stored = await games.get(args.game_id)
            if stored is None:
                raise Refused(f"There is no game {quote_input(args.game_id)} in {shown}.")
            running = stored.status.is_open and stored.deal_json is not None
            if running and not args.force:
                raise Refused(
                    f"Game {stored.id} is still being played: its record shows every hand and "
                    "the wall. Add --force to export it anyway."
                )
            game = await ReplayService(games).load(stored.id, stored.guild_id, finished=False)
            if running:
                print(
                    f"Game {stored.id} is still being played: this record shows every hand and "
                    "the wall.",
                    file=err,
                )
            return game.text
        finally:
            await db.close()

    try:
        text = asyncio.run(export_text())
    except Refused as exc:
        print(exc, file=err)
        return 1
    except UserError as exc:
        print(exc.message, file=err)
        return 1
    except StorageError as exc:
        print(exc, file=err)
        return 1
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            print(f"Cannot write {_shown(args.output)}: {exc.strerror}.", file=err)
            return 1
    else:
        out.write(text)
    return 0


def main(argv: list[str]) -> int:
    """Dispatch on the first word (used by tests): ``record``, ``replay``, ``review``,
    ``analyse``."""
    verb, rest = (argv[0], argv[1:]) if argv else ("", [])
    commands: dict[str, Callable[[list[str]], int]] = {
        "record": main_record,
        "replay": main_replay,
        "review": main_review,
        "analyse": main_analyse,
    }
    if verb not in commands:
        print("Use: record | replay | review | analyse", file=sys.stderr)
        return 2
    return commands[verb](rest)
