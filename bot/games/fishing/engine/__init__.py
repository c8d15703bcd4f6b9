"""Tsung Shap's part of the engine layer."""
