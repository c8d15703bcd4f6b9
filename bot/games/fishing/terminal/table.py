"""Tsung Shap at the terminal: the row between its L and R ends, the scores and piles, a missed
capture to claim, the turned tile and what it captures, the shortcuts (``d``, ``l``, ``r``,
``c``), the play-by-play and the final scores with the chips; the hooks of
:class:`bot.terminal.family.TableHooks`."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import FourTwo, Settlement, Tile, describe_event
from bot.engine.events import TurnStarted
from bot.games import find
from bot.games.dominoes.engine.actions import Draw
from bot.games.dominoes.terminal.table import DominoTable, tile_count
from bot.games.fishing.engine import (
    Captured,
    Claimed,
    Combination,
    FishingEvent,
    FishingPhase,
    FishingView,
    GameOver,
    MissedCapture,
    Placed,
    Swept,
    TileTurned,
    difference_payment,
    tile_values,
)
from bot.games.fishing.engine.actions import (
    Capture,
    End,
    FishingAction,
    Place,
    parse_fishing_action,
)
from bot.locale import N_
from bot.locale import t as tr
from bot.terminal.console import level_names

__all__ = ["FishingTable"]

# Tsung Shap's command besides the client's (help, ?, look, quit): the row is the whole table.
_COMMANDS: dict[str, str] = {"row": "look"}

# Shortcuts for the Tsung Shap actions.
_FISHING_SHORTCUTS: dict[str, FishingAction] = {
    "d": Draw(),
    "dr": Draw(),
    "l": Place(End.LEFT),
    "pl": Place(End.LEFT),
    "r": Place(End.RIGHT),
    "pr": Place(End.RIGHT),
}


class FishingTable(DominoTable):
    """One Tsung Shap game in progress, seen from the human seat (everything is public but the
    order of the piles, which nobody knows)."""

    def other(self) -> int:
        """The opponent's seat."""
        return 1 - self.human

    def rules_words(self) -> str:
        """One set, two players and the piles, as the bot's table message says."""
        return self.lt(
            "Standard rules · 2 players · 1 set · piles of {size}", size=self.rules.pile_size
        )

    # -- the game's hooks ---------------------------------------------------------------------

    def announce(self, level: str, seed: int | None) -> None:
        """The rules, the seed, the seats, the dice and the piles."""
        rules = self.rules
        title = self.lt(find(rules.game).title)
        self.say(self.lt("{title}: {rules}.", title=title, rules=self.rules_line()))
        if seed is not None:
            self.say(self.lt("Seed {seed} (--seed {seed} deals this game again).", seed=seed))
        seats = (", " if self.locale == "en" else "、").join(
            (f"{seat}: {name}" if self.locale == "en" else f"{seat}：{name}")
            + (
                ""
                if seat == self.human
                else self.lt(" ({level} AI)", level=level_names(self.locale, level))
            )
            for seat, name in enumerate(self.names)
        )
        self.say(self.lt("Seats: {seats}.", seats=seats))
        first = self.deal.first_seat
        if self.locale == "en":
            plays = "you play first" if first == self.human else f"{self.names[first]} plays first"
        else:
            plays = self.lt("{first} plays first", first=self.names[first])
        if self.deal.dice:
            dice = " + ".join(str(d) for d in self.deal.dice)
            self.say(
                self.lt(
                    "The four dice show {dice} = {total}: {plays}.",
                    dice=dice,
                    total=sum(self.deal.dice),
                    plays=plays,
                )
            )
        else:
            self.say(self.lt("{plays}.", plays=f"{plays[0].upper()}{plays[1:]}"))
        self.say(
            self.lt(
                "Each player turns over a face-down pile of {size} tiles, one a turn, "
                "and captures from the ends of the row.",
                size=rules.pile_size,
            )
        )
        self.say(
            self.lt(
                "Type a move as listed after 'Legal:' (e.g. 'draw', 'capture pair left', "
                "'place right'), '?' for your legal moves, 'help' for the rules, 'quit' to leave."
            )
        )

    def narrate(self, events: Sequence[FishingEvent]) -> None:
        """Each event on its line (the end is game_over's); a turn's start as the client's
        turn header."""
        for event in events:
            if isinstance(event, TurnStarted):
                self.console.turn_header(event.seat, event.turn)
            elif not isinstance(event, GameOver):  # game_over() prints the end
                self.say(self.event_line(event))

    def event_line(self, event: FishingEvent) -> str:
        """One event for the human seat: the engine's English line, or in the table's language
        with the words of the bot's table message (the catalogue's)."""
        if self.locale == "en":
            return describe_event(event, self.human, self.names)
        names = self.names

        def term(word: object) -> str:
            return tr(self.locale, str(word), context="term")

        match event:
            case TileTurned(seat, tile, pile_left, relay):
                msgid = (
                    N_("{name} at once turned over {tile} ({left} left in the pile).")
                    if relay
                    else N_("{name} turned over {tile} ({left} left in the pile).")
                )
                return self.lt(msgid, name=names[seat], tile=self.label(tile), left=pile_left)
            case Placed(seat, tile, end, _auto):
                if end is None:
                    return self.lt(
                        "{name} laid {tile} out to start a new row.",
                        name=names[seat],
                        tile=self.label(tile),
                    )
                return self.lt(
                    "{name} placed {tile} at the {end} end of the row.",
                    name=names[seat],
                    tile=self.label(tile),
                    end=term(end),
                )
            case Captured(seat, kind, end, tiles, score, sweep):
                joined = " + ".join(map(str, tiles))
                if sweep:
                    return self.lt(
                        "{name} swept the row with {tiles}: {score} points.",
                        name=names[seat],
                        tiles=joined,
                        score=score,
                    )
                return self.lt(
                    "{name} captured a {kind} at {where}, {tiles}: {score} points.",
                    name=names[seat],
                    kind=term(kind),
                    where=self.lt("both ends")
                    if end is End.ENDS
                    else self.lt("the {end} end", end=term(end)),
                    tiles=joined,
                    score=score,
                )
            case Swept(seat):
                return self.lt("{name} swept the table and starts a new row.", name=names[seat])
            case MissedCapture(seat, claimant, missed):
                options = "; ".join(
                    f"'{c.claim}' ({' + '.join(map(str, c.tiles))}: {c.score})" for c in missed
                )
                return self.lt(
                    "{name} could have captured and did not. {other} may claim one at the "
                    "start of the next turn: {options}.",
                    name=names[seat],
                    other=names[claimant],
                    options=options,
                )
            case Claimed(seat, from_seat, combo):
                return self.lt(
                    "{name} claimed the {kind} {other} missed ({end}), {tiles}: {score} points.",
                    name=names[seat],
                    kind=term(combo.kind),
                    other=names[from_seat],
                    end=term(combo.end),
                    tiles=" + ".join(map(str, combo.tiles)),
                    score=combo.score,
                )
        return describe_event(event, self.human, self.names)

    def interpret(
        self, text: str, seen: FishingView, legal: Sequence[FishingAction]
    ) -> FishingAction | str:
        """An action to play, or a message to show ('' for none): ``row`` shows the table.

        Raises NotationError for an unreadable action.
        """
        lower = text.lower()
        if _COMMANDS.get(lower) == "look":
            self.status(seen, legal)
            return ""
        if lower in _FISHING_SHORTCUTS:
            return _FISHING_SHORTCUTS[lower]
        if lower in ("c", "capture"):
            captures = [a for a in legal if isinstance(a, Capture)]
            if len(captures) == 1:
                return captures[0]
            if not captures:
                return self.lt("your tile captures nothing now")
            return self.lt(
                "say which capture: {options}", options=", ".join(f"'{a}'" for a in captures)
            )
        return parse_fishing_action(text)

    # -- display -----------------------------------------------------------------------------

    def status(self, seen: FishingView, legal: Sequence[FishingAction]) -> None:
        """The row, the scores, the piles, a claimable miss, the turned tile, the legal list."""
        self.show_row(seen)
        you, them = self.human, self.other()
        self.say(
            self.lt(
                "Scores: {you} {your_score}, {them} {their_score}.",
                you=self.names[you],
                your_score=seen.scores[you],
                them=self.names[them],
                their_score=seen.scores[them],
            )
        )
        self.say(
            self.lt(
                "Tiles left in the piles: {you} {your_pile}, {them} {their_pile}.",
                you=self.names[you],
                your_pile=seen.pile_sizes[you],
                them=self.names[them],
                their_pile=seen.pile_sizes[them],
            )
        )
        if seen.phase is FishingPhase.TURN_OVER:
            if seen.pending and seen.missed_by is not None:
                options = "; ".join(
                    f"'{c.claim}' ({' + '.join(map(str, c.tiles))}: {c.score})"
                    for c in seen.pending
                )
                self.say(
                    self.lt(
                        "{name} missed a capture: you may claim one before turning over: "
                        "{options}.",
                        name=self.names[seen.missed_by],
                        options=options,
                    )
                )
            self.say(self.lt("Turn over your next tile with 'draw'."))
        elif seen.turned is not None:
            self.say(
                self.lt(
                    "Your tile: {tile}{note}.",
                    tile=self.label(seen.turned),
                    note=self.value_note(seen.turned),
                )
            )
            if seen.options:
                captures = "; ".join(f"'{c.capture}' ({self.combo_text(c)})" for c in seen.options)
                self.say(self.lt("It can capture: {captures}.", captures=captures))
            else:
                self.say(
                    self.lt("It captures nothing: place it at the left or right end of the row.")
                )
        self.show_legal(legal)

    def combo_text(self, combo: Combination) -> str:
        """A capture's tiles, points and whether it sweeps."""
        sweep = self.lt(" - a sweep") if combo.sweep else ""
        return f"{' + '.join(map(str, combo.tiles))}: {combo.score}{sweep}"

    def show_row(self, seen: FishingView) -> None:
        """The row on one line, left to right, between its L and R ends."""
        if not seen.row:
            self.say(self.lt("Row: empty."))
            return
        if self.locale == "en":
            tiles = " | ".join(f"{t} {t.english}" for t in seen.row)
        else:
            tiles = " | ".join(self.label(t) for t in seen.row)
        count = tile_count(len(seen.row), self.locale)
        self.say(
            self.lt("Row ({count}, left to right):  L | {tiles} | R", count=count, tiles=tiles)
        )

    def value_note(self, tile: Tile) -> str:
        """What a tile counts under the rules in force."""
        values = tile_values(tile, self.rules.four_two_value)
        if len(values) > 1:
            return self.lt(" (counts {values})", values=self.lt(" or ").join(map(str, values)))
        return self.lt(" (counts {values})", values=values[0])

    def help(self) -> str:
        """The rules in force, the notation and the commands."""
        rules = self.rules
        four_two = {
            FourTwo.THREE: N_("4-2 counts 3"),
            FourTwo.SIX: N_("4-2 counts 6"),
            FourTwo.WILD: N_("4-2 and 2-1 each count 3 or 6"),
        }[rules.four_two_value]
        sweep = N_("40 + the pips") if rules.sweep_adds_pips else N_("a flat 40")
        triplets = (
            N_("the turned tile with both end tiles")
            if rules.triplet_both_ends_only
            else N_("the turned tile with the two tiles at one end, or with both end tiles")
        )
        end = (
            N_("when both piles are laid out")
            if rules.play_until_both_piles_empty
            else N_("as soon as a player has laid out his pile")
        )
        lines = [
            self.lt("Rules in force: {rules}.", rules=self.rules_line()),
            self.lt(
                "  A turn: optionally claim a capture the opponent missed, then turn over your "
                "next tile ('draw') and capture with it or place it at one end of the row."
            ),
            self.lt(
                "  Pair: your tile is identical to an end tile; scores 10 x the values of both."
            ),
            self.lt(
                "  Triplet: {triplets}, totalling 10, 20 or 30; scores the total ({four_two}).",
                triplets=self.lt(triplets),
                four_two=self.lt(four_two),
            ),
            self.lt(
                "  Sweep: a triplet that empties a 2-tile row scores {sweep}; you then start a "
                "new row with your next tile.",
                sweep=self.lt(sweep),
            ),
            self.lt(
                "  Placing a tile that could have captured lets the opponent claim the capture "
                "at the start of his next turn (auto_capture: you must take the best capture)."
                if rules.auto_capture
                else "  Placing a tile that could have captured lets the opponent claim the "
                "capture at the start of his next turn."
            ),
            self.lt("  The game ends {end}; the higher score wins.", end=self.lt(end)),
            self.lt("Moves (the prompt lists the legal ones):"),
            self.lt("  draw | d                       turn over your next tile"),
            self.lt("  capture pair left|right        capture a pair at an end ('c' if only one)"),
            self.lt("  capture triplet left|right|ends  capture a triplet"),
            self.lt("  place left|right | l | r       place your tile at an end"),
            self.lt("  claim pair|triplet left|right|ends  claim the opponent's missed capture"),
            self.lt("Commands: ? or legal (legal moves), look (the table), help, quit."),
        ]
        return "\n".join(lines)

    def game_over(self, seen: FishingView) -> None:
        """The final scores, the tiles left on the row, the winner and the chips."""
        result = seen.result
        assert result is not None  # the client calls it at the end
        self.say()
        self.say(self.lt("=== Game over ==="))
        you, them = self.human, self.other()
        self.say(
            self.lt(
                "Final scores: {you} {your_score}, {them} {their_score}.",
                you=self.names[you],
                your_score=result.scores[you],
                them=self.names[them],
                their_score=result.scores[them],
            )
        )
        if seen.row:
            self.say(
                self.lt(
                    "{tiles} left on the row score nothing.",
                    tiles=tile_count(len(seen.row), self.locale),
                )
            )
        if result.winner is None:
            self.say(self.lt("Equal scores: the game is drawn."))
            return
        margin = result.difference
        if result.winner == self.human and self.locale == "en":
            self.say(f"You win by {margin} points.")
        else:
            self.say(
                self.lt(
                    "{name} wins by {margin} points.",
                    name=self.names[result.winner],
                    margin=margin,
                )
            )
        if self.rules.settlement is Settlement.DIFFERENCE:
            chips = difference_payment(self.rules, result)
            self.say(
                self.lt(
                    "Settlement: {chips} chips ({rate} per point).",
                    chips=chips,
                    rate=self.rules.settle_rate,
                )
            )
