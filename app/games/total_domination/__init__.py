"""Total Domination (Phalanx): pure rules engine and data pack (spec: shared/rules/total-domination.md)."""
