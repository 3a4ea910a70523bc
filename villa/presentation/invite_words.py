"""Every word about an invite and the home's router: whose address the lobby's invite names and who can follow it,
what the router did with the game's port (and, where it did nothing, how to forward the port by hand), what Copy
did, and what is wrong with an invite pasted into Join."""

from __future__ import annotations

from villa.online.invite import BadInvite, Reach, Sharing
from villa.online.router import Step
from villa.presentation.i18n import N_, _

BY_HAND = N_("For friends elsewhere, forward TCP port {port} to this computer ({address}) in your router's "
             "settings, or host the game on a server: villa-paletti-server, which comes with the game, on a machine "
             "with a public address.")

BAD_INVITES = {
    BadInvite.NOT_AN_INVITE: N_("An invite starts with villa-paletti:// — copy the whole line your friend sent."),
    BadInvite.NO_HOST: N_("This invite names no server: copy the whole line your friend sent, from villa-paletti:// "
                          "to its end."),
    BadInvite.BAD_PORT: N_("The port in this invite ({port}) is no port: copy the whole line your friend sent "
                           "again."),
    BadInvite.BAD_CODE: N_("The room code in this invite ({code}) cannot be one: copy the whole line your friend "
                           "sent again."),
    BadInvite.BAD_FINGERPRINT: N_("The server's fingerprint at the end of this invite is cut short or changed: copy "
                                  "the whole line your friend sent again."),
}


def reach_words(shared: Sharing) -> str:
    """Whose address the invite names, and so who can join with it."""
    if shared.reach is Reach.PUBLIC:
        forwarding = shared.forwarding
        if forwarding is not None and forwarding.behind_another_router:
            return _("Your router forwards port {port} to this computer, but its own outside address is private: "
                     "another router beyond it (your provider's) may keep friends out.").format(
                port=forwarding.public_port)
        return _("Your home's public address: your router forwards port {port} to this computer ({via}), so "
                 "friends anywhere can join.").format(port=forwarding.public_port if forwarding else "",
                                                      via=forwarding.via if forwarding else "")
    if shared.reach is Reach.LAN:
        return _("This computer's address on your network: friends on the same network can join.")
    return _("The server's address: friends who can reach the server join with this line.")


def router_words(shared: Sharing) -> str:
    """What the home's router did with the game's port ("" once it forwards it: `reach_words` says so)."""
    forwarding = shared.forwarding
    if forwarding is None or forwarding.step in (Step.OPEN, Step.CLOSED):
        return ""
    if forwarding.step is Step.ASKING:
        return _("Asking your router to let friends from elsewhere in …")
    by_hand = _(BY_HAND).format(port=forwarding.port, address=shared.invite.host)
    if forwarding.step is Step.REFUSED:
        return _("Your router would not forward the game's port ({via} may be off in its settings).").format(
            via=forwarding.via) + " " + by_hand
    return _("No router answered (UPnP, PCP, NAT-PMP).") + " " + by_hand


def copied_words(copied: bool) -> str:
    if copied:
        return _("Copied: paste it into a chat with your friends.")
    return _("This computer let the game copy nothing: read the line out to your friends, or write it down.")


def bad_invite(why: str, **values) -> str:
    return _(BAD_INVITES[BadInvite(why)]).format(**values)
