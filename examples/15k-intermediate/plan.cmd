plan --distance 15k --level intermediate --race-date 2027-04-25 --recent-race 10k=48:30 --now 2026-11-21
