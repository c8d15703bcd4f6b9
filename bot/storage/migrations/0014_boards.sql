-- 0014_boards: the live standings board of a tournament (issue 23; docs/tournaments.md, "Live
-- standings").
--
--   tournament_boards  one row per event whose board was drawn: the event's version it last
--                      showed (so a process that finds that version or a later one drawn
--                      leaves the message alone: one edit per change, whichever process saw
--                      it), when (epoch seconds), and the board's message when it is no
--                      longer the sign-up message (NULL: the sign-up message is the board;
--                      a board deleted in Discord is posted again and its new id kept here,
--                      apart from the event's row, whose writes carry the sign-up message's
--                      id as they read it).
--
-- Written in the SQL both backends share. Same conventions as 0001.

CREATE TABLE tournament_boards (
    tournament_id INTEGER NOT NULL PRIMARY KEY REFERENCES tournaments (id),
    message_id    INTEGER,
    version       INTEGER NOT NULL,
    drawn_at      REAL    NOT NULL
) STRICT, WITHOUT ROWID;
