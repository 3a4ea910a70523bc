"""The X11 clipboard without any program of the desktop's: the game itself owns the CLIPBOARD selection and hands
its text to whoever asks (a chat's paste), from a thread with its own connection to the X server, until another
program takes the clipboard or the game ends; and it asks the owner for the clipboard's text to paste.

This is what `clipboard` falls back on where none of wl-copy, xclip or xsel is installed. It speaks to libX11
through ctypes (libX11 is there wherever the game's window is); Wayland desktops run the game on XWayland,
which passes the X11 clipboard on to their own.
"""

from __future__ import annotations

import ctypes
import logging
import os
import select
import threading
import time

log = logging.getLogger(__name__)

SELECTION_CLEAR, SELECTION_REQUEST, SELECTION_NOTIFY = 29, 30, 31
XA_ATOM, PROP_MODE_REPLACE, ANY_PROPERTY_TYPE, CURRENT_TIME = 4, 0, 0, 0
TEXT_TARGETS = ("UTF8_STRING", "STRING", "TEXT", "text/plain;charset=utf-8", "text/plain")
ANSWER_S = 1.0           # s the clipboard's owner has to hand over its text


class _Request(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("owner", ctypes.c_ulong), ("requestor", ctypes.c_ulong),
                ("selection", ctypes.c_ulong), ("target", ctypes.c_ulong), ("property", ctypes.c_ulong),
                ("time", ctypes.c_ulong)]


class _Notify(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("requestor", ctypes.c_ulong), ("selection", ctypes.c_ulong),
                ("target", ctypes.c_ulong), ("property", ctypes.c_ulong), ("time", ctypes.c_ulong)]


class _Event(ctypes.Union):
    _fields_ = [("type", ctypes.c_int), ("request", _Request), ("notify", _Notify), ("pad", ctypes.c_long * 24)]


def _library():
    try:
        x11 = ctypes.CDLL("libX11.so.6")
    except OSError:
        return None
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    x11.XDefaultRootWindow.restype = ctypes.c_ulong
    x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x11.XCreateSimpleWindow.restype = ctypes.c_ulong
    x11.XCreateSimpleWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong] + [ctypes.c_int] * 2 + [ctypes.c_uint] * 3 \
        + [ctypes.c_ulong] * 2
    x11.XInternAtom.restype = ctypes.c_ulong
    x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x11.XSetSelectionOwner.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    x11.XGetSelectionOwner.restype = ctypes.c_ulong
    x11.XGetSelectionOwner.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
    x11.XConvertSelection.argtypes = [ctypes.c_void_p] + [ctypes.c_ulong] * 5
    x11.XChangeProperty.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_int,
                                    ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
    x11.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.POINTER(_Event)]
    x11.XPending.argtypes = [ctypes.c_void_p]
    x11.XNextEvent.argtypes = [ctypes.c_void_p, ctypes.POINTER(_Event)]
    x11.XConnectionNumber.argtypes = [ctypes.c_void_p]
    x11.XFlush.argtypes = [ctypes.c_void_p]
    x11.XDestroyWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
    x11.XGetWindowProperty.argtypes = [
        ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_long, ctypes.c_long, ctypes.c_int, ctypes.c_ulong,
        ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_ulong),
        ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_void_p)]
    x11.XFree.argtypes = [ctypes.c_void_p]
    return x11


_X11 = None
_lock = threading.Lock()
_owner: _Owner | None = None


def _x11():
    global _X11
    if _X11 is None:
        _X11 = _library() or False
    return _X11 or None


class _Connection:
    """A connection to the X server of its own, with a window no one sees, to hold or ask for a selection."""

    def __init__(self) -> None:
        self.x = _x11()
        if self.x is None or not os.environ.get("DISPLAY"):
            raise OSError("no X11 display")
        self.display = self.x.XOpenDisplay(None)
        if not self.display:
            raise OSError("the X11 display does not answer")
        root = self.x.XDefaultRootWindow(self.display)
        self.window = self.x.XCreateSimpleWindow(self.display, root, 0, 0, 1, 1, 0, 0, 0)
        self.fd = self.x.XConnectionNumber(self.display)

    def atom(self, name: str) -> int:
        return self.x.XInternAtom(self.display, name.encode("ascii"), 0)

    def next_event(self, seconds: float) -> _Event | None:
        if not self.x.XPending(self.display):
            ready, _w, _e = select.select([self.fd], [], [], seconds)
            if not ready or not self.x.XPending(self.display):
                return None
        event = _Event()
        self.x.XNextEvent(self.display, ctypes.byref(event))
        return event

    def close(self) -> None:
        self.x.XDestroyWindow(self.display, self.window)
        self.x.XCloseDisplay(self.display)


class _Owner(threading.Thread):
    """Holds the CLIPBOARD with `text` until another program takes it or `stop()`."""

    def __init__(self, text: str) -> None:
        super().__init__(name="villa-clipboard", daemon=True)
        self.text = text.encode("utf-8")
        self.owning = threading.Event()
        self.done = threading.Event()
        self._stop_asked = False

    def stop(self) -> None:
        self._stop_asked = True
        self.join(1.0)

    def run(self) -> None:
        try:
            connection = _Connection()
        except OSError as error:
            log.info("no X11 clipboard: %s", error)
            self.done.set()
            return
        try:
            self._serve(connection)
        finally:
            connection.close()
            self.done.set()

    def _serve(self, c: _Connection) -> None:
        x, clipboard = c.x, c.atom("CLIPBOARD")
        targets, texts = c.atom("TARGETS"), {c.atom(name) for name in TEXT_TARGETS}
        x.XSetSelectionOwner(c.display, clipboard, c.window, CURRENT_TIME)
        x.XFlush(c.display)
        if x.XGetSelectionOwner(c.display, clipboard) != c.window:
            return
        self.owning.set()
        while not self._stop_asked:
            event = c.next_event(0.2)
            if event is None:
                continue
            if event.type == SELECTION_CLEAR:
                return          # another program has the clipboard now
            if event.type == SELECTION_REQUEST:
                self._answer(c, event.request, targets, texts)

    def _answer(self, c: _Connection, asked: _Request, targets: int, texts: set[int]) -> None:
        x = c.x
        into = asked.property or asked.target
        if asked.target == targets:
            offered = (ctypes.c_ulong * (len(texts) + 1))(targets, *sorted(texts))
            x.XChangeProperty(c.display, asked.requestor, into, XA_ATOM, 32, PROP_MODE_REPLACE,
                              ctypes.cast(offered, ctypes.c_void_p), len(offered))
        elif asked.target in texts:
            data = ctypes.create_string_buffer(self.text, len(self.text))
            x.XChangeProperty(c.display, asked.requestor, into, asked.target, 8, PROP_MODE_REPLACE,
                              ctypes.cast(data, ctypes.c_void_p), len(self.text))
        else:
            into = 0            # not a kind of text: refused
        answer = _Event()
        answer.notify = _Notify(SELECTION_NOTIFY, 0, 1, c.display, asked.requestor, asked.selection, asked.target,
                                into, asked.time)
        x.XSendEvent(c.display, asked.requestor, 0, 0, ctypes.byref(answer))
        x.XFlush(c.display)


def copy(text: str) -> bool:
    """The game owns the clipboard with `text` (True), or there is no X11 display to own it on (False)."""
    global _owner
    with _lock:
        if _owner is not None:
            _owner.stop()
        _owner = _Owner(text)
        _owner.start()
        end = time.monotonic() + ANSWER_S     # the X server says at once whether the game owns the clipboard
        while not _owner.owning.wait(0.005) and not _owner.done.is_set() and time.monotonic() < end:
            pass
        return _owner.owning.is_set()


def paste() -> str | None:
    """The clipboard's text (None: it holds none, or there is no X11 display)."""
    with _lock:
        if _owner is not None and _owner.owning.is_set() and not _owner.done.is_set():
            return _owner.text.decode("utf-8")
    try:
        c = _Connection()
    except OSError:
        return None
    try:
        return _ask(c)
    finally:
        c.close()


def _ask(c: _Connection) -> str | None:
    x, into = c.x, c.atom("VILLA_PASTE")
    for target in ("UTF8_STRING", "STRING"):
        x.XConvertSelection(c.display, c.atom("CLIPBOARD"), c.atom(target), into, c.window, CURRENT_TIME)
        x.XFlush(c.display)
        end = time.monotonic() + ANSWER_S
        while (left := end - time.monotonic()) > 0:
            event = c.next_event(left)
            if event is not None and event.type == SELECTION_NOTIFY:
                break
        else:
            return None         # nobody owns the clipboard, or its owner did not answer
        if event.notify.property:
            return _property_text(c, into)
    return None


def _property_text(c: _Connection, into: int) -> str | None:
    kind, size, count, after = ctypes.c_ulong(), ctypes.c_int(), ctypes.c_ulong(), ctypes.c_ulong()
    data = ctypes.c_void_p()
    if c.x.XGetWindowProperty(c.display, c.window, into, 0, 65536, 1, ANY_PROPERTY_TYPE, ctypes.byref(kind),
                              ctypes.byref(size), ctypes.byref(count), ctypes.byref(after), ctypes.byref(data)) != 0:
        return None
    try:
        if not data.value or size.value != 8:
            return None
        return ctypes.string_at(data.value, count.value).decode("utf-8", "replace")
    finally:
        if data.value:
            c.x.XFree(data)
