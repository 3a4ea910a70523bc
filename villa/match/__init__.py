"""The game in play, headless: the rules' state, the wooden villa and the hand, in one object.

- `setup`: `MatchSetup` (seats, rules, layout, seed), `Seat`, `Strength`, `layout_named`.
- `table`: `Match`, the game in play: the players' requests, the frame step (settle -> fact ->
  verdict), the record of every settled turn.
- `events`: what the screens, the autosave, the sound and the computer players subscribe to.
- `requests`: what a seat asks of the game (`Take`, `Aim`, `Answer` ...), and the `Reply`.
- `face`: the face of a game in play (`GameInPlay`) that `Match` and the online player's game both have.
- `record`: a game as far as it went (`Record`), as a versioned JSON document and back.
- `computer`: computer players, seated at the match like a person.
"""

from villa.match.events import (Accepted, AnswerNeeded, Collapsed, Events, GameOver, LetGo, Refused, RoundStarted,
                                TimeUp, Touched, TurnSettled)
from villa.match.record import Record, RecordError, TurnRecord
from villa.match.setup import LAYOUT_NAMES, MatchSetup, Seat, Strength, layout_named
from villa.match.table import FRAME, Match

__all__ = [
    "Accepted", "AnswerNeeded", "Collapsed", "Events", "GameOver", "LetGo", "Refused", "RoundStarted", "TimeUp",
    "Touched", "TurnSettled",
    "Record", "RecordError", "TurnRecord",
    "LAYOUT_NAMES", "MatchSetup", "Seat", "Strength", "layout_named",
    "FRAME", "Match",
]
