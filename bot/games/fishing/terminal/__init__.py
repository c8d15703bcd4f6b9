"""Tsung Shap's part of the terminal client."""
