# `make run` serves Warroom with an embedded PostgreSQL; `make test` runs every test.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[test]"
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m app serve

test: $(STAMP)
	@bash scripts/ensure_chromium.sh
	$(VENV)/bin/ruff check app tests scripts migrations
	$(PY) -m pytest -q -p no:cacheprovider

lint: $(STAMP)
	$(VENV)/bin/ruff check app tests scripts migrations

bench: $(STAMP)
	$(PY) scripts/bench_live.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
