"""Game records: a whole game as plain text, written and read back (``docs/record-format.md``).

A record holds what is needed to play a game again through the engine: every rule flag, the
seats, the deal (every tile in dealing order) and the actions in the engine's notation, plus a
few informative tags (the game's id, server, date, result). It is to these games what PGN is to
chess: meant to be read by people and by programs.

* :func:`write_record` turns a :class:`GameRecord` into text; :func:`parse_record` reads it back
  and raises :class:`RecordError` naming the line of anything it cannot read.
* :func:`replay` plays a record's actions through :func:`bot.engine.new_game` and
  :func:`bot.engine.apply`; an action the rules refuse is a :class:`RecordError` naming its line.

The deal is written as tiles, not piece numbers: the pieces of one kind are interchangeable, so a
record read back deals each kind's copies in piece order (:func:`deal_from_order`). The game it
plays is the same tile for tile; only the internal piece numbers may differ.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from bot.engine.actions import AnyAction, parse_action, parse_fishing_action
from bot.engine.api import AnyEvent, AnyState, apply, new_game
from bot.engine.deal import Deal
from bot.engine.errors import EngineError, RulesError
from bot.engine.fishing import FishingResult
from bot.engine.rules import Game, RuleSet
from bot.engine.tiles import PIECE_KINDS, PIECES_PER_SET, Tile, kind_of_piece, parse_tile

__all__ = [
    "FORMAT_LINE",
    "GameRecord",
    "RecordError",
    "RecordSeat",
    "ReplayStep",
    "deal_from_order",
    "final_state",
    "parse_record",
    "replay",
    "result_line",
    "write_record",
]

FORMAT_LINE = "Kapshap record 1"
"""The first line of every record: the format and its version."""

_TAGS = ("Id", "Server", "Channel", "Date", "Result")
"""Informative tags, in the order they are written (all optional)."""


class RecordError(EngineError, ValueError):
    """A record that does not parse or does not replay; ``line`` is its 1-based line number
    (0 when the problem is not on one line, e.g. a missing header)."""

    def __init__(self, line: int, message: str) -> None:
        where = f"line {line}: " if line else ""
        super().__init__(f"{where}{message}")
        self.line = line
        self.reason = message


@dataclass(frozen=True, slots=True)
class RecordSeat:
    """One seat of a record: the name shown, and who sat there.

    ``kind`` is ``member`` (a Discord member, ``ident`` his id), ``ai`` (``ident`` the level)
    or ``player`` (anyone else, e.g. the terminal's human; ``ident`` empty).
    """

    name: str
    kind: str = "player"
    ident: str = ""

    def __str__(self) -> str:
        if self.kind == "player":
            return f"{self.name} (player)"
        return f"{self.name} ({self.kind} {self.ident})"


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game as its record holds it. ``actions`` are in the engine's notation, in order."""

    rules: RuleSet
    seats: tuple[RecordSeat, ...]
    deal: Deal
    actions: tuple[str, ...]
    tags: Mapping[str, str] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        """The seat names in play order."""
        return [s.name for s in self.seats]


# ---------------------------------------------------------------------------------------------
# Writing


def result_line(state: AnyState) -> str:
    """The ``Result`` tag of a state: ``seat 1 wins (declared, draw)``, ``drawn (wall)``,
    ``seat 0 wins 120-90 (pile)`` or ``unfinished``."""
    result = state.result
    if result is None:
        return "unfinished"
    if isinstance(result, FishingResult):
        scores = "-".join(str(s) for s in result.scores)
        if result.winner is None:
            return f"drawn {scores} ({result.reason})"
        return f"seat {result.winner} wins {scores} ({result.reason})"
    if result.winner is None:
        return f"drawn ({result.reason})"
    how = f", {result.win_by}" if result.win_by is not None else ""
    return f"seat {result.winner} wins ({result.reason}{how})"


def write_record(record: GameRecord, *, final: AnyState | None = None) -> str:
    """The text of ``record``. The ``Result`` tag is computed by replaying it (or taken from
    ``final``, the state its actions lead to, when the caller has it already)."""
    tags = dict(record.tags)
    if final is None:
        final = final_state(record)
    tags["Result"] = result_line(final)
    lines = [FORMAT_LINE, f"Game: {record.rules.game}"]
    for tag in _TAGS:
        if tags.get(tag):
            lines.append(f"{tag}: {_one_line(tags[tag])}")
    for flag, value in record.rules.flags().items():
        if flag == "game":
            continue
        lines.append(f"Rule {flag}: {_flag_text(value)}")
    for index, seat in enumerate(record.seats):
        lines.append(f"Seat {index}: {_one_line(str(seat))}")
    deal = record.deal
    lines.append(f"First: {deal.first_seat}")
    lines.append(f"Thrower: {deal.thrower}")
    lines.append("Dice: " + (" ".join(str(d) for d in deal.dice) if deal.dice else "none"))
    lines += _deal_comment(record)
    lines.append("Deal: " + " ".join(str(kind_of_piece(p)) for p in deal.order))
    lines.append("")
    lines.append("Actions:")
    seat_of = _seats_of_actions(record)
    for number, (notation, mover) in enumerate(zip(record.actions, seat_of, strict=True), 1):
        name = _one_line(record.seats[mover].name)
        lines.append(f"{number}. seat {mover}: {notation}  ; {name}")
    lines.append("")
    return "\n".join(lines)


def _flag_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _one_line(text: str) -> str:
    # A name or tag never breaks the line structure (nor starts a comment).
    return " ".join(text.replace(";", ",").split())


def _deal_comment(record: GameRecord) -> list[str]:
    """Comment lines saying how the deal is split (who gets which tiles), for a reader."""
    rules, deal = record.rules, record.deal
    tiles = [str(kind_of_piece(p)) for p in deal.order]
    out: list[str] = []
    pos = 0
    for offset in range(rules.players):
        seat = (deal.first_seat + offset) % rules.players
        if rules.game is Game.TSUNG_SHAP:
            size, what = rules.pile_size, "pile"
        else:
            size = rules.hand_size if offset == 0 else rules.hand_size - 1
            what = "hand"
        out.append(f"; {what} of seat {seat}: {' '.join(tiles[pos : pos + size])}")
        pos += size
    if rules.game is not Game.TSUNG_SHAP:
        out.append(f"; wall, in drawing order: {' '.join(tiles[pos:])}")
    return out


def _seats_of_actions(record: GameRecord) -> list[int]:
    return [step.seat for step in replay(record)]


# ---------------------------------------------------------------------------------------------
# Reading

_LINE_RE = re.compile(r"^(?P<key>[A-Za-z][A-Za-z _0-9]*?)\s*:\s*(?P<value>.*)$")
_SEAT_RE = re.compile(r"^(?P<name>.*?)\s*\((?P<who>member \d+|ai [\w-]+|player)\)$")
_ACTION_RE = re.compile(r"^(?P<number>\d+)\.\s*seat\s+(?P<seat>\d+)\s*:\s*(?P<action>.+)$")


@dataclass(slots=True)
class _Parsed:
    game: str | None = None
    tags: dict[str, str] = field(default_factory=dict)
    flags: dict[str, str] = field(default_factory=dict)
    flag_lines: dict[str, int] = field(default_factory=dict)
    seats: dict[int, tuple[RecordSeat, int]] = field(default_factory=dict)
    first: tuple[int, int] | None = None
    thrower: tuple[int, int] | None = None
    dice: tuple[tuple[int, ...], int] | None = None
    deal: tuple[list[Tile], int] | None = None
    actions: list[tuple[str, int, int]] = field(default_factory=list)  # (text, seat, line)
    lines: dict[str, int] = field(default_factory=dict)


def _strip(line: str) -> str:
    if line.lstrip().startswith("#"):
        return ""
    return line.split(";", 1)[0].strip()


def _int(value: str, line: int, what: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise RecordError(line, f"{what} must be a whole number, not '{value[:40]}'") from None


def parse_record(text: str) -> GameRecord:
    """Read a record; raises :class:`RecordError` naming the line of the first problem.

    The record is also replayed (every action must be legal, by the seat named, and the
    ``Result`` tag, if any, must match), so a record that parses is one that plays.
    """
    lines = text.splitlines()
    start = next((i for i, raw in enumerate(lines) if _strip(raw)), None)
    if start is None:
        raise RecordError(0, "The record is empty")
    if _strip(lines[start]) != FORMAT_LINE:
        raise RecordError(start + 1, f"A record starts with '{FORMAT_LINE}'")
    parsed = _Parsed()
    in_actions = False
    for index in range(start + 1, len(lines)):
        number = index + 1
        line = _strip(lines[index])
        if not line:
            continue
        if in_actions:
            _read_action(parsed, line, number)
            continue
        if line == "Actions:":
            in_actions = True
            continue
        _read_header(parsed, line, number)
    return _build(parsed, text)


def _read_action(parsed: _Parsed, line: str, number: int) -> None:
    match = _ACTION_RE.match(line)
    if match is None:
        raise RecordError(number, "An action line reads '<n>. seat <s>: <action>'")
    expected = len(parsed.actions) + 1
    if int(match["number"]) != expected:
        raise RecordError(number, f"Action {match['number']} is out of order: expected {expected}")
    parsed.actions.append((match["action"].strip(), int(match["seat"]), number))


def _read_header(parsed: _Parsed, line: str, number: int) -> None:
    match = _LINE_RE.match(line)
    if match is None:
        raise RecordError(number, f"Not a record line: '{line[:60]}' (expected 'Name: value')")
    key, value = match["key"].strip(), match["value"].strip()
    if key == "Game":
        parsed.game = value
        parsed.lines["Game"] = number
    elif key in _TAGS:
        parsed.tags[key] = value
        parsed.lines[key] = number
    elif key.startswith("Rule "):
        flag = key[5:].strip()
        if flag in parsed.flags:
            raise RecordError(number, f"The rule {flag} is given twice")
        parsed.flags[flag] = value
        parsed.flag_lines[flag] = number
    elif key.startswith("Seat "):
        seat = _int(key[5:].strip(), number, "A seat number")
        if seat in parsed.seats:
            raise RecordError(number, f"Seat {seat} is given twice")
        parsed.seats[seat] = (_read_seat(value, number), number)
    elif key == "First":
        parsed.first = (_int(value, number, "The first seat"), number)
    elif key == "Thrower":
        parsed.thrower = (_int(value, number, "The thrower"), number)
    elif key == "Dice":
        dice = () if value == "none" else tuple(_int(d, number, "A die") for d in value.split())
        if any(not 1 <= d <= 6 for d in dice):
            raise RecordError(number, "A die shows 1 to 6")
        parsed.dice = (dice, number)
    elif key == "Deal":
        tiles: list[Tile] = []
        for token in value.split():
            try:
                tiles.append(parse_tile(token))
            except EngineError as exc:
                raise RecordError(number, str(exc)) from None
        parsed.deal = (tiles, number)
    else:
        raise RecordError(number, f"Unknown record line '{key[:40]}'")


def _read_seat(value: str, number: int) -> RecordSeat:
    match = _SEAT_RE.match(value)
    if match is None or not match["name"]:
        raise RecordError(
            number, "A seat reads 'Name (member <id>)', 'Name (ai <level>)' or 'Name (player)'"
        )
    kind, _, ident = match["who"].partition(" ")
    return RecordSeat(match["name"], kind, ident)


def _build(parsed: _Parsed, text: str) -> GameRecord:
    if parsed.game is None:
        raise RecordError(0, "The record has no 'Game:' line")
    game_line = parsed.lines["Game"]
    flags: dict[str, Any] = dict(parsed.flags)
    flags["game"] = parsed.game
    if "players" not in flags:
        flags["players"] = str(len(parsed.seats))
    try:
        rules = RuleSet.from_flags(flags)
    except EngineError as exc:
        line = next(
            (n for flag, n in parsed.flag_lines.items() if flag in str(exc)),
            game_line,
        )
        raise RecordError(line, _sentence(str(exc))) from None
    if sorted(parsed.seats) != list(range(rules.players)):
        raise RecordError(game_line, f"A {rules.players}-player game needs Seat 0 to Seat "
                          f"{rules.players - 1}")  # fmt: skip
    seats = tuple(parsed.seats[i][0] for i in range(rules.players))
    if parsed.deal is None:
        raise RecordError(0, "The record has no 'Deal:' line")
    tiles, deal_line = parsed.deal
    first, first_line = parsed.first or (0, deal_line)
    thrower, thrower_line = parsed.thrower or (0, deal_line)
    for value, line, what in (
        (first, first_line, "first seat"),
        (thrower, thrower_line, "thrower"),
    ):
        if not 0 <= value < rules.players:
            raise RecordError(line, f"The {what} {value} is not at this table")
    dice = parsed.dice[0] if parsed.dice else ()
    try:
        deal = deal_from_order(rules, tiles, first_seat=first, thrower=thrower, dice=dice)
    except RulesError as exc:
        raise RecordError(deal_line, _sentence(str(exc))) from None
    record = GameRecord(
        rules=rules,
        seats=seats,
        deal=deal,
        actions=tuple(a for a, _, _ in parsed.actions),
        tags=dict(parsed.tags),
    )
    # A record that parses is one that replays, by the seats it names.
    seats_named = [(seat, line) for _, seat, line in parsed.actions]
    state: AnyState | None = None
    for step, (seat, line) in zip(
        replay(record, lines=[n for _, n in seats_named]), seats_named, strict=False
    ):
        if step.seat != seat:
            raise RecordError(line, f"It is seat {step.seat}'s turn here, not seat {seat}'s")
        state = step.state
    if state is None:
        state = new_game(rules, record.names, deal)
    claimed = parsed.tags.get("Result")
    if claimed is not None and claimed != result_line(state):
        raise RecordError(
            parsed.lines["Result"],
            f"The result says '{claimed[:60]}' but the actions give '{result_line(state)}'",
        )
    return record


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:]


def deal_from_order(
    rules: RuleSet,
    tiles: Sequence[Tile],
    *,
    first_seat: int = 0,
    thrower: int = 0,
    dice: tuple[int, ...] = (),
) -> Deal:
    """A deal from every tile in dealing order; each kind's copies get its pieces in order."""
    if len(tiles) != rules.tile_count:
        raise RulesError(
            f"the deal must list all {rules.tile_count} tiles of {rules.sets} set(s), "
            f"not {len(tiles)}"
        )
    free: dict[int, list[int]] = {}
    for piece in range(rules.tile_count - 1, -1, -1):
        free.setdefault(PIECE_KINDS[piece % PIECES_PER_SET], []).append(piece)
    order: list[int] = []
    for tile in tiles:
        pieces = free.get(tile.index)
        if not pieces:
            raise RulesError(f"the deal holds more {tile} tiles than {rules.sets} set(s) have")
        order.append(pieces.pop())
    return Deal(order=tuple(order), first_seat=first_seat, thrower=thrower, dice=dice)


# ---------------------------------------------------------------------------------------------
# Replaying


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One action of a replay: who played it, the state before and after, and its events."""

    number: int
    seat: int
    action: AnyAction
    before: AnyState
    state: AnyState
    events: tuple[AnyEvent, ...]


def replay(record: GameRecord, *, lines: Sequence[int] | None = None) -> Iterator[ReplayStep]:
    """Play the record's actions one by one; raises :class:`RecordError` for an action that
    does not read or that the rules refuse (``lines`` gives each action's line, for the error;
    without it the error names the action's number)."""
    state: AnyState = new_game(record.rules, record.names, record.deal)
    fishing = record.rules.game is Game.TSUNG_SHAP
    for number, text in enumerate(record.actions, 1):
        line = lines[number - 1] if lines is not None else 0
        where = "" if lines is not None else f"Action {number}: "
        try:
            action = parse_fishing_action(text) if fishing else parse_action(text)
        except EngineError as exc:
            raise RecordError(line, f"{where}{_sentence(str(exc))}") from None
        if state.result is not None:
            raise RecordError(line, f"{where}The game is already over before '{text[:40]}'")
        seat = state.current
        before = state
        events: list[Any]
        try:
            state, events = apply(cast(Any, state), action)
        except EngineError as exc:
            raise RecordError(
                line, f"{where}Seat {seat} cannot play '{text[:40]}': {exc}"
            ) from None
        yield ReplayStep(number, seat, action, before, state, tuple(events))


def final_state(record: GameRecord) -> AnyState:
    """The state the record's actions lead to (the dealt state when it has none)."""
    state: AnyState = new_game(record.rules, record.names, record.deal)
    for step in replay(record):
        state = step.state
    return state
