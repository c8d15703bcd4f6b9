"""The collecting games' part of the render layer."""
