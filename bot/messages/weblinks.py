"""The web pages' addresses (``PUBLIC_URL``, bot/web): what the Watch and Replay on the web buttons
link to.

A page's token is ``ID-MAC``: the table's (or server's, or player's) id and 22 characters of an
HMAC-SHA256 of it under the site's key (132 bits; the key is 256 random bits from
:func:`secrets.token_bytes`, kept in the database so every process of a cluster makes the same
links). Nobody without the key can make a valid token, so a game's page is reached only through its
links; the id in it lets a page find its game without a row per link, and a game pruned or removed
takes its page with it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass

MAC_CHARACTERS = 22  # of base64url: 132 bits


@dataclass(frozen=True)
class WebLinks:
    """Links to the web pages under ``public_url`` (no trailing slash), signed with ``key``."""

    public_url: str
    key: bytes

    def _mac(self, kind: str, ids: tuple[int, ...]) -> str:
        message = ":".join([kind, *map(str, ids)]).encode()
        digest = hmac.new(self.key, message, hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode()[:MAC_CHARACTERS]

    def token(self, kind: str, item: int, *scope: int) -> str:
        """The token of ``item`` (a table, a server, a player of the server ``scope``)."""
        return f"{item}-{self._mac(kind, (*scope, item))}"

    def read(self, kind: str, token: str, *scope: int) -> int | None:
        """The id a token names, or None when it is not one this key made for ``kind``."""
        item, dash, mac = token.partition("-")
        if not dash or not item.isdigit() or len(item) > 20 or len(mac) != MAC_CHARACTERS:
            return None
        expected = self._mac(kind, (*scope, int(item)))
        return int(item) if hmac.compare_digest(mac.encode(), expected.encode()) else None

    def watch_url(self, table_id: int) -> str:
        return f"{self.public_url}/live/{self.token('table', table_id)}"

    def replay_url(self, table_id: int, step: int | None = None) -> str:
        tail = "" if step is None else f"?step={step}"
        return f"{self.public_url}/replay/{self.token('table', table_id)}{tail}"

    def server_url(self, guild_id: int) -> str:
        return f"{self.public_url}/server/{self.token('server', guild_id)}"

    def player_url(self, guild_id: int, user_id: int) -> str:
        return f"{self.server_url(guild_id)}/player/{self.token('player', user_id, guild_id)}"


class LinkBoard:
    """The links the bot's messages carry: none until the web server is configured at start-up
    (``PUBLIC_URL`` and the site key), so the message builders stay pure functions of a table."""

    def __init__(self) -> None:
        self.links: WebLinks | None = None

    def configure(self, links: WebLinks | None) -> None:
        self.links = links


#: The process's links (set by the bot's start-up when ``PUBLIC_URL`` is set).
BOARD = LinkBoard()
