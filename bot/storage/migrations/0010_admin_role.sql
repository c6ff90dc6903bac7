-- A server may name a role whose members use /tripoley-admin besides those with Manage Server
-- (its id; NULL: Manage Server only).
ALTER TABLE guild_settings ADD COLUMN admin_role INTEGER;
