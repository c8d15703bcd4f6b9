-- 0005_language: the language of a server's public messages (`/kapadmin config language`).
--
--   guild_play_config.language  'en', 'zh-TW' or 'zh-CN'; NULL follows the server's own Discord
--                               locale (its "preferred locale", set in the server's settings)
-- Same conventions as 0001 (STRICT, no BEGIN/COMMIT here).

ALTER TABLE guild_play_config ADD COLUMN language TEXT CHECK (language IN ('en', 'zh-TW', 'zh-CN'));
