plan --distance marathon --level beginner --weeks 18 --current-weekly-km 25 --recent-race 10k=62:00 --units mi --now 2026-11-21
