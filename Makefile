# fbservice developer commands. See README.md.
#   make run    install, migrate, run web + Celery worker + beat + clock loop (Ctrl-C stops all)
#   make test   install, run the whole pytest suite against real PostgreSQL
#   make lint   ruff check, ruff format --check, mypy (strict on the pure core)
#   make bench  run the benchmarks in bench/ (the timer benchmark starts its own worker)

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
# What is installed: the runtime set (make run) and the test and lint set on top (make test).
RUN_STAMP := $(VENV)/.requirements-run.stamp
STAMP  := $(VENV)/.requirements.stamp
# Runs a command with DATABASE_URL / CELERY_BROKER_URL set: yours if exported,
# otherwise the embedded PostgreSQL / Redis (started or reused, see fbservice/embedded.py).
EMBED  := $(PY) -m fbservice.embedded exec --
RUN_HOST ?= 127.0.0.1
PORT   ?= 8000
# strict mypy: the games (engines and service), the event store and the API
MYPY_PATHS = games events api webhooks ratings tournaments fbservice/embedded.py fbservice/management fbservice/devserver.py \
             fbservice/server.py fbservice/http_limits.py fbservice/asgi.py

.PHONY: install run test lint bench migrate staff stop status clean

install: $(STAMP)

$(PY):
	$(PYTHON) -m venv $(VENV)

# Reinstall only when a requirements file changed. `make run` needs the runtime set only
# (requirements.txt); tests, lint and benchmarks add requirements-dev.txt.
$(RUN_STAMP): requirements.txt | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(RUN_STAMP)

$(STAMP): requirements.txt requirements-dev.txt | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP) $(RUN_STAMP)

migrate: $(RUN_STAMP)
	$(EMBED) $(PY) manage.py migrate --noinput

run: migrate
	@echo "Starting fbservice on http://$(RUN_HOST):$(PORT)/ (Ctrl-C stops web, worker, beat and clock loop)"
	$(EMBED) $(PY) -m fbservice.devserver --host $(RUN_HOST) --port $(PORT)

# The browser tests (tests/web/) drive a Chromium already on the machine through Playwright;
# without one they are skipped with a line saying how to install it (tests/web/chromium.py).
# Nothing here needs root: .ci/run installs Debian's chromium and sets FB_REQUIRE_BROWSER=1.
# PYTEST_ARGS replaces the default -q: `make test PYTEST_ARGS="-x tests/api"`.
PYTEST_ARGS ?= -q
test: $(STAMP)
	$(EMBED) $(PY) -m pytest $(PYTEST_ARGS)

# Every bench/*.py script (each prints its figures and the machine); pick some with
# `make bench BENCHES="timers"`.
BENCHES = $(sort $(basename $(notdir $(filter-out bench/_% bench/__init__.py,$(wildcard bench/*.py)))))
bench: $(STAMP) migrate
	@for b in $(BENCHES); do \
		echo "== bench.$$b"; \
		$(EMBED) $(PY) -m bench.$$b || exit 1; \
	done

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy $(MYPY_PATHS)

# make staff STAFF_USER=admin STAFF_PASSWORD=secret
STAFF_USER ?= admin
staff: migrate
	@test -n "$(STAFF_PASSWORD)" || { echo "usage: make staff STAFF_USER=admin STAFF_PASSWORD=..."; exit 2; }
	@FB_STAFF_PASSWORD='$(STAFF_PASSWORD)' $(EMBED) $(PY) manage.py ensure_staff --username '$(STAFF_USER)'

# Stop the embedded PostgreSQL / Redis (they keep running between commands on purpose).
stop:
	@test -x $(PY) && $(PY) -m fbservice.embedded stop || true

status:
	@$(PY) -m fbservice.embedded status

clean: stop
	rm -rf .local .pytest_cache .mypy_cache .ruff_cache staticfiles
