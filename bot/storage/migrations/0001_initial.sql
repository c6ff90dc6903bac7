-- Wallets, ledger, server settings, user preferences, tables and stats.

CREATE TABLE guild_settings (
    guild_id          INTEGER PRIMARY KEY,
    default_preset    TEXT,
    starting_balance  INTEGER CHECK (starting_balance >= 0),
    turn_timeout      REAL CHECK (turn_timeout > 0),
    ai_pause          REAL CHECK (ai_pause >= 0)
);

CREATE TABLE user_prefs (
    user_id   INTEGER PRIMARY KEY,
    dm_hands  INTEGER NOT NULL DEFAULT 0
);

-- One wallet per user per server; user_id 0 is the server's house account (AI seats).
CREATE TABLE wallets (
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    balance   INTEGER NOT NULL CHECK (balance >= 0),
    PRIMARY KEY (guild_id, user_id)
);

-- A row for every wallet movement. kind: grant (starting balance / house bankroll),
-- buy-in, refund, cash-out.
CREATE TABLE ledger (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    delta       INTEGER NOT NULL,
    balance     INTEGER NOT NULL CHECK (balance >= 0),
    kind        TEXT NOT NULL,
    table_id    INTEGER,
    created_at  REAL NOT NULL,
    note        TEXT
);
CREATE INDEX ledger_by_user ON ledger (guild_id, user_id, id);

-- A table: lobby, then a game. chips = chips bought in and held by the table
-- (seat stakes in the lobby; stacks + mat during play; 0 once cashed out).
CREATE TABLE tables (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    host_id      INTEGER NOT NULL,
    preset       TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
    chips        INTEGER NOT NULL DEFAULT 0 CHECK (chips >= 0),
    state_json   TEXT NOT NULL,
    result_json  TEXT,
    created_at   REAL NOT NULL,
    started_at   REAL,
    ended_at     REAL
);
CREATE UNIQUE INDEX one_open_table_per_channel ON tables (channel_id) WHERE status IN ('lobby', 'playing');
CREATE INDEX tables_by_guild ON tables (guild_id, status, ended_at);

CREATE TABLE stats (
    guild_id        INTEGER NOT NULL,
    user_id         INTEGER NOT NULL,
    games           INTEGER NOT NULL DEFAULT 0,
    wins            INTEGER NOT NULL DEFAULT 0,
    rounds          INTEGER NOT NULL DEFAULT 0,
    pots_won        INTEGER NOT NULL DEFAULT 0,
    net             INTEGER NOT NULL DEFAULT 0,
    best_hand_rank  INTEGER NOT NULL DEFAULT -1,
    best_hand       TEXT,
    PRIMARY KEY (guild_id, user_id)
);
