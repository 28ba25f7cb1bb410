"""The Alembic history has one head and builds exactly the tables the models describe."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine

from app.db import sync_url
from app.models import Base
from tests.conftest import ROOT


def test_one_head():
    cfg = Config()
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    assert len(ScriptDirectory.from_config(cfg).get_heads()) == 1


def test_migrations_match_the_models(database_url):
    engine = create_engine(sync_url(database_url))
    with engine.connect() as conn:
        drift = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    engine.dispose()
    assert drift == []
