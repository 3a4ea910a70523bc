"""The game screen's modes: a closed set, named once here (the screen's FSM enters and leaves them)."""

from __future__ import annotations

from enum import StrEnum


class Mode(StrEnum):
    """What the game screen is doing; each value is the FSM state's name (`enterLaying` ...)."""

    IDLE = "Idle"            # the person to act may take a column, propose a floor, pass ...
    PULLING = "Pulling"      # a column in hand, still under its floor
    CARRYING = "Carrying"    # the column free, following the pointer
    LAYING = "Laying"        # a floor following the pointer
    SETTLING = "Settling"    # let go: the villa settles, the referee judges
    ASKING = "Asking"        # a hand-over panel puts a question
    HAND_OVER = "HandOver"   # "pass the mouse to ..."
    ROLLING = "Rolling"      # the seal tumbles for the turn's colour
    COMPUTER = "Computer"    # a computer player acts
    FALLING = "Falling"      # the villa collapses
    REPLAY = "Replay"        # the fall once more, slowly
    PAUSED = "Paused"        # the pause menu is over the game
    ENDED = "Ended"          # the game is over


HANDS = (Mode.PULLING, Mode.CARRYING, Mode.LAYING)   # the hand holds a piece the pointer moves
PANELS = (Mode.ASKING, Mode.HAND_OVER, Mode.ROLLING)  # a panel holds the screen
MOVING = (Mode.ROLLING, Mode.FALLING, Mode.REPLAY)   # the picture changes by itself (the view tells of the rest)
