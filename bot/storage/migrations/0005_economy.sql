-- A server economy that lasts: grants and removals, a finite house bankroll, admin tools, threads.
--
-- Every ledger row either moves chips between a wallet and a table (table_id set: buy-in, refund,
-- cash-out) or brings chips into the server / takes them out of it (table_id NULL: a grant when
-- delta > 0, a removal when delta < 0). So for each server
--     sum(wallets) + sum(open tables' chips) = grants - removals.
-- actor_id: the admin who granted, removed, reset or funded (NULL for the bot's own rows).

ALTER TABLE ledger ADD COLUMN actor_id INTEGER;

-- Until now the house was granted its shortfall at each AI buy-in, in a row that named the table:
-- those were grants (chips entering the server), so they lose the table id and say what they were.
-- The house keeps the balance it holds: from now on that is its finite bankroll.
UPDATE ledger SET table_id = NULL, kind = 'house-bankroll' WHERE kind = 'grant' AND user_id = 0;

CREATE INDEX ledger_by_kind ON ledger (guild_id, user_id, kind, id);

-- Server overrides of the economy settings (NULL: the bot's default).
ALTER TABLE guild_settings ADD COLUMN daily_amount INTEGER CHECK (daily_amount >= 0);
ALTER TABLE guild_settings ADD COLUMN daily_cooldown_hours REAL CHECK (daily_cooldown_hours > 0);
ALTER TABLE guild_settings ADD COLUMN relief_amount INTEGER CHECK (relief_amount >= 0);
ALTER TABLE guild_settings ADD COLUMN relief_cooldown_hours REAL CHECK (relief_cooldown_hours > 0);
ALTER TABLE guild_settings ADD COLUMN threads INTEGER CHECK (threads IN (0, 1));
