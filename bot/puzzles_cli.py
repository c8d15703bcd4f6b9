"""Puzzles in the terminal: ``kapshap puzzle`` (solve them) and ``kapshap puzzles build`` (make a
set).

* ``kapshap puzzle [--game G] [--seed N] [--lang L]``: one puzzle at a time from the shipped
  sets (:func:`bot.ai.puzzles.shipped`); type the move (``discard 6-5``, ``draw``, ``capture
  pair left``), then the answer and why; Enter or ``n`` for the next, ``q`` to stop. Nothing is
  stored: the ratings are the bot's.
* ``kapshap puzzles build --game G [--count N] [--seed N] [--workers N] [--out FILE]``:
  positions from simulated games kept where one move is clearly best (:mod:`bot.ai.puzzles`),
  written to the game's set in the package (``bot/ai/puzzle_sets/<game>.json``) or ``--out``;
  the same file for the same seed.

A refusal is one line on stderr with exit status 2.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any, NoReturn, TextIO

from bot.ai import puzzles as made
from bot.ai.puzzles import Puzzle, find_choice, shipped
from bot.engine import view
from bot.games import UnknownGame, find, games
from bot.limits import MAX_SEED, quote_input
from bot.locale import LOCALES, t
from bot.services.puzzle_text import explanation, margin_text
from bot.services.review_text import position_lines

__all__ = ["main", "main_build", "main_puzzle"]

MAX_COUNT = 5_000
"""Puzzles one build may make at most."""

MAX_WORKERS = 16
"""Worker processes of a build at most."""


class _Parser(argparse.ArgumentParser):
    """argparse whose refusals are one line on ``stream`` with exit status 2."""

    def __init__(self, *args: Any, stream: TextIO | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.stream = stream

    def error(self, message: str) -> NoReturn:
        """Refuse the command line in one line."""
        print(f"{self.prog}: {message} (see {self.prog} --help)", file=self.stream or sys.stderr)
        raise SystemExit(2)


def _bounded(low: int, high: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"must be a whole number from {low:,} to {high:,}, not {quote_input(text)}"
            )
        return value

    return parse


def _game(text: str) -> str:
    try:
        return find(text).name
    except UnknownGame as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _offered() -> list[str]:
    return [info.name for info in games() if shipped(info.name).puzzles]


def _ask(inp: TextIO, out: TextIO, prompt: str) -> str | None:
    print(prompt, end="", file=out, flush=True)
    line = inp.readline()
    return None if not line else line.strip()


def _show(puzzle: Puzzle, loc: str, out: TextIO) -> None:
    state, seat = puzzle.state()
    seen = view(state, seat)
    print(file=out)
    print(
        t(
            loc,
            "{game} puzzle #{number} · rating {rating}",
            game=t(loc, find(puzzle.game).short),
            number=puzzle.number + 1,
            rating=f"{round(puzzle.rating):,}",
        ),
        file=out,
    )
    for line in position_lines(seen, loc):
        print(f"   {line}", file=out)
    print(t(loc, made.question(puzzle.game, puzzle.kind)), file=out)
    print(t(loc, "Answers: {moves}", moves=", ".join(puzzle.choices)), file=out)


def main_puzzle(
    argv: list[str], inp: TextIO = sys.stdin, out: TextIO = sys.stdout, err: TextIO = sys.stderr
) -> int:
    """``kapshap puzzle``: solve the shipped puzzles one at a time."""
    parser = _Parser(
        stream=err,
        prog="kapshap puzzle",
        description="Solve puzzles: positions where one move is clearly the best.",
    )
    parser.add_argument("--game", type=_game, default=None, help="which game (default: any)")
    parser.add_argument("--seed", type=_bounded(0, MAX_SEED), default=None)
    parser.add_argument("--lang", choices=sorted(LOCALES), default="en")
    args = parser.parse_args(argv)
    loc: str = args.lang
    offered = _offered()
    if args.game is not None and args.game not in offered:
        print(f"kapshap puzzle: no puzzles of {args.game} are shipped.", file=err)
        return 2
    if not offered:
        print("kapshap puzzle: no puzzles are shipped.", file=err)
        return 2
    rng = random.Random(args.seed)
    solved = tried = 0
    while True:
        game = args.game if args.game is not None else rng.choice(offered)
        puzzle = rng.choice(shipped(game).puzzles)
        _show(puzzle, loc, out)
        while True:
            typed = _ask(inp, out, t(loc, "Your move (q to stop): "))
            if typed is None or typed.lower() in ("q", "quit"):
                print(t(loc, "Solved {solved} of {tried}.", solved=solved, tried=tried), file=out)
                return 0
            chosen = find_choice(puzzle, typed)
            if chosen is not None:
                break
            print(
                t(loc, "That is not one of the answers: {moves}", moves=", ".join(puzzle.choices)),
                file=out,
            )
        tried += 1
        if chosen == puzzle.best:
            solved += 1
            print(t(loc, "Right: {move} is the best move.", move=puzzle.best), file=out)
        else:
            print(
                t(
                    loc,
                    "Not quite: you chose {answer}; the best move is {move}.",
                    answer=chosen,
                    move=puzzle.best,
                ),
                file=out,
            )
        why = explanation(puzzle, None if chosen == puzzle.best else chosen, loc)
        if why:
            print(why, file=out)
        print(margin_text(puzzle, puzzle.best, puzzle.second, loc), file=out)
        command = f"kapshap analyse --position '{puzzle.typed}'"
        print(t(loc, "Check it: {command}", command=command), file=out)
        again = _ask(inp, out, t(loc, "Enter for the next puzzle, q to stop: "))
        if again is None or again.lower() in ("q", "quit"):
            print(t(loc, "Solved {solved} of {tried}.", solved=solved, tried=tried), file=out)
            return 0


def _default_out(game: str) -> Path:
    return Path(made.__file__).parent / "puzzle_sets" / f"{game}.json"


def main_build(argv: list[str], out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    """``kapshap puzzles build``: generate and verify a game's puzzle set."""
    parser = _Parser(
        stream=err,
        prog="kapshap puzzles build",
        description="Generate a game's puzzles from simulated games, each verified by "
        "play-outs to have one clearly best move (docs/commands.md, 'Puzzles').",
    )
    parser.add_argument("--game", type=_game, required=True)
    parser.add_argument("--count", type=_bounded(1, MAX_COUNT), default=300)
    parser.add_argument("--seed", type=_bounded(0, MAX_SEED), default=0)
    parser.add_argument("--workers", type=_bounded(1, MAX_WORKERS), default=1)
    parser.add_argument(
        "--screen", type=_bounded(100, 1_000_000), default=made.SCREEN, help="search play-outs"
    )
    parser.add_argument(
        "--budget",
        type=_bounded(100, 1_000_000),
        default=made.BUDGET,
        help="verification play-outs per candidate at most",
    )
    parser.add_argument("--out", default=None, help="file to write (default: the package's set)")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="go on from the set in the file (written after every batch: a build stopped "
        "half-way keeps what it verified)",
    )
    args = parser.parse_args(argv)
    target = Path(args.out) if args.out else _default_out(args.game)
    resume = None
    if args.resume and target.is_file():
        try:
            resume = made.loads(target.read_text(encoding="utf-8"))
        except (ValueError, KeyError, TypeError) as exc:
            print(f"kapshap puzzles build: cannot resume from {target}: {exc}", file=err)
            return 2
    started = time.monotonic()
    target.parent.mkdir(parents=True, exist_ok=True)

    def save(so_far: made.PuzzleSet) -> None:
        # Written whole to a file beside it, then moved over it: never half a set.
        part = target.with_suffix(".part")
        part.write_text(made.dumps(so_far), encoding="utf-8")
        part.replace(target)
        print(
            f"{args.game}: {len(so_far.puzzles):,} kept of {so_far.candidates:,} candidates "
            f"({time.monotonic() - started:,.0f} s)",
            file=err,
            flush=True,
        )

    try:
        result = made.build(
            args.game,
            args.count,
            seed=args.seed,
            screen=args.screen,
            budget=args.budget,
            workers=args.workers,
            progress=save,
            resume=resume,
        )
    except ValueError as exc:
        print(f"kapshap puzzles build: {exc}", file=err)
        return 2
    spent = time.monotonic() - started
    save(result)
    count = len(result.puzzles)
    print(
        f"{args.game}: {count:,} puzzles of {result.candidates:,} candidates in {spent:,.0f} s "
        f"({count / max(spent, 1e-9) * 60:,.1f} a minute; {result.spent / max(count, 1):,.0f} "
        f"play-outs per puzzle kept, the candidates dropped included) -> {target}",
        file=out,
    )
    return 0


def main(argv: list[str]) -> int:
    """``kapshap puzzles build …``."""
    if not argv or argv[0] != "build":
        print("Use: kapshap puzzles build --game GAME [--count N] [--seed N]", file=sys.stderr)
        return 2
    return main_build(argv[1:])
