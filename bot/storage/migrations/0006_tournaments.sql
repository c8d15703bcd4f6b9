-- tournaments: events run by the bot (docs/tournaments.md §3). Self-contained: it only adds
-- tables, so it may be renumbered at merge time. Same conventions as 0001 (STRICT, ISO-8601 UTC
-- TEXT timestamps, no BEGIN/COMMIT here).
--
-- Chips: the buy-ins are held in the ordinary pot/escrow tables under the pot id
-- 'tournament:{id}' (bot.storage.integrity accounts for such pots while the event is open).

CREATE TABLE tournaments (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER NOT NULL,
    message_id     INTEGER,
    name           TEXT    NOT NULL,
    organiser_id   INTEGER NOT NULL,
    status         TEXT    NOT NULL
                   CHECK (status IN ('registration', 'check-in', 'running', 'paused',
                                     'finished', 'cancelled')),
    settings_json  TEXT    NOT NULL,
    options_json   TEXT    NOT NULL DEFAULT '{}',
    state_json     TEXT,
    version        INTEGER NOT NULL DEFAULT 0,
    closes_at      TEXT,
    round_deadline TEXT,
    paused_left    REAL,
    created_at     TEXT    NOT NULL,
    finished_at    TEXT,
    results_json   TEXT
) STRICT;

CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);

CREATE TABLE tournament_entries (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    ai_level      TEXT,
    joins         INTEGER NOT NULL DEFAULT 1,
    active        INTEGER NOT NULL DEFAULT 1,
    checked_in    INTEGER NOT NULL DEFAULT 0,
    joined_at     TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE tournament_matches (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    match_id      TEXT    NOT NULL,
    round         INTEGER NOT NULL,
    thread_id     INTEGER,
    game_ids      TEXT    NOT NULL DEFAULT '[]',
    games_json    TEXT    NOT NULL DEFAULT '[]',
    seatings_json TEXT    NOT NULL DEFAULT '{}',  -- game id -> the players seated, in seat order
    PRIMARY KEY (tournament_id, round, match_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX tournament_matches_by_thread ON tournament_matches (thread_id);

-- The organiser role of a server (NULL: server managers only).
CREATE TABLE tournament_config (
    guild_id          INTEGER PRIMARY KEY,
    organiser_role_id INTEGER
) STRICT;
