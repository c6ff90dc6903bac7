"""A throwaway PostgreSQL server for the tests (and the load benchmark).

``initdb`` in a temporary folder, ``pg_ctl`` on a free local port, stopped at the end. The server
refuses to run as root, so as root (CI) it runs as the ``postgres`` system user that the
PostgreSQL package creates (``runuser -u postgres``), in a folder that user owns. The binaries are
looked for in PostgreSQL's own bin folders (Debian keeps them off PATH), then on PATH.

Outside CI a machine without them skips the PostgreSQL tests (:func:`unavailable` says why);
in CI (``CI=true``) they must run, so a missing or failing server is an error.
"""

from __future__ import annotations

import asyncio
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

SERVER_USER = "postgres"
TEMPLATE = "tripoley_template"


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def bin_dir() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl`` (the newest installed PostgreSQL), or None."""
    folders = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda f: int(Path(f).parent.name), reverse=True)
    for folder in folders:
        if (Path(folder) / "initdb").is_file() and (Path(folder) / "pg_ctl").is_file():
            return Path(folder)
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb and shutil.which("pg_ctl") else None


def unavailable() -> str | None:
    """Why no PostgreSQL server can be started here, or None."""
    if bin_dir() is None:
        return (
            "PostgreSQL is not installed (no initdb/pg_ctl in /usr/lib/postgresql/*/bin or on PATH): "
            "install the postgresql package (scripts/setup.sh does as root or in CI) to run these tests"
        )
    if os.geteuid() == 0 and not shutil.which("runuser"):
        return "running as root, PostgreSQL must run as another user, and runuser is missing"
    if os.geteuid() == 0:
        try:
            import pwd

            pwd.getpwnam(SERVER_USER)
        except KeyError:
            return f"running as root, PostgreSQL must run as the {SERVER_USER!r} user, which does not exist"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    """One server: :meth:`start`, :meth:`new_database` (an empty database, or a copy of the
    migrated template), :meth:`stop`; :meth:`halt` and :meth:`resume` stop and start the server
    itself in between (its data kept, as a restart or a failover does)."""

    def __init__(self) -> None:
        self.bin = bin_dir()
        self.port = free_port()
        self.folder: Path | None = None
        self._template_ready = False

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        command = [str(self.bin / args[0]), *args[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", SERVER_USER, "--", *command]
        return subprocess.run(command, check=check, capture_output=True, text=True, timeout=120)

    def start(self) -> PostgresServer:
        self.folder = Path(tempfile.mkdtemp(prefix="tripoley-pg-"))
        if os.geteuid() == 0:
            shutil.chown(self.folder, SERVER_USER, SERVER_USER)
        data = self.folder / "data"
        try:
            self._run("initdb", "-D", str(data), "-U", SERVER_USER, "-A", "trust", "-E", "UTF8", "--locale=C")
            self.resume()
        except (subprocess.SubprocessError, OSError) as exc:
            log = self.log_tail()
            self.stop()
            detail = getattr(exc, "stderr", "") or ""
            raise RuntimeError(f"PostgreSQL did not start: {exc}\n{detail}\n{log}") from None
        return self

    def resume(self) -> None:
        """Start the server on its data folder (at :meth:`start`, and again after :meth:`halt`)."""
        assert self.folder is not None
        # Throwaway data: no fsync. Sockets in our folder (the system's may not exist).
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.folder}"
            " -c fsync=off -c full_page_writes=off -c synchronous_commit=off -c max_connections=200"
        )
        self._run(
            "pg_ctl",
            "-D",
            str(self.folder / "data"),
            "-l",
            str(self.folder / "server.log"),
            "-o",
            options,
            "-w",
            "-t",
            "60",
            "start",
        )

    def halt(self, mode: str = "fast") -> None:
        """Stop the server, its data kept: ``fast`` as a restart does (clients are disconnected,
        the server shuts down cleanly), ``immediate`` as a crash."""
        assert self.folder is not None
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", mode, "-w", "stop")

    def log_tail(self) -> str:
        path = self.folder / "server.log" if self.folder else None
        if path and path.is_file():
            return "".join(path.read_text(errors="replace").splitlines(keepends=True)[-20:])
        return ""

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SERVER_USER}@127.0.0.1:{self.port}/{database}"

    def _psql(self, sql: str) -> None:
        self._run(
            "psql",
            "-h",
            "127.0.0.1",
            "-p",
            str(self.port),
            "-U",
            SERVER_USER,
            "-d",
            "postgres",
            "-v",
            "ON_ERROR_STOP=1",
            "-q",
            "-c",
            sql,
        )

    def new_database(self, migrated: bool = True) -> str:
        """The URL of a new database of its own: with the bot's migrations applied (a copy of a
        template migrated once), or empty."""
        name = "t_" + uuid.uuid4().hex[:12]
        if migrated and not self._template_ready:
            self._psql(f"CREATE DATABASE {TEMPLATE}")
            asyncio.run(_migrate(self.url(TEMPLATE)))
            self._template_ready = True
        template = f" TEMPLATE {TEMPLATE} STRATEGY FILE_COPY" if migrated else ""
        self._psql(f"CREATE DATABASE {name}{template}")
        return self.url(name)

    def stop(self) -> None:
        if self.folder is None:
            return
        data = self.folder / "data"
        if (data / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(data), "-m", "immediate", "-w", "stop", check=False)
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None


async def _migrate(url: str) -> None:
    from bot.storage.database import Database

    db = await Database(url).connect()
    await db.close()
