export --distance marathon --level beginner --weeks 16 --current-weekly-km 25 --now 2026-11-21 --tz Europe/Berlin --at 07:00 --at sun=08:30 --out -
