# Convenience targets; the README's two commands are scripts/main.sh and scripts/test.sh.
PREFIX ?= /usr/local

.PHONY: build test main bench install
build:
	swift build -c release --product runmate
test:
	bash scripts/test.sh
main:
	bash scripts/main.sh
bench:
	bash scripts/bench.sh
install: build
	install -d $(PREFIX)/bin $(PREFIX)/share/runmate/plan-templates
	install -m 0755 .build/release/runmate $(PREFIX)/bin/runmate
	install -m 0644 plan-templates/*.yaml plan-templates/README.md $(PREFIX)/share/runmate/plan-templates/
