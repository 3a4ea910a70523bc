"""Saved games: one versioned JSON document holding everything needed to take a game up again.

    {"format": "villa-paletti/save", "version": 1,
     "game_version": "0.1.0", "saved_at": "2025-...Z", "kind": "autosave" | "save" | "replay",
     "turn": 7,                      # turns played (the last entry of "turns")
     "match": {"game": id, "players": [...], "seed": 1, "floors": 1, "layout": {...}},
     "start": {rules state at turn 0},
     "rules": {rules state now, with its action log},
     "turns": [{"turn": 0, "actions": 1, "villa": {snapshot}}, ..., {"turn": 7, "actions": 31, ...}]}

`turns` records, after every settled turn, how many actions of the log had been played
and every piece's pose then; its last entry is the villa now. So a save is also a replay.

Loading checks everything and raises `PlayerError` saying what is wrong: a missing,
empty, truncated or corrupt file, another kind of document, a newer format, a damaged
state, unknown pieces, poses that are not numbers, a log that does not lead to the saved
state, or a villa that contradicts the rules' picture. A file that fails to load is
never written to, renamed or deleted by loading.

The autosave slot (`autosave.json` in the data folder) follows one rule: nothing is
lost. The first autosave of a session replaces the file only when it holds an earlier
point of the same game; a different game is first kept as `autosave.previous.json`,
and a file that does not load is kept as `autosave.broken-<time>.json`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import re
import secrets
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from villa import __version__, rules
from villa.app.logs import PlayerError
from villa.app.storage import data_dir, write_atomically
from villa.physics.dimensions import FLOORS, Layout, layout_from_json, layout_to_json
from villa.rules.pieces import COLUMNS_BY_ID

log = logging.getLogger(__name__)

FORMAT = "villa-paletti/save"
VERSION = 1
KINDS = ("autosave", "save", "replay")
AUTOSAVE = "autosave.json"
PREVIOUS = "autosave.previous.json"
POSITION_LIMIT = 1e6         # cm: farther than this is no pose of a game (pieces of a fallen villa roll far)
QUAT_TOLERANCE = 1e-3


# --- the game in memory ------------------------------------------------------

@dataclass(frozen=True)
class MatchInfo:
    """What a game was started with (besides the rules' own setup)."""

    game: str                  # an id, the same for every save of one game
    players: tuple[str, ...]
    seed: int
    floors: int
    layout: Layout

    @staticmethod
    def new_id() -> str:
        return secrets.token_hex(8)


@dataclass(frozen=True)
class TurnRecord:
    turn: int                  # 0: the villa as built, before the first turn
    actions: int               # how many actions of the log had been played
    villa: dict[str, Any]      # `Villa.snapshot()` once the turn had settled


@dataclass
class Game:
    """A game in play: the rules' state, the wooden villa, and the record of every settled turn."""

    info: MatchInfo
    start: rules.GameState
    state: rules.GameState
    villa: Any                 # villa.physics.world.Villa
    turns: list[TurnRecord] = field(default_factory=list)

    @property
    def turn(self) -> int:
        return self.turns[-1].turn if self.turns else 0

    def record_turn(self) -> TurnRecord:
        """Write down the settled villa after a turn (the first call records turn 0)."""
        if self.state.turn.column is not None and not self.state.over:
            raise ValueError("a turn is recorded only when no column is in hand")
        record = TurnRecord(len(self.turns), len(self.state.log), self.villa.snapshot())
        self.turns.append(record)
        return record


def start_game(info: MatchInfo, state: rules.GameState, villa) -> Game:
    """A new game from its first state and the settled villa; records turn 0."""
    game = Game(info, replace(state), state, villa)
    game.record_turn()
    return game


# --- the document --------------------------------------------------------------

def _content(game: Game) -> dict[str, Any]:
    info = game.info
    return {
        "match": {"game": info.game, "players": list(info.players), "seed": info.seed, "floors": info.floors,
                  "layout": layout_to_json(info.layout)},
        "start": rules.state_to_json(game.start),
        "rules": rules.state_to_json(game.state),
        "turns": [{"turn": t.turn, "actions": t.actions, "villa": t.villa} for t in game.turns],
    }


def digest_of(content: dict[str, Any]) -> str:
    """A short fingerprint of a game's content (not of when or by what it was saved)."""
    keys = ("match", "start", "rules", "turns")
    text = json.dumps({k: content.get(k) for k in keys}, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def digest(game: Game) -> str:
    return digest_of(_content(game))


def to_document(game: Game, kind: str = "save") -> dict[str, Any]:
    if kind not in KINDS:
        raise ValueError(f"unknown kind of save {kind!r}")
    return {
        "format": FORMAT, "version": VERSION, "game_version": __version__,
        "saved_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "kind": kind, "turn": game.turn,
        **_content(game),
    }


def dumps(game: Game, kind: str = "save") -> str:
    return json.dumps(to_document(game, kind), indent=1, sort_keys=True, allow_nan=False) + "\n"


# --- reading -------------------------------------------------------------------

class SaveError(PlayerError):
    """A save file that cannot be taken up; the message names the file and what is wrong."""


def load(path: Path | str) -> Game:
    """The game in the save file at `path`, checked through; `SaveError` if it does not hold together."""
    path = Path(path)
    text = _read_text(path)
    try:
        return from_text(text)
    except SaveError as error:
        raise SaveError(f"cannot load {path}: {error}") from None


def _read_text(path: Path) -> str:
    if not path.exists():
        raise SaveError(f"there is no save file {path}")
    if path.is_dir():
        raise SaveError(f"{path} is a folder, not a save file")
    try:
        data = path.read_bytes()
    except OSError as error:
        raise SaveError(f"cannot read {path}: {error.strerror or error}") from None
    if not data.strip():
        raise SaveError(f"cannot load {path}: the file is empty")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError(f"cannot load {path}: it is not a text file (not a Villa Paletti save)") from None


# What may follow the place JSON gave up at when the file was merely cut short: the start
# of a single string or a single bare token (a number or word cut in the middle).
_TAIL_OF_A_CUT = re.compile(r'"(?:[^"\\]|\\.)*\\?|[^\s,:\[\]{}"]*')


def _cut_short(text: str, error_at: int) -> bool:
    return _TAIL_OF_A_CUT.fullmatch(text[error_at:].rstrip()) is not None


def from_text(text: str) -> Game:
    try:
        document = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        if _cut_short(text, error.pos):
            raise SaveError("the file is cut short (truncated): it ends in the middle of the game, "
                            f"at line {error.lineno}") from None
        raise SaveError(f"the file is corrupt: it is not valid JSON at line {error.lineno}, "
                        f"column {error.colno} ({error.msg})") from None
    except ValueError as error:
        raise SaveError(f"the file is corrupt: {error}") from None
    return from_document(document)


def _no_constant(name: str):
    raise ValueError(f"it holds {name}, which is not a number")


def check_header(document: Any) -> None:
    if not isinstance(document, dict):
        raise SaveError("it is not a Villa Paletti save file")
    if document.get("format") != FORMAT:
        if document.get("format") == "villa-paletti/game":
            raise SaveError("it holds a bare rules state, not a saved game (no poses of the pieces)")
        raise SaveError("it is not a Villa Paletti save file")
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SaveError(f"it has no valid format version ({version!r})")
    if version > VERSION:
        by = document.get("game_version")
        made = f" (by game version {by})" if isinstance(by, str) else ""
        raise SaveError(f"it was saved in save format {version}{made}, newer than this game reads: "
                        f"version {__version__} reads save format {VERSION}; update the game to load it")


def from_document(document: Any) -> Game:
    """The game a parsed save document holds; `SaveError` naming the first thing that does not hold together."""
    check_header(document)
    missing = [k for k in ("match", "start", "rules", "turns") if k not in document]
    if missing:
        raise SaveError(f"it is incomplete: {', '.join(missing)} missing")
    info = _match(document["match"])
    start = _state(document["start"], "the start of the game")
    state = _state(document["rules"], "the game state")
    turns = _turns(document["turns"])
    _check_log(start, state)
    if document.get("kind", "save") not in KINDS:
        raise SaveError(f"unknown kind of save {document.get('kind')!r}")
    turn = document.get("turn", turns[-1].turn)
    if turn != turns[-1].turn:
        raise SaveError(f"it says turn {turn!r} but records {turns[-1].turn} turns")
    if state.players != info.players:
        raise SaveError("the players of the match and of the game state differ")
    last = 0
    for record in turns:
        if record.actions < last or record.actions > len(state.log) or record.actions < len(start.log):
            raise SaveError(f"turn {record.turn} points at move {record.actions} of a log of "
                            f"{len(state.log)} moves")
        last = record.actions
    if turns[-1].actions != len(state.log):
        raise SaveError(f"the last turn recorded ({turns[-1].turn}) is not the game state saved: "
                        f"{turns[-1].actions} of {len(state.log)} moves")
    if state.turn.column is not None and not state.over:
        raise SaveError(f"it was saved with {state.turn.column} in hand, which a save cannot hold")
    villa = villa_of(turns[-1], state)
    return Game(info, start, state, villa, turns)


def _match(data: Any) -> MatchInfo:
    if not isinstance(data, dict):
        raise SaveError("the match record is damaged")
    game, players, seed, floors = (data.get(k) for k in ("game", "players", "seed", "floors"))
    if not isinstance(game, str) or not game:
        raise SaveError("the match has no id")
    if not isinstance(players, list) or not 2 <= len(players) <= 4 or not all(isinstance(p, str) for p in players):
        raise SaveError("the match must name 2, 3 or 4 players")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SaveError(f"the match's seed is not a whole number ({seed!r})")
    if isinstance(floors, bool) or not isinstance(floors, int) or not 1 <= floors <= len(FLOORS):
        raise SaveError(f"the match's number of floors is wrong ({floors!r})")
    try:
        layout = layout_from_json(data.get("layout"))
    except (ValueError, AttributeError) as error:
        raise SaveError(f"the layout is damaged: {error}") from None
    unknown = sorted({c.column for c in layout.columns} - set(COLUMNS_BY_ID))
    if unknown:
        raise SaveError(f"the layout names unknown columns: {', '.join(unknown)}")
    return MatchInfo(game, tuple(players), seed, floors, layout)


def _state(data: Any, what: str) -> rules.GameState:
    try:
        return rules.state_from_json(data)
    except rules.DocumentError as error:
        raise SaveError(f"{what} is damaged: {error}") from None


def _turns(data: Any) -> list[TurnRecord]:
    if not isinstance(data, list) or not data:
        raise SaveError("it records no turns")
    turns = []
    for i, entry in enumerate(data):
        if not isinstance(entry, dict) or set(entry) != {"turn", "actions", "villa"}:
            raise SaveError(f"turn record {i} is damaged")
        turn, actions = entry["turn"], entry["actions"]
        if turn != i or isinstance(turn, bool):
            raise SaveError(f"the turns are out of order: record {i} says turn {turn!r}")
        if isinstance(actions, bool) or not isinstance(actions, int) or actions < 0:
            raise SaveError(f"turn {i} has a bad number of moves ({actions!r})")
        check_snapshot(entry["villa"], f"turn {i}")
        turns.append(TurnRecord(turn, actions, entry["villa"]))
    return turns


def check_snapshot(data: Any, where: str) -> None:
    """Every piece known, every pose seven finite numbers with a unit quaternion."""
    if not isinstance(data, dict) or not isinstance(data.get("pieces"), dict):
        raise SaveError(f"the villa at {where} is damaged")
    ticks = data.get("time_ticks")
    if isinstance(ticks, bool) or not isinstance(ticks, int) or ticks < 0:
        raise SaveError(f"the villa's clock at {where} is wrong ({ticks!r})")
    known = set(COLUMNS_BY_ID) | {f"floor-{lv}" for lv in FLOORS}
    unknown = sorted(set(data["pieces"]) - known)
    if unknown:
        raise SaveError(f"the villa at {where} holds pieces this game does not have: {', '.join(unknown)}")
    for piece, values in data["pieces"].items():
        if (not isinstance(values, list) or len(values) != 7
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                           for v in values)):
            raise SaveError(f"the pose of {piece} at {where} is not seven numbers")
        if any(abs(v) > POSITION_LIMIT for v in values[:3]):
            raise SaveError(f"the position of {piece} at {where} is out of all bounds")
        if abs(math.sqrt(sum(v * v for v in values[3:])) - 1.0) > QUAT_TOLERANCE:
            raise SaveError(f"the turn of {piece} at {where} is not a rotation")


def _check_log(start: rules.GameState, state: rules.GameState) -> None:
    """The log continues the start's and, played from the start, gives exactly the saved state."""
    if start.setup != state.setup:
        raise SaveError("the start of the game and the game state have different rules or players")
    if state.log[:len(start.log)] != start.log:
        raise SaveError("the game's log does not continue from its start")
    replayed = start
    for number, action in enumerate(state.log[len(start.log):], start=len(start.log) + 1):
        try:
            replayed = rules.apply(replayed, action)
        except rules.RuleError as error:
            raise SaveError(f"the log does not replay: move {number} ({type(action).__name__}) "
                            f"breaks the rules: {error}") from None
    if rules.state_to_json(replayed) != rules.state_to_json(state):
        raise SaveError("the log does not lead to the saved game state (the state was changed by hand)")


def villa_of(record: TurnRecord, state: rules.GameState):
    """The villa as recorded, checked against the rules' picture of the game at that point."""
    from villa.physics.world import Villa
    pieces = record.villa["pieces"]
    where = f"turn {record.turn}"
    in_villa = {c for c, lv in state.levels.items() if lv is not None}
    if state.turn.column is not None:  # the villa fell with it in hand
        in_villa.add(state.turn.column)
    collapsed = state.result is not None and state.result.ending == "collapse"
    columns = {p for p in pieces if p in COLUMNS_BY_ID}
    if columns != in_villa:  # a fallen villa still holds every piece it held
        extra, lacking = sorted(columns - in_villa), sorted(in_villa - columns)
        parts = ([f"{', '.join(extra)} stand in the villa but are out of the game"] if extra else []) + \
                ([f"{', '.join(lacking)} are in the game but not in the villa"] if lacking else [])
        raise SaveError(f"the villa at {where} contradicts the game: {'; '.join(parts)}")
    floors = sorted(int(p[6:]) for p in pieces if p.startswith("floor-"))
    if floors != list(range(1, state.top_level + 1)):
        raise SaveError(f"the villa at {where} has floors {floors} but the game has {state.top_level} "
                        f"floor{'s' if state.top_level != 1 else ''} laid")
    try:
        villa = Villa.from_snapshot(record.villa)
    except ValueError as error:
        raise SaveError(f"the villa at {where} is damaged: {error}") from None
    if not collapsed:
        problems = rules.check_survey(state, villa.survey())
        if problems:
            raise SaveError(f"the pieces' poses at {where} contradict the game: {'; '.join(problems[:3])}")
    return villa


def state_at(game: Game, record: TurnRecord) -> rules.GameState:
    """The rules' state after the turn `record` (played again from the start)."""
    state = game.start
    for action in game.state.log[len(game.start.log):record.actions]:
        state = rules.apply(state, action)
    return state


# --- where saves live ----------------------------------------------------------

def autosave_path() -> Path:
    return data_dir() / AUTOSAVE


def saves_dir() -> Path:
    return data_dir() / "saves"


def replays_dir() -> Path:
    return data_dir() / "replays"


_NAME = re.compile(r"^[\w][\w .,'()+-]{0,63}$")


def named_save_path(name: str) -> Path:
    name = name.strip()
    if name.lower().endswith(".json"):
        name = name[:-5]
    if not _NAME.match(name) or name in (".", ".."):
        raise PlayerError(f"{name!r} cannot name a save: use letters, digits, spaces and - _ . , ( ) only")
    return saves_dir() / f"{name}.json"


def list_saves() -> list[Path]:
    """The named saves, newest first (for a menu)."""
    folder = saves_dir()
    files = [p for p in folder.glob("*.json")] if folder.is_dir() else []
    return sorted(files, key=lambda p: p.stat().st_mtime, reverse=True)


def save_as(game: Game, name: str, overwrite: bool = False) -> Path:
    """Save under a name the player chose; an existing save of that name is kept unless `overwrite`."""
    path = named_save_path(name)
    if path.exists() and not overwrite:
        raise PlayerError(f"there is already a save called {name!r}")
    write_atomically(path, dumps(game, "save"))
    return path


def save_replay(game: Game) -> Path:
    """Keep the game (finished, or as far as it went) as a replay file; never replaces one."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    folder = replays_dir()
    path = folder / f"{stamp}-{game.info.game}.json"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"{stamp}-{game.info.game}-{n}.json"
    write_atomically(path, dumps(game, "replay"))
    return path


class Autosaver:
    """Writes the autosave after every settled turn, keeping whatever it would replace that
    another game (or a broken file) left there."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or autosave_path()
        self.owned = False     # the file holds this session's game

    def save(self, game: Game) -> str:
        """Write the autosave; returns the game's digest."""
        if not self.owned:
            self._keep_what_is_there(game)
        text = dumps(game, "autosave")
        write_atomically(self.path, text)
        self.owned = True
        return digest(game)

    def _keep_what_is_there(self, game: Game) -> None:
        if not self.path.exists():
            return
        try:
            old = load(self.path)
        except SaveError as error:
            stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
            aside = self.path.with_name(f"autosave.broken-{stamp}.json")
            n = 1
            while aside.exists():
                n += 1
                aside = self.path.with_name(f"autosave.broken-{stamp}-{n}.json")
            self.path.replace(aside)
            log.warning("the autosave did not load (%s); kept as %s", error, aside)
            return
        same_line = (old.info.game == game.info.game
                     and game.state.log[:len(old.state.log)] == old.state.log
                     and len(old.turns) <= len(game.turns))
        if not same_line:
            aside = self.path.with_name(PREVIOUS)
            self.path.replace(aside)
            log.info("the autosave of another game was kept as %s", aside)
