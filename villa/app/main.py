"""Command-line entry point."""

from __future__ import annotations

import argparse

from villa import __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="villa-paletti",
        description="Villa Paletti: pull columns from under the floors and build them higher, until the villa falls.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def main(argv: list[str] | None = None) -> int:
    build_parser().parse_args(argv)
    print("Villa Paletti: the game is coming.")
    return 0
