"""Positions a person can type: what one seat sees at its turn, in a few short lines.

``kapshap analyse --position TEXT`` (``docs/record-format.md``, "Positions") reads a position,
builds an engine state from it and estimates each legal action's chance to win. A position says
only what the seat to play can see; the tiles it cannot see are placed in the other hands and
the wall (or the Tsung Shap piles) in a fixed order, and every estimate deals them again at
random with :func:`bot.engine.hidden.determinize`, so where they were first put never matters.

Fields are ``key value`` (or ``key: value``), one per line or separated by ``;``; ``#`` starts
a comment line. For example::

    kap-shap; hand 6-6 6-6 1-1 4-4 3-3 6-5 6-3; discards 5-2 2-2 6-4; known 1: 5-2

The public record (who discarded what, who took what) is written into the state's history as
plain moves, so the tiles another seat is known to hold stay in its hand in every deal, as
:mod:`bot.engine.hidden` reads them.

:func:`write_position` writes what the seat to play sees of any state in this notation (a test
reads it back and checks the seat sees the same position).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.engine.collecting import GameState, Move, Phase, PoolEntry, WinBy
from bot.engine.deal import Deal
from bot.engine.errors import EngineError, NotationError, RulesError
from bot.engine.fishing import FishingPhase, FishingState
from bot.engine.hidden import known_kinds
from bot.engine.rules import Game, Offer, RuleSet, make_rules, with_flag
from bot.engine.tiles import KINDS, PIECE_KINDS, PIECES_PER_SET, Tile, kind_of_piece, parse_tiles

__all__ = ["PositionError", "parse_position", "write_position"]

AnyState = GameState | FishingState

_COLLECTING_KEYS = {
    "game", "players", "sets", "rules", "flag", "seat", "hand", "discards", "known", "wall",
    "turn", "last", "nodraw", "first",
}  # fmt: skip
_FISHING_KEYS = {
    "game", "flag", "seat", "scores", "row", "turned", "piles", "captured", "turn", "first",
}  # fmt: skip
_REPEATABLE = {"flag", "known", "captured"}


class PositionError(EngineError, ValueError):
    """A position that does not parse or cannot happen; the message names what is wrong."""


@dataclass
class _Fields:
    values: dict[str, str] = field(default_factory=dict)
    repeated: dict[str, list[str]] = field(default_factory=dict)


def _split(text: str) -> _Fields:
    fields = _Fields()
    for raw in re.split(r"[\n;]", text):
        part = raw.strip()
        if not part or part.startswith("#"):
            continue
        match = re.match(r"([A-Za-z_-]+)\s*:?\s*(.*)$", part)
        if match is None:
            raise PositionError(f"Cannot read '{part[:40]}': write a field as 'key value'")
        key, value = match[1].lower(), match[2].strip()
        if not value and not fields.values and not fields.repeated:
            # A first field of one word is the game: "kap-shap; hand ...".
            key, value = "game", key
        if key in _REPEATABLE:
            fields.repeated.setdefault(key, []).append(value)
        elif key in fields.values:
            raise PositionError(f"'{key}' is given twice")
        else:
            fields.values[key] = value
    return fields


def _int(fields: _Fields, key: str, default: int | None = None, low: int = 0) -> int:
    text = fields.values.get(key)
    if text is None:
        if default is None:
            raise PositionError(f"The position needs '{key}'")
        return default
    try:
        value = int(text)
    except ValueError:
        raise PositionError(f"'{key}' must be a whole number, not '{text[:20]}'") from None
    if value < low:
        raise PositionError(f"'{key}' must be at least {low}, not {value}")
    return value


def _tiles(what: str, text: str) -> list[Tile]:
    try:
        return parse_tiles(text)
    except NotationError as exc:
        raise PositionError(f"In '{what}': {exc}") from None


def _seat_tiles(fields: _Fields, key: str, players: int) -> dict[int, list[Tile]]:
    """``known 1: 6-3 5-2`` (repeatable) as {seat: tiles}."""
    out: dict[int, list[Tile]] = {}
    for value in fields.repeated.get(key, []):
        match = re.match(r"(\d+)\s*:?\s*(.*)$", value)
        if match is None:
            raise PositionError(f"Write '{key} <seat>: <tiles>', not '{key} {value[:30]}'")
        seat = int(match[1])
        if not 0 <= seat < players:
            raise PositionError(f"'{key} {seat}': there is no seat {seat} at this table")
        out.setdefault(seat, []).extend(_tiles(f"{key} {seat}", match[2]))
    return out


class _Pieces:
    """The physical pieces of the rule set, handed out by kind."""

    def __init__(self, rules: RuleSet) -> None:
        self.sets = rules.sets
        self.free: dict[int, list[int]] = {}
        for piece in range(rules.tile_count):
            self.free.setdefault(PIECE_KINDS[piece % PIECES_PER_SET], []).append(piece)

    def take(self, tile: Tile, where: str) -> int:
        pool = self.free.get(tile.index)
        if not pool:
            copies = tile.copies_per_set * self.sets
            sets = "1 set holds" if self.sets == 1 else f"{self.sets} sets hold"
            raise PositionError(f"Too many {tile} (at '{where}'): {sets} only {copies}")
        return pool.pop(0)

    def rest(self) -> list[int]:
        return sorted(p for pieces in self.free.values() for p in pieces)


def _rules(fields: _Fields, game: Game) -> RuleSet:
    try:
        if game is Game.TSUNG_SHAP:
            rules = make_rules(game)
        else:
            players = _int(fields, "players", 2, low=2)
            sets = _int(fields, "sets", low=1) if "sets" in fields.values else None
            rules = make_rules(game, players, fields.values.get("rules"), sets)
        for flag in fields.repeated.get("flag", []):
            name, sep, value = flag.partition("=")
            if not sep:
                raise PositionError(f"Write 'flag name=value', not 'flag {flag[:30]}'")
            rules = with_flag(rules, name.strip(), value.strip())
    except RulesError as exc:
        raise PositionError(str(exc)[:1].upper() + str(exc)[1:]) from None
    return rules


def parse_position(text: str) -> tuple[AnyState, int]:
    """The state a position describes and the seat to play (see the module's docstring).

    Raises :class:`PositionError` naming the field at fault.
    """
    fields = _split(text)
    name = fields.values.get("game")
    if name is None:
        raise PositionError("The position needs its game: kap-shap, kap-tai-shap or tsung-shap")
    try:
        game = Game(name)
    except ValueError:
        raise PositionError(
            f"Unknown game '{name[:20]}': write kap-shap, kap-tai-shap or tsung-shap"
        ) from None
    allowed = _FISHING_KEYS if game is Game.TSUNG_SHAP else _COLLECTING_KEYS
    for key in [*fields.values, *fields.repeated]:
        if key not in allowed:
            raise PositionError(
                f"Unknown field '{key}' for {game.value}: use {', '.join(sorted(allowed))}"
            )
    rules = _rules(fields, game)
    seat = _int(fields, "seat", 0)
    if seat >= rules.players:
        raise PositionError(f"'seat {seat}': there is no seat {seat} at this table")
    first = _int(fields, "first", 0)
    if first >= rules.players:
        raise PositionError(f"'first {first}': there is no seat {first} at this table")
    if game is Game.TSUNG_SHAP:
        return _fishing(fields, rules, seat, first), seat
    return _collecting(fields, rules, seat, first), seat


def _collecting(fields: _Fields, rules: RuleSet, seat: int, first: int) -> GameState:
    players, size = rules.players, rules.hand_size
    pieces = _Pieces(rules)
    previous = (seat - 1) % players
    if "hand" not in fields.values:
        raise PositionError(f"The position needs 'hand': the {size - 1} or {size} tiles you hold")
    hand_tiles = _tiles("hand", fields.values["hand"])
    if len(hand_tiles) not in (size - 1, size):
        raise PositionError(
            f"The hand holds {len(hand_tiles)} tile{'s' if len(hand_tiles) != 1 else ''}: at "
            f"your turn it holds {size - 1} (take or draw) or {size} (discard or declare)"
        )
    hand = [pieces.take(t, "hand") for t in hand_tiles]
    full = len(hand_tiles) == size

    # Discards, oldest first: tiles before '|' are dead (offer 'last'); 'tile@seat' names who
    # discarded it (by default the seat before yours).
    pool_text = fields.values.get("discards", "")
    dead_text, bar, live_text = pool_text.partition("|")
    entries: list[tuple[Tile, int]] = []
    for chunk in (dead_text, live_text):
        for token in chunk.replace(",", " ").split():
            tile_text, at, by = token.partition("@")
            who = previous
            if at:
                if not by.isdigit() or int(by) >= players:
                    raise PositionError(f"In 'discards': '{token}' names no seat at this table")
                who = int(by)
            entries.append((_tiles("discards", tile_text)[0], who))
    dead = sum(1 for t in dead_text.replace(",", " ").split()) if bar else 0
    if bar and rules.offer is not Offer.LAST:
        raise PositionError(
            "Discards are dead ('|') only when just the last discard may be taken (rules "
            "classic or last-draw, or flag offer=last)"
        )
    if not bar and rules.offer is Offer.LAST:
        dead = max(len(entries) - 1, 0)

    known = _seat_tiles(fields, "known", players)
    if seat in known:
        raise PositionError(f"'known {seat}' is your own seat: your tiles are in 'hand'")
    for other, tiles in known.items():
        if len(tiles) > size - 1:
            raise PositionError(
                f"Seat {other} holds {size - 1} tiles between its turns, not {len(tiles)} known"
            )

    last = fields.values.get("last", "draw" if full else "")
    last_words = last.split()
    if last and not full:
        raise PositionError(f"'last' is for a full hand of {size} tiles (after a take or draw)")
    took: Tile | None = None
    if full:
        if not last_words or last_words[0] not in ("take", "draw", "deal"):
            raise PositionError("Write 'last take <tile>', 'last draw' or 'last deal'")
        if last_words[0] == "take":
            if len(last_words) != 2:
                raise PositionError("Write 'last take <tile>' with the tile you took")
            took = _tiles("last", last_words[1])[0]
            if took not in hand_tiles:
                raise PositionError(f"'last take {took}': {took} is not in your hand")
        elif len(last_words) != 1:
            raise PositionError(f"Write 'last {last_words[0]}' alone")

    pool: list[PoolEntry] = []
    history: list[Move] = []
    stamp = 0
    for tile, who in entries:
        stamp += 1
        pool.append(PoolEntry(pieces.take(tile, "discards"), who, stamp))
        history.append(Move(stamp, who, "discard", tile))
    # Tiles known in other hands were discards taken: their discards first, then the takes,
    # so no synthetic discard cancels a known tile (bot.engine.hidden.known_kinds).
    takes: list[tuple[int, Tile]] = [(s, t) for s in sorted(known) for t in known[s]]
    if took is not None:
        takes.append((seat, took))
    for who, tile in takes:
        stamp += 1
        history.append(Move(stamp, (who - 1) % players, "discard", tile))
    kept: dict[int, list[int]] = {}
    for who, tile in takes[: len(takes) - (took is not None)]:
        stamp += 1
        history.append(Move(stamp, who, "take", tile, (who - 1) % players))
        kept.setdefault(who, []).append(pieces.take(tile, f"known {who}"))
    turn = _int(fields, "turn", stamp + 1, low=1)
    if took is not None:
        history.append(Move(turn, seat, "take", took, previous))
    elif full and last_words[0] == "draw":
        history.append(Move(turn, seat, "draw"))

    rest = pieces.rest()
    hands: list[tuple[int, ...]] = []
    for s in range(players):
        if s == seat:
            hands.append(tuple(hand))
            continue
        mine = kept.get(s, [])
        missing = size - 1 - len(mine)
        hands.append((*mine, *rest[:missing]))
        rest = rest[missing:]
    if len(hands) != players or any(len(h) != size - 1 for s, h in enumerate(hands) if s != seat):
        raise PositionError(
            f"Too many tiles: the hands, discards and known tiles use more than the "
            f"{rules.tile_count} of {rules.sets} set(s)"
        )
    wall = tuple(rest)
    if "wall" in fields.values and _int(fields, "wall") != len(wall):
        raise PositionError(
            f"The wall holds {len(wall)} tiles, not {_int(fields, 'wall')}: the "
            f"{rules.tile_count} tiles are the hands ({size - 1} each, yours {len(hand)}), the "
            f"{len(pool)} discards and the wall"
        )
    if full and last_words[0] == "deal" and (pool or takes or turn != 1 or first != seat):
        raise PositionError(
            "'last deal' is the first player's first turn: no discards or known tiles yet, "
            "turn 1, and 'first' is your seat"
        )
    state = GameState(
        rules=rules,
        seats=tuple(f"seat {s}" for s in range(players)),
        deal=Deal(order=tuple(range(rules.tile_count)), first_seat=first),
        hands=tuple(hands),
        wall=wall,
        wall_pos=0,
        pool=tuple(pool),
        live_from=dead,
        current=seat,
        phase=Phase.DISCARD if full else Phase.TAKE_OR_DRAW,
        turn=turn,
        turns_without_draw=_int(fields, "nodraw", 0),
        drew_this_turn=full and last_words[0] == "draw",
        then_draw=(
            rules.draw_after_take
            if took is not None
            else rules.first_turn_extra_draw
            if full and last_words[0] == "deal"
            else False
        ),
        just_taken=None if took is None else took.index,
        last_in=(
            WinBy.TAKE
            if took is not None
            else WinBy.DEALT
            if full and last_words[0] == "deal"
            else WinBy.DRAW
        ),
        history=tuple(history),
        took_this_turn=took is not None,
    )
    return state


def _fishing(fields: _Fields, rules: RuleSet, seat: int, first: int) -> FishingState:
    pieces = _Pieces(rules)
    row = [pieces.take(t, "row") for t in _tiles("row", fields.values.get("row", ""))]
    turned: int | None = None
    if fields.values.get("turned"):
        tiles = _tiles("turned", fields.values["turned"])
        if len(tiles) != 1:
            raise PositionError("'turned' is the one tile you have turned over")
        turned = pieces.take(tiles[0], "turned")
        if not row:
            raise PositionError("A tile turned onto an empty row starts it: write it in 'row'")
    captured_tiles = _seat_tiles(fields, "captured", 2)
    captured = [
        tuple(pieces.take(t, f"captured {s}") for t in captured_tiles.get(s, [])) for s in (0, 1)
    ]
    scores_text = fields.values.get("scores", "0 0").split()
    if len(scores_text) != 2 or not all(s.isdigit() for s in scores_text):
        raise PositionError("Write 'scores <seat 0> <seat 1>', two whole numbers")
    piles_text = fields.values.get("piles", "").split()
    if len(piles_text) != 2 or not all(s.isdigit() for s in piles_text):
        raise PositionError("Write 'piles <seat 0> <seat 1>': the tiles left in each pile")
    counts = [int(n) for n in piles_text]
    rest = pieces.rest()
    if max(counts) > rules.pile_size:
        raise PositionError(f"A pile holds at most {rules.pile_size} tiles")
    if sum(counts) != len(rest):
        raise PositionError(
            f"The piles hold {len(rest)} tiles, not {sum(counts)}: the {rules.tile_count} tiles "
            "are the row, the turned tile, the captured tiles and the piles (list every "
            "captured tile)"
        )
    if turned is None and counts[seat] == 0:
        raise PositionError(f"Seat {seat}'s pile is empty: it has no tile to turn over")
    piles = (tuple(rest[: counts[0]]), tuple(rest[counts[0] :]))
    turned_so_far = 2 * rules.pile_size - sum(counts)
    return FishingState(
        rules=rules,
        seats=("seat 0", "seat 1"),
        deal=Deal(order=tuple(range(rules.tile_count)), first_seat=first),
        piles=piles,
        row=tuple(row),
        captured=(captured[0], captured[1]),
        scores=(int(scores_text[0]), int(scores_text[1])),
        current=seat,
        phase=FishingPhase.PLAY if turned is not None else FishingPhase.TURN_OVER,
        turn=_int(fields, "turn", max(turned_so_far, 1), low=1),
        turned=turned,
    )


def _flag_lines(rules: RuleSet, base: RuleSet) -> list[str]:
    lines: list[str] = []
    ours, theirs = rules.flags(), base.flags()
    for name, value in ours.items():
        if value != theirs[name]:
            text = ("true" if value else "false") if isinstance(value, bool) else str(value)
            lines.append(f"flag {name}={text}")
    return lines


def _tiles_text(pieces: list[int] | tuple[int, ...]) -> str:
    return " ".join(str(kind_of_piece(p)) for p in pieces)


def write_position(state: AnyState) -> str:
    """What the seat to play sees of ``state``, in position notation (one field a line).

    Raises :class:`PositionError` for what the notation cannot say: a game that is over, a
    compulsory draw after a discard (there is no choice to analyse), missed Tsung Shap
    captures waiting to be claimed.
    """
    if state.result is not None:
        raise PositionError("The game is over")
    rules, seat = state.rules, state.current
    if isinstance(state, FishingState):
        if state.pending:
            raise PositionError("Missed captures waiting to be claimed cannot be written")
        lines = ["tsung-shap", *_flag_lines(rules, make_rules(Game.TSUNG_SHAP))]
        lines += [f"seat {seat}", f"first {state.deal.first_seat}", f"turn {state.turn}"]
        lines.append(f"scores {state.scores[0]} {state.scores[1]}")
        lines.append(f"row {_tiles_text(state.row)}")
        if state.turned is not None:
            lines.append(f"turned {kind_of_piece(state.turned)}")
        lines.append(f"piles {len(state.piles[0])} {len(state.piles[1])}")
        lines += [f"captured {s}: {_tiles_text(c)}" for s, c in enumerate(state.captured) if c]
        return "\n".join(lines) + "\n"
    if state.phase is Phase.DRAW:
        raise PositionError("The seat must draw now: there is no choice to analyse")
    name = rules.rule_set_name
    rule_set = None if name == "custom" else name
    base = make_rules(rules.game, rules.players, rule_set, rules.sets)
    lines = [rules.game.value, f"players {rules.players}", f"sets {rules.sets}"]
    if rule_set is not None:
        lines.append(f"rules {rule_set}")
    lines += _flag_lines(rules, base)
    lines += [f"seat {seat}", f"first {state.deal.first_seat}", f"turn {state.turn}"]
    lines.append(f"hand {_tiles_text(state.hands[seat])}")
    if state.phase is Phase.DISCARD:
        if state.just_taken is not None:
            lines.append(f"last take {KINDS[state.just_taken]}")
        else:
            lines.append("last deal" if state.last_in is WinBy.DEALT else "last draw")
    pool = [f"{kind_of_piece(e.piece)}@{e.seat}" for e in state.pool]
    if state.live_from and rules.offer is Offer.LAST:
        pool.insert(state.live_from, "|")
    if pool:
        lines.append(f"discards {' '.join(pool)}")
    for other, counts in enumerate(known_kinds(state)):
        tiles = [str(KINDS[k]) for k in sorted(counts.elements())]
        if other != seat and tiles:
            lines.append(f"known {other}: {' '.join(tiles)}")
    lines += [f"wall {state.wall_size}", f"nodraw {state.turns_without_draw}"]
    return "\n".join(lines) + "\n"
