"""Tsung Shap's part of the render layer."""
