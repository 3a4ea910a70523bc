"""Computer players: a brain that decides from the rules and the villa, a hand that moves like a
person's, and the seat that joins them at the match."""

from villa.match.computer.seat import ComputerSeat, reseat_computers, seat_computers

__all__ = ["ComputerSeat", "reseat_computers", "seat_computers"]
