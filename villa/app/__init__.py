"""Wiring and entry points: `villa-paletti` and `python -m villa`."""
