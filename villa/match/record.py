"""The record of a game: everything needed to take it up again or watch it once more, as one
versioned JSON document.

    {"format": "villa-paletti/save", "version": 2,
     "game_version": "0.2.0", "saved_at": "2026-...Z", "kind": "autosave" | "save" | "replay",
     "turn": 7,                      # turns played (the last entry of "turns")
     "match": {"game": id, "seats": [{"name": "Anna", "computer": null}, ...], "seed": 1,
               "deal_colours": false, "floors": 1, "layout": {...}},
     "start": {rules state before the first move},
     "rules": {rules state now, with its action log},
     "turns": [{"turn": 0, "actions": 1, "villa": {snapshot}}, ..., {"turn": 7, "actions": 31, ...}]}

`turns` records, after every settled turn, how many actions of the log had been played and
every piece's pose then; its last entry is the villa now. So a save is also a replay. Version 1
(which knew only the players' names) is still read: its seats are people.

The log is the truth. Played from a new game of the start's setup, the start's log gives the
start; played on from the start, the whole log gives the stored state, and the first `actions`
of it the rules' state at each turn, which that turn's villa must agree with. A save whose parts
disagree with the log is damaged.

Reading checks everything and raises `RecordError` saying what is wrong: another kind of
document, a newer format, a damaged state, unknown pieces, poses that are not numbers, a log
entry short of a field, a start or a stored state the log does not lead to (saying where they part),
or a villa (at any turn) that contradicts the rules' picture (a fallen one: a column standing higher
than the game has it).
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from villa import __version__, rules
from villa.match import motion as motions
from villa.match.motion import Motion
from villa.match.setup import MatchSetup, Seat, Strength
from villa.physics import layouts
from villa.physics.bodies import TABLE_HALF
from villa.physics.dimensions import FLOORS, ColumnSpot, FloorSpot, Layout, layout_to_json
from villa.physics.world import Villa
from villa.rules.pieces import COLUMNS_BY_ID, floor_id, level_of_floor

FORMAT = "villa-paletti/save"
VERSION = 2
KINDS = ("autosave", "save", "replay")
TABLE_REACH = TABLE_HALF + 50.0   # cm from the middle: no piece of a game, fallen or not, is farther out
LOWEST, HIGHEST = -20.0, 200.0    # cm: below the table top, above the tallest villa
QUAT_TOLERANCE = 1e-3
OVERLAP = 0.3                     # cm two pieces may press into each other (wood in contact, the solver's give)
MAX_NAME = 24
MAX_SEED = 2**63 - 1


class RecordError(ValueError):
    """A record that does not hold together; the message says what is wrong, in one sentence.

    `broken`: the referee's refusal of a move in the log, when that is what is wrong (worded by
    the app as the screen words it)."""

    def __init__(self, message: str, broken: rules.RuleError | None = None) -> None:
        super().__init__(message)
        self.broken = broken


@dataclass(frozen=True)
class TurnRecord:
    turn: int                  # 0: the villa as built, before the first turn
    actions: int               # how many actions of the log had been played
    villa: dict[str, Any]      # `Villa.snapshot()` once the turn had settled


@dataclass(frozen=True)
class Record:
    """A game as far as it went: its recipe, its first and present rules state, every settled turn."""

    setup: MatchSetup
    start: rules.GameState
    state: rules.GameState
    turns: tuple[TurnRecord, ...]
    motion: Motion | None = None   # the last turn's motion (`villa.match.motion`): a clip is made of it

    @property
    def turn(self) -> int:
        return self.turns[-1].turn


# --- writing -------------------------------------------------------------------------

def _match_json(setup: MatchSetup) -> dict[str, Any]:
    data = {"game": setup.game, "seed": setup.seed, "floors": setup.floors, "deal_colours": setup.deal_colours,
            "seats": [{"name": s.name, "computer": s.computer.value if s.computer else None} for s in setup.seats],
            "layout": layout_to_json(setup.layout)}
    if setup.builders_eye:   # written only when on: a game played without it is written as before
        data["builders_eye"] = True
    return data


def plan_to_json(setup: MatchSetup) -> dict[str, Any]:
    """A game's recipe before it is played (an online room's plan): the match's record and its rule set."""
    return {**_match_json(setup), "ruleset": rules.ruleset_to_json(setup.ruleset)}


def plan_from_json(data: Any) -> MatchSetup:
    """Inverse of `plan_to_json`, checked as a save's match is; `RecordError` saying what is wrong."""
    if not isinstance(data, dict):
        raise RecordError("the match record is damaged")
    try:
        ruleset = rules.ruleset_from_json(data.get("ruleset"))
    except rules.DocumentError as error:
        raise RecordError(f"the rules are damaged: {error}") from None
    return _setup(data, VERSION, ruleset)


def content(record: Record) -> dict[str, Any]:
    """The game itself, without when or by what it was saved."""
    data = {
        "match": _match_json(record.setup),
        "start": rules.state_to_json(record.start),
        "rules": rules.state_to_json(record.state),
        "turns": [{"turn": t.turn, "actions": t.actions, "villa": t.villa} for t in record.turns],
    }
    if record.motion is not None and record.motion.turn <= record.turn:   # (older games read it as a field they
        # do not know; a record cut back to an earlier turn has no motion of its own)
        data["motion"] = motions.to_json(record.motion)
    return data


def digest_of(data: dict[str, Any]) -> str:
    """A short fingerprint of a game's content (not of when or by what it was saved)."""
    keys = ("match", "start", "rules", "turns")
    text = json.dumps({k: data.get(k) for k in keys}, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def digest(record: Record) -> str:
    return digest_of(content(record))


def to_document(record: Record, kind: str = "save") -> dict[str, Any]:
    if kind not in KINDS:
        raise ValueError(f"unknown kind of save {kind!r}")
    return {
        "format": FORMAT, "version": VERSION, "game_version": __version__,
        "saved_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "kind": kind, "turn": record.turn,
        **content(record),
    }


def dumps(record: Record, kind: str = "save") -> str:
    return json.dumps(to_document(record, kind), indent=1, sort_keys=True, allow_nan=False) + "\n"


# --- reading -------------------------------------------------------------------------

def check_header(document: Any) -> int:
    """The document's format version; `RecordError` if it is not a save this game reads."""
    if not isinstance(document, dict):
        raise RecordError("it is not a Villa Paletti save file")
    if document.get("format") != FORMAT:
        if document.get("format") == "villa-paletti/game":
            raise RecordError("it holds a bare rules state, not a saved game (no poses of the pieces)")
        raise RecordError("it is not a Villa Paletti save file")
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise RecordError(f"it has no valid format version ({version!r})")
    if version > VERSION:
        by = document.get("game_version")
        made = f" (by game version {by})" if isinstance(by, str) else ""
        raise RecordError(f"it was saved in save format {version}{made}, newer than this game reads: "
                          f"version {__version__} reads save format {VERSION}; update the game to load it")
    return version


def from_document(document: Any) -> Record:
    """The game a parsed save document holds; `RecordError` naming the first thing that does not hold together."""
    version = check_header(document)
    missing = [k for k in ("match", "start", "rules", "turns") if k not in document]
    if missing:
        raise RecordError(f"it is incomplete: {', '.join(missing)} missing")
    start = _state(document["start"], "the start of the game")
    state = _state(document["rules"], "the game state")
    setup = _setup(document["match"], version, start.ruleset)
    if setup.players != start.players:
        raise RecordError("the players of the match and of the game state differ")
    turns = _turns(document["turns"])
    before_last = _check_log(start, state)
    if document.get("kind", "save") not in KINDS:
        raise RecordError(f"unknown kind of save {document.get('kind')!r}")
    turn = document.get("turn", turns[-1].turn)
    if turn != turns[-1].turn:
        raise RecordError(f"it says turn {turn!r} but records {turns[-1].turn} turns")
    last = 0
    for record in turns:
        if record.actions < last or record.actions > len(state.log) or record.actions < len(start.log):
            raise RecordError(f"turn {record.turn} points at move {record.actions} of a log of "
                              f"{len(state.log)} moves")
        last = record.actions
    if turns[-1].actions != len(state.log):
        raise RecordError(f"the last turn recorded ({turns[-1].turn}) is not the game state saved: "
                          f"{turns[-1].actions} of {len(state.log)} moves")
    if state.turn.column is not None and not state.over:
        raise RecordError(f"it was saved with {state.turn.column} in hand, which a save cannot hold")
    villa_of(turns[-1], state, laying=fell_laying(before_last, state))
    _check_start(start)
    _check_earlier_turns(start, state, turns)
    return Record(setup, start, state, tuple(turns), _motion(document.get("motion"), turns[-1].turn))


def _motion(data: Any, last_turn: int) -> Motion | None:
    if data is None:
        return None
    try:
        motion = motions.from_json(data)
    except motions.MotionError as error:
        raise RecordError(str(error)) from None
    return motion if motion.turn <= last_turn else None   # a later turn's: not of this game as far as it went


def _setup(data: Any, version: int, ruleset: rules.RuleSet) -> MatchSetup:
    if not isinstance(data, dict):
        raise RecordError("the match record is damaged")
    game, seed, floors = (data.get(k) for k in ("game", "seed", "floors"))
    if not isinstance(game, str) or not game:
        raise RecordError("the match has no id")
    if version == 1:
        players = data.get("players")
        if not isinstance(players, list) or not 2 <= len(players) <= 4:
            raise RecordError("the match must name 2, 3 or 4 players")
        seats = tuple(Seat(_name(p)) for p in players)
    else:
        seats = _seats(data.get("seats"))
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise RecordError(f"the match's seed is not a whole number from 0 to 2^63 ({_short(seed)})")
    if isinstance(floors, bool) or not isinstance(floors, int) or not 1 <= floors <= len(FLOORS):
        raise RecordError(f"the match's number of floors is wrong ({_short(floors)})")
    layout = _layout(data.get("layout"))
    if len(layout.floors) != floors:
        raise RecordError(f"the match says {floors} floors but its layout has {len(layout.floors)}")
    deal = data.get("deal_colours", version == 1 and floors > 1)
    if not isinstance(deal, bool):
        raise RecordError(f"the match's colour deal is not true or false ({deal!r})")
    eye = data.get("builders_eye", False)   # saves before the builder's eye have none
    if not isinstance(eye, bool):
        raise RecordError(f"the match's builder's eye is not true or false ({_short(eye)})")
    try:
        return MatchSetup(seats, layout, ruleset, seed, deal, game, builders_eye=eye)
    except ValueError as error:
        raise RecordError(f"the match is damaged: {error}") from None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"


def _whole(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RecordError(f"the layout is damaged: {what} is not a whole number from {low} to {high} "
                          f"({_short(value)})")
    return value


def _number(value: Any, what: str, limit: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or abs(value) > limit:
        raise RecordError(f"the layout is damaged: {what} is not a number within {limit:g} ({_short(value)})")
    return float(value)


def _layout(data: Any) -> Layout:
    """The layout a game was built from: every field of the right kind, every column once, and a villa
    that can stand as it says (what the game itself checks before it builds one)."""
    if not isinstance(data, dict) or not isinstance(data.get("columns"), list) \
            or not isinstance(data.get("floors", []), list) or not isinstance(data.get("name", ""), str):
        raise RecordError("the layout is damaged")
    columns, floors = [], []
    for entry in data["columns"]:
        if not isinstance(entry, dict) or entry.get("column") not in COLUMNS_BY_ID:
            raise RecordError(f"the layout names a column this game does not have ({_short(entry)})")
        columns.append(ColumnSpot(entry["column"], _whole(entry.get("level"), "a column's level", 0, len(FLOORS)),
                                  _number(entry.get("x"), "a column's x", TABLE_HALF),
                                  _number(entry.get("y"), "a column's y", TABLE_HALF),
                                  _number(entry.get("yaw", 0.0), "a column's turn", 3600.0)))
    for entry in data.get("floors", []):
        if not isinstance(entry, dict):
            raise RecordError("the layout is damaged: a floor is not a record")
        floors.append(FloorSpot(_whole(entry.get("level"), "a floor's level", 1, len(FLOORS)),
                                _number(entry.get("x"), "a floor's x", TABLE_HALF),
                                _number(entry.get("y"), "a floor's y", TABLE_HALF),
                                _number(entry.get("yaw", 0.0), "a floor's turn", 3600.0)))
    layout = Layout(data.get("name", "")[:MAX_NAME * 4], tuple(columns), tuple(floors))
    started_higher = len(floors) > 1 or any(c.level for c in columns) or len(columns) < len(COLUMNS_BY_ID)
    problems = layouts.problems(layout, setup=not started_higher)
    if problems:
        raise RecordError(f"the layout cannot stand: {problems[0]}")
    return layout


def _name(value: Any) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_NAME or value != value.strip() \
            or not all(ch.isprintable() and not 0xD800 <= ord(ch) <= 0xDFFF for ch in value):
        raise RecordError(f"a player's name must be printable text of 1 to {MAX_NAME} characters, "
                          f"not {_short(value)}")
    return value


def _seats(data: Any) -> tuple[Seat, ...]:
    if not isinstance(data, list) or not 2 <= len(data) <= 4:
        raise RecordError("the match must seat 2, 3 or 4 players")
    seats = []
    for entry in data:
        if not isinstance(entry, dict) or set(entry) != {"name", "computer"}:
            raise RecordError("a seat of the match is damaged")
        computer = entry["computer"]
        if computer is not None and computer not in {s.value for s in Strength}:
            raise RecordError(f"a seat has an unknown computer strength ({_short(computer)})")
        seats.append(Seat(_name(entry["name"]), Strength(computer) if computer else None))
    return tuple(seats)


def _state(data: Any, what: str) -> rules.GameState:
    try:
        return rules.state_from_json(data)
    except rules.DocumentError as error:
        raise RecordError(f"{what} is damaged: {error}") from None


def _turns(data: Any) -> list[TurnRecord]:
    if not isinstance(data, list) or not data:
        raise RecordError("it records no turns")
    turns = []
    for i, entry in enumerate(data):
        if not isinstance(entry, dict) or set(entry) != {"turn", "actions", "villa"}:
            raise RecordError(f"turn record {i} is damaged")
        turn, actions = entry["turn"], entry["actions"]
        if turn != i or isinstance(turn, bool):
            raise RecordError(f"the turns are out of order: record {i} says turn {turn!r}")
        if isinstance(actions, bool) or not isinstance(actions, int) or actions < 0:
            raise RecordError(f"turn {i} has a bad number of moves ({actions!r})")
        check_snapshot(entry["villa"], f"turn {i}")
        turns.append(TurnRecord(turn, actions, entry["villa"]))
    return turns


def check_snapshot(data: Any, where: str) -> None:
    """Every piece known, every pose seven finite numbers with a unit quaternion."""
    if not isinstance(data, dict) or not isinstance(data.get("pieces"), dict):
        raise RecordError(f"the villa at {where} is damaged")
    ticks = data.get("time_ticks")
    if isinstance(ticks, bool) or not isinstance(ticks, int) or ticks < 0:
        raise RecordError(f"the villa's clock at {where} is wrong ({ticks!r})")
    known = set(COLUMNS_BY_ID) | {floor_id(lv) for lv in FLOORS}
    unknown = sorted(set(data["pieces"]) - known)
    if unknown:
        raise RecordError(f"the villa at {where} holds pieces this game does not have: {', '.join(unknown)}")
    for piece, values in data["pieces"].items():
        if (not isinstance(values, list) or len(values) != 7
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                           for v in values)):
            raise RecordError(f"the pose of {piece} at {where} is not seven numbers")
        x, y, z = values[:3]
        if abs(x) > TABLE_REACH or abs(y) > TABLE_REACH or not LOWEST <= z <= HIGHEST:
            raise RecordError(f"the position of {piece} at {where} is off the table")
        if abs(math.sqrt(sum(v * v for v in values[3:])) - 1.0) > QUAT_TOLERANCE:
            raise RecordError(f"the turn of {piece} at {where} is not a rotation")


def _check_log(start: rules.GameState, state: rules.GameState) -> rules.GameState | None:
    """The log continues the start's and, played from the start, gives exactly the saved state.
    Returns the state before the last move (None: no move since the start)."""
    if start.setup != state.setup:
        raise RecordError("the start of the game and the game state have different rules or players")
    if state.log[:len(start.log)] != start.log:
        raise RecordError("the game's log does not continue from its start")
    replayed, before = start, None
    for number, action in enumerate(state.log[len(start.log):], start=len(start.log) + 1):
        try:
            replayed, before = rules.apply(replayed, action), replayed
        except rules.RuleError as error:
            raise RecordError(f"the log does not replay: move {number} ({type(action).__name__}) "
                              f"breaks the rules ({error})", broken=error) from None
    differs = _difference(rules.state_to_json(state), rules.state_to_json(replayed))
    if differs:
        raise RecordError(f"the saved game state is not what its log leads to: {differs} (it was changed by hand)")
    return before


def _check_start(start: rules.GameState) -> None:
    """The start is what its own log makes of a new game: the log, not a stored state, is the truth."""
    replayed = rules.new_game(start.setup)
    for action in start.log:
        try:
            replayed = rules.apply(replayed, action)
        except rules.RuleError:
            raise RecordError("the start of the game does not replay from a new game (it was changed by hand)") \
                from None
    differs = _difference(rules.state_to_json(start), rules.state_to_json(replayed))
    if differs:
        raise RecordError(f"the start of the game is not what its log makes of a new game: {differs} "
                          "(it was changed by hand)")


def _difference(stored: Any, replayed: Any, path: tuple[str, ...] = ()) -> str | None:
    """Where a stored rules state (as JSON) first differs from the one its log gives, in words (None: nowhere)."""
    if isinstance(stored, dict) and isinstance(replayed, dict):
        for key in sorted(set(stored) | set(replayed)):
            found = _difference(stored.get(key), replayed.get(key), (*path, key))
            if found:
                return found
        return None
    if stored == replayed:
        return None
    where = path[1:] if path[:1] == ("state",) else path   # (the document's "state" holds the state)
    if len(where) == 2 and where[0] == "levels":
        return f"it has {where[1]} {_standing(stored)} where the log puts it {_standing(replayed)}"
    return f"its {'.'.join(where) or 'state'} is {_short(stored)} where the log gives {_short(replayed)}"


def _standing(level: Any) -> str:
    return "out of the game" if level is None else f"on level {_short(level)}"


def _check_earlier_turns(start: rules.GameState, state: rules.GameState, turns: list[TurnRecord]) -> None:
    """Every turn's villa agrees with the rules' state the log had reached then, as the last one does
    (a replay shows them all)."""
    played, at = start, len(start.log)
    for record in turns[:-1]:
        for action in state.log[at:record.actions]:
            played = rules.apply(played, action)
        at = record.actions
        villa_of(record, played)


def fell_laying(before: rules.GameState | None, state: rules.GameState) -> bool:
    """Did the villa fall (the last move) while the next floor was being laid? That floor then lies
    in the heap with the rest, though the rules never saw it laid."""
    return (before is not None and bool(state.log) and isinstance(state.log[-1], rules.Collapse)
            and before.turn.step is rules.Step.LAY_FLOOR)


def villa_of(record: TurnRecord, state: rules.GameState, laying: bool = False) -> Villa:
    """The villa as recorded, checked against the rules' picture of the game at that point.
    `laying`: the villa fell as the next floor was being laid (see `fell_laying`)."""
    pieces = record.villa["pieces"]
    where = f"turn {record.turn}"
    in_villa = {c for c, lv in state.levels.items() if lv is not None}
    if state.turn.column is not None:  # the villa fell with it in hand
        in_villa.add(state.turn.column)
    collapsed = state.result is not None and state.result.fell   # a family game's last round too
    columns = {p for p in pieces if p in COLUMNS_BY_ID}
    if columns != in_villa:  # a fallen villa still holds every piece it held
        extra, lacking = sorted(columns - in_villa), sorted(in_villa - columns)
        parts = ([f"{', '.join(extra)} stand in the villa but are out of the game"] if extra else []) + \
                ([f"{', '.join(lacking)} are in the game but not in the villa"] if lacking else [])
        raise RecordError(f"the villa at {where} contradicts the game: {'; '.join(parts)}")
    floors = sorted(lv for lv in map(level_of_floor, pieces) if lv is not None)
    laid = list(range(1, state.top_level + 1))
    if floors != laid and not (laying and floors == [*laid, state.top_level + 1]):
        raise RecordError(f"the villa at {where} has floors {floors} but the game has {state.top_level} "
                          f"floor{'s' if state.top_level != 1 else ''} laid")
    try:
        villa = Villa.from_snapshot(record.villa)
    except ValueError as error:
        raise RecordError(f"the villa at {where} is damaged: {error}") from None
    pressed = _pressed_together(villa)
    if pressed:
        raise RecordError(f"the villa at {where} has pieces inside each other: {pressed}")
    survey = villa.survey()
    if collapsed:
        risen = _risen_in_the_fall(state, survey)
        if risen:
            raise RecordError(f"the fallen villa at {where} contradicts the game: {risen}")
    else:
        problems = rules.check_survey(state, survey)
        for level in range(1, state.top_level + 1):
            below = state.columns_on(level - 1)
            seen = survey.floor_supports.get(level, frozenset())
            if not seen or not seen <= below:
                problems.append(f"the {FLOORS[level].colour} floor does not rest on the columns below it")
        if problems:
            raise RecordError(f"the pieces' poses at {where} contradict the game: {'; '.join(problems[:3])}")
    return villa


def _risen_in_the_fall(state: rules.GameState, survey: rules.VillaSurvey) -> str | None:
    """A fall brings pieces down, never up: a column standing, in the heap, on a level above the one the
    game has it on was posed there by hand (None: none did). The column in hand may end anywhere."""
    for column, seen in sorted(survey.column_levels.items()):
        level = state.levels.get(column)
        if seen is not None and level is not None and seen > level and column != state.turn.column:
            return f"{column} stands on level {seen} though the game has it on level {level}"
    return None


def _pressed_together(villa: Villa) -> str | None:
    """Two pieces deeper inside each other than wood in contact ever is (None: no such two)."""
    pieces = sorted(p for p in villa.nodes if p != "table")
    for i, a in enumerate(pieces):
        for b in pieces[i + 1:]:
            result = villa.world.contactTestPair(villa.body(a), villa.body(b))
            if any(c.getManifoldPoint().getDistance() < -OVERLAP for c in result.getContacts()):
                return f"{a} and {b}"
    return None


def state_at(record: Record, turn: TurnRecord) -> rules.GameState:
    """The rules' state after the turn `turn` (played again from the start)."""
    state = record.start
    for action in record.state.log[len(record.start.log):turn.actions]:
        state = rules.apply(state, action)
    return state
