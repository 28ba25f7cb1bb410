"""Card behaviour: playing cards and the rules of every unique card."""

from app.games.qmg.cards import germany, italy, japan, play, registry, uk, usa, ussr  # noqa: F401
