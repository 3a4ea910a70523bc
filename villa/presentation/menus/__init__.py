"""The menu screens, as Panda3D DirectGUI screens in the game's wood-and-paper style.

Each screen is a class taking callbacks, building its widgets under a parent node
(default: the window's aspect2d), created hidden, with show() / hide() / destroy().
Every word goes through villa.presentation.i18n.
"""

from villa.presentation.menus.arrange import ArrangePanel
from villa.presentation.menus.base import Screen
from villa.presentation.menus.end import EndScreen
from villa.presentation.menus.lessons import LessonsScreen
from villa.presentation.menus.main_menu import MainMenu
from villa.presentation.menus.new_game import GameChoices, NewGameScreen
from villa.presentation.menus.pause import PauseMenu
from villa.presentation.menus.seal_roll import COLOUR_TASKS, SealRollScreen, colour_name
from villa.presentation.menus.seats import SeatsScreen
from villa.presentation.menus.settings import SettingsScreen
from villa.presentation.menus.texts import HowToPlayScreen, RulesSummaryScreen

__all__ = ["ArrangePanel", "Screen", "EndScreen", "LessonsScreen", "MainMenu", "GameChoices", "NewGameScreen",
           "PauseMenu", "COLOUR_TASKS", "SealRollScreen", "colour_name", "SeatsScreen", "SettingsScreen",
           "HowToPlayScreen", "RulesSummaryScreen"]
