"""Autarcha: a 2-player tactical wargame on a square grid (spec ``shared/rules/autarcha.md``).

Only the data pack exists so far (``pack``, ``pack_load``, ``data/``); the rules and the game object
come later, so the game is not registered in ``app.games.registry`` yet.
"""
