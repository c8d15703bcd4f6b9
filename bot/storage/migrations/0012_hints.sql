-- 0012_hints: hints at unrated tables and the hand guide (issue 22).
--
--   game_hints            every hint a member asked for, in the game's record: the game, the
--                         hint's number in it, the seat, the turn, the move suggested (notation)
--                         and when (epoch seconds). A rated game never has one.
--   member_settings.guide 1 or 0 when a member turned the hand guide on or off (/settings
--                         guide:); NULL: on for his first games of a game, then off
--
-- Written in the SQL both backends share (issue 20, decision 3). Same conventions as 0001.

CREATE TABLE game_hints (
    game_id    TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    turn       INTEGER NOT NULL,
    move       TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
) STRICT, WITHOUT ROWID;

ALTER TABLE member_settings
    ADD COLUMN guide INTEGER CHECK (guide IN (0, 1));
