-- 0003_ratings: skill ratings (openskill, Plackett-Luce) and per-game results for /stats and
-- /history. Same conventions as 0001 (STRICT, no BEGIN/COMMIT here).
--
-- (Reserved number: 0005 on main; the coordinator renumbers this file at merge.)

-- The rating model in force (one row, absent = the defaults of bot.services.ratings).
-- `kapshap ratings rebuild` may replace it and recompute every rating with the new parameters.
CREATE TABLE rating_model (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    params_json TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
) STRICT;

-- Every finished or drawn game recorded for statistics, once. game_id UNIQUE is the
-- idempotency key: a replayed settlement finds the row and records (and rates) nothing more.
-- seq is the order games were rated in; a rebuild replays them in this order, so it reproduces
-- the live ratings exactly.
CREATE TABLE recorded_games (
    seq         INTEGER PRIMARY KEY,
    game_id     TEXT    NOT NULL UNIQUE,
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    outcome     TEXT    NOT NULL CHECK (outcome IN ('won', 'drawn')),
    rated       INTEGER NOT NULL CHECK (rated IN (0, 1)),
    finished_at TEXT    NOT NULL
) STRICT;

-- One row per seat of a recorded game (computer seats too: they are the opponents /history
-- shows). position is the seat's place in the order of play (0 = played first).
-- mu/sigma/rating are the member's rating after this game (NULL for a computer seat or an
-- unrated game): the points of his rating chart.
CREATE TABLE game_results (
    game_id     TEXT    NOT NULL REFERENCES recorded_games (game_id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    seq         INTEGER NOT NULL,
    user_id     INTEGER,
    ai_level    TEXT,
    name        TEXT    NOT NULL,
    position    INTEGER NOT NULL CHECK (position >= 0),
    result      TEXT    NOT NULL CHECK (result IN ('win', 'loss', 'draw')),
    arrangement TEXT,
    eye         TEXT,
    score       INTEGER,
    captures    INTEGER,
    sweeps      INTEGER,
    claims      INTEGER,
    mu          REAL,
    sigma       REAL,
    rating      INTEGER,
    PRIMARY KEY (game_id, seat)
) STRICT, WITHOUT ROWID;

-- A member's games in order (history newest first, rating chart, streaks, stats).
CREATE INDEX game_results_by_member ON game_results (guild_id, user_id, seq)
    WHERE user_id IS NOT NULL;

-- One row per member per server per game, plus game = 'all' (counts only, no rating) for the
-- all-games wins leaderboard. rating is the displayed conservative number (NULL: never rated).
CREATE TABLE member_ratings (
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    games       INTEGER NOT NULL DEFAULT 0 CHECK (games >= 0),
    wins        INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
    draws       INTEGER NOT NULL DEFAULT 0 CHECK (draws >= 0),
    rated_games INTEGER NOT NULL DEFAULT 0 CHECK (rated_games >= 0),
    mu          REAL,
    sigma       REAL,
    rating      INTEGER,
    PRIMARY KEY (guild_id, game, user_id)
) STRICT, WITHOUT ROWID;

-- Leaderboards: the page query walks one of these, the rank query counts an index range.
-- rated_games is carried along (for the "provisional" mark) so that both are covering: a deep
-- page skips its offset inside the index without reading the table.
CREATE INDEX member_ratings_by_rating
    ON member_ratings (guild_id, game, rating DESC, user_id, rated_games)
    WHERE rating IS NOT NULL;
CREATE INDEX member_ratings_by_wins
    ON member_ratings (guild_id, game, wins DESC, user_id, rated_games);

-- How many members each board has, kept by triggers (as account_counts for the chips board):
-- "rank 5 of 100,000" would otherwise COUNT the guild's whole index range on every page.
--   members  rows of (guild, game): the wins board
--   rated    rows with a rating: the rating board
-- member_ratings is only ever inserted, updated (upsert) or deleted, never REPLACEd: a REPLACE
-- deletes without firing the delete trigger.
CREATE TABLE member_rating_counts (
    guild_id INTEGER NOT NULL,
    game     TEXT    NOT NULL,
    members  INTEGER NOT NULL CHECK (members >= 0),
    rated    INTEGER NOT NULL CHECK (rated >= 0),
    PRIMARY KEY (guild_id, game)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER member_ratings_count_insert AFTER INSERT ON member_ratings
BEGIN
    INSERT INTO member_rating_counts (guild_id, game, members, rated)
        VALUES (NEW.guild_id, NEW.game, 1, NEW.rating IS NOT NULL)
        ON CONFLICT (guild_id, game) DO UPDATE
        SET members = members + 1, rated = rated + (NEW.rating IS NOT NULL);
END;

CREATE TRIGGER member_ratings_count_rated AFTER UPDATE OF rating ON member_ratings
    WHEN (OLD.rating IS NULL) <> (NEW.rating IS NULL)
BEGIN
    UPDATE member_rating_counts
        SET rated = rated + (CASE WHEN NEW.rating IS NULL THEN -1 ELSE 1 END)
        WHERE guild_id = NEW.guild_id AND game = NEW.game;
END;

CREATE TRIGGER member_ratings_count_delete AFTER DELETE ON member_ratings
BEGIN
    UPDATE member_rating_counts
        SET members = members - 1, rated = rated - (OLD.rating IS NOT NULL)
        WHERE guild_id = OLD.guild_id AND game = OLD.game;
END;
