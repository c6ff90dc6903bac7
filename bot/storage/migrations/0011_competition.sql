-- Competition (bot/competition, docs/competition.md): a rating per player per server, its history
-- (the trend /tripoley stats draws), the games already rated, seasons and their final standings.

-- A player's rating in a server (openskill's Plackett-Luce: mu, the skill; sigma, its uncertainty).
-- games: the games rated (the rating is provisional below bot.competition.rating.PROVISIONAL_GAMES).
CREATE TABLE ratings (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    mu          REAL NOT NULL,
    sigma       REAL NOT NULL,
    games       INTEGER NOT NULL DEFAULT 0,
    updated_at  REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

-- Each game rated, once: the key that makes the update happen exactly once per game (a finish tried
-- again after a restart finds its row and rates nothing).
CREATE TABLE rated_games (
    table_id    INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    season      INTEGER NOT NULL,
    rated_at    REAL NOT NULL
);

-- A player's rating after each rated game (and after a season's softening: table_id NULL).
CREATE TABLE rating_history (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    table_id    INTEGER,
    season      INTEGER NOT NULL,
    mu          REAL NOT NULL,
    sigma       REAL NOT NULL,
    at          REAL NOT NULL
);
CREATE INDEX rating_history_by_player ON rating_history (guild_id, user_id, id);

-- A server's seasons, numbered from 1: the current one has ended_at NULL. length: 'monthly',
-- 'weekly' or 'none' (ends only when an admin ends it); ends_at: when it ends by itself (absolute
-- wall time, re-armed after a restart). channel_id: where its final standings are posted.
CREATE TABLE seasons (
    guild_id    INTEGER NOT NULL,
    number      INTEGER NOT NULL,
    length      TEXT NOT NULL DEFAULT 'none' CHECK (length IN ('monthly', 'weekly', 'none')),
    started_at  REAL NOT NULL,
    ends_at     REAL,
    ended_at    REAL,
    channel_id  INTEGER,
    PRIMARY KEY (guild_id, number)
);

-- A past season's final standings: every rated player's place (1 first) and rating then. A
-- forgotten player's row stays, anonymised (user_id -1), so the places of the others still read right.
CREATE TABLE season_standings (
    guild_id    INTEGER NOT NULL,
    season      INTEGER NOT NULL,
    place       INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    rating      INTEGER NOT NULL,
    games       INTEGER NOT NULL,
    PRIMARY KEY (guild_id, season, place)
);
