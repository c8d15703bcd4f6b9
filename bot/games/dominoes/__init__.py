"""The kit of the domino families: what Kap Shap, Kap Tai Shap and Tsung Shap share (tiles, the
one ``RuleSet``, dice dealing, tile pictures). Not a family: it registers nothing, and any
family may import it (docs/architecture.md, "Games: one place per game").

Until the shared code moves here (issue 19 step 6) it holds only what the families' adapters
share.
"""
