"""Villa Paletti: pull columns from under stacked floors and build them higher, until the villa falls."""

__version__ = "0.1.0"
