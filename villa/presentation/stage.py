"""The one ShowBase of the process, and the Panda3D globals read through it.

Modules take what they need from `stage` (stage.base, stage.render, stage.loader ...)
instead of the builtins Panda3D's ShowBase would otherwise inject.
"""

from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass
from typing import Callable

from direct.showbase.ShowBase import ShowBase
from panda3d.core import ClockObject, ExecutionEnvironment, ModifierButtons, loadPrcFileData

from villa.presentation import assets, quality
from villa.presentation.drawing import Drawing

TEXTURES = assets.TEXTURES


class NoDisplay(RuntimeError):
    """There is no X display to open a window on."""

    def __init__(self) -> None:
        super().__init__(
            "no display: DISPLAY is not set; run the game on a desktop, or on a virtual screen with "
            "xvfb-run -a -s '-screen 0 1280x720x24' villa-paletti ... (Debian package: xvfb)"
        )


@dataclass(frozen=True)
class WindowOptions:
    width: int = 1280
    height: int = 720
    title: str = assets.WINDOW_TITLE
    gl_finish: bool = False      # wait for the GPU each frame: only for honest frame timings
    sync_video: bool = True
    fixed_frame_rate: float = 0  # >0: the clock advances exactly 1/rate per frame, every frame drawn (tests,
                                 # screenshots); 0: real time, drawn as it changes (villa.presentation.drawing)
    sound: bool = True           # False: Panda3D's silent audio library (screenshots, benchmarks, tests)
    offscreen: bool = False      # an offscreen buffer of this size instead of a window (a clip made)


class Stage:
    """Holds the ShowBase and its globals once `open_window` has run."""

    base = None
    render = None
    render2d = None
    aspect2d = None
    loader = None
    task_mgr = None
    camera = None
    cam = None
    win = None
    mouse_watcher = None
    clock = None
    drawing = None              # when the window draws (None: every frame, as in tests and screenshots)
    graphics_quality = "auto"   # the settings' choice, for every view of the villa made on this stage

    @property
    def is_open(self) -> bool:
        return self.base is not None

    def moves_while(self, moving: Callable[[], bool]) -> Callable[[], None]:
        """Every frame drawn while `moving()` says the picture changes by itself (see villa.presentation.drawing);
        returns the way to stop asking."""
        return self.drawing.moves_while(moving) if self.drawing is not None else lambda: None

    def follows(self, buffer) -> Callable[[], None]:
        """`buffer` is drawn only for the window: left out with it. Returns the way to stop."""
        return self.drawing.follows(buffer) if self.drawing is not None else lambda: None

    def changed(self) -> None:
        """Something shows anew that no input set going: drawn at once."""
        if self.drawing is not None:
            self.drawing.changed()


stage = Stage()


_alsa_handler = None   # kept alive: ALSA calls it


def quiet_audio_errors() -> None:
    """Keep a machine without a sound device from printing audio errors (OpenAL, ALSA, Panda3D)."""
    global _alsa_handler
    os.environ.setdefault("ALSOFT_LOGLEVEL", "0")
    if _alsa_handler is None:
        loadPrcFileData("villa-sound", "notify-level-audio fatal")
        try:
            asound = ctypes.CDLL("libasound.so.2")
            handler_type = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int,
                                            ctypes.c_char_p)
            _alsa_handler = handler_type(lambda *args: None)
            asound.snd_lib_error_set_handler(_alsa_handler)
        except (OSError, AttributeError):
            _alsa_handler = False  # no ALSA here: nothing to quieten


def _configure(options: WindowOptions) -> None:
    # Panda3D keeps its own copy of the environment, taken when it was loaded: the display may
    # have been set since (a virtual screen started for tests, benchmarks or screenshots).
    ExecutionEnvironment.setEnvironmentVariable("DISPLAY", os.environ["DISPLAY"])
    loadPrcFileData("villa", "\n".join([
        f"win-size {options.width} {options.height}",
        f"window-title {options.title}",
        f"icon-filename {assets.panda_path(assets.window_icon())}",
        f"x-wm-class {assets.APP_NAME}",       # matches the desktop entry's StartupWMClass
        f"x-wm-class-name {assets.APP_NAME}",
        "win-fixed-size false",
        "load-display pandagl",
        f"window-type {'offscreen' if options.offscreen else 'onscreen'}",
        f"audio-library-name {'p3openal_audio' if options.sound else 'null'}",
        "framebuffer-multisample false",
        "framebuffer-srgb false",
        "textures-power-2 none",
        "notify-level warning",
        "notify-level-device fatal",
        "notify-level-x11display error",
        "notify-level-glgsg error",
        "default-directnotify-level warning",
        f"gl-finish {'true' if options.gl_finish else 'false'}",
        f"sync-video {'true' if options.sync_video else 'false'}",
        f"model-path {assets.panda_path(TEXTURES)}",
        f"model-path {assets.panda_path(assets.MODELS)}",
    ]))


def _software_renderer_threads() -> None:
    """Mesa's software renderer (llvmpipe) draws with one thread per core. The kernel may be a
    scheduler tick late waking one of them, leaving its core idle meanwhile (a frame's spike);
    with one thread more, the others take up its share of the picture. A player's own
    LP_NUM_THREADS wins."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    os.environ.setdefault("LP_NUM_THREADS", str(cores + 1))


def check_display() -> None:
    """`NoDisplay` unless there is a display to open the window on (asked before anything the window is for)."""
    if not stage.is_open and not os.environ.get("DISPLAY"):
        raise NoDisplay()


def open_window(options: WindowOptions = WindowOptions()):
    """Open the game window (once per process) and fill in `stage`."""
    if stage.is_open:
        return stage.base
    check_display()
    if options.sound:
        quiet_audio_errors()
    _configure(options)
    _software_renderer_threads()
    base = ShowBase()
    if base.win is None:
        raise NoDisplay()
    base.disableMouse()
    if options.offscreen:   # no pointer and no keys: nothing to set up for them
        _fill_stage(base)
        stage.clock = ClockObject.getGlobalClock()
        stage.clock.setMode(ClockObject.M_non_real_time)
        stage.clock.setFrameRate(options.fixed_frame_rate or 30)
        return base
    # Keys arrive bare ("p", "="), never as "shift-p": Shift+= is the "+" key on many keyboards,
    # and a held Shift must not silence the game's keys.
    base.mouseWatcherNode.setModifierButtons(ModifierButtons())
    base.buttonThrowers[0].node().setModifierButtons(ModifierButtons())
    base.setFrameRateMeter(False)
    _fill_stage(base)
    stage.clock = ClockObject.getGlobalClock()
    if options.fixed_frame_rate > 0:
        stage.clock.setMode(ClockObject.M_non_real_time)
        stage.clock.setFrameRate(options.fixed_frame_rate)
    else:   # where the display syncs, it paces the frames drawn; a software renderer's never does
        stage.drawing = Drawing(base, stage.clock, paced_by_display=options.sync_video
                                and not quality.is_software(quality.renderer_of(stage)))
    return base


def _fill_stage(base) -> None:
    stage.base = base
    stage.render = base.render
    stage.render2d = base.render2d
    stage.aspect2d = base.aspect2d
    stage.loader = base.loader
    stage.task_mgr = base.taskMgr
    stage.camera = base.camera
    stage.cam = base.cam
    stage.win = base.win
    stage.mouse_watcher = base.mouseWatcherNode


def close_window() -> None:
    if stage.drawing is not None:
        stage.drawing.stop()
    if stage.base is not None:
        stage.base.destroy()
    for name in ("drawing", "base", "render", "render2d", "aspect2d", "loader", "task_mgr", "camera", "cam", "win",
                 "mouse_watcher", "clock"):
        setattr(stage, name, None)
