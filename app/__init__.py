"""Warroom: a self-hostable server for WW2 strategy board games."""
