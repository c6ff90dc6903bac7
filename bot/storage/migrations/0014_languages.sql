-- The languages (docs/languages.md). A server's language for its public messages and mats, chosen with
-- /tripoley-admin settings language ('en', 'fr', 'de'; NULL: the server's Discord language, else English).
ALTER TABLE guild_settings ADD COLUMN language TEXT;
-- The language a user's Discord client last showed (interaction.locale), for the DMs sent them between
-- interactions (their hand at a deal). Deleted with the rest of the row by forget-me.
ALTER TABLE user_prefs ADD COLUMN locale TEXT;
