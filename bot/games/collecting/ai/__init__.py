"""The collecting games' part of the AI layer."""
