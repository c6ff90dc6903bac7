-- The slash commands as last synced to Discord: a hash of the command tree's JSON per application and
-- scope (global, or a dev server). The bot syncs at start only when its tree's hash differs, so a
-- restart, or a cluster's processes starting together, does not re-sync (bot/discordio/commandsync.py).

CREATE TABLE command_sync (
    scope      TEXT PRIMARY KEY,
    tree_hash  TEXT NOT NULL,
    synced_at  REAL NOT NULL
);
