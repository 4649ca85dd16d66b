"""Reusable checks for games: the conformance suite every registered game must pass."""
