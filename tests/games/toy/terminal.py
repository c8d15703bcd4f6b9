"""High Pair's terminal facet (the Protocol :class:`bot.terminal.family.GameTerminal`): no
set-up question of its own, and the hooks of one game: ``d`` draws, a digit discards that card,
``s`` shows; the full notation (``draw``, ``discard 7``, ``show``) works too."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.errors import NotationError
from bot.terminal.family import Asker, Console, GameTerminal, TableHooks
from tests.games.toy.ai import LEVELS
from tests.games.toy.engine import (
    FACET as ENGINE,
)
from tests.games.toy.engine import (
    Discard,
    Discarded,
    Draw,
    Drew,
    GameOver,
    Show,
    Shown,
    ToyResult,
    ToyState,
    ToyView,
    card,
)

__all__ = ["FACET", "ToyHooks", "ToyTerminal"]


def _cards(cards: Sequence[int]) -> str:
    return " ".join(str(c) for c in cards) if cards else "-"


class ToyHooks:
    """One game of High Pair at the terminal."""

    def __init__(self, console: Console, state: ToyState, human: int) -> None:
        self.console = console
        self.rules = state.rules
        self.human = human
        self.current = state.current
        self.turn = state.turn

    def announce(self, level: str, seed: int | None) -> None:
        """The game, the hand size, the computer's level, who plays first."""
        lt = self.console.lt
        self.console.say(lt("High Pair: hand of {hand}.", hand=self.rules.hand))
        self.console.say(lt("Computer level: {level}.", level=level))
        if seed is not None:
            self.console.say(lt("Seed: {seed}.", seed=seed))
        first = self.console.names[self.current]
        self.console.say(lt("{name} plays first.", name=first))

    def status(self, seen: ToyView, legal: Sequence[Any]) -> None:
        """The hand, the discards, the stock, the moves."""
        lt = self.console.lt
        self.console.say(lt("Your hand: {cards}", cards=_cards(seen.hand)))
        self.console.say(
            lt(
                "Discards: {cards} · stock: {n} cards",
                cards=_cards(seen.discards),
                n=seen.stock,
            )
        )
        legal_line = getattr(self.console, "legal_line", None)
        if legal_line is not None:
            legal_line(legal)
        else:  # a console without the line of moves
            self.console.say(", ".join(str(a) for a in legal))

    def interpret(self, text: str, seen: ToyView, legal: Sequence[Any]) -> Any:
        """``d``, a digit, ``s`` or the notation; NotationError for anything else."""
        word = text.strip().lower()
        if word == "d":
            return Draw()
        if word == "s":
            return Show()
        if len(word) == 1 and word in "123456789":
            return Discard(int(word))
        try:
            return ENGINE.parse_action(word)
        except NotationError:
            raise NotationError(
                f"Cannot read '{text[:40]}': type d, a card (1 to 9) or s."
            ) from None

    def narrate(self, events: Sequence[Any]) -> None:
        """Draws (the human's card named), discards, the show."""
        lt, names = self.console.lt, self.console.names
        for event in events:
            if isinstance(event, Drew):
                if event.seat == self.human:
                    self.console.say(lt("You drew {card}.", card=card(event.piece)))
                else:
                    self.console.say(lt("{name} drew a card.", name=names[event.seat]))
            elif isinstance(event, Discarded):
                self.console.say(
                    lt("{name} discarded {card}.", name=names[event.seat], card=event.card)
                )
                self.current = (event.seat + 1) % self.rules.players
                self.turn += 1
                if not any(isinstance(e, GameOver) for e in events):
                    header = getattr(self.console, "turn_header", None)
                    if header is not None:
                        header(self.current, self.turn)
            elif isinstance(event, Shown):
                self.console.say(
                    lt("{name} shows {cards}.", name=names[event.seat], cards=_cards(event.cards))
                )

    def game_over(self, seen: Any) -> None:
        """Who won, with which pair."""
        result: ToyResult = seen if isinstance(seen, ToyResult) else seen.result
        lt, names = self.console.lt, self.console.names
        for seat, pair in enumerate(result.pairs):
            shown = "-" if pair is None else str(pair)
            self.console.say(lt("{name}: best pair {pair}.", name=names[seat], pair=shown))
        if result.winner is None:
            self.console.say(lt("The game is drawn: no higher pair."))
        else:
            self.console.say(
                lt(
                    "{name} won with a pair of {pair}.",
                    name=names[result.winner],
                    pair=result.pairs[result.winner],
                )
            )

    def help(self) -> str:
        """The moves."""
        return self.console.lt(
            "High Pair: d draws, a digit discards that card, s shows your pair "
            "(or type draw, discard 7, show)."
        )


class ToyTerminal:
    """High Pair for the terminal client."""

    def levels(self, game: str) -> tuple[str, ...]:
        """``random``, ``greedy``."""
        return LEVELS

    def unknown_level(self, game: str) -> str:
        """The refusal of an unknown level."""
        return "unknown level '{level}': choose one of {known}"

    def rule_sets(self, game: str) -> tuple[str, ...]:
        """No rule set to choose."""
        return ()

    def setup(
        self,
        game: str,
        ask: Asker,
        locale: str = "en",
        chosen: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Nothing to ask: one opponent, one rule set."""
        return {}

    def hooks(self, console: Console, state: ToyState, human: int) -> TableHooks:
        """The hooks of one game."""
        return ToyHooks(console, state, human)


FACET: GameTerminal = ToyTerminal()
"""High Pair's terminal facet (``terminal_of("high-pair")``)."""
