"""Replay a fully specified game (docs/replay.md): decks and decisions in, outcome out."""

from __future__ import annotations

import json
import sys
from typing import Any, Literal, TextIO

from pydantic import BaseModel, ConfigDict, ValidationError

from .game import Game
from .presets import PRESETS
from .model import Action, IllegalAction


class ReplayError(Exception):
    """A replay that cannot go on; the message is the one line printed for exit code 2."""


class ReplayRound(BaseModel):
    model_config = ConfigDict(extra="ignore")
    deck: list[str]
    actions: list[dict[str, Any]] = []


class ReplaySwitch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    before_round: int
    preset: str


class ReplayInput(BaseModel):
    model_config = ConfigDict(extra="ignore")
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
        str(v) if not isinstance(v, list) else " ".join(map(str, v))
        for k, v in data.items()
        if k not in ("seat", "do")
    )
    what = f"{data.get('do', '?')} {args}".strip()
    return f"action {index} (seat {data.get('seat', '?')}, {what})"


def run_replay(data: dict[str, Any], trace: TextIO | None = None) -> dict[str, Any]:
    """Play ``data`` through the engine; raise ReplayError on the first illegal step."""
    try:
        spec = ReplayInput.model_validate(data)
    except ValidationError as exc:
        raise ReplayError(f"bad replay file: {exc.errors()[0]['loc']}: {exc.errors()[0]['msg']}") from None
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
        game = Game.new(spec.preset, spec.players, options=options, stacks=spec.stacks,
                        dealer=spec.dealer, seed=spec.seed if spec.seed is not None else 0,
                        clock=lambda: elapsed[0])
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

    def emit(events: list) -> None:
        """Trace the game-level events raised meanwhile (e.g. `eliminated` while a deal seats the
        players), then ``events``."""
        nonlocal traced_game_events
        if trace is not None:
            for e in [*game.game_events[traced_game_events:], *events]:
                trace.write(json.dumps(e, separators=(",", ":")) + "\n")
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
                action = Action.from_dict(raw)
            except ValidationError as exc:
                raise ReplayError(f"{where}: malformed action ({exc.errors()[0]['msg']})") from None
            try:
                emit(game.apply(action))
            except IllegalAction as exc:
                raise ReplayError(f"{where}: {exc}") from None
        if game.awaiting() is not None:
            break  # the actions ran out mid-round: report what the engine awaits
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
                emit(game.apply(Action.from_dict(raw)))
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
        rounds.append({
            "dealer": rec["dealer"],
            "payouts": list(rec["payouts"]),
            "poker": rec["poker"],
            "michigan": rec["michigan"],
            "events": [dict(e) for e in rec["events"]],
        })
    out: dict[str, Any] = {
        "stacks": list(game.stacks),
        "mat": dict(game.mat),
        "rounds": rounds,
        "finished": game.finished,
        "awaiting": awaiting,
    }
    hands = [{"dealer": rec["dealer"], "payouts": list(rec["payouts"]), "michigan": rec["michigan"],
              "events": [dict(e) for e in rec["events"]]} for rec in game.log if rec.get("playoff")]
    if game.playoff_result is not None or hands:
        out["playoff"] = {**(game.playoff_result or {}), **({"hands": hands} if hands else {})}
    if game.game_events:
        out["events"] = [dict(e) for e in game.game_events]
    return out


def main(path: str, trace: bool = False, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    try:
        with open(path, encoding="utf-8") if path != "-" else sys.stdin as fh:
            data = json.load(fh)
    except (OSError, json.JSONDecodeError) as exc:
        err.write(f"cannot read {path}: {exc}\n")
        return 2
    try:
        result = run_replay(data, trace=err if trace else None)
    except ReplayError as exc:
        err.write(f"{exc}\n")
        return 2
    out.write(json.dumps(result, indent=2) + "\n")
    return 0
