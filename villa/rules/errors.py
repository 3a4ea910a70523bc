"""Typed errors: every refusal names the broken rule by a code from a closed set, with the
values its words need as plain data.

A screen words a refusal in any language from `error.rule` (the code) and `error.params`
alone; `error.message` is the English wording, for logs and tests, made from the same two.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Mapping


class RuleError(ValueError):
    """An action or fact the rules do not allow; the game state is left untouched.

    `rule`: the code's string value (e.g. "regulation-3"); `code`: the `Rule` itself;
    `params`: the values the words need (e.g. {"column": "red-thin-2", "level": 2});
    `message`: the English words.
    """

    def __init__(self, rule: "Rule | str", params: Mapping[str, Any] | None = None):
        code = Rule(rule)
        params = dict(params or {})
        if set(params) != set(code.params):
            raise TypeError(f"{code.value} takes the params {code.params}, not {tuple(params)}")
        self.code = code
        self.rule = code.value
        self.params = params
        self.message = code.words(params)
        super().__init__(self.message)

    def __str__(self) -> str:
        return f"{self.message} [{self.rule}]"


class NotYourMove(RuleError):
    """The action does not fit the moment: wrong step of the turn, or nobody asked for it."""


class MalformedAction(RuleError):
    """An action whose fields are of the wrong type or hold no value the game knows."""


class IllegalBuild(RuleError):
    """A column that may not be taken, or a placement that breaks a building regulation."""


class IllegalProposal(RuleError):
    """A floor proposal, objection, challenge or floor placement the rules forbid."""


class IllegalSetup(RuleError):
    """A colour roll or choice, or a villa set up higher, that the setup rules forbid."""


class GameOver(RuleError):
    """The game has ended; nothing more can happen."""


class DocumentError(ValueError):
    """A saved game that cannot be read: not ours, malformed, or from a newer version."""


def _listed(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)


class Rule(str, Enum):
    """Every code `RuleError.rule` can take: the error it raises, the names of its params, its
    English words, and what it means (one line)."""

    def __new__(cls, code: str, error: type, params: tuple[str, ...], words: str, meaning: str) -> "Rule":
        member = str.__new__(cls, code)
        member._value_ = code
        member.error = error
        member.params = params
        member.template = words
        member.meaning = meaning
        return member

    def words(self, params: Mapping[str, Any]) -> str:
        return self.template.format(**{k: _listed(v) for k, v in params.items()})

    def refuse(self, **params: Any) -> RuleError:
        """The error to raise for this rule, of its own type."""
        return self.error(self, params)

    # --- the moment ---
    GAME_OVER = ("game-over", GameOver, ("ending",),
                 "the game is over ({ending})",
                 "The game has ended; nothing more is accepted.")
    UNKNOWN_ACTION = ("unknown-action", NotYourMove, ("action",),
                      "{action} is not an action of this game",
                      "The object given to apply is no action or fact of this game.")
    MALFORMED_ACTION = ("malformed-action", MalformedAction, ("action", "field", "value", "expected"),
                        "{action}.{field} must be {expected}, not {value}",
                        "A field of the action has the wrong type or a value the game does not know.")
    NOT_NOW = ("not-now", NotYourMove, ("action", "step", "role", "actor"),
               "{action} is not possible now: at the step '{step}' ({role}) player {actor} must act",
               "The action does not fit the step of the turn (or the question asked).")
    NOT_STARTED = ("not-started", NotYourMove, (),
                   "the villa is not in play before the colours are settled",
                   "A collapse reported before the first turn: the villa is built again.")
    SURVEY = ("survey", NotYourMove, (),
              "a survey changes nothing: compare it with check_survey",
              "A survey of the villa was given to apply; it is only compared, never applied.")
    # --- colours and setting up ---
    COLOUR_ROLL = ("colour-roll", IllegalSetup, (),
                   "a colour roll must show a colour: roll again on an end face",
                   "The seal rolled for a colour showed an end face.")
    COLOUR_TAKEN = ("colour-taken", IllegalSetup, ("colour",),
                    "{colour} is already taken",
                    "The colour chosen belongs to another player already.")
    COLOUR_DEAL = ("colour-deal", IllegalSetup, (),
                   "colours can be dealt at random only before anyone has one",
                   "A random deal of colours after a colour was rolled or chosen.")
    SET_UP_TOO_LATE = ("set-up-too-late", IllegalSetup, (),
                       "the villa can be set up higher only before the first move of the game",
                       "A villa set up higher once the first turn has begun to play (or set up already).")
    SET_UP_TWICE = ("set-up-twice", IllegalSetup, ("column",),
                    "{column} is given two places",
                    "A villa set up higher names a column twice.")
    SET_UP_LEVEL = ("set-up-level", IllegalSetup, ("column", "level", "top"),
                    "{column} cannot stand on level {level}: the villa has levels 0 to {top}",
                    "A villa set up higher puts a column on a level it does not have.")
    SET_UP_FLOORS = ("set-up-floors", IllegalSetup, ("floors",),
                     "the floors must be the levels 1 up to the top, each once, not {floors}",
                     "A villa set up higher leaves out a floor, repeats one, or has more than five.")
    SET_UP_SUPPORT = ("set-up-support", IllegalSetup, ("floor", "column", "level"),
                      "the floor of level {floor} cannot rest on {column}, which stands on level {level}",
                      "A villa set up higher rests a floor on a column not standing on the level below it.")
    # --- taking a column ---
    NO_SUCH_COLUMN = ("no-such-column", IllegalBuild, ("column",),
                      "there is no column called {column}",
                      "The column named is not one of the twenty.")
    OUT_OF_GAME = ("out-of-game", IllegalBuild, ("column",),
                   "{column} is out of the game",
                   "The column has left the game (an objection's proof or penalty).")
    ABORTED_COLUMN = ("aborted-column", IllegalBuild, ("column",),
                      "{column} was given up in an aborted build and may not be chosen again",
                      "The column was put back in an aborted build and is blocked for good.")
    REGULATION_7 = ("regulation-7", IllegalBuild, ("column", "level"),
                    "{column} already stands on the top level ({level}) and may not be used to build",
                    "Regulation 7: columns on the top level do not build.")
    OBJECTION_PROOF = ("objection-proof", IllegalBuild, ("column", "proposer"),
                       "the objector must move one of the proposer's (player {proposer}) columns, not {column}",
                       "The objector's proof moves one of the proposer's own columns.")
    NEUTRAL_CHALLENGE = ("neutral-challenge", IllegalBuild, ("column",),
                         "the challenger must move a different neutral column, not {column}",
                         "Three players: a challenge is proved with another neutral column.")
    LAST_NEUTRAL = ("last-neutral", IllegalBuild, ("column", "level"),
                    "{column} is the last neutral column on level {level} and must stay",
                    "Three players: one neutral column stays behind on every level.")
    NEUTRAL_FIRST = ("neutral-first", IllegalBuild, ("column",),
                     "a neutral column must go up before {column}",
                     "Three players: a turn begins with a neutral column.")
    SEAL_COLOUR = ("seal-colour", IllegalBuild, ("column", "colours"),
                   "the seal asks for a {colours} column, not {column}",
                   "Family edition, random colour: the column must have the colour the seal shows.")
    OWN_COLUMN = ("own-column", IllegalBuild, ("column", "player"),
                  "{column} is not one of player {player}'s columns to move now",
                  "The column is not one the player may move (after the neutral one, an own column).")
    # --- building ---
    NO_ABORT = ("no-abort", IllegalBuild, (),
                "these rules know no aborted build: the column must be placed",
                "Family edition: a column taken must be placed.")
    REGULATION_6 = ("regulation-6", IllegalBuild, ("column", "chosen"),
                    "only the chosen column ({chosen}) may be moved, not {column}",
                    "Regulation 6: one column per build, and only the one touched.")
    ONTO_TOP_FLOOR = ("onto-top-floor", IllegalBuild, ("column", "level", "top"),
                      "{column} goes onto the top floor (level {top}), not level {level}",
                      "A column is built onto the top floor only.")
    REGULATION_3 = ("regulation-3", IllegalBuild, ("column",),
                    "{column} may not overhang the edge of the floor it stands on",
                    "Regulation 3: no column overhangs the edge of its floor.")
    REGULATION_8 = ("regulation-8", IllegalBuild, ("column", "on_column", "level"),
                    "{column} may not stand on {on_column} on level {level}: columns stand on one another "
                    "only on the red floor",
                    "Regulation 8: columns are stacked only on the red floor, on a column standing there.")
    MUST_BUILD = ("must-build", IllegalBuild, ("player",),
                  "player {player} can build or lay a floor, and so may not pass",
                  "Passing while a column can be built or a floor laid.")
    # --- floors ---
    NO_FLOOR_LEFT = ("no-floor-left", IllegalProposal, (),
                     "the red floor is on: no floor is left",
                     "A floor proposed when all five are laid.")
    FLOOR_SUPPORT = ("floor-support", IllegalProposal, ("level", "need", "have"),
                     "the floor of level {level} must rest on at least {need} columns, not {have}",
                     "A floor rests on at least the rule set's number of columns (three; family one).")
    FLOOR_ON_TOP_COLUMNS = ("floor-on-top-columns", IllegalProposal, ("columns", "level"),
                            "the floor rests only on columns of the top level ({level}), not on {columns}",
                            "A new floor is laid on columns standing on the top level.")
    REGULATION_4 = ("regulation-4", IllegalProposal, ("level", "next"),
                    "the floors go on in order: next is level {next}, not {level}",
                    "Regulation 4: blue, green, yellow, orange, red.")
    FLOOR_INSIDE_BASE = ("floor-inside-base", IllegalProposal, ("level",),
                         "under this house rule the floor of level {level} may not overhang the base plate",
                         "House variant: no floor overhangs the base plate.")
    OBJECTION_PENALTY = ("objection-penalty", IllegalProposal, ("column", "objector"),
                         "the proposer takes out one of the objector's (player {objector}) columns in the villa, "
                         "not {column}",
                         "After a failed objection, only one of the objector's columns is pulled out.")

