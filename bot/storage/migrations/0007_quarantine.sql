-- A saved table that cannot be loaded (its state unreadable, or failing as it resumes) is
-- quarantined: status 'quarantined', why and when kept, its channel free for a new table. Its
-- chips go back to the wallets that paid them (the ledger's rows for the table) or, if the ledger
-- cannot tell, stay on the row (frozen) until `python -m bot repair TABLE_ID` returns them.
--
-- SQLite cannot change a CHECK constraint: the table is rebuilt, rows copied with their ids
-- (on PostgreSQL the migration runner then moves the id sequence past them).

CREATE TABLE tables_rebuilt (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id           INTEGER NOT NULL,
    channel_id         INTEGER NOT NULL,
    host_id            INTEGER NOT NULL,
    preset             TEXT NOT NULL,
    status             TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled', 'quarantined')),
    chips              INTEGER NOT NULL DEFAULT 0 CHECK (chips >= 0),
    state_json         TEXT NOT NULL,
    result_json        TEXT,
    created_at         REAL NOT NULL,
    started_at         REAL,
    ended_at           REAL,
    replay_json        TEXT,
    quarantine_reason  TEXT,
    quarantined_at     REAL
);
INSERT INTO tables_rebuilt
    (id, guild_id, channel_id, host_id, preset, status, chips, state_json, result_json, created_at, started_at,
     ended_at, replay_json)
SELECT id, guild_id, channel_id, host_id, preset, status, chips, state_json, result_json, created_at, started_at,
       ended_at, replay_json
FROM tables;
DROP TABLE tables;
ALTER TABLE tables_rebuilt RENAME TO tables;
CREATE UNIQUE INDEX one_open_table_per_channel ON tables (channel_id) WHERE status IN ('lobby', 'playing');
CREATE INDEX tables_by_guild ON tables (guild_id, status, ended_at);
