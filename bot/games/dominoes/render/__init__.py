"""The render layer's part of the domino kit."""
