export --distance half --level advanced --weeks 14 --recent-race half=1:32:00 --runs-per-week 6 --now 2026-11-21 --at 06:30 --at sat=08:00 --tz Europe/Berlin --remind 30m --remind 20:00-1d --out -
