#!/usr/bin/env python3
"""Makes the FIT fixtures of Tests/ActivityTests/FITTests.swift and their reference JSON.

    pip install fit-tool garmin-fit-sdk      # (scripts/fit-reference-requirements.txt)
    python3 Tests/ActivityTests/Fixtures/fit/make_fixtures.py

The files are written with fit-tool (PyPI `fit-tool`) where it can; two are encoded by hand below with the FIT
protocol's own layout (fit-tool writes no compressed-timestamp headers, no big-endian definitions and no developer
fields through its builder), their CRCs computed with fit-tool's crc16. Every reference `<name>.json` is what Garmin's
own decoder (PyPI `garmin-fit-sdk`) reads from the finished file, so the Swift tests compare our decoder with Garmin's,
not with this script's intentions. Deterministic: run it twice, get the same bytes.
"""
import datetime
import json
import math
import os
import struct
import sys

from fit_tool.fit_file_builder import FitFileBuilder
from fit_tool.profile.messages.activity_message import ActivityMessage
from fit_tool.profile.messages.event_message import EventMessage
from fit_tool.profile.messages.file_id_message import FileIdMessage
from fit_tool.profile.messages.lap_message import LapMessage
from fit_tool.profile.messages.record_message import RecordMessage
from fit_tool.profile.messages.session_message import SessionMessage
from fit_tool.profile.messages.sport_message import SportMessage
from fit_tool.profile.profile_type import Event, EventType, FileType, Manufacturer, Sport, SubSport
from fit_tool.utils.crc import crc16
from garmin_fit_sdk import Decoder, Stream

HERE = os.path.dirname(os.path.abspath(__file__))
FIT_EPOCH = 631065600  # 1989-12-31T00:00:00Z in Unix seconds
START = int(datetime.datetime(2024, 5, 4, 7, 30, 0, tzinfo=datetime.timezone.utc).timestamp())


def track(points, interval, speed, lat0=48.137, lon0=11.575, altitude=520.0, hill=18.0, gps=True, hr0=128,
          pauses=()):
    """Points of a synthetic activity: (unix time, lat, lon, distance m, speed m/s, altitude m, hr, cadence).
    `pauses` is a list of (index, seconds): the clock jumps by `seconds` before that point (timer stopped)."""
    out = []
    t = START
    distance = 0.0
    pause_at = dict(pauses)
    for i in range(points):
        if i in pause_at:
            t += pause_at[i]
        elif i:
            t += interval
            # Speed varies a little so averages are not trivial.
            distance += interval * (speed + 0.3 * math.sin(i / 17))
        v = speed + 0.3 * math.sin(i / 17)
        lat = lat0 + distance / 111_195.0 if gps else None
        lon = lon0 + 0.00002 * math.sin(i / 40) if gps else None
        alt = altitude + hill * math.sin(i / 60)
        hr = hr0 + int(25 * (1 - math.exp(-i / 120))) + (i % 7)
        cad = 84 + (i % 5)
        out.append((t, lat, lon, distance, v, alt, hr, cad))
    return out


def ascent(points):
    up = 0.0
    for a, b in zip(points, points[1:]):
        up += max(0.0, b[5] - a[5])
    return int(round(up))


def build_with_fit_tool(path, points, sport, sub_sport, laps=1, enhanced=False):
    builder = FitFileBuilder(auto_define=True, min_string_size=50)
    ms = lambda unix: unix * 1000  # fit-tool takes Unix milliseconds
    m = FileIdMessage()
    m.type = FileType.ACTIVITY
    m.manufacturer = Manufacturer.DEVELOPMENT.value
    m.product = 1
    m.serial_number = 0x1234567
    m.time_created = ms(points[0][0])
    builder.add(m)
    m = SportMessage()
    m.sport = sport
    m.sub_sport = sub_sport
    builder.add(m)
    m = EventMessage()
    m.event = Event.TIMER
    m.event_type = EventType.START
    m.timestamp = ms(points[0][0])
    builder.add(m)
    per_lap = math.ceil(len(points) / laps)
    lap_points = [points[i:i + per_lap] for i in range(0, len(points), per_lap)]
    timer_total = 0.0
    for lap in lap_points:
        for (t, lat, lon, dist, v, alt, hr, cad) in lap:
            r = RecordMessage()
            r.timestamp = ms(t)
            if lat is not None:
                r.position_lat = lat
                r.position_long = lon
            r.distance = dist
            if enhanced:
                r.enhanced_speed = v
                r.enhanced_altitude = alt
            else:
                r.speed = v
                r.altitude = alt
            r.heart_rate = hr
            r.cadence = cad
            builder.add(r)
        first, last = lap[0], lap[-1]
        timer = float(last[0] - first[0])
        timer_total += timer
        m = LapMessage()
        m.timestamp = ms(last[0])
        m.start_time = ms(first[0])
        m.total_elapsed_time = float(last[0] - first[0])
        m.total_timer_time = timer
        m.total_distance = last[3] - first[3]
        m.avg_heart_rate = round(sum(p[6] for p in lap) / len(lap))
        m.max_heart_rate = max(p[6] for p in lap)
        m.sport = sport
        m.sub_sport = sub_sport
        builder.add(m)
    m = EventMessage()
    m.event = Event.TIMER
    m.event_type = EventType.STOP_ALL
    m.timestamp = ms(points[-1][0])
    builder.add(m)
    m = SessionMessage()
    m.timestamp = ms(points[-1][0])
    m.start_time = ms(points[0][0])
    m.total_elapsed_time = float(points[-1][0] - points[0][0])
    m.total_timer_time = timer_total
    m.total_distance = points[-1][3] - points[0][3]
    m.avg_heart_rate = round(sum(p[6] for p in points) / len(points))
    m.max_heart_rate = max(p[6] for p in points)
    m.total_ascent = ascent(points)
    m.sport = sport
    m.sub_sport = sub_sport
    m.num_laps = len(lap_points)
    builder.add(m)
    m = ActivityMessage()
    m.timestamp = ms(points[-1][0])
    m.total_timer_time = timer_total
    m.num_sessions = 1
    builder.add(m)
    builder.build().to_file(path)


class RawWriter:
    """A FIT encoder by the protocol's layout: definition and data records, optional compressed timestamps."""

    def __init__(self):
        self.body = bytearray()
        self.defs = {}

    def define(self, local, global_num, fields, big_endian=False, dev_fields=()):
        arch = 1 if big_endian else 0
        header = 0x40 | (0x20 if dev_fields else 0) | local
        self.body += bytes([header, 0, arch]) + struct.pack('>H' if big_endian else '<H', global_num)
        self.body += bytes([len(fields)])
        for num, size, base in fields:
            self.body += bytes([num, size, base])
        if dev_fields:
            self.body += bytes([len(dev_fields)])
            for num, size, index in dev_fields:
                self.body += bytes([num, size, index])
        self.defs[local] = ('>' if big_endian else '<', fields, dev_fields)

    def data(self, local, values, dev_bytes=b'', compressed_time=None):
        order, fields, _ = self.defs[local]
        if compressed_time is not None:
            self.body.append(0x80 | (local << 5) | (compressed_time & 0x1F))
        else:
            self.body.append(local)
        for (num, size, base), value in zip(fields, values):
            self.body += encode(order, size, base, value)
        self.body += dev_bytes

    def write(self, path):
        header = bytearray(struct.pack('<BBHI4s', 14, 0x20, 2181, len(self.body), b'.FIT'))
        header += struct.pack('<H', crc16(bytes(header)))
        data = bytes(header) + bytes(self.body)
        with open(path, 'wb') as f:
            f.write(data + struct.pack('<H', crc16(data)))


FORMATS = {0x00: 'B', 0x01: 'b', 0x02: 'B', 0x83: 'h', 0x84: 'H', 0x85: 'i', 0x86: 'I', 0x0A: 'B', 0x8C: 'I'}


def encode(order, size, base, value):
    if base == 0x07:  # string
        raw = value.encode('utf-8')[:size - 1]
        return raw + b'\0' * (size - len(raw))
    return struct.pack(order + FORMATS[base], value)


UINT8, SINT32, UINT16, UINT32, ENUM, STRING = 0x02, 0x85, 0x84, 0x86, 0x00, 0x07


def session_fields(w, local, big_endian, points, sport, sub_sport, timer):
    w.define(local, 18, [(253, 4, UINT32), (2, 4, UINT32), (7, 4, UINT32), (8, 4, UINT32), (9, 4, UINT32),
                         (16, 1, UINT8), (17, 1, UINT8), (22, 2, UINT16), (5, 1, ENUM), (6, 1, ENUM)],
             big_endian=big_endian)
    w.data(local, [points[-1][0] - FIT_EPOCH, points[0][0] - FIT_EPOCH, (points[-1][0] - points[0][0]) * 1000,
                   int(timer * 1000), int(round((points[-1][3] - points[0][3]) * 100)),
                   round(sum(p[6] for p in points) / len(points)), max(p[6] for p in points), min(ascent(points), 65534),
                   sport, sub_sport])


def build_compressed(path):
    """A treadmill-free road run: records with compressed-timestamp headers, definitions big-endian."""
    points = track(400, 3, 3.2, pauses=[(150, 95)])
    w = RawWriter()
    w.define(0, 0, [(0, 1, ENUM), (1, 2, UINT16), (2, 2, UINT16), (4, 4, UINT32)], big_endian=True)
    w.data(0, [4, 255, 1, points[0][0] - FIT_EPOCH])
    w.define(1, 12, [(0, 1, ENUM), (1, 1, ENUM), (3, 24, STRING)], big_endian=True)
    w.data(1, [1, 2, 'Morning road run'])
    # A full record (with field 253) sets the reference time; then records with 5-bit time offsets.
    record = [(0, 4, SINT32), (1, 4, SINT32), (5, 4, UINT32), (6, 2, UINT16), (2, 2, UINT16), (3, 1, UINT8),
              (4, 1, UINT8)]
    w.define(2, 20, [(253, 4, UINT32)] + record, big_endian=True)
    w.define(3, 20, record, big_endian=True)

    def values(p):
        t, lat, lon, dist, v, alt, hr, cad = p
        return [round(lat * 2**31 / 180), round(lon * 2**31 / 180), round(dist * 100), round(v * 1000),
                round((alt + 500) * 5), hr, cad]

    previous = None
    for p in points:
        if previous is None or p[0] - previous >= 31:  # an offset cannot span 32 s or more
            w.data(2, [p[0] - FIT_EPOCH] + values(p))
        else:
            w.data(3, values(p), compressed_time=p[0] - FIT_EPOCH)
        previous = p[0]
    timer = (points[-1][0] - points[0][0]) - 95
    session_fields(w, 4, True, points, 1, 2, timer)
    w.write(path)


def build_developer(path):
    """A trail run whose records carry developer fields (a power figure and a 12-byte string) that must be skipped."""
    points = track(300, 1, 2.9, altitude=900, hill=35)
    w = RawWriter()
    w.define(0, 0, [(0, 1, ENUM), (1, 2, UINT16), (2, 2, UINT16), (4, 4, UINT32)])
    w.data(0, [4, 255, 2, points[0][0] - FIT_EPOCH])
    # developer_data_id (207): developer_data_index 0; field_description (206): two fields.
    w.define(1, 207, [(3, 1, UINT8), (4, 2, UINT16)])
    w.data(1, [0, 255])
    w.define(2, 206, [(0, 1, UINT8), (1, 1, UINT8), (2, 1, UINT8), (3, 16, STRING), (8, 8, STRING)])
    w.data(2, [0, 0, 0x84, 'Power', 'W'])
    w.data(2, [0, 1, 0x07, 'Note', ''])
    w.define(3, 20, [(253, 4, UINT32), (0, 4, SINT32), (1, 4, SINT32), (5, 4, UINT32), (2, 2, UINT16),
                     (3, 1, UINT8)], dev_fields=[(0, 2, 0), (1, 12, 0)])
    for i, (t, lat, lon, dist, v, alt, hr, cad) in enumerate(points):
        dev = struct.pack('<H', 200 + i % 50) + ('lap %d' % (i // 100)).encode().ljust(12, b'\0')
        w.data(3, [t - FIT_EPOCH, round(lat * 2**31 / 180), round(lon * 2**31 / 180), round(dist * 100),
                   round((alt + 500) * 5), hr], dev_bytes=dev)
    session_fields(w, 4, False, points, 1, 3, points[-1][0] - points[0][0])
    w.write(path)


def build_multisport(path):
    """A multisport file shaped like Garmin's (python-fitparse's activity-large-fenxi2-multisport.fit): all records
    first, each leg's distance starting again near 0, then one session per leg. The first, "generic" session's
    start_time is 5 minutes after its first record, so its span reaches 5 minutes into the legs after it; the
    transition's last record (at +1263 s) falls between the transition's end (+1262.8 s) and the run's start
    (+1264 s), held by no span but the generic one's."""
    legs = [  # (sport, first record s after START, points, interval s, speed m/s, session start offset, elapsed s)
        (0, 0, 601, 2, 3.0, 300, 1202.0),
        (3, 1202, 31, 2, 1.5, 0, 60.8),
        (1, 1264, 601, 2, 3.2, 0, 1200.0),
        (2, 2466, 301, 2, 8.0, 0, 600.0),
    ]
    w = RawWriter()
    w.define(0, 0, [(0, 1, ENUM), (1, 2, UINT16), (2, 2, UINT16), (4, 4, UINT32)])
    w.data(0, [4, 255, 3, START - FIT_EPOCH])
    w.define(1, 20, [(253, 4, UINT32), (0, 4, SINT32), (1, 4, SINT32), (5, 4, UINT32), (2, 2, UINT16),
                     (3, 1, UINT8)])
    sessions = []
    lat, lon = 47.37, 8.54
    for index, (sport, offset, points, interval, speed, late, elapsed) in enumerate(legs):
        distance = 0.5 + index  # a device restarts the leg's distance near 0
        first = distance
        times = [START + offset + i * interval for i in range(points)]
        if index == 1:
            times.append(times[-1] + 1)  # the record between two legs' spans
        for i, t in enumerate(times):
            if i:
                step = (t - times[i - 1]) * speed
                distance += step
                lat += step / 111_195.0
            w.data(1, [t - FIT_EPOCH, round(lat * 2**31 / 180), round(lon * 2**31 / 180), round(distance * 100),
                       round((430 + 5 * math.sin(i / 30) + 500) * 5), 120 + index * 10 + i % 5])
        start = START + offset + late
        sessions.append((times[-1], start, elapsed, round((distance - first) * 100), sport))
    w.define(2, 18, [(253, 4, UINT32), (2, 4, UINT32), (7, 4, UINT32), (8, 4, UINT32), (9, 4, UINT32),
                     (5, 1, ENUM), (6, 1, ENUM)])
    for end, start, elapsed, centimetres, sport in sessions:
        w.data(2, [end - FIT_EPOCH, start - FIT_EPOCH, int(elapsed * 1000), int(elapsed * 1000), centimetres, sport,
                   0])
    w.write(path)


def multisport_reference(path):
    """Garmin's decoder's sessions of the multisport file: each leg's sport and totals, and its records' times."""
    messages = garmin_messages(path)
    unix = lambda fit: fit + FIT_EPOCH
    out = {
        'file': os.path.basename(path),
        'decoder': 'garmin-fit-sdk',
        'records': len(messages['record_mesgs']),
        'sessions': [{
            'sport': session['sport'],
            'start_time': unix(session['start_time']),
            'timestamp': unix(session['timestamp']),
            'total_elapsed_time': session['total_elapsed_time'],
            'total_distance': session['total_distance'],
        } for session in messages['session_mesgs']],
    }
    with open(path[:-4] + '.json', 'w') as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write('\n')


def garmin_messages(path):
    """Messages as garmin-fit-sdk decodes them (timestamps in FIT seconds)."""
    checker = Decoder(Stream.from_file(path))
    assert checker.is_fit() and checker.check_integrity(), path
    messages, errors = Decoder(Stream.from_file(path)).read(convert_datetimes_to_dates=False)
    assert not errors, (path, errors)
    return messages


def fitdecode_messages(path):
    """Messages as fitdecode decodes them, in garmin-fit-sdk's shape (garmin-fit-sdk 21.x refuses compressed
    timestamp headers: "Compressed timestamp messages are not currently supported")."""
    import fitdecode
    messages = {}
    with fitdecode.FitReader(path, check_crc=fitdecode.CrcCheck.RAISE) as reader:
        for frame in reader:
            if not isinstance(frame, fitdecode.FitDataMessage):
                continue
            values = {}
            for field in frame.fields:
                value = field.value
                if isinstance(value, datetime.datetime):
                    value = int(value.timestamp()) - FIT_EPOCH
                elif field.name in ('position_lat', 'position_long') and value is not None:
                    value = field.raw_value
                values[field.name] = value
            messages.setdefault(frame.name + '_mesgs', []).append(values)
    return messages


def reference(path, decoder='garmin-fit-sdk'):
    """What Garmin's decoder (or fitdecode) reads: session totals and figures over the records."""
    messages = garmin_messages(path) if decoder == 'garmin-fit-sdk' else fitdecode_messages(path)
    records = [r for r in messages.get('record_mesgs', []) if 'timestamp' in r]
    unix = lambda fit: fit + FIT_EPOCH
    distances = [r['distance'] for r in records if r.get('distance') is not None]
    rates = [r['heart_rate'] for r in records if r.get('heart_rate') is not None]
    altitudes = [r.get('enhanced_altitude', r.get('altitude')) for r in records]
    altitudes = [a for a in altitudes if a is not None]
    positioned = [r for r in records if r.get('position_lat') is not None]
    session = messages['session_mesgs'][0]
    sport = messages.get('sport_mesgs', [{}])[0]
    out = {
        'file': os.path.basename(path),
        'decoder': decoder,
        'records': len(records),
        'records_with_position': len(positioned),
        'first_record_time': unix(records[0]['timestamp']),
        'last_record_time': unix(records[-1]['timestamp']),
        'record_distance': distances[-1] - distances[0] if distances else None,
        'record_max_heart_rate': max(rates) if rates else None,
        'record_mean_heart_rate': sum(rates) / len(rates) if rates else None,
        'min_altitude': min(altitudes) if altitudes else None,
        'max_altitude': max(altitudes) if altitudes else None,
        'first_position': [positioned[0]['position_lat'] * 180 / 2**31,
                           positioned[0]['position_long'] * 180 / 2**31] if positioned else None,
        'laps': len(messages.get('lap_mesgs', [])),
        'session': {
            'start_time': unix(session['start_time']),
            'total_elapsed_time': session['total_elapsed_time'],
            'total_timer_time': session['total_timer_time'],
            'total_distance': session.get('total_distance'),
            'avg_heart_rate': session.get('avg_heart_rate'),
            'max_heart_rate': session.get('max_heart_rate'),
            'total_ascent': session.get('total_ascent'),
            'sport': session.get('sport'),
            'sub_sport': session.get('sub_sport'),
        },
        'sport_message': {'sport': sport.get('sport'), 'sub_sport': sport.get('sub_sport')} if sport else None,
    }
    with open(path[:-4] + '.json', 'w') as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write('\n')


def main():
    files = {
        'run-gps.fit': lambda p: build_with_fit_tool(
            p, track(900, 2, 3.1), Sport.RUNNING, SubSport.STREET, laps=1),
        'treadmill.fit': lambda p: build_with_fit_tool(
            p, track(600, 2, 2.8, gps=False, hill=0.0), Sport.RUNNING, SubSport.TREADMILL, enhanced=True),
        'ride.fit': lambda p: build_with_fit_tool(
            p, track(700, 2, 8.5, hr0=115), Sport.CYCLING, SubSport.ROAD, enhanced=True),
        'multi-lap.fit': lambda p: build_with_fit_tool(
            p, track(1000, 1, 3.4, hill=30.0), Sport.RUNNING, SubSport.TRAIL, laps=5),
        'compressed-timestamps.fit': build_compressed,
        'developer-fields.fit': build_developer,
    }
    for name, make in files.items():
        path = os.path.join(HERE, name)
        make(path)
        reference(path, 'fitdecode' if name.startswith('compressed') else 'garmin-fit-sdk')
        print(f'{name}: {os.path.getsize(path)} bytes', file=sys.stderr)
    path = os.path.join(HERE, 'multisport.fit')
    build_multisport(path)
    multisport_reference(path)
    print(f'multisport.fit: {os.path.getsize(path)} bytes', file=sys.stderr)


if __name__ == '__main__':
    main()
