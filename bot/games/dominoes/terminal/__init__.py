"""The terminal client's part of the domino kit: what the two domino families' tables share."""
