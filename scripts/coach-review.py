#!/usr/bin/env python3
"""Coach review of `runmate plan`: a seeded sample of runners, each plan judged by rules written from coaching
books (Pfitzinger, Daniels, Higdon, Hansons), not from the engine's own rules (issue 45).

    /usr/bin/python3 scripts/coach-review.py --runmate .build/release/runmate
    /usr/bin/python3 scripts/coach-review.py --seed 7 --count 300 --json /tmp/review.json
    /usr/bin/python3 scripts/coach-review.py --show 3                   # three plans read in full as week tables
    /usr/bin/python3 scripts/coach-review.py --args "--distance marathon --level beginner --weeks 18"

Every plan is classified: "as is" (no rule failed), "after a short edit" (only minor rules failed: a coach fixes them
in ten minutes), or "not signable" (a major rule failed). A refusal (non-zero exit) is judged fair or unfair by an
independent feasibility model (long-run growth, volume floors, goal reachability), and a refusal that offers another
timeline is re-run with it to see whether that plan really reaches what the refusal said was needed.

Python standard library only. Plans run one at a time, each with `--now 2027-02-01T08:00:00Z`, in a throwaway
database and config directory (nothing of the user's is read or written).
"""

import argparse
import collections
import datetime as dt
import json
import math
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

NOW = "2027-02-01T08:00:00Z"
NOW_YEAR = 2027
DISTANCES = ["5k", "10k", "15k", "10mi", "half", "marathon"]
LEVELS = ["beginner", "intermediate", "advanced"]
RACE_M = {"5k": 5000.0, "10k": 10000.0, "15k": 15000.0, "10mi": 16093.44, "half": 21097.5, "marathon": 42195.0}
BANDS = [(6, 11), (12, 17), (18, 22), (23, 30)]
MINOR, MAJOR = "minor", "major"

# Runner defaults per distance and level (the engine's, read from plan-templates/ when available, else these, as
# of a7bdc2f): used only to know what a refused runner who gave no state would have been planned from.
DEFAULTS = {
    "5k": {"beginner": (10, 4, 3), "intermediate": (25, 8, 4), "advanced": (40, 12, 5)},
    "10k": {"beginner": (15, 5, 4), "intermediate": (30, 10, 4), "advanced": (45, 14, 5)},
    "15k": {"beginner": (18, 6, 4), "intermediate": (30, 10, 4), "advanced": (45, 14, 5)},
    "half": {"beginner": (20, 8, 4), "intermediate": (30, 11, 4), "advanced": (45, 15, 5)},
    "marathon": {"beginner": (30, 12, 4), "intermediate": (45, 16, 5), "advanced": (60, 20, 6)},
}
DEFAULTS["10mi"] = DEFAULTS["15k"]

# ---------------------------------------------------------------------------------------------------------------
# Daniels' VDOT, from the published equations (Daniels & Gilbert, "Oxygen Power", 1979; Daniels' Running Formula,
# "VDOT values"): VO2 = -4.60 + 0.182258 v + 0.000104 v^2 (v in m/min), the fraction of VO2max sustainable for t
# minutes = 0.8 + 0.1894393 e^(-0.012778 t) + 0.2989558 e^(-0.1932605 t).


def vo2_of(v):
    return -4.60 + 0.182258 * v + 0.000104 * v * v


def pct_max(t):
    return 0.8 + 0.1894393 * math.exp(-0.012778 * t) + 0.2989558 * math.exp(-0.1932605 * t)


def vdot_of(dist_m, seconds):
    t = seconds / 60.0
    return vo2_of(dist_m / t) / pct_max(t)


def race_seconds(vdot, dist_m):
    lo, hi = dist_m / 600.0 * 60, dist_m / 50.0 * 60  # 36 s/km … 20 min/km
    for _ in range(80):
        mid = (lo + hi) / 2
        if vdot_of(dist_m, mid) > vdot:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def velocity_for_vo2(vo2):
    a, b, c = 0.000104, 0.182258, -4.60 - vo2
    return (-b + math.sqrt(b * b - 4 * a * c)) / (2 * a)


def pace_s_per_km(vdot, fraction):
    """Training pace at a fraction of VDOT (Daniels: E 59-74 %, T 88 %)."""
    return 60000.0 / velocity_for_vo2(vdot * fraction)


def vdot_from_threshold_pace(s_per_km):
    return vo2_of(60000.0 / s_per_km) / 0.88


def pc(x, sign=False, digits=0):
    """A share as the project writes it: 23 %, +10.4 %."""
    return f"{100 * x:{'+' if sign else ''}.{digits}f} %"


def fmt_time(s):
    s = int(round(s))
    h, m, sec = s // 3600, (s % 3600) // 60, s % 60
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def parse_time(text):
    parts = [int(p) for p in text.split(":")]
    while len(parts) < 3:
        parts.insert(0, 0)
    return parts[0] * 3600 + parts[1] * 60 + parts[2]


def parse_pace(text):
    """'3:34/km' or '4:07-4:56/km' (or /mi) -> seconds per km of the fast end."""
    m = re.match(r"(\d+):(\d\d)(?:-(\d+):(\d\d))?/(km|mi)", text or "")
    if not m:
        return None
    s = int(m.group(1)) * 60 + int(m.group(2))
    return s / 1.609344 if m.group(5) == "mi" else s


# ---------------------------------------------------------------------------------------------------------------
# The sample


def template_defaults(templates):
    """(startWeeklyKm, longestRecentRunKm, runsPerWeek) per distance and level from plan-templates/*.yaml."""
    out = json.loads(json.dumps(DEFAULTS))
    if not templates:
        return out
    for dist, fname in [("5k", "5k"), ("10k", "10k"), ("15k", "15k"), ("10mi", "15k"), ("half", "half"),
                        ("marathon", "marathon")]:
        path = os.path.join(templates, fname + ".yaml")
        try:
            lines = open(path, encoding="utf-8").read().splitlines()
        except OSError:
            continue
        in_levels, level, vals = False, None, {}
        for line in lines:
            if re.match(r"^levels:", line):
                in_levels = True
                continue
            if in_levels and re.match(r"^\S", line):
                in_levels = False
            if not in_levels:
                continue
            m = re.match(r"^  (beginner|intermediate|advanced):", line)
            if m:
                level = m.group(1)
                vals[level] = {}
                continue
            m = re.match(r"^    (startWeeklyKm|longestRecentRunKm|runsPerWeek):\s*([\d.]+)", line)
            if m and level:
                vals[level][m.group(1)] = float(m.group(2))
        for level, v in vals.items():
            if len(v) == 3:
                out[dist][level] = [v["startWeeklyKm"], v["longestRecentRunKm"], int(v["runsPerWeek"])]
    return out


def estimate_vdot(rng, level, weekly):
    """A plausible current VDOT for a runner: rises with volume, a little with level."""
    base = 30 + 0.25 * min(weekly, 130) + {"beginner": -2, "intermediate": 0, "advanced": 3}[level]
    return max(28.0, min(72.0, rng.gauss(base, 3.0)))


def make_sample(seed, count):
    rng = random.Random(seed)
    quota = {"marathon": 0.25, "half": 0.18}
    n = {d: int(round(count * quota.get(d, 0))) for d in DISTANCES}
    rest = count - n["marathon"] - n["half"]
    for i, d in enumerate(["5k", "10k", "15k", "10mi"]):
        n[d] = rest // 4 + (1 if i < rest % 4 else 0)
    dists = [d for d in DISTANCES for _ in range(n[d])]
    rng.shuffle(dists)
    runners = []
    for i, dist in enumerate(dists):
        r = {"id": i + 1, "distance": dist, "level": rng.choice(LEVELS), "weeks": rng.randint(6, 30),
             "runs": None, "weekly": None, "longest": None, "race": None, "goal": None, "birth_year": None,
             "tags": []}
        level = r["level"]
        roll = rng.random()
        if roll < 0.07:
            r["tags"].append("defaults")  # distance, level and weeks only: the engine's defaults decide
        else:
            if rng.random() < 0.9:
                r["runs"] = rng.randint(3, 7)
            odd = rng.random()
            if level == "beginner" and odd < 0.10:
                weekly = rng.uniform(80, 110)
                r["tags"].append("high-volume beginner")
            elif level == "advanced" and odd < 0.12:
                weekly = rng.uniform(15, 35)
                r["tags"].append("low-volume advanced")
            else:
                lo, hi = {"beginner": (8, 42), "intermediate": (22, 80), "advanced": (45, 130)}[level]
                weekly = rng.uniform(lo, hi)
            weekly = round(max(8, min(130, weekly)))
            r["weekly"] = weekly
            if r["runs"] and weekly / r["runs"] > 25:  # nobody runs 130 km in 3 runs: runs to fit the volume
                r["runs"] = min(7, math.ceil(weekly / 25))
            runs = r["runs"] or 4
            share = {3: (0.30, 0.45), 4: (0.22, 0.40), 5: (0.20, 0.34), 6: (0.17, 0.30), 7: (0.15, 0.27)}[runs]
            longest = max(weekly * rng.uniform(*share), 1.1 * weekly / runs)  # the longest ≥ an average run
            if rng.random() < 0.06:
                longest = weekly * rng.choice([0.12, 0.6])
                r["tags"].append("odd longest run")
            r["longest"] = round(max(3.0, min(60.0, longest)), 1)
            fitness = estimate_vdot(rng, level, weekly)
            if rng.random() < 0.5:
                choices = ["5k", "10k", "half"] + (["marathon"] if weekly >= 35 else [])
                rd = rng.choice(choices)
                r["race"] = (rd, race_seconds(fitness, RACE_M[rd]))
            if rng.random() < 0.45:
                if r["race"]:
                    u = rng.random()
                    gain = rng.uniform(-0.5, 1.0) if u < 0.5 else rng.uniform(1.0, 3.0) if u < 0.8 \
                        else rng.uniform(3.0, 6.0)
                    goal_vdot = vdot_of(RACE_M[r["race"][0]], r["race"][1]) + gain
                else:
                    if rng.random() < 0.2:
                        goal_vdot = min(82.0, fitness + rng.uniform(10, 25))
                        r["tags"].append("implausible goal")
                    else:
                        goal_vdot = fitness + rng.gauss(0, 2.5)
                r["goal"] = race_seconds(goal_vdot, RACE_M[dist])
        if rng.random() < 0.15:
            r["birth_year"] = rng.randint(1950, 1975)
        runners.append(r)
    return runners


# The commands of issue 45's "Why", reviewed apart from the sample (not in its tallies) with --anchors.
ANCHORS = [
    ("1 long run dominates", "--distance marathon --level intermediate --weeks 28 --runs-per-week 5 "
                             "--current-weekly 53 --longest-recent-run 22.2 --recent-race marathon=3:33:41", None),
    ("2 long run short", "--distance marathon --level beginner --weeks 14 --runs-per-week 7 --current-weekly 100 "
                         "--longest-recent-run 31.9", None),
    ("3 week 1 below runner", "--distance half --level intermediate --weeks 18 --runs-per-week 4 --current-weekly 33 "
                              "--longest-recent-run 7.4 --goal-time 1:40:00", None),
    ("4 long-run calendar", "--distance marathon --level advanced --weeks 26 --runs-per-week 4 --current-weekly 56 "
                            "--longest-recent-run 20.5 --goal-time 3:06:00", None),
    ("5 paces from goal", "--distance marathon --level intermediate --weeks 16 --runs-per-week 4 --current-weekly 35 "
                          "--longest-recent-run 13.7 --recent-race 10k=41:50 --goal-time 3:03:00", None),
    ("5 goal unchecked", "--distance marathon --level intermediate --weeks 16 --runs-per-week 4 --current-weekly 48 "
                         "--longest-recent-run 18 --goal-time 2:10:00", None),
    ("6 5K lacks speed", "--distance 5k --level advanced --weeks 12 --runs-per-week 6 --current-weekly 122 "
                         "--longest-recent-run 35", None),
    ("8 run before long run", "--distance marathon --level advanced --weeks 18 --runs-per-week 7 --current-weekly 130 "
                              "--longest-recent-run 32 --recent-race half=1:16:00", None),
    ("10 6-week block", "--distance marathon --level advanced --weeks 6 --runs-per-week 6 --current-weekly 80 "
                        "--longest-recent-run 32.7", None),
    ("10 default 15k beginner", "--distance 15k --level beginner --weeks 10", None),
    ("10 beginner half, 12 km", "--distance half --level beginner --weeks 12 --current-weekly 12 "
                                "--longest-recent-run 4", None),
    ("11 age ignored", "--distance half --level intermediate --weeks 14", 1966),
    ("12 beginner 5K race week", "--distance 5k --level beginner --weeks 8", None),
]


def runner_from_args(text, birth_year=None, rid=0):
    args = shlex.split(text)

    def take(flag, conv=str):
        if flag in args:
            return conv(args[args.index(flag) + 1])
        return None
    r = {"id": rid, "distance": take("--distance"), "level": take("--level") or "beginner",
         "weeks": take("--weeks", int) or 12, "runs": take("--runs-per-week", int),
         "weekly": take("--current-weekly", float) or take("--current-weekly-km", float),
         "longest": take("--longest-recent-run", float) or take("--longest-recent-run-km", float),
         "race": None, "goal": None, "birth_year": birth_year, "tags": []}
    rr = take("--recent-race")
    if rr:
        d, t = rr.split("=")
        r["race"] = (d, parse_time(t))
    gt = take("--goal-time")
    if gt:
        r["goal"] = parse_time(gt)
    return r


def plan_args(r, weeks=None):
    a = ["--distance", r["distance"], "--level", r["level"], "--weeks", str(weeks or r["weeks"])]
    if r["runs"]:
        a += ["--runs-per-week", str(r["runs"])]
    if r["weekly"] is not None:
        a += ["--current-weekly", f"{r['weekly']:g}"]
    if r["longest"] is not None:
        a += ["--longest-recent-run", f"{r['longest']:g}"]
    if r["race"]:
        a += ["--recent-race", f"{r['race'][0]}={fmt_time(r['race'][1])}"]
    if r["goal"]:
        a += ["--goal-time", fmt_time(r["goal"])]
    return a


def command_text(r, weeks=None):
    text = "plan " + " ".join(shlex.quote(x) for x in plan_args(r, weeks)) + f" --now {NOW}"
    if r.get("birth_year"):
        text += f"  (profile: --birth-year {r['birth_year']})"
    return text


# ---------------------------------------------------------------------------------------------------------------
# Running the CLI


class Runner:
    def __init__(self, binary, templates):
        self.binary = binary
        self.tmp = tempfile.mkdtemp(prefix="coach-review-")
        self.env = dict(os.environ)
        self.env["RUNMATE_CONFIG_DIR"] = os.path.join(self.tmp, "config")
        self.env["XDG_DATA_HOME"] = os.path.join(self.tmp, "data")
        self.env["XDG_CONFIG_HOME"] = os.path.join(self.tmp, "config")
        self.env.pop("RUNMATE_DB", None)
        self.env["RUNMATE_DATABASE"] = os.path.join(self.tmp, "plain.sqlite")  # never holds a profile
        if templates:
            self.env["RUNMATE_TEMPLATES"] = templates
        self.masters_db = os.path.join(self.tmp, "masters.sqlite")
        self.profiles = set()

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def run(self, args, birth_year=None):
        extra = []
        if birth_year:
            name = f"by{birth_year}"
            if name not in self.profiles:
                subprocess.run([self.binary, "profile", "init", name, "--birth-year", str(birth_year),
                                "--database", self.masters_db], env=self.env, capture_output=True, check=True)
                self.profiles.add(name)
            extra = ["--profile", name, "--database", self.masters_db]
        p = subprocess.run([self.binary, "plan", *args, *extra, "--format", "json", "--now", NOW],
                           env=self.env, capture_output=True, text=True)
        if p.returncode != 0:
            return None, (p.stderr.strip() or p.stdout.strip()), p.returncode
        return json.loads(p.stdout), None, 0


# ---------------------------------------------------------------------------------------------------------------
# The plan, read


class Plan:
    EXCLUDED_KINDS = {"cross-training", "cross", "strength", "rest"}

    def __init__(self, doc):
        self.doc = doc
        self.goal = doc["goal"]
        self.warnings = doc.get("warnings", [])
        self.distance = self.goal["distance"]
        self.level = self.goal["level"]
        self.race_km = self.goal["distance_km"]
        self.race_date = dt.date.fromisoformat(self.goal["race_date"])
        self.weeks = doc["weeks"]
        self.W = len(self.weeks)
        self.runs_per_week = self.goal.get("runs_per_week")
        self.by_date = collections.defaultdict(list)
        for w in self.weeks:
            w["_runs"] = [x for x in w["workouts"] if x["kind"] not in self.EXCLUDED_KINDS]
            for x in w["_runs"]:
                x["_date"] = dt.date.fromisoformat(x["date"])
                x["_week"] = w["number"]
                self.by_date[x["_date"]].append(x)
            longs = [x for x in w["_runs"] if x["kind"] == "long"]
            others = [x for x in w["_runs"] if x["kind"] != "race"]
            w["_long"] = max(longs, key=lambda x: x["distance_km"]) if longs else None
            w["_long_km"] = w["_long"]["distance_km"] if longs else (
                max(x["distance_km"] for x in others) if others else 0.0)
            race = [x for x in w["_runs"] if x["kind"] == "race"]
            w["_race_km"] = sum(x["distance_km"] for x in race)
            w["_running_km"] = round(w["planned_km"] - w["_race_km"], 2)  # race week: the running before race day
            w["_out"] = self.W - w["number"]  # weeks before race week
        self.train_weeks = [w for w in self.weeks if w["number"] < self.W]
        self.peak_km = max((w["planned_km"] for w in self.train_weeks), default=0.0)
        self.peak_long = max((w["_long_km"] for w in self.train_weeks), default=0.0)
        self.race_week = self.weeks[-1]

    def km_on(self, day):
        return sum(x["distance_km"] for x in self.by_date.get(day, []))

    def hard_on(self, day):
        return any(x["hard"] for x in self.by_date.get(day, []))

    def quality_on(self, day):
        return any(x["hard"] and x["kind"] not in ("long", "race") for x in self.by_date.get(day, []))

    def zone_work(self, x, zone):
        return sum(s["distance_km"] * s.get("repeat", 1) for s in x.get("steps", [])
                   if s["kind"] == "work" and s.get("zone") == zone)

    def is_down(self, i):
        """Week index i (0-based) is a step-back: flagged, or ≥ 8 % under the week before."""
        w = self.weeks[i]
        if w["cutback"]:
            return True
        return i > 0 and w["planned_km"] <= 0.92 * self.weeks[i - 1]["planned_km"]

    def pre_taper_indices(self):
        return [i for i, w in enumerate(self.weeks) if w["phase"] in ("base", "build", "peak")]


# ---------------------------------------------------------------------------------------------------------------
# The rules. Each returns None (does not apply), [] (passes) or a list of (severity, text).

LONG_NEED = {  # the peak long run a plan should reach, km: beginner, intermediate, advanced
    "5k": (5, 8, 10), "10k": (8, 12, 14), "15k": (11, 14, 16), "10mi": (13, 16, 18), "half": (16, 18, 19),
    "marathon": (29, 29, 29),
}
TAPER_WEEKS = {"5k": 1, "10k": 1, "15k": 2, "10mi": 2, "half": 2, "marathon": 3}
VOLUME_CAP = {"beginner": 70, "intermediate": 110, "advanced": 170}


def goal_ceiling(weekly_km):
    """Highest VDOT taken as plausible without a race at this volume (elite VDOTs need elite volume)."""
    return 45 + 0.3 * weekly_km


def r_week1_matches_runner(p, r):
    # Pfitzinger & Douglas, Advanced Marathoning, "Following the schedules": start a schedule at the mileage you
    # already run; Daniels' Running Formula, "Training principles": stress from the current level, not below it.
    if r["weekly"] is None:
        return None
    w1 = p.weeks[0]
    if w1["cutback"] or p.W < 2:
        return None
    cur = r["weekly"]
    km = w1["_running_km"]
    dev = (km - cur) / cur
    if abs(km - cur) <= max(0.10 * cur, 2.0) + 0.3:
        return []
    sev = MAJOR if dev < -0.20 or dev > 0.20 else MINOR
    return [(sev, f"week 1 {km:g} km against {cur:g} km now ({pc(dev, sign=True, digits=1)})")]


def r_week1_long_run(p, r):
    # Higdon (novice and intermediate plans) and Pfitzinger, "Elements of training": the first long run starts
    # near the runner's current long run, no big jump (a run > ~10 % over the longest recent one is the spike
    # the injury studies warn of) and no needless step down.
    if r["longest"] is None or p.W < 2 or p.weeks[0]["cutback"]:
        return None
    first = p.weeks[0]["_long_km"]
    lr = r["longest"]
    out = []
    if first > 1.15 * lr + 1.0:
        out.append((MINOR, f"week-1 long run {first:g} km after a longest recent run of {lr:g} km"))
    if first < 0.75 * lr - 0.5 and lr <= p.peak_long:
        out.append((MINOR, f"week-1 long run {first:g} km, well under the {lr:g} km the runner already runs"))
    return out


def r_ramp(p, r):
    # The 10 % guideline (Higdon; Pfitzinger, "Elements of training"); Daniels, "Training principles": add at most
    # about a mile per weekly session, then hold. A week after a cut-back is compared with the week before it.
    out = []
    last_full = None
    for i, w in enumerate(p.weeks):
        if w["phase"] in ("taper", "race"):
            break
        if i == 0:
            last_full = w["planned_km"]
            continue
        prev = p.weeks[i - 1]
        ref = last_full if prev["cutback"] else prev["planned_km"]
        inc = w["planned_km"] - ref
        allowed = max(0.10 * ref, 3.0) + 0.3
        if inc > allowed:
            sev = MAJOR if inc > max(0.20 * ref, 5.0) else MINOR
            out.append((sev, f"week {w['number']} {w['planned_km']:g} km after {ref:g} km (+{pc(inc / ref)})"))
        if not w["cutback"]:
            last_full = w["planned_km"]
    return out


def r_cutback_rhythm(p, r):
    # Pfitzinger, "Balancing training and recovery" and the schedules' recovery weeks; Higdon's step-back weeks;
    # Daniels: hold a load 3-4 weeks: a lighter week at least every 4th-5th week of a long build.
    idx = p.pre_taper_indices()
    if len(idx) < 8:
        return None
    streak, worst = 0, 0
    for i in idx:
        streak = 0 if p.is_down(i) else streak + 1
        worst = max(worst, streak)
    if worst > 5:
        return [(MINOR, f"{worst} weeks in a row without a lighter week")]
    return []


def r_long_run_share(p, r):
    # Daniels, "Training runs and intensities": L runs ≤ 25-30 % of weekly mileage; Hansons Marathon Method: the
    # long run ≤ 25-30 % of the week; Pfitzinger: a midweek medium-long run carries endurance instead. At 3-4 runs a
    # bigger share is unavoidable (Higdon's novice plans) and should be said.
    runs = p.runs_per_week or 4
    weeks = [w for w in p.train_weeks if not w["cutback"] and w["planned_km"] > 0]
    shares = [(w["number"], w["_long_km"] / w["planned_km"]) for w in weeks]
    if runs >= 5:
        over = [(n, s) for n, s in shares if s > 0.35]
        if len(over) < 2:
            return []
        top = max(s for _, s in over)
        sev = MAJOR if top > 0.42 else MINOR
        return [(sev, f"long run over 35 % of the week in {len(over)} weeks (up to {pc(top)}) at {runs} runs")]
    limit = 0.60
    out = []
    over = [(n, s) for n, s in shares if s > limit]
    if over:
        out.append((MINOR, f"long run over {pc(limit)} of the week in {len(over)} weeks at {runs} runs"))
    if any(s > 0.40 for _, s in shares) and not any("long run" in x and "%" in x for x in p.warnings):
        out.append((MINOR, "long run over 40 % of the week at 3-4 runs and the plan does not say so"))
    return out


def r_long_run_reaches_race(p, r):
    # Higdon: novice half peaks at 10 mi, novice marathon at 20 mi; Pfitzinger, "Elements of training": marathon
    # long runs of 20-22 mi; Daniels' 5K-10K and half plans: long runs well beyond race distance for the fitter.
    need = LONG_NEED[p.distance][LEVELS.index(p.level)]
    peak = p.peak_long
    if peak >= need - 0.3:
        return []
    if p.distance == "marathon":
        walk = any((w["_long"] or {}).get("time_target", {}) and (w["_long"] or {})["time_target"].get("walk_min")
                   for w in p.train_weeks)
        how = " (time-capped run/walk)" if walk else ""
        return [(MAJOR, f"peak long run {peak:g} km{how}: a marathon needs ≥ {need} km")]
    sev = MAJOR if peak < 0.8 * need else MINOR
    return [(sev, f"peak long run {peak:g} km, short of {need} km for a {p.level} {p.distance}")]


def r_marathon_peak_window(p, r):
    # Pfitzinger, "Tapering for peak marathon performance": the last 20-miler 3 weeks out; Higdon the same;
    # Daniels' marathon plans: the longest runs in the last 2 months, none in the final 2 weeks.
    if p.distance != "marathon":
        return None
    near = [w for w in p.train_weeks if w["_long_km"] >= 0.97 * p.peak_long]
    last = min(w["_out"] for w in near)
    if last < 2:
        return [(MAJOR, f"a peak long run {last} week(s) before race week")]
    if last > 8:
        return [(MINOR, f"the last peak long run is {last} weeks before race week")]
    return []


def r_marathon_early_near_peak(p, r):
    # Pfitzinger's 18-week schedules reach 20 mi 10-12 weeks out at the earliest; near-peak long runs far earlier
    # are a second season, not a build (Daniels, "Season training": phases build towards race-specific work).
    if p.distance != "marathon":
        return None
    if r["longest"] is not None and r["longest"] >= 0.9 * p.peak_long:
        return None  # the runner already runs it: keeping it is maintenance
    early = [w["number"] for w in p.train_weeks if w["_out"] > 12 and w["_long_km"] >= 0.9 * p.peak_long]
    if early:
        return [(MINOR, f"long runs ≥ 90 % of the {p.peak_long:g} km peak more than 12 weeks out "
                        f"(weeks {', '.join(map(str, early[:6]))}{'…' if len(early) > 6 else ''})")]
    return []


def r_marathon_long_run_count(p, r):
    # Pfitzinger's schedules: up to 55 mi/week about 3-5 runs of 20 mi or more, 55-85 mi/week 5-8; Higdon's novice
    # plans 1-3 twenty-milers; Pfitzinger's longest is 22 mi (35 km), for the higher-mileage schedules.
    if p.distance != "marathon":
        return None
    if p.peak_km >= 110:
        return []
    limit = 5 if p.peak_km < 70 else 8
    n29 = sum(1 for w in p.train_weeks for x in w["_runs"] if x["distance_km"] >= 29)
    n34 = sum(1 for w in p.train_weeks for x in w["_runs"] if x["distance_km"] >= 34)
    out = []
    if n29 > limit:
        out.append((MAJOR if n29 > limit + 3 else MINOR,
                    f"{n29} runs of 29 km or more at a {p.peak_km:g} km peak (≤ {limit})"))
    if p.peak_km < 80 and n34 > 1:
        out.append((MINOR, f"{n34} runs of 34 km or more at a {p.peak_km:g} km peak"))
    return out


def r_long_run_cap(p, r):
    # Pfitzinger, "Elements of training": the marathon long run tops out at 22 mi (35 km); Faster Road Racing's 5K-half
    # schedules stay under 20 mi (32 km); Daniels caps the long run at 150 min (2.5 h) outside the marathon.
    cap = 36.0 if p.distance == "marathon" else 32.0
    over = [x["distance_km"] for w in p.train_weeks for x in w["_runs"] if x["distance_km"] > cap]
    if over:
        return [(MINOR, f"{len(over)} run(s) over {cap:g} km (longest {max(over):g}) in a {p.distance} plan")]
    return []


def r_long_run_plateau(p, r):
    # Pfitzinger and Higdon: the long run progresses with step-backs; six or more full weeks at one length is
    # neither a build nor a recovery.
    if p.distance not in ("marathon", "half") or p.W < 12:
        return None
    idx = [i for i in p.pre_taper_indices() if not p.weeks[i]["cutback"]]
    streak, worst, prev = 1, 1, None
    for i in idx:
        km = p.weeks[i]["_long_km"]
        if prev is not None and abs(km - prev) <= max(0.03 * prev, 0.5):
            streak += 1
        else:
            streak = 1
        prev = km
        worst = max(worst, streak)
    if worst >= 6:
        return [(MINOR, f"the long run stays at one length for {worst} full weeks")]
    return []


def r_marathon_pace_work(p, r):
    # Pfitzinger, "Elements of training": marathon-pace runs of 8-14 mi inside long runs; Hansons: MP tempo runs
    # building to 10 mi (16 km); Daniels' marathon plans: M segments of 10-13 km and more.
    if p.distance != "marathon" or p.level == "beginner":
        return None
    best = max((p.zone_work(x, "M") for w in p.weeks for x in w["_runs"] if x["kind"] != "race"), default=0.0)
    if best >= 13 - 0.05:
        return []
    return [(MINOR, f"the longest marathon-pace block is {best:g} km (≥ 13 km)")]


def r_medium_long_placement(p, r):
    # Pfitzinger, "Elements of training" and the schedules: the medium-long run sits midweek, never the day after the
    # long run and not between a quality session and the long run (the long run then starts on tired legs).
    bad = []
    for w in p.train_weeks:
        lr = w["_long"]
        if not lr:
            continue
        d = lr["_date"]
        before = p.km_on(d - dt.timedelta(days=1))
        if p.quality_on(d - dt.timedelta(days=2)) and (
                before >= 14 or (before >= 10 and before >= 0.6 * lr["distance_km"])):
            bad.append(f"week {w['number']}: {before:g} km between a quality day and the {lr['distance_km']:g} km "
                       f"long run")
        after = p.by_date.get(d + dt.timedelta(days=1), [])
        if any(x["kind"] == "medium-long" for x in after):
            bad.append(f"week {w['number']}: a medium-long run the day after the long run")
    if bad:
        return [(MINOR, f"{len(bad)} week(s); {bad[0]}")]
    return []


def r_no_back_to_back_hard(p, r):
    # Bowerman's hard/easy principle; Daniels, "Training principles": a recovery day after every quality day.
    days = sorted(p.by_date)
    pairs = [d for d in days if p.hard_on(d) and p.hard_on(d + dt.timedelta(days=1))]
    if pairs:
        return [(MAJOR, f"hard days in a row on {pairs[0]} and the next day ({len(pairs)} times)")]
    return []


def r_quality_count(p, r):
    # Daniels' 2Q: two quality sessions a week at most (the long run is the marathoner's second); Pfitzinger: two
    # quality sessions plus the long run; Higdon's 3-4-run novice and intermediate plans: one besides the long run.
    runs = p.runs_per_week or 4
    limit = 1 if runs <= 3 or (runs == 4 and p.level != "advanced") else 2
    bad = []
    for w in p.train_weeks:
        q = [x for x in w["_runs"] if x["hard"] and x["kind"] not in ("long", "race")]
        if len(q) > limit:
            bad.append((w["number"], len(q)))
    if bad:
        return [(MAJOR, f"{bad[0][1]} quality sessions besides the long run in week {bad[0][0]} at {runs} runs "
                        f"({len(bad)} weeks)")]
    return []


def r_short_block_load(p, r):
    # Pfitzinger, "Following the schedules": with less time, join the schedule where its mileage matches yours
    # rather than compress the build; Daniels, "Training principles": hold each load 3-4 weeks, so a block of 11
    # weeks or less has room for two or three steps of about 10 %.
    if p.W > 11 or r["weekly"] is None or r["weekly"] < 30:
        return None
    if p.peak_km > 1.3 * r["weekly"] + 1:
        return [(MINOR, f"{r['weekly']:g} → {p.peak_km:g} km/week (+{pc(p.peak_km / r['weekly'] - 1)}) in a "
                        f"{p.W}-week block")]
    return []


def r_speed_through_plan(p, r):
    # Daniels, "5K and 10K training": R pace (strides, 200-400 m reps) in every phase; Pfitzinger & Latter, Faster
    # Road Racing: strides year-round, speed sessions in the 5K/10K build.
    if p.distance not in ("5k", "10k"):
        return None
    phases = collections.OrderedDict()
    for w in p.train_weeks:
        has = any(p.zone_work(x, "R") > 0 for x in w["_runs"])
        phases[w["phase"]] = phases.get(w["phase"], False) or has
    missing = [ph for ph in ("base", "build", "peak") if ph in phases and not phases[ph]]
    if missing:
        return [(MINOR, f"no strides or R work in the {'/'.join(missing)} phase(s)")]
    return []


def r_repetition_session(p, r):
    # Daniels, "5K and 10K training" (and his beginner plans): R sessions of 200-400 m at repetition pace, R volume
    # ≤ 5 % of the week; Pfitzinger & Latter: 200-400 m speed work for 5K runners.
    if p.distance not in ("5k", "10k") or p.W < 8:
        return None
    for w in p.weeks:
        for x in w["_runs"]:
            if any(s["kind"] == "work" and s.get("zone") == "R" and s["distance_km"] >= 0.15
                   and s.get("repeat", 1) >= 2 for s in x.get("steps", [])):
                return []
    return [(MINOR, "no repetition-pace session (200-400 m at R) in the plan")]


def r_taper_shape(p, r):
    # Pfitzinger, "Tapering for peak marathon performance": 3 weeks, about -20/-40/-60 %; race week ≈ 40 % of peak;
    # Bosquet et al. 2007 and Mujika: volume -40 to -60 % over 1-3 weeks, intensity kept; for high-volume runners
    # a race week under about 35 % of peak is detraining, not tapering.
    out = []
    peak = p.peak_km
    if peak <= 0 or p.W < 4:
        return None
    rw = p.race_week["_running_km"] / peak
    w1 = p.weeks[-2]["planned_km"] / peak
    if peak >= 80 and rw < 0.34:
        out.append((MINOR, f"race week {p.race_week['_running_km']:g} km before race day is {pc(rw)} of the "
                           f"{peak:g} km peak"))
    if p.distance == "marathon":
        w2 = p.weeks[-3]["planned_km"] / peak
        if w1 > 0.85 or w2 > 0.95:
            out.append((MINOR, f"no 2-3 week marathon taper (weeks before race week at {pc(w2)}, {pc(w1)})"))
        if rw > 0.6:
            out.append((MINOR, f"marathon race week at {pc(rw)} of peak before race day"))
    elif p.distance in ("half", "15k", "10mi"):
        if w1 > 0.9:
            out.append((MINOR, f"the week before race week at {pc(w1)} of peak"))
    elif rw > 0.8:
        out.append((MINOR, f"race week at {pc(rw)} of peak"))
    return out


def r_beginner_race_week(p, r):
    # Higdon's novice 5K and 10K plans: the race week's runs are short (1.5-2 mi) with rest before the race.
    if p.distance not in ("5k", "10k") or p.level != "beginner":
        return None
    limit = p.race_km / 2
    bad = [(d, p.km_on(d)) for d in (p.race_date - dt.timedelta(days=k) for k in (1, 2, 3)) if p.km_on(d) > limit + 0.2]
    if bad:
        d, km = bad[0]
        return [(MINOR, f"{km:g} km {(p.race_date - d).days} day(s) before a {p.race_km:g} km race")]
    return []


def r_paces_from_current_fitness(p, r):
    # Daniels, "VDOT values" and "Training principles": train at the VDOT of a recent race, raise it by about one
    # point at most every 4-6 weeks; the goal pace is for race-pace work only.
    if not r["race"]:
        return None
    race_v = vdot_of(RACE_M[r["race"][0]], r["race"][1])
    plan_v = p.goal.get("vdot")
    tpaces = [parse_pace(s.get("pace")) for w in p.weeks for x in w["_runs"] for s in x.get("steps", [])
              if s.get("zone") == "T" and s["kind"] == "work" and s.get("pace")]
    tpaces = [t for t in tpaces if t]
    t_v = vdot_from_threshold_pace(min(tpaces)) if tpaces else None
    used = max(v for v in (plan_v, t_v) if v is not None) if (plan_v or t_v) else None
    if used is None:
        return []
    excess = used - race_v
    if excess <= 1.0:
        return []
    sev = MAJOR if excess > 2.0 else MINOR
    return [(sev, f"paces at VDOT {used:.1f}, the {r['race'][0]} race says {race_v:.1f} (+{excess:.1f})")]


def r_paces_match_daniels(p, r):
    # Daniels' threshold pace = the velocity at 88 % of VDOT (his tables): the engine's T paces should match the
    # VDOT it states within 2 s/km.
    plan_v = p.goal.get("vdot")
    for w in p.weeks:
        for x in w["_runs"]:
            for s in x.get("steps", []):
                if s.get("zone") == "T" and s["kind"] == "work" and s.get("pace"):
                    got = parse_pace(s["pace"])
                    want = pace_s_per_km(plan_v, 0.88)
                    if abs(got - want) > 2.0:
                        return [(MAJOR, f"T pace {s['pace']} for VDOT {plan_v} (Daniels: {want:.0f} s/km)")]
                    return []
    return None


def r_goal_plausible(p, r):
    # Daniels, "VDOT values": race equivalences; a goal with no race behind it is checked against what the volume
    # supports (no VDOT above about 45 + 0.3 × km/week without evidence) and questioned, not planned silently.
    if not r["goal"] or r["race"]:
        return None
    goal_v = vdot_of(RACE_M[p.distance], r["goal"])
    weekly = p.goal.get("current_weekly_km") or 30
    ceiling = goal_ceiling(weekly)
    if goal_v <= ceiling:
        return []
    if any("goal" in x.lower() for x in p.warnings):
        return []
    return [(MAJOR, f"goal {fmt_time(r['goal'])} (VDOT {goal_v:.1f}) at {weekly:g} km/week accepted without a "
                    f"word (plausible ≤ VDOT {ceiling:.0f})")]


def r_volume_sane(p, r):
    # Pfitzinger's schedules (to 55, 70, 85, 105+ mi) and Higdon's novice plans (peak ~40 mi): peak volume fits the
    # level unless the runner already runs more; no run so short it is not worth the trip (Daniels: ~30 min easy).
    out = []
    cap = max(VOLUME_CAP[p.level], 1.15 * (r["weekly"] or 0))
    if p.peak_km > cap:
        out.append((MAJOR, f"peak week {p.peak_km:g} km for a {p.level} running {r['weekly']} km"))
    short = [x for w in p.train_weeks for x in w["_runs"] if x["distance_km"] < 2.5]
    if short:
        out.append((MINOR, f"{len(short)} run(s) under 2.5 km (shortest {min(x['distance_km'] for x in short):g})"))
    return out


def r_quality_sized(p, r):
    # Daniels, "Training runs and intensities": a 10-20 min warm-up (+ strides) and cool-down; I ≤ 8 % of the week
    # (≤ 10 km), T ≤ 10 %: a 100+ km runner's sessions carry work, not 8 km of warm-up.
    out = []
    padded = []
    for w in p.weeks:
        for x in w["_runs"]:
            if not x["hard"] or x["kind"] not in ("tempo", "intervals"):
                continue  # hill sprints and fartlek sit inside a general-aerobic run (Pfitzinger): not padding
            pad = sum(s["distance_km"] * s.get("repeat", 1) for s in x.get("steps", [])
                      if s["kind"] in ("warmup", "cooldown"))
            work = sum(s["distance_km"] * s.get("repeat", 1) for s in x.get("steps", []) if s["kind"] == "work")
            if pad > 12 and pad > 3 * work:
                padded.append(f"week {w['number']} {x['title']}: {pad:.1f} km warm-up/cool-down for {work:.1f} km")
    if padded:
        out.append((MINOR, f"{len(padded)} padded session(s); {padded[0]}"))
    if p.peak_km >= 80:
        best_i = max((p.zone_work(x, "I") for w in p.weeks for x in w["_runs"] if x["kind"] == "intervals"),
                     default=None)
        if best_i is not None and best_i < 5:
            out.append((MINOR, f"largest interval session {best_i:g} km at a {p.peak_km:g} km peak "
                               f"(Daniels allows ~8 % of the week)"))
    return out


def r_masters_recovery(p, r):
    # Pfitzinger & Latter, Faster Road Racing, "Training for masters runners": more recovery between hard days and
    # lighter weeks more often; Friel, Fast After 50: shorter build blocks (2-3 weeks) with a recovery week.
    if not r.get("birth_year") or NOW_YEAR - r["birth_year"] < 50:
        return None
    out = []
    if r.get("_same_as_without_age"):
        out.append((MINOR, f"age {NOW_YEAR - r['birth_year']}: the plan is identical to the one without a birth year"))
    idx = p.pre_taper_indices()
    if len(idx) >= 8:
        streak, worst = 0, 0
        for i in idx:
            streak = 0 if p.is_down(i) else streak + 1
            worst = max(worst, streak)
        if worst > 3:
            out.append((MINOR, f"age {NOW_YEAR - r['birth_year']}: {worst} weeks in a row without a lighter week "
                               f"(≤ 3 for masters)"))
    return out


RULES = [
    ("week1_matches_runner", r_week1_matches_runner, "minor (±10-20 %) / major (beyond ±20 %)"),
    ("week1_long_run", r_week1_long_run, "minor"),
    ("ramp", r_ramp, "minor (10-20 %) / major (> 20 % and > 5 km)"),
    ("cutback_rhythm", r_cutback_rhythm, "minor"),
    ("long_run_share", r_long_run_share, "5-7 runs: minor (35-42 %) / major (> 42 %); 3-4 runs: minor"),
    ("long_run_reaches_race", r_long_run_reaches_race, "major (marathon, or < 80 % of need) / minor"),
    ("marathon_peak_window", r_marathon_peak_window, "major (< 2 weeks out) / minor (> 8 weeks out)"),
    ("marathon_early_near_peak", r_marathon_early_near_peak, "minor"),
    ("marathon_long_run_count", r_marathon_long_run_count, "minor / major (> limit + 3)"),
    ("long_run_cap", r_long_run_cap, "minor"),
    ("long_run_plateau", r_long_run_plateau, "minor"),
    ("marathon_pace_work", r_marathon_pace_work, "minor"),
    ("medium_long_placement", r_medium_long_placement, "minor"),
    ("no_back_to_back_hard", r_no_back_to_back_hard, "major"),
    ("quality_count", r_quality_count, "major"),
    ("short_block_load", r_short_block_load, "minor"),
    ("speed_through_plan", r_speed_through_plan, "minor"),
    ("repetition_session", r_repetition_session, "minor"),
    ("taper_shape", r_taper_shape, "minor"),
    ("beginner_race_week", r_beginner_race_week, "minor"),
    ("paces_from_current_fitness", r_paces_from_current_fitness, "minor (1-2 VDOT) / major (> 2 VDOT)"),
    ("paces_match_daniels", r_paces_match_daniels, "major"),
    ("goal_plausible", r_goal_plausible, "major"),
    ("volume_sane", r_volume_sane, "major (peak over level cap) / minor (runs < 2.5 km)"),
    ("quality_sized", r_quality_sized, "minor"),
    ("masters_recovery", r_masters_recovery, "minor"),
]


# ---------------------------------------------------------------------------------------------------------------
# Refusals


def grow_long(longest, build_weeks):
    """Long-run reach: +10 % or +1.6 km a week (Higdon adds a mile a week), every 4th week a step-back."""
    km = longest
    for i in range(1, build_weeks + 1):
        if i % 4 != 0:
            km += max(0.10 * km, 1.6)
    return km


def grow_volume(weekly, build_weeks):
    km = weekly
    for i in range(1, build_weeks + 1):
        if i % 4 != 0:
            km += max(0.10 * km, 2.0)
    return km


def judge_refusal(r, text, defaults):
    """(fair, reasons, engine_reason): fair when the independent model finds the plan infeasible or unsafe."""
    dist, level, weeks = r["distance"], r["level"], r["weeks"]
    d_weekly, d_long, d_runs = defaults[dist][level]
    weekly = r["weekly"] if r["weekly"] is not None else d_weekly
    longest = r["longest"] if r["longest"] is not None else d_long
    runs = r["runs"] or d_runs
    reasons = []
    if dist == "marathon" and weekly < 20:
        reasons.append(f"a marathon from {weekly:g} km/week (Higdon's novice plan starts near 24 km)")
    if weekly / runs < 3.0:
        reasons.append(f"{runs} runs at {weekly:g} km/week average under 3 km: fewer runs first")
    if weekly > 7 * longest:
        reasons.append(f"{weekly:g} km/week cannot be run in 7 runs of at most {longest:g} km: inconsistent")
    if dist == "marathon" and weeks < 10 and longest < 24:
        reasons.append(f"a {weeks}-week marathon block needs a long run near 24 km (15 mi) already, not {longest:g}")
    build = max(0, weeks - TAPER_WEEKS[dist])
    need = LONG_NEED[dist][0] * 0.9  # the beginner's need: the least a finisher's plan must reach
    reach = grow_long(longest, build)
    if reach < need:
        reasons.append(f"the long run reaches about {reach:.1f} km of the {need:.1f} km needed")
    vol_need = {"5k": 10, "10k": 15, "15k": 20, "10mi": 20, "half": 25, "marathon": 40}[dist]
    if grow_volume(weekly, build) < 0.8 * vol_need:
        reasons.append(f"volume cannot reach {vol_need} km/week in {build} weeks")
    if r["goal"]:
        goal_v = vdot_of(RACE_M[dist], r["goal"])
        if r["race"]:
            race_v = vdot_of(RACE_M[r["race"][0]], r["race"][1])
            reach_v = race_v + min(weeks / 6.0, 3.0)  # Daniels: about 1 VDOT every 4-6 weeks of training
            reach_t = race_seconds(reach_v, RACE_M[dist])
            m = re.search(r"aim for (\d+:\d\d(?::\d\d)?)", text)
            if m:  # the engine's own reachable time, when it is the faster one
                reach_t = min(reach_t, parse_time(m.group(1)))
            if r["goal"] < 0.98 * reach_t:
                reasons.append(f"goal {fmt_time(r['goal'])} over 2 % faster than the reachable "
                               f"{fmt_time(reach_t)} (VDOT {race_v:.1f} → {reach_v:.1f})")
        elif goal_v > goal_ceiling(weekly):
            reasons.append(f"goal VDOT {goal_v:.1f} implausible at {weekly:g} km/week")
    t = text
    engine = ("goal" if "--goal-time" in t else "runs" if "--runs-per-week" in t else
              "volume" if "--current-weekly" in t else "long run" if "--longest-recent-run" in t else
              "weeks" if "--weeks" in t else "other")
    return bool(reasons), reasons, engine


def offered_weeks(text):
    m = re.search(r"--weeks (\d+)", text) or re.search(r"\((\d+) weeks", text)
    return int(m.group(1)) if m else None


def needed_km(text):
    m = re.search(r"needs (\d+(?:\.\d+)?) km", text)
    return float(m.group(1)) if m else None


# ---------------------------------------------------------------------------------------------------------------
# Review


MINOR_GROUP = {"repetition_session": "speed_through_plan"}
MAX_MINOR_FIXES = 3


def review_plan(p, r):
    results = {}
    for name, fn, _ in RULES:
        out = fn(p, r)
        if out is None:
            continue
        results[name] = out
    majors = [n for n, o in results.items() if any(s == MAJOR for s, _ in o)]
    minors = [n for n, o in results.items() if o and n not in majors]
    # A short edit is a coach's ten minutes: up to three fixes. Strides and an R session are one fix.
    fixes = {MINOR_GROUP.get(n, n) for n in minors}
    if len(fixes) > MAX_MINOR_FIXES:
        verdict = "not signable"
    else:
        verdict = "not signable" if majors else "short edit" if minors else "as is"
    return verdict, results, majors, minors


def band(weeks):
    for lo, hi in BANDS:
        if lo <= weeks <= hi:
            return f"{lo}-{hi}"
    return "other"


ABBR = {"easy": "E", "recovery": "Rec", "strides": "S", "medium-long": "ML", "long": "L", "tempo": "T",
        "intervals": "I", "hills": "H", "fartlek": "F", "race": "RACE"}


def cell(p, x):
    a = ABBR.get(x["kind"], x["kind"][:3])
    if x["kind"] == "tempo" and p.zone_work(x, "M") > 0:
        a = "MP"
    extra = ""
    m = p.zone_work(x, "M")
    if x["kind"] == "long" and m:
        extra = f"(M{m:g})"
    tt = x.get("time_target") or {}
    if tt.get("walk_min"):
        extra += "rw"
    return f"{a}{x['distance_km']:g}{extra}"


def week_table(p, r):
    lines = []
    g = p.goal
    lines.append(f"runner #{r['id']}: {command_text(r)}")
    lines.append(f"  {g['distance']} {g['level']}, {p.W} weeks, {p.runs_per_week} runs, "
                 f"from {g['current_weekly_km']:g} km/week, longest {g['longest_recent_run_km']:g} km; "
                 f"VDOT {g['vdot']} ({g['vdot_source']})")
    for wtext in p.warnings:
        lines.append(f"  warning: {wtext}")
    lines.append(f"  {'wk':>2} {'phase':<5} {'km':>6} {'long':>5} {'%':>4}  " +
                 " ".join(f"{d:<10}" for d in ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")))
    for w in p.weeks:
        start = dt.date.fromisoformat(w["start"])
        cols = []
        for k in range(7):
            xs = p.by_date.get(start + dt.timedelta(days=k), [])
            c = "+".join(cell(p, x) for x in xs) or "-"
            if any(x["hard"] for x in xs):
                c += "*"
            cols.append(f"{c:<10}")
        share = w["_long_km"] / w["planned_km"] if w["planned_km"] else 0
        lines.append(f"  {w['number']:>2} {w['phase'][:5]:<5}{'c' if w['cutback'] else ' '}{w['planned_km']:>6g} "
                     f"{w['_long_km']:>5g} {share:>4.0%}  " + " ".join(cols))
    lines.append("  (* hard; L long, ML medium-long, MP marathon pace, T tempo, I intervals, H hills, F fartlek, "
                 "S strides, E easy, Rec recovery; rw run/walk; weekdays by the week's own start)")
    return "\n".join(lines)


def pct(a, b):
    return f"{100.0 * a / b:.0f} %" if b else "–"


def tally_table(title, key, items, order=None):
    groups = collections.OrderedDict()
    for it in items:
        groups.setdefault(key(it), []).append(it)
    keys = order if order else sorted(groups)
    out = [f"\n### {title}\n", "| group | runners | plans | as is | short edit | not signable | signable | "
                               "refused (fair / unfair) |", "|---|---:|---:|---:|---:|---:|---:|---|"]
    for k in keys:
        g = groups.get(k, [])
        if not g:
            continue
        plans = [x for x in g if x["verdict"] != "refused"]
        a = sum(1 for x in plans if x["verdict"] == "as is")
        e = sum(1 for x in plans if x["verdict"] == "short edit")
        n = sum(1 for x in plans if x["verdict"] == "not signable")
        ref = [x for x in g if x["verdict"] == "refused"]
        fair = sum(1 for x in ref if x["refusal"]["fair"])
        out.append(f"| {k} | {len(g)} | {len(plans)} | {a} ({pct(a, len(plans))}) | {e} ({pct(e, len(plans))}) | "
                   f"{n} ({pct(n, len(plans))}) | {pct(a + e, len(plans))} | {len(ref)} ({fair} / {len(ref) - fair}) |")
    return "\n".join(out)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=45, help="the sample's seed (default 45)")
    ap.add_argument("--count", type=int, default=200, help="runners in the sample (default 200)")
    ap.add_argument("--runmate", default=os.path.join(repo, ".build", "release", "runmate"),
                    help="the runmate binary (default .build/release/runmate)")
    ap.add_argument("--templates", default=os.environ.get("RUNMATE_TEMPLATES") or os.path.join(repo, "plan-templates"),
                    help="plan templates (default $RUNMATE_TEMPLATES, else plan-templates/)")
    ap.add_argument("--json", help="write every runner, command, verdict and failure here")
    ap.add_argument("--show", type=int, default=0, help="print the first N plans in full as week tables")
    ap.add_argument("--show-ids", default="", help="print these runners' plans in full (comma-separated ids)")
    ap.add_argument("--args", help="review one plan: the arguments of `runmate plan` (no --format/--now)")
    ap.add_argument("--birth-year", type=int, help="with --args: a profile with this birth year")
    ap.add_argument("--anchors", action="store_true", help="also review issue 45's own commands (not in the tallies)")
    opts = ap.parse_args()
    if not os.path.exists(opts.runmate):
        sys.exit(f"coach-review: no runmate at {opts.runmate} (build it, or pass --runmate PATH)")
    templates = opts.templates if os.path.isdir(opts.templates) else None
    defaults = template_defaults(templates)
    cli = Runner(opts.runmate, templates)
    try:
        if opts.args:
            single(cli, opts, defaults)
            return
        runners = make_sample(opts.seed, opts.count)
        show_ids = {int(x) for x in opts.show_ids.split(",") if x.strip()}
        shown = 0
        for r in runners:
            evaluate(cli, r, defaults)
            if r["verdict"] != "refused" and (shown < opts.show or r["id"] in show_ids):
                if r["id"] not in show_ids:
                    shown += 1
                print(week_table(r["_plan"], r))
                print_review(r)
                print()
        report(runners, opts)
        if opts.anchors:
            anchors(cli, defaults)
        if opts.json:
            with open(opts.json, "w", encoding="utf-8") as f:
                json.dump([{k: v for k, v in r.items() if not k.startswith("_")} for r in runners], f, indent=1,
                          default=str)
    finally:
        cli.close()


def evaluate(cli, r, defaults):
    r["command"] = command_text(r)
    doc, err, rc = cli.run(plan_args(r), r.get("birth_year"))
    if doc is None:
        fair, reasons, engine = judge_refusal(r, err, defaults)
        r["verdict"] = "refused"
        r["refusal"] = {"text": err, "exit": rc, "fair": fair, "reasons": reasons, "engine_reason": engine}
        wk = offered_weeks(err)
        if wk and wk != r["weeks"]:
            d2, e2, _ = cli.run(plan_args(r, wk), r.get("birth_year"))
            need = needed_km(err)
            if d2 is None:
                r["refusal"]["offer"] = f"the offered {wk} weeks are refused too: {e2}"
            elif need is not None and Plan(d2).peak_long < need - 0.3:
                r["refusal"]["offer"] = (f"the offered {wk} weeks reach a {Plan(d2).peak_long:g} km long run, "
                                         f"not the {need:g} km the refusal says is needed")
            else:
                r["refusal"]["offer"] = None
        return
    if r.get("birth_year"):
        plain, _, _ = cli.run(plan_args(r))
        r["_same_as_without_age"] = plain is not None and plain["weeks"] == doc["weeks"]
    p = Plan(doc)
    r["_plan"] = p
    r["runs_per_week"] = p.runs_per_week
    verdict, results, majors, minors = review_plan(p, r)
    r["verdict"] = verdict
    r["failures"] = {n: [{"severity": s, "text": t} for s, t in o] for n, o in results.items() if o}
    r["majors"], r["minors"] = majors, minors
    r["_applied"] = set(results)
    r["vdot"] = p.goal.get("vdot")
    r["vdot_source"] = p.goal.get("vdot_source")
    r["peak_long_km"] = p.peak_long
    r["peak_week_km"] = p.peak_km


def print_review(r):
    print(f"  verdict: {r['verdict']}")
    for n, fs in r.get("failures", {}).items():
        for f in fs:
            print(f"  - {n} [{f['severity']}]: {f['text']}")


def single(cli, opts, defaults):
    r = runner_from_args(opts.args, opts.birth_year)
    evaluate(cli, r, defaults)
    if r["verdict"] == "refused":
        ref = r["refusal"]
        print(f"refused ({ref['engine_reason']}): {ref['text']}")
        print(f"judged {'fair' if ref['fair'] else 'UNFAIR'}: {'; '.join(ref['reasons']) or 'the runner can do it'}")
        if ref.get("offer"):
            print(f"offer: {ref['offer']}")
        return
    print(week_table(r["_plan"], r))
    print_review(r)


def report(runners, opts):
    plans = [r for r in runners if r["verdict"] != "refused"]
    refused = [r for r in runners if r["verdict"] == "refused"]
    a = sum(1 for r in plans if r["verdict"] == "as is")
    e = sum(1 for r in plans if r["verdict"] == "short edit")
    n = sum(1 for r in plans if r["verdict"] == "not signable")
    fair = sum(1 for r in refused if r["refusal"]["fair"])
    ok_runner = a + e + fair
    print(f"# Coach review: seed {opts.seed}, {len(runners)} runners, {len(plans)} plans, {len(refused)} refusals\n")
    print(f"- plans signable: {a + e} of {len(plans)} ({pct(a + e, len(plans))}); as is {a} ({pct(a, len(plans))}), "
          f"after a short edit {e} ({pct(e, len(plans))}), not signable {n} ({pct(n, len(plans))})")
    print(f"- refusals: {len(refused)}: fair {fair}, unfair {len(refused) - fair}; refusals whose offered timeline "
          f"fails: {sum(1 for r in refused if r['refusal'].get('offer'))}")
    print(f"- runners served well (a signable plan or a fair refusal): {ok_runner} of {len(runners)} "
          f"({pct(ok_runner, len(runners))})")
    by_major = sum(1 for r in plans if r["verdict"] == "not signable" and r["majors"])
    print(f"- not signable: {by_major} by a major failure, {n - by_major} by more than {MAX_MINOR_FIXES} minor fixes")
    mar = [r for r in plans if r["distance"] == "marathon"]
    ma = sum(1 for r in mar if r["verdict"] == "as is")
    me = sum(1 for r in mar if r["verdict"] == "short edit")
    print(f"- marathon: {ma + me} of {len(mar)} signable ({pct(ma + me, len(mar))}), {ma} as is")
    marathon_figures(mar)
    print(tally_table("By distance", lambda r: r["distance"], runners, DISTANCES))
    print(tally_table("By level", lambda r: r["level"], runners, LEVELS))
    print(tally_table("By timeline (weeks)", lambda r: band(r["weeks"]), runners, [f"{a}-{b}" for a, b in BANDS]))
    print(tally_table("By runs a week (the plan's)",
                      lambda r: str(r.get("runs_per_week") or r["runs"] or "default"), runners,
                      ["3", "4", "5", "6", "7", "default"]))
    print("\n### Rule failures (plans)\n")
    print("| rule | failed | major | minor | applies to | example |")
    print("|---|---:|---:|---:|---:|---|")
    for name, _, _ in RULES:
        failed = [r for r in plans if name in r.get("failures", {})]
        applies = sum(1 for r in plans if name in r.get("failures", {}) or name in _applied(r))
        maj = sum(1 for r in failed if name in r["majors"])
        shown = ([r for r in failed if name in r["majors"]] or failed)[:1]  # a major failure when there is one
        ex = f"`{shown[0]['command']}`: {shown[0]['failures'][name][0]['text']}" if shown else ""
        print(f"| {name} | {len(failed)} | {maj} | {len(failed) - maj} | {applies} | {ex} |")
    print("\n### Refusals\n")
    print("| # | engine's reason | judged | why | command |")
    print("|---|---|---|---|---|")
    for r in refused:
        ref = r["refusal"]
        why = "; ".join(ref["reasons"]) or "the runner can do it"
        if ref.get("offer"):
            why += f"; offer: {ref['offer']}"
        print(f"| {r['id']} | {ref['engine_reason']} | {'fair' if ref['fair'] else '**unfair**'} | {why} | "
              f"`{r['command']}` |")


def anchors(cli, defaults):
    print("\n### Issue 45's commands (not in the tallies)\n")
    print("| failure mode | verdict | failed rules | command |")
    print("|---|---|---|---|")
    for i, (label, text, by) in enumerate(ANCHORS):
        r = runner_from_args(text, by, rid=-(i + 1))
        evaluate(cli, r, defaults)
        if r["verdict"] == "refused":
            ref = r["refusal"]
            v = f"refused ({'fair' if ref['fair'] else '**unfair**'})"
            why = "; ".join(ref["reasons"]) or "the runner can do it"
            if ref.get("offer"):
                why += f"; offer: {ref['offer']}"
        else:
            v = r["verdict"]
            why = "; ".join(f"{n} [{fs[0]['severity']}]: {fs[0]['text']}" for n, fs in r["failures"].items())
        print(f"| {label} | {v} | {why or '–'} | `{r['command']}` |")


def median(xs):
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = len(xs) // 2
    return xs[k] if len(xs) % 2 else (xs[k - 1] + xs[k]) / 2


def marathon_figures(mar):
    if not mar:
        return
    print("\n### Marathon figures\n")
    print("| figure | value |")
    print("|---|---|")
    for level in LEVELS:
        g = [r["_plan"] for r in mar if r["level"] == level]
        if not g:
            continue
        longs = [p.peak_long for p in g]
        ok = sum(1 for x in longs if x >= 29 - 0.3)
        print(f"| {level}: peak long run ≥ 29 km | {ok} of {len(g)} (min {min(longs):g}, median "
              f"{median(longs):g}, max {max(longs):g} km) |")
    walk = sum(1 for r in mar if any(((w["_long"] or {}).get("time_target") or {}).get("walk_min")
                                     for w in r["_plan"].train_weeks))
    print(f"| plans with time-capped run/walk long runs | {walk} of {len(mar)} |")
    ia = [r["_plan"] for r in mar if r["level"] != "beginner"]
    if ia:
        mp = [max((p.zone_work(x, "M") for w in p.weeks for x in w["_runs"] if x["kind"] != "race"), default=0)
              for p in ia]
        print(f"| intermediate/advanced: longest MP block ≥ 13 km | {sum(1 for x in mp if x >= 12.95)} of {len(ia)} "
              f"(median {median(mp):g} km, max {max(mp):g}) |")
    n29 = [sum(1 for w in r["_plan"].train_weeks for x in w["_runs"] if x["distance_km"] >= 29) for r in mar]
    print(f"| runs of 29 km or more per plan | median {median(n29):g}, max {max(n29)} |")
    shares = [max((w["_long_km"] / w["planned_km"]) for w in r["_plan"].train_weeks if not w["cutback"])
              for r in mar if (r["_plan"].runs_per_week or 4) >= 5]
    if shares:
        print(f"| 5-7 runs: highest long-run share of a full week | median {pc(median(shares))}, "
              f"max {pc(max(shares))} ({sum(1 for x in shares if x > 0.35)} of {len(shares)} over 35 %) |")
    rw = [r["_plan"].race_week["_running_km"] / r["_plan"].peak_km for r in mar]
    print(f"| race week before race day, share of peak | median {pc(median(rw))} (min {pc(min(rw))}) |")
    withrace = [r for r in mar if r["race"]]
    if withrace:
        over = sum(1 for r in withrace if "paces_from_current_fitness" in r.get("failures", {}))
        print(f"| with a recent race: paces > 1 VDOT above it | {over} of {len(withrace)} |")


def _applied(r):
    return r.get("_applied", set())


if __name__ == "__main__":
    main()
