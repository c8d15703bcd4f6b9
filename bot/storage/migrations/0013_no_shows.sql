-- 0013_no_shows: the no-show window of a tournament match (issue 23; docs/tournaments.md §3).
-- Self-contained: it only adds tables, so it may be renumbered at merge time.
--
--   tournament_windows  one row per two-player match that opened with a window: its deadline
--                       (epoch seconds, like games.deadline), NULL once the window was decided
--                       (so it fires once, whichever process is alive, and never opens again
--                       for that match).
--   tournament_ready    who pressed Ready in a match's window.
--
-- Written in the SQL both backends share. Same conventions as 0001.

CREATE TABLE tournament_windows (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    match_id      TEXT    NOT NULL,
    deadline      REAL,
    PRIMARY KEY (tournament_id, round, match_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX tournament_windows_due ON tournament_windows (deadline) WHERE deadline IS NOT NULL;

CREATE TABLE tournament_ready (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    match_id      TEXT    NOT NULL,
    user_id       INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, round, match_id, user_id)
) STRICT, WITHOUT ROWID;
