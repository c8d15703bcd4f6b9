"""Typed positions of the collecting games (bot.engine.position, docs/record-format.md
"Positions"): the seat's hand, the discards, what the other seats are known to hold, the wall.

The public record (who discarded what, who took what) is written into the state's history as
plain moves, so the tiles another seat is known to hold stay in its hand in every deal, as
:func:`bot.games.collecting.engine.hidden.known_kinds` reads them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.engine.deal import Deal
from bot.engine.errors import RulesError
from bot.engine.position import PositionError
from bot.engine.rules import Offer, RuleSet, make_rules
from bot.engine.tiles import KINDS, Tile, kind_of_piece
from bot.games.collecting.engine.hidden import known_kinds
from bot.games.collecting.engine.machine import GameState, Move, Phase, PoolEntry, WinBy
from bot.games.dominoes.engine.position import (
    Fields,
    Pieces,
    flag_lines,
    read_fields,
    read_tiles,
    rules_words,
    seats,
    tiles_text,
    with_flags,
)

__all__ = ["parse_position", "write_position"]

KEYS = frozenset({
    "game", "players", "sets", "rules", "flag", "seat", "hand", "discards", "known", "wall",
    "turn", "last", "nodraw", "first",
})  # fmt: skip
REPEATABLE = frozenset({"flag", "known"})


def parse_position(game: str, given: Mapping[str, Sequence[str]]) -> tuple[GameState, int]:
    """The state a collecting game's position describes, and the seat to play."""
    fields = read_fields(game, given, KEYS, REPEATABLE)
    try:
        players = fields.number("players", 2, low=2)
        sets = fields.number("sets", low=1) if "sets" in fields.values else None
        rules = make_rules(game, players, fields.values.get("rules"), sets)
    except RulesError as exc:
        raise PositionError(rules_words(exc)) from None
    rules = with_flags(rules, fields)
    seat, first = seats(fields, rules)
    return _state(fields, rules, seat, first), seat


def _state(fields: Fields, rules: RuleSet, seat: int, first: int) -> GameState:
    players, size = rules.players, rules.hand_size
    pieces = Pieces(rules)
    previous = (seat - 1) % players
    if "hand" not in fields.values:
        raise PositionError(f"The position needs 'hand': the {size - 1} or {size} tiles you hold")
    hand_tiles = read_tiles("hand", fields.values["hand"])
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
            entries.append((read_tiles("discards", tile_text)[0], who))
    dead = sum(1 for t in dead_text.replace(",", " ").split()) if bar else 0
    if bar and rules.offer is not Offer.LAST:
        raise PositionError(
            "Discards are dead ('|') only when just the last discard may be taken (rules "
            "classic or last-draw, or flag offer=last)"
        )
    if not bar and rules.offer is Offer.LAST:
        dead = max(len(entries) - 1, 0)

    known = fields.seat_tiles("known", players)
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
            took = read_tiles("last", last_words[1])[0]
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
    turn = fields.number("turn", stamp + 1, low=1)
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
    if "wall" in fields.values and fields.number("wall") != len(wall):
        raise PositionError(
            f"The wall holds {len(wall)} tiles, not {fields.number('wall')}: the "
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
        turns_without_draw=fields.number("nodraw", 0),
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


def write_position(state: GameState) -> str:
    """What the seat to play sees of ``state`` (PositionError for a compulsory draw: there is
    no choice to analyse)."""
    rules, seat = state.rules, state.current
    if state.phase is Phase.DRAW:
        raise PositionError("The seat must draw now: there is no choice to analyse")
    name = rules.rule_set_name
    rule_set = None if name == "custom" else name
    base = make_rules(rules.game, rules.players, rule_set, rules.sets)
    lines = [rules.game.value, f"players {rules.players}", f"sets {rules.sets}"]
    if rule_set is not None:
        lines.append(f"rules {rule_set}")
    lines += flag_lines(rules, base)
    lines += [f"seat {seat}", f"first {state.deal.first_seat}", f"turn {state.turn}"]
    lines.append(f"hand {tiles_text(state.hands[seat])}")
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
