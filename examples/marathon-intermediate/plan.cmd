plan --distance marathon --level intermediate --weeks 16 --recent-race 10k=50:00 --now 2026-11-21
