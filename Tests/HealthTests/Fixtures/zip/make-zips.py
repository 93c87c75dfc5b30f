#!/usr/bin/env python3
"""Writes the hostile zips of HealthTests/ZipLimitTests (run from this folder; the output is committed).

Each is laid out by hand, so the sizes and offsets can lie exactly as an attacker's would.
"""
import struct
import zlib

EXPORT = (b'<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n'
          b' <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" '
          b'startDate="2024-03-01 08:00:00 +0100" endDate="2024-03-01 08:10:00 +0100" value="1234"/>\n'
          b'</HealthData>\n')


def deflate(data):
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush()


def local_header(name, method, crc, compressed, uncompressed):
    return struct.pack('<IHHHHHIIIHH', 0x04034B50, 20, 0, method, 0, 0, crc, compressed, uncompressed,
                       len(name), 0) + name


def central_header(name, method, crc, compressed, uncompressed, offset, extra=b''):
    return struct.pack('<IHHHHHHIIIHHHHHII', 0x02014B50, 45, 45, 0, method, 0, 0, crc, compressed, uncompressed,
                       len(name), len(extra), 0, 0, 0, 0, offset) + name + extra


def end_record(count, size, offset):
    return struct.pack('<IHHHHIIH', 0x06054B50, 0, 0, count, count, size, offset, 0)


def simple_zip(name, data, compressed, method=8, declared_compressed=None, declared_size=None):
    """One member; the central directory after the data, as zip tools write it."""
    crc = zlib.crc32(data)
    declared_compressed = len(compressed) if declared_compressed is None else declared_compressed
    declared_size = len(data) if declared_size is None else declared_size
    local = local_header(name, method, crc, declared_compressed, declared_size) + compressed
    central = central_header(name, method, crc, declared_compressed, declared_size, 0)
    return local + central + end_record(1, len(central), len(local))


def data_at_the_end(name, data, compressed, declared_compressed):
    """A stored empty member first (so the file starts with PK\\3\\4), then the directory, then the member
    whose compressed data runs to the end of the file."""
    first = local_header(b'a.txt', 0, 0, 0, 0)
    crc = zlib.crc32(data)
    first_central = central_header(b'a.txt', 0, 0, 0, 0, 0)
    directory_size = len(first_central) + 46 + len(name)
    offset = len(first) + directory_size + 22
    central = first_central + central_header(name, 8, crc, declared_compressed, len(data), offset)
    return (first + central + end_record(2, directory_size, len(first))
            + local_header(name, 8, crc, declared_compressed, len(data)) + compressed)


def zip64(name, data, compressed, declared_size=None):
    """One deflated member described only through ZIP64 fields (sizes and offset 0xFFFFFFFF)."""
    crc = zlib.crc32(data)
    declared_size = len(data) if declared_size is None else declared_size
    local = local_header(name, 8, crc, 0xFFFFFFFF, 0xFFFFFFFF) + compressed
    extra = struct.pack('<HHQQQ', 0x0001, 24, declared_size, len(compressed), 0)
    central = central_header(name, 8, crc, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, extra)
    record_offset = len(local) + len(central)
    record = struct.pack('<IQHHIIQQQQ', 0x06064B50, 44, 45, 45, 0, 0, 1, 1, len(central), len(local))
    locator = struct.pack('<IIQI', 0x07064B50, 0, record_offset, 1)
    end = struct.pack('<IHHHHIIH', 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    return local + central + record + locator + end


def write(path, data):
    with open(path, 'wb') as out:
        out.write(data)


name = b'apple_health_export/export.xml'
packed = deflate(EXPORT)
# 32 MiB of blanks inside an export: deflate packs them about 1,000 to 1.
bomb = EXPORT.replace(b'</HealthData>', b' ' * (32 << 20) + b'</HealthData>')
write('bomb.zip', simple_zip(name, bomb, deflate(bomb)))
# The same export, its central directory claiming 17 GiB inflated (through ZIP64).
write('declares-17-gib.zip', zip64(name, EXPORT, packed, declared_size=17 << 30))
# A correct export described through ZIP64 records: must import.
write('zip64.zip', zip64(name, EXPORT, packed))
# Half the deflated data, at the end of the file; the directory says the whole.
write('cut-at-end.zip', data_at_the_end(name, EXPORT, packed[:len(packed) // 2], len(packed)))
# Half the deflated data, at the end of the file; the directory says the half: the stream never ends.
write('unterminated.zip', data_at_the_end(name, EXPORT, packed[:len(packed) // 2], len(packed) // 2))
# A stored member whose directory says it is longer than the file.
write('stored-past-end.zip', simple_zip(name, EXPORT, EXPORT, method=0, declared_compressed=len(EXPORT) + 1000,
                                        declared_size=len(EXPORT) + 1000))
