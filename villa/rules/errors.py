"""Typed errors: every refusal names the broken rule by a code from a closed set, with the
values its words need as plain data.

The rules put no words to a refusal: a screen words it in any language from `error.rule` (the
code) and `error.params` alone (`villa.presentation.words`). `str(error)` is the code and its
values, for logs and exceptions.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Mapping


class RuleError(ValueError):
    """An action or fact the rules do not allow; the game state is left untouched.

    `rule`: the code's string value (e.g. "regulation-3"); `code`: the `Rule` itself;
    `params`: the values the words need (e.g. {"column": "red-thin-2", "level": 2}).
    """

    def __init__(self, rule: "Rule | str", params: Mapping[str, Any] | None = None):
        code = Rule(rule)
        params = dict(params or {})
        if set(params) != set(code.params):
            raise TypeError(f"{code.value} takes the params {code.params}, not {tuple(params)}")
        self.code = code
        self.rule = code.value
        self.params = params
        super().__init__(code.value)

    def __str__(self) -> str:
        """'regulation-7 (column=blue-hex, level=2)': the code and its values, for logs."""
        values = ", ".join(f"{k}={_listed(v)}" for k, v in self.params.items())
        return f"{self.rule} ({values})" if values else self.rule


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
    """Every code `RuleError.rule` can take: the error it raises, the names of its params, and
    what it means (one line, for whoever reads the code; a player reads the screen's words)."""

    def __new__(cls, code: str, error: type, params: tuple[str, ...], meaning: str) -> "Rule":
        member = str.__new__(cls, code)
        member._value_ = code
        member.error = error
        member.params = params
        member.meaning = meaning
        return member

    def refuse(self, **params: Any) -> RuleError:
        """The error to raise for this rule, of its own type."""
        return self.error(self, params)

    # --- the moment ---
    GAME_OVER = ("game-over", GameOver, ("ending",),
                 "The game has ended; nothing more is accepted.")
    UNKNOWN_ACTION = ("unknown-action", NotYourMove, ("action",),
                      "The object given to apply is no action or fact of this game.")
    MALFORMED_ACTION = ("malformed-action", MalformedAction, ("action", "field", "value", "expected"),
                        "A field of the action has the wrong type or a value the game does not know.")
    NOT_NOW = ("not-now", NotYourMove, ("action", "step", "role", "actor"),
               "The action does not fit the step of the turn (or the question asked).")
    NOT_STARTED = ("not-started", NotYourMove, (),
                   "A collapse reported before the first turn: the villa is built again.")
    SURVEY = ("survey", NotYourMove, (),
              "A survey of the villa was given to apply; it is only compared, never applied.")
    # --- colours and setting up ---
    COLOUR_ROLL = ("colour-roll", IllegalSetup, (),
                   "The seal rolled for a colour showed an end face.")
    COLOUR_TAKEN = ("colour-taken", IllegalSetup, ("colour",),
                    "The colour chosen belongs to another player already.")
    COLOUR_DEAL = ("colour-deal", IllegalSetup, (),
                   "A random deal of colours after a colour was rolled or chosen.")
    SET_UP_TOO_LATE = ("set-up-too-late", IllegalSetup, (),
                       "A villa set up higher once the first turn has begun to play (or set up already).")
    SET_UP_TWICE = ("set-up-twice", IllegalSetup, ("column",),
                    "A villa set up higher names a column twice.")
    SET_UP_LEVEL = ("set-up-level", IllegalSetup, ("column", "level", "top"),
                    "A villa set up higher puts a column on a level it does not have.")
    SET_UP_FLOORS = ("set-up-floors", IllegalSetup, ("floors",),
                     "A villa set up higher leaves out a floor, repeats one, or has more than five.")
    SET_UP_SUPPORT = ("set-up-support", IllegalSetup, ("floor", "column", "level"),
                      "A villa set up higher rests a floor on a column not standing on the level below it.")
    # --- taking a column ---
    NO_SUCH_COLUMN = ("no-such-column", IllegalBuild, ("column",),
                      "The column named is not one of the twenty.")
    OUT_OF_GAME = ("out-of-game", IllegalBuild, ("column",),
                   "The column has left the game (an objection's proof or penalty).")
    ABORTED_COLUMN = ("aborted-column", IllegalBuild, ("column",),
                      "The column was put back in an aborted build and is blocked for good.")
    REGULATION_7 = ("regulation-7", IllegalBuild, ("column", "level"),
                    "Regulation 7: columns on the top level do not build.")
    OBJECTION_PROOF = ("objection-proof", IllegalBuild, ("column", "proposer"),
                       "The objector's proof moves one of the proposer's own columns.")
    NEUTRAL_CHALLENGE = ("neutral-challenge", IllegalBuild, ("column",),
                         "Three players: a challenge is proved with another neutral column.")
    LAST_NEUTRAL = ("last-neutral", IllegalBuild, ("column", "level"),
                    "Three players: one neutral column stays behind on every level.")
    NEUTRAL_FIRST = ("neutral-first", IllegalBuild, ("column",),
                     "Three players: a turn begins with a neutral column.")
    SEAL_COLOUR = ("seal-colour", IllegalBuild, ("column", "colours"),
                   "Family edition, random colour: the column must have the colour the seal shows.")
    OWN_COLUMN = ("own-column", IllegalBuild, ("column", "player"),
                  "The column is not one the player may move (after the neutral one, an own column).")
    # --- building ---
    NO_ABORT = ("no-abort", IllegalBuild, (),
                "Family edition: a column taken must be placed.")
    REGULATION_6 = ("regulation-6", IllegalBuild, ("column", "chosen"),
                    "Regulation 6: one column per build, and only the one touched.")
    ONTO_TOP_FLOOR = ("onto-top-floor", IllegalBuild, ("column", "level", "top"),
                      "A column is built onto the top floor only.")
    REGULATION_3 = ("regulation-3", IllegalBuild, ("column",),
                    "Regulation 3: no column overhangs the edge of its floor.")
    REGULATION_8 = ("regulation-8", IllegalBuild, ("column", "on_column", "level"),
                    "Regulation 8: columns are stacked only on the red floor, on a column standing there.")
    MUST_BUILD = ("must-build", IllegalBuild, ("player",),
                  "Passing while a column can be built or a floor laid.")
    # --- floors ---
    NO_FLOOR_LEFT = ("no-floor-left", IllegalProposal, (),
                     "A floor proposed when all five are laid.")
    FLOOR_SUPPORT = ("floor-support", IllegalProposal, ("level", "need", "have"),
                     "A floor rests on at least the rule set's number of columns (three; family one).")
    FLOOR_ON_TOP_COLUMNS = ("floor-on-top-columns", IllegalProposal, ("columns", "level"),
                            "A new floor is laid on columns standing on the top level.")
    REGULATION_4 = ("regulation-4", IllegalProposal, ("level", "next"),
                    "Regulation 4: blue, green, yellow, orange, red.")
    FLOOR_INSIDE_BASE = ("floor-inside-base", IllegalProposal, ("level",),
                         "House variant: no floor overhangs the base plate.")
    OBJECTION_PENALTY = ("objection-penalty", IllegalProposal, ("column", "objector"),
                         "After a failed objection, only one of the objector's columns is pulled out.")

