#!/usr/bin/env python3
"""Makes tcx/multisport.tcx (and multisport.json) for Tests/ActivityTests/MultisportTests.swift.

    pip install garmin-fit-sdk      # (scripts/fit-reference-requirements.txt)
    python3 Tests/ActivityTests/Fixtures/tcx/make_multisport.py

The TCX is the multisport FIT fixture (fit/multisport.fit, made by fit/make_fixtures.py) as Garmin Connect exports a
multisport activity: one <MultiSportSession> whose <FirstSport> and <NextSport> hold one <Activity> per leg, a
transition written as the <NextSport>'s <Transition> lap (no activity of its own). Every 5th record becomes a
<Trackpoint>. Like several devices, the DistanceMeters of the trackpoints run on across the legs (the run's start at
about 3,690 m), so a leg's distance is its last DistanceMeters minus its first. The reference JSON holds Garmin's
decoder's session totals of each leg of the FIT file (sport, start, elapsed time, distance), read by garmin-fit-sdk.
Deterministic: run it twice, get the same bytes.
"""
import datetime
import json
import os

from garmin_fit_sdk import Decoder, Stream

HERE = os.path.dirname(os.path.abspath(__file__))
FIT = os.path.join(HERE, '..', 'fit', 'multisport.fit')
FIT_EPOCH = 631065600
SPORTS = {'generic': 'Other', 'running': 'Running', 'cycling': 'Biking'}


def iso(fit_seconds):
    t = datetime.datetime.fromtimestamp(fit_seconds + FIT_EPOCH, tz=datetime.timezone.utc)
    return t.strftime('%Y-%m-%dT%H:%M:%SZ')


def main():
    messages, errors = Decoder(Stream.from_file(FIT)).read(convert_datetimes_to_dates=False)
    assert not errors, errors
    sessions = messages['session_mesgs']
    records = messages['record_mesgs']
    # Each record to its leg: the legs follow one another, split at the next session's start (the first session's
    # start_time is late, so everything before the second session's start is the first leg).
    starts = [s['start_time'] for s in sessions]
    legs = [[] for _ in sessions]
    for r in records:
        index = max([0] + [i for i in range(1, len(starts)) if starts[i] <= r['timestamp']])
        legs[index].append(r)
    running_total = 0.0  # the device's distance running on across legs
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">',
           ' <Activities>', '  <MultiSportSession>', '   <Id>%s</Id>' % iso(records[0]['timestamp'])]
    reference = []
    first = True
    pending_transition = None
    for session, leg in zip(sessions, legs):
        distance = leg[-1]['distance'] - leg[0]['distance']
        if session['sport'] == 'transition':
            pending_transition = (leg, distance)
            running_total += distance
            continue
        out.append('   <FirstSport>' if first else '   <NextSport>')
        if pending_transition:
            tleg, tdistance = pending_transition
            out.append('    <Transition StartTime="%s"><TotalTimeSeconds>%d</TotalTimeSeconds>'
                       '<DistanceMeters>%.1f</DistanceMeters></Transition>'
                       % (iso(tleg[0]['timestamp']), tleg[-1]['timestamp'] - tleg[0]['timestamp'], tdistance))
            pending_transition = None
        sport = SPORTS[session['sport']]
        out.append('    <Activity Sport="%s">' % sport)
        out.append('     <Id>%s</Id>' % iso(leg[0]['timestamp']))
        seconds = leg[-1]['timestamp'] - leg[0]['timestamp']
        out.append('     <Lap StartTime="%s">' % iso(leg[0]['timestamp']))
        out.append('      <TotalTimeSeconds>%d</TotalTimeSeconds>' % seconds)
        out.append('      <DistanceMeters>%.1f</DistanceMeters>' % distance)
        out.append('      <Track>')
        kept = leg[::5] if (len(leg) - 1) % 5 == 0 else leg[::5] + [leg[-1]]
        base = leg[0]['distance']
        for r in kept:
            out.append('       <Trackpoint><Time>%s</Time><Position><LatitudeDegrees>%.7f</LatitudeDegrees>'
                       '<LongitudeDegrees>%.7f</LongitudeDegrees></Position><AltitudeMeters>%.1f</AltitudeMeters>'
                       '<DistanceMeters>%.2f</DistanceMeters><HeartRateBpm><Value>%d</Value></HeartRateBpm>'
                       '</Trackpoint>'
                       % (iso(r['timestamp']), r['position_lat'] * 180 / 2**31, r['position_long'] * 180 / 2**31,
                          r['altitude'], running_total + r['distance'] - base, r['heart_rate']))
        out.append('      </Track>')
        out.append('     </Lap>')
        out.append('    </Activity>')
        out.append('   </FirstSport>' if first else '   </NextSport>')
        first = False
        running_total += distance
        reference.append({'sport': sport, 'start_time': leg[0]['timestamp'] + FIT_EPOCH,
                          'session_total_distance': session['total_distance'],
                          'session_total_elapsed_time': session['total_elapsed_time']})
    out += ['  </MultiSportSession>', ' </Activities>', '</TrainingCenterDatabase>', '']
    with open(os.path.join(HERE, 'multisport.tcx'), 'w') as f:
        f.write('\n'.join(out))
    with open(os.path.join(HERE, 'multisport.json'), 'w') as f:
        json.dump({'file': 'multisport.tcx', 'decoder': 'garmin-fit-sdk (sessions of fit/multisport.fit)',
                   'legs': reference}, f, indent=1, sort_keys=True)
        f.write('\n')


if __name__ == '__main__':
    main()
