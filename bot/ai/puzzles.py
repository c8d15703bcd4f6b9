"""Puzzles: positions from simulated games where one move is clearly the best, found and
verified by play-outs (``kapshap puzzles build``), and the sets shipped in the package.

**Where the positions come from.** Games between the simulator's players (``greedy`` and
``expert``, a level per seat drawn from the game's stream), dealt by the game's engine from
``random.Random(f"puzzles:{seed}:{game}:{n}")``. Each decision the game's family recognises as a
puzzle (:meth:`bot.ai.family.GameAI.puzzle_kind`: "What do you discard?", "Take or draw?",
"Which capture?") is a candidate; at most :data:`PER_GAME` are drawn from one game, so that a set
is not many turns of the same few deals. The candidate is written in position notation
(:mod:`bot.engine.position`) and read back, and everything below is measured on the state read
back: exactly what ``kapshap analyse --position`` would see.

**Which are kept** (:func:`verify`). First the search of reviews (:func:`bot.ai.judging.assess`,
``screen`` play-outs): it finds the best move and stops playing out the moves clearly behind.
Then, on *fresh* deals (so the luck that made the leader the best of several is not counted),
the best move against every move the search did not rule out, in rounds of doubling size up to
``budget`` play-outs: a puzzle is kept once its margin over each of them is at least
:data:`MARGIN_Z` standard errors (paired on the same deals) and at least :data:`MIN_MARGIN`;
it is dropped as soon as some move is likely within :data:`MIN_MARGIN` of the best (its
margin, :data:`HOPELESS_Z` standard error up, is below it), when the search already found the
runner-up within half of :data:`MIN_MARGIN`, or when the budget is spent undecided (dropping is
cheap on purpose: only keeping needs the full proof). The stored margin is the smallest over
those moves (the second best), with its standard error; a move ruled out by the search trails
by more than :data:`bot.ai.verdicts.ELIMINATE_Z` standard errors of its own.

**How hard** (:func:`rating_of`): whether the ``greedy`` and the ``expert`` levels find the
move, how many answers there are and how small the margin is give the puzzle's rating, which
stays fixed; a member's puzzle rating moves against it (:mod:`bot.services.puzzles`).

Game-blind: each game's kinds and their questions are its family's.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from importlib import resources
from typing import Any

from bot.ai.estimates import Estimator, default_estimator
from bot.ai.family import ai_of
from bot.ai.judging import assess
from bot.ai.levels import player_for
from bot.ai.verdicts import _difference
from bot.engine import apply, legal_actions, view
from bot.engine.errors import EngineError
from bot.engine.family import Action, State, engine_of
from bot.engine.hidden import determinize
from bot.engine.position import PositionError, parse_position, write_position

__all__ = [
    "FORMAT",
    "MARGIN_Z",
    "MIN_MARGIN",
    "PER_GAME",
    "Puzzle",
    "PuzzleSet",
    "Verified",
    "build",
    "candidates",
    "dumps",
    "find_choice",
    "judge",
    "kind_of",
    "loads",
    "question",
    "rating_of",
    "shipped",
    "verify",
]

FORMAT = 1
"""The version of a puzzle set file."""

MARGIN_Z = 3.0
"""A kept puzzle's best move beats every other by at least this many standard errors."""

MIN_MARGIN = 0.05
"""... and by at least 5 points (percentage points of the chance to win)."""

PER_GAME = 2
"""Candidates drawn from one simulated game at most."""

SCREEN = 3_000
"""The search's play-outs per candidate by default (:func:`verify`)."""

BUDGET = 8_000
"""The fresh play-outs per candidate at most by default (:func:`verify`)."""

HOPELESS_Z = 1.0
"""A candidate is dropped early once its margin could not reach :data:`MIN_MARGIN` even one
standard error up (dropping costs nothing in rigour: only keeping needs :data:`MARGIN_Z`)."""

SCREEN_SHARE = 0.5
"""... and after the search when the runner-up trails the best by less than half of
:data:`MIN_MARGIN` there."""

FIRST_ROUND = 250
"""Fresh deals of the verification's first round (each round doubles)."""

BASE_RATING = 1_200.0
"""The rating of the easiest puzzle (:func:`rating_of`)."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One verified puzzle.

    ``position`` is position notation (one field a line) with the seat to play;
    ``choices`` the answers offered (each a really different move, in notation), ``best`` among
    them; ``second`` the runner-up, which trails the best by ``margin`` (chance to win, 0–1)
    with standard error ``margin_se``; ``chance`` the best move's chance to win;
    ``rollouts`` the play-outs spent on it (search and verification); ``greedy`` and
    ``expert`` whether those levels find the best move; ``rating`` the puzzle's rating."""

    number: int
    game: str
    kind: str
    position: str
    choices: tuple[str, ...]
    best: str
    second: str
    chance: float
    margin: float
    margin_se: float
    rollouts: int
    greedy: bool
    expert: bool
    rating: float

    def state(self) -> tuple[State, int]:
        """The position as an engine state and the seat to play
        (:func:`bot.engine.position.parse_position`)."""
        state, seat = parse_position(self.position)
        return state, seat

    @property
    def typed(self) -> str:
        """The position on one line, for ``kapshap analyse --position``."""
        return self.position.strip().replace("\n", "; ")


@dataclass(frozen=True, slots=True)
class PuzzleSet:
    """A game's puzzles and how they were made (the seed, the thresholds, the budgets; the
    candidates judged and the play-outs spent on them all, kept or not)."""

    game: str
    seed: int
    min_margin: float
    margin_z: float
    screen: int
    budget: int
    candidates: int = 0
    spent: int = 0
    puzzles: tuple[Puzzle, ...] = field(default=())

    def get(self, number: int) -> Puzzle | None:
        """The puzzle numbered ``number``, or None."""
        if 0 <= number < len(self.puzzles) and self.puzzles[number].number == number:
            return self.puzzles[number]
        return next((p for p in self.puzzles if p.number == number), None)


@dataclass(frozen=True, slots=True)
class Verified:
    """What :func:`verify` measured of a position it keeps."""

    choices: tuple[str, ...]
    best: str
    second: str
    chance: float
    margin: float
    margin_se: float
    rollouts: int


def question(game: str, kind: str) -> str:
    """The question of a kind of puzzle (an English message id: translate it with
    :func:`bot.locale.t`)."""
    return ai_of(game).puzzle_kinds(game)[kind]


def kind_of(state: State, seat: int) -> str | None:
    """The kind of puzzle ``seat``'s decision in ``state`` is (the family's), or None."""
    return ai_of(state.rules.game).puzzle_kind(state, seat, legal_actions(state))


def _choices(state: State, seat: int, legal: Sequence[Action]) -> list[list[Action]]:
    if len(legal) < 2:
        return [list(legal)]
    return ai_of(state.rules.game).choices(state, seat, legal)


def find_choice(puzzle: Puzzle, answer: str) -> str | None:
    """The answer offered that ``answer`` (notation, any spacing or case) names, or None: a
    move equivalent to an offered one (a mirror-image Tsung Shap capture) counts as it."""
    wanted = " ".join(answer.lower().split())
    if not wanted:
        return None
    state, seat = puzzle.state()
    legal = legal_actions(state)
    groups = _choices(state, seat, legal)
    for group in groups:
        names = [str(a) for a in group]
        if wanted in names:
            return next((n for n in names if n in puzzle.choices), None)
    engine = engine_of(puzzle.game)
    try:
        action = engine.resolve(state, wanted)
    except (EngineError, ValueError):  # not notation of a move here: no such answer
        return None
    for group in groups:
        if action in group:
            return next((str(a) for a in group if str(a) in puzzle.choices), None)
    return None


# ---------------------------------------------------------------------------------------------
# Finding positions


def _levels(game: str) -> tuple[str, ...]:
    levels = ai_of(game).levels(game)
    return tuple(level for level in ("greedy", "expert") if level in levels) or levels[:1]


def candidates(game: str, seed: int, start: int = 0) -> Iterator[tuple[int, State, int, str]]:
    """Candidate positions of ``game`` from simulated games ``start``, ``start + 1`` … (without
    end): (game number, state, seat to play, kind), at most :data:`PER_GAME` per game, each
    one the position notation can write."""
    engine = engine_of(game)
    rules = engine.make_rules(game)
    levels = _levels(game)
    number = start
    while True:
        rng = random.Random(f"puzzles:{seed}:{game}:{number}")
        deal = engine.deal(rules, rng)
        seats = [f"seat {s}" for s in range(rules.players)]
        players = [player_for(game, rng.choice(levels)) for _ in seats]
        state: State = engine.new_game(rules, seats, deal)
        found: list[tuple[State, int, str]] = []
        while state.result is None:
            seat = state.current
            legal = legal_actions(state)
            kind = ai_of(game).puzzle_kind(state, seat, legal)
            if kind is not None and not _decides(state, seat, legal):
                found.append((state, seat, kind))
            state, _ = apply(state, players[seat].choose(view(state, seat), legal, rng))
        rng.shuffle(found)
        kept = 0
        for position, seat, kind in found:
            if kept == PER_GAME:
                break
            try:
                write_position(position)
            except PositionError:
                continue
            kept += 1
            yield number, position, seat, kind
        number += 1


def _decides(state: State, seat: int, legal: Sequence[Action]) -> bool:
    """Whether some move ends the game at once (a win taken or the last tile): no puzzle."""
    world = determinize(state, seat, random.Random(0))
    for action in legal:
        if ai_of(state.rules.game).draws_unseen(action):
            continue
        after, _ = apply(world, action)
        if after.result is not None:
            return True
    return False


# ---------------------------------------------------------------------------------------------
# Verifying


def verify(
    state: State,
    seat: int,
    *,
    rng: random.Random,
    screen: int = SCREEN,
    budget: int = BUDGET,
    min_margin: float = MIN_MARGIN,
    margin_z: float = MARGIN_Z,
    estimator: Estimator | None = None,
) -> Verified | None:
    """The position's one clearly best move with its margin, or None when it has none (see
    the module's docstring): ``screen`` play-outs of search, then at most ``budget`` fresh
    ones."""
    got, _ = judge(
        state,
        seat,
        rng=rng,
        screen=screen,
        budget=budget,
        min_margin=min_margin,
        margin_z=margin_z,
        estimator=estimator,
    )
    return got


def judge(
    state: State,
    seat: int,
    *,
    rng: random.Random,
    screen: int = SCREEN,
    budget: int = BUDGET,
    min_margin: float = MIN_MARGIN,
    margin_z: float = MARGIN_Z,
    estimator: Estimator | None = None,
) -> tuple[Verified | None, int]:
    """:func:`verify`, and the play-outs it spent (kept or not)."""
    if estimator is None:
        estimator = default_estimator(state.rules.game)
    legal = legal_actions(state)
    groups = _choices(state, seat, legal)
    if len(groups) < 2:
        return None, 0
    reps = {str(g[0]): g[0] for g in groups}
    searched = assess(state, seat, rollouts=screen, rng=rng, estimator=estimator)
    best = searched.best
    if best.chance.exact:
        return None, searched.rollouts
    # The moves the search did not rule out: each must be beaten again on fresh deals.
    rivals = [
        o.action
        for o in searched.options[1:]
        if o.chance.exact or o.loss - margin_z * o.loss_se < min_margin or o.chance.n == 0
    ]
    spent = searched.rollouts
    if any(searched.option(r).chance.exact for r in rivals):
        return None, spent  # a rival decided exactly is not measured by play-outs: leave it
    if not rivals:
        # Every other move trails clearly already; measure the runner-up on fresh deals.
        rivals = [searched.options[1].action]
    if searched.options[1].loss < SCREEN_SHARE * min_margin:
        return None, spent  # the search found a near-tie: not worth verifying
    names = [best.action, *rivals]
    actions = [reps[n] for n in names]
    scores: list[list[float]] = [[] for _ in names]
    deals = FIRST_ROUND
    while True:
        n = min(deals, (budget - (spent - searched.rollouts)) // len(names))
        if n < 1:
            return None, spent
        for column, got in zip(scores, estimator(state, seat, actions, n, rng), strict=True):
            column.extend(got)
        spent += n * len(names)
        margins = [_difference(scores[0], scores[i]) for i in range(1, len(names))]
        if any(m + HOPELESS_Z * se < min_margin for m, se in margins):
            return None, spent  # some move is likely within the minimum margin of the best
        if all(m >= min_margin and m >= margin_z * se for m, se in margins):
            break
        deals *= 2
    worst = min(range(len(margins)), key=lambda i: margins[i][0])
    margin, se = margins[worst]
    kept = Verified(
        choices=tuple(reps),
        best=best.action,
        second=names[worst + 1],
        chance=sum(scores[0]) / len(scores[0]),
        margin=margin,
        margin_se=se,
        rollouts=spent,
    )
    return kept, spent


def rating_of(*, greedy: bool, expert: bool, choices: int, margin: float) -> float:
    """A puzzle's rating from how hard it looks: :data:`BASE_RATING`, plus 300 when the
    ``greedy`` level misses the move and 300 when the ``expert`` does, 25 per answer beyond
    two, and up to 200 as the margin shrinks from 25 points to :data:`MIN_MARGIN`."""
    rating = BASE_RATING
    rating += 0.0 if greedy else 300.0
    rating += 0.0 if expert else 300.0
    rating += 25.0 * max(0, choices - 2)
    closeness = (0.25 - min(max(margin, MIN_MARGIN), 0.25)) / (0.25 - MIN_MARGIN)
    return round(rating + 200.0 * closeness, 1)


def _finds(level: str, state: State, seat: int, best: str) -> bool:
    legal = legal_actions(state)
    chosen = player_for(state.rules.game, level).choose(view(state, seat), legal, random.Random(0))
    for group in _choices(state, seat, legal):
        if chosen in group:
            return best in {str(a) for a in group}
    return False


def _judge(
    task: tuple[str, int, int, str, str, int, int],
) -> tuple[int, dict[str, Any] | None, int]:
    """One candidate judged (run in a worker process): its index, the puzzle's fields (None
    when it is not kept) and the play-outs spent."""
    game, seed, index, kind, text, screen, budget = task
    state, seat = parse_position(text)
    rng = random.Random(f"puzzles:{seed}:{game}:verify:{index}")
    got, spent = judge(state, seat, rng=rng, screen=screen, budget=budget)
    if got is None:
        return index, None, spent
    # Kept only when the figures as stored (to four decimals) pass the thresholds too.
    margin, margin_se = round(got.margin, 4), round(got.margin_se, 4)
    if margin < MIN_MARGIN or margin < MARGIN_Z * margin_se:
        return index, None, spent
    greedy = _finds("greedy", state, seat, got.best)
    expert = _finds("expert", state, seat, got.best)
    return (
        index,
        {
            "game": game,
            "kind": kind,
            "position": text,
            "choices": got.choices,
            "best": got.best,
            "second": got.second,
            "chance": round(got.chance, 4),
            "margin": margin,
            "margin_se": margin_se,
            "rollouts": got.rollouts,
            "greedy": greedy,
            "expert": expert,
            "rating": rating_of(
                greedy=greedy, expert=expert, choices=len(got.choices), margin=margin
            ),
        },
        spent,
    )


def build(
    game: str,
    count: int,
    *,
    seed: int = 0,
    screen: int = SCREEN,
    budget: int = BUDGET,
    workers: int = 1,
    progress: Callable[[PuzzleSet], None] | None = None,
    limit: int | None = None,
    resume: PuzzleSet | None = None,
) -> PuzzleSet:
    """``count`` verified puzzles of ``game`` (fewer when ``limit`` candidates run out first),
    the same for the same arguments whatever ``workers``: candidates are judged in batches
    and kept in the order they were found. ``progress(so_far)`` is called after each batch
    with the set so far; ``resume`` (such a set, of the same game, seed and budgets) goes on
    from where it stopped."""
    kept: list[Puzzle] = []
    tried = spent = 0
    if resume is not None:
        if (resume.game, resume.seed, resume.screen, resume.budget) != (game, seed, screen, budget):
            raise ValueError("the set to resume was built with other arguments")
        kept, tried, spent = list(resume.puzzles), resume.candidates, resume.spent
    source = candidates(game, seed)
    skipped = 0
    while skipped < tried:  # the candidates judged already
        next(source)
        skipped += 1
    batch = max(4, 4 * workers)
    pool = None
    if workers > 1:
        import multiprocessing

        pool = multiprocessing.get_context("fork").Pool(workers)
    try:
        while len(kept) < count and (limit is None or tried < limit):
            tasks = []
            for _ in range(batch if limit is None else min(batch, limit - tried)):
                _, state, _, kind = next(source)
                text = write_position(state)
                tasks.append((game, seed, tried, kind, text, screen, budget))
                tried += 1
            results = pool.map(_judge, tasks) if pool is not None else [_judge(t) for t in tasks]
            for _, fields, used in sorted(results, key=lambda r: r[0]):
                spent += used
                if fields is not None and len(kept) < count:
                    fields["choices"] = tuple(fields["choices"])
                    kept.append(Puzzle(number=len(kept), **fields))
            if progress is not None:
                progress(_made(game, seed, screen, budget, tried, spent, kept))
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return _made(game, seed, screen, budget, tried, spent, kept)


def _made(
    game: str, seed: int, screen: int, budget: int, tried: int, spent: int, kept: list[Puzzle]
) -> PuzzleSet:
    return PuzzleSet(
        game=game,
        seed=seed,
        min_margin=MIN_MARGIN,
        margin_z=MARGIN_Z,
        screen=screen,
        budget=budget,
        candidates=tried,
        spent=spent,
        puzzles=tuple(kept),
    )


# ---------------------------------------------------------------------------------------------
# Files


def dumps(puzzles: PuzzleSet) -> str:
    """A set as its file's text (JSON, one puzzle a line)."""
    head = {k: v for k, v in asdict(puzzles).items() if k != "puzzles"}
    lines = [json.dumps({"format": FORMAT, **head}, sort_keys=True)]
    for puzzle in puzzles.puzzles:
        lines.append(json.dumps(asdict(puzzle), sort_keys=True, ensure_ascii=False))
    return '{"set": ' + lines[0] + ',\n"puzzles": [\n' + ",\n".join(lines[1:]) + "\n]}\n"


def loads(text: str) -> PuzzleSet:
    """A set from its file's text (:func:`dumps`); ValueError when it is not one."""
    data = json.loads(text)
    head = dict(data["set"])
    if head.pop("format", None) != FORMAT:
        raise ValueError("not a puzzle set of this version")
    puzzles = []
    for fields in data["puzzles"]:
        fields["choices"] = tuple(fields["choices"])
        puzzles.append(Puzzle(**fields))
    return PuzzleSet(**head, puzzles=tuple(puzzles))


_SHIPPED: dict[str, PuzzleSet] = {}


def shipped(game: str) -> PuzzleSet:
    """The set shipped in the package for ``game`` (``bot/ai/puzzle_sets/<game>.json``); an
    empty set when none is shipped."""
    got = _SHIPPED.get(game)
    if got is None:
        source = resources.files("bot.ai").joinpath("puzzle_sets", f"{game}.json")
        if source.is_file():
            got = loads(source.read_text(encoding="utf-8"))
        else:
            got = PuzzleSet(game, 0, MIN_MARGIN, MARGIN_Z, 0, 0)
        _SHIPPED[game] = got
    return got
