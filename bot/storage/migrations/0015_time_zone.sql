-- 0015_time_zone: the time zone a server's members type times in (issue 23, "Schedule";
-- `/kapadmin config time_zone`, docs/tournaments.md "Schedule").
--
--   guild_play_config.time_zone  an IANA name (Europe/London, Asia/Hong_Kong…), checked by
--                                the service with zoneinfo; NULL is UTC
-- Self-contained (it only adds a column), so it may be renumbered at merge time.
-- Same conventions as 0001 (no BEGIN/COMMIT here); SQL both backends share.

ALTER TABLE guild_play_config ADD COLUMN time_zone TEXT;
