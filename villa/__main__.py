"""The game's program (`python -m villa`, and the standalone build's executable); started by the dedicated
server's name, the server (on Linux the release's server is a link to this program)."""

from villa.app import without_ssl  # noqa: F401  (first: what follows loads redis, which reads ssl's names)
from villa.app import dedicated, frozen
from villa.app.main import main

raise SystemExit(dedicated.main() if frozen.started_as_server() else main())
