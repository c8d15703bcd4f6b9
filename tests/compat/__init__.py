"""Compatibility pins: today's behaviour, recorded, for the refactor of issue 19 to keep.

See :mod:`tests.compat.make_pins` for what is pinned and when the pins may be made again.
"""
