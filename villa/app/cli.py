"""The command line: its options, the checks that refuse contradictions and bad values, and the seats
it asks for.

Every mistake gets argparse's treatment: the usage, one line saying what is wrong (long inputs
cut short), exit code 2.
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
from pathlib import Path

from villa import __version__
from villa.match import LAYOUT_NAMES, Seat, Strength
from villa.online import protocol
from villa.online.invite import BadInvite, Invite, InviteError, looks_like_invite, parse_invite

DEFAULT_NAMES = ("Anna", "Ben", "Cleo", "Dario")
MAX_NAME = 24
SHOWN = 40                 # characters of a bad input repeated in a message
FIXED_BY_SAVE = ("--players", "--layout", "--seed", "--floors")
HEADLESS_MODES = "--autoplay, --continue, --load or --replay"
COMPUTER = "cpu"


def shown(text: str) -> str:
    """A player's input as a message repeats it: printable, and cut short when long."""
    text = "".join(ch if ch.isprintable() else "\N{REPLACEMENT CHARACTER}" for ch in text)
    return repr(text if len(text) <= SHOWN else text[:SHOWN] + "…")


def _whole_number(what: str, low: int, high: int):
    def parse(text: str) -> int:
        digits = text.strip()
        if not digits.lstrip("-").isascii() or not digits.lstrip("-").isdecimal() or len(digits) > 12:
            raise argparse.ArgumentTypeError(f"give {what} as a whole number from {low} to {high}, not {shown(text)}")
        value = int(digits)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} must be between {low} and {high}")
        return value
    return parse


def _size(text: str) -> tuple[int, int]:
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isascii() and p.isdecimal() and len(p) <= 5 for p in parts):
        raise argparse.ArgumentTypeError(f"give the size as WIDTHxHEIGHT, e.g. 1280x720, not {shown(text)}")
    width, height = int(parts[0]), int(parts[1])
    if not (320 <= width <= 7680 and 240 <= height <= 4320):
        raise argparse.ArgumentTypeError("the window must be between 320x240 and 7680x4320")
    return width, height


def _layout(text: str) -> str:
    if text not in LAYOUT_NAMES:
        raise argparse.ArgumentTypeError(f"no layout is called {shown(text)}; there are "
                                         f"{', '.join(repr(n) for n in LAYOUT_NAMES)}")
    return text


def _address(text: str) -> tuple[str, int]:
    host, colon, port = text.strip().rpartition(":")
    host = host.strip("[]")
    if not colon or not host or not (port.isascii() and port.isdecimal() and 1 <= int(port[:6]) <= 65535) \
            or len(host) > 253 or not host.isprintable() or " " in host:
        raise argparse.ArgumentTypeError(f"give the server as HOST:PORT, e.g. 127.0.0.1:{protocol.PORT}, "
                                         f"not {shown(text)}")
    return host, int(port)


# what is wrong with an invite given on the command line
INVITE_TROUBLES = {
    BadInvite.NOT_AN_INVITE: "an invite starts with villa-paletti://",
    BadInvite.NO_HOST: "the invite names no server",
    BadInvite.BAD_PORT: "the invite's port is not a number from 1 to 65535",
    BadInvite.BAD_CODE: "the invite's room code cannot be one",
    BadInvite.BAD_FINGERPRINT: "the invite's fingerprint (after #) is not 64 hex digits",
}


def _invite(text: str) -> Invite:
    try:
        return parse_invite(text)
    except InviteError as error:
        raise argparse.ArgumentTypeError(f"{INVITE_TROUBLES[error.code]}: copy the whole line, "
                                         f"villa-paletti://HOST:PORT/CODE#FINGERPRINT, not {shown(text)}") from None


def _server_or_invite(text: str) -> tuple[str, int] | Invite:
    return _invite(text) if looks_like_invite(text) else _address(text)


def _room(text: str) -> str:
    if protocol.room_code(text) is None:
        raise argparse.ArgumentTypeError(f"a room code is {protocol.ROOM_LENGTH} letters and digits "
                                         f"(no 0, O, 1 or I), not {shown(text)}")
    return text.strip().upper()


def _name(text: str) -> str:
    try:
        return check_name(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _path(text: str) -> Path:
    if "\0" in text or len(text) > 4096:
        raise argparse.ArgumentTypeError(f"{shown(text)} cannot name a file")
    return Path(text)


def check_name(name: str) -> str:
    """A player's name as typed: printable text of 1 to 24 characters (raises ValueError saying why not)."""
    name = unicodedata.normalize("NFC", name.strip())
    if not name:
        raise ValueError("a player's name may not be empty")
    if len(name) > MAX_NAME:
        raise ValueError(f"a player's name has at most {MAX_NAME} characters, not {len(name)} ({shown(name)})")
    if not all(ch.isprintable() for ch in name) or any(0xD800 <= ord(ch) <= 0xDFFF for ch in name):
        raise ValueError(f"a player's name must be printable text, not {shown(name)}")
    return name


def seats(text: str) -> tuple[Seat, ...]:
    """'3': three players; 'Anna,Ben': those players in seat order; 'Anna,cpu:hard,cpu' gives seats to
    computer players (easy, medium or hard; medium when not said), named "Computer (hard)" and so on."""
    text = text.strip()
    if text.isascii() and text.isdecimal():
        count = int(text) if len(text) < 3 else 0
        if not 2 <= count <= 4:
            raise argparse.ArgumentTypeError("Villa Paletti is played by 2, 3 or 4 players")
        return tuple(Seat(name) for name in DEFAULT_NAMES[:count])
    parts = [part.strip() for part in text.split(",")]
    if not 2 <= len(parts) <= 4 or not all(parts):
        raise argparse.ArgumentTypeError("name 2, 3 or 4 players, separated by commas "
                                         "(e.g. --players Anna,Ben or Anna,cpu:hard)")
    chosen: list[Seat] = []
    for part in parts:
        if part.lower() == COMPUTER or part.lower().startswith(COMPUTER + ":"):
            word = part[len(COMPUTER) + 1:].strip().lower() or Strength.MEDIUM.value
            if word not in {s.value for s in Strength}:
                raise argparse.ArgumentTypeError(f"a computer player is easy, medium or hard, not {shown(word)}")
            chosen.append(Seat(computer_name(Strength(word), [s.name for s in chosen]), Strength(word)))
            continue
        try:
            chosen.append(Seat(check_name(part)))
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    names = [s.name for s in chosen]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise argparse.ArgumentTypeError(f"every player needs a name of their own: {shown(twice[0])} is given twice")
    return tuple(chosen)


def computer_name(strength: Strength, taken) -> str:
    """'Computer (hard)', or 'Computer (hard) 2' when that is taken."""
    base = f"Computer ({strength.value})"
    name, n = base, 2
    while name in taken:
        name, n = f"{base} {n}", n + 1
    return name


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="villa-paletti",
        description="Villa Paletti: pull columns from under the floors and build them higher, until the villa falls.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--players", type=seats, default=seats("4"), metavar="N|NAMES",
                        help="2, 3 or 4 players, or their names in seat order: --players Anna,Ben,Cleo; "
                             "cpu, cpu:easy, cpu:medium or cpu:hard gives a seat to a computer player")
    parser.add_argument("--layout", type=_layout, default="rings", metavar="NAME",
                        help="how the columns stand under the blue floor: rings, colonnade, "
                             "'free corners' or random (default: rings)")
    parser.add_argument("--seed", type=_whole_number("the seed", 0, 2**31 - 1), default=1,
                        help="seeds the random layout, the colours and the computer players")
    parser.add_argument("--floors", type=_whole_number("the number of floors", 1, 5), default=1, metavar="1-5",
                        help="start from a random villa with this many floors (for pictures of later play)")
    parser.add_argument("--size", type=_size, default=(1280, 720), metavar="WxH", help="window size")
    parser.add_argument("--screenshot", type=_path, metavar="FILE",
                        help="render one frame of the game to FILE (PNG) and exit; needs a display "
                             "(run under xvfb-run when there is none)")
    group = parser.add_argument_group("saved games, replays and computer play")
    group.add_argument("--continue", dest="continue_game", action="store_true",
                       help="take up the latest game where it was kept (as the main menu's Continue: a seat online "
                            "kept to rejoin, a game this window hosted opened again, or the game kept here)")
    group.add_argument("--load", type=_path, metavar="FILE", help="take up the game saved in FILE")
    group.add_argument("--replay", type=_path, metavar="FILE", help="watch a recorded game again, turn by turn")
    group.add_argument("--clip", type=_path, metavar="REPLAY",
                       help="make a clip of the villa's fall recorded in REPLAY (a replay or save), with --out FILE "
                            "(animated WebP, 1280x720 or --size; no window: on a machine without a display it "
                            "starts Xvfb)")
    group.add_argument("--out", type=_path, metavar="FILE", help="where --clip writes the clip")
    group.add_argument("--autoplay", type=_whole_number("the number of turns", 0, 100_000), metavar="TURNS",
                       help="computer players play TURNS turns, autosaving after each (with --headless)")
    group.add_argument("--strength", choices=[s.value for s in Strength], default=None,
                       help="how well the computer players of --autoplay play (default: medium; a game "
                            "taken up keeps its own computer players and gives this strength to the others)")
    group.add_argument("--headless", action="store_true",
                       help=f"no window: with {HEADLESS_MODES}, print each turn instead")
    online = parser.add_argument_group("play online")
    online.add_argument("invite", nargs="?", type=_invite, metavar="INVITE",
                        help="an invite, villa-paletti://HOST:PORT/CODE#FINGERPRINT, as a link clicked in a chat "
                             "gives it: the window goes into its room")
    online.add_argument("--join", type=_server_or_invite, metavar="INVITE|HOST:PORT",
                        help="join a room by its invite, or on a game server (villa-paletti-server) with --room; "
                             "with --name sit at its first free seat before the window opens, and play once "
                             "every seat is taken")
    online.add_argument("--room", type=_room, metavar="CODE", help="the room's code, as its host gives it")
    online.add_argument("--name", type=_name, metavar="NAME", help="your name at the room's table")
    online.add_argument("--insecure", action="store_true",
                        help="play online without TLS, everything in the clear: only with a server started with "
                             "--insecure")
    return parser


def _given(argv: list[str], option: str) -> bool:
    """Was `option` written on the command line (also as --option=value or abbreviated)?"""
    for token in argv:
        name = token.split("=", 1)[0]
        if name.startswith("--") and len(name) > 3 and option.startswith(name):
            return True
    return False


def check(parser: argparse.ArgumentParser, args, argv: list[str]) -> None:
    """Refuse options that contradict each other (argparse's error: usage, one sentence, exit code 2)."""
    source = "--continue" if args.continue_game else "--load" if args.load else None
    if args.continue_game and args.load:
        parser.error("--continue and --load contradict each other: --continue takes up the latest game, "
                     "--load a file; give one")
    if args.replay and source:
        parser.error(f"--replay and {source} contradict each other: watch a replay or take up a game, not both")
    if args.replay and args.autoplay is not None:
        parser.error("--replay and --autoplay contradict each other: a replay is watched, not played")
    mode = source or ("--replay" if args.replay else None)
    if mode:
        fixed = [o for o in FIXED_BY_SAVE if _given(argv, o)]
        if fixed:
            parser.error(f"{mode} takes the players, layout and seed from the saved game: "
                         f"drop {', '.join(fixed)}")
    if args.screenshot is not None and (mode or args.autoplay is not None or args.headless):
        parser.error("--screenshot renders a new game: it cannot be combined with "
                     "--continue, --load, --replay, --autoplay or --headless")
    if args.headless and not (mode or args.autoplay is not None):
        parser.error(f"--headless has no window to play in: give it one of {HEADLESS_MODES}")
    if args.autoplay is not None and not args.headless:
        parser.error("--autoplay plays without a window: add --headless")
    if args.strength is not None and args.autoplay is None:
        parser.error("--strength sets the computer players of --autoplay: add --autoplay TURNS --headless")
    if args.invite is not None and args.join:
        parser.error("the invite and --join each name a room: give one")
    if args.invite is not None:
        args.join = args.invite
    invited = isinstance(args.join, Invite)
    if invited and args.room:
        parser.error("the invite names its room already: drop --room")
    if args.join and not invited and not (args.room and args.name):
        parser.error("--join needs the room and your name: add --room CODE --name NAME")
    if not args.join and (args.room or args.name):
        parser.error("--room and --name are for a game online: add --join HOST:PORT")
    if args.join and (mode or args.autoplay is not None or args.headless or args.screenshot is not None):
        parser.error("--join plays a game online in a window: it cannot be combined with "
                     "--continue, --load, --replay, --autoplay, --headless or --screenshot")
    if args.join:
        fixed = [o for o in FIXED_BY_SAVE if _given(argv, o)]
        if fixed:
            parser.error(f"--join takes the players, layout and seed from the room: drop {', '.join(fixed)}")
    if (args.clip is None) != (args.out is None):
        parser.error("--clip and --out go together: --clip REPLAY --out FILE")
    if args.clip is not None and (mode or args.autoplay is not None or args.headless or args.screenshot is not None
                                  or args.join):
        parser.error("--clip makes a clip of a replay and nothing else: drop the other options")
    if args.clip is not None and any(_given(argv, o) for o in FIXED_BY_SAVE):
        parser.error("--clip takes the players, layout and seed from the replay: drop them")
    if args.headless and _given(argv, "--size"):
        parser.error("--size sets the window, and --headless has none: drop one")


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(argv)
    check(parser, args, argv)
    return args
