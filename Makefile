# Developer commands. The README documents `make run` and `make test`; the rest
# are for working on the project. GNU make.

SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
ADDR   ?= 127.0.0.1:8000
ARGS   ?=

.PHONY: help venv node run admin test test-browser check check-deploy fmt bench tables messages lighthouse clean

help:
	@echo "make run     set up (.venv, install, migrate, load presets) and serve http://$(ADDR)"
	@echo "             (for the other phones at the table: make run ADDR=0.0.0.0:8000)"
	@echo "make admin   the first account: owner of the room / serves, and the site's staff"
	@echo "make test    run the whole test suite (extra pytest arguments: ARGS='...';"
	@echo "             processes: WORKERS=auto, one per core, or WORKERS=0 for one)"
	@echo "make test-browser  only the real-browser tests (tests/browser; needs Chromium)"
	@echo "make check   ruff lint, ruff format check, mypy"
	@echo "make check-deploy  manage.py check --deploy in docs/deploy.md's configuration"
	@echo "make fmt     ruff format + ruff check --fix"
	@echo "make bench   run the benchmarks (python -m benchmarks, python -m benchmarks.newhands)"
	@echo "make tables  rebuild the shipped tables: rules/data/*.bin, rules/rulesets/mcr/data/*.bin (~15 s)"
	@echo "make messages  update and compile locale/ translations (needs GNU gettext)"
	@echo "make lighthouse  Lighthouse (mobile) over the main pages, zh and en (needs Chromium; ~3 min)"

# The virtual environment is created once; the editable install is redone only
# when pyproject.toml is newer than the stamp, so repeated runs are fast.
$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --disable-pip-version-check -e '.[dev]'
	@touch $@

venv: $(STAMP)

# The development tools from npm (package.json: axe-core for the browser tests'
# accessibility checks, lighthouse for `make lighthouse`); nothing from npm is served.
# `npm ci` installs exactly package-lock.json, again whenever it or package.json is
# newer than the stamp. Without npm only SKIP_BROWSER_TESTS=1 runs go on (the axe
# tests are browser tests and fail, not skip, without axe-core).
NODE_STAMP := node_modules/.installed

$(NODE_STAMP): package.json package-lock.json
	@if ! command -v npm >/dev/null 2>&1; then \
	  if [ -n "$$SKIP_BROWSER_TESTS" ]; then echo "make: npm not found; SKIP_BROWSER_TESTS is set, going on without node_modules"; exit 0; fi; \
	  echo "make: npm not found: the browser tests need axe-core from npm (apt-get install nodejs npm)" >&2; exit 1; \
	fi; \
	npm ci --no-audit --no-fund --loglevel=error && touch $@

node: $(NODE_STAMP)

run: $(STAMP)
	DJANGO_DEBUG=1 $(PY) manage.py migrate --noinput
	DJANGO_DEBUG=1 $(PY) manage.py load_presets
	@echo
	@$(PY) -c "from scorer.web import lan; print(lan.banner('$(ADDR)'))"
	@echo
	MAHJONG_LISTEN=$(ADDR) DJANGO_DEBUG=1 $(PY) manage.py runserver $(ADDR)

# The first account on this install (asks for a name and a password): the owner of
# the room `/` serves, who signs in at /accounts/login/, and the site's staff (/admin/).
admin: $(STAMP)
	DJANGO_DEBUG=1 $(PY) manage.py migrate --noinput
	DJANGO_DEBUG=1 $(PY) manage.py room_owner --superuser

# pytest exits with 5 when it collected no tests: treat that as a failure.
# The browser tests (tests/browser) run whenever Chromium is found (/usr/bin/chromium
# or $$CHROMIUM) and are skipped, with one line saying why, when it isn't or when
# SKIP_BROWSER_TESTS=1. Their screenshots go to test-artifacts/screenshots/.
# The suite is spread over WORKERS processes (pytest-xdist; `auto`: one per core;
# WORKERS=0 runs it in this one process, with a line of dots per test file). The
# slowest tests (over 2 s) are listed at the end.
# Bytecode is written even where the shell says not to (PYTHONDONTWRITEBYTECODE, set
# on some machines and CI runners): each worker compiles the tests, assertions
# rewritten, and the project, 8-10 s of a worker's start; with the files kept, the
# next run (CI's PostgreSQL run, a developer's second run) starts in 2-4 s.
WORKERS ?= auto
test: $(STAMP) $(NODE_STAMP)
	@set +e; PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n $(WORKERS) --verbosity=0 --durations=15 --durations-min=2 $(ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests (exit 5) -- failing." >&2; exit 1; fi; \
	exit $$rc

test-browser:
	@$(MAKE) --no-print-directory test ARGS='tests/browser $(ARGS)'

# mypy's django-stubs plugin imports the settings, which refuse the development
# key when DEBUG is off; allow it for the type check only.
check: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	DJANGO_ALLOW_INSECURE_KEY=1 $(PY) -m mypy rules scorer mahjong_site benchmarks

fmt: $(STAMP)
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

bench: $(STAMP)
	$(PY) -m benchmarks $(ARGS)
	$(PY) -m benchmarks.newhands $(ARGS)

# The shipped tables (rules/data/suit_need.bin, suit_adds.bin; MCR's in rules/rulesets/mcr/data/);
# tests/rules/test_tables.py, test_mcr_relations.py and test_mcr_suit_cuts.py
# check the files against what they are built from.
tables: $(STAMP)
	$(PY) -m rules.build_tables
	$(PY) -m rules.rulesets.mcr.build_relations
	$(PY) -m rules.rulesets.mcr.build_suit_cuts

# docs/deploy.md's configuration (a throwaway key, example host): must pass cleanly.
check-deploy: $(STAMP)
	DJANGO_SECRET_KEY="$$($(PY) -c 'import secrets; print(secrets.token_urlsafe(50))')" \
	DJANGO_ALLOWED_HOSTS=mj.example.org DJANGO_CSRF_TRUSTED_ORIGINS=https://mj.example.org \
	DJANGO_HTTPS=1 DJANGO_BEHIND_PROXY=1 MAHJONG_PUBLIC_URL=https://mj.example.org \
	$(PY) manage.py check --deploy --fail-level WARNING

messages: $(STAMP)
	DJANGO_DEBUG=1 $(PY) manage.py makemessages -l zh_Hans --no-obsolete --add-location file --ignore=tests --ignore=benchmarks --ignore=tools --ignore=node_modules --ignore=.venv
	DJANGO_DEBUG=1 $(PY) manage.py compilemessages --ignore=$(VENV)

# Lighthouse 12 (mobile, simulated slow 4G) on the main pages in zh and en, against a
# throwaway server with a demo table (benchmarks/lighthouse.py); reports go to
# test-artifacts/lighthouse/, the scores to the terminal (quoted in docs/performance.md).
# Not part of `make test` or CI: it takes minutes and measures, it doesn't test.
CHROME_PATH ?= /usr/bin/chromium
lighthouse: $(STAMP) $(NODE_STAMP)
	CHROME_PATH=$(CHROME_PATH) $(PY) -m benchmarks.lighthouse $(ARGS)

clean:
	rm -rf $(VENV) node_modules staticfiles test-artifacts .pytest_cache .mypy_cache .ruff_cache *.egg-info
