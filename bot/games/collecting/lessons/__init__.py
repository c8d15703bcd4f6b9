"""The collecting games' lessons (the role ``lessons``: :mod:`bot.lessons`)."""
