"""Replay a fully specified game (format: docs/replay.md): decks and decisions in, outcome out."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, Literal, TextIO

from pydantic import BaseModel, ConfigDict, ValidationError

from .events import Event
from .game import Game
from .model import Action, IllegalAction
from .presets import PRESETS
from .textview import printable

#: Told of every step of a replay as it is played: the game after it, the decision (None for a deal,
#: the start or the game's end) and the events it raised.
StepWatcher = Callable[[Game, Action | None, list[Event]], None]


class ReplayError(Exception):
    """A replay that cannot go on; the message is the one line printed for exit code 2."""


# Strict: JSON ``true`` is not the number 1, nor "5" a number.
class ReplayRound(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)
    deck: list[str]
    actions: list[dict[str, Any]] = []


class ReplaySwitch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    before_round: int
    preset: str


class ReplayInput(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)
    preset: str = "tripoley"
    options: dict[str, Any] = {}
    players: list[str]
    stacks: list[int] | None = None
    dealer: int | None = None
    seed: int | None = None
    rounds: list[ReplayRound] = []
    switches: list[ReplaySwitch] = []
    end: Literal["host-stop", "time-limit", "too-few-players"] | None = None
    playoff: ReplayRound | list[ReplayRound] | None = None


def _describe(index: int, data: dict[str, Any]) -> str:
    args = " ".join(
        str(v) if not isinstance(v, list) else " ".join(map(str, v)) for k, v in data.items() if k not in ("seat", "do")
    )
    what = f"{data.get('do', '?')} {args}".strip()
    return f"action {index} (seat {data.get('seat', '?')}, {what})"


def run_replay(data: dict[str, Any], trace: TextIO | None = None, watch: StepWatcher | None = None) -> dict[str, Any]:
    """Play ``data`` through the engine; raise ReplayError on the first illegal step. ``watch``, when
    given, is told of each step (the web's replay viewer shows the game as it was after each)."""
    try:
        spec = ReplayInput.model_validate(data)
    except ValidationError as exc:
        raise ReplayError(f"bad replay file: {exc.errors()[0]['loc']}: {exc.errors()[0]['msg']}") from None
    if spec.seed is not None and spec.seed < 0:
        raise ReplayError(f"bad replay file: ('seed',): must be 0 or more, got {spec.seed}")
    options = dict(spec.options or {})
    if "game_end" not in options:
        # The file's rounds are the game: the preset's default round limit never cuts them short,
        # and a file that includes the board clearing ends after its last round.
        preset = PRESETS.get(spec.preset)
        kind, limit = preset.options.game_end_rule() if preset is not None else ("", 0)
        rounds = len(spec.rounds)
        if spec.playoff is not None and rounds:
            options["game_end"] = f"rounds:{rounds}"
        elif kind == "rounds" and rounds > limit:
            options["game_end"] = f"rounds:{rounds}"
    elapsed = [0.0]  # a replay has no wall clock: a time limit runs out only where the file says (`end`)
    try:
        game = Game.new(
            spec.preset,
            spec.players,
            options=options,
            stacks=spec.stacks,
            dealer=spec.dealer,
            seed=spec.seed if spec.seed is not None else 0,
            clock=lambda: elapsed[0],
        )
    except ValueError as exc:
        raise ReplayError(f"bad game setup: {exc}") from None

    def switch_before(rnum: int) -> None:
        for sw in spec.switches:
            if sw.before_round == rnum:
                try:
                    emit(game.switch_preset(sw.preset))
                except ValueError as exc:
                    raise ReplayError(f"switch before round {rnum}: {exc}") from None

    traced_game_events = 0

    def emit(events: list[Event], action: Action | None = None) -> None:
        """Trace the game-level events raised meanwhile (e.g. `eliminated` while a deal seats the
        players), then ``events``; an event that is both (the board clearing's) is traced once.
        ``watch`` hears of the step (``action``: the decision that raised them)."""
        nonlocal traced_game_events
        if watch is not None:
            watch(game, action, events)
        if trace is not None:
            returned = {id(e) for e in events}
            raised = [e for e in game.game_events[traced_game_events:] if id(e) not in returned]
            for e in [*raised, *events]:
                trace.write(json.dumps(e.to_dict(), separators=(",", ":")) + "\n")
        traced_game_events = len(game.game_events)

    emit([])
    for rnum, rnd in enumerate(spec.rounds, start=1):
        if game.over or game.finished:
            raise ReplayError(f"round {rnum}: the game is already over ({game.phase})")
        switch_before(rnum)
        if spec.end == "time-limit" and rnum == len(spec.rounds):
            elapsed[0] = float("inf")
        try:
            emit(game.next_deal(rnd.deck))
        except (IllegalAction, ValueError) as exc:
            raise ReplayError(f"round {rnum} deck: {exc}") from None
        for i, raw in enumerate(rnd.actions):
            where = _describe(i, raw) + (f" in round {rnum}" if rnum > 1 else "")
            try:
                action = Action.model_validate(raw, strict=True)
            except ValidationError as exc:
                raise ReplayError(f"{where}: malformed action ({exc.errors()[0]['msg']})") from None
            try:
                emit(game.apply(action, in_turn=True), action)  # a step decided at once: in the published order
            except IllegalAction as exc:
                raise ReplayError(f"{where}: {exc}") from None
        if game.awaiting() is not None:  # the actions ran out mid-round: report what the engine awaits
            unplayed = len(spec.rounds) - rnum
            if unplayed or (spec.playoff and spec.end != "host-stop"):
                aw = game.awaiting()
                assert aw is not None  # a round that ends mid-way waits for someone
                later = f"{unplayed} more round(s)" if unplayed else "a playoff"
                raise ReplayError(
                    f"round {rnum} ends mid-way (waiting for seat {aw.seat} to {aw.phase}) "
                    f"but the file lists {later} after it"
                )
            break
    if not game.over and game.awaiting() is None:
        switch_before(len(spec.rounds) + 1)
        if spec.end == "too-few-players":
            emit(game.next_deal())  # nobody is dealt in: the game ends
    if spec.end == "host-stop" and not game.finished:
        emit(game.end_now())
    clearing = spec.playoff if isinstance(spec.playoff, list) else [spec.playoff] if spec.playoff else []
    for hand in clearing:  # one hand, or several for a Michigan-interests clearing
        if not (game.over and not game.finished and game.awaiting() is None):
            break
        try:
            emit(game.next_deal(hand.deck))
        except (IllegalAction, ValueError) as exc:
            raise ReplayError(f"playoff deck: {exc}") from None
        for i, raw in enumerate(hand.actions):  # leads in a Michigan-interests clearing hand
            where = _describe(i, raw) + " in the playoff"
            try:
                lead = Action.model_validate(raw, strict=True)
                emit(game.apply(lead), lead)
            except ValidationError as exc:
                raise ReplayError(f"{where}: malformed action ({exc.errors()[0]['msg']})") from None
            except IllegalAction as exc:
                raise ReplayError(f"{where}: {exc}") from None
    return outcome(game)


def outcome(game: Game) -> dict[str, Any]:
    aw = game.awaiting()
    if aw is not None:
        awaiting: dict[str, Any] | None = {"seat": aw.seat, "phase": aw.phase, "legal": aw.legal, "detail": aw.detail}
    elif game.finished:
        awaiting = None
    else:
        awaiting = {"seat": None, "phase": "playoff" if game.over else "deal", "legal": []}
    rounds = []
    for rec in game.log:
        if rec.get("playoff"):
            continue
        rounds.append(
            {
                "dealer": rec["dealer"],
                "payouts": list(rec["payouts"]),
                "poker": rec["poker"],
                "michigan": rec["michigan"],
                "events": [e.to_dict() for e in rec["events"]],
            }
        )
    out: dict[str, Any] = {
        "stacks": list(game.stacks),
        "mat": dict(game.mat),
        "rounds": rounds,
        "finished": game.finished,
        "awaiting": awaiting,
    }
    hands = [
        {
            "dealer": rec["dealer"],
            "payouts": list(rec["payouts"]),
            "michigan": rec["michigan"],
            "events": [e.to_dict() for e in rec["events"]],
        }
        for rec in game.log
        if rec.get("playoff")
    ]
    if game.playoff_result is not None or hands:
        out["playoff"] = {**(game.playoff_result or {}), **({"hands": hands} if hands else {})}
    if game.game_events:
        out["events"] = [e.to_dict() for e in game.game_events]
    return out


#: A replay file is at most this big: reading stops there (``replay /dev/zero`` must not run forever).
MAX_FILE_BYTES = 64 * 1024 * 1024


def read_game_file(path: str) -> Any:
    """The JSON of ``path`` (``-``: standard input); ReplayError with one line if it cannot be read."""
    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            raw = (
                sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
                if hasattr(sys.stdin, "buffer")
                else sys.stdin.read(MAX_FILE_BYTES + 1).encode()
            )
        else:
            with open(path, "rb") as fh:
                raw = fh.read(MAX_FILE_BYTES + 1)
        if len(raw) > MAX_FILE_BYTES:
            raise ReplayError(f"cannot read {name}: larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
        return json.loads(raw.decode("utf-8"))
    except OSError as exc:
        raise ReplayError(f"cannot read {name}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ReplayError(f"cannot read {name}: not UTF-8 text (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise ReplayError(f"cannot read {name}: not JSON: {exc}") from None
    except RecursionError:
        raise ReplayError(f"cannot read {name}: the JSON is nested too deeply") from None


def main(
    path: str,
    trace: bool = False,
    out: TextIO | None = None,
    err: TextIO | None = None,
    as_json: bool | None = None,
) -> int:
    """Replay ``path`` and print the outcome to ``out`` (default: standard output); a refusal is one
    line on ``err`` (default: standard error) and exit code 2.

    The outcome is the JSON of docs/replay.md (``as_json``), or a few lines a person reads; by default
    JSON unless ``out`` is a terminal, so pipes, files and programs always get the JSON."""
    out, err = out or sys.stdout, err or sys.stderr
    try:
        data = read_game_file(path)
        result = run_replay(data, trace=err if trace else None)
    except ReplayError as exc:
        err.write(printable(str(exc)) + "\n")
        return 2
    except RecursionError:
        err.write("bad replay file: a value is nested too deeply\n")
        return 2
    if as_json is None:
        as_json = not (hasattr(out, "isatty") and out.isatty())
    if as_json:
        out.write(json.dumps(result, indent=2) + "\n")
    else:
        lines = summary(result, [str(name) for name in data.get("players") or []]).splitlines()
        out.write("".join(printable(line) + "\n" for line in lines))
    return 0


def summary(result: dict[str, Any], names: list[str]) -> str:
    """The outcome in words: each round's dealer, payouts, poker winners and who went out, the stacks,
    and what the game awaits (``--json`` prints every event)."""

    def who(seat: object) -> str:
        index = int(str(seat))
        return names[index] if 0 <= index < len(names) else f"seat {index}"

    lines: list[str] = []
    for number, rnd in enumerate(result.get("rounds") or [], 1):
        won: dict[int, int] = {}
        for payout in rnd.get("payouts") or []:
            won[int(payout["seat"])] = won.get(int(payout["seat"]), 0) + int(payout["amount"])
        lines.append(f"Round {number} (dealer {who(rnd.get('dealer', 0))}):")
        if won:
            lines.append("  paid: " + ", ".join(f"{who(seat)} {amount}" for seat, amount in sorted(won.items())))
        poker = rnd.get("poker") or {}
        if poker.get("winners"):
            hands = poker.get("hands") or {}
            winners = [f"{who(s)} ({hands.get(str(s), '?').replace('_', ' ')})" for s in poker["winners"]]
            lines.append("  poker: " + ", ".join(winners))
        michigan = rnd.get("michigan") or {}
        if michigan.get("out") is not None:
            lines.append(f"  out first: {who(michigan['out'])}")
    stacks = result.get("stacks") or []
    lines.append("Stacks: " + ", ".join(f"{who(seat)} {chips}" for seat, chips in enumerate(stacks)))
    if result.get("finished"):
        lines.append("The game is over.")
    elif (result.get("awaiting") or {}).get("seat") is not None:
        waiting = result["awaiting"]
        legal = ", ".join(waiting.get("legal") or [])
        lines.append(f"Awaiting {who(waiting['seat'])} in {waiting.get('phase', '?')}: {legal}")
    else:
        lines.append("The file's rounds end here; the game goes on.")
    lines.append("(--json prints the whole outcome, every event included)")
    return "\n".join(lines)
