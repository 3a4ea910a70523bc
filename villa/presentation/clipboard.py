"""The desktop's clipboard, for the lobby's Copy and the join form's Paste (Panda3D 1.10 has none of its own; on
Windows its text fields take Ctrl+V themselves).

    clipboard.copy(text) -> bool        # False: this computer gave the game no way to the clipboard
    clipboard.paste() -> str | None

Windows: the system's own (user32, through ctypes). macOS: pbcopy and pbpaste. Linux: wl-copy and wl-paste on a
Wayland desktop, else xclip or xsel where one is installed (each keeps what was copied after the game ends), else
the game holds the X11 clipboard itself while it runs (`x11_clipboard`).
"""

from __future__ import annotations

import ctypes
import logging
import os
import shutil
import subprocess
import sys

from villa.presentation import x11_clipboard

log = logging.getLogger(__name__)

TOOL_S = 3.0             # s a clipboard program has to take or give the text
# (copy, paste) programs, in order, where the desktop has them
LINUX_TOOLS = (
    (["wl-copy"], ["wl-paste", "--no-newline"]),
    (["xclip", "-selection", "clipboard", "-in"], ["xclip", "-selection", "clipboard", "-out"]),
    (["xsel", "--clipboard", "--input"], ["xsel", "--clipboard", "--output"]),
)
MACOS_TOOLS = ((["pbcopy"], ["pbpaste"]),)


def copy(text: str) -> bool:
    try:
        if sys.platform == "win32":
            return _windows_copy(text)
        for copying, _pasting in _tools():
            if _run(copying, text) is not None:
                return True
        return sys.platform != "darwin" and x11_clipboard.copy(text)
    except (OSError, ValueError) as error:
        log.warning("nothing was copied: %s", error)
        return False


def paste() -> str | None:
    try:
        if sys.platform == "win32":
            return _windows_paste()
        for _copying, pasting in _tools():
            said = _run(pasting)
            if said is not None:
                return said
        return x11_clipboard.paste() if sys.platform != "darwin" else None
    except (OSError, ValueError) as error:
        log.warning("nothing was pasted: %s", error)
        return None


def _tools() -> list[tuple[list[str], list[str]]]:
    if sys.platform == "darwin":
        return list(MACOS_TOOLS)
    wayland = bool(os.environ.get("WAYLAND_DISPLAY"))
    return [(c, p) for c, p in LINUX_TOOLS if shutil.which(c[0]) and (wayland or c[0] != "wl-copy")]


def _run(command: list[str], given: str | None = None) -> str | None:
    """What a clipboard program printed (None: it failed). Its output goes to a file, not a pipe: a program that
    stays to hold the clipboard (xclip, xsel, wl-copy) keeps what it inherited open."""
    try:
        with open(os.devnull, "wb") as nowhere:
            if given is not None:
                done = subprocess.run(command, input=given.encode("utf-8"), stdout=nowhere, stderr=nowhere,
                                      timeout=TOOL_S)
                return "" if done.returncode == 0 else None
            done = subprocess.run(command, stdout=subprocess.PIPE, stderr=nowhere, timeout=TOOL_S)
            return done.stdout.decode("utf-8", "replace") if done.returncode == 0 else None
    except (OSError, subprocess.SubprocessError) as error:
        log.info("%s did not work: %s", command[0], error)
        return None


# --- Windows ----------------------------------------------------------------------------------------------

CF_UNICODETEXT, GMEM_MOVEABLE = 13, 0x0002


def _win32():
    user32, kernel32 = ctypes.WinDLL("user32"), ctypes.WinDLL("kernel32")
    kernel32.GlobalAlloc.restype = ctypes.c_void_p
    kernel32.GlobalAlloc.argtypes = [ctypes.c_uint, ctypes.c_size_t]
    kernel32.GlobalLock.restype = ctypes.c_void_p
    kernel32.GlobalLock.argtypes = [ctypes.c_void_p]
    kernel32.GlobalUnlock.argtypes = [ctypes.c_void_p]
    user32.OpenClipboard.argtypes = [ctypes.c_void_p]
    user32.SetClipboardData.restype = ctypes.c_void_p
    user32.SetClipboardData.argtypes = [ctypes.c_uint, ctypes.c_void_p]
    user32.GetClipboardData.restype = ctypes.c_void_p
    user32.GetClipboardData.argtypes = [ctypes.c_uint]
    return user32, kernel32


def _windows_copy(text: str) -> bool:
    user32, kernel32 = _win32()
    data = text.encode("utf-16-le") + b"\0\0"
    handle = kernel32.GlobalAlloc(GMEM_MOVEABLE, len(data))
    if not handle or not user32.OpenClipboard(None):
        return False
    try:
        where = kernel32.GlobalLock(handle)
        ctypes.memmove(where, data, len(data))
        kernel32.GlobalUnlock(handle)
        user32.EmptyClipboard()
        return bool(user32.SetClipboardData(CF_UNICODETEXT, handle))   # the clipboard owns the memory now
    finally:
        user32.CloseClipboard()


def _windows_paste() -> str | None:
    user32, kernel32 = _win32()
    if not user32.OpenClipboard(None):
        return None
    try:
        handle = user32.GetClipboardData(CF_UNICODETEXT)
        if not handle:
            return None
        where = kernel32.GlobalLock(handle)
        try:
            return ctypes.wstring_at(where)
        finally:
            kernel32.GlobalUnlock(handle)
    finally:
        user32.CloseClipboard()
