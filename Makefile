# Convenience targets; the README's two commands are scripts/main.sh and scripts/test.sh.
#
#   make install [PREFIX=/usr/local] [DESTDIR=]   release build; binary, plan templates, man page, completions
#   make uninstall [PREFIX=/usr/local] [DESTDIR=]
#   make man                                       regenerate man/runmate.1 from the command tree
PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift

BINDIR = $(DESTDIR)$(PREFIX)/bin
DATADIR = $(DESTDIR)$(PREFIX)/share
MANDIR = $(DATADIR)/man/man1
TEMPLATEDIR = $(DATADIR)/runmate/plan-templates
BASHDIR = $(DATADIR)/bash-completion/completions
ZSHDIR = $(DATADIR)/zsh/site-functions
FISHDIR = $(DATADIR)/fish/vendor_completions.d

RUNMATE = .build/release/runmate
COMPLETIONS = .build/completions
TEMPLATES = $(notdir $(wildcard plan-templates/*.yaml)) README.md
# The page's date: the last change to the command line, so that regenerating an unchanged tree changes nothing.
MAN_DATE = $(shell git log -1 --format=%cs -- Sources/runmate 2>/dev/null || date +%F)

.PHONY: build test main bench completions man install uninstall
build:
	$(SWIFT) build -c release --product runmate
test:
	bash scripts/test.sh
main:
	bash scripts/main.sh
bench:
	bash scripts/bench.sh

# The shell scripts come from the binary itself (swift-argument-parser), so they always match its options.
completions: build
	mkdir -p $(COMPLETIONS)
	$(RUNMATE) --generate-completion-script bash > $(COMPLETIONS)/runmate.bash
	$(RUNMATE) --generate-completion-script zsh > $(COMPLETIONS)/_runmate
	$(RUNMATE) --generate-completion-script fish > $(COMPLETIONS)/runmate.fish

# argument-parser's GenerateManual plugin (mdoc from `runmate --experimental-dump-help`), then examples kept
# literal (man/literal-examples.awk). The page is committed; runmateTests checks it names every command and option.
man:
	$(SWIFT) package plugin generate-manual --configuration debug --date $(MAN_DATE)
	awk -f man/literal-examples.awk .build/plugins/GenerateManual/outputs/runmate/runmate.1 > man/runmate.1

install: build completions
	install -d $(BINDIR) $(TEMPLATEDIR) $(MANDIR) $(BASHDIR) $(ZSHDIR) $(FISHDIR)
	install -m 0755 $(RUNMATE) $(BINDIR)/runmate
	install -m 0644 $(addprefix plan-templates/,$(TEMPLATES)) $(TEMPLATEDIR)/
	install -m 0644 man/runmate.1 $(MANDIR)/runmate.1
	install -m 0644 $(COMPLETIONS)/runmate.bash $(BASHDIR)/runmate
	install -m 0644 $(COMPLETIONS)/_runmate $(ZSHDIR)/_runmate
	install -m 0644 $(COMPLETIONS)/runmate.fish $(FISHDIR)/runmate.fish

uninstall:
	rm -f $(BINDIR)/runmate $(MANDIR)/runmate.1 $(BASHDIR)/runmate $(ZSHDIR)/_runmate $(FISHDIR)/runmate.fish
	rm -f $(addprefix $(TEMPLATEDIR)/,$(TEMPLATES))
	rmdir $(TEMPLATEDIR) $(DATADIR)/runmate 2>/dev/null || true
