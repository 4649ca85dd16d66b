"""Coven: four tabletop games with hidden information, for people, bots and researchers."""

__version__ = "0.1.0"
