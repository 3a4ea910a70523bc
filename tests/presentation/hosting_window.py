"""A game window that hosts a game, as a person's does through the menus ("Host a game", "Host here"): run in a
process of its own by the tests that kill it.

    python -m tests.presentation.hosting_window PORT       # prints "room CODE" once the room is open

The host is Anna at the first seat, Ben's seat waits for him; the game begins (Start) once he sits, and goes on
in the window's loop until the process ends (or is killed). Its settings and files go to VILLA_HOME.
"""

from __future__ import annotations

import sys

from villa.app import settings as stored
from villa.app.front import Front, _run_window
from villa.match import MatchSetup, Seat, layout_named
from villa.presentation.menus.lobby import may_start
from villa.presentation.stage import WindowOptions, open_window, stage

SEED = 4      # two people, the colours dealt: the second seat (Ben's) moves first


def main(port: int) -> int:
    open_window(WindowOptions(width=640, height=360, sound=False))
    front = Front(stage, stored.load_settings())
    plan = MatchSetup((Seat("Anna"), Seat("Ben")), layout_named("rings", SEED), seed=SEED, deal_colours=True)
    front.main_menu()
    front.online_play.where_to_host(plan)
    front.online_play.host_here(str(port))
    said = []

    def host(task):
        player = front.online_play.player
        if player is None:
            return task.cont
        if player.code and not said:
            said.append(player.code)
            print(f"room {player.code} on port {front.online_play.server.port}", flush=True)
        if may_start(player.table, set(player.seats)) and "begun" not in said:
            said.append("begun")
            player.begin()
        return task.cont
    stage.task_mgr.add(host, "tests: the host starts the game")
    return _run_window()


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1])))
