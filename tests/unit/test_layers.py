"""The web layer stays thin: the sessions layer names refusals by kind and never speaks HTTP;
the routers in app/api do no SQL and own no transactions."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import app.api
import app.notifications
import app.sessions
from app.api.errors import STATUS, ApiError, status_of
from app.sessions import errors

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = [ROOT / "app" / "sessions", ROOT / "app" / "notifications"]


def sources(*folders: Path) -> list[tuple[Path, ast.Module]]:
    return [(path, ast.parse(path.read_text(encoding="utf-8"))) for folder in folders
            for path in sorted(folder.rglob("*.py"))]


def test_the_sessions_layer_raises_no_http_status() -> None:
    found = []
    for path, tree in sources(*DOMAIN):
        where = path.relative_to(ROOT)
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in ("ApiError", "HTTPException", "JSONResponse"):
                found.append(f"{where}:{node.lineno} names {node.id}")
            if isinstance(node, ast.Attribute) and node.attr in ("status_code", "status") and isinstance(
                    node.ctx, ast.Load) and isinstance(node.value, ast.Name) and node.value.id in ("exc", "refusal"):
                found.append(f"{where}:{node.lineno} reads an error's {node.attr}")
            if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) and isinstance(
                    node.args[0].value, int) and 100 <= node.args[0].value <= 599 and isinstance(node.func, ast.Name) \
                    and node.func.id[:1].isupper():
                found.append(f"{where}:{node.lineno} builds {node.func.id}({node.args[0].value}, ...)")
        if "status_code" in path.read_text(encoding="utf-8") and "webhooks.py" not in path.name:
            found.append(f"{where} mentions status_code")
    assert not found, "\n".join(found)


def refusal_kinds() -> set[type[errors.DomainError]]:
    for package in (app.sessions, app.notifications):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(module.name)
    kinds: set[type[errors.DomainError]] = set()
    todo = [errors.DomainError]
    while todo:
        kind = todo.pop()
        kinds.add(kind)
        todo += kind.__subclasses__()
    return kinds


def test_every_refusal_kind_has_one_http_answer_in_app_api() -> None:
    raised = [kind for kind in refusal_kinds() if not kind.__subclasses__()]  # the kinds code raises
    assert len(raised) > 10
    unmapped = [kind.__qualname__ for kind in raised
                if not issubclass(kind, ApiError) and not any(base in STATUS for base in kind.__mro__)]
    assert not unmapped, f"refusal kinds app/api/errors.py does not map: {unmapped}"
    assert status_of(errors.Stale("stale move")) == 409
    assert status_of(errors.RefusedMidway("illegal")) == 400
    assert status_of(errors.not_found("match 'x'")) == 404
    assert status_of(ApiError(401, "sign in first")) == 401


# what only the sessions layer may do to a database session
WRITES = {"begin", "begin_nested", "commit", "rollback", "flush", "execute", "scalar", "scalars", "add", "add_all",
          "delete", "merge", "refresh", "get", "stream", "stream_scalars"}


# a transaction, the match's lock, waking the bots: app.sessions.work does these for every route
OWNED_BY_THE_UNIT_OF_WORK = {"begin", "begin_nested", "commit", "rollback", "writing", "lock", "kick"}


def test_routers_do_no_sql_and_own_no_transactions() -> None:
    found = []
    for path, tree in sources(Path(app.api.__file__).parent):
        where = path.relative_to(ROOT)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sqlalchemy"):
                names = {alias.name for alias in node.names}
                if node.module != "sqlalchemy.ext.asyncio" or names - {"AsyncSession"}:
                    found.append(f"{where}:{node.lineno} imports {node.module}: {sorted(names)}")
            if isinstance(node, ast.Import) and any(a.name.startswith("sqlalchemy") for a in node.names):
                found.append(f"{where}:{node.lineno} imports sqlalchemy")
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in WRITES
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "db"):
                found.append(f"{where}:{node.lineno} calls db.{node.func.attr}")
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in OWNED_BY_THE_UNIT_OF_WORK):
                found.append(f"{where}:{node.lineno} calls {ast.unparse(node.func)}")
    assert not found, "\n".join(found)
