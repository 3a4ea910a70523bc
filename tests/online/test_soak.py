"""A tiny seeded sample of `scripts/soak_server.py`: a server in a process of its own plays games to the end
through its lobby while connections come, enter, leave and misbehave, and afterwards nothing is left open but
the room still played; behind `-m slow`, a short one with its attack beside the games (an `Enter` flood, clients
that never read, rooms hoarded from eight addresses), after which the rooms of strangers have closed too (the full
ten minutes are run by hand, and their figures are in docs/online.md); and the soak's attack alone, for a few
seconds against the soak's server, to see that its connections speak TLS and get in."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _soak_script():
    spec = importlib.util.spec_from_file_location("soak_server", ROOT / "scripts" / "soak_server.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return script


def test_a_short_soak_leaves_nothing_behind():
    done = subprocess.run([sys.executable, "scripts/soak_server.py", "--json", "--minutes", "0.05", "--rooms", "2",
                           "--cycles", "21", "--seed", "7", "--no-attack", "--linger", "3"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["rooms_played"] == 2 and figures["games_broken"] == 0 and figures["replays_kept"] == 2, figures
    assert figures["cycles"] == 21 and figures["server_tracebacks"] == 0, figures
    assert figures["rooms_open_at_end"] == 0 and figures["visitors_at_end"] == 1, f"only the prober is left: {figures}"
    assert figures["door_at_end"]["connections"] == 1 and figures["door_at_end"]["leaving"] == 0, figures
    assert figures["open_files_growth"] <= 2 and figures["answers"] > 0, figures   # (a file being written, maybe)
    assert {"rss_growth_mb", "slowest_answer_ms_p99"} <= figures.keys()


@pytest.mark.slow
def test_a_short_soak_under_attack_leaves_nothing_behind_and_every_player_gets_a_room():
    done = subprocess.run([sys.executable, "scripts/soak_server.py", "--json", "--minutes", "0.5", "--rooms", "8",
                           "--cycles", "40", "--seed", "8"], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["games_broken"] == 0 and figures["server_tracebacks"] == 0, figures
    assert figures["rooms_opened_by_players_during_attack"] == figures["rooms_asked_by_players_during_attack"], figures
    attack = figures["attack"]
    assert attack["flood_entered"] > 0 and attack["hoarded_rooms"] > 0, figures
    assert figures["rooms_most_during_attack"] <= 8 * 10 + 3 + 1 + 1, "ten rooms an address, the games', the " \
                                                                      "flood's and the prober's"
    assert figures["rooms_open_at_end"] == 0 and figures["door_at_end"]["connections"] == 1, figures


def test_the_soaks_attack_speaks_tls_and_gets_in(tmp_path):
    """The attack's connections, against the soak's own server (which speaks TLS only): the flood enters its room,
    the hoarders open rooms, and the clients that never read are welcomed and ask (their closing, once what waits
    for them has not drained for seconds, is the longer soak's). Connections in the clear would all be refused at
    the door, and every figure would stay 0."""
    script = _soak_script()
    log = tmp_path / "server.err"
    with open(log, "w", encoding="utf-8") as said:
        server = subprocess.Popen([sys.executable, str(ROOT / "scripts" / "soak_server.py"), "--serve"], cwd=ROOT,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=said, text=True,
                                  env={**os.environ, "VILLA_HOME": str(tmp_path)})
    attack = None
    try:
        port = int(server.stdout.readline().split()[0])
        attack = script.Attack(port)
        end = time.monotonic() + 30

        def got_in() -> bool:
            figures = attack.figures()
            return bool(figures["flood_entered"] and figures["hoarded_rooms"] and figures["non_readers_sent"])
        while not got_in() and time.monotonic() < end:
            attack.poll()
            time.sleep(0.002)
        figures = attack.figures()
    finally:
        if attack is not None:
            attack.close()
        server.stdin.close()
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    assert figures["flood_entered"] > 0 and figures["hoarded_rooms"] > 0, figures
    assert figures["non_readers_sent"] > 0, figures
    assert "Traceback" not in log.read_text(encoding="utf-8")
