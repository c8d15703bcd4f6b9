"""The terminal client's part of the domino kit."""
