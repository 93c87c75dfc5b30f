#!/usr/bin/env python3
"""FIT decoding benchmark, side by side in one run (scripts/bench-fit.sh builds runmate-bench and calls this).

Generates (once, cached) a large FIT activity: RECORDS one-second records of a run (timestamp, position, distance,
speed, altitude, heart rate, cadence) with laps and a session, encoded by the fixtures' FIT writer
(Tests/ActivityTests/Fixtures/fit/make_fixtures.py), checked by garmin-fit-sdk. Then decodes it with
garmin-fit-sdk (Decoder.read, its defaults) and fitdecode (FitReader, every frame), best of ROUNDS, and with our
decoder (`runmate-bench --fit`, best of 20 reads), and prints MB/s for each and our ratios.

    python3 scripts/bench_fit.py BENCH_BINARY [RECORDS] [ROUNDS]
"""
import math
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'Tests', 'ActivityTests', 'Fixtures', 'fit'))
import make_fixtures as fx  # noqa: E402


def generate(path, records):
    points = fx.track(records, 1, 3.1, hill=25.0)
    w = fx.RawWriter()
    w.define(0, 0, [(0, 1, fx.ENUM), (1, 2, fx.UINT16), (2, 2, fx.UINT16), (4, 4, fx.UINT32)])
    w.data(0, [4, 255, 1, points[0][0] - fx.FIT_EPOCH])
    w.define(1, 20, [(253, 4, fx.UINT32), (0, 4, fx.SINT32), (1, 4, fx.SINT32), (5, 4, fx.UINT32),
                     (6, 2, fx.UINT16), (2, 2, fx.UINT16), (3, 1, fx.UINT8), (4, 1, fx.UINT8)])
    w.define(2, 19, [(253, 4, fx.UINT32), (2, 4, fx.UINT32), (7, 4, fx.UINT32), (9, 4, fx.UINT32)])
    for i, (t, lat, lon, dist, v, alt, hr, cad) in enumerate(points):
        w.data(1, [t - fx.FIT_EPOCH, round(lat * 2**31 / 180), round(lon * 2**31 / 180), round(dist * 100),
                   round(v * 1000), round((alt + 500) * 5), hr, cad])
        if i % 1000 == 999:
            first = points[i - 999]
            w.data(2, [t - fx.FIT_EPOCH, first[0] - fx.FIT_EPOCH, (t - first[0]) * 1000,
                       round((dist - first[3]) * 100)])
    fx.session_fields(w, 3, False, points, 1, 0, points[-1][0] - points[0][0])
    w.write(path)


def best(function, rounds):
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    binary = sys.argv[1]
    records = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    directory = os.environ.get('BENCH_DIR', '/tmp/runmate-fit-bench')
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f'run-{records}.fit')
    if not os.path.exists(path):
        generate(path, records)
    size = os.path.getsize(path)
    mb = size / 1e6

    from garmin_fit_sdk import Decoder, Stream
    import fitdecode

    def garmin():
        messages, errors = Decoder(Stream.from_file(path)).read()
        assert not errors and len(messages['record_mesgs']) == records, errors

    def fitdecode_all():
        count = 0
        with fitdecode.FitReader(path) as reader:
            for frame in reader:
                if isinstance(frame, fitdecode.FitDataMessage) and frame.name == 'record':
                    count += 1
        assert count == records

    # Ours first: on Linux a child's peak memory (ru_maxrss) starts from its parent's at fork, so it is measured
    # before Python holds the reference decoders' messages.
    out = subprocess.run([binary, '--fit', path, '20'], check=True, capture_output=True, text=True).stdout
    garmin_s = best(garmin, rounds)
    fitdecode_s = best(fitdecode_all, rounds)
    ours = re.search(r'best ([0-9.]+) s', out)
    ours_s = float(ours.group(1))
    print(f'FIT decoding benchmark: {os.path.basename(path)}, {mb:.1f} MB, {records} records (release build)')
    print(f'  runmate (Activity FIT decoder): {mb / ours_s:8.1f} MB/s   ({out.strip()})')
    print(f'  garmin-fit-sdk {Decoder.__module__.split(".")[0]}: {mb / garmin_s:8.2f} MB/s   '
          f'(best of {rounds}: {garmin_s:.2f} s)')
    print(f'  fitdecode {fitdecode.__version__}:          {mb / fitdecode_s:8.2f} MB/s   '
          f'(best of {rounds}: {fitdecode_s:.2f} s)')
    print(f'  runmate is {garmin_s / ours_s:.0f}x garmin-fit-sdk and {fitdecode_s / ours_s:.0f}x fitdecode')


if __name__ == '__main__':
    main()
