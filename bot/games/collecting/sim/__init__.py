"""The collecting games' part of the simulator."""
