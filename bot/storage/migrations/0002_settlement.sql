-- 0002_settlement: ledger kinds for Tsung Shap's "rate x point difference" settlement.
--
--   settle_out  the loser pays the winner directly, loser's side (-, member)
--   settle_in   the same transfer, winner's side (+, member)
--
-- SQLite cannot alter a CHECK constraint, so the ledger is rebuilt as SQLite recommends: create
-- the new table, copy every row (ids included), drop the old one, rename, recreate its indexes.
-- bot.storage.db applies this file in one transaction with foreign keys off and runs
-- foreign_key_check before committing. Same conventions as 0001 (STRICT, no BEGIN/COMMIT here).

CREATE TABLE ledger_new (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER,
    delta         INTEGER NOT NULL,
    balance_after INTEGER,
    kind          TEXT    NOT NULL,
    idem_key      TEXT    NOT NULL UNIQUE,
    game_id       TEXT,
    actor_id      INTEGER,
    note          TEXT,
    created_at    TEXT    NOT NULL,
    -- The sign of delta is part of the meaning of each kind; this also rejects unknown kinds.
    CHECK (
        (kind IN ('start', 'daily', 'give_in', 'payout', 'refund', 'carry_in', 'settle_in')
            AND delta > 0)
        OR (kind IN ('give_out', 'ante', 'rake', 'house_win', 'carry_out', 'settle_out')
            AND delta < 0)
        OR (kind = 'grant' AND delta <> 0)
    ),
    CHECK ((user_id IS NULL) = (kind IN ('house_win', 'carry_out', 'carry_in'))),
    CHECK ((user_id IS NULL) = (balance_after IS NULL)),
    FOREIGN KEY (guild_id, user_id) REFERENCES accounts (guild_id, user_id)
) STRICT;

INSERT INTO ledger_new (id, guild_id, user_id, delta, balance_after, kind, idem_key, game_id,
                        actor_id, note, created_at)
    SELECT id, guild_id, user_id, delta, balance_after, kind, idem_key, game_id,
           actor_id, note, created_at
    FROM ledger;

DROP TABLE ledger;
ALTER TABLE ledger_new RENAME TO ledger;

-- A member's history, newest first.
CREATE INDEX ledger_by_member ON ledger (guild_id, user_id, id);
-- Everything that happened to one game's pot.
CREATE INDEX ledger_by_game ON ledger (game_id) WHERE game_id IS NOT NULL;
