"""Installed games and the registry that finds them."""
