-- Turn pings: a player's own choice (NULL: the server's default), and the server's default
-- (NULL: on). See bot/turns.py.

ALTER TABLE user_prefs ADD COLUMN pings INTEGER;
ALTER TABLE guild_settings ADD COLUMN pings INTEGER;
