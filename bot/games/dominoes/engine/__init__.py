"""The engine layer's part of the domino kit."""
