"""Game records: a whole game as plain text, written and read back (``docs/record-format.md``).

A record holds what is needed to play a game again through the engine: every rule flag, the
seats, the deal (every tile in dealing order) and the actions in the engine's notation, plus a
few informative tags (the game's id, server, date, result). It is to these games what PGN is to
chess: meant to be read by people and by programs.

* :func:`write_record` turns a :class:`GameRecord` into text; :func:`parse_record` reads it back
  and raises :class:`RecordError` naming the line of anything it cannot read.
* :func:`replay` plays a record's actions through :func:`bot.engine.new_game` and
  :func:`bot.engine.apply`; an action the rules refuse is a :class:`RecordError` naming its line.

The game's family writes and reads its part (:class:`bot.engine.family.Records`): the ``Deal:``
line, the comment lines saying who was dealt what, the ``Result`` tag and the actions'
notation. The domino games write the deal as tiles, not piece numbers: the pieces of one kind
are interchangeable, so a record read back deals each kind's copies in piece order. The game it
plays is the same tile for tile; only the internal piece numbers may differ.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from bot.engine.deal import Deal
from bot.engine.errors import EngineError, NotationError
from bot.engine.family import State, engine_of, rules_from_flags
from bot.engine.rules import RuleSet
from bot.games import UnknownGame

__all__ = [
    "FORMAT_LINE",
    "GameRecord",
    "RecordError",
    "RecordSeat",
    "ReplayStep",
    "final_state",
    "parse_record",
    "replay",
    "result_line",
    "write_record",
]

FORMAT_LINE = "Kapshap record 1"
"""The first line of every record: the format and its version."""

_TAGS = ("Id", "Server", "Channel", "Date", "Rated", "Hints", "Result")
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
    """The rule set (typed as the domino games' until the code reading it asks the family)."""
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


def result_line(state: State) -> str:
    """The ``Result`` tag of a state, in its family's words: ``seat 1 wins (declared, draw)``,
    ``drawn (wall)``, ``seat 0 wins 120-90 (pile)`` or ``unfinished``."""
    return engine_of(state.rules.game).result_line(state)


def write_record(record: GameRecord, *, final: State | None = None) -> str:
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
    engine = engine_of(record.rules.game)
    lines += engine.deal_comment(record.rules, deal)
    lines.append("Deal: " + engine.deal_text(record.rules, deal))
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
    deal: tuple[str, int] | None = None
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
        # The game's family reads the deal once the rules are known; a word that names no
        # piece is told now, as the line is met.
        if parsed.game is not None:
            try:
                engine_of(parsed.game).check_deal_text(value)
            except UnknownGame:
                pass  # told with the rules: the game is unknown
            except EngineError as exc:
                raise RecordError(number, str(exc)) from None
        parsed.deal = (value, number)
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
        rules = cast(RuleSet, rules_from_flags(flags))
    except (EngineError, UnknownGame) as exc:
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
    deal_text, deal_line = parsed.deal
    first, first_line = parsed.first or (0, deal_line)
    thrower, thrower_line = parsed.thrower or (0, deal_line)
    for value, line, what in (
        (first, first_line, "first seat"),
        (thrower, thrower_line, "thrower"),
    ):
        if not 0 <= value < rules.players:
            raise RecordError(line, f"The {what} {value} is not at this table")
    dice = parsed.dice[0] if parsed.dice else ()
    engine = engine_of(rules.game)
    try:
        deal = engine.read_deal(rules, deal_text, first, thrower, dice)
    except NotationError as exc:  # a piece that does not read, in the notation's own words
        raise RecordError(deal_line, str(exc)) from None
    except EngineError as exc:
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
    state: State | None = None
    for step, (seat, line) in zip(
        replay(record, lines=[n for _, n in seats_named]), seats_named, strict=False
    ):
        if step.seat != seat:
            raise RecordError(line, f"It is seat {step.seat}'s turn here, not seat {seat}'s")
        state = step.state
    if state is None:
        state = engine.new_game(rules, record.names, deal)
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


# ---------------------------------------------------------------------------------------------
# Replaying


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One action of a replay: who played it, the state before and after, and its events (the
    game's own values: its family's action, states and events)."""

    number: int
    seat: int
    action: Any
    before: Any
    state: Any
    events: tuple[Any, ...]


def replay(record: GameRecord, *, lines: Sequence[int] | None = None) -> Iterator[ReplayStep]:
    """Play the record's actions one by one; raises :class:`RecordError` for an action that
    does not read or that the rules refuse (``lines`` gives each action's line, for the error;
    without it the error names the action's number)."""
    engine = engine_of(record.rules.game)
    state: Any = engine.new_game(record.rules, record.names, record.deal)
    for number, text in enumerate(record.actions, 1):
        line = lines[number - 1] if lines is not None else 0
        where = "" if lines is not None else f"Action {number}: "
        try:
            action = engine.parse_action(text)
        except EngineError as exc:
            raise RecordError(line, f"{where}{_sentence(str(exc))}") from None
        if state.result is not None:
            raise RecordError(line, f"{where}The game is already over before '{text[:40]}'")
        seat = state.current
        before = state
        events: list[Any]
        try:
            state, events = engine.apply(state, action)
        except EngineError as exc:
            raise RecordError(
                line, f"{where}Seat {seat} cannot play '{text[:40]}': {exc}"
            ) from None
        yield ReplayStep(number, seat, action, before, state, tuple(events))


def final_state(record: GameRecord) -> Any:
    """The state the record's actions lead to (the dealt state when it has none)."""
    state: Any = engine_of(record.rules.game).new_game(record.rules, record.names, record.deal)
    for step in replay(record):
        state = step.state
    return state
