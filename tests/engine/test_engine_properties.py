"""Property tests over random games of every preset (hypothesis).

Each game is played with random legal actions and checked at every step against an independent
model of RULES.md §2.3-§2.4 kept by this test (hands, pool, wall, phase, offer, the first turn,
the stall guard and the empty wall, under which only a winning take is allowed, and the ends),
plus: tiles conserved, hand sizes, legal actions never empty before the end, termination within
``max_turns``, every seat's view showing as takeable exactly what it may take, ``view`` hiding
other hands and the wall order, ``apply`` never mutating its input, illegal actions refused, and
replay determinism.
"""

from __future__ import annotations

import dataclasses
import pickle
import random
from collections import Counter
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import (
    KINDS,
    IllegalAction,
    RuleSet,
    apply,
    legal_actions,
    make_deal,
    make_rules,
    new_game,
    view,
    with_flag,
)
from bot.engine.events import TurnStarted
from bot.engine.rules import MAX_SETS, Game, Offer
from bot.engine.tiles import PIECES_PER_SET, Tile, kind_of_piece
from bot.games.collecting.engine.actions import Action, Declare, Discard, Take
from bot.games.collecting.engine.machine import (
    Declared,
    Discarded,
    Drew,
    EndReason,
    Event,
    GameDrawn,
    GameState,
    Phase,
    Took,
    WinBy,
    hand_tiles,
)
from bot.games.dominoes.engine.actions import Draw
from tests.engine.helpers import brute_force_rules_wins, witness_problems

ALL_ACTIONS: list[Action] = [
    *(Take(k) for k in KINDS),
    Take(),
    Draw(),
    *(Discard(k) for k in KINDS),
    Declare(),
]


FIELDS = dataclasses.fields(GameState)


@dataclass
class Entry:
    tile: Tile
    seat: int
    live: bool


@dataclass
class Model:
    """What RULES.md says the game looks like, rebuilt from the deal and the events only."""

    rules: RuleSet
    hands: list[Counter[Tile]]
    wall: list[Tile]
    drawn: int = 0
    pool: list[Entry] = field(default_factory=list)
    current: int = 0
    turn: int = 1
    phase: Phase = Phase.DISCARD
    then_draw: bool = False
    just_taken: Tile | None = None
    last_in: WinBy = WinBy.DEALT
    drew_this_turn: bool = False
    took_this_turn: bool = False
    turns_without_draw: int = 0  # consecutive turns that took a discard and drew nothing
    over: bool = False

    @classmethod
    def from_deal(cls, rules: RuleSet, order: tuple[int, ...], first: int) -> Model:
        hands: list[Counter[Tile]] = [Counter() for _ in range(rules.players)]
        pos = 0
        for offset in range(rules.players):
            seat = (first + offset) % rules.players
            size = rules.hand_size - (offset > 0)
            hands[seat] = Counter(kind_of_piece(p) for p in order[pos : pos + size])
            pos += size
        wall = [kind_of_piece(p) for p in order[pos:]]
        return cls(rules, hands, wall, current=first, then_draw=rules.first_turn_extra_draw)

    @property
    def wall_left(self) -> int:
        return len(self.wall) - self.drawn

    def stalled(self) -> bool:
        return self.rules.stall_guard and self.turns_without_draw >= self.rules.players

    def wins_with(self, tile: Tile) -> bool:
        return brute_force_rules_wins([*self.hands[self.current].elements(), tile], self.rules)

    def takeable_entries(self) -> list[int]:
        """Pool indices the current player may take: live (and not his own if excluded); under
        the stall guard or with an empty wall, only those that win."""
        if self.over or self.phase is not Phase.TAKE_OR_DRAW:
            return []
        own_barred = self.rules.exclude_own_discards
        out = [
            i
            for i, e in enumerate(self.pool)
            if e.live and not (own_barred and e.seat == self.current)
        ]
        if self.stalled() or self.wall_left == 0:
            out = [i for i in out if self.wins_with(self.pool[i].tile)]
        return out

    def takeable(self) -> set[Tile]:
        return {self.pool[i].tile for i in self.takeable_entries()}

    def expected_legal(self) -> set[str]:
        if self.over:
            return set()
        if self.phase is Phase.TAKE_OR_DRAW:
            out = {f"take {t}" for t in self.takeable()}
            if self.wall_left:
                out.add("draw")
            return out
        if self.phase is Phase.DRAW:
            return {"draw"}
        hand = self.hands[self.current]
        out = {f"discard {t}" for t, n in hand.items() if n > 0 and t != self.just_taken}
        if brute_force_rules_wins(list(hand.elements()), self.rules):
            out.add("declare")
        return out

    # -- the model follows the events -----------------------------------------------------

    def end_of_turn(self) -> EndReason | None:
        if self.drew_this_turn:
            self.turns_without_draw = 0
        elif self.took_this_turn:
            self.turns_without_draw += 1
        self.drew_this_turn = False
        self.took_this_turn = False
        self.just_taken = None
        if self.turn + 1 > self.rules.max_turns:
            return EndReason.CAP
        self.turn += 1
        self.current = (self.current + 1) % self.rules.players
        self.phase = Phase.TAKE_OR_DRAW
        if self.wall_left == 0 and not self.takeable():
            return EndReason.WALL
        return None

    def follow(self, seat: int, action: Action, events: list[Event]) -> EndReason | None:
        """Apply the events of one action; returns the end the model expects, if any."""
        assert seat == self.current
        rules = self.rules
        match action:
            case Take():
                (took,) = events
                assert isinstance(took, Took) and took.seat == seat
                offered = self.takeable_entries()
                candidates = [i for i in offered if self.pool[i].tile == took.tile]
                assert candidates, f"took {took.tile}, which was not offered"
                if action.tile is None:
                    # "take" alone takes the most recent discard that may be taken.
                    assert took.tile == self.pool[offered[-1]].tile
                else:
                    assert took.tile == action.tile
                entry = self.pool.pop(candidates[-1])
                assert took.from_seat == entry.seat
                if rules.offer is Offer.LAST:
                    for e in self.pool:
                        e.live = False
                self.hands[seat][took.tile] += 1
                self.phase = Phase.DISCARD
                self.then_draw = rules.draw_after_take
                self.just_taken = took.tile
                self.last_in = WinBy.TAKE
                self.took_this_turn = True
                return None
            case Draw():
                (drew,) = events
                assert isinstance(drew, Drew) and drew.seat == seat
                assert drew.tile == self.wall[self.drawn], "the wall is not drawn in deal order"
                self.drawn += 1
                assert drew.wall_left == self.wall_left
                self.hands[seat][drew.tile] += 1
                self.phase = Phase.DISCARD
                self.then_draw = False
                self.just_taken = None
                self.drew_this_turn = True
                self.last_in = WinBy.DRAW
                return None
            case Discard(tile):
                assert isinstance(events[0], Discarded) and events[0] == Discarded(seat, tile)
                self.hands[seat][tile] -= 1
                assert self.hands[seat][tile] >= 0
                if rules.offer is Offer.LAST:
                    for e in self.pool:
                        e.live = False
                self.pool.append(Entry(tile, seat, True))
                self.just_taken = None
                if self.then_draw:
                    self.then_draw = False
                    self.phase = Phase.DRAW
                    expected_end = EndReason.WALL if self.wall_left == 0 else None
                else:
                    expected_end = self.end_of_turn()
                rest = events[1:]
                if expected_end is None:
                    if self.phase is Phase.DRAW:
                        assert rest == []
                    else:
                        assert rest == [TurnStarted(self.current, self.turn)]
                else:
                    assert rest == [GameDrawn(expected_end)]
                    self.over = True
                return expected_end
            case Declare():
                (declared,) = events
                assert isinstance(declared, Declared) and declared.seat == seat
                assert declared.win_by is self.last_in
                hand = list(self.hands[seat].elements())
                military = rules.sets > 1 and not rules.civil_eyes_only
                problems = witness_problems(declared.witness, hand, rules.four_two_value, military)
                assert problems == []
                self.over = True
                return EndReason.DECLARED
        raise AssertionError(action)


def hidden_shuffled(state: GameState, seat: int | None, rng: random.Random) -> GameState:
    """The same game with everything ``seat`` cannot see shuffled: the other hands' tiles and
    the undrawn wall trade places (sizes kept)."""
    others = [s for s in range(state.rules.players) if s != seat]
    hidden = [p for s in others for p in state.hands[s]] + list(state.wall[state.wall_pos :])
    rng.shuffle(hidden)
    hands = list(state.hands)
    pos = 0
    for s in others:
        hands[s] = tuple(hidden[pos : pos + len(state.hands[s])])
        pos += len(state.hands[s])
    wall = state.wall[: state.wall_pos] + tuple(hidden[pos:])
    return dataclasses.replace(state, hands=tuple(hands), wall=wall)


def check_state(state: GameState, model: Model, rng: random.Random) -> None:
    rules = state.rules
    H = rules.hand_size
    # Tiles conserved: every piece is in exactly one hand, the pool or the wall.
    pieces = [p for hand in state.hands for p in hand]
    pieces += [e.piece for e in state.pool]
    pieces += list(state.wall[state.wall_pos :])
    assert sorted(pieces) == list(range(rules.tile_count))
    # The engine's hands and pool are the model's.
    for seat in range(rules.players):
        assert Counter(hand_tiles(state, seat)) == +model.hands[seat], seat
    assert [(kind_of_piece(e.piece), e.seat) for e in state.pool] == [
        (e.tile, e.seat) for e in model.pool
    ]
    assert state.wall_size == model.wall_left
    # Hand sizes: H-1 between turns, H while discarding (and for a winner).
    for seat in range(rules.players):
        size = len(state.hands[seat])
        holding_full = (
            seat == state.current and state.phase is Phase.DISCARD and state.result is None
        ) or (state.result is not None and state.result.winner == seat)
        assert size == (H if holding_full else H - 1), (seat, size, state.phase)
    # Legal actions: exactly what the model allows, never empty before the end.
    legal = legal_actions(state)
    assert len(legal) == len(set(legal))
    assert {str(a) for a in legal} == model.expected_legal()
    if state.result is None:
        assert legal
        assert state.phase is model.phase and state.current == model.current
        assert state.turn == model.turn <= rules.max_turns
    else:
        assert legal == []
    # One truth for clients: every seat's view shows as takeable exactly what it may take now.
    legal_takes = {a.tile for a in legal if isinstance(a, Take)}
    for seat in range(rules.players):
        shown = {p.tile for p in view(state, seat).takeable}
        assert shown == (legal_takes if seat == state.current else set()), seat
    # What each seat may see.
    viewers: list[int | None] = [state.current, rng.choice([rng.randrange(rules.players), None])]
    for viewer in viewers:
        seen = view(state, viewer)
        if viewer is None:
            assert seen.hand == ()
        else:
            assert seen.hand == tuple(hand_tiles(state, viewer))
        assert seen.hand_sizes == tuple(len(h) for h in state.hands)
        mine = set(model.takeable_entries()) if viewer == model.current else set()
        assert [(p.tile, p.seat, p.dead, p.takeable) for p in seen.pool] == [
            (e.tile, e.seat, not e.live, i in mine) for i, e in enumerate(model.pool)
        ]
        assert seen.wall_size == model.wall_left
        assert seen.my_turn == (state.result is None and viewer == state.current)
        # The public record never names a drawn tile.
        assert {m.verb for m in seen.history} <= {"take", "discard", "draw", "declare"}
        assert all(m.tile is None for m in seen.history if m.verb in ("draw", "declare"))
        if state.result is None:
            # Nothing in the view depends on what this seat cannot see.
            assert view(hidden_shuffled(state, viewer, rng), viewer) == seen


def choose(legal: list[Action], rng: random.Random, always_declare: bool) -> Action:
    if always_declare and Declare() in legal:
        return Declare()
    action = rng.choice(legal)
    if isinstance(action, Take) and rng.random() < 0.25:
        return Take()  # "take" alone: the most recent discard that may be taken
    return action


def play_checked(
    rules: RuleSet, seed: int, always_declare: bool, situations: Counter[str] | None = None
) -> GameState:
    """Play one random game, checking every step; ``situations`` counts the turns that began
    under the stall guard or with an empty wall, by whether a (winning) take was offered."""
    rng = random.Random(seed)
    deal = make_deal(rules, rng, thrower=rng.randrange(rules.players))
    seats = [f"seat {i}" for i in range(rules.players)]
    state: GameState = new_game(rules, seats, deal)
    model = Model.from_deal(rules, deal.order, deal.first_seat)
    check_state(state, model, rng)
    actions: list[Action] = []
    events_seen: list[Event] = []
    limit = 4 * rules.max_turns + 4
    while state.result is None:
        assert len(actions) < limit, "the game does not terminate"
        legal = legal_actions(state)
        if situations is not None and model.phase is Phase.TAKE_OR_DRAW:
            where = "empty wall" if model.wall_left == 0 else "stall" if model.stalled() else ""
            if where:
                offered = any(isinstance(a, Take) for a in legal)
                situations[f"{where}: {'winning take' if offered else 'draw only'}"] += 1
        # A few illegal actions: refused, state untouched. (A full snapshot of the state is
        # costly, so it is taken at one step in eight; every step checks the fields' identity.)
        snapshot = pickle.dumps(state) if rng.random() < 0.125 else None
        fields = [getattr(state, f.name) for f in FIELDS]
        for wrong in rng.sample([a for a in ALL_ACTIONS if a not in legal], 3):
            if (
                isinstance(wrong, Take)
                and wrong.tile is None
                and any(isinstance(a, Take) for a in legal)
            ):
                continue  # "take" alone means the most recent discard, which may be legal
            with pytest.raises(IllegalAction) as info:
                apply(state, wrong)
            assert str(info.value)
        action = choose(legal, rng, always_declare)
        seat = state.current
        new_state, events = apply(state, action)
        assert all(getattr(state, f.name) is v for f, v in zip(FIELDS, fields, strict=True))
        assert snapshot is None or pickle.dumps(state) == snapshot, "apply changed its input"
        assert new_state.version == state.version + 1
        end = model.follow(seat, action, events)
        state = new_state
        actions.append(action)
        events_seen += events
        check_state(state, model, rng)
        assert (state.result is not None) == (end is not None)
    result = state.result
    assert result is not None
    assert result.turn <= rules.max_turns
    if result.reason is EndReason.DECLARED:
        assert result.winner is not None and result.witness is not None
    else:
        assert result.winner is None
    if result.reason is EndReason.CAP:
        assert result.turn == rules.max_turns
    if result.reason is EndReason.WALL:
        assert state.wall_size == 0
    # Determinism: the same actions on the same deal give the same game.
    again: GameState = new_game(rules, seats, deal)
    replayed: list[Event] = []
    for action in actions:
        again, events = apply(again, action)
        replayed += events
    assert again == state
    assert replayed == events_seen
    return state


# ---------------------------------------------------------------------------------------------
# Every preset


PRESETS = [("kap-shap", 2, name) for name in ("culin", "classic", "last-draw")] + [
    ("kap-tai-shap", players, name)
    for players in (2, 3, 4, 5, 7, 10, 14, 20)
    for name in ("culin", "classic", "last-draw")
]


@pytest.mark.parametrize(("game", "players", "rule_set"), PRESETS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), always_declare=st.booleans())
def test_random_games_of_every_preset(
    game: str, players: int, rule_set: str, seed: int, always_declare: bool
) -> None:
    play_checked(make_rules(game, players, rule_set), seed, always_declare)


@pytest.mark.parametrize("players", [2, 5, 10])
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), always_declare=st.booleans())
def test_random_games_with_default_rules(players: int, seed: int, always_declare: bool) -> None:
    play_checked(make_rules("kap-tai-shap", players), seed, always_declare)


def _min_sets(players: int) -> int:
    dealt = 10 + 9 * (players - 1)
    return dealt // PIECES_PER_SET + 1


@st.composite
def rule_variations(draw: st.DrawFn) -> RuleSet:
    game = draw(st.sampled_from([Game.KAP_SHAP, Game.KAP_TAI_SHAP]))
    if game is Game.KAP_SHAP:
        players, sets = 2, 1
    else:
        players = draw(st.integers(2, 20))
        sets = draw(st.integers(_min_sets(players), MAX_SETS))
    rule_set = draw(st.sampled_from(["culin", "classic", "last-draw"]))
    flags = {
        "four_two_value": draw(st.sampled_from(["3", "6", "wild"])),
        "civil_eyes_only": draw(st.booleans()),
        "first_turn_extra_draw": draw(st.booleans()),
        "first_player": draw(st.sampled_from(["four-dice", "lots"])),
        "stall_guard": draw(st.booleans()),
        "max_turns": draw(st.sampled_from([1, 2, 7, 25, 50 * players])),
    }
    if rule_set == "culin":
        flags["exclude_own_discards"] = draw(st.booleans())
    rules = make_rules(game, players, rule_set, sets, **flags)
    if draw(st.booleans()):
        # Take-any without the draw after a take: not a named rule set, but a legal flag mix.
        rules = with_flag(rules, "draw_after_take", "false")
    return rules


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_variations(), seed=st.integers(0, 2**32 - 1), always_declare=st.booleans())
def test_random_games_with_flag_variations(rules: RuleSet, seed: int, always_declare: bool) -> None:
    play_checked(rules, seed, always_declare)


def test_random_games_do_end_in_wins_and_every_kind_of_draw() -> None:
    # Non-vacuity of the properties above: the checked games reach every kind of end.
    ends: Counter[EndReason] = Counter()
    win_by: Counter[WinBy] = Counter()
    situations: Counter[str] = Counter()
    for seed in range(20):
        for rules in (
            make_rules("kap-shap"),
            make_rules("kap-shap", rule_set="classic"),
            make_rules("kap-tai-shap", 6, max_turns=30),
        ):
            state = play_checked(rules, seed, always_declare=True, situations=situations)
            assert state.result is not None
            ends[state.result.reason] += 1
            if state.result.win_by is not None:
                win_by[state.result.win_by] += 1
    assert set(ends) == set(EndReason), ends
    assert {WinBy.TAKE, WinBy.DRAW} <= set(win_by), win_by
    # ... and the turns where only a winning take is allowed, with and without one.
    assert set(situations) == {
        "stall: winning take",
        "stall: draw only",
        "empty wall: winning take",
    }, situations
