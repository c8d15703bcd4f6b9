"""The invariant every commit must leave reachable, checked in SQL (``kapshap db check``).

After every commit, and certainly after start-up has run its repairs, this holds
(``docs/architecture.md``, "Crash points"):

1. **Every open pot belongs to a running game, and every running game's pot is open.** (A lobby
   holding antes is a start that a crash interrupted; an ended game with an open pot is a
   settlement that never happened; a running game whose pot was refunded is an ``endtable``
   that a crash interrupted.)
2. **Every ended game is settled**: finished, drawn, aborted or broken games have ``settled = 1``
   (their pot paid, refunded, carried or burned, or their point difference paid).
3. **Every account's balance equals the sum of its ledger rows**, and none is negative. This is
   generic: any account (a member, or a per-server house account) is checked the same way.
4. **Escrow equals the antes of open pots**: each open pot holds exactly the antes its ledger
   took and no refund or payout has been written for it; settled pots hold no escrow; and no
   escrow row, nor any ledger row of a pot, outlives its pot row (checked from both sides: a
   deleted pot row would otherwise freeze its escrow and pay its winner nothing).
5. **Chips are conserved**: balances + held == minted - burned (see ``ChipsRepo.supply_totals``).
6. **Settled pots agree with their ledger**: what a pot took (antes, carried in) is what it
   gave (payouts, refunds, house wins, carried out); a paid pot's ``settled_amount`` is its
   payouts and its winner the one paid the most, its rake the rake rows; a burned or carried
   pot's amount is its burn or carry.
7. **The foreign keys hold**: on SQLite ``PRAGMA foreign_key_check`` (a file written with the
   keys off, or by another program, may break them); PostgreSQL enforces them on every commit,
   so there is nothing to check.

:func:`find_problems` returns each violation as a sentence; an empty list means all is well.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.chips import TOURNAMENT_POT, ChipsRepo, SupplyTotals
from bot.storage.db import Tx

__all__ = ["Problem", "find_problems"]


@dataclass(frozen=True, slots=True)
class Problem:
    """One violation of the invariant, in words, and the game it concerns (if any)."""

    text: str
    game_id: str | None = None

    def __str__(self) -> str:
        return self.text


async def find_problems(tx: Tx) -> tuple[list[Problem], SupplyTotals]:
    """Every violation of the invariant in the database, and the conservation totals."""
    problems: list[Problem] = []
    for row in await tx.fetchall(
        "SELECT p.game_id, g.status, (SELECT COALESCE(SUM(amount), 0) FROM escrow AS e "
        "WHERE e.game_id = p.game_id) AS held FROM pots AS p "
        "LEFT JOIN games AS g ON g.id = p.game_id "
        "WHERE p.status = 'open' AND (g.status IS NULL OR g.status <> 'running') "
        f"AND p.game_id NOT LIKE '{TOURNAMENT_POT}%' ORDER BY p.created_at"
    ):
        game, status, held = str(row[0]), row[1], int(row[2])
        if status is None:
            where = "belongs to no game"
        elif status == "lobby":
            where = "belongs to a lobby (a start was interrupted)"
        else:
            where = f"belongs to a {status} game (its settlement never happened)"
        problems.append(Problem(f"The open pot of game {game} ({held} chips held) {where}.", game))
    problems += await _tournament_pots(tx)
    for row in await tx.fetchall(
        "SELECT g.id, p.status FROM games AS g JOIN pots AS p ON p.game_id = g.id "
        "WHERE g.status IN ('lobby', 'running') AND p.status <> 'open' ORDER BY g.created_at"
    ):
        problems.append(
            Problem(
                f"Game {row[0]} is still unfinished but its pot is already {row[1]} "
                "(an end that a crash interrupted).",
                str(row[0]),
            )
        )
    for row in await tx.fetchall(
        "SELECT id, status FROM games WHERE settled = 0 AND status NOT IN ('lobby', 'running') "
        "ORDER BY created_at, id"
    ):
        problems.append(
            Problem(f"Game {row[0]} is {row[1]} but its chips were never settled.", str(row[0]))
        )
    for row in await tx.fetchall(
        "SELECT guild_id, user_id, balance, ledger_sum FROM ("
        "SELECT a.guild_id, a.user_id, a.balance, (SELECT COALESCE(SUM(l.delta), 0) FROM ledger "
        "AS l WHERE l.guild_id = a.guild_id AND l.user_id = a.user_id) AS ledger_sum "
        "FROM accounts AS a) AS sums WHERE balance <> ledger_sum OR balance < 0"
    ):
        problems.append(
            Problem(
                f"Account {row[1]} in server {row[0]} holds {row[2]} chips but its ledger "
                f"adds up to {row[3]}."
                if row[2] != row[3]
                else f"Account {row[1]} in server {row[0]} has a negative balance ({row[2]})."
            )
        )
    for row in await tx.fetchall(
        "SELECT p.game_id, "
        " (SELECT COALESCE(SUM(amount), 0) FROM escrow AS e WHERE e.game_id = p.game_id),"
        " (SELECT COALESCE(-SUM(delta), 0) FROM ledger AS l "
        "  WHERE l.game_id = p.game_id AND l.kind = 'ante'),"
        " (SELECT COUNT(*) FROM ledger AS l WHERE l.game_id = p.game_id "
        "  AND l.kind IN ('payout', 'refund', 'house_win', 'carry_out')), "
        # A tournament's pot stays open while members come and go: a refund to one who left
        # before the start is not a settlement, and his buy-in is no longer held.
        " (SELECT COALESCE(SUM(delta), 0) FROM ledger AS l WHERE l.game_id = p.game_id "
        f"  AND l.kind = 'refund' AND p.game_id LIKE '{TOURNAMENT_POT}%') "
        "FROM pots AS p WHERE p.status = 'open'"
    ):
        game, held, antes, settled_rows = str(row[0]), int(row[1]), int(row[2]), int(row[3])
        if game.startswith(TOURNAMENT_POT):
            antes -= int(row[4])
            settled_rows -= await _refund_rows(tx, game)
        if held != antes:
            problems.append(
                Problem(
                    f"Game {game} holds {held} chips in escrow but took {antes} in antes.", game
                )
            )
        if settled_rows:
            problems.append(
                Problem(f"Game {game}'s pot is open but its ledger already settled it.", game)
            )
    problems += await _missing_pots(tx)
    problems += await _settled_pots(tx)
    problems += await _foreign_keys(tx)
    stray = await tx.fetchall(
        "SELECT DISTINCT e.game_id FROM escrow AS e JOIN pots AS p ON p.game_id = e.game_id "
        "WHERE p.status <> 'open'"
    )
    for row in stray:
        problems.append(Problem(f"Game {row[0]}'s pot is settled but still holds escrow.", row[0]))
    totals = await ChipsRepo().supply_totals(tx)
    if totals.balances + totals.held != totals.minted - totals.burned:
        problems.append(
            Problem(
                f"Chips are not conserved: balances {totals.balances} + held {totals.held} = "
                f"{totals.balances + totals.held}, but minted {totals.minted} - burned "
                f"{totals.burned} = {totals.minted - totals.burned}."
            )
        )
    return problems, totals


async def _missing_pots(tx: Tx) -> list[Problem]:
    """Escrow, or ledger rows of a pot, whose pot row is gone."""
    problems = []
    held: set[str] = set()
    for row in await tx.fetchall(
        "SELECT e.game_id, SUM(e.amount), COUNT(*) FROM escrow AS e LEFT JOIN pots AS p "
        "ON p.game_id = e.game_id WHERE p.game_id IS NULL GROUP BY e.game_id ORDER BY e.game_id"
    ):
        game = str(row[0])
        held.add(game)
        problems.append(
            Problem(
                f"Game {game} holds {row[1]} chips in escrow ({row[2]} member(s)) but its pot "
                "row is gone: the chips are frozen and its winner would be paid nothing.",
                game,
            )
        )
    for row in await tx.fetchall(
        "SELECT l.game_id, COUNT(*) FROM ledger AS l LEFT JOIN pots AS p "
        "ON p.game_id = l.game_id WHERE l.game_id IS NOT NULL AND p.game_id IS NULL "
        "AND l.kind IN ('ante', 'carry_in', 'payout', 'refund', 'house_win', 'carry_out') "
        "GROUP BY l.game_id ORDER BY l.game_id"
    ):
        if str(row[0]) not in held:
            problems.append(
                Problem(
                    f"Game {row[0]}'s ledger moved chips through its pot ({row[1]} row(s)) but "
                    "its pot row is gone.",
                    str(row[0]),
                )
            )
    return problems


async def _settled_pots(tx: Tx) -> list[Problem]:
    """Every settled pot against its ledger rows (see the module docstring, point 6)."""
    problems = []
    for row in await tx.fetchall(
        "SELECT p.game_id, p.status, p.settled_amount, p.winner_id, p.rake,"
        " COALESCE(SUM(CASE WHEN l.kind = 'ante' THEN -l.delta END), 0),"
        " COALESCE(SUM(CASE WHEN l.kind = 'carry_in' THEN l.delta END), 0),"
        " COALESCE(SUM(CASE WHEN l.kind = 'payout' THEN l.delta END), 0),"
        " COALESCE(SUM(CASE WHEN l.kind = 'refund' THEN l.delta END), 0),"
        " COALESCE(SUM(CASE WHEN l.kind = 'house_win' THEN -l.delta END), 0),"
        " COALESCE(SUM(CASE WHEN l.kind = 'carry_out' THEN -l.delta END), 0),"
        " COALESCE(SUM(CASE WHEN l.kind = 'rake' THEN -l.delta END), 0),"
        " MAX(CASE WHEN l.kind = 'payout' THEN l.delta END),"
        " SUM(CASE WHEN l.kind = 'payout' AND l.user_id = p.winner_id THEN l.delta END) "
        "FROM pots AS p LEFT JOIN ledger AS l ON l.game_id = p.game_id "
        "WHERE p.status <> 'open' GROUP BY p.game_id ORDER BY p.created_at, p.game_id"
    ):
        game, status, amount, winner, rake = str(row[0]), str(row[1]), int(row[2]), row[3], row[4]
        antes, carried_in, paid, refunded, burned, carried_out, raked = map(int, row[5:12])
        top, winners_share = row[12], row[13]
        took, gave = antes + carried_in, paid + refunded + burned + carried_out
        found = []
        if took != gave:
            found.append(f"took {took} chips (antes and carried in) but gave out {gave}")
        if status == "paid":
            if amount != paid:
                found.append(f"is paid with {amount} chips but its payouts add up to {paid}")
            if paid and winners_share != top:
                found.append(f"names winner {winner}, who is not the one its ledger paid most")
            if rake != raked:
                found.append(f"took a rake of {rake} but its rake rows add up to {raked}")
        elif status == "house" and amount != burned:
            found.append(f"went to the house with {amount} chips but {burned} were burned")
        elif status == "carried" and amount != carried_out:
            found.append(f"was carried over with {amount} chips but {carried_out} were carried")
        elif (
            status == "refunded"
            and not game.startswith(TOURNAMENT_POT)
            and amount != refunded + carried_out
        ):
            found.append(
                f"was refunded with {amount} chips but its refunds (and carry) add up to "
                f"{refunded + carried_out}"
            )
        if status != "paid" and paid:
            found.append(f"is {status} yet its ledger paid {paid} chips out of it")
        problems += [Problem(f"Game {game}'s {status} pot {what}.", game) for what in found]
    return problems


async def _foreign_keys(tx: Tx) -> list[Problem]:
    """SQLite's own check of every foreign key, one sentence per table and missing parent."""
    if tx.backend != "sqlite":  # PostgreSQL's keys cannot be off: a violation never commits
        return []
    counts: dict[tuple[str, str], int] = {}
    for row in await tx.fetchall("PRAGMA foreign_key_check"):
        table, parent = str(row[0]), str(row[2])
        # Escrow without its pot is named game by game, with its chips, by _missing_pots.
        if (table, parent) != ("escrow", "pots"):
            counts[table, parent] = counts.get((table, parent), 0) + 1
    return [
        Problem(f"{count} row(s) of {table} refer to {parent} rows that do not exist.")
        for (table, parent), count in sorted(counts.items())
    ]


async def _refund_rows(tx: Tx, game: str) -> int:
    return int(
        await tx.scalar(
            "SELECT COUNT(*) FROM ledger WHERE game_id = ? AND kind = 'refund'", (game,)
        )
    )


async def _tournament_pots(tx: Tx) -> list[Problem]:
    """An open tournament pot belongs to an event still open (sign-up, check-in, play, pause)."""
    problems = []
    for row in await tx.fetchall(
        "SELECT p.game_id, t.status FROM pots AS p LEFT JOIN tournaments AS t "
        f"ON p.game_id = '{TOURNAMENT_POT}' || t.id "
        f"WHERE p.status = 'open' AND p.game_id LIKE '{TOURNAMENT_POT}%' "
        "AND (t.status IS NULL OR "
        "t.status NOT IN ('registration', 'check-in', 'running', 'paused'))"
    ):
        where = "no event" if row[1] is None else f"a {row[1]} event"
        problems.append(
            Problem(f"The open pot {row[0]} belongs to {where} (never paid or refunded).", row[0])
        )
    return problems
