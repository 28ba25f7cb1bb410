"""First to Fight for the fuzzer while some orders are not installed yet: each missing order resolves
to nothing, so whole games (setup's keep, the Ending Phases, the end) can be played and checked:
``python -m app fuzz tests.games.first_to_fight.ending_fuzz:GAME -n 30``. Once every order is
registered this is the game itself."""

from __future__ import annotations

from app.games.first_to_fight import flow
from app.games.first_to_fight.engine import Ctx
from app.games.first_to_fight.pack import ORDERS
from app.games.first_to_fight.rules import GAME


def _nothing(ctx: Ctx, chooser: str) -> None:
    return None


for _order in ORDERS:
    if _order != "MANEUVERS" and _order not in flow.ORDER_STARTS:
        flow.register_order(_order, _nothing)

__all__ = ["GAME"]
