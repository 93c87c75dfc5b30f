export --distance 5k --level beginner --weeks 8 --now 2026-11-21 --tz America/New_York --out -
