"""Computer players: a brain that decides from the rules and the villa, a hand that moves like a
person's, and the seat that joins them at the match."""

from villa.match.computer.seat import ComputerSeat, reseat_computers, seat_computers
from villa.match.computer.worker import close_thinking

__all__ = ["ComputerSeat", "close_thinking", "reseat_computers", "seat_computers"]
