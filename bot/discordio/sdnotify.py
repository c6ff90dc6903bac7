"""systemd's notify protocol, spoken directly (no dependency): one datagram on ``NOTIFY_SOCKET``.

Under ``Type=notify`` the service manager waits for ``READY=1`` before it counts the bot as started,
and with ``WatchdogSec=`` it restarts the bot when the ``WATCHDOG=1`` pings stop for that long: a
wedged event loop, or a timer loop stuck inside a tick, sends none (see bot.discordio.health). Outside
systemd (no ``NOTIFY_SOCKET``) every call does nothing.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger(__name__)


def notify(state: str, environ: Mapping[str, str] = os.environ) -> bool:
    """Send ``state`` (e.g. ``"READY=1"``) to the service manager; whether it was sent."""
    address = environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket: a leading NUL byte on Linux
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.setblocking(False)  # never hold up the event loop: a full queue loses one ping
            sock.connect(address)
            sock.sendall(state.encode())
    except OSError as exc:
        log.warning("could not notify the service manager (%s): %s", state.split("=")[0], exc)
        return False
    return True


def watchdog_interval(environ: Mapping[str, str] = os.environ) -> float | None:
    """Seconds between two ``WATCHDOG=1`` pings (half of ``WatchdogSec=``, as systemd advises), or
    None when the service manager watches no process or another one (``WATCHDOG_PID``)."""
    usec = environ.get("WATCHDOG_USEC")
    pid = environ.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        seconds = int(usec) / 1_000_000
    except ValueError:
        return None
    return seconds / 2 if seconds > 0 else None
