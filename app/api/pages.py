"""Server-rendered pages (Jinja2 + htmx)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
async def lobby_page() -> str:
    return "<!doctype html><title>Warroom</title><h1>Warroom</h1>"


@router.get("/matches/{match_id}", response_class=HTMLResponse, name="table_page")
async def table_page(match_id: str) -> str:
    return f"<!doctype html><title>Warroom</title><h1>Table {match_id}</h1>"
