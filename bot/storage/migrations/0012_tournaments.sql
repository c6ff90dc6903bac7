-- Tournaments (bot/tournaments): a sign-up, then stages of tables, then the final standings.
-- state_json: the settings, the stages' tables and their orders (competitors by id, no names);
-- the people are rows of tournament_entrants, so forget-me scrubs them in one place.
-- Chips: the buy-ins sit in the tournament's pot account (a wallet row with a negative user id,
-- bot.tournaments.model.pot_account) until they are paid out or refunded.

CREATE TABLE tournaments (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    host_id     INTEGER NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    state_json  TEXT NOT NULL,
    start_at    REAL,
    created_at  REAL NOT NULL,
    ended_at    REAL
);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);

CREATE TABLE tournament_entrants (
    tournament_id  INTEGER NOT NULL,
    entry          INTEGER NOT NULL,
    guild_id       INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    name           TEXT NOT NULL,
    paid           INTEGER NOT NULL CHECK (paid >= 0),
    left_game      INTEGER NOT NULL DEFAULT 0 CHECK (left_game IN (0, 1)),
    place          INTEGER,
    prize          INTEGER NOT NULL DEFAULT 0 CHECK (prize >= 0),
    PRIMARY KEY (tournament_id, entry)
);
CREATE INDEX tournament_entrants_by_user ON tournament_entrants (guild_id, user_id);
