-- The web pages (bot/web, docs/web.md). A server's own pages (its leaderboard and its players'
-- records) are served only once an admin turned them on (/tripoley-admin settings web_pages:True);
-- NULL or 0: off.
ALTER TABLE guild_settings ADD COLUMN web_pages INTEGER;

-- The site's key, one row: the pages' links are signed with it (bot/messages/weblinks.py), so a
-- page is reached only through a link the bot posted. Kept here so every process of a cluster
-- makes the same links.
CREATE TABLE web_key (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    secret  TEXT NOT NULL
);
