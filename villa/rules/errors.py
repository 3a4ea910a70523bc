"""Typed errors: every refusal names the rule that was broken, in words a player can read."""

from __future__ import annotations


class RuleError(ValueError):
    """An action or fact the rules do not allow; the game state is left untouched.

    `rule` is a short stable name of the broken rule (for the interface and the tests),
    e.g. "regulation-3" or "not-your-move"; the message says it in words.
    """

    def __init__(self, rule: str, message: str):
        super().__init__(message)
        self.rule = rule
        self.message = message

    def __str__(self) -> str:
        return f"{self.message} [{self.rule}]"


class NotYourMove(RuleError):
    """The action does not fit the moment: wrong step of the turn, or nobody asked for it."""


class IllegalBuild(RuleError):
    """A column that may not be taken, or a placement that breaks a building regulation."""


class IllegalProposal(RuleError):
    """A floor proposal, objection, challenge or floor placement the rules forbid."""


class IllegalSetup(RuleError):
    """A colour roll or choice the setup rules forbid."""


class GameOver(RuleError):
    """The game has ended; nothing more can happen."""


class DocumentError(ValueError):
    """A saved game that cannot be read: not ours, malformed, or from a newer version."""
