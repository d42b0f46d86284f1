# The two commands of the README: `make run` and `make test`. Both set everything up first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup native test-packages run play test orca lint bench soak fuzz clean extract update-catalogs compile-catalogs

# Translations (issue 6): the template and catalogs are in cardroom/i18n; the .mo files are built.
I18N       := cardroom/i18n
POT        := $(I18N)/cardroom.pot
LOCALES    := $(I18N)/locale
TRANSLATED := it fr nl es de

setup: $(STAMP) compile-catalogs native

# The hot path of simulated kittens games compiled with mypyc into build/native (issue 16), used
# only while its sources are unchanged (cardroom/native.py); without a C compiler, the sources.
native: $(STAMP)
	@$(BIN)/python -m cardroom.native_build

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The server with its web page, on this machine only; PORT chooses the port (default 8000).
run: setup
	$(BIN)/cardroom serve

# Throw Throw Burrito in this terminal against three bots.
play: setup
	$(BIN)/cardroom play burrito --bots 3

lint: setup
	$(BIN)/ruff check cardroom tests bench
	$(BIN)/ruff format --check cardroom tests bench
	$(BIN)/mypy

# The Debian packages the tests need (chromium, tmux, postgresql, redis-server, nginx-light, gcc, python3-dev,
# and orca, xvfb, xdotool, dbus for the screen reader): installed as root, else named. No
# service is started: the tests start their own PostgreSQL and Redis.
test-packages:
	@scripts/test-packages

# Every test (scripts/run-tests): the test files on TEST_WORKERS workers (pytest-xdist; most
# tests wait on game clocks, not on the CPU), and beside them at a higher priority a real screen
# reader reading the page (tests/screenreader: Orca 43 on a virtual display, docs/speech.md;
# TEST_ORCA=0 leaves it out).
# Each worker starts its own PostgreSQL and Redis; servers of your own (CARDROOM_TEST_POSTGRES,
# CARDROOM_TEST_REDIS) are emptied by the tests, so then the files run one after another.
# The slowest tests are listed at the end: tests/schedule.py's SECONDS are kept from them.
TEST_WORKERS ?= $(if $(CARDROOM_TEST_POSTGRES)$(CARDROOM_TEST_REDIS),0,5)
TEST_ORCA ?= 1
# `make lint`'s checks run beside the tests too (scripts/run-tests: their first minutes leave
# a core half idle), reported before the tests' own output; either failing fails the run.
test: test-packages setup
	@TEST_WORKERS=$(TEST_WORKERS) TEST_ORCA=$(TEST_ORCA) scripts/run-tests

# The screen reader's tests alone (`make test` runs them beside the others): Orca 43
# reads the page while a kittens game and a burrito round are played by keys; about five
# minutes, mostly waiting.
orca: setup test-packages
	$(BIN)/python -m pytest tests/screenreader -n 0 -s

# Engine throughput (the kittens engine also timed against BENCH_AGAINST, the commit before issue
# 16 made it faster), the speech budget (words a minute one listener hears, per verbosity), then
# the server load run (200 tables of 6 bot-driven websocket clients).
BENCH_AGAINST ?= 86d8ed8
bench: setup
	$(BIN)/python -m bench --against $(BENCH_AGAINST)
	$(BIN)/python -m bench.speech
	$(BIN)/python -m bench.load --tables 200 --players 6 --seconds 30 --durability

# Bot games with joins, leaves and reconnects against a real server for MINUTES (30): memory,
# file descriptors and games kept. Not part of `make test`.
MINUTES ?= 30
soak: setup
	$(BIN)/python -m bench.soak --minutes $(MINUTES)

# The protocol fuzzer, longer than the bounded run in `make test`.
fuzz: setup
	$(BIN)/python -m bench.fuzz --examples 5000

# Every msgid of the sources into the template, sorted and without line numbers, so that a new
# sentence shows in the diff as one entry and two branches adding sentences rarely touch the same lines.
extract: $(STAMP)
	$(BIN)/pybabel -q extract -F $(I18N)/babel.cfg -o $(POT) --project=cardroom --version=0.1.0 \
		--copyright-holder="cardroom contributors" --add-comments=Translators: --no-location --sort-output .

# The template's msgids into every catalog (a catalog that does not exist yet is created).
update-catalogs: extract
	@for lang in $(TRANSLATED); do \
		if [ -f $(LOCALES)/$$lang/LC_MESSAGES/cardroom.po ]; then \
			$(BIN)/pybabel -q update -D cardroom -i $(POT) -d $(LOCALES) -l $$lang --ignore-obsolete || exit 1; \
		else \
			$(BIN)/pybabel init -D cardroom -i $(POT) -d $(LOCALES) -l $$lang || exit 1; \
		fi; \
	done

# The .mo files the server and the terminal read (not committed).
compile-catalogs: $(STAMP)
	$(BIN)/pybabel compile -D cardroom -d $(LOCALES) --statistics

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis build/native
	find $(LOCALES) -name '*.mo' -delete
