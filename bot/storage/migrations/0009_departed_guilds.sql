-- Servers that removed the bot: their data is purged REMOVED_SERVER_DAYS after left_at, unless the
-- bot is added back before (bot/economy/privacy.py, PRIVACY.md).

CREATE TABLE departed_guilds (
    guild_id  INTEGER PRIMARY KEY,
    left_at   REAL NOT NULL
);
