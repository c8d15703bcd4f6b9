"""Computer players for Tsung Shap (RULES.md §3), three levels.

* ``random``: a uniformly random legal action.
* ``greedy``: claims the best missed capture, always makes the highest-scoring capture, and
  otherwise places its tile where the opponent's expected best capture next turn is lowest.
* ``expert``: looks one exchange ahead. For each capture (it never declines one: placing instead
  would hand the opponent the same tiles as a claim) or placement it weighs what it scores now,
  the opponent's best reply for each tile he may turn over, and what that reply leaves it to
  capture on its next turn; near the end of the game it stops counting turns that will not
  come, and in the last exchange it plays for the chance of winning rather than for points.
  Once six tiles or fewer are unseen it searches the rest of the game exactly (every tile each
  player may turn over, every choice) for the chance of winning; points break ties.

Every player implements ``choose(view, legal, rng) -> action`` like :class:`bot.ai.base.Player`,
on a :class:`~bot.engine.FishingView`. The opponent's next tile is, for both players, equally
likely to be any tile not yet seen (nobody knows the order of any pile), so the players weigh
the unseen tiles by their counts.

The level table of Tsung Shap, with the ``master`` of :mod:`bot.games.fishing.ai.master` that
builds on these players, is :mod:`bot.games.fishing.ai.levels`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from bot.engine import RuleSet
from bot.engine.tiles import KINDS
from bot.games.dominoes.engine.actions import Draw
from bot.games.fishing.engine import SWEEP_SCORE, FishingPhase, FishingView, tile_values
from bot.games.fishing.engine.actions import Capture, Claim, ComboKind, End, FishingAction, Place

__all__ = [
    "ExpertFishingPlayer",
    "FishingPlayer",
    "GreedyFishingPlayer",
    "RandomFishingPlayer",
]


class FishingPlayer(Protocol):
    """A Tsung Shap computer player: picks one of the legal actions from what it may see."""

    level: str

    def choose(
        self, view: FishingView, legal: Sequence[FishingAction], rng: random.Random
    ) -> FishingAction:
        """Return one element of ``legal``."""
        ...


Row = tuple[int, ...]
"""A row as kind indices, left to right."""

Odds = tuple[tuple[int, float], ...]
"""The unseen kinds with the probability that a given unseen tile is of that kind."""


# How a capture leaves the row: drop the first tile, the last, the first two, the last two, or
# the first and the last (the turned tile is never on the row).
_DROP_L, _DROP_R, _DROP_LL, _DROP_RR, _DROP_LR = range(5)


def _drop(row: Row, how: int) -> Row:
    if how == _DROP_L:
        return row[1:]
    if how == _DROP_R:
        return row[:-1]
    if how == _DROP_LL:
        return row[2:]
    if how == _DROP_RR:
        return row[:-2]
    return row[1:-1]


class _Tables:
    """Fast capture arithmetic for one rule set (kind indices; the same results as
    :func:`bot.games.fishing.engine.row_captures`, which a test checks).

    Captures depend only on the two tiles at each end and on whether the row holds 1, 2 or
    more tiles.
    """

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        four_two = rules.four_two_value
        values = [tile_values(tile, four_two) for tile in KINDS]
        n = len(KINDS)
        self.n = n
        self.pair = [20 * max(v) for v in values]
        triplet = [0] * (n * n * n)
        for k in range(n):
            for a in range(n):
                for b in range(n):
                    best = 0
                    for x in values[k]:
                        for y in values[a]:
                            for z in values[b]:
                                total = x + y + z
                                if total % 10 == 0 and total > best:
                                    best = total
                    triplet[(k * n + a) * n + b] = best
        self.triplet = triplet
        self.both_ends_only = rules.triplet_both_ends_only
        self.sweep_adds = rules.sweep_adds_pips

    def _t(self, k: int, a: int, b: int) -> int:
        n = self.n
        return self.triplet[(k * n + a) * n + b]

    def sweep_score(self, total: int) -> int:
        return SWEEP_SCORE + (total if self.sweep_adds else 0)

    def moves(self, row: Row, k: int) -> list[tuple[int, int, bool]]:
        """The captures of kind ``k`` on ``row``: ``(score, how the row is left, sweep)``."""
        size = len(row)
        out: list[tuple[int, int, bool]] = []
        if not size:
            return out
        first, last = row[0], row[-1]
        if first == k:
            out.append((self.pair[k], _DROP_L, False))
        if size >= 2 and last == k:
            out.append((self.pair[k], _DROP_R, False))
        if size == 2:
            total = self._t(k, first, last)
            if total:
                out.append((self.sweep_score(total), _DROP_LR, True))
        elif size >= 3:
            if not self.both_ends_only:
                total = self._t(k, first, row[1])
                if total:
                    out.append((total, _DROP_LL, False))
                total = self._t(k, row[-2], last)
                if total:
                    out.append((total, _DROP_RR, False))
            total = self._t(k, first, last)
            if total:
                out.append((total, _DROP_LR, False))
        return out

    def best(self, row: Row, k: int) -> int:
        """The highest score kind ``k`` can capture on ``row`` (0 if none)."""
        size = len(row)
        if not size:
            return 0
        first, last = row[0], row[-1]
        best = self.pair[k] if first == k or (size >= 2 and last == k) else 0
        if size == 2:
            total = self._t(k, first, last)
            if total:
                best = max(best, self.sweep_score(total))
        elif size >= 3:
            total = self._t(k, first, last)
            if not self.both_ends_only:
                total = max(total, self._t(k, first, row[1]), self._t(k, row[-2], last))
            best = max(best, total)
        return best


_TABLES: dict[RuleSet, _Tables] = {}


_MAX_TABLES = 16
"""Rule sets whose capture tables are kept (~80 kB each): variants are few, but bounded anyway."""


def _tables(rules: RuleSet) -> _Tables:
    tables = _TABLES.get(rules)
    if tables is None:
        if len(_TABLES) >= _MAX_TABLES:
            del _TABLES[next(iter(_TABLES))]  # the oldest
        tables = _TABLES[rules] = _Tables(rules)
    return tables


def _signature(row: Row) -> Row:
    """What the captures on ``row`` depend on: a long row by its two tiles at each end."""
    if len(row) <= 4:
        return row
    return (row[0], row[1], -1, row[-2], row[-1])


def _how(kind: ComboKind, end: End) -> int:
    """How a capture named ``kind end`` leaves the row."""
    if kind is ComboKind.PAIR:
        return _DROP_L if end is End.LEFT else _DROP_R
    return {End.LEFT: _DROP_LL, End.RIGHT: _DROP_RR, End.ENDS: _DROP_LR}[end]


def _odds(view: FishingView) -> Odds:
    counts = Counter(tile.index for tile in view.unseen)
    total = sum(counts.values())
    if not total:
        return ()
    return tuple((kind, n / total) for kind, n in sorted(counts.items()))


def _placed(row: Row, kind: int, end: End) -> Row:
    return (kind, *row) if end is End.LEFT else (*row, kind)


def _row_of(view: FishingView) -> Row:
    return tuple(t.index for t in view.row)


def _best_claim(view: FishingView, legal: Sequence[FishingAction]) -> Claim | None:
    claims = [a for a in legal if isinstance(a, Claim)]
    if not claims:
        return None
    score = {c.claim: c.score for c in view.pending}
    return max(claims, key=lambda c: score.get(c, 0))


class RandomFishingPlayer:
    """Plays a uniformly random legal action."""

    level = "random"

    def choose(
        self, view: FishingView, legal: Sequence[FishingAction], rng: random.Random
    ) -> FishingAction:
        """A random legal action."""
        return legal[rng.randrange(len(legal))]


class GreedyFishingPlayer:
    """Takes the most points now; places to leave the opponent the least."""

    level = "greedy"

    def choose(
        self, view: FishingView, legal: Sequence[FishingAction], rng: random.Random
    ) -> FishingAction:
        """The best claim, else draw; the best capture, else the safest placement."""
        if view.phase is FishingPhase.TURN_OVER or view.turned is None:
            claim = _best_claim(view, legal)
            return claim if claim is not None else _first(legal, Draw)
        tables = _tables(view.rules)
        row = _row_of(view)
        kind = view.turned.index
        odds = _odds(view)

        def exposure(after: Row) -> float:
            return sum(p * tables.best(after, k) for k, p in odds)

        captures = [a for a in legal if isinstance(a, Capture)]
        if captures:
            scores = {c.capture: c.score for c in view.options}

            def capture_key(action: Capture) -> tuple[int, float]:
                return scores[action], -exposure(_drop(row, _how(action.kind, action.end)))

            return max(captures, key=capture_key)
        places = [a for a in legal if isinstance(a, Place)]
        scored = [(exposure(_placed(row, kind, a.end)), a) for a in places]
        low = min(s for s, _ in scored)
        ties = [a for s, a in scored if s <= low + 1e-9]
        return ties[rng.randrange(len(ties))]


def _first(legal: Sequence[FishingAction], kind: type) -> FishingAction:
    for action in legal:
        if isinstance(action, kind):
            return action
    return legal[0]


class ExpertFishingPlayer:
    """One exchange of look-ahead over the unseen tiles (see the module docstring)."""

    level = "expert"
    exact_endgame = 6
    """Search the rest of the game exactly (for the chance of winning) once this few tiles
    are left unseen."""

    def choose(
        self, view: FishingView, legal: Sequence[FishingAction], rng: random.Random
    ) -> FishingAction:
        """The action with the best expected balance over the coming exchange."""
        if view.phase is FishingPhase.TURN_OVER or view.turned is None:
            claim = _best_claim(view, legal)
            return claim if claim is not None else _first(legal, Draw)
        ties = self.best_actions(view, legal)
        return ties[rng.randrange(len(ties))]

    def best_actions(
        self, view: FishingView, legal: Sequence[FishingAction]
    ) -> list[FishingAction]:
        """In the play phase, the equally best actions (``choose`` picks one at random)."""
        assert view.turned is not None
        search = _Search(view)
        row = _row_of(view)
        kind = view.turned.index
        exact = _Endgame(view) if len(view.unseen) <= self.exact_endgame else None
        scored: list[tuple[tuple[float, float], FishingAction]] = []
        captures = [a for a in legal if isinstance(a, Capture)]
        if captures:
            combos = {c.capture: c for c in view.options}
            for action in captures:
                combo = combos[action]
                after = _drop(row, _how(action.kind, action.end))
                value = search.after_capture(after, combo.score, combo.sweep)
                if exact is not None:
                    chance = exact.after_capture(after, combo.score, combo.sweep)
                else:
                    chance = search.win_chance(after, combo.score, combo.sweep)
                scored.append(((chance, value), action))
        else:
            for place in legal:
                if isinstance(place, Place):
                    after = _placed(row, kind, place.end)
                    value = -search.reply(after)
                    if exact is not None:
                        chance = exact.after_place(after)
                    else:
                        chance = search.win_chance(after, 0, False)
                    scored.append(((chance, value), place))
        top = max(s for s, _ in scored)
        return [a for s, a in scored if s[0] == top[0] and s[1] >= top[1] - 1e-9]


class _Search:
    """The expert's look-ahead for one decision."""

    leaf_weight = 1.0
    """How much my own expected capture next turn counts (measured best near 1)."""

    def __init__(self, view: FishingView) -> None:
        rules = view.rules
        self.tables = _tables(rules)
        self.odds = _odds(view)
        me = view.current
        mine = view.pile_sizes[me]
        theirs = view.pile_sizes[1 - me]
        # Who plays after this turn (view.pile_sizes already counts my turned tile out)?
        if rules.play_until_both_piles_empty:
            self.opponent_plays = theirs > 0
            self.i_play_again = mine > 0
        else:
            self.opponent_plays = mine > 0 and theirs > 0
            self.i_play_again = self.opponent_plays and theirs > 1
        self.until_both = rules.play_until_both_piles_empty
        self.mine = mine
        self.margin = view.scores[me] - view.scores[1 - me]
        # The last exchange: nothing I do after the opponent's reply can change the result,
        # so play for the chance of winning rather than for points.
        self.endgame = not self.i_play_again and (not self.until_both or theirs <= 1)
        self._leaf: dict[Row, float] = {}
        self._sweep_leaf: float | None = None

    def leaf(self, row: Row) -> float:
        """My expected best capture on ``row`` next turn."""
        if not self.i_play_again:
            return 0.0
        sig = _signature(row)
        found = self._leaf.get(sig)
        if found is None:
            best = self.tables.best
            found = self.leaf_weight * sum(p * best(sig, k) for k, p in self.odds)
            self._leaf[sig] = found
        return found

    def sweep_leaf(self) -> float:
        """My expected best capture after the opponent sweeps (a single random tile)."""
        if self._sweep_leaf is None:
            self._sweep_leaf = sum(p * self.leaf((k,)) for k, p in self.odds)
        return self._sweep_leaf

    def reply(self, row: Row) -> float:
        """The opponent's expected net gain on ``row``: his best capture (or placement) for
        each tile he may turn over, less what it leaves me."""
        if not self.opponent_plays:
            # Nobody replies; with play_until_both_piles_empty I may play on alone.
            return -self.leaf(row)
        tables = self.tables
        leaf = self.leaf
        total = 0.0
        for kind, p in self.odds:
            moves = tables.moves(row, kind)
            if moves:
                value = max(
                    score - (self.sweep_leaf() if sweep else leaf(_drop(row, how)))
                    for score, how, sweep in moves
                )
            elif not row:
                value = -leaf((kind,))
            else:
                value = -min(leaf((kind, *row)), leaf((*row, kind)))
            total += p * value
        return total

    def after_capture(self, after: Row, score: int, sweep: bool) -> float:
        """What a capture is worth: its score less the opponent's expected reply (``after``
        is the row it leaves)."""
        if not sweep:
            return score - self.reply(after)
        # A sweep: my next tile (unseen) starts the new row; if it is my last, the game ends.
        if not self.until_both and self.mine <= 1:
            return float(score)
        if self.mine == 0:
            return score - self.reply(())
        return score - sum(p * self.reply((k,)) for k, p in self.odds)

    def win_chance(self, after: Row, score: int, sweep: bool) -> float:
        """In the last exchange, the chance of winning (a draw counts 1/2) after an action
        that scores ``score`` and leaves ``after``; 0 before then (points decide)."""
        if not self.endgame:
            return 0.0
        lead = self.margin + score
        if not self.opponent_plays or (sweep and not self.until_both and self.mine <= 1):
            return _outcome(lead)
        rows = [((k,), p) for k, p in self.odds] if sweep and self.mine else [(after, 1.0)]
        best = self.tables.best
        return sum(q * p * _outcome(lead - best(row, k)) for row, q in rows for k, p in self.odds)


class _Endgame:
    """An exact search of the rest of the game for the chance of winning, once few tiles are
    left: every tile each player may turn over, every choice (the opponent's to hurt me).
    Players are assumed to capture whenever they can (so nothing is missed or claimed)."""

    def __init__(self, view: FishingView) -> None:
        rules = view.rules
        self.tables = _tables(rules)
        self.auto = rules.auto_capture
        self.until_both = rules.play_until_both_piles_empty
        me = view.current
        self.mine = view.pile_sizes[me]
        self.theirs = view.pile_sizes[1 - me]
        self.lead = view.scores[me] - view.scores[1 - me]
        counts = [0] * len(KINDS)
        for tile in view.unseen:
            counts[tile.index] += 1
        self.counts = tuple(counts)
        self._memo: dict[tuple[object, ...], float] = {}

    def after_place(self, row: Row) -> float:
        """My chance of winning after I place (the turn ends)."""
        return self._end_turn(row, self.lead, True, self.mine, self.theirs, self.counts)

    def after_capture(self, after: Row, score: int, sweep: bool) -> float:
        """My chance of winning after a capture scoring ``score`` that leaves ``after``."""
        return self._after_move(
            after, self.lead + score, sweep, True, self.mine, self.theirs, self.counts
        )

    def _after_move(
        self,
        row: Row,
        lead: int,
        sweep: bool,
        me: bool,
        mine: int,
        theirs: int,
        counts: tuple[int, ...],
    ) -> float:
        if not sweep or (mine if me else theirs) == 0:
            return self._end_turn(row, lead, me, mine, theirs, counts)
        # The sweeper lays his next tile out as a new row.
        total = 0.0
        n = mine + theirs
        for kind, c in enumerate(counts):
            if c:
                left = _minus(counts, kind)
                if me:
                    value = self._end_turn((kind,), lead, me, mine - 1, theirs, left)
                else:
                    value = self._end_turn((kind,), lead, me, mine, theirs - 1, left)
                total += c * value
        return total / n

    def _end_turn(
        self, row: Row, lead: int, me: bool, mine: int, theirs: int, counts: tuple[int, ...]
    ) -> float:
        over = mine == 0 and theirs == 0 if self.until_both else mine == 0 or theirs == 0
        if over:
            return _outcome(lead)
        following = not me
        if (mine if following else theirs) == 0:
            following = me  # the other pile is empty: the same player plays on
        return self._turn(row, lead, following, mine, theirs, counts)

    def _turn(
        self, row: Row, lead: int, me: bool, mine: int, theirs: int, counts: tuple[int, ...]
    ) -> float:
        """My chance of winning when ``me`` (or the opponent) is about to turn over a tile."""
        key = (row, lead, me, mine, theirs, counts)
        found = self._memo.get(key)
        if found is not None:
            return found
        total = 0.0
        n = mine + theirs
        moves_of = self.tables.moves
        for kind, c in enumerate(counts):
            if not c:
                continue
            left = _minus(counts, kind)
            mine2, theirs2 = (mine - 1, theirs) if me else (mine, theirs - 1)
            values: list[float] = []
            moves = moves_of(row, kind) if row else []
            if moves and self.auto:
                top = max(m[0] for m in moves)
                moves = [m for m in moves if m[0] == top]
            for score, how, sweep in moves:
                values.append(
                    self._after_move(
                        _drop(row, how),
                        lead + score if me else lead - score,
                        sweep,
                        me,
                        mine2,
                        theirs2,
                        left,
                    )
                )
            if not row:
                values.append(self._end_turn((kind,), lead, me, mine2, theirs2, left))
            elif not moves:
                for after in ((kind, *row), (*row, kind)):
                    values.append(self._end_turn(after, lead, me, mine2, theirs2, left))
            total += c * (max(values) if me else min(values))
        found = total / n
        self._memo[key] = found
        return found


def _minus(counts: tuple[int, ...], kind: int) -> tuple[int, ...]:
    out = list(counts)
    out[kind] -= 1
    return tuple(out)


def _outcome(lead: int) -> float:
    return 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
