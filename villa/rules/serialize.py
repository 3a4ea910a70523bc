"""The whole game state as plain, versioned JSON, and back, exactly.

A document looks like {"format": "villa-paletti/game", "version": 2, "state": {...}}.
Records become objects, enums their values, sets sorted lists, and the log a list in which
player and chance actions are {"action": name, ...} and physics facts use the facts'
own form ({"fact": name, ...}). Reading checks every field against the record's types,
so a bad or newer document fails with a `DocumentError` instead of a half-read game.

Version 1 (game version 0.1) is still read: it stored what each floor was laid on as
"floor_supports" (now "floors_laid_on", the present supports being derived from it), and
its rule sets had no "everyone_rolls" (off then).
"""

from __future__ import annotations

import functools
import json
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any

from .actions import ACTION_TYPES, FACT_TYPES, SetUpHigher
from .errors import DocumentError
from .facts import Collapse, FloorLaid, VillaSurvey, fact_to_json
from .frozen import FrozenMap
from .pieces import COLUMNS_BY_ID, TOP_FLOOR_LEVEL, floor_id
from .rulesets import RuleSet
from .state import GameState

FORMAT = "villa-paletti/game"
VERSION = 2
PIECES = frozenset(COLUMNS_BY_ID) | {floor_id(level) for level in range(1, TOP_FLOOR_LEVEL + 1)}


def _plain(value: Any) -> Any:
    if isinstance(value, FACT_TYPES):
        return fact_to_json(value)
    if isinstance(value, Enum):
        return value.value
    if is_dataclass(value):
        body = {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
        if type(value).__name__ in ACTION_TYPES:
            return {"action": type(value).__name__, **body}
        return body
    if isinstance(value, (set, frozenset)):
        return sorted(_plain(v) for v in value)
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


_FACTS = {t.__name__: t for t in (*FACT_TYPES, VillaSurvey)}


def _entry(data: Any, number: int) -> Any:
    """Move `number` of the log: an action or a fact, each with every field it is written with (a fact that
    lost one would tell the referee less than the physics saw)."""
    if not isinstance(data, dict):
        raise DocumentError(f"move {number} of the log must be an object, not {str(data)[:40]!r}")
    if "fact" in data:
        name = data["fact"]
        if not isinstance(name, str) or not name.strip():
            raise DocumentError(f"move {number} of the log is a fact with no name")
        if name not in _FACTS:
            raise DocumentError(f"unknown fact {name[:40]!r} in the log (move {number})")
        return _read(_FACTS[name], {k: v for k, v in data.items() if k != "fact"})
    if "action" not in data:
        raise DocumentError(f"move {number} of the log names neither an action nor a fact")
    name = data["action"]
    if name not in ACTION_TYPES:
        raise DocumentError(f"unknown action {str(name)[:40]!r} in the log (move {number})")
    body = {k: v for k, v in data.items() if k != "action"}
    return _read(ACTION_TYPES[name], body)


def _read(tp: Any, data: Any) -> Any:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return [_entry(d, n) for n, d in enumerate(data, 1)] if isinstance(data, list) else data
    if origin in (typing.Union, types.UnionType):
        if data is None and type(None) in args:
            return None
        errors = []
        for option in (a for a in args if a is not type(None)):
            try:
                return _read(option, data)
            except (DocumentError, ValueError) as error:
                errors.append(str(error))
        raise DocumentError(f"{data!r} fits none of {tp}: {'; '.join(errors)}")
    if origin is tuple:
        if not isinstance(data, list):
            raise DocumentError(f"expected a list, got {data!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            if args[0] is Any:   # the log
                return tuple(_entry(d, n) for n, d in enumerate(data, 1))
            return tuple(_read(args[0], d) for d in data)
        if len(args) != len(data):
            raise DocumentError(f"expected {len(args)} items, got {len(data)}")
        return tuple(_read(a, d) for a, d in zip(args, data))
    if origin is frozenset:
        if not isinstance(data, list):
            raise DocumentError(f"expected a list, got {data!r}")
        return frozenset(_read(args[0], d) for d in data)
    if origin in (dict, Mapping):
        if not isinstance(data, dict):
            raise DocumentError(f"expected an object, got {data!r}")
        items = {_key(args[0], k): _read(args[1], v) for k, v in data.items()}
        return FrozenMap(items) if origin is Mapping else items
    if isinstance(tp, type) and issubclass(tp, Enum):
        try:
            return tp(data)
        except ValueError:
            raise DocumentError(f"{data!r} is not a {tp.__name__}") from None
    if is_dataclass(tp):
        if not isinstance(data, dict):
            raise DocumentError(f"expected a {tp.__name__} object, got {data!r}")
        hints = _hints(tp)
        names = {f.name for f in fields(tp)}
        extra = set(data) - names
        if extra:
            raise DocumentError(f"unknown fields in {tp.__name__}: {sorted(extra)}")
        missing = names - set(data)
        if missing:
            raise DocumentError(f"missing fields in {tp.__name__}: {sorted(missing)}")
        try:
            return tp(**{name: _read(hints[name], data[name]) for name in names})
        except (TypeError, ValueError) as error:
            raise DocumentError(f"a bad {tp.__name__}: {error}") from error
    if tp is bool:
        if not isinstance(data, bool):
            raise DocumentError(f"expected true or false, got {data!r}")
        return data
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise DocumentError(f"expected a whole number, got {data!r}")
        return data
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise DocumentError(f"expected a number, got {data!r}")
        return float(data)
    if tp is str:
        if not isinstance(data, str):
            raise DocumentError(f"expected text, got {data!r}")
        return data
    raise DocumentError(f"cannot read a {tp}")


@functools.cache
def _hints(tp: type) -> dict[str, Any]:
    return typing.get_type_hints(tp)


def _key(tp: Any, key: str) -> Any:
    if tp is int:
        try:
            return int(key)
        except ValueError:
            raise DocumentError(f"expected a number as key, got {key!r}") from None
    return _read(tp, key)


def moves_to_json(moves: Sequence[Any]) -> list[Any]:
    """Log entries (actions and facts) as plain data, as a state's log writes them."""
    return [_plain(move) for move in moves]


def moves_from_json(data: Any) -> tuple[Any, ...]:
    """Log entries read back; a `DocumentError` for anything that is not one."""
    if not isinstance(data, list):
        raise DocumentError(f"expected a list of moves, got {str(data)[:40]!r}")
    return tuple(_entry(entry, number) for number, entry in enumerate(data, 1))


def state_to_json(state: GameState) -> dict[str, Any]:
    """The whole state (setup, villa, turn, seal, result and log) as a plain dict."""
    return {"format": FORMAT, "version": VERSION, "state": _plain(state)}


def ruleset_to_json(ruleset: RuleSet) -> dict[str, Any]:
    """A rule set alone (the variants a game is played with), as the state's document writes it."""
    return _plain(ruleset)


def ruleset_from_json(data: Any) -> RuleSet:
    """Inverse of `ruleset_to_json`; a `DocumentError` for anything else."""
    try:
        return _read(RuleSet, data)
    except DocumentError:
        raise
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise DocumentError(f"a damaged rule set: {error}") from error


def state_from_json(document: Any) -> GameState:
    """Inverse of `state_to_json`; a `DocumentError` for anything else."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise DocumentError("not a saved Villa Paletti game")
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise DocumentError(f"the document has no valid version ({version!r})")
    if version > VERSION:
        raise DocumentError(f"the game was saved by a newer version (format {version}); "
                            f"this version reads up to format {VERSION}")
    if version < 1:
        raise DocumentError(f"unknown format version {version}")
    if "state" not in document:
        raise DocumentError("the document holds no game state")
    data = document["state"]
    if version == 1:
        data = _from_version_1(data)
    try:
        state = _read(GameState, data)
    except DocumentError:
        raise
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise DocumentError(f"a damaged game state: {error}") from error
    _check_pieces(state)
    return state


def _check_pieces(state: GameState) -> None:
    """Every column the state and its log name is one of the game's twenty (a collapse may name a floor),
    each has its level, and the levels are those of the villa's floors: the rules look pieces up by these
    names."""
    if set(state.levels) != set(COLUMNS_BY_ID):
        strange = sorted(set(state.levels) - set(COLUMNS_BY_ID))
        missing = sorted(set(COLUMNS_BY_ID) - set(state.levels))
        raise DocumentError(f"a damaged game state: unknown columns {strange}" if strange
                            else f"a damaged game state: no level for {missing}")
    named = set(state.out) | set(state.blocked) | {c for cs in state.floors_laid_on.values() for c in cs}
    if state.turn.column is not None:
        named.add(state.turn.column)
    strange = sorted(named - set(COLUMNS_BY_ID))
    if strange:
        raise DocumentError(f"a damaged game state: unknown columns {strange}")
    for number, entry in enumerate(state.log, 1):
        known = PIECES if isinstance(entry, Collapse) else COLUMNS_BY_ID   # what gave way may be a floor
        for piece in _pieces_named(entry):
            if piece not in known:
                what = "names no piece" if not piece.strip() else f"names {piece[:40]!r}, no piece of this game"
                raise DocumentError(f"move {number} of the log ({type(entry).__name__}) {what}")
    levels = [lv for lv in state.levels.values() if lv is not None] + list(state.floors_laid_on)
    if not 1 <= state.top_level <= TOP_FLOOR_LEVEL or any(not 0 <= lv <= TOP_FLOOR_LEVEL for lv in levels):
        raise DocumentError("a damaged game state: a level outside the villa's floors")


def _pieces_named(entry: Any) -> list[str]:
    """The pieces a log entry names: a move's or a fact's column, what a floor was laid on, what gave way."""
    if isinstance(entry, Collapse):
        return [entry.piece]
    if isinstance(entry, FloorLaid):
        return sorted(entry.resting_on)
    if isinstance(entry, SetUpHigher):
        return [c for c, _level in entry.levels] + [c for _level, cs in entry.floor_supports for c in cs]
    named = [getattr(entry, "column", None), getattr(entry, "on_column", None)]
    return [piece for piece in named if isinstance(piece, str)]


def _from_version_1(data: Any) -> Any:
    """A version 1 state in the form of version 2 (a copy; anything odd is left for `_read`)."""
    if not isinstance(data, dict):
        return data
    data = dict(data)
    if "floor_supports" in data and "floors_laid_on" not in data:
        data["floors_laid_on"] = data.pop("floor_supports")
    setup = data.get("setup")
    if isinstance(setup, dict) and isinstance(setup.get("ruleset"), dict):
        data["setup"] = {**setup, "ruleset": {"everyone_rolls": False, **setup["ruleset"]}}
    return data


def dumps(state: GameState) -> str:
    return json.dumps(state_to_json(state), sort_keys=True)


def loads(text: str) -> GameState:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise DocumentError(f"not JSON: {error}") from error
    return state_from_json(document)
