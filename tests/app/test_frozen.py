"""The standalone build starts the computer players' worker by running the game's own program again with
multiprocessing's arguments (it has no Python to run): that start becomes the worker, and multiprocessing's
resource tracker, not a second game. Here a program that runs villa's entry point as a frozen build does
stands in for the built one."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from villa.app import frozen

PARENT = textwrap.dedent("""
    import sys
    sys.frozen = True
    sys.executable = sys.argv[1]   # the program multiprocessing starts again, as the built game's
    from villa.match.computer.worker import Aside
    Aside()
    print("worker says", Aside._pool.submit(pow, 2, 10).result(timeout=120))
    Aside.close()
""")


def test_the_built_game_starts_its_worker_and_the_tracker_as_themselves_not_as_the_game(tmp_path):
    program = tmp_path / "villa-paletti"
    program.write_text(textwrap.dedent(f"""\
        #!/bin/sh
        exec {sys.executable} -c "import sys; sys.frozen = True; from villa.app.main import main; raise SystemExit(main())" "$@"
        """))
    program.chmod(0o755)
    environment = {**os.environ, "VILLA_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-c", PARENT, str(program)], capture_output=True, text=True,
                          timeout=180, env=environment)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "worker says 1024" in done.stdout
    assert "usage:" not in done.stderr, "a helper process was taken for the game and its command line refused"


def test_the_built_program_started_by_the_servers_name_is_the_dedicated_server(tmp_path):
    """On Linux the release's server is a link to the game's program: started by that name, it serves."""
    program = textwrap.dedent("""
        import runpy, sys
        sys.frozen = True
        sys.argv[0] = sys.argv.pop(1)
        runpy.run_module("villa", run_name="__main__")
    """)
    environment = {**os.environ, "VILLA_HOME": str(tmp_path / "home")}
    for name, usage in ((frozen.SERVER_PROGRAM, "usage: villa-paletti-server"),
                        ("villa-paletti", "usage: villa-paletti ")):
        done = subprocess.run([sys.executable, "-c", program, str(tmp_path / name), "--help"], capture_output=True,
                              text=True, timeout=120, env=environment)
        assert done.returncode == 0 and done.stdout.startswith(usage), (name, done.stdout[:200], done.stderr[-2000:])


def test_a_program_run_by_python_is_never_the_server_by_its_name():
    assert not frozen.started_as_server(["/usr/local/bin/villa-paletti-server"])
