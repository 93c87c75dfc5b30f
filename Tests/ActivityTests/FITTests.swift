import Activity
import Foundation
import RunMateTestSupport
import Testing

/// What Garmin's own decoder (garmin-fit-sdk; fitdecode for compressed timestamps, which garmin-fit-sdk 21.x refuses)
/// read from each fixture: written by Fixtures/fit/make_fixtures.py next to the `.fit` file.
private struct Reference: Decodable {
  struct Session: Decodable {
    var startTime: Double
    var totalElapsedTime: Double
    var totalTimerTime: Double
    var totalDistance: Double?
    var avgHeartRate: Double?
    var maxHeartRate: Int?
    var totalAscent: Double?
    var sport: String?
    var subSport: String?
  }
  var records: Int
  var firstRecordTime: Double
  var lastRecordTime: Double
  var recordDistance: Double?
  var recordMaxHeartRate: Int?
  var recordMeanHeartRate: Double?
  var session: Session
}

/// The fixtures, each with the sport a runner would call it.
private let fixtures: [(file: String, isRun: Bool)] = [
  ("run-gps.fit", true), ("treadmill.fit", true), ("ride.fit", false), ("multi-lap.fit", true),
  ("compressed-timestamps.fit", true), ("developer-fields.fit", true),
]

/// FIT activity files compared with the reference decoders, and hostile FIT files.
///
/// Tolerances: start and end times exact (whole seconds in FIT); distance within 0.01 m of the records' last − first
/// and within 0.5 m of the session's total; maximum heart rate exact; mean heart rate within 1.5 bpm of the records'
/// plain mean (ours is weighted by time); elevation gain exactly the session's `totalAscent`; moving time within 5 s
/// (or 1 %) of the timer time.
struct FITTests {
  @Test(arguments: fixtures)
  func agreesWithTheReferenceDecoder(_ fixture: (file: String, isRun: Bool)) throws {
    let url = try fixtureURL("fit/\(fixture.file)")
    let jsonURL = url.deletingPathExtension().appendingPathExtension("json")
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let reference = try decoder.decode(Reference.self, from: Data(contentsOf: jsonURL))
    let summaries = try readActivities(at: url)
    try #require(summaries.count == 1)
    let run = summaries[0]

    #expect(run.format == .fit)
    #expect(run.pointCount == reference.records)
    #expect(run.start.timeIntervalSince1970 == reference.firstRecordTime)
    #expect(run.end.timeIntervalSince1970 == reference.lastRecordTime)
    #expect(run.elapsedSeconds == reference.lastRecordTime - reference.firstRecordTime)
    #expect(abs(run.elapsedSeconds - reference.session.totalElapsedTime) <= 1)
    let recordDistance = try #require(reference.recordDistance)
    #expect(abs(run.distanceMeters - recordDistance) <= 0.01)
    if let total = reference.session.totalDistance { #expect(abs(run.distanceMeters - total) <= 0.5) }
    #expect(run.maxHeartRate == reference.recordMaxHeartRate)
    #expect(run.maxHeartRate == reference.session.maxHeartRate)
    let mean = try #require(reference.recordMeanHeartRate)
    #expect(abs((run.averageHeartRate ?? 0) - mean) <= 1.5)
    #expect(run.elevationGainMeters == reference.session.totalAscent)
    let timer = reference.session.totalTimerTime
    #expect(abs(run.movingSeconds - timer) <= max(5, timer / 100))
    #expect(DeclaredSport(run.sport).isRun == fixture.isRun)
    #expect((reference.session.sport == "running") == fixture.isRun)

    // The same bytes in memory read the same.
    #expect(try readActivities(data: Data(contentsOf: url), name: fixture.file) == summaries)
  }

  @Test func sportsAreNamedForARunner() throws {
    #expect(try readActivities(at: fixtureURL("fit/ride.fit"))[0].sport == "cycling")
    #expect(DeclaredSport(try readActivities(at: fixtureURL("fit/ride.fit"))[0].sport) == .other("cycling"))
    #expect(try readActivities(at: fixtureURL("fit/treadmill.fit"))[0].sport == "treadmill_running")
    #expect(try readActivities(at: fixtureURL("fit/multi-lap.fit"))[0].sport == "trail_running")
    let named = try readActivities(at: fixtureURL("fit/compressed-timestamps.fit"))[0]
    #expect(named.sport == "road_running")
    #expect(named.name == "Morning road run")
  }

  @Test func theTreadmillRunHasNoPositionsButTheDevicesDistance() throws {
    let run = try readActivities(at: fixtureURL("fit/treadmill.fit"))[0]
    #expect(run.distanceMeters > 3000)
    #expect(run.movingSeconds > 1000)
  }

  // MARK: - Hostile files

  /// Reads `bytes` as a file named `name` (through the file path, as `runmate import` does) and returns the error.
  private func failure(_ bytes: [UInt8], name: String = "hostile.fit") throws -> ActivityError? {
    let directory = try temporaryDirectory("fit-hostile")
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    let clock = ContinuousClock()
    var error: ActivityError?
    let elapsed = clock.measure {
      error = #expect(throws: ActivityError.self) { try readActivities(at: url) }
    }
    #expect(elapsed < .seconds(1))
    // The same bytes in memory give the same error.
    if let error { #expect(throws: error) { try readFITActivities(data: Data(bytes), name: name) } }
    return error
  }

  private func fixtureBytes(_ file: String = "run-gps.fit") throws -> [UInt8] {
    [UInt8](try Data(contentsOf: fixtureURL("fit/\(file)")))
  }

  @Test func aWrongFileCRCIsRefused() throws {
    var bytes = try fixtureBytes()
    bytes[bytes.count - 1] ^= 0x5A
    let error = try failure(bytes)
    let description = try #require(error?.description)
    #expect(description.hasPrefix("hostile.fit: byte \(bytes.count - 2): file CRC is 0x"))
    #expect(description.hasSuffix("(corrupt file)"))
  }

  @Test func aFlippedDataByteFailsTheCRC() throws {
    var bytes = try fixtureBytes()
    bytes[bytes.count / 2] ^= 0x01
    let error = try failure(bytes)
    #expect(error?.description.contains("file CRC is") == true)
  }

  @Test func aWrongHeaderCRCIsRefused() throws {
    var bytes = try fixtureBytes("compressed-timestamps.fit")  // a 14-byte header with a CRC (fit-tool writes 12)
    bytes[12] ^= 0xFF
    let error = try failure(bytes)
    #expect(error?.description.hasPrefix("hostile.fit: byte 12: header CRC is 0x") == true)
  }

  @Test(arguments: [1, 11, 13, 14, 15, 100, 5_000, -3, -1])
  func aTruncatedFileIsRefused(_ cut: Int) throws {
    let bytes = try fixtureBytes()
    let kept = cut > 0 ? cut : bytes.count + cut
    let error = try failure(Array(bytes.prefix(kept)))
    let description = try #require(error?.description)
    if kept < 12 {
      #expect(description == "hostile.fit: byte 0: not a FIT file: \(kept) bytes, shorter than a FIT header (12)")
    } else {
      #expect(description.hasPrefix("hostile.fit: byte 4: the header declares"))
      #expect(description.hasSuffix("bytes after the header (truncated?)"))
    }
  }

  @Test func anEmptyFileIsRefused() throws {
    #expect(try failure([]) == .empty(file: "hostile.fit"))
  }

  @Test func aHeaderDeclaringFourGigabytesIsRefusedAtOnce() throws {
    var bytes = try fixtureBytes("compressed-timestamps.fit")
    bytes.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xFF])
    bytes.replaceSubrange(12..<14, with: [0, 0])  // no header CRC: the size itself must be caught
    let error = try failure(bytes)
    #expect(
      error?.description
        == "hostile.fit: byte 4: the header declares 4294967295 bytes of data and a 2-byte CRC, but the file holds "
        + "\(bytes.count - 14) bytes after the header (truncated?)")
  }

  @Test func garbageIsNotAFITFile() throws {
    var generator = SplitMix(seed: 12)
    let garbage = (0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    let error = try failure(garbage)
    // Read by name as FIT; in memory, bytes without the signature are taken for XML.
    #expect(throws: ActivityError.notActivityFile(file: "garbage", rootElement: nil)) {
      try readActivities(data: Data(garbage), name: "garbage")
    }
    #expect(error?.description == "hostile.fit: byte 8: not a FIT file (no \".FIT\" signature at byte 8)")
  }

  @Test func anUndefinedLocalMessageTypeIsRefused() throws {
    let error = try failure(fitFile([0x03, 0x00]))
    #expect(
      error?.description
        == "hostile.fit: byte 14: data message of local type 3, which no definition message has defined")
  }

  @Test func aFieldSizeNotFittingItsBaseTypeIsRefused() throws {
    // record (20), little-endian, one field: distance (5), 3 bytes, uint32 (0x86).
    let error = try failure(fitFile([0x40, 0, 0, 20, 0, 1, 5, 3, 0x86]))
    #expect(
      error?.description == "hostile.fit: byte 21: field 5 of message 20 is 3 bytes, not a multiple of uint32's 4")
  }

  @Test func aCourseIsNotAnActivity() throws {
    // file_id (0) with type (field 0, enum) = 6 (course).
    let error = try failure(fitFile([0x40, 0, 0, 0, 0, 1, 0, 1, 0x00, 0x00, 6]))
    #expect(
      error?.description == "hostile.fit: byte 23: not an activity file: file_id type 6 (course), an activity is 4")
  }

  @Test func aMessagePastTheDeclaredDataIsRefused() throws {
    // A definition of 255 fields whose bytes the header does not declare.
    let error = try failure(fitFile([0x40, 0, 0, 20, 0, 255]))
    #expect(
      error?.description
        == "hostile.fit: byte 14: a 771-byte message runs past the end of the data the header declares (byte 20)")
  }

  @Test func mutatedFilesWithValidCRCsFailCleanlyOrRead() throws {
    // Structural damage behind a correct CRC: every outcome must be a summary or one ActivityError, quickly.
    let original = try fixtureBytes("developer-fields.fit")
    var generator = SplitMix(seed: 2024)
    let clock = ContinuousClock()
    let elapsed = clock.measure {
      for _ in 0..<300 {
        var bytes = Array(original.dropLast(2))
        for _ in 0..<3 {
          let index = 14 + Int(generator.next() % UInt64(bytes.count - 14))
          bytes[index] = UInt8(truncatingIfNeeded: generator.next())
        }
        let crc = referenceCRC(bytes)
        bytes += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
        do throws(ActivityError) {
          _ = try readActivities(data: Data(bytes), name: "mutated.fit")
        } catch {
          #expect(!error.description.isEmpty)
        }
      }
    }
    #expect(elapsed < .seconds(5))
  }
}

/// A FIT file around `body`: a 14-byte header with its CRC, the body, the file CRC.
private func fitFile(_ body: [UInt8]) -> [UInt8] {
  let size = UInt32(body.count)
  var header: [UInt8] = [14, 0x20, 0x85, 0x08]
  header += [UInt8(size & 0xFF), UInt8((size >> 8) & 0xFF), UInt8((size >> 16) & 0xFF), UInt8(size >> 24)]
  header += Array(".FIT".utf8)
  let headerCRC = referenceCRC(header)
  header += [UInt8(headerCRC & 0xFF), UInt8(headerCRC >> 8)]
  let bytes = header + body
  let crc = referenceCRC(bytes)
  return bytes + [UInt8(crc & 0xFF), UInt8(crc >> 8)]
}

/// The FIT CRC as the FIT SDK documentation computes it, nibble by nibble (independent of the decoder's byte table).
private func referenceCRC(_ bytes: [UInt8]) -> UInt16 {
  let table: [UInt16] = [
    0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
    0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
  ]
  var crc: UInt16 = 0
  for byte in bytes {
    var tmp = table[Int(crc & 0xF)]
    crc = (crc >> 4) & 0x0FFF
    crc = crc ^ tmp ^ table[Int(byte & 0xF)]
    tmp = table[Int(crc & 0xF)]
    crc = (crc >> 4) & 0x0FFF
    crc = crc ^ tmp ^ table[Int((byte >> 4) & 0xF)]
  }
  return crc
}

/// A small deterministic generator (SplitMix64).
private struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
