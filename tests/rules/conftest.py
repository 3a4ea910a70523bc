"""Reports how many random games the property tests played in this run."""

from . import random_games


def pytest_terminal_summary(terminalreporter):
    if random_games.PLAYED:
        total = sum(random_games.PLAYED.values())
        terminalreporter.write_line(f"rules property tests: {total} random games played "
                                    f"(profile {random_games.PROFILE})")
