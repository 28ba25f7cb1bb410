# `make run` serves Warroom with an embedded PostgreSQL; `make test` runs every test.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test test-fast test-slow test-slow-serial lint bench clean messages

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[test]"
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m app serve

# the suite and the thousand-game runs side by side: the suite (servers, sockets, a browser) leaves
# about one core idle, which the runs take at a lower priority; the suite's lane then plays half of
# the Attack! and of the Autarcha games (seeds 1500-1999) while the other lane ends with the first
# halves; the runs' output follows the suite's
test: $(STAMP)
	@nice -n 10 $(MAKE) --no-print-directory test-slow-serial ATTACK_SEEDS="ATTACK_FIRST=1000 ATTACK_GAMES=500" \
		AUTARCHA_SEEDS="AUTARCHA_FIRST=1000 AUTARCHA_GAMES=500" > .test-slow.log 2>&1 & slow=$$!; \
	$(MAKE) --no-print-directory test-fast; fast=$$?; \
	ATTACK_FIRST=1500 ATTACK_GAMES=500 nice -n 10 $(PY) -m pytest -q -p no:cacheprovider -m at_slow tests/games/attack; \
	attack=$$?; \
	AUTARCHA_FIRST=1500 AUTARCHA_GAMES=500 nice -n 10 $(PY) -m pytest -q -p no:cacheprovider -m au_slow tests/games/autarcha; \
	autarcha=$$?; wait $$slow; slow_rc=$$?; cat .test-slow.log; \
	test $$fast -eq 0 && test $$attack -eq 0 && test $$autarcha -eq 0 && test $$slow_rc -eq 0

# everything but the thousand-game runs (a few minutes)
test-fast: $(STAMP)
	@bash scripts/ensure_chromium.sh
	$(VENV)/bin/ruff check app tests scripts migrations
	$(PY) -m pytest -q -p no:cacheprovider

# 1,000 seeded QMG bot-vs-bot games through the fuzzer's checks (app/fuzz.py) and QMG's invariants,
# seeds 1000-1999 split over two processes; then 1,000 Total Domination games the same way, then 1,000 Attack!
# games, then 1,000 First to Fight games, then 1,000 Autarcha games
test-slow: $(STAMP)
	QMG_FIRST=1000 QMG_GAMES=500 $(PY) -m pytest -q -p no:cacheprovider -m qmg_slow tests/games/qmg & first=$$!; \
	QMG_FIRST=1500 QMG_GAMES=500 $(PY) -m pytest -q -p no:cacheprovider -m qmg_slow tests/games/qmg; second=$$?; \
	wait $$first && test $$second -eq 0
	TD_FIRST=1000 TD_GAMES=500 $(PY) -m pytest -q -p no:cacheprovider -m td_slow tests/games/total_domination & first=$$!; \
	TD_FIRST=1500 TD_GAMES=500 $(PY) -m pytest -q -p no:cacheprovider -m td_slow tests/games/total_domination; second=$$?; \
	wait $$first && test $$second -eq 0
	ATTACK_FIRST=1000 ATTACK_GAMES=500 $(PY) -m pytest -q -p no:cacheprovider -m at_slow tests/games/attack & first=$$!; \
	ATTACK_FIRST=1500 ATTACK_GAMES=500 $(PY) -m pytest -q -p no:cacheprovider -m at_slow tests/games/attack; second=$$?; \
	wait $$first && test $$second -eq 0
	FTF_FIRST=1000 FTF_GAMES=500 $(PY) -m pytest -q -p no:cacheprovider -m ftf_slow tests/games/first_to_fight & first=$$!; \
	FTF_FIRST=1500 FTF_GAMES=500 $(PY) -m pytest -q -p no:cacheprovider -m ftf_slow tests/games/first_to_fight; second=$$?; \
	wait $$first && test $$second -eq 0
	AUTARCHA_FIRST=1000 AUTARCHA_GAMES=500 $(PY) -m pytest -q -p no:cacheprovider -m au_slow tests/games/autarcha & first=$$!; \
	AUTARCHA_FIRST=1500 AUTARCHA_GAMES=500 $(PY) -m pytest -q -p no:cacheprovider -m au_slow tests/games/autarcha; second=$$?; \
	wait $$first && test $$second -eq 0

# the same runs one after the other in one process each (what `make test` runs beside the suite,
# with half of the Attack! and of the Autarcha games)
ATTACK_SEEDS ?= ATTACK_FIRST=1000 ATTACK_GAMES=1000
AUTARCHA_SEEDS ?= AUTARCHA_FIRST=1000 AUTARCHA_GAMES=1000
test-slow-serial: $(STAMP)
	QMG_FIRST=1000 QMG_GAMES=1000 $(PY) -m pytest -q -p no:cacheprovider -m qmg_slow tests/games/qmg
	TD_FIRST=1000 TD_GAMES=1000 $(PY) -m pytest -q -p no:cacheprovider -m td_slow tests/games/total_domination
	FTF_FIRST=1000 FTF_GAMES=1000 $(PY) -m pytest -q -p no:cacheprovider -m ftf_slow tests/games/first_to_fight
	$(ATTACK_SEEDS) $(PY) -m pytest -q -p no:cacheprovider -m at_slow tests/games/attack
	$(AUTARCHA_SEEDS) $(PY) -m pytest -q -p no:cacheprovider -m au_slow tests/games/autarcha

# the UI's gettext catalogues (app/locale): extract the message ids, add new ones to every language,
# compile the .mo (optional: a missing or older .mo is compiled from its .po when the server starts)
messages: $(STAMP)
	$(PY) scripts/messages.py

lint: $(STAMP)
	$(VENV)/bin/ruff check app tests scripts migrations

bench: $(STAMP)
	$(PY) scripts/bench_move_path.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
