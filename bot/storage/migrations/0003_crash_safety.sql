-- 0003_crash_safety: quarantined ("broken") games and a per-game "settled" mark.
--
--   status 'broken'  a game that could not be rebuilt (its saved moves no longer replay): it was
--                    quarantined at start-up, its antes refunded and its channel freed;
--                    broken_reason says why (for `kapshap db info` and the operator).
--   settled          1 once an ended game's chips are done with: the pot paid, refunded, carried
--                    or burned, or the point-difference settlement made (which may move no chip
--                    at all, so the ledger alone cannot tell). Written in the same transaction as
--                    the settlement; start-up repairs every ended game still at 0.
--
-- SQLite cannot alter a CHECK constraint, so games is rebuilt as in 0002 (create, copy, drop,
-- rename, recreate the indexes). game_actions refers to games by name and keeps working.
-- Same conventions as 0001 (STRICT, no BEGIN/COMMIT here).

CREATE TABLE games_new (
    id            TEXT    PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    status        TEXT    NOT NULL
                  CHECK (status IN ('lobby', 'running', 'finished', 'drawn', 'aborted', 'broken')),
    game          TEXT    NOT NULL,
    rules_json    TEXT    NOT NULL,
    seats_json    TEXT    NOT NULL,
    deal_json     TEXT,
    version       INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    message_id    INTEGER,
    host_id       INTEGER NOT NULL,
    ante          INTEGER NOT NULL DEFAULT 0 CHECK (ante >= 0),
    turn_seconds  INTEGER NOT NULL CHECK (turn_seconds > 0),
    deadline      REAL,
    created_at    TEXT    NOT NULL,
    finished_at   TEXT,
    winner_seat   INTEGER,
    settled       INTEGER NOT NULL DEFAULT 0 CHECK (settled IN (0, 1)),
    broken_reason TEXT,
    CHECK ((status IN ('lobby', 'running')) = (finished_at IS NULL)),
    CHECK ((status = 'broken') = (broken_reason IS NOT NULL))
) STRICT;

-- Ended games written before this migration: settled unless their pot is still open (those are
-- exactly what the start-up repair must finish).
INSERT INTO games_new (id, guild_id, channel_id, status, game, rules_json, seats_json, deal_json,
                       version, message_id, host_id, ante, turn_seconds, deadline, created_at,
                       finished_at, winner_seat, settled, broken_reason)
    SELECT g.id, g.guild_id, g.channel_id, g.status, g.game, g.rules_json, g.seats_json,
           g.deal_json, g.version, g.message_id, g.host_id, g.ante, g.turn_seconds, g.deadline,
           g.created_at, g.finished_at, g.winner_seat,
           CASE WHEN g.status IN ('lobby', 'running') THEN 0
                WHEN EXISTS (SELECT 1 FROM pots AS p
                             WHERE p.game_id = g.id AND p.status = 'open') THEN 0
                ELSE 1 END,
           NULL
    FROM games AS g;

DROP TABLE games;
ALTER TABLE games_new RENAME TO games;

CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id)
    WHERE status IN ('lobby', 'running');
CREATE INDEX games_unfinished ON games (created_at) WHERE status IN ('lobby', 'running');
CREATE INDEX games_by_guild ON games (guild_id, created_at);
-- Start-up repair: ended games whose chips are not done with yet.
CREATE INDEX games_unsettled ON games (id) WHERE settled = 0 AND status NOT IN ('lobby', 'running');

-- When the bot last stopped cleanly (or last wrote its heartbeat): after a restart, a human whose
-- turn it was gets back at least the time he had left then (down time does not count).
CREATE TABLE heartbeat (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    seen_at TEXT    NOT NULL
) STRICT;
