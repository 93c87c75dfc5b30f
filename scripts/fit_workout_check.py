#!/usr/bin/env python3
"""Reads FIT workout files with Garmin's own decoder (the garmin-fit-sdk package) and with fitdecode, and prints, per
file, one JSON line: the integrity check, the decoder's errors, the workout's name and step count, and each step as Garmin reads it
(duration in seconds or metres, or the repeat's first step and count; the speed target in m/s, or the heart-rate
target as the SDK gives it, bpm + 100; the intensity), then under "fitdecode" what fitdecode reads (its errors, the
workout's name and the steps in the same shape), or null when fitdecode is not installed.

Usage: fit_workout_check.py FILE...
"""
import json
import sys

from garmin_fit_sdk import Decoder, Stream

try:
    import fitdecode
except ImportError:
    fitdecode = None


def step_of(message):
    kind = message.get("duration_type")
    step = {"index": message.get("message_index"), "name": message.get("wkt_step_name"), "duration": kind,
            "intensity": message.get("intensity"), "target": message.get("target_type")}
    if kind == "time":
        step["seconds"] = message.get("duration_time")
    elif kind == "distance":
        step["meters"] = message.get("duration_distance")
    elif kind == "repeat_until_steps_cmplt":
        step["from"] = message.get("duration_step")
        step["count"] = message.get("repeat_steps")
    if message.get("target_type") == "speed":
        step["low"] = message.get("custom_target_speed_low")
        step["high"] = message.get("custom_target_speed_high")
    elif message.get("target_type") == "heart_rate":
        step["low_bpm"] = message.get("custom_target_heart_rate_low")
        step["high_bpm"] = message.get("custom_target_heart_rate_high")
    return step


def fitdecode_read(path):
    """The file as fitdecode reads it, both CRCs checked: its errors, the workout's name and its steps."""
    errors, name, steps = [], None, []
    try:
        with fitdecode.FitReader(path, check_crc=fitdecode.CrcCheck.RAISE) as fit:
            for frame in fit:
                if not isinstance(frame, fitdecode.FitDataMessage):
                    continue
                fields = {field.name: field.value for field in frame.fields}
                if frame.name == "workout":
                    name = fields.get("wkt_name")
                elif frame.name == "workout_step":
                    steps.append(step_of(fields))
    except Exception as error:  # noqa: BLE001 - any failure to decode is what the check reports
        errors.append(f"{type(error).__name__}: {error}")
    return {"errors": errors, "name": name, "steps": steps}


def main(paths):
    for path in paths:
        integrity = Decoder(Stream.from_file(path)).check_integrity()
        messages, errors = Decoder(Stream.from_file(path)).read()
        file_ids = messages.get("file_id_mesgs", [])
        workouts = messages.get("workout_mesgs", [])
        print(json.dumps({
            "file": path,
            "integrity": integrity,
            "errors": [str(error) for error in errors],
            "type": file_ids[0].get("type") if file_ids else None,
            "name": workouts[0].get("wkt_name") if workouts else None,
            "sport": workouts[0].get("sport") if workouts else None,
            "num_valid_steps": workouts[0].get("num_valid_steps") if workouts else None,
            "steps": [step_of(message) for message in messages.get("workout_step_mesgs", [])],
            "fitdecode": fitdecode_read(path) if fitdecode else None,
        }, default=str))


if __name__ == "__main__":
    main(sys.argv[1:])
