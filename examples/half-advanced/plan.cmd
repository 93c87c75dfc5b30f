plan --distance half --level advanced --weeks 14 --recent-race half=1:32:00 --runs-per-week 6 --now 2026-11-21
