-- 0010_puzzles: puzzle ratings, streaks and answers per member, and the daily puzzle (issue 22).
--
--   puzzle_solvers      a member's puzzle rating in a server (Elo against each puzzle's fixed
--                       rating), puzzles solved and failed, the current and the best streak.
--   puzzle_attempts     a member's first answer to each puzzle (rated once: a second answer to
--                       the same puzzle is shown its explanation but changes nothing).
--   puzzle_daily        the channel a server manager chose for the daily puzzle.
--   puzzle_daily_posts  one row per server per day: the puzzle of the day and when it is due,
--                       a timer every process polls; the process that sets posted_at (an
--                       UPDATE … WHERE posted_at IS NULL) posts it, so it is posted once across
--                       processes and after a restart.
--
-- Written in the SQL both backends share (issue 20, decision 3). Same conventions as 0001.

CREATE TABLE puzzle_solvers (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    rating      REAL    NOT NULL,
    solved      INTEGER NOT NULL DEFAULT 0 CHECK (solved >= 0),
    failed      INTEGER NOT NULL DEFAULT 0 CHECK (failed >= 0),
    streak      INTEGER NOT NULL DEFAULT 0 CHECK (streak >= 0),
    best_streak INTEGER NOT NULL DEFAULT 0 CHECK (best_streak >= streak),
    updated_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX puzzle_solvers_board ON puzzle_solvers (guild_id, rating);

CREATE TABLE puzzle_attempts (
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    game          TEXT    NOT NULL,
    puzzle        INTEGER NOT NULL,
    answer        TEXT    NOT NULL,
    solved        INTEGER NOT NULL CHECK (solved IN (0, 1)),
    rating_before REAL    NOT NULL,
    rating_after  REAL    NOT NULL,
    answered_at   TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id, game, puzzle)
) STRICT, WITHOUT ROWID;

CREATE TABLE puzzle_daily (
    guild_id   INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL,
    set_by     INTEGER NOT NULL,
    updated_at TEXT    NOT NULL
) STRICT;

CREATE TABLE puzzle_daily_posts (
    guild_id   INTEGER NOT NULL,
    day        TEXT    NOT NULL,
    channel_id INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    puzzle     INTEGER NOT NULL,
    due_at     TEXT    NOT NULL,
    posted_at  TEXT,
    message_id INTEGER,
    PRIMARY KEY (guild_id, day)
) STRICT, WITHOUT ROWID;

CREATE INDEX puzzle_daily_due ON puzzle_daily_posts (due_at) WHERE posted_at IS NULL;
