# airships-env developer tasks.
#
#   make venv       create .venv and install the project with [env,train,web,dev,rllib] extras and
#                   the native core (rebuilt whenever airships_env/native/src changes)
#   make native     rebuild the native core
#   make test-asan  the native tests against a build with AddressSanitizer and UBSan
#   make test       fast test suite (excludes tests marked `slow`)
#   make test-slow  only the `slow` tests
#   make test-all   everything
#   make mutation   break each rule in each engine, see the tests notice (scripts/mutation_run.py)
#   make run        the main job (scripts/run_main.py)
#   make bench      benchmarks (scripts/bench.py)
#   make docs       the documentation site, built strictly into site/ (mkdocs.yml)
#   make serve      the web app on http://127.0.0.1:8000 (airships serve)
#   make lint       ruff check + ruff format --check + mypy
#   make format     ruff format + ruff check --fix
#   make clean      remove .venv and caches

SHELL := /bin/bash

# Python used to create the venv: python3.11 if present, else python3 (override: make PYTHON=...).
ifeq ($(origin PYTHON),undefined)
PYTHON := $(shell command -v python3.11 >/dev/null 2>&1 && echo python3.11 || echo python3)
endif

VENV := .venv
VPY := $(VENV)/bin/python
PIP := $(VPY) -m pip
STAMP := $(VENV)/.installed
# The native core is rebuilt when its C sources change (pip builds it in place: editable).
NATIVE_STAMP := $(VENV)/.native
NATIVE_SOURCES := setup.py $(wildcard airships_env/native/src/*.c airships_env/native/src/*.h)

# CPU build of torch that lies on this machine's disk. It MUST be installed before the
# project: a bare `torch` requirement with no torch present pulls a multi-GB CUDA build.
TORCH_VERSION := 2.13.0
EXTRAS := env,train,web,dev,rllib,docs

.PHONY: venv native test-asan run test test-slow test-all mutation bench docs serve lint format clean

venv: $(STAMP) $(NATIVE_STAMP)

$(VPY):
	$(PYTHON) -m venv $(VENV)

# Re-runs only when pyproject.toml (or this Makefile) changes, or the venv is new.
# torch is repeated on the second line so pip can never swap it for another build.
$(STAMP): pyproject.toml Makefile | $(VPY)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet torch==$(TORCH_VERSION)
	$(PIP) install --quiet -e '.[$(EXTRAS)]' torch==$(TORCH_VERSION)
	touch $(STAMP) $(NATIVE_STAMP)

$(NATIVE_STAMP): $(NATIVE_SOURCES) | $(STAMP)
	$(PIP) install --quiet --no-build-isolation --no-deps -e .
	touch $(NATIVE_STAMP)

native: $(NATIVE_STAMP)  ## rebuild the native core after editing its C sources

# The native core built with AddressSanitizer and UBSan, and the native tests run against it.
ASAN_DIR := build/asan
test-asan: venv
	mkdir -p $(ASAN_DIR)
	gcc -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
	    -std=c11 -fPIC -shared -I$$($(VPY) -c "import sysconfig; print(sysconfig.get_paths()['include'])") \
	    airships_env/native/src/*.c -o $(ASAN_DIR)/_core.so -lm
	AIRSHIPS_NATIVE_LIBRARY=$(ASAN_DIR)/_core.so ASAN_OPTIONS=detect_leaks=0 \
	    LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libubsan.so)" \
	    $(VPY) -m pytest -p no:cacheprovider tests/native $(ASAN_ARGS)

run: venv
	$(VPY) scripts/run_main.py

test: venv
	$(VPY) -m pytest

test-slow: venv
	$(VPY) -m pytest -m slow

test-all: venv
	$(VPY) -m pytest -m ''

mutation: venv
	$(VPY) scripts/mutation_run.py

bench: venv
	$(VPY) scripts/bench.py

# Strict: a broken link, a missing page or an unresolved API reference fails the build.
docs: venv
	NO_MKDOCS_2_WARNING=1 $(VPY) -m mkdocs build --strict --site-dir site

serve: venv
	$(VENV)/bin/airships serve

lint: venv
	$(VPY) -m ruff check .
	$(VPY) -m ruff format --check .
	$(VPY) -m mypy

format: venv
	$(VPY) -m ruff format .
	$(VPY) -m ruff check --fix .

clean:
	rm -rf $(VENV) build dist site *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -not -path './.git/*' -exec rm -rf {} +
