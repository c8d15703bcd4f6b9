"""Kap Shap and Kap Tai Shap at the terminal: the table seen from the human seat (hand,
discards, the wall), the shortcuts a player types (``d 31``, ``dr``, a bare tile), the
play-by-play and the winning arrangement; the hooks of :class:`bot.terminal.family.TableHooks`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bot.engine import (
    FirstPlayer,
    FourTwo,
    NotationError,
    Offer,
    RuleSet,
    Tile,
    describe_event,
    parse_tile,
    sort_tiles,
    view,
)
from bot.engine.events import TurnStarted
from bot.engine.rules import ten_pair_values
from bot.games import find
from bot.games.collecting.engine.actions import Action, Declare, Discard, Take, parse_action
from bot.games.collecting.engine.machine import (
    Declared,
    Discarded,
    Drew,
    EndReason,
    Event,
    GameDrawn,
    Phase,
    Result,
    Took,
    View,
    WinBy,
)
from bot.games.dominoes.engine.actions import Draw
from bot.games.dominoes.terminal.table import DominoTable, tile_count
from bot.locale import N_, nt
from bot.locale import t as tr
from bot.terminal.console import level_names

__all__ = ["CollectingTable"]

_FOUR_TWO = Tile(4, 2)
_TWO_ONE = Tile(2, 1)

_RULE_SET_TITLES = {
    "culin": N_("Culin"),
    "classic": N_("Classic"),
    "last-draw": N_("Last + draw"),
    "custom": N_("Custom"),
}

# The collecting games' commands besides the client's (help, ?, look, quit).
_COMMANDS: dict[str, str] = {
    "手牌": "hand",
    "棄牌": "pool",
    "弃牌": "pool",
    "hand": "hand",
    "pool": "pool",
    "discards": "pool",
}


class CollectingTable(DominoTable):
    """One game of Kap Shap or Kap Tai Shap in progress, seen from the human seat."""

    # -- output helpers ----------------------------------------------------------------------

    def me(self, seat: int) -> bool:
        """Whether ``seat`` is the human's."""
        return seat == self.human

    def verb(self, seat: int, third: str, base: str) -> str:
        """``Bot 1 throws`` / ``You throw``."""
        name = self.names[seat]
        return f"{name} {base if name == 'You' else third}"

    def rules_words(self) -> str:
        """The rule set, the players, the sets and the hand, as the bot's table message says."""
        rules = self.rules
        name = _RULE_SET_TITLES.get(rules.rule_set_name, rules.rule_set_name)
        return self.lt(
            "{name} rules · {players} players · {sets} · hand of {size}",
            name=self.lt(name),
            players=rules.players,
            sets=nt(self.locale, "{n} set", "{n} sets", rules.sets),
            size=rules.hand_size,
        )

    # -- the game's hooks ---------------------------------------------------------------------

    def announce(self, level: str, seed: int | None) -> None:
        """The rules, the seed, the seats, the dice and the deal."""
        rules = self.rules
        title = find(rules.game).title
        self.say(self.lt("{title}: {rules}.", title=self.lt(title), rules=self.rules_line()))
        if seed is not None:
            self.say(self.lt("Seed {seed} (--seed {seed} deals this game again).", seed=seed))
        if self.locale != "en":
            self.announce_translated(level)
            return
        seats = ", ".join(
            f"{seat}: {name}"
            + ("" if self.me(seat) else f" ({level_names(self.locale, level)} AI)")
            for seat, name in enumerate(self.names)
        )
        self.say(f"Seats in play order: {seats}.")
        first = self.deal.first_seat
        starter = self.names[first]
        plays_first = "you play first" if self.me(first) else f"{starter} plays first"
        if self.deal.dice:
            thrower = self.deal.thrower
            total = sum(self.deal.dice)
            dice = " + ".join(str(d) for d in self.deal.dice)
            side = "your" if self.me(thrower) else f"{self.names[thrower]}'s"
            self.say(
                f"{self.verb(thrower, 'throws', 'throw')} the four dice: {dice} = {total}; "
                f"counting {total} round from {side} right, {plays_first}."
            )
        elif rules.first_player is FirstPlayer.LOTS:
            self.say(f"Lots are drawn: {plays_first}.")
        else:
            self.say(f"{plays_first[0].upper()}{plays_first[1:]}.")
        wall = view(self.state, self.human).wall_size
        dealt = "You are" if self.me(first) else f"{starter} is"
        self.say(
            f"{dealt} dealt {rules.hand_size} tiles, everyone else {rules.hand_size - 1}; "
            f"{wall} tiles form the wall."
        )
        self.say(
            "Type a move in notation (e.g. 'discard 3-1', 'd 31' or just '31'; 'dr' draws), "
            "'?' for your legal moves, 'help' for the rules, 'quit' to leave."
        )

    def event_line(self, event: Event) -> str:
        """One event for the human seat: the engine's English line, or in the table's language
        with the same wording as the bot's Discord messages (the catalogue's)."""
        if self.locale == "en":
            return describe_event(event, self.human, self.names)
        names = self.names
        match event:
            case Took(seat, tile, from_seat) if from_seat == seat:
                return self.lt("{name} took back {tile}.", name=names[seat], tile=self.label(tile))
            case Took(seat, tile, from_seat):
                return self.lt(
                    "{name} took {tile} discarded by {other}.",
                    name=names[seat],
                    tile=self.label(tile),
                    other=names[from_seat],
                )
            case Drew(seat, tile, wall_left) if seat == self.human:
                return self.lt(
                    "You drew {tile} ({left} left in the wall).",
                    tile=self.label(tile),
                    left=wall_left,
                )
            case Drew(seat, _tile, wall_left):
                return self.lt(
                    "{name} drew a tile ({left} left in the wall).",
                    name=names[seat],
                    left=wall_left,
                )
            case Discarded(seat, tile):
                return self.lt("{name} discarded {tile}.", name=names[seat], tile=self.label(tile))
            case Declared(seat, witness, win_by):
                msgid = {
                    WinBy.DEALT: N_("{name} declared a winning hand as dealt: {witness}."),
                    WinBy.TAKE: N_(
                        "{name} declared a winning hand by taking a discard: {witness}."
                    ),
                    WinBy.DRAW: N_(
                        "{name} declared a winning hand with a tile drawn from the wall: {witness}."
                    ),
                }[win_by]
                # The witness's own text says "eye": the same groups, the word translated.
                groups = [self.lt("eye {tiles}", tiles=f"{witness.eye[0]} {witness.eye[1]}")]
                groups += [f"{a} {b}" for a, b in witness.pairs]
                return self.lt(msgid, name=names[seat], witness=" | ".join(groups))
            case GameDrawn(reason):
                if reason is EndReason.WALL:
                    return self.lt("The game is drawn: the wall is exhausted.")
                return self.lt("The game is drawn: the turn limit.")
        return describe_event(event, self.human, self.names)

    def announce_translated(self, level: str) -> None:
        """The seats, who starts and the deal, in the table's language (not English:
        ``announce`` words it with the English verb forms)."""
        rules = self.rules
        seats = "、".join(
            f"{seat}：{name}"
            + (
                ""
                if self.me(seat)
                else self.lt(" ({level} AI)", level=level_names(self.locale, level))
            )
            for seat, name in enumerate(self.names)
        )
        self.say(self.lt("Seats in play order: {seats}.", seats=seats))
        first = self.names[self.deal.first_seat]
        if self.deal.dice:
            self.say(
                self.lt(
                    "{name} throws the four dice: {dice} = {total}; counting round from his "
                    "right, {first} plays first.",
                    name=self.names[self.deal.thrower],
                    dice=" + ".join(str(d) for d in self.deal.dice),
                    total=sum(self.deal.dice),
                    first=first,
                )
            )
        else:
            self.say(self.lt("{first} plays first.", first=first))
        self.say(
            self.lt(
                "{first} is dealt {size} tiles, everyone else {rest}; {wall} tiles form the wall.",
                first=first,
                size=rules.hand_size,
                rest=rules.hand_size - 1,
                wall=view(self.state, self.human).wall_size,
            )
        )
        self.say(
            self.lt(
                "Type a move in notation (e.g. 'discard 3-1', 'd 31' or just '31'; 'dr' draws), "
                "'?' for your legal moves, 'help' for the rules, 'quit' to leave."
            )
        )

    def narrate(self, events: Sequence[Event]) -> None:
        """Each event on its line; a turn's start as the client's turn header."""
        for event in events:
            if isinstance(event, TurnStarted):
                self.console.turn_header(event.seat, event.turn)
            else:
                self.say(self.event_line(event))

    # -- input -------------------------------------------------------------------------------

    def interpret(self, text: str, seen: View, legal: Sequence[Action]) -> Action | str:
        """An action to play, or a message to show ('' for none): ``hand`` and ``pool`` are
        carried out here. Raises NotationError for unreadable tiles and actions."""
        command = _COMMANDS.get(text.lower())
        if command == "hand":
            self.show_hand(seen)
            return ""
        if command == "pool":
            self.show_pool(seen, legal)
            return ""
        return self.parse_move(text, seen)

    def parse_move(self, text: str, seen: View) -> Action | str:
        """A move typed in notation or by a shortcut (``t 65``, ``d 31``, ``dr``, ``31``)."""
        verb, _, rest = text.partition(" ")
        verb = verb.lower()
        if verb in ("t", "tk"):
            return Take(parse_tile(rest) if rest else None)
        # 'd' is always discard and 'dr' always draw: one letter never means two moves.
        if verb in ("d", "dis", "disc"):
            if rest:
                return Discard(parse_tile(rest))
            return self.lt(
                "'d' is short for discard: name the tile ('d 31'); to draw, type 'dr' or 'draw'"
            )
        if verb in ("dr", "draw") and not rest:
            return Draw()
        if verb in ("win", "dec", "declare") and not rest:
            return Declare()
        if verb in ("take", "discard", "draw", "declare"):
            return parse_action(text)
        # A bare tile: discard it when discarding, take it when taking.
        try:
            tile = parse_tile(text)
        except NotationError:
            if text[0].isdigit() or text[0] == "[":
                raise
            return parse_action(text)
        if seen.phase is Phase.DISCARD:
            return Discard(tile)
        if seen.phase is Phase.TAKE_OR_DRAW:
            return Take(tile)
        return self.lt("you must draw from the wall now, not play {tile}", tile=tile)

    # -- display -----------------------------------------------------------------------------

    def status(self, seen: View, legal: Sequence[Action]) -> None:
        """The hand, the discards, the wall and the others' hands, what the turn asks, the
        legal moves."""
        if seen.phase is Phase.DRAW:
            self.say(
                self.lt(
                    "Now draw from the wall ({tiles} left).",
                    tiles=tile_count(seen.wall_size, self.locale),
                )
            )
            self.show_legal(legal)
            return
        self.show_hand(seen)
        self.show_pool(seen, legal)
        # In Chinese "Bot 1 9" would read as one number: the count follows a colon.
        each, sep = ("{} {}", ", ") if self.locale == "en" else ("{}：{}", "、")
        others = sep.join(
            each.format(self.names[s], n) for s, n in enumerate(seen.hand_sizes) if not self.me(s)
        )
        self.say(
            self.lt(
                "Wall: {wall}. Others hold: {others} tiles.",
                wall=tile_count(seen.wall_size, self.locale),
                others=others,
            )
        )
        if seen.phase is Phase.DISCARD and seen.turn == 1 and seen.history == ():
            self.say(
                self.lt(
                    "You start with {n} tiles: discard one, or declare a win.", n=len(seen.hand)
                )
            )
        if Declare() in legal:
            self.say(self.lt("Your hand wins: type 'declare'!"))
        forced = self.rules.stall_guard and seen.turns_without_draw >= self.rules.players
        if seen.phase is Phase.TAKE_OR_DRAW and forced and Draw() in legal:
            # The legal actions say whether a take is left: only one that wins would be.
            wins = any(isinstance(a, Take) for a in legal)
            self.say(
                self.lt(
                    "{n} turns in a row took a discard without a draw: take only a discard "
                    "that wins, or draw."
                    if wins
                    else "{n} turns in a row took a discard without a draw: you must draw.",
                    n=seen.turns_without_draw,
                )
            )
        self.show_legal(legal)

    def show_hand(self, seen: View) -> None:
        """The human's hand, each tile with its count and value."""
        self.say(self.lt("Your hand ({n} tiles):", n=len(seen.hand)))
        counts = Counter(seen.hand)
        for tile in sort_tiles(counts):
            times = f" ×{counts[tile]}" if counts[tile] > 1 else ""
            self.say(f"  {self.label(tile)}{times}{self.value_note(tile)}")

    def game_over_translated(self, result: Result) -> None:
        """The end of the game in the table's language (not English: ``game_over`` has its
        own wording there, with the English verb forms)."""
        if result.winner is None or result.witness is None:
            why = (
                self.lt("the turn limit of {n} turns was reached", n=self.rules.max_turns)
                if result.reason is EndReason.CAP
                else self.lt("the wall is exhausted")
            )
            refund = (
                self.lt("the pot stays on the table for the next game")
                if self.rules.pot_carries_over
                else self.lt("every ante is refunded")
            )
            self.say(
                self.lt(
                    "The game is drawn on turn {turn}: {why}; {refund}.",
                    turn=result.turn,
                    why=why,
                    refund=refund,
                )
            )
            return
        how = {
            WinBy.DEALT: N_("{name} wins on turn {turn}, with the hand as dealt."),
            WinBy.TAKE: N_("{name} wins on turn {turn}, by taking a discard."),
            WinBy.DRAW: N_("{name} wins on turn {turn}, with a tile drawn from the wall."),
        }[result.win_by or WinBy.DEALT]
        self.say(self.lt(how, name=self.names[result.winner], turn=result.turn))
        self.say(self.lt("Winning arrangement:"))
        eye = result.witness.eye
        eye_word, pair_word = self.lt("eye"), self.lt("pair")
        self.say(f"  {eye_word}   {self.label(eye[0])} + {self.label(eye[1])}")
        for a, b in result.witness.pairs:
            x, y = _pair_values(a, b, self.rules.four_two_value)
            self.say(f"  {pair_word}  {self.label(a)} + {self.label(b)}  ({x} + {y} = {x + y})")

    def value_note(self, tile: Tile) -> str:
        """What the 4-2 (and 2-1) count under the rules in force ('' for other tiles)."""
        four_two = self.rules.four_two_value
        if four_two is FourTwo.WILD and tile in (_FOUR_TWO, _TWO_ONE):
            return self.lt(" (counts 3 or 6)")
        if four_two is FourTwo.THREE and tile == _FOUR_TWO:
            return self.lt(" (counts 3)")
        return ""

    def show_pool(self, seen: View, legal: Sequence[Action]) -> None:
        """The face-up discards and which may be taken."""
        if not seen.pool:
            self.say(self.lt("Discards: none yet."))
            return
        latest = seen.pool[-1]
        self.say(
            self.lt(
                "Discards ({n} face up; latest {tile} by {name}):",
                n=len(seen.pool),
                tile=latest.tile,
                name=self.names[latest.seat],
            )
        )
        takeable = {a.tile for a in legal if isinstance(a, Take) and a.tile is not None}
        counts = Counter(p.tile for p in seen.pool)
        dead = Counter(p.tile for p in seen.pool if p.dead)
        taking = seen.my_turn and seen.phase is Phase.TAKE_OR_DRAW
        for tile in sort_tiles(counts):
            times = f" ×{counts[tile]}" if counts[tile] > 1 else ""
            n_dead = dead[tile]
            if tile in takeable:
                mark = self.lt(" - you may take it")
                if n_dead:
                    mark += self.lt(" ({n} dead)", n=n_dead)
            elif n_dead == counts[tile]:
                mark = self.lt(" - dead")
            elif taking and self.rules.exclude_own_discards and self.all_mine(seen, tile):
                mark = self.lt(" - your own discard: you may not take it back")
            elif taking:
                mark = self.lt(" - not takeable now")
            else:
                mark = self.lt(" ({n} dead)", n=n_dead) if n_dead else ""
            self.say(f"  {self.label(tile)}{times}{mark}")

    def all_mine(self, seen: View, tile: Tile) -> bool:
        """Whether every live copy of ``tile`` in the pool was discarded by the human."""
        return all(p.seat == self.human for p in seen.pool if p.tile == tile and not p.dead)

    def help(self) -> str:
        """The rules in force, the notation and the commands."""
        rules = self.rules
        h = rules.hand_size
        eyes = N_("two identical tiles") if rules.military_eyes else N_("two identical civil tiles")
        four_two = {
            FourTwo.THREE: N_("4-2 counts 3"),
            FourTwo.SIX: N_("4-2 counts 6"),
            FourTwo.WILD: N_("4-2 and 2-1 each count 3 or 6"),
        }[rules.four_two_value]
        lines = [
            self.lt("Rules in force: {rules}.", rules=self.rules_line()),
            self.lt(
                "  Goal: {size} tiles = one eye ({eyes}) + {pairs} ten-pairs (two tiles whose "
                "pips total 10 or 20; {four_two}).",
                size=h,
                eyes=self.lt(eyes),
                pairs=rules.pairs,
                four_two=self.lt(four_two),
            ),
            self.lt("  A turn: {turn}", turn=_turn_rule(rules, self.locale)),
            self.lt(
                "  First turn: the first player holds {size} tiles and discards one, then "
                "draws and discards again."
                if rules.first_turn_extra_draw
                else "  First turn: the first player holds {size} tiles and discards one.",
                size=h,
            ),
            self.lt(
                "  Declare on your turn as soon as your hand wins; the game is drawn when the "
                "wall runs out or after {turns} turns.",
                turns=rules.max_turns,
            ),
        ]
        if rules.exclude_own_discards:
            lines.append(self.lt("  You may not take back your own discards."))
        if rules.stall_guard and not rules.draw_after_take:
            # With a draw after every take no turn passes without a draw: the guard cannot apply.
            lines.append(
                self.lt(
                    "  After {players} turns in a row of taking without drawing, the next "
                    "player must draw unless taking wins.",
                    players=rules.players,
                )
            )
        lines += [
            self.lt("Moves (the prompt lists the legal ones):"),
            self.lt("  take 6-5 | t 65    take a face-up discard ('take' alone: the most recent)"),
            self.lt("  draw | dr          draw from the wall"),
            self.lt(
                "  discard 3-1 | d 31 | 31    discard a tile (a bare tile discards it, or takes it"
            ),
            self.lt("                     when you may take or draw)"),
            self.lt("  declare            declare your winning hand"),
            self.lt("Tiles: 6-5, 56, [6:5], 6/5 or a name (Axe, 斧頭)."),
            self.lt(
                "Commands: ? or legal (legal moves), hand, pool, look (everything), help, quit."
            ),
        ]
        return "\n".join(lines)

    def game_over(self, seen: View) -> None:
        """Who won and how, with the winning arrangement, or why the game is drawn."""
        result = seen.result
        assert result is not None  # the client calls it at the end
        self.say()
        self.say(self.lt("=== Game over ==="))
        if self.locale != "en":
            self.game_over_translated(result)
            return
        if result.winner is None or result.witness is None:
            if result.reason is EndReason.CAP:
                why = f"the turn limit of {self.rules.max_turns} turns was reached"
            else:
                why = "the wall is exhausted"
            refund = (
                "the pot stays on the table for the next game"
                if self.rules.pot_carries_over
                else "every ante is refunded"
            )
            self.say(f"The game is drawn on turn {result.turn}: {why}; {refund}.")
            return
        how = {
            WinBy.DEALT: "with the hand as dealt",
            WinBy.TAKE: "by taking a discard",
            WinBy.DRAW: "with a tile drawn from the wall",
        }[result.win_by or WinBy.DEALT]
        winner = result.winner
        self.say(f"{self.verb(winner, 'wins', 'win')} on turn {result.turn}, {how}.")
        self.say("Winning arrangement:")
        eye = result.witness.eye
        self.say(f"  eye   {eye[0].label} + {eye[1].label}")
        # In the witness's own order: the same order as the "declared a winning hand" line.
        for a, b in result.witness.pairs:
            x, y = _pair_values(a, b, self.rules.four_two_value)
            self.say(f"  pair  {a.label} + {b.label}  ({x} + {y} = {x + y})")


def _turn_rule(rules: RuleSet, locale: str = "en") -> str:
    """One sentence: what a turn consists of under these rules."""
    what = (
        tr(locale, "any face-up discard")
        if rules.offer is Offer.ANY
        else tr(locale, "the most recent discard")
    )
    if rules.draw_after_take:
        text = tr(
            locale,
            "optionally take {what} and discard a tile, then draw from the wall and discard "
            "a tile.",
            what=what,
        )
    else:
        text = tr(
            locale, "either take {what} or draw from the wall, then discard a tile.", what=what
        )
    if rules.offer is Offer.LAST and not rules.draw_after_take:
        text += tr(locale, " A discard the next player does not take is dead.")
    return text


def _pair_values(a: Tile, b: Tile, four_two: FourTwo) -> tuple[int, int]:
    """The values two tiles take to make 10 or 20 (their pips if they do not)."""
    values = ten_pair_values(a, b, four_two)
    return values if values is not None else (a.pips, b.pips)
