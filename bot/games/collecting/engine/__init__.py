"""The collecting games' part of the engine layer."""
