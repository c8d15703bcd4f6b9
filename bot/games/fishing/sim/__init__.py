"""Tsung Shap's part of the simulator."""
