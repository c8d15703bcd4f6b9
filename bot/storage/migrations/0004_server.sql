-- 0004_server: what a real server needs besides the games themselves.
--
--   bot_state          small key/value facts about the bot itself (the hash of the slash-command
--                      tree last synced globally, so a restart with the same commands syncs nothing)
--   guild_play_config  per-server play settings; NULL means "the bot's default"
--   member_settings    a member's own preferences (turn notices on or off), for every server
--   game_messages      the DM and channel messages the bot keeps per game and member (the live
--                      hand DM, the current turn notice, the channel mention of a closed-DM
--                      player), so a restart edits or deletes them instead of sending copies
--   seat_state         per seat of a running game: consecutive timed-out turns, and whether the
--                      seat is out (folded or resigned)
-- Same conventions as 0001 (STRICT, no BEGIN/COMMIT here).

CREATE TABLE bot_state (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE guild_play_config (
    guild_id      INTEGER PRIMARY KEY,
    notice_mode   TEXT CHECK (notice_mode IN ('dm', 'channel', 'both')),
    timeout_limit INTEGER CHECK (timeout_limit >= 1),
    lobby_minutes INTEGER CHECK (lobby_minutes >= 1)
) STRICT;

CREATE TABLE member_settings (
    user_id INTEGER PRIMARY KEY,
    notices INTEGER NOT NULL CHECK (notices IN (0, 1))
) STRICT;

CREATE TABLE game_messages (
    game_id    TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('hand', 'notice', 'mention')),
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id, kind)
) STRICT, WITHOUT ROWID;

CREATE TABLE seat_state (
    game_id  TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL CHECK (seat >= 0),
    timeouts INTEGER NOT NULL DEFAULT 0 CHECK (timeouts >= 0),
    out      TEXT CHECK (out IN ('folded', 'resigned', 'forfeited')),
    PRIMARY KEY (game_id, seat)
) STRICT, WITHOUT ROWID;
