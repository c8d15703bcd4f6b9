"""Tsung Shap's lessons (the role ``lessons``: :mod:`bot.lessons`)."""
