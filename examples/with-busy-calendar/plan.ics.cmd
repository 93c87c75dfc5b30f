export --distance 10k --level intermediate --weeks 10 --start 2026-11-30 --now 2026-11-21 --at 07:00 --at sun=09:00 --tz America/New_York --busy examples/with-busy-calendar/busy.ics --out -
