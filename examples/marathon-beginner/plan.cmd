plan --distance marathon --level beginner --weeks 16 --current-weekly-km 25 --now 2026-11-21
