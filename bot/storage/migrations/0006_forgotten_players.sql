-- forget-me must not mint chips: a player who asked to be forgotten and comes back starts at 0
-- chips, and their daily and relief cooldowns go on where they were.
--
-- What is kept of a forgotten player is only a keyed hash of (server id, user id): HMAC-SHA256
-- with this installation's secret (created at the first forget-me, kept below). Without the
-- secret it cannot be turned back into a user id; with it, only a user id that is tried can be
-- recognised. See PRIVACY.md.

-- Per-installation values: 'forget-key' is the HMAC secret (hex).
CREATE TABLE installation (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);

-- One row per forgotten (server, player): their starting balance was given. daily_at and
-- relief_at: when they last claimed each grant (NULL: never), so forget-me resets no cooldown.
CREATE TABLE forgotten_players (
    digest     TEXT PRIMARY KEY,
    daily_at   REAL,
    relief_at  REAL
);
