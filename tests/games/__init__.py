"""Tests of the games: the registry, the families' facets."""
