"""Load a match, apply an action, commit, announce, build views."""
