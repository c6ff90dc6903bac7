"""The table on the web (``WEB_ADDRESS``, ``PUBLIC_URL``; docs/web.md): a replay viewer for every
finished game, a live page for a table in play, and per-server leaderboards an admin turned on.

Read-only: nothing a viewer does reaches a game. Every page and every datum is built from the
engine's public view (seat None, what a spectator sees: :mod:`bot.web.public`).
"""
