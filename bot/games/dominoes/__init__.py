"""The kit of the domino families: what Kap Shap, Kap Tai Shap and Tsung Shap share (tiles, the
one ``RuleSet``, dice dealing, tile pictures). Not a family: it registers nothing, and any
family may import it (docs/architecture.md, "Games: one place per game").

It holds what the families' facets share (the ``draw`` action, the deal stream of the
simulator, the facets' common halves); the tiles and the ``RuleSet`` are still in
``bot/engine`` (``tiles.py``, ``rules.py``, ``deal.py``).
"""
