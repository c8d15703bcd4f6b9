"""The collecting games' part of the terminal client."""
