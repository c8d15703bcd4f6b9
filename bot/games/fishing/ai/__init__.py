"""Tsung Shap's part of the AI layer."""
