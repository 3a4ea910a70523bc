"""A game hosted at home, its port forwarded by the home's router: a real router (Debian's miniupnpd, speaking UPnP
IGD, PCP and NAT-PMP) in a network namespace of the test's own, the host's machine behind it and a friend
outside (`home_network.py`). The friend joins by the invite, through the port the router mapped; the mapping
goes when the room closes; its lease is renewed while the room is open, and a mapping nobody renews (the game
crashed) lapses by itself. A router that refuses, and no router at all, are said as such.

`scripts/test.sh` installs miniupnpd and nftables. The tests are skipped only where network namespaces cannot
be made (no root)."""

from __future__ import annotations

import threading
import time

import pytest

from villa.app.joining import sit_down
from villa.online import protocol
from villa.online.invite import Invite, parse_invite
from villa.online.router import PortOpening, Step
from villa.online.router.igd import Igd
from villa.online.router.pmp import NatPmp, Pcp
from villa.online.server import Room, Server
from tests.online.conftest import two_seats
from tests.online.home_network import FRIEND, HOME, WAN_ROUTER, HomeNetwork, inside, program

PORT = protocol.PORT        # each home is a fresh namespace: the game's own port is free there


@pytest.fixture(scope="module")
def namespaces():
    why = HomeNetwork.unavailable()
    if why is not None:
        pytest.skip(f"network namespaces cannot be made on this machine ({why}): the home's router needs them")
    for name in ("miniupnpd", "nft"):
        if program(name) is None:
            pytest.fail(f"{name} is not installed (scripts/test.sh installs miniupnpd-nftables and nftables)")


@pytest.fixture
def home(namespaces, tmp_path):
    """`home(**options)`: a home network (HomeNetwork's options), taken down after the test."""
    made: list[HomeNetwork] = []

    def build(**options) -> HomeNetwork:
        made.append(HomeNetwork(tmp_path / f"router{len(made)}", **options))
        return made[-1]
    yield build
    for network in made:
        network.close()


def until(done, seconds: float = 15.0) -> bool:
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


class Hosting:
    """A game hosted at home as the window hosts it: a server on every address of the home machine, a room
    waiting for its people, and the router asked to forward the port; the server serves in a thread of its
    own."""

    def __init__(self, network: HomeNetwork, lease: int = 600, ways=None) -> None:
        with inside(network.home):
            self.server = Server(PORT, "")
            self.opening = PortOpening(PORT, lease, ways).start()
        self.room = Room(protocol.new_room_code(), two_seats())
        self.server.open(self.room)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.server.serve, kwargs={"until": self.stop.is_set}, daemon=True)
        self.thread.start()

    def invite(self) -> Invite:
        forwarding = self.opening.forwarding
        return Invite(forwarding.public_address, forwarding.public_port, self.room.code)

    def close(self) -> None:
        self.opening.close(wait=5)
        self.stop.set()
        self.thread.join(10)
        self.server.close()


@pytest.fixture
def hosting():
    made: list[Hosting] = []

    def host(network: HomeNetwork, **options) -> Hosting:
        made.append(Hosting(network, **options))
        return made[-1]
    yield host
    for one in made:
        one.close()


def test_the_router_forwards_the_port_by_upnp_and_a_friend_outside_joins_by_the_invite(home, hosting):
    network = home()
    with inside(network.friend):
        with pytest.raises(Exception):
            sit_down(WAN_ROUTER, PORT, "ABCDE", "Ben", seconds=1.5)
    game = hosting(network)
    assert game.opening.forwarding.step is Step.ASKING, "asked in a thread: the window goes on meanwhile"
    assert until(lambda: game.opening.forwarding.step is not Step.ASKING)
    forwarding = game.opening.forwarding
    assert (forwarding.step, forwarding.via, forwarding.public_address, forwarding.public_port) == (
        Step.OPEN, "UPnP", WAN_ROUTER, PORT)
    assert not forwarding.behind_another_router
    assert network.forwards(PORT) and HOME in network.forwarded()[0]

    invite = parse_invite(str(game.invite()))        # as the friend pastes it
    assert str(invite) == f"villa-paletti://{WAN_ROUTER}:{PORT}/{game.room.code}"
    with inside(network.friend):
        player = sit_down(invite.host, invite.port, invite.code, "Ben")
    try:
        assert player.seats and until(lambda: game.room.seating.sitters[0].name == "Ben")
        assert game.server.door.address_of(game.room.seating.sitters[0].client) == FRIEND, "from outside, as it is"
    finally:
        player.close()

    game.opening.close(wait=5)
    assert game.opening.forwarding.step is Step.CLOSED and not network.forwards(PORT), "the room closed: the door too"
    with inside(network.friend):
        with pytest.raises(Exception):
            sit_down(invite.host, invite.port, invite.code, "Cleo", seconds=1.5)


def test_a_router_without_upnp_is_asked_by_pcp_and_one_without_pcp_by_nat_pmp(home, hosting):
    network = home(upnp=False)
    game = hosting(network)
    assert until(lambda: game.opening.forwarding.step is not Step.ASKING)
    forwarding = game.opening.forwarding
    assert (forwarding.step, forwarding.via, forwarding.public_address) == (Step.OPEN, "PCP", WAN_ROUTER)
    assert network.forwards(forwarding.public_port)
    with inside(network.friend):
        sit_down(*game.invite().address.split(":")[:1], forwarding.public_port, game.room.code, "Ben").close()
    game.opening.close(wait=5)
    assert not network.forwards(forwarding.public_port)

    with inside(network.home):
        mapping = NatPmp().open(PORT + 1, 60)
        assert (mapping.via, mapping.public_address, mapping.public_port) == ("NAT-PMP", WAN_ROUTER, PORT + 1)
        assert network.forwards(PORT + 1)
        NatPmp().remove(mapping)
    assert not network.forwards(PORT + 1)


def test_a_router_that_refuses_and_no_router_at_all_are_told_apart(home, hosting):
    refusing = hosting(home(allow=False))
    nobody = hosting(home(router=False))
    assert until(lambda: Step.ASKING not in (refusing.opening.forwarding.step, nobody.opening.forwarding.step), 30)
    said = refusing.opening.forwarding
    assert said.step is Step.REFUSED and said.via == "UPnP" and said.why, "the router's own reason, for the log"
    assert nobody.opening.forwarding.step is Step.NO_ROUTER


def test_the_lease_is_renewed_while_the_room_is_open_and_one_nobody_renews_lapses(home, hosting):
    """A window that crashed renews nothing: its mapping ends with its lease (here 3 s), while the mapping of a
    window still hosting is renewed every third of it."""
    network = home()
    game = hosting(network, lease=3)
    with inside(network.home):
        crashed = Igd().open(PORT + 2, 3)          # never renewed, never removed
    assert until(lambda: game.opening.forwarding.step is Step.OPEN) and network.forwards(PORT + 2)
    assert until(lambda: not network.forwards(PORT + 2), 15), "the crashed window's mapping lapsed"
    assert crashed.lease == 3 and network.forwards(PORT), "the hosting window's is still there"
    game.opening.close(wait=5)
    assert not network.forwards(PORT)


def test_pcp_and_nat_pmp_say_nothing_answered_where_no_gateway_listens(home):
    network = home(router=False)
    with inside(network.home):
        for way in (Pcp(), NatPmp(), Igd(wait=0.5)):
            with pytest.raises(OSError):
                way.open(PORT, 60)
