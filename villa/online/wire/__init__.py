"""The wire: what crosses the network between a player's window and a server, and how.

- `messages`: every message as a frozen value, the match's requests among them, and the catalogue's numbering.
- `frames`: a stream cut into length-prefixed frames, a half-sent one kept until the rest comes.
- `codec`: a message as bytes and back, made from its dataclass's field types and bounds; `inflate` with a cap.
- `link`: one connection on a non-blocking socket (read what is there, queue and flush writes); `dial` one.
- `door`: a server's listening side: the hello first, then each connection held to its limits.
"""
