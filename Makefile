# The two commands: `make run` (the app with the demo season) and `make test` (the whole suite).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test test-fast lint check bench clean-db

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Reinstall only when the dependencies change.
$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo --if-empty
	$(PY) scripts/run_local.py

# The fast loop while you work: `make check` (lint, format, import contracts, types) and
# `make test-fast` (the engines and the pure modules: no database, no worker, no browser).
check: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy config accounts engine svg sheets plugins specforms tableexport riders races motor season

lint: check
	DJANGO_SETTINGS_MODULE=config.settings_test $(PY) manage.py makemigrations --check --dry-run

FAST_TESTS := tests/engine tests/races tests/test_i18n.py
test-fast: $(STAMP)
	$(PY) -m pytest -n auto -q -m "not django_db and not postgres and not redis and not worker and not browser" \
		$(FAST_TESTS) $(PYTEST_ARGS)

test: lint
	$(PY) -m pytest -n auto $(PYTEST_ARGS)

bench: $(STAMP)
	$(PY) bench/engine.py

clean-db:
	rm -f db.sqlite3 db.sqlite3-journal db.sqlite3-wal db.sqlite3-shm
