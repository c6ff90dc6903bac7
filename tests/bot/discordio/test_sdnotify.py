"""bot.discordio.sdnotify: systemd's notify protocol, received on a socket the test makes."""

from __future__ import annotations

import os
import socket
import sys
import uuid

import pytest

from bot.discordio.sdnotify import notify, watchdog_interval


@pytest.fixture
def notify_socket(tmp_path):
    """A datagram socket where systemd's would be, and the NOTIFY_SOCKET value naming it."""
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        sock.settimeout(5)
        yield sock, str(path)


def test_each_state_is_one_datagram_on_the_socket(notify_socket):
    sock, path = notify_socket
    assert notify("READY=1", {"NOTIFY_SOCKET": path})
    assert notify("WATCHDOG=1", {"NOTIFY_SOCKET": path})
    assert sock.recv(4096) == b"READY=1"
    assert sock.recv(4096) == b"WATCHDOG=1"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="abstract sockets are Linux's")
def test_an_abstract_socket_is_named_with_a_leading_at():
    name = f"tripoley-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(5)
        assert notify("READY=1", {"NOTIFY_SOCKET": "@" + name})
        assert sock.recv(4096) == b"READY=1"


def test_outside_systemd_nothing_is_sent(tmp_path, caplog):
    assert not notify("READY=1", {})
    # A socket that is gone: one warning, no exception (the bot runs on).
    assert not notify("READY=1", {"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert "could not notify the service manager (READY)" in caplog.text


def test_the_watchdog_pings_twice_per_period_and_only_for_its_own_process():
    assert watchdog_interval({"WATCHDOG_USEC": "30000000"}) == 15.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}) == 15.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid() + 1)}) is None
    assert watchdog_interval({}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "0"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "soon"}) is None
