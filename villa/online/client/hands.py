"""The piece in a player's own hand online, as their screen sees it: the server's hand holds it, and these
say what the screen needs of it, the same as the hot seat's `Pull` and `FloorLay` say it
(`villa.match.face.ColumnInHand`, `FloorInHand`), measured on the villa drawn here (`Puppet`) and told by
the server's word on its hand (`HandNews`). Their moves are requests, sent by `OnlineMatch`."""

from __future__ import annotations

from panda3d.core import Point3

from villa import rules
from villa.online.protocol import HandNews
from villa.physics import laying, pulling
from villa.physics.dimensions import COLUMN_HEIGHT, FLOOR_THICKNESS
from villa.physics.laying import HOVER, Laying
from villa.physics.pulling import IN_HAND, Grip
from villa.rules.pieces import floor_id


class HeldColumn:
    """A column in this player's hand: pulled until the server has it clear of the floors above, then carried,
    then set down."""

    def __init__(self, villa, seat: int, column: str, point: Point3, from_level: int,
                 taking_out: bool = False) -> None:
        """`taking_out`: a failed objection's penalty pull, whose column leaves the villa once it comes free."""
        self.villa, self.seat, self.column = villa, seat, column
        self.taking_out = taking_out
        self.grab_z = point.z
        self.from_level = from_level
        self.state = Grip.PULLING
        self.strain = 0.0
        self.steadied: str | None = None
        self.taken_up = False       # taken up from the server's hands (this window came back in the middle of it)
        villa.in_hand = {column}

    def is_free(self, heard=None) -> bool:
        """Out from under the floors where the server has it (`heard`: its newest pose heard; drawn at the pointer,
        it is ahead of the server, and aimed at the carrying height too soon the server's hand would lift it into
        the floor)."""
        if heard is None:
            return False
        (x, y, _z), _quat = heard
        return not pulling.under_a_floor(self.villa, self.column, x, y, self.from_level)

    def carry_z(self) -> float:
        return pulling.carry_z(self.villa, self.column)

    def surface_below(self):
        return pulling.surface_below(self.villa, self.column)

    def preview(self):
        return pulling.preview(self.villa, self.column)

    def heard(self, news: HandNews | None, free: bool) -> None:
        """The server's word on the hand (None: nothing new of this player's), and whether it is free yet."""
        if self.state == Grip.PULLING and free:
            self.state = Grip.CARRYING
        if news is None:
            return
        if news.grip in (Grip.CARRYING, Grip.LOWERING, Grip.HELD) and self.state in IN_HAND:
            self.state = Grip(news.grip)     # set down, held, lifted, or taken up again after a refused spot
        elif not news.grip and self.state in IN_HAND:
            # the server's hand holds nothing, yet the rules still wait: what it let go settles to be judged
            self.state = Grip.TAKEN_OUT if self.taking_out else Grip.PLACED
            self.villa.in_hand = set()
        self.strain = news.strain
        self.steadied = news.steadied if self.state == Grip.PULLING else None


class HeldFloor:
    """The next floor in this player's hands, carried over the top columns by the server's hands."""

    def __init__(self, villa, seat: int, level: int) -> None:
        self.villa, self.seat, self.level, self.piece = villa, seat, level, floor_id(level)
        self.state = Laying.CARRYING
        self.rest_z = laying.rest_height(villa, level)
        self.z = self.rest_z + HOVER + FLOOR_THICKNESS / 2
        self.x = self.y = self.yaw = 0.0
        self.strain = 0.0
        self.confirmed = False    # the server's hands are heard to hold it (until then held is this screen's guess)
        self.taken_up = False     # taken up from the server's hands (this window came back in the middle of it)
        self._news = HandNews()
        villa.in_hand = {self.piece}

    def columns_under(self) -> frozenset[str]:
        return laying.columns_under(self.villa, self.level, self.x, self.y, self.yaw)

    def touching(self) -> frozenset[str]:
        """The columns the held floor touches, as the server's hands feel it (the puppet's bodies feel nothing)."""
        return self._news.touching if self.state == Laying.HELD else frozenset()

    def tilt_deg(self) -> float:
        """How far it leans, as the server's hands feel it."""
        return self._news.tilt if self.state == Laying.HELD else 0.0

    def heard(self, news: HandNews | None) -> None:
        node = self.villa.nodes.get(self.piece)
        if node is not None:
            self.x, self.y, self.yaw = node.getX(), node.getY(), node.getH()
        if news is not None and news.grip in (Laying.CARRYING, Laying.LOWERING, Laying.HELD) \
                and self.state in (Laying.CARRYING, Laying.LOWERING, Laying.HELD):
            self.state = Laying(news.grip)
            self.confirmed = self.state == Laying.HELD
            self._news = news
        elif news is not None and not news.grip and self.state in (Laying.CARRYING, Laying.LOWERING, Laying.HELD):
            self.state = Laying.LAID     # let go, settling to be judged
            self.villa.in_hand = set()


def standing_on(villa, column: str) -> int:
    """The level of the floor under the column's foot, as the villa drawn here has it (0: the base plate)."""
    standing = villa.nodes[column].getZ() - COLUMN_HEIGHT / 2
    return max([level for level in villa.floor_levels if villa.nodes[floor_id(level)].getZ() < standing], default=0)


def in_others_hands(villa, state: rules.GameState, news: HandNews) -> set[str]:
    """The piece the server's hands hold for another player, as drawn here (`news`: the server's word on its hands):
    the column being built, the floor being laid. The hot seat's villa has the piece in anyone's hands in hand; a
    window, its own piece and these."""
    if not news.grip:
        return set()        # nothing held, or let go to settle
    task = rules.task(state)
    if task is rules.Task.PLACE and state.turn.column in villa.nodes:
        return {state.turn.column}
    if task is rules.Task.LAY_FLOOR and floor_id(state.top_level + 1) in villa.nodes:
        return {floor_id(state.top_level + 1)}
    return set()


def held_piece(hand: HeldColumn | HeldFloor) -> str:
    return hand.column if isinstance(hand, HeldColumn) else hand.piece


def still_in_hand(hand: HeldColumn | HeldFloor, state: rules.GameState) -> bool:
    """Is the piece in hand still in hand for the rules (a floor: still to be laid; a column taken out: still to
    go)?"""
    if isinstance(hand, HeldFloor):
        return rules.task(state) is rules.Task.LAY_FLOOR
    if rules.task(state) is rules.Task.TAKE_OUT:
        return hand.column not in state.out
    return state.turn.column == hand.column


def taken_up(villa, state: rules.GameState, seat: int, news: HandNews) -> HeldColumn | HeldFloor | None:
    """The piece the server's hands hold for this window's `seat` (`news`), taken up in the window: the column
    being built, or the floor being laid. None: nothing the rules name (a penalty pull's column is not named until
    it is out: that one the window leaves to the server's hands)."""
    task = rules.task(state)
    piece = None
    if task is rules.Task.PLACE and news.grip in (Grip.PULLING, Grip.CARRYING, Grip.LOWERING, Grip.HELD):
        column = state.turn.column
        if column in villa.nodes:
            piece = HeldColumn(villa, seat, column, villa.nodes[column].getPos(), standing_on(villa, column))
    elif task is rules.Task.LAY_FLOOR and news.grip in (Laying.CARRYING, Laying.LOWERING, Laying.HELD):
        piece = HeldFloor(villa, seat, state.top_level + 1)
    if piece is not None:
        piece.taken_up = True     # the pointer is elsewhere: the screen moves it from where it is, not to the pointer
    return piece
