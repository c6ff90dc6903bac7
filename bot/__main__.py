"""``python -m bot``: run the Discord bot, check its set-up, back up its database, move it to
another (SQLite to PostgreSQL) or repair a quarantined table (bot.tables.quarantine).

The settings are checked before anything starts: each bad one is one line naming it and what it
accepts, and the exit status is 2 (as for a bad command line). So is the installed discord.py
(bot.discordio.selftest): one line and exit 2 when an internal the bot relies on is missing."""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from typing import TYPE_CHECKING, NoReturn

from bot import __version__

if TYPE_CHECKING:  # (imported where used: ``--help`` and ``has-token`` load no pydantic)
    from bot.settings import Settings

NO_TOKEN = """\
DISCORD_TOKEN is not set, so the bot cannot log in to Discord.

To get a token:
  1. Open https://discord.com/developers/applications and create an application.
  2. Under "Bot", press "Reset Token" and copy it (no privileged intents are needed).
  3. Put it in a .env file next to where you run the bot (see .env.example):
         DISCORD_TOKEN=your-token-here
     or export DISCORD_TOKEN in your shell, then run `python -m bot` again.
  4. Invite the bot with the scopes "bot applications.commands" (see the README).

Just want to see the game? Play it in your terminal, no Discord needed:
    python -m engine play
"""
SETTINGS_HINT = "Settings come from the environment and from .env in the working directory; .env.example explains each."
BAD_SETTINGS = 2  # exit status: bad settings or command line (argparse too), or a discord.py lacking what the bot needs
FAILED = 1  # exit status: the database or Discord failed
NO_TOKEN_SET = 1  # exit status of has-token: no token

# The name the command was run by: the console script (``tripoley-bot``, from the install) or ``python -m bot``.
PROG = "tripoley-bot" if sys.argv and sys.argv[0].rsplit("/", 1)[-1] == "tripoley-bot" else "python -m bot"


class Parser(argparse.ArgumentParser):
    """Errors in one line naming the command (the usage is one ``--help`` away), exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(BAD_SETTINGS, f"{self.prog}: {message} (see {self.prog} --help)\n")


def parser() -> argparse.ArgumentParser:
    p = Parser(
        prog=PROG,
        usage=PROG
        + " [-h] [--version] [run [--shards N,...] | check | sync | has-token | migrations | forget USER_ID | prune | repair TABLE_ID | backup PATH | migrate-db FROM TO]",
        description="The Tripoley Discord bot. " + SETTINGS_HINT,
        epilog="Exit status: 0 done, 1 the database or Discord failed, 2 bad settings or arguments"
        " (or a discord.py that lacks what the bot relies on).",
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = p.add_subparsers(dest="command", metavar="COMMAND", prog=PROG)
    run = commands.add_parser("run", help="run the bot (the default): apply database migrations, log in, serve")
    run.add_argument(
        "--shards",
        type=shard_list,
        metavar="N,...",
        help="the shards this process runs (as SHARD_IDS, which it overrides; the cluster's systemd template"
        " passes its instance number here, where no environment file can change it)",
    )
    commands.add_parser(
        "check",
        help="check the settings, open the database (applying its migrations) and log in over HTTP"
        " (no gateway), then exit without starting",
    )
    commands.add_parser(
        "sync",
        help="sync the slash commands to Discord now (globally, or to DEV_GUILD_ID), then exit; the bot itself"
        " syncs at start only when its commands changed",
    )
    commands.add_parser(
        "has-token",
        help="exit 0 when DISCORD_TOKEN is set (in the environment or .env, read as the bot reads it),"
        " 1 when it is not (scripts/run.sh asks this to choose between the bot and the terminal game)",
    )
    commands.add_parser(
        "migrations",
        help="list the database's applied migrations and those the next start would apply; changes nothing",
    )
    forget = commands.add_parser(
        "forget",
        help="forget a user in every server (a deletion request): their wallets (the chips leave each server),"
        " stats, names in finished games and preferences; ledger rows stay, anonymised; refused while they are"
        " seated at an open table",
    )
    forget.add_argument("user_id", metavar="USER_ID", type=int, help="the user's Discord id (a number)")
    commands.add_parser(
        "prune",
        help="apply the retention settings now (the bot does at start and daily): delete finished games older"
        " than RETENTION_DAYS, anonymise ledger rows as old, purge servers that removed the bot"
        " REMOVED_SERVER_DAYS ago",
    )
    backup = commands.add_parser("backup", help="copy the database to a new file; safe while the bot runs")
    backup.add_argument("path", metavar="PATH", help="the new file to write (it must not exist yet)")
    move = commands.add_parser(
        "migrate-db",
        help="copy every row of database FROM into the empty database TO (e.g. SQLite to PostgreSQL),"
        " then check the copy: the same rows and the same chips in every server; stop the bot first",
    )
    move.add_argument("source", metavar="FROM", help="a database URL as DATABASE_URL takes (sqlite:///bot.sqlite3)")
    move.add_argument("target", metavar="TO", help="a database URL (postgresql://user:password@host/database)")
    repair = commands.add_parser(
        "repair",
        help="give a quarantined table's frozen chips back to the wallets that paid them (the ledger says"
        " who); safe while the bot runs",
    )
    repair.add_argument("table_id", metavar="TABLE_ID", type=int, help="the table's id (the audit lists them)")
    return p


def command_line_settings(args: argparse.Namespace) -> dict[str, str]:
    """The settings the command line gives, which win over the environment and ``.env``."""
    return {"shard_ids": args.shards} if getattr(args, "shards", None) is not None else {}


def named_as_given(lines: list[str], args: argparse.Namespace) -> list[str]:
    """A setting that came from the command line (``run --shards``) is blamed as it was given, not as
    the variable it overrides."""
    shards = getattr(args, "shards", None)
    if shards is None:
        return lines
    out = []
    for line in lines:
        if line.startswith("SHARD_IDS="):
            reason = line.partition(": ")[2].partition("; it accepts")[0].rstrip(".")
            reason = reason.replace("SHARD_IDS needs SHARD_COUNT", "it needs SHARD_COUNT (in the environment or .env)")
            line = (
                f"--shards {shards}: {reason}; it takes shard numbers below SHARD_COUNT separated by commas (3 or 0,1)."
            )
        out.append(line)
    return out


def shard_list(text: str) -> str:
    """``--shards``: at least one shard (empty would mean every shard, which it never may)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("name at least one shard (e.g. --shards 3)")
    return text


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "has-token":
        return has_token()
    from bot.settings import SettingsError, load_settings
    from bot.storage.schema import SchemaTooNew

    try:
        settings = load_settings(**command_line_settings(args))
    except SettingsError as exc:
        print("\n".join(named_as_given(exc.lines, args)), file=sys.stderr)
        print(SETTINGS_HINT, file=sys.stderr)
        return BAD_SETTINGS
    try:
        return command(args, settings)
    except SchemaTooNew as exc:  # from any sub-command that opens the database: this code must not touch it
        print(f"{PROG}: {exc}", file=sys.stderr)
        return BAD_SETTINGS


def command(args: argparse.Namespace, settings: Settings) -> int:
    if args.command == "migrations":
        return asyncio.run(migrations(settings))
    if args.command == "backup":
        return backup(settings, args.path)
    if args.command == "migrate-db":
        return asyncio.run(migrate_db(args.source, args.target))
    if args.command == "repair":
        return asyncio.run(repair(settings, args.table_id))
    if args.command == "forget":
        return asyncio.run(forget(settings, args.user_id))
    if args.command == "prune":
        return asyncio.run(prune(settings))
    from bot.discordio import selftest

    broken = selftest.problem()
    if broken:
        print(broken, file=sys.stderr)
        return BAD_SETTINGS
    token = settings.token()
    if not token:
        print(NO_TOKEN, file=sys.stderr)
        return BAD_SETTINGS
    if args.command == "check":
        return asyncio.run(check(settings, token))
    if args.command == "sync":
        return asyncio.run(sync(settings, token))

    from bot.logsetup import setup_logging

    redactor = setup_logging(settings.log_level, [token, settings.sentry() or ""], settings.log_file)
    dsn = settings.sentry()
    if dsn:
        from bot.reporting import setup_sentry

        setup_sentry(dsn, redactor)

    from bot.discordio.client import run_bot

    asyncio.run(refuse_a_newer_database(settings))  # before the log-in: one line, not a traceback from setup_hook
    return run_bot(settings)


async def refuse_a_newer_database(settings: Settings) -> None:
    """Raise SchemaTooNew for a database a newer bot migrated; any other problem is the bot's to report
    as it starts (it retries a database that is away)."""
    from bot.storage.database import Database

    try:
        db = await Database(settings.database_path()).connect(migrate=False)
    except database_errors():
        return
    await db.close()


async def migrations(settings: Settings) -> int:
    import datetime

    from bot.settings import redacted
    from bot.storage.database import Database

    try:
        db = await Database(settings.database_path()).connect(migrate=False)
    except database_errors() as exc:
        print(f"migrations: cannot open the database ({exc})", file=sys.stderr)
        return FAILED
    try:
        status = await db.migration_status()
    finally:
        await db.close()
    print(f"database {redacted(settings.database_path())}:")
    for _version, name, applied_at in status.applied:
        when = datetime.datetime.fromtimestamp(applied_at, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
        print(f"  applied  {name}  ({when})")
    for migration in status.pending:
        print(f"  pending  {migration.name}")
    if not status.pending:
        print("up to date: the next start applies nothing")
    else:
        print(f"{len(status.pending)} pending: the next start (or `python -m bot check`) applies them")
    return 0


def has_token() -> int:
    """Only the token is read: whatever else is wrong, the bot itself reports it when it starts."""
    from bot.settings import TokenSettings, unreadable_env

    try:
        found = TokenSettings().token()
    except (UnicodeDecodeError, OSError) as exc:
        print(unreadable_env(exc), file=sys.stderr)
        return BAD_SETTINGS
    print("DISCORD_TOKEN is set" if found else "DISCORD_TOKEN is not set")
    return 0 if found else NO_TOKEN_SET


def backup(settings: Settings, path: str) -> int:
    from bot.storage.backup import backup as copy_database

    if settings.is_postgres():
        print(
            "backup copies an SQLite file; back up PostgreSQL with pg_dump (bot/README.md, Running a cluster)",
            file=sys.stderr,
        )
        return FAILED
    database = settings.database_path()
    try:
        version = copy_database(database, path)
    except (ValueError, OSError, sqlite3.Error) as exc:
        print(f"backup failed: {exc}", file=sys.stderr)
        return FAILED
    print(f"backed up {database} (schema version {version}) to {path}")
    return 0


async def check(settings: Settings, token: str) -> int:
    """Each part on one line; every part is tried even when one fails."""
    import discord

    from bot.discordio.login import DiscordUnreachable, log_in_over_http, point_discord_at
    from bot.settings import redacted
    from bot.storage.database import Database

    print("settings: ok")
    if settings.web_address is not None:  # the web pages (docs/web.md): where served, how linked
        print(f"web: pages on http://{settings.web_address}/, linked as {settings.public_url}")
    print(f"discord.py: ok, {discord.__version__} with every internal the bot relies on")
    database = redacted(settings.database_path())
    status = 0
    try:
        db = await Database(settings.database_path()).connect()
        try:
            print(f"database: ok, {database} at schema version {await db.schema_version()}")
        finally:
            await db.close()
    except database_errors() as exc:
        print(f"database: cannot open {database}: {exc}", file=sys.stderr)
        status = FAILED
    point_discord_at(settings.discord_api_base, settings.discord_gateway_url)
    try:
        user = await log_in_over_http(token)
        print(f"discord: ok, logged in as {user.get('username')!r} (id {user.get('id')})")
    except discord.LoginFailure:
        print(
            "discord: the token was refused (401); reset it in the developer portal and update DISCORD_TOKEN",
            file=sys.stderr,
        )
        status = FAILED
    except DiscordUnreachable as exc:
        print(f"discord: unreachable ({exc})", file=sys.stderr)
        status = FAILED
    return status


async def sync(settings: Settings, token: str) -> int:
    import discord

    from bot.discordio.client import sync_commands_once
    from bot.discordio.login import DiscordUnreachable, point_discord_at

    point_discord_at(settings.discord_api_base, settings.discord_gateway_url)
    try:
        count = await sync_commands_once(settings, token)
    except discord.LoginFailure:
        print("sync: the token was refused (401); reset it in the developer portal", file=sys.stderr)
        return FAILED
    except DiscordUnreachable as exc:
        print(f"sync: Discord is unreachable ({exc})", file=sys.stderr)
        return FAILED
    except discord.HTTPException as exc:
        print(f"sync: Discord refused the commands ({exc})", file=sys.stderr)
        return FAILED
    except database_errors() as exc:
        print(f"sync: cannot open the database ({exc})", file=sys.stderr)
        return FAILED
    where = f"to the dev server {settings.dev_guild_id}" if settings.dev_guild_id else "globally"
    print(f"synced {count} command(s) {where} (a global change can take up to an hour to show everywhere)")
    return 0


def database_errors() -> tuple[type[BaseException], ...]:
    """What a database that can't be opened or used raises (SQLite's or PostgreSQL's)."""
    import asyncpg

    return (OSError, sqlite3.Error, RuntimeError, asyncpg.PostgresError, asyncpg.InterfaceError)


async def forget(settings: Settings, user_id: int) -> int:
    """An operator's answer to a deletion request: the user forgotten everywhere, each server balanced."""
    from bot import errors
    from bot.competition.store import CompetitionStore
    from bot.economy import privacy
    from bot.economy.bank import Bank
    from bot.storage.database import Database

    if user_id <= 0:
        print(f"forget: {user_id} is not a user id (a Discord id is a positive number)", file=sys.stderr)
        return BAD_SETTINGS
    try:
        db = await Database(settings.database_path()).connect()
    except database_errors() as exc:
        print(f"forget: cannot open the database ({exc})", file=sys.stderr)
        return FAILED
    try:
        bank = Bank(db)
        bank.also_forget.append(CompetitionStore(db).forget)  # as the bot's (bot.tables.manager)
        removed = await privacy.forget_everywhere(bank, user_id, lambda guild_id: False)
    except errors.NotAllowed:
        print(
            f"forget: user {user_id} is seated at an open table; run this again once that game has ended",
            file=sys.stderr,
        )
        return FAILED
    finally:
        await db.close()
    print(
        f"forgot user {user_id} in {len(removed)} server(s): {sum(removed.values())} chip(s) removed from"
        " their wallets, stats and names in finished games deleted, ledger rows anonymised, preferences deleted"
    )
    return 0


async def prune(settings: Settings) -> int:
    import time

    from bot.economy import privacy
    from bot.storage.database import Database

    try:
        db = await Database(settings.database_path()).connect()
    except database_errors() as exc:
        print(f"prune: cannot open the database ({exc})", file=sys.stderr)
        return FAILED
    try:
        pruned, purged = await privacy.retain(db, settings, time.time())
    finally:
        await db.close()
    if pruned is None:
        print("prune: RETENTION_DAYS is not set, so finished games are kept")
    else:
        print(
            f"prune: {pruned.games} finished game(s) older than {settings.retention_days:g} days deleted,"
            f" {pruned.quarantined} settled quarantined table(s) of that age deleted,"
            f" {pruned.ledger_rows} ledger row(s) anonymised"
        )
    print(f"prune: {len(purged)} server(s) that removed the bot over {settings.removed_server_days:g} days ago purged")
    return 0


async def repair(settings: Settings, table_id: int) -> int:
    from bot.economy.bank import Bank
    from bot.storage.database import Database
    from bot.tables.quarantine import repair as repair_table

    try:
        db = await Database(settings.database_path()).connect()
    except database_errors() as exc:
        print(f"repair: cannot open the database: {exc}", file=sys.stderr)
        return FAILED
    try:
        print(await repair_table(db, Bank(db), table_id))
    except ValueError as exc:
        print(f"repair: {exc}", file=sys.stderr)
        return FAILED
    finally:
        await db.close()
    return 0


async def migrate_db(source: str, target: str) -> int:
    from bot.settings import database_path, redacted
    from bot.storage.copydb import MigrationRefused, migrate_database

    try:
        moved = await migrate_database(database_path(source), database_path(target))
    except MigrationRefused as exc:
        print(f"migrate-db: {exc}", file=sys.stderr)
        return FAILED
    except ValueError as exc:  # a URL that names no database
        print(f"migrate-db: {exc}; give database URLs as DATABASE_URL takes them", file=sys.stderr)
        return BAD_SETTINGS
    except database_errors() as exc:
        print(f"migrate-db: {exc}", file=sys.stderr)
        return FAILED
    rows = ", ".join(f"{name} {n}" for name, n in moved.rows.items())
    print(
        f"migrated {redacted(source)} to {redacted(target)}: {rows} rows;"
        f" {moved.chips} chips in {len(moved.audits)} servers, every server balanced before and after"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
