"""Single- and double-elimination brackets: structure, byes and who plays whom.

A bracket has ``P = 2^k`` first-round slots (the smallest power of two ≥ N). Seeds follow the
standard order (1 v P, then the winner meets the winner of P/2 v P/2+1, …), so seeds 1 and 2 can
only meet in the final and the ``P − N`` byes go to the top seeds.

Double elimination adds a losers' bracket of ``2(k−1)`` rounds: L1 pairs the losers of the first
winners' round; every even losers' round L2j takes the survivors of L(2j−1) against the players
dropping from winners' round j+1; every odd round halves the field. The drop-ins are routed
against the bracket (reversed order in one drop-in round, halves swapped in the next, …) so a
player who drops meets someone from the other side of the bracket and not the opponent he has
just beaten or lost to. The grand final is the winners' champion against the losers' champion;
with ``reset`` a second grand final is played when the losers' champion wins the first.

A single-elimination bracket may add a match for third place (``3P``) between the losers of the
two semi-finals; it is played alongside the final.

A bracket is a list of :class:`Node`\\ s whose slots name where their players come from
(a seed, or the winner or loser of an earlier node). Results are applied by :func:`resolve`,
which also settles walkovers: a slot that can never be filled (a bye) lets the other player
through without a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bot.tournament.model import PlayerId, TournamentError

__all__ = [
    "EMPTY",
    "THIRD_PLACE",
    "Bracket",
    "KnockoutStanding",
    "Node",
    "Resolved",
    "Slot",
    "double_elimination",
    "knockout_standings",
    "resolve",
    "seed_order",
    "single_elimination",
]


@dataclass(frozen=True)
class Slot:
    """Where a node's player comes from: ``("seed", n)``, ``("winner", node)`` or
    ``("loser", node)``."""

    kind: str
    ref: str | int


@dataclass(frozen=True)
class Node:
    """One bracket match: its id (``W1-3``, ``L2-1``, ``GF``, ``GF2``, ``3P``), the bracket side
    (``W``, ``L``, ``GF``, ``3P``), its round within that side (1-based) and its two slots."""

    id: str
    side: str
    round: int
    slots: tuple[Slot, Slot]


@dataclass(frozen=True)
class Bracket:
    """The whole bracket: nodes in a valid playing order (feeders before the nodes they feed)."""

    size: int  # P, the number of first-round slots
    entrants: int  # N
    double: bool
    reset: bool
    nodes: tuple[Node, ...]
    third_place: bool = False  # single elimination: a ``3P`` match between the semis' losers

    @property
    def final(self) -> str:
        """The id of the match that decides the champion (GF2 is only played when needed)."""
        if self.double:
            return "GF2" if self.reset else "GF"
        return f"W{self.size.bit_length() - 1}-1"

    def node(self, node_id: str) -> Node:
        """The node with this id."""
        for n in self.nodes:
            if n.id == node_id:
                return n
        raise TournamentError(f"No bracket match {node_id}.")

    def stages(self) -> dict[str, int]:
        """The stage of every node: 1 + the latest stage of its feeders (first round = 1). An
        event plays the bracket stage by stage, one stage per round."""
        stage: dict[str, int] = {}
        for n in self.nodes:
            feeders = [stage[str(s.ref)] for s in n.slots if s.kind != "seed"]
            stage[n.id] = 1 + max(feeders, default=0)
        return stage


EMPTY: PlayerId | None = None  # a slot that will never hold a player (a bye)


def seed_order(size: int) -> list[int]:
    """Seeds in bracket order for ``size`` (a power of two) slots: pairs (0,1), (2,3)… meet."""
    if size < 1 or size & (size - 1):
        raise TournamentError("A bracket has a power of two slots.")
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def _bracket_size(entrants: int) -> int:
    if entrants < 2:
        raise TournamentError("An elimination bracket needs at least two players.")
    size = 1
    while size < entrants:
        size *= 2
    return size


def _winners_side(size: int) -> list[Node]:
    order = seed_order(size)
    nodes = [
        Node(f"W1-{i + 1}", "W", 1, (Slot("seed", order[2 * i]), Slot("seed", order[2 * i + 1])))
        for i in range(size // 2)
    ]
    count, rnd = size // 4, 2
    while count >= 1:
        nodes.extend(
            Node(
                f"W{rnd}-{i + 1}",
                "W",
                rnd,
                (
                    Slot("winner", f"W{rnd - 1}-{2 * i + 1}"),
                    Slot("winner", f"W{rnd - 1}-{2 * i + 2}"),
                ),
            )
            for i in range(count)
        )
        count //= 2
        rnd += 1
    return nodes


THIRD_PLACE = "3P"


def single_elimination(entrants: int, *, third_place: bool = False) -> Bracket:
    """The single-elimination bracket for ``entrants`` players (seeds 1…N); with
    ``third_place`` (and semi-finals, so four slots or more) the semis' losers play for third."""
    size = _bracket_size(entrants)
    nodes = _winners_side(size)
    k = size.bit_length() - 1
    third = third_place and k >= 2
    if third:
        semis = (Slot("loser", f"W{k - 1}-1"), Slot("loser", f"W{k - 1}-2"))
        nodes.append(Node(THIRD_PLACE, THIRD_PLACE, 1, semis))
    return Bracket(size, entrants, False, False, tuple(nodes), third)


def _route(items: list[str], drop_round: int) -> list[str]:
    """The order in which the losers of a winners' round drop into the losers' bracket: reversed
    in odd drop-in rounds, halves swapped in even ones (so neighbours of the winners' bracket do
    not meet again straight away)."""
    if drop_round % 2 == 1:
        return items[::-1]
    half = len(items) // 2
    return items[half:] + items[:half] if half else items


def double_elimination(entrants: int, *, reset: bool = True) -> Bracket:
    """The double-elimination bracket for ``entrants`` players (seeds 1…N)."""
    size = _bracket_size(entrants)
    k = size.bit_length() - 1
    winners = _winners_side(size)
    nodes = list(winners)
    w_final = f"W{k}-1"
    if k == 1:
        lb_champion = Slot("loser", w_final)
    else:
        losers: list[Node] = [
            Node(
                f"L1-{i + 1}",
                "L",
                1,
                (Slot("loser", f"W1-{2 * i + 1}"), Slot("loser", f"W1-{2 * i + 2}")),
            )
            for i in range(size // 4)
        ]
        for j in range(1, k):
            count = size // 2 ** (j + 1)
            drops = _route([f"W{j + 1}-{i + 1}" for i in range(count)], j)
            losers.extend(
                Node(
                    f"L{2 * j}-{i + 1}",
                    "L",
                    2 * j,
                    (Slot("winner", f"L{2 * j - 1}-{i + 1}"), Slot("loser", drops[i])),
                )
                for i in range(count)
            )
            if j < k - 1:
                losers.extend(
                    Node(
                        f"L{2 * j + 1}-{i + 1}",
                        "L",
                        2 * j + 1,
                        (
                            Slot("winner", f"L{2 * j}-{2 * i + 1}"),
                            Slot("winner", f"L{2 * j}-{2 * i + 2}"),
                        ),
                    )
                    for i in range(count // 2)
                )
        nodes.extend(losers)
        lb_champion = Slot("winner", f"L{2 * k - 2}-1")
    # Feeders come before the nodes they feed: order by stage, then side, then id.
    nodes.append(Node("GF", "GF", 1, (Slot("winner", w_final), lb_champion)))
    if reset:
        nodes.append(Node("GF2", "GF", 2, (Slot("winner", "GF"), Slot("loser", "GF"))))
    bracket = Bracket(size, entrants, True, reset, tuple(nodes))
    stage = bracket.stages()
    ordered = sorted(nodes, key=lambda n: (stage[n.id], n.side != "W", n.round, _index(n.id)))
    return Bracket(size, entrants, True, reset, tuple(ordered))


def _index(node_id: str) -> int:
    return int(node_id.rsplit("-", 1)[1]) if "-" in node_id else 0


@dataclass(frozen=True)
class Resolved:
    """What is known of a node given the results so far.

    ``players`` holds the two slots' occupants (None: not known yet, or EMPTY for a bye —
    ``settled`` tells which). ``winner``/``loser`` are set once the node is decided; a walkover
    has a winner and no loser. ``playable`` means both players are known and no result is in.
    ``skipped`` is a GF2 that is not needed (the winners' champion won the first final)."""

    node: Node
    players: tuple[PlayerId | None, PlayerId | None]
    settled: tuple[bool, bool]
    winner: PlayerId | None = None
    loser: PlayerId | None = None
    decided: bool = False
    playable: bool = False
    skipped: bool = False


def resolve(
    bracket: Bracket,
    seeds: Sequence[PlayerId],
    winners: Mapping[str, PlayerId],
) -> dict[str, Resolved]:
    """Every node's state from the seeds (seed 1 first) and the winners of played nodes.

    A node whose two slots can never both be filled is decided without a game (a walkover, or
    nothing when both are empty). GF2 is skipped when the winners' champion wins GF."""
    out: dict[str, Resolved] = {}

    def occupant(slot: Slot) -> tuple[PlayerId | None, bool]:
        if slot.kind == "seed":
            n = int(slot.ref)
            return (seeds[n - 1] if n <= len(seeds) else EMPTY), True
        r = out[str(slot.ref)]
        if not r.decided:
            return None, False
        return (r.winner if slot.kind == "winner" else r.loser), True

    for node in bracket.nodes:
        (a, sa), (b, sb) = occupant(node.slots[0]), occupant(node.slots[1])
        players, settled = (a, b), (sa, sb)
        if node.id == "GF2":
            gf = out["GF"]
            if gf.decided and gf.winner == gf.players[0]:
                out[node.id] = Resolved(node, players, settled, gf.winner, None, True, False, True)
                continue
        if sa and sb and a is None and b is None:
            out[node.id] = Resolved(node, players, settled, None, None, True)
        elif sa and sb and (a is None or b is None):
            out[node.id] = Resolved(node, players, settled, a if b is None else b, None, True)
        elif sa and sb:
            w = winners.get(node.id)
            if w is None:
                out[node.id] = Resolved(node, players, settled, playable=True)
            else:
                if w not in (a, b):
                    raise TournamentError(f"{w} does not play in bracket match {node.id}.")
                loser = b if w == a else a
                out[node.id] = Resolved(node, players, settled, w, loser, True)
        else:
            out[node.id] = Resolved(node, players, settled)
    return out


def champion(bracket: Bracket, state: Mapping[str, Resolved]) -> PlayerId | None:
    """The bracket's winner once it is decided, else None."""
    r = state[bracket.final]
    if not r.decided:
        return None
    return r.winner


def _knocked_out(
    bracket: Bracket, state: Mapping[str, Resolved]
) -> tuple[dict[PlayerId, Node], dict[PlayerId, int], dict[PlayerId, int]]:
    """Who was knocked out at which node, and every player's matches won and lost (walkovers
    are not matches)."""
    out_at: dict[PlayerId, Node] = {}
    wins: dict[PlayerId, int] = {}
    losses: dict[PlayerId, int] = {}
    lives = 2 if bracket.double else 1
    for node in bracket.nodes:
        r = state[node.id]
        if r.loser is not None and r.winner is not None:
            wins[r.winner] = wins.get(r.winner, 0) + 1
            losses[r.loser] = losses.get(r.loser, 0) + 1
            # The loser of the deciding final is out even with a life left (the winners'
            # champion losing a grand final without a reset); the third-place match's loser
            # went out in his semi-final.
            out = losses[r.loser] >= lives or node.id == bracket.final
            if out and r.loser not in out_at:
                out_at[r.loser] = node
    return out_at, wins, losses


def _third(bracket: Bracket, state: Mapping[str, Resolved], p: PlayerId) -> int:
    """0 for the third-place match's winner (and everyone it does not concern), 1 for its loser:
    the semi-finals' losers are placed by it."""
    if not bracket.third_place:
        return 0
    return 1 if state[THIRD_PLACE].loser == p else 0


def placing(
    bracket: Bracket,
    state: Mapping[str, Resolved],
    seed_rank: Callable[[PlayerId], int],
) -> list[PlayerId]:
    """Final places once the bracket is decided: the champion, the runner-up, then the others by
    how late they were knocked out (later is better), equal rounds by ``seed_rank``."""
    winner = champion(bracket, state)
    if winner is None:
        raise TournamentError("The bracket is not finished.")
    stage = bracket.stages()
    out_at = {p: stage[node.id] for p, node in _knocked_out(bracket, state)[0].items()}
    everyone = {p for r in state.values() for p in r.players if p is not None}
    return sorted(
        everyone,
        key=lambda p: (
            p != winner,
            -out_at.get(p, 10**6),
            _third(bracket, state, p),
            seed_rank(p),
        ),
    )


@dataclass(frozen=True)
class KnockoutStanding:
    """One line of an elimination event's standings: the bracket matches a player won and lost
    (walkovers are not matches) and the match that knocked him out (None: he is still in, or
    the champion). Players knocked out in the same bracket round share a rank."""

    rank: int
    player: PlayerId
    seed: int
    wins: int
    losses: int
    out_in: str | None
    champion: bool = False


def knockout_standings(
    bracket: Bracket, state: Mapping[str, Resolved], seeds: Sequence[PlayerId]
) -> list[KnockoutStanding]:
    """The standings of a bracket so far: the champion (once there is one), the players still
    in (fewer losses first), then the others by how late they were knocked out (later is
    better); by seed within a rank. The final places of a finished bracket are
    :func:`placing`'s."""
    out_at, wins, losses = _knocked_out(bracket, state)
    winner = champion(bracket, state)
    stage = bracket.stages()

    def standing(p: PlayerId) -> tuple[bool, bool, int, int]:
        node = out_at.get(p)
        if node is None:  # still in: in a double elimination, those without a loss first
            return (p != winner, False, losses.get(p, 0), 0)
        return (p != winner, True, -stage[node.id], _third(bracket, state, p))

    seed = {p: i for i, p in enumerate(seeds, start=1)}
    order = sorted(seeds, key=lambda p: (standing(p), seed[p]))
    rows: list[KnockoutStanding] = []
    for i, p in enumerate(order):
        rank = i + 1 if i == 0 or standing(p) != standing(order[i - 1]) else rows[-1].rank
        node = out_at.get(p)
        rows.append(
            KnockoutStanding(
                rank,
                p,
                seed[p],
                wins.get(p, 0),
                losses.get(p, 0),
                None if node is None else node.id,
                p == winner,
            )
        )
    return rows
