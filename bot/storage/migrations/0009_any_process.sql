-- 0009_any_process: what lets any bot process serve any table (issue 20, decisions 5-7).
--
--   processed_interactions  the Discord interactions whose action was applied: the key (the
--                           interaction's id, a snowflake, as text) is written in the same
--                           transaction as the game step it carried, so a twice-delivered or
--                           retried interaction applies once, whichever process receives it.
--                           Pruned after a day (Discord never redelivers one that old).
--   table_edits             when each table's public message was last edited (epoch seconds) and
--                           the game version it drew, so the edits stay about one a second per
--                           table across processes and a version already drawn is not redrawn.
--   games_due               the turn deadlines every process polls for (whichever is alive fires).
--
-- Written in the SQL both backends share (issue 20, decision 3). Same conventions as 0001.

CREATE TABLE processed_interactions (
    key        TEXT    PRIMARY KEY,
    game_id    TEXT    NOT NULL,
    created_at REAL    NOT NULL
) STRICT, WITHOUT ROWID;

CREATE INDEX processed_interactions_by_age ON processed_interactions (created_at);

CREATE TABLE table_edits (
    game_id   TEXT    PRIMARY KEY,
    edited_at REAL    NOT NULL,
    version   INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE INDEX games_due ON games (deadline) WHERE status = 'running' AND deadline IS NOT NULL;
