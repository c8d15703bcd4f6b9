"""The simulator's part of the domino kit."""
