"""What keeps each test to itself, in one process or on every core (pytest-xdist, tests/README.md): each process
of the suite has a virtual screen of its own (`display`), each test its own user folders (`VILLA_HOME`), and a
test that needs Redis gets the process's own, emptied for it (`redis_url`), or one of its very own to stop, freeze
and fill (`redis_server`). Ports are never fixed numbers (tests/servers.py)."""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.servers import RedisServer

IN_A_WORKER = "PYTEST_XDIST_WORKER" in os.environ


def pytest_configure(config):
    """Before any test: what the process writes goes to a folder of its own, not the user's real ones, and a
    worker opens its windows on its own screen (two windows on one display would share one pointer)."""
    folder = Path(tempfile.mkdtemp(prefix=f"villa-tests-{worker_name()}-"))
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    os.environ["VILLA_HOME"] = str(folder)
    if IN_A_WORKER:
        os.environ.pop("DISPLAY", None)


def worker_name() -> str:
    """`gw0`, `gw1` ... in a worker of pytest-xdist; `main` in a run of one process."""
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


@dataclass(frozen=True)
class Worker:
    """The process running this test. `tag` is unique on the machine while it runs (other suites run beside this
    one): put it in the name of anything the machine holds by name, such as a network namespace."""

    name: str
    tag: str


@pytest.fixture(scope="session")
def worker() -> Worker:
    return Worker(worker_name(), f"v{os.getpid()}")


@pytest.fixture(scope="session")
def display():
    """A DISPLAY to open windows on: this process's own virtual screen (Xvfb), started at the first test that asks;
    in a run of one process, the display already set, if one is."""
    if os.environ.get("DISPLAY"):
        yield os.environ["DISPLAY"]
        return
    from villa.presentation.xvfb import NoVirtualScreen, VirtualScreen
    try:
        screen = VirtualScreen(1280, 720)
    except NoVirtualScreen as error:
        pytest.fail(f"no display, and no virtual screen either: {error} (scripts/test.sh installs it)")
    os.environ["DISPLAY"] = screen.display
    yield screen.display  # the virtual screen ends with the test session's process


@pytest.fixture(autouse=True)
def villa_home(tmp_path_factory, monkeypatch) -> Path:
    """Every test starts with empty user folders of its own: settings, saves, replays and the log (a test may set
    VILLA_HOME itself all the same; a program it starts inherits this one)."""
    homes = tmp_path_factory.getbasetemp() / "homes"
    homes.mkdir(exist_ok=True)
    home = Path(tempfile.mkdtemp(dir=homes))
    monkeypatch.setenv("VILLA_HOME", str(home))
    return home


@pytest.fixture(scope="session")
def made_once(tmp_path_factory):
    """`made_once(name, make)`: the text `make()` returns, made by the first worker of the run to ask and read
    from a file by the others (a game played headless, say, that tests in several workers start from)."""
    folder = tmp_path_factory.getbasetemp()
    if IN_A_WORKER:
        folder = folder.parent          # the run's folder, which holds every worker's

    def get(name: str, make) -> str:
        path = folder / f"made-once-{name}.txt"
        with open(folder / f"made-once-{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not path.exists():
                part = path.with_suffix(".part")
                part.write_text(make(), encoding="utf-8")
                os.replace(part, path)
        return path.read_text(encoding="utf-8")
    return get


def _needs_redis_server() -> None:
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed: scripts/test.sh installs Debian's redis-server")


@pytest.fixture(scope="session")
def worker_redis(tmp_path_factory) -> RedisServer:
    """This process's own Redis, started at the first test that asks; see `redis_url`."""
    _needs_redis_server()
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()


@pytest.fixture
def redis_url(worker_redis) -> str:
    """The URL of this process's Redis, emptied for the test: for a test that only keeps things there. A test that
    stops, freezes, fills or reconfigures Redis takes `redis_server` instead."""
    import redis
    with redis.Redis.from_url(worker_redis.url) as client:
        client.flushall()
    return worker_redis.url


@pytest.fixture
def redis_server(tmp_path) -> RedisServer:
    """A Redis of the test's very own, with its append-only file in the test's folder, stopped after it."""
    _needs_redis_server()
    folder = tmp_path / "redis"
    folder.mkdir()
    server = RedisServer(folder)
    yield server
    server.stop()
