#!/usr/bin/env python3
"""Writes Tests/Corpus/manifest.tsv: for each public test file of the corpus (committed under Tests/Corpus, or
fetched by scripts/fetch-corpus.sh), where it comes from and what `runmate import --all-sports` must make of it,
computed by independent readers:

- GPX: gpxpy (pip install gpxpy): haversine (gpxpy.geo.haversine_distance) between consecutive timed points of each
  segment, segments not joined, rescaled from gpxpy's Earth radius (6,378,137 m, equatorial) to the mean radius
  runmate and docs/references.md use (6,371,008.8 m); duration = last time - first time.
- TCX: the laps' totals (sum of Lap/DistanceMeters, sum of Lap/TotalTimeSeconds), read with xml.etree.
- FIT: the session totals decoded by Garmin's own SDK (pip install garmin-fit-sdk): total_distance,
  total_elapsed_time, sport; a file the SDK reports errors in is expected to be refused as damaged.
- Plausibility (issue 13): a run faster than 25 km/h (2:24/km) or shorter than a second is expected to be refused.

Usage: python3 scripts/corpus-reference.py   (from the repository root; rewrites the manifest)

The manifest's columns (tab-separated, one file a row):
  file        path under Tests/Corpus
  repo        GitHub repository it comes from
  path        its path in that repository
  commit      the commit it was taken from
  licence     the repository's licence (files are committed only under MIT/BSD/Apache/public domain)
  expect      run | cross-training:<sport> | skipped:<reason>
  ref_km      reference distance, km (empty when skipped)
  ref_s       reference duration, seconds (empty when skipped)
  km_tol      allowed relative difference of the distance (0.01 = 1 %)
  s_tol       allowed difference of the duration: relative (0.01) or, when larger, 5 s
  reference   how the reference was computed
  status      ok; known-wrong: <why runmate is wrong today>; or differs: <a deliberate difference from the
              reference>. Both come from Tests/Corpus/known-wrong.tsv; the test then checks that the disagreement
              is still there, so that a fix shows up as a row to mark ok.
"""

import os
import re
import sys
import xml.etree.ElementTree as ET
from datetime import datetime

import gpxpy
import gpxpy.geo

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
CORPUS = os.path.join(ROOT, "Tests", "Corpus")

SOURCES = {
    "gpxpy": ("tkrajina/gpxpy", "test_files", "017d9961ee9aa86ccdbf5bb50a4e2341d5c42f4b", "Apache-2.0"),
    "python-fitparse": ("dtcooper/python-fitparse", "tests/files", "d88bb6997138c38d0c578aeaaf4108df0711d1f6", "MIT"),
    "python-tcxparser": (
        "vkurup/python-tcxparser", "tests/files", "5ecaac92f8f2def592ed495b7877a97121dc59c4", "BSD-2-Clause"),
}

# Fetched by scripts/fetch-corpus.sh (licences that do not allow committing them): Tests/Corpus/fetched-manifest.tsv.
FETCHED = {
    "fetched/pytrainer": ("pytrainer/pytrainer", None, "e5603ddadfd8b74e13effd5906eab9d703b6ca5a", "GPL-2.0"),
    "fetched/runalyze": ("Runalyze/Runalyze", None, "5669237a78c7d3512df969052fd0d97e5dca6820", "none stated"),
}
FETCHED_PATHS = {
    "sample.fit": "pytrainer/test/imports", "sample.tcx": "pytrainer/test/imports",
    "gpxplus_sample.gpx": "pytrainer/test/lib", "gpxplus_sample_old.gpx": "pytrainer/test/lib",
}

# gpxpy's haversine uses the equatorial radius; runmate (and gpx_stats.py, docs/references.md) the mean one.
RADIUS = 6371008.8 / 6378137.0

RUN_WORDS = {"running", "run", "trail_running", "treadmill_running", "street_running", "track_running", "9", ""}

# What runmate gets wrong today, by file: kept in the manifest so the test pins today's disagreement.
KNOWN_WRONG = {}
known_path = os.path.join(CORPUS, "known-wrong.tsv")
if os.path.exists(known_path):
    with open(known_path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip() and not line.startswith("#"):
                name, reason = line.rstrip("\n").split("\t", 1)
                KNOWN_WRONG[name] = reason


def sport_expectation(word):
    """run, or cross-training:<sport> named as runmate names it (Sources/Activity/Sport.swift)."""
    word = (word or "").strip().lower().replace("-", "_").replace(" ", "_")
    if word in RUN_WORDS or word.endswith("_running") or word.endswith("_run"):
        return "run"
    names = [("bik", "cycling"), ("cycl", "cycling"), ("ride", "cycling"), ("swim", "swimming"), ("walk", "walking"),
             ("hik", "hiking"), ("ski", "skiing"), ("row", "rowing"), ("paddl", "paddling"), ("kayak", "paddling"),
             ("canoe", "paddling"), ("skat", "skating")]
    for part, name in names:
        if part in word:
            return "cross-training:" + name
    strava = {1: "cycling", 16: "swimming", 10: "walking", 4: "hiking"}
    if word.isdigit():
        return "cross-training:" + strava.get(int(word), "Strava type " + word)
    return "cross-training:" + word


def gpx_reference(path):
    with open(path, encoding="utf-8-sig") as handle:
        text = handle.read()
    note = ""
    try:
        gpx = gpxpy.parse(text)
    except gpxpy.gpx.GPXException as error:
        if "latitude is mandatory" not in str(error):
            raise
        # gpxpy refuses a point without a position (before the GPS fix); such points are left out and counted.
        text, removed = re.subn(r"<trkpt(?![^>]*\blat=)[^>]*?(/>|>.*?</trkpt>)", "", text, flags=re.S)
        gpx = gpxpy.parse(text)
        note = "; %d points without a position removed first" % removed
    metres = 0.0
    times = []
    sport = None
    for track in gpx.tracks:
        sport = sport or track.type
        for segment in track.segments:
            timed = [p for p in segment.points if p.time is not None]
            times += [p.time for p in timed]
            for a, b in zip(timed, timed[1:]):
                metres += gpxpy.geo.haversine_distance(a.latitude, a.longitude, b.latitude, b.longitude) * RADIUS
    if len(times) < 2:
        return "skipped:no track points with times", None, None, "gpxpy: fewer than two timed track points"
    seconds = (max(times) - min(times)).total_seconds()
    if seconds < 1:
        return "skipped:no duration", None, None, "gpxpy: under a second from first to last time"
    if metres <= 0:
        return "skipped:no distance", None, None, "gpxpy: no distance"
    return plausible(sport_expectation(sport), metres / 1000, seconds,
                     "gpxpy haversine within segments (mean Earth radius); time bounds" + note)


def plausible(expect, km, seconds, how):
    """The issue's plausibility rule for runs: faster than 25 km/h or under a second is refused."""
    if expect == "run" and km / (seconds / 3600) > 25:
        return "skipped:implausible pace (%.0f km/h)" % (km / (seconds / 3600)), None, None, how
    return expect, km, seconds, how


def tcx_reference(path):
    ns = {"t": "http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"}
    root = ET.parse(path).getroot()
    if root.find(".//t:MultiSportSession", ns) is not None:
        legs = len(root.findall(".//t:MultiSportSession//t:Activity", ns))
        return "skipped:multisport session (%d legs; legs not compared)" % legs, None, None, "xml.etree"
    activities = root.findall(".//t:Activities/t:Activity", ns)
    if not activities:
        return "skipped:no activity", None, None, "xml.etree: no Activity"
    activity = activities[0]
    metres = sum(float(lap.findtext("t:DistanceMeters", "0", ns)) for lap in activity.findall("t:Lap", ns))
    seconds = sum(float(lap.findtext("t:TotalTimeSeconds", "0", ns)) for lap in activity.findall("t:Lap", ns))
    if metres <= 0:
        return "skipped:no distance", None, None, "the laps' DistanceMeters sum to 0"
    if len(activities) > 1:
        kinds = sorted(sport_expectation(a.get("Sport")) for a in activities)
        return "several:" + ",".join(kinds), None, None, "xml.etree: %d activities (kinds compared)" % len(activities)
    return plausible(sport_expectation(activity.get("Sport")), metres / 1000, seconds,
                     "sum of the laps' DistanceMeters and TotalTimeSeconds")


def fit_reference(path):
    from garmin_fit_sdk import Decoder, Stream

    decoder = Decoder(Stream.from_file(path))
    messages, errors = decoder.read()
    sessions = messages.get("session_mesgs", [])
    # An error the SDK names as its own limitation (compressed timestamps) is no damage: its session totals stand.
    errors = [error for error in errors if "not currently supported" not in str(error)]
    if errors:
        return "skipped:damaged", None, None, "garmin-fit-sdk: " + str(errors[0])[:80]
    if not sessions:
        return "skipped:no activity", None, None, "garmin-fit-sdk: no session message"
    session = sessions[0]
    metres = session.get("total_distance") or 0
    seconds = session.get("total_elapsed_time") or 0
    if metres <= 0:
        return "skipped:no distance", None, None, "garmin-fit-sdk: session total_distance 0"
    sport = str(session.get("sport") or "")
    sub = str(session.get("sub_sport") or "")
    expectation = sport_expectation(sport if sport != "running" else "running")
    if sport == "generic" or sport == "":
        expectation = "run"
    if len(sessions) > 1:
        return "skipped:multisport", None, None, "garmin-fit-sdk: %d sessions" % len(sessions)
    return plausible(expectation, metres / 1000, seconds, "garmin-fit-sdk session total_distance, total_elapsed_time (%s/%s)" % (
        sport, sub))


def main():
    write(SOURCES, "manifest.tsv")
    if all(os.path.isdir(os.path.join(CORPUS, folder)) for folder in FETCHED):
        write(FETCHED, "fetched-manifest.tsv")
    else:
        print("fetched files absent (scripts/fetch-corpus.sh): fetched-manifest.tsv kept", file=sys.stderr)


def fetched_path(name):
    """A fetched file's path in its repository, as scripts/fetch-corpus.sh names it."""
    if name in FETCHED_PATHS:
        return FETCHED_PATHS[name]
    with open(os.path.join(ROOT, "scripts", "fetch-corpus.sh"), encoding="utf-8") as handle:
        for line in handle:
            parts = line.strip().strip('"').split()
            if len(parts) == 5 and parts[3].endswith("/" + name):
                return os.path.dirname(parts[3])
    return ""


def write(sources, manifest):
    rows = []
    for folder in sorted(sources):
        repo, base, commit, licence = sources[folder]
        directory = os.path.join(CORPUS, folder)
        for name in sorted(os.listdir(directory)):
            lower = name.lower()
            if not lower.endswith((".gpx", ".tcx", ".fit")):
                continue
            path = os.path.join(directory, name)
            try:
                if lower.endswith(".gpx"):
                    expect, km, seconds, how = gpx_reference(path)
                    km_tol, s_tol = 0.001, 0.0
                elif lower.endswith(".tcx"):
                    expect, km, seconds, how = tcx_reference(path)
                    km_tol, s_tol = 0.01, 0.01
                else:
                    expect, km, seconds, how = fit_reference(path)
                    km_tol, s_tol = 0.01, 0.01
            except Exception as error:  # the reference cannot read it: runmate must refuse it too
                expect, km, seconds, how = "skipped:unreadable", None, None, type(error).__name__
                km_tol, s_tol = 0.0, 0.0
            file = folder + "/" + name
            rows.append([
                file, repo, (base or fetched_path(name)) + "/" + name, commit, licence, expect,
                "" if km is None else "%.5f" % km, "" if seconds is None else "%.1f" % seconds,
                str(km_tol), str(s_tol), how, KNOWN_WRONG.get(file, "ok")])
    header = ["file", "repo", "path", "commit", "licence", "expect", "ref_km", "ref_s", "km_tol", "s_tol",
              "reference", "status"]
    with open(os.path.join(CORPUS, manifest), "w", encoding="utf-8") as out:
        out.write("\t".join(header) + "\n")
        for row in rows:
            out.write("\t".join(cell.replace("\t", " ") for cell in row) + "\n")
    print("%s: wrote %d rows" % (manifest, len(rows)), file=sys.stderr)


if __name__ == "__main__":
    main()
