"""A villa-paletti:// link clicked opens the game in its room: on Linux the desktop entry that add-to-menu.sh puts in
the menu is the scheme's handler (asked with `xdg-mime`, and opened with `xdg-open` and `gio open` under Xvfb, as a
chat's click does), for the release's folder and, through `scripts/play.sh --add-to-menu`, for a checkout, whose
click starts the real game into a room of a server here; on Windows the user's own registry keys (written into a
registry kept in memory, with winreg's calls); on macOS the Apple Event a click sends the running game, queued for
the window, which opens it from the menus."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from villa.app import invite_links
from villa.app.front import follow_links
from villa.app.mac_links import Links
from villa.match import MatchSetup, Seat, layout_named
from villa.online import protocol
from villa.online.server import Room, Server

ROOT = Path(__file__).resolve().parents[2]
SCHEME = "x-scheme-handler/villa-paletti"
INVITE = "villa-paletti://203.0.113.45:47171/K7QXM#" + "ab" * 32


@pytest.fixture
def desktop(tmp_path, display):
    """A user of the desktop of the test's own: their home and XDG folders under tmp_path, no system-wide ones."""
    for program in ("xdg-mime", "xdg-open", "gio"):
        if shutil.which(program) is None:
            pytest.fail(f"{program} is not installed (scripts/test.sh installs xdg-utils and libglib2.0-bin)")
    home = tmp_path / "home"
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"),
           "XDG_CONFIG_HOME": str(home / "config"), "XDG_DATA_DIRS": str(tmp_path / "no system"),
           "XDG_CURRENT_DESKTOP": "", "DISPLAY": display}
    for variable in ("DESKTOP_SESSION", "KDE_FULL_SESSION", "GNOME_DESKTOP_SESSION_ID", "XDG_SESSION_DESKTOP"):
        env.pop(variable, None)
    return env


def run(command, env, **options) -> subprocess.CompletedProcess:
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60, **options)
    assert done.returncode == 0, done.stderr
    return done


def release_folder(where: Path) -> Path:
    """The Linux game's folder as the release packs it (scripts/release.py linux_desktop), its program a stand-in
    that writes down what it was started with."""
    where.mkdir(parents=True)
    for name in ("villa-paletti.desktop", "add-to-menu.sh"):
        shutil.copy(ROOT / "packaging" / "linux" / name, where / name)
    shutil.copytree(ROOT / "icons", where / "icons")
    game = where / "villa-paletti"
    game.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > "{where / "started with"}"\n')
    game.chmod(0o755)
    return where


def started_with(folder: Path, seconds: float = 10) -> list[str]:
    end = time.monotonic() + seconds
    while not (folder / "started with").exists() and time.monotonic() < end:
        time.sleep(0.05)
    return (folder / "started with").read_text().splitlines()


@pytest.mark.parametrize("folder, opener", [("villa-paletti-0.1.0", "xdg-open"),
                                            ("Villa Paletti games/villa-paletti-0.1.0", "gio")])
def test_the_release_folders_entry_opens_invites_clicked(desktop, tmp_path, folder, opener):
    """xdg-open without a desktop reads Exec's first word as it stands; gio follows the desktop entry's rules, as
    GNOME and KDE do, quotes and all (a folder with spaces)."""
    game = release_folder(tmp_path / folder)
    said = run([str(game / "add-to-menu.sh")], desktop).stdout
    assert "opens invites" in said
    entry = Path(desktop["XDG_DATA_HOME"]) / "applications" / "villa-paletti.desktop"
    lines = entry.read_text().splitlines()
    program = str(game / "villa-paletti")
    assert f'Exec="{program}" %u' in lines if " " in program else f"Exec={program} %u" in lines
    assert "MimeType=x-scheme-handler/villa-paletti;" in lines
    assert run(["xdg-mime", "query", "default", SCHEME], desktop).stdout.strip() == "villa-paletti.desktop"
    run(["xdg-open", INVITE] if opener == "xdg-open" else ["gio", "open", INVITE], desktop)
    assert started_with(game) == [INVITE], "the game started with the invite whole, as its one argument"

    run([str(game / "add-to-menu.sh"), "--remove"], desktop)
    assert not entry.exists()
    assert run(["xdg-mime", "query", "default", SCHEME], desktop).stdout.strip() == ""


def test_a_folder_the_desktop_entry_cannot_name_is_refused_in_a_sentence(desktop, tmp_path):
    game = release_folder(tmp_path / "100% villa")
    done = subprocess.run([str(game / "add-to-menu.sh")], env=desktop, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "move the game to a path without" in done.stderr
    assert not (Path(desktop["XDG_DATA_HOME"]) / "applications" / "villa-paletti.desktop").exists()


@pytest.mark.gui
def test_a_link_clicked_opens_a_checkouts_game_in_the_room(desktop, tmp_path):
    """`scripts/play.sh --add-to-menu`, then a click on an invite to a room of a server here: the real game starts
    and goes into the room (its lobby, to choose a seat)."""
    said = run([str(ROOT / "scripts" / "play.sh"), "--add-to-menu"], desktop).stdout
    assert "opens invites" in said
    entry = (Path(desktop["XDG_DATA_HOME"]) / "applications" / "villa-paletti.desktop").read_text()
    assert f"Exec={ROOT / 'scripts' / 'play.sh'} %u" in entry.splitlines()

    server = Server(0, "127.0.0.1")
    room = Room(protocol.new_room_code(), MatchSetup((Seat("Seat 1"), Seat("Seat 2")), layout_named("rings")))
    server.open(room)
    stop = threading.Event()
    serving = threading.Thread(target=server.serve, kwargs={"until": stop.is_set}, daemon=True)
    serving.start()
    env = {**desktop, "VILLA_HOME": str(tmp_path / "villa"), "USER": "mira"}
    click = subprocess.Popen(["xdg-open", f"villa-paletti://127.0.0.1:{server.port}/{room.code.lower()}"], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        end = time.monotonic() + 90
        while not room.audience and click.poll() is None and time.monotonic() < end:
            time.sleep(0.1)
        assert room.audience, click.stderr.read().decode()[-3000:] if click.poll() is not None else \
            "nobody came into the room"
    finally:
        if click.poll() is None:
            os.killpg(click.pid, signal.SIGTERM)       # the game ends on SIGTERM as on Quit
            try:
                click.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(click.pid, signal.SIGKILL)
                click.wait(10)
        stop.set()
        serving.join(10)
        server.close()
    run([str(ROOT / "scripts" / "play.sh"), "--remove-from-menu"], desktop)


class Registry:
    """Windows' registry as winreg speaks to it, kept in memory: keys by path under HKEY_CURRENT_USER."""

    HKEY_CURRENT_USER, KEY_WRITE, REG_SZ = "HKCU", 0x20006, 1

    def __init__(self) -> None:
        self.keys: dict[str, dict[str, str]] = {}

    class _Key:
        def __init__(self, values: dict) -> None:
            self.values = values

        def __enter__(self):
            return self

        def __exit__(self, *_exc) -> None:
            pass

    def CreateKeyEx(self, root, path, reserved, access):     # noqa: N802 - winreg's names
        assert root == self.HKEY_CURRENT_USER and access == self.KEY_WRITE, "the user's own keys, no administrator"
        parts = path.split("\\")
        for n in range(1, len(parts) + 1):
            self.keys.setdefault("\\".join(parts[:n]), {})
        return self._Key(self.keys[path])

    def OpenKey(self, root, path):      # noqa: N802
        if path not in self.keys:
            raise FileNotFoundError(path)
        return self._Key(self.keys[path])

    def SetValueEx(self, key, name, reserved, kind, value):      # noqa: N802
        assert kind == self.REG_SZ
        key.values[name] = value

    def QueryValueEx(self, key, name):      # noqa: N802
        if name not in key.values:
            raise FileNotFoundError(name)
        return key.values[name], self.REG_SZ

    def DeleteKey(self, root, path):      # noqa: N802
        if path not in self.keys:
            raise FileNotFoundError(path)
        if any(other.startswith(path + "\\") for other in self.keys):
            raise PermissionError(f"{path} has keys below it")      # as Windows refuses
        del self.keys[path]


def test_on_windows_the_scheme_is_registered_for_the_user_and_removed_again():
    registry = Registry()
    game = [r"C:\Users\Ann\Games\villa-paletti\villa-paletti.exe"]
    assert not invite_links.registered(registry, game)
    invite_links.register(registry, game)
    classes = registry.keys[r"Software\Classes\villa-paletti"]
    assert classes == {"": "URL:Villa Paletti invite", "URL Protocol": ""}
    assert registry.keys[r"Software\Classes\villa-paletti\shell\open\command"] == {
        "": r'"C:\Users\Ann\Games\villa-paletti\villa-paletti.exe" "%1"'}
    assert registry.keys[r"Software\Classes\villa-paletti\DefaultIcon"] == {"": game[0] + ",0"}
    assert invite_links.registered(registry, game)
    assert not invite_links.registered(registry, [r"D:\elsewhere\villa-paletti.exe"]), "another copy of the game"
    invite_links.unregister(registry)
    assert not any(path.startswith(r"Software\Classes\villa-paletti") for path in registry.keys)
    assert r"Software\Classes" in registry.keys, "nothing but the game's own keys went"
    invite_links.unregister(registry)      # twice: nothing to remove, nothing said


def test_a_checkout_on_windows_registers_its_python_without_a_console(tmp_path, monkeypatch):
    python = tmp_path / "Scripts" / "python.exe"
    python.parent.mkdir()
    python.write_bytes(b"")
    (python.parent / "pythonw.exe").write_bytes(b"")
    monkeypatch.setattr(invite_links.sys, "executable", str(python))
    monkeypatch.delattr(invite_links.sys, "frozen", raising=False)
    assert invite_links.program() == [str(python.parent / "pythonw.exe"), "-m", "villa"]
    assert invite_links.command_line(invite_links.program()).endswith('"-m" "villa" "%1"')


# --- macOS: a link clicked reaches the running game as an Apple Event, queued for the window ---

class _Tasks:
    def __init__(self) -> None:
        self.tasks = []

    def add(self, task, name):
        self.tasks.append(task)

    def frame(self) -> None:
        for task in self.tasks:
            assert task(SimpleNamespace(cont="cont")) == "cont"


class _Front:
    """What `follow_links` sees of the window's front: a game's screen up or not, the menus, online play."""

    def __init__(self) -> None:
        self.screen, self.said = None, []
        self.stage = SimpleNamespace(task_mgr=_Tasks())
        self.online_play = SimpleNamespace(invited=lambda invite: self.said.append(("invited", str(invite))))

    def main_menu(self) -> None:
        self.said.append(("main menu",))


def test_off_macos_the_game_answers_no_apple_events_and_starts_as_ever():
    if sys.platform == "darwin":
        pytest.skip("on macOS the runtime is there to answer them")
    links = Links()
    assert links.listen() is False and links.take() is None


def test_a_link_clicked_opens_its_room_from_the_menus_and_waits_while_a_game_is_played_here(caplog):
    front, links = _Front(), Links()
    follow_links(front, links)
    front.screen = object()                       # a game under way here
    links.clicked(INVITE)                     # as the runtime's "get URL" handler passes it on
    front.stage.task_mgr.frame()
    assert front.said == [], "a game under way is not left for a link"
    front.screen = None                           # back at the menus
    front.stage.task_mgr.frame()
    assert front.said == [("main menu",), ("invited", INVITE)]
    links.clicked("villa-paletti://nowhere")      # a broken link: said in the log, nothing else happens
    front.stage.task_mgr.frame()
    front.stage.task_mgr.frame()
    assert len(front.said) == 2 and "not an invite" in caplog.text
