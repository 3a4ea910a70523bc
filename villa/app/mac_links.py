"""Invites clicked on macOS. The app's Info.plist declares the villa-paletti:// scheme, but macOS does not pass a
clicked link on the command line as Linux and Windows do: it starts the app (or brings the running one forward)
and sends it an Apple Event, "get URL". The game answers that event here, through the Objective-C runtime
(ctypes: nothing to install), and queues the link for the window, which opens it as a link given on the command
line is opened (`Links.take`, once a frame).

    links = Links()
    links.listen()            # before the window opens: a link that started the app comes just after
    link = links.take()       # once a frame: the next link clicked, or None
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import sys
from collections import deque

log = logging.getLogger(__name__)


def _four(code: bytes) -> int:
    """An Apple Event four-character code as the number the runtime takes."""
    return int.from_bytes(code, "big")


INTERNET_EVENT_CLASS = AE_GET_URL = _four(b"GURL")
KEY_DIRECT_OBJECT = _four(b"----")
HANDLER_CLASS = b"VillaPalettiLinks"


class Links:
    """Links the desktop sent this running game, in the order clicked."""

    def __init__(self) -> None:
        self._clicked: deque[str] = deque()
        self._kept: list = []            # what the runtime calls back into: alive as long as the game

    def clicked(self, link: str) -> None:
        if link:
            self._clicked.append(link)

    def take(self) -> str | None:
        return self._clicked.popleft() if self._clicked else None

    def listen(self) -> bool:
        """Answer the desktop's "get URL" events from now on (macOS only). False where there are none to answer,
        or the runtime could not be reached (the game then starts as ever; a link only opens it)."""
        if sys.platform != "darwin":
            return False
        try:
            self._kept = _listen(self.clicked)
        except (OSError, AttributeError, TypeError, ValueError) as trouble:
            log.warning("links clicked will not reach the game: %s", trouble)
            return False
        return True


def _listen(clicked) -> list:
    """Register an object whose `handleURL:withReply:` the Apple Event manager calls with each "get URL" event."""
    objc = ctypes.cdll.LoadLibrary(ctypes.util.find_library("objc"))
    ctypes.cdll.LoadLibrary(ctypes.util.find_library("Foundation"))
    objc.objc_getClass.restype = ctypes.c_void_p
    objc.objc_getClass.argtypes = [ctypes.c_char_p]
    objc.sel_registerName.restype = ctypes.c_void_p
    objc.sel_registerName.argtypes = [ctypes.c_char_p]
    objc.objc_allocateClassPair.restype = ctypes.c_void_p
    objc.objc_allocateClassPair.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
    objc.objc_registerClassPair.argtypes = [ctypes.c_void_p]
    objc.class_addMethod.restype = ctypes.c_bool
    objc.class_addMethod.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p]
    address = ctypes.cast(objc.objc_msgSend, ctypes.c_void_p).value

    def send(restype, *argtypes):
        """objc_msgSend with this exact prototype (on arm64 it must not be called as a variadic function)."""
        return ctypes.CFUNCTYPE(restype, ctypes.c_void_p, ctypes.c_void_p, *argtypes)(address)

    sel = objc.sel_registerName
    to_object = send(ctypes.c_void_p)
    to_object_keyword = send(ctypes.c_void_p, ctypes.c_uint32)
    to_text = send(ctypes.c_char_p)
    set_handler = send(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint32)

    def handle(_self, _cmd, event, _reply) -> None:
        try:
            descriptor = to_object_keyword(event, sel(b"paramDescriptorForKeyword:"), KEY_DIRECT_OBJECT)
            text = to_object(descriptor, sel(b"stringValue")) if descriptor else None
            link = to_text(text, sel(b"UTF8String")) if text else None
            if link:
                clicked(link.decode("utf-8", "replace"))
        except Exception:          # a callback from C must not raise through the runtime
            log.exception("a link clicked could not be read")

    handler_type = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
    implementation = handler_type(handle)
    cls = objc.objc_getClass(HANDLER_CLASS)
    if not cls:
        cls = objc.objc_allocateClassPair(objc.objc_getClass(b"NSObject"), HANDLER_CLASS, 0)
        if not cls:
            raise OSError("the runtime made no class to hear links in")
        if not objc.class_addMethod(cls, sel(b"handleURL:withReply:"), ctypes.cast(implementation, ctypes.c_void_p),
                                    b"v@:@@"):
            raise OSError("the runtime took no method to hear links with")
        objc.objc_registerClassPair(cls)
    handler = to_object(to_object(cls, sel(b"alloc")), sel(b"init"))
    manager = to_object(objc.objc_getClass(b"NSAppleEventManager"), sel(b"sharedAppleEventManager"))
    if not handler or not manager:
        raise OSError("no Apple Event manager to hear links from")
    set_handler(manager, sel(b"setEventHandler:andSelector:forEventClass:andEventID:"), handler,
                sel(b"handleURL:withReply:"), INTERNET_EVENT_CLASS, AE_GET_URL)
    return [implementation, handle, handler, to_object, to_object_keyword, to_text, set_handler, objc]
