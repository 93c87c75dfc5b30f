#!/usr/bin/env python3
"""Workout-file benchmark, side by side in one run (scripts/bench-workouts.sh builds runmate-bench and calls this).

runmate-bench writes every run of a plan per distance x level as FIT workout files with our writer (best of ROUNDS,
in memory), reads them back with our reader, and leaves one round's files in a folder. The same files are then
decoded with garmin-fit-sdk (Decoder.read, its defaults, each file checked for no errors) and with fitdecode
(FitReader, every frame, CRCs checked), best of ROUNDS each, and the script prints workouts/s for each and our ratios.

    python3 scripts/bench_workouts.py BENCH_BINARY [ROUNDS]
"""
import os
import re
import shutil
import subprocess
import sys

from bench_fit import best  # the best of ROUNDS timings, as the FIT decoding benchmark takes them


def main():
    binary = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    directory = os.path.join(os.environ.get('BENCH_DIR', '/tmp/runmate-workout-bench'), 'files')
    shutil.rmtree(directory, ignore_errors=True)
    out = subprocess.run([binary, 'workouts', directory, '20'], check=True, capture_output=True, text=True).stdout
    paths = sorted(os.path.join(directory, name) for name in os.listdir(directory))
    count = len(paths)

    from garmin_fit_sdk import Decoder, Stream
    import fitdecode

    def garmin():
        for path in paths:
            messages, errors = Decoder(Stream.from_file(path)).read()
            assert not errors and messages['workout_step_mesgs'], (path, errors)

    def fitdecode_all():
        for path in paths:
            with fitdecode.FitReader(path, check_crc=fitdecode.CrcCheck.RAISE) as reader:
                for _ in reader:
                    pass

    garmin_s = best(garmin, rounds)
    fitdecode_s = best(fitdecode_all, rounds)
    written = re.search(r'write best ([0-9.]+) s', out)
    read = re.search(r'read best ([0-9.]+) s', out)
    write_s, read_s = float(written.group(1)), float(read.group(1))
    print(f'Workout-file benchmark (release build): {out.strip()}')
    print(f'  runmate writer (FIT workout files): {count / write_s:10.0f} workouts/s')
    print(f'  runmate reader:                     {count / read_s:10.0f} workouts/s')
    print(f'  garmin-fit-sdk decode:              {count / garmin_s:10.0f} workouts/s   (best of {rounds}: '
          f'{garmin_s:.2f} s)')
    print(f'  fitdecode {fitdecode.__version__} decode:            {count / fitdecode_s:10.0f} workouts/s   '
          f'(best of {rounds}: {fitdecode_s:.2f} s)')
    print(f'  runmate writes {garmin_s / write_s:.0f}x as many a second as garmin-fit-sdk decodes, '
          f'reads {garmin_s / read_s:.0f}x garmin-fit-sdk and {fitdecode_s / read_s:.0f}x fitdecode')


if __name__ == '__main__':
    main()
