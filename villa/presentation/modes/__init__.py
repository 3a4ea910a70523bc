"""The game screen's modes: a closed set, named once here, and a class each in this package.

    base.py      what every mode does unless it says otherwise (and Off: the screen closed)
    idle.py      Idle: the person to act may take a column, propose a floor, pass ...
    hands.py     Pulling, Carrying, Laying: the hand holds a piece the pointer moves
    waiting.py   Settling, Computer, CutOff: the screen waits for the villa, a computer player, or (online) the
                 game's server this window lost
    asking.py    Asking, HandOver, Rolling: a panel holds the screen
    falling.py   Falling, Replay: the villa collapses, and once more slowly
    paused.py    Paused; ended.py: Ended

`GameScreen.change_mode` is the one way in and out of a mode: it leaves the mode it is in (`exit`),
then enters the next (`enter`). The screen hands every input and every frame to the mode it is in.
"""

from __future__ import annotations

from enum import StrEnum


class Mode(StrEnum):
    """What the game screen is doing."""

    IDLE = "Idle"            # the person to act may take a column, propose a floor, pass ...
    PULLING = "Pulling"      # a column in hand, still under its floor
    CARRYING = "Carrying"    # the column free, following the pointer
    LAYING = "Laying"        # a floor following the pointer
    SETTLING = "Settling"    # let go: the villa settles, the referee judges
    ASKING = "Asking"        # a hand-over panel puts a question
    HAND_OVER = "HandOver"   # "pass the mouse to ..."
    ROLLING = "Rolling"      # the seal tumbles for the turn's colour
    COMPUTER = "Computer"    # a computer player acts
    CUT_OFF = "CutOff"       # online: the window lost the game's server, and looks for it again
    FALLING = "Falling"      # the villa collapses
    REPLAY = "Replay"        # the fall once more, slowly
    PAUSED = "Paused"        # the pause menu is over the game
    ENDED = "Ended"          # the game is over
    OFF = "Off"              # the screen is closed
