-- 0001_initial: chips (accounts, ledger, escrow, pots), guild settings, persisted games.
--
-- Conventions
--   * Discord snowflakes (guild, channel, user, message ids) are INTEGER (they fit in 63 bits).
--   * Timestamps are ISO-8601 TEXT in UTC ("2024-05-01T12:00:00+00:00"), except games.deadline,
--     an epoch REAL because the turn timer does arithmetic on it.
--   * STRICT tables: a value of the wrong type is an error instead of being stored as-is; in
--     particular an integer overflow (which SQLite turns into REAL) can never land in a balance.
--   * This file is applied inside a transaction by bot.storage.db; it must not BEGIN or COMMIT.

-- Chip balances, one row per member per guild.
CREATE TABLE accounts (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    balance    INTEGER NOT NULL CHECK (balance >= 0),
    created_at TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) STRICT, WITHOUT ROWID;

-- Leaderboard order is (balance DESC, user_id ASC). This index covers both the page query
-- (walk the index, LIMIT/OFFSET) and the rank query (two COUNTs over index ranges), so neither
-- reads the table nor sorts.
CREATE INDEX accounts_by_balance ON accounts (guild_id, balance DESC, user_id);

-- Number of accounts per guild, kept by triggers: "rank 5 of 100,000" would otherwise COUNT the
-- guild's whole index range on every /rank.
CREATE TABLE account_counts (
    guild_id INTEGER PRIMARY KEY,
    accounts INTEGER NOT NULL CHECK (accounts >= 0)
) STRICT;

CREATE TRIGGER accounts_count_insert AFTER INSERT ON accounts
BEGIN
    INSERT INTO account_counts (guild_id, accounts) VALUES (NEW.guild_id, 1)
        ON CONFLICT (guild_id) DO UPDATE SET accounts = accounts + 1;
END;

CREATE TRIGGER accounts_count_delete AFTER DELETE ON accounts
BEGIN
    UPDATE account_counts SET accounts = accounts - 1 WHERE guild_id = OLD.guild_id;
END;

-- Every change of a balance, and every chip leaving a pot, is one ledger row.
--   user_id NOT NULL: delta is the change of that member's balance; balance_after its new value.
--   user_id NULL: a pot movement with no member balance involved (house_win, carry_out,
--   carry_in); delta is the change seen by the game's pot.
-- idem_key is UNIQUE: replaying an operation with the same key finds the row instead of
-- moving chips a second time.
CREATE TABLE ledger (
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
        (kind IN ('start', 'daily', 'give_in', 'payout', 'refund', 'carry_in') AND delta > 0)
        OR (kind IN ('give_out', 'ante', 'rake', 'house_win', 'carry_out') AND delta < 0)
        OR (kind = 'grant' AND delta <> 0)
    ),
    CHECK ((user_id IS NULL) = (kind IN ('house_win', 'carry_out', 'carry_in'))),
    CHECK ((user_id IS NULL) = (balance_after IS NULL)),
    FOREIGN KEY (guild_id, user_id) REFERENCES accounts (guild_id, user_id)
) STRICT;

-- A member's history, newest first.
CREATE INDEX ledger_by_member ON ledger (guild_id, user_id, id);
-- Everything that happened to one game's pot.
CREATE INDEX ledger_by_game ON ledger (game_id) WHERE game_id IS NOT NULL;

-- One pot per game that took antes. status 'open' while the game runs; then exactly one of
--   paid     the pot (minus rake) went to winner_id
--   house    an AI seat won: the antes left circulation (ledger kind 'house_win')
--   refunded every ante went back to its member
--   carried  the pot moved to carried_pots for the next game in the channel
-- carried_in holds chips brought in from a carried pot (they belong to no member's ante).
CREATE TABLE pots (
    game_id        TEXT    PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER,
    status         TEXT    NOT NULL DEFAULT 'open'
                   CHECK (status IN ('open', 'paid', 'house', 'refunded', 'carried')),
    carried_in     INTEGER NOT NULL DEFAULT 0 CHECK (carried_in >= 0),
    settled_amount INTEGER CHECK (settled_amount >= 0),
    winner_id      INTEGER,
    rake           INTEGER NOT NULL DEFAULT 0 CHECK (rake >= 0),
    created_at     TEXT    NOT NULL,
    settled_at     TEXT,
    CHECK ((status = 'open') = (settled_at IS NULL)),
    CHECK ((status = 'open') = (settled_amount IS NULL))
) STRICT, WITHOUT ROWID;

CREATE INDEX pots_open ON pots (guild_id) WHERE status = 'open';

-- Antes held while a game runs, one row per member; the rows are deleted when the pot settles
-- (the ledger keeps the history), so SUM(amount) is exactly the chips held for running games.
CREATE TABLE escrow (
    game_id  TEXT    NOT NULL REFERENCES pots (game_id),
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    amount   INTEGER NOT NULL CHECK (amount > 0),
    PRIMARY KEY (game_id, user_id),
    FOREIGN KEY (guild_id, user_id) REFERENCES accounts (guild_id, user_id)
) STRICT, WITHOUT ROWID;

-- "pot_carries_over": the pot of a drawn game waits here for the next game in the channel,
-- which collects it into its own pot (pots.carried_in).
CREATE TABLE carried_pots (
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    amount     INTEGER NOT NULL CHECK (amount > 0),
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
) STRICT, WITHOUT ROWID;

-- Per-guild settings; NULL means "use the application default".
CREATE TABLE guild_config (
    guild_id       INTEGER PRIMARY KEY,
    ante           INTEGER CHECK (ante >= 0),
    starting_chips INTEGER CHECK (starting_chips >= 0),
    daily_amount   INTEGER CHECK (daily_amount >= 0),
    turn_seconds   INTEGER CHECK (turn_seconds > 0),
    updated_at     TEXT
) STRICT;

-- Persisted tables. A game is rebuilt by replaying game_actions over (rules, seats, deal).
-- version increases with every persisted change; a button drawn for an older version is stale.
CREATE TABLE games (
    id           TEXT    PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    status       TEXT    NOT NULL
                 CHECK (status IN ('lobby', 'running', 'finished', 'drawn', 'aborted')),
    game         TEXT    NOT NULL,
    rules_json   TEXT    NOT NULL,
    seats_json   TEXT    NOT NULL,
    deal_json    TEXT,
    version      INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    message_id   INTEGER,
    host_id      INTEGER NOT NULL,
    ante         INTEGER NOT NULL DEFAULT 0 CHECK (ante >= 0),
    turn_seconds INTEGER NOT NULL CHECK (turn_seconds > 0),
    deadline     REAL,
    created_at   TEXT    NOT NULL,
    finished_at  TEXT,
    winner_seat  INTEGER,
    CHECK ((status IN ('lobby', 'running')) = (finished_at IS NULL))
) STRICT;

-- At most one unfinished table per channel; also the index for "the table in this channel".
CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id)
    WHERE status IN ('lobby', 'running');
-- Start-up: every unfinished table, oldest first.
CREATE INDEX games_unfinished ON games (created_at) WHERE status IN ('lobby', 'running');
CREATE INDEX games_by_guild ON games (guild_id, created_at);

-- The ordered action log, in engine notation ("take 6-5", "draw", "declare", ...).
CREATE TABLE game_actions (
    game_id    TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    seat       INTEGER NOT NULL CHECK (seat >= 0),
    notation   TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
) STRICT, WITHOUT ROWID;
