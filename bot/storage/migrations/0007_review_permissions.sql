-- 0006_review_permissions: who may review a member's finished games (/review).
--
--   guild_play_config.review_mode  'own' (members review only their own games) or 'public'
--                                  (anyone may review anyone's games of the server); NULL means
--                                  the bot-wide default (KAPSHAP_REVIEW_PUBLIC)
--   member_settings.reviews        1 when a member lets others review his games (/settings
--                                  reviews:True), on every server; NULL or 0: only he may
-- Same conventions as 0001 (STRICT, no BEGIN/COMMIT here).

ALTER TABLE guild_play_config
    ADD COLUMN review_mode TEXT CHECK (review_mode IN ('own', 'public'));

ALTER TABLE member_settings
    ADD COLUMN reviews INTEGER CHECK (reviews IN (0, 1));
