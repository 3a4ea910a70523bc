"""Play online: the small menu (host, join, rejoin a seat kept in the settings), where to host a game set
up on the new-game screen, and the join form. Each screen only gathers what was typed and hands it on;
what goes wrong comes back as a trouble's code (`tell_trouble`), said in one sentence under the form,
with every field kept as typed. While the window reaches for a server, the same line says so at once, with
a Cancel button under it (`connecting`). The join form's first line takes an invite whole (pasted with Paste, or
Ctrl+V), which names the room as well.
"""

from __future__ import annotations

import sys
from typing import Callable

from villa.match.setup import MAX_NAME, clean_name
from villa.online.invite import MAX_INVITE, code_in
from villa.online.protocol import Online, OnlineError
from villa.presentation import clipboard
from villa.presentation.fonts import drawable
from villa.presentation.i18n import N_, _
from villa.presentation.invite_words import bad_invite
from villa.presentation.menus import style
from villa.presentation.menus.base import Screen
from villa.presentation.words import refusal

MAX_ADDRESS = 200         # characters of a server's address: host:port, or a link pasted whole (an invite)
CODE_CHARS = 12           # a room code's five characters, with the spaces and dashes it may be pasted with

# why joining or hosting did not get as far as the lobby (codes from villa.app.online)
TROUBLES = {
    "bad address": N_("{address} is not a server's address: write it as name:port, such as 192.168.1.20:47170."),
    "bad port": N_("A port is a number from 1024 to 65535."),
    "no server": N_("No server answers at {address}: is it running, and is the address right?"),
    "no answer": N_("Nothing answered at {address} within {seconds} seconds: is the address right, and does the "
                    "network let the game through?"),
    "port busy": N_("The game could not host on port {port}: another program uses it. Try another port."),
    "no code": N_("Type the room's code."),
    "bad code": N_("{code} is not a room code: a code is five letters and digits, such as K7QXM, and never "
                   "uses {unused}."),
    "no room": N_("No room with the code {code} is open on that server."),
    "lost": N_("The connection to the server was lost."),
    "no seat": N_("No seat waits for you in room {code} any more."),
    "not opened": N_("The server at {address} did not open a room: it may be an older version."),
}


def trouble_words(trouble: str, **values) -> str:
    if trouble == "bad invite":
        return bad_invite(**values)
    return _(TROUBLES[trouble]).format(**values)


def connecting_words(address: str) -> str:
    return _("Connecting to {address} …").format(address=address)


def host_words() -> str:
    """The new-game screen's way on, when it sets up a game to host."""
    return _("Host this game")


def plan_words() -> str:
    """The new-game screen's way on, when the host changes the game in the lobby."""
    return _("Done")


class _Form(Screen):
    """A menu card with a line for what went wrong, or for the server being reached (with Cancel)."""

    notice = ""
    on_cancel: Callable[[], None] | None = None     # while connecting: what Cancel does

    def tell(self, words: str) -> None:
        """Say what went wrong (or nothing: ""); nothing waits on the network any more."""
        self.notice, self.on_cancel = words, None
        self._paint_notice()

    def tell_trouble(self, trouble, **values) -> None:
        """A trouble's code, or a refusal the server sent (words.refusal words it)."""
        self.tell(trouble_words(trouble, **values) if isinstance(trouble, str) else refusal(trouble))

    def connecting(self, address: str, on_cancel: Callable[[], None]) -> None:
        """"Connecting to …" at once, and Cancel under it until the server answers or the window gives up."""
        self.notice, self.on_cancel = connecting_words(address), on_cancel
        self._paint_notice()

    @property
    def waiting(self) -> bool:
        return self.on_cancel is not None

    def _cancel(self) -> None:
        cancel = self.on_cancel
        self.tell("")
        if cancel is not None:
            cancel()

    def _filled(self, field: str, typed: str) -> None:
        """A field typed in: a notice that asked for it goes once it holds something."""
        if typed.strip() and self.notice and self.notice in self.asks_for.get(field, ()):
            self.tell("")

    asks_for: dict[str, tuple[str, ...]] = {}      # the field each notice asks to fill, by its words (as shown)

    def _notice(self, y: float) -> None:
        self.widgets["notice"] = style.text(self.root, self.notice, pos=(0, y), scale=0.036, kind="serif",
                                            wordwrap=34)
        self.widgets["cancel"] = style.button(self.root, _("Cancel"), self._cancel, pos=(0, y - 0.11), width=0.4,
                                              height=0.085, kind="quiet", text_scale=0.04)
        self._paint_notice()

    def _paint_notice(self) -> None:
        if "notice" not in self.widgets:
            return
        notice, cancel = self.widgets["notice"], self.widgets["cancel"]
        notice["text"] = drawable(self.notice, "serif")
        notice["text_fg"] = style.INK_SOFT if self.waiting else style.TERRACOTTA_PRESS
        cancel.show() if self.waiting else cancel.hide()


def insecure_words() -> str:
    """The online menu of a window started with --insecure."""
    return _("Without encryption (--insecure): everything this window says online goes in the clear, and it "
             "plays only on servers started so.")


class OnlineMenu(_Form):
    """`rejoin_code`: the room of a seat kept in the settings that may still wait (None: no Rejoin); `insecure`:
    the window was started with --insecure (said under the title)."""

    def __init__(self, parent=None, *, on_host: Callable[[], None], on_join: Callable[[], None],
                 on_rejoin: Callable[[], None], on_back: Callable[[], None], rejoin_code: str | None = None,
                 notice: str = "", insecure: bool = False, **options) -> None:
        self.actions = {"host": on_host, "join": on_join, "rejoin": on_rejoin, "back": on_back}
        self.rejoin_code, self.notice, self.insecure = rejoin_code, notice, insecure
        super().__init__(parent, **options)

    def build(self) -> None:
        root = self.root
        style.panel(root, (-0.72, 0.72, -0.86, 0.74))
        style.title(root, _("Play online"), pos=(0, 0.56), scale=0.1)
        style.text(root, _("Friends play one game, each at their own computer."), pos=(0, 0.43), scale=0.04,
                   fg=style.INK_SOFT, kind="serif", wordwrap=30)
        if self.insecure:
            self.widgets["insecure"] = style.text(root, insecure_words(), pos=(0, -0.54), scale=0.032,
                                                  fg=style.TERRACOTTA_PRESS, kind="serif", wordwrap=40)
        entries = [("host", _("Host a game"), "primary"), ("join", _("Join a game"), "wood")]
        if self.rejoin_code:
            entries.append(("rejoin", _("Rejoin the game in room {code}").format(code=self.rejoin_code), "wood"))
        for i, (key, words, kind) in enumerate(entries):
            self.widgets[key] = style.button(root, words, self.actions[key], pos=(0, 0.24 - i * 0.17), width=1.0,
                                             height=0.12, kind=kind)
        self.widgets["back"] = style.button(root, _("Back"), self.actions["back"], pos=(0, -0.7), width=0.5,
                                            kind="quiet")
        self._notice(-0.36)


class HostScreen(_Form):
    """Where the game set up on the new-game screen is hosted: here (a port, shown) or on a server (its address).
    `on_here(port_text)`, `on_server(address_text)`; both as typed."""

    def __init__(self, parent=None, *, port: int, address: str, on_here: Callable[[str], None],
                 on_server: Callable[[str], None], on_back: Callable[[], None], notice: str = "", **options) -> None:
        self.port, self.address, self.notice = str(port), address, notice
        self.on_here, self.on_server, self.on_back = on_here, on_server, on_back
        super().__init__(parent, **options)

    def build(self) -> None:
        root, w = self.root, self.widgets
        style.panel(root, (-0.95, 0.95, -0.66, 0.78))
        style.title(root, _("Host a game"), pos=(0, 0.6), scale=0.1)
        style.text(root, _("On this computer"), pos=(-0.8, 0.4), scale=style.HEADING_SCALE * 0.8, align="left",
                   kind="title")
        style.text(root, _("Port"), pos=(-0.8, 0.26), scale=0.04, align="left", kind="bold")
        w["port"] = style.entry(root, self.port, pos=(-0.3, 0.27), width=0.3, max_chars=5)
        w["here"] = style.button(root, _("Host here"), lambda: self.on_here(w["port"].get()), pos=(0.5, 0.27),
                                 width=0.62, kind="primary")
        style.text(root, _("On a server"), pos=(-0.8, 0.06), scale=style.HEADING_SCALE * 0.8, align="left",
                   kind="title")
        style.text(root, _("Address"), pos=(-0.8, -0.08), scale=0.04, align="left", kind="bold")
        w["address"] = style.entry(root, self.address, pos=(-0.15, -0.07), width=0.6, max_chars=MAX_ADDRESS)
        w["server"] = style.button(root, _("Open a room there"), lambda: self.on_server(w["address"].get()),
                                   pos=(0.53, -0.07), width=0.62, text_scale=0.04)
        w["back"] = style.button(root, _("Back"), self.on_back, pos=(0, -0.52), width=0.5, kind="quiet")
        self._notice(-0.27)


class JoinScreen(_Form):
    """`on_join(address, code, name)` as typed (the name cleaned as the new-game screen cleans it)."""

    def __init__(self, parent=None, *, address: str, name: str, on_join: Callable[[str, str, str], None],
                 on_back: Callable[[], None], code: str = "", notice: str = "", **options) -> None:
        self.address, self.code, self.name, self.notice = address, code, name, notice
        self.on_join, self.on_back = on_join, on_back
        super().__init__(parent, **options)

    def build(self) -> None:
        root, w = self.root, self.widgets
        style.panel(root, (-0.96, 0.96, -0.66, 0.78))
        style.title(root, _("Join a game"), pos=(0, 0.6), scale=0.1)
        style.text(root, _("Paste the invite a friend sent, or type the server's address and the room code."),
                   pos=(0, 0.47), scale=0.034, fg=style.INK_SOFT, kind="serif", wordwrap=46)
        rows = (("address", _("Invite or address"), self.address, MAX_INVITE),
                ("code", _("Room code"), self.code, CODE_CHARS), ("name", _("Your name"), self.name, MAX_NAME))
        self.asks_for = {"name": (refusal(OnlineError(Online.NO_NAME)),), "code": (trouble_words("no code"),)}
        for i, (key, words, value, longest) in enumerate(rows):
            y = 0.3 - i * 0.15
            style.text(root, words, pos=(-0.8, y - 0.014), scale=0.04, align="left", kind="bold")
            w[key] = style.entry(root, value, pos=(0.25, y), width=0.76, max_chars=longest, overflow=key == "address",
                                 on_change=lambda typed, key=key: self._filled(key, typed))
        w["paste"] = style.button(root, _("Paste"), self.paste, pos=(0.77, 0.3), width=0.22, height=0.085,
                                  text_scale=0.036, kind="quiet")
        if sys.platform != "win32":     # Ctrl+V (on Windows the field takes it itself); keys come bare: see stage
            self._control = False
            for key in ("control", "lcontrol", "rcontrol"):
                w["address"].accept(key, self._hold_control, [True])
                w["address"].accept(f"{key}-up", self._hold_control, [False])
            w["address"].accept("v", self._v)
        w["join"] = style.button(root, _("Join"), self._join, pos=(0.25, -0.52), width=0.6, kind="primary")
        w["back"] = style.button(root, _("Back"), self.on_back, pos=(-0.35, -0.52), width=0.5, kind="quiet")
        self._notice(-0.2)

    def _hold_control(self, held: bool) -> None:
        self._control = held

    def _v(self) -> None:
        if self._control:
            self.paste()

    def paste(self) -> None:
        """The clipboard's text into the first line; an invite's room code into the second."""
        text = clipboard.paste()
        if not text or not text.strip():
            return
        line = text.strip()[:MAX_INVITE]
        self.widgets["address"].enterText(line)
        code = code_in(line)       # (an invite that does not read: Join says what is wrong with it)
        if code:
            self.widgets["code"].enterText(code)
            self._filled("code", code)

    def _join(self) -> None:
        w = self.widgets
        self.address, self.code, self.name = w["address"].get().strip(), w["code"].get().strip(), \
            clean_name(w["name"].get())
        self.on_join(self.address, self.code, self.name)
