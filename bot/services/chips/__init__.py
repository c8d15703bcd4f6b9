"""Chips: balances, daily claims, gifts, admin grants, antes held in escrow and their settlement.

Rules this service keeps:

* **Chips move only inside one transaction**, and a balance check is part of the ``UPDATE`` that
  spends (``… WHERE balance >= amount``), never a separate read.
* **Every change writes a ledger row with a unique idempotency key.** Repeating an operation with
  the same key (a double click, a retried interaction) does not move chips again: gifts and
  grants return the original result, antes already taken are skipped, a settled pot reports its
  settlement again. Reusing a key for a *different* operation raises
  :class:`~bot.storage.errors.IdempotencyConflict`.

  Ledger kinds (sign of delta) and their idempotency keys:

  - ``start`` (+, mint): ``start:{guild}:{user}``
  - ``daily`` (+, mint): ``daily:{guild}:{user}:{YYYY-MM-DD}`` (the UTC date)
  - ``grant`` (+ mint or - burn): ``grant:{caller key}``
  - ``give_out`` (-) and ``give_in`` (+): ``give:{caller key}`` and ``give:{caller key}:in``
  - ``ante`` (-): ``ante:{game}:{user}``
  - ``payout`` (+): ``payout:{game}``
  - ``rake`` (-, burn): ``rake:{game}``
  - ``refund`` (+): ``refund:{game}:{user}``
  - ``house_win`` (-, burn, no member): ``house_win:{game}``
  - ``carry_out`` (-) and ``carry_in`` (+), no member: ``carry_out:{game}``, ``carry_in:{game}``
  - ``settle_out`` (-) and ``settle_in`` (+): ``settle:{game}:out`` and ``settle:{game}:in``
    (Tsung Shap's "rate × point difference": the loser pays the winner directly, a transfer)

  Caller keys (``interaction:{id}`` …) are prefixed with the operation so one interaction id can
  never collide with another operation's key or with the system keys above.
* **Conservation.** ``sum(balances) + held == minted - burned``, where *held* is the antes in
  escrow, the carried-in chips of open pots and the carried pots; *minted* the ``start``,
  ``daily`` and positive ``grant`` rows; *burned* the negative ``grant``, ``rake`` and
  ``house_win`` rows. Also, each balance equals the sum of its member's ledger deltas.
  :meth:`ChipsService.total_supply_check` computes both.

**The house.** Each server has a house account: the account of the reserved member id
:data:`HOUSE_ID` (0, never a Discord user). Tables stake every computer seat's ante from it
(an ordinary ``ante`` row on the house account, key ``ante:{game}:0``) and, when a computer seat
wins, pay the pot to it (an ordinary ``payout``), so beating the computer wins its antes and
losing to it costs what losing to a member costs. Because the house is an account, conservation
holds with nothing special: its balance is counted with the members'. The house opens with
:data:`HOUSE_START_FACTOR` times the server's starting chips (a ``start`` mint) and a server
manager funds it with :meth:`ChipsService.fund_house` (a ``grant`` mint). It never appears on the
leaderboard. ``payout(game, None)`` (the pot leaves circulation as a ``house_win`` burn) remains
for pots without a winning member and no house stake.

**The ledger.** The steps above are made of four, and only four, kept in
:class:`~bot.services.chips.ledger.Ledger`: ``credit`` (add to an account, then write its row
with the balance after), ``debit`` (the same, the balance check inside the ``UPDATE``; nothing
written when the member is short), ``book`` (a row of no account: ``house_win``, ``carry_out``,
``carry_in``) and ``ensure_account`` (an account opened with its ``start`` row). No other code
changes a balance or writes a ledger row (a test checks the source).

The service is a package of modules you can read whole: :mod:`~bot.services.chips.ledger` (the
one primitive every chip moves through), the layers of :mod:`~bot.services.chips.service`, and
:mod:`~bot.services.chips.model` (value types and limits); this module re-exports their public
names.
"""

from bot.services.chips.ledger import Ledger
from bot.services.chips.model import (
    HOUSE_ID,
    HOUSE_START_FACTOR,
    MAX_AMOUNT,
    MAX_BALANCE,
    MAX_KEY_LENGTH,
    MAX_PAGE,
    ChipsDefaults,
    DailyClaim,
    DifferenceSettlement,
    Gift,
    Grant,
    LeaderboardEntry,
    Outcome,
    Pot,
    RankInfo,
    Settlement,
    check_amount,
)
from bot.services.chips.service import ChipsService

__all__ = [
    "HOUSE_ID",
    "HOUSE_START_FACTOR",
    "MAX_AMOUNT",
    "MAX_BALANCE",
    "MAX_KEY_LENGTH",
    "MAX_PAGE",
    "ChipsDefaults",
    "ChipsService",
    "DailyClaim",
    "DifferenceSettlement",
    "Gift",
    "Grant",
    "LeaderboardEntry",
    "Ledger",
    "Outcome",
    "Pot",
    "RankInfo",
    "Settlement",
    "check_amount",
]
