"""A clip of the fall as a file: animated WebP, written atomically into the player's pictures folder.

    villa-paletti --clip REPLAY.json --out FILE     # no window: an offscreen buffer (on Xvfb if there is no display)

In the window a clip is made by a helper process (`ClipJob`) at a low priority, so the game's own frames keep
their cores: it draws the frames off screen (`villa.presentation.clip.Film`) and hands them to Pillow's WebP
encoder on a thread of its own, frame by frame, into a temporary file beside the clip; the game renames it
into place once it is whole, and removes it when the clip is cancelled or fails.

Why animated WebP through Pillow: chat apps and browsers show it inline and loop it, it packs a 10 s clip at
720p into a few megabytes, and Pillow (HPND licence, libwebp under BSD) ships wheels for every system the
game is built for. H.264 would need FFmpeg or x264 (GPL) or Cisco's OpenH264 (a binary of their own).
"""

from __future__ import annotations

import errno
import logging
import multiprocessing
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import platformdirs
from PIL import Image, WebPImagePlugin   # (named: a frozen game finds no plugin by its name alone)

from villa.app import saves
from villa.app.logs import PlayerError
from villa.app.settings import load_settings
from villa.app.storage import STALE_AFTER_S, shown_path
from villa.match.motion import RATE, Motion
from villa.match.record import Record
from villa.presentation import i18n
from villa.presentation.clip import Caption, Film, Shot
from villa.presentation.stage import WindowOptions, close_window, open_window, stage

log = logging.getLogger(__name__)
WEBP_WRITES = WebPImagePlugin.SUPPORTED     # False: a Pillow built without libwebp

SIZE = (1280, 720)
QUALITY = 55                # WebP's lossy quality: the pieces' marks stay crisp, a 10 s clip about 6 MB
METHOD = 0                  # the encoder's fastest effort: it keeps pace with the frames drawn
KEY_FRAMES = (4, 6)         # a whole picture at least every 6 frames: a lossy frame drawn over the one before
                            # drifts off as the camera turns (the table smears) until the next whole one
FRAMES_AHEAD = 4            # frames drawn and waiting for the encoder
NICENESS = 10               # the helper yields to the game's own frames
PR_SET_PDEATHSIG = 1


class Cancelled(Exception):
    """The clip was cancelled: nothing is written."""


# --- where and under what name ---------------------------------------------------------------

def clip_folder() -> Path:
    """The player's pictures folder (`VILLA_HOME/clips` when that is set, as in the tests)."""
    home = os.environ.get("VILLA_HOME")
    return Path(home) / "clips" if home else Path(platformdirs.user_pictures_dir())


def clip_name(motion: Motion) -> str:
    """'villa-paletti-fall-2026-12-01-2143.webp' (the last move's: 'villa-paletti-move-...'), in local time."""
    kind = "fall" if motion.fell else "move"
    return f"villa-paletti-{kind}-{motion.when().astimezone().strftime('%Y-%m-%d-%H%M')}.webp"


def free_path(folder: Path, name: str) -> Path:
    """`folder/name`, or with -2, -3 ... before the suffix where that is taken: a clip never replaces another."""
    path, stem, number = folder / name, Path(name).stem, 2
    while path.exists():
        path, number = folder / f"{stem}-{number}{Path(name).suffix}", number + 1
    return path


def temporary_beside(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.part")


def clean_left_parts(folder: Path | None = None) -> None:
    """Remove what a clip cut short by a crash or a kill left in the pictures folder (its half-written file)."""
    now = time.time()
    try:
        leftovers = list((folder or clip_folder()).glob(".villa-paletti-*.part"))
    except OSError:
        return
    for path in leftovers:
        try:
            if now - path.stat().st_mtime > STALE_AFTER_S:
                path.unlink()
        except OSError:
            continue


# --- the frames into a file --------------------------------------------------------------------

class _Frames(Image.Image):
    """The clip's frames as one image of many frames for Pillow's WebP writer: frame n is taken from `source`
    when the writer seeks it, so no more than a few frames are ever held at once."""

    def __init__(self, size: tuple[int, int], count: int, source: Callable[[], bytes]) -> None:
        super().__init__()
        self._size, self._mode = size, "RGB"
        self.n_frames, self.is_animated = count, count > 1
        self.info = {"duration": round(1000 / RATE)}
        self._source, self._at = source, -1
        self.seek(0)

    def seek(self, frame: int) -> None:
        if frame <= self._at:
            return           # the writer seeks back to the first frame once it is done: nothing to draw
        self.im = Image.frombytes("RGB", self._size, self._source()).im
        self._at = frame

    def tell(self) -> int:
        return max(0, self._at)


def write_webp(out, size: tuple[int, int], count: int, frames: Callable[[int], bytes],
               progress: Callable[[int], None] = lambda done: None) -> None:
    """Frame i from `frames(i)` (RGB bytes, the top row first), all `count` of them, as an animated WebP into the
    open binary file `out`. Frames are drawn here and encoded on a thread of its own meanwhile."""
    if not WEBP_WRITES:
        raise OSError(errno.ENOSYS, "this Pillow cannot write WebP")
    waiting: queue.Queue = queue.Queue(FRAMES_AHEAD)
    failed: list[BaseException] = []

    def encode() -> None:
        try:
            clip = _Frames(size, count, waiting.get)
            clip.save(out, "WEBP", save_all=True, duration=round(1000 / RATE), loop=0, quality=QUALITY,
                      method=METHOD, kmin=KEY_FRAMES[0], kmax=KEY_FRAMES[1])
        except BaseException as error:   # noqa: BLE001 - said by the drawing thread
            failed.append(error)
            while True:                  # let the drawing go on to its end
                try:
                    waiting.get_nowait()
                except queue.Empty:
                    break

    encoder = threading.Thread(target=encode, name="clip encoder", daemon=True)
    encoder.start()
    for index in range(count):
        if failed:
            break
        data = frames(index)
        while not failed:
            try:
                waiting.put(data, timeout=0.2)
                break
            except queue.Full:
                continue
        progress(index + 1)
    encoder.join()
    if failed:
        raise failed[0]


def render(motion: Motion, caption: Caption, path: Path, size: tuple[int, int] = SIZE, shot: Shot | None = None,
           progress: Callable[[int], None] = lambda done: None) -> None:
    """Draw the clip off screen and write it to `path` (a file of its own: the caller renames it into place).
    Opens the process's offscreen buffer of `size` if no window is open."""
    opened = not stage.is_open
    if opened:
        open_window(WindowOptions(width=size[0], height=size[1], sync_video=False, fixed_frame_rate=RATE,
                                  sound=False, offscreen=True))
    film = Film(stage, motion, caption, shot)
    try:
        with open(path, "wb") as out:
            write_webp(out, film.size, len(film), film.draw, progress)
            out.flush()
            os.fsync(out.fileno())
    finally:
        film.close()
        if opened:
            close_window()


# --- from the command line --------------------------------------------------------------------

def from_command_line(replay: Path, out: Path, size: tuple[int, int]) -> int:
    """`--clip REPLAY --out FILE`: the fall recorded in a replay or save, as a clip. A file that is no replay, or
    one without a fall, is a `PlayerError` (one sentence, exit code 2)."""
    record = saves.load(replay)
    if record.motion is None or not record.motion.fell:
        raise PlayerError(f"{shown_path(replay)} records no fall of the villa to make a clip of "
                          "(a game that was not brought down, or one saved before the game recorded falls)")
    if out.parent and not out.parent.is_dir():
        raise PlayerError(f"cannot write {shown_path(out)}: the folder {shown_path(out.parent)} does not exist")
    i18n.install(load_settings().language)   # the caption in the player's language
    temporary = temporary_beside(out)
    try:
        render(record.motion, Caption.of(record, record.motion), temporary, size)
        os.replace(temporary, out)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise PlayerError(f"cannot write {shown_path(out)}: {error.strerror or error}") from None
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return 0


# --- in the window: a helper process -----------------------------------------------------------

@dataclass(frozen=True)
class ClipOrder:
    motion: Motion
    caption: Caption
    path: str               # the temporary file the helper writes
    size: tuple[int, int] = SIZE
    shot: Shot | None = None


def _helper(order: ClipOrder, game: int, told) -> None:
    """The helper process: lower priority, ends with the game; draws and writes, telling its progress."""
    try:
        os.nice(NICENESS)
    except (OSError, AttributeError):
        pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes   # noqa: PLC0415 - Linux only
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != game:
        os._exit(0)
    try:
        render(order.motion, order.caption, Path(order.path), order.size, order.shot,
               lambda done: done % 5 == 0 and told.send(("frame", done)))
        told.send(("done", 0))
    except OSError as error:
        Path(order.path).unlink(missing_ok=True)
        told.send(("trouble", error.errno or 0, error.strerror or str(error)))
    except BaseException as error:   # noqa: BLE001 - told to the game, which says it in words
        Path(order.path).unlink(missing_ok=True)
        told.send(("trouble", 0, f"{type(error).__name__}: {error}"))


class ClipJob:
    """A clip made by a helper process; polled by the window each frame.

    `state`: "making", "saved" (`path`), "failed" (`error`: an OSError, or None for another failure),
    "cancelled"."""

    def __init__(self, record: Record, caption: Caption, folder: Path | None = None, size: tuple[int, int] = SIZE,
                 shot: Shot | None = None) -> None:
        motion = record.motion
        if motion is None:
            raise ValueError("the game recorded no motion")
        self.total = len(motion.frames)
        self.done = 0
        self.error: OSError | None = None
        self.folder = folder or clip_folder()
        self.path = free_path(self.folder, clip_name(motion))
        self.temporary = temporary_beside(self.path)
        self.state = "making"
        self.process = None
        try:                     # an unwritable or full folder is told at once, before any frame is drawn
            self.folder.mkdir(parents=True, exist_ok=True)
            with open(self.temporary, "wb") as probe:
                probe.write(b"\0" * 65536)
                probe.flush()
                os.fsync(probe.fileno())
        except OSError as error:
            self._failed(error)
            return
        context = multiprocessing.get_context("spawn")   # never forked: the window holds a graphics context
        self._heard, told = context.Pipe(duplex=False)
        order = ClipOrder(motion, caption, str(self.temporary), size, shot)
        self.process = context.Process(target=_helper, args=(order, os.getpid(), told), daemon=True,
                                       name="villa clip")
        self.process.start()
        told.close()

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 1.0

    def poll(self) -> str:
        """What the helper said since; the state now."""
        if self.state != "making":
            return self.state
        try:
            while self._heard.poll():
                said = self._heard.recv()
                if said[0] == "frame":
                    self.done = said[1]
                elif said[0] == "done":
                    self._finish()
                    return self.state
                else:
                    error = OSError(said[1], said[2]) if said[1] else None
                    log.warning("the clip could not be made: %s", said[2])
                    self._failed(error)
                    return self.state
        except (EOFError, OSError):
            pass
        if not self.process.is_alive() and self.state == "making":
            self._failed(None)   # it died without a word
        return self.state

    def _finish(self) -> None:
        self.process.join(5)
        try:
            os.replace(self.temporary, self.path)
        except OSError as error:
            self._failed(error)
            return
        self.done = self.total
        self.state = "saved"

    def _failed(self, error: OSError | None) -> None:
        self.error = error
        self.state = "failed"
        self._stop()

    def cancel(self) -> None:
        if self.state == "making":
            self.state = "cancelled"
            self._stop()

    def _stop(self) -> None:
        if self.process is not None and self.process.is_alive():
            self.process.terminate()
            self.process.join(5)
        try:
            self.temporary.unlink(missing_ok=True)
        except OSError:
            pass         # never made: its folder could not be


def open_folder(folder: Path) -> bool:
    """Show the folder in the system's file manager; False where that could not be started."""
    try:
        if sys.platform.startswith("win"):
            os.startfile(str(folder))   # noqa: S606 - the player's own folder
        else:
            opener = "open" if sys.platform == "darwin" else "xdg-open"
            subprocess.Popen([opener, str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
        return True
    except OSError as error:
        log.warning("the folder %s could not be opened: %s", folder, error)
        return False
