#!/usr/bin/env python3
"""Best efforts of the committed FIT files, computed apart from runmate (issue 24), for BestEffortTests.

Reads each file with fitdecode (not runmate's decoder), keeps the records with a timestamp, drops GPS jumps (more
than 100 m from the last kept record, at the same instant or earlier, or faster than 15 m/s for a run, 40 m/s
otherwise, within 30 s), and measures the path (the device distance between records that both carry it, else the
haversine, R = 6,371,008.8 m). A stretch ends when time goes back, or at a pause: an interval over 30 s unless it
was covered at 0.894 m/s or faster within 300 s. For each distance, a brute force: from every record forward, and
back, to the first record the distance away, interpolating the time at the exact distance; of stretches as fast
(within a microsecond), the one starting first.

Only files with one session are listed (a multisport file's records are split among its sessions).
Writes Tests/ActivityTests/Fixtures/fit/best-efforts.json. Needs `pip install fitdecode`.
"""
import glob
import json
import math
import os

import fitdecode

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DISTANCES = [400, 1000, 5000, 10000, 21097.5, 42195]
EPOCH = 631065600  # 1989-12-31T00:00:00Z
SEMICIRCLE = 180 / 2 ** 31


def haversine(a, b):
    if a["lat"] is None or b["lat"] is None:
        return None
    p1, p2 = math.radians(a["lat"]), math.radians(b["lat"])
    dp, dl = p2 - p1, math.radians(b["lon"] - a["lon"])
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371008.8 * math.asin(min(1, math.sqrt(h)))


def read(path):
    records, sessions, sport = [], 0, None
    with fitdecode.FitReader(path, check_crc=fitdecode.CrcCheck.DISABLED) as fit:
        for frame in fit:
            if not isinstance(frame, fitdecode.FitDataMessage):
                continue
            if frame.name == "session":
                sessions += 1
                if frame.has_field("sport"):
                    sport = frame.get_value("sport")
            if frame.name != "record" or not frame.has_field("timestamp"):
                continue
            stamp = frame.get_value("timestamp")
            if stamp is None:
                continue
            raw = frame.get_field("timestamp").raw_value
            lat = frame.get_value("position_lat") if frame.has_field("position_lat") else None
            lon = frame.get_value("position_long") if frame.has_field("position_long") else None
            point = {"time": raw + EPOCH, "lat": None, "lon": None, "distance": None}
            if lat is not None and lon is not None:
                lat, lon = lat * SEMICIRCLE, lon * SEMICIRCLE
                if abs(lat) <= 90 and abs(lon) <= 180:
                    point["lat"], point["lon"] = lat, lon
            if frame.has_field("distance") and frame.get_value("distance") is not None:
                point["distance"] = frame.get_field("distance").raw_value / 100
            records.append(point)
    return records, sessions, sport


def stretches(records, glitch_speed):
    out, last, path = [[]], None, 0.0
    for point in records:
        if last is not None:
            meters = haversine(last, point)
            seconds = point["time"] - last["time"]
            if meters is not None and meters > 100 and (
                    seconds <= 0 or (seconds <= 30 and meters / seconds > glitch_speed)):
                continue
        if last is None:
            out[-1].append((point["time"], path))
        else:
            seconds = point["time"] - last["time"]
            if last["distance"] is not None and point["distance"] is not None:
                travelled = point["distance"] - last["distance"]
            else:
                travelled = haversine(last, point)
            if seconds > 0:
                path += max(0.0, travelled or 0.0)
                moving = seconds <= 300 and (travelled or 0.0) / seconds >= 0.894
                if seconds > 30 and not moving:
                    out.append([])
                out[-1].append((point["time"], path))
            elif seconds < 0:
                out.append([(point["time"], path)])
        last = point
    return [s for s in out if s]


def better(candidate, best):
    """The faster; of two as fast (within a microsecond), the earlier start."""
    if candidate[0] <= 0:
        return best
    if best is None or candidate[0] < best[0] - 1e-6 or (candidate[0] <= best[0] + 1e-6 and candidate[1] < best[1]):
        return candidate
    return best


def efforts(parts, start):
    found = []
    for distance in DISTANCES:
        best = None
        for pts in parts:
            n = len(pts)
            for i in range(n):
                for j in range(i + 1, n):
                    if pts[j][1] - pts[i][1] >= distance:
                        (ta, pa), (tb, pb) = pts[j - 1], pts[j]
                        end = ta + (pts[i][1] + distance - pa) / (pb - pa) * (tb - ta)
                        best = better((end - pts[i][0], pts[i][0]), best)
                        break
            for j in range(n):
                for i in range(j - 1, -1, -1):
                    if pts[j][1] - pts[i][1] >= distance:
                        (ta, pa), (tb, pb) = pts[i], pts[i + 1]
                        begin = ta + (pts[j][1] - distance - pa) / (pb - pa) * (tb - ta)
                        best = better((pts[j][0] - begin, begin), best)
                        break
        if best is not None:
            found.append({"distance_m": distance, "seconds": round(best[0], 4),
                          "start_offset_s": round(best[1] - start, 4)})
    return found


def main():
    files = sorted(glob.glob(os.path.join(ROOT, "Tests/ActivityTests/Fixtures/fit/*.fit")))
    files += sorted(glob.glob(os.path.join(ROOT, "Tests/Corpus/python-fitparse/*.fit")))
    result = {}
    for path in files:
        try:
            records, sessions, sport = read(path)
        except Exception as error:  # not readable here: left out
            print(f"skipped {os.path.relpath(path, ROOT)}: {error}")
            continue
        if sessions > 1 or not records:
            continue
        speed = 15 if sport in ("running", "walking", "hiking", "generic", None) else 40
        parts = stretches(records, speed)
        start = min(p["time"] for p in records)
        result[os.path.relpath(path, ROOT)] = efforts(parts, start)
    target = os.path.join(ROOT, "Tests/ActivityTests/Fixtures/fit/best-efforts.json")
    with open(target, "w") as out:
        json.dump(result, out, indent=1, sort_keys=True)
        out.write("\n")
    print(f"{len(result)} files -> {os.path.relpath(target, ROOT)}")


if __name__ == "__main__":
    main()
