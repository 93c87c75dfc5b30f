import Activity
import Foundation
import RunMateTestSupport
import Testing

/// Hand-written GPX files: segments, extensions, CRLF, and the timestamp forms GPX writers use.
struct GPXTests {
  /// `gpx/two-segments.gpx`: two segments of 4 points, each 0.0003° of latitude (33.36 m) and 10 s apart
  /// along 13.4°E, with 5 minutes and 0.0100° (1.1 km) between the segments.
  @Test func segmentsAreNotBridged() throws {
    let run = try readSingle("gpx/two-segments.gpx")

    // 3 + 3 intervals of 0.0003°; the 0.0100° between segment 1's last point and segment 2's first is not
    // distance run. gpx_stats.py, which joins segments, says 1.3121 km.
    let expected = metersAlongMeridian(6 * 0.0003)
    #expect(isClose(run.distanceMeters, expected, relative: 1e-9))
    #expect(isClose(run.distanceMeters, 200.151, relative: 0.0001))
    // 06:00:00 → 06:06:00, the pause included.
    #expect(run.elapsedSeconds == 360)
    // 6 intervals of 10 s at 3.34 m/s (gpx_stats.py: 60.0).
    #expect(run.movingSeconds == 60)
    // Heart rate weighted by 10 s per interval, within segments: (110 + 120 + 130 + 100 + 125 + 135) / 6 =
    // 120 (gpx_stats.py: 120.0). Maximum 150.
    #expect(run.averageHeartRate == 120)
    #expect(run.maxHeartRate == 150)
    // Elevation 34, 35, 36, 37.5 | 37, 38, 39, 40: +3.5 (34 → 37.5), new low 37, +3.0 (37 → 40) = 6.5 m.
    // (gpx_stats.py says 3.0 m: it starts from the second point, 35 m, and so misses the first climb.)
    #expect(run.elevationGainMeters == 6.5)
    #expect(run.pointCount == 8)
    // trk/name wins over metadata/name; trk/type is the sport.
    #expect(run.name == "Two segments")
    #expect(run.sport == "running")
  }

  /// `gpx/twin-of-tcx-run.gpx` (CRLF line ends): the TCX run's points as a phone recorded them, 2 s later,
  /// without device distances. Reference: `gpx_stats.py gpx/twin-of-tcx-run.gpx` printed
  /// `distance_km 0.436, elapsed_s 150.0, moving_s 80.0, avg_hr 137.1` (and elevation_gain_m 10.5, for the
  /// reason given in `TCXTests.theRunWorkedOutByHand`).
  @Test func twinMatchesTheReference() throws {
    let run = try readSingle("gpx/twin-of-tcx-run.gpx")

    #expect(isClose(run.distanceMeters, 436.0, relative: 0.005))
    #expect(run.elapsedSeconds == 150)
    #expect(run.movingSeconds == 80)
    #expect(isClose(run.averageHeartRate, 137.1, absolute: 0.05))
    #expect(run.maxHeartRate == 155)
    #expect(run.elevationGainMeters == 11.0)
    #expect(run.start == (try utc(2024, 3, 10, 7, 0, 2)))
    #expect(run.pointCount == 11)
  }

  /// A GPX document of one segment whose points carry these `<time>` texts, 0.001° apart.
  static func track(times: [String], extra: String = "") -> Data {
    var xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>

      """
    for (index, time) in times.enumerated() {
      xml += "<trkpt lat=\"\(10 + Double(index) / 1000)\" lon=\"20\"><time>\(time)</time>\(extra)</trkpt>\n"
    }
    xml += "</trkseg></trk></gpx>\n"
    return Data(xml.utf8)
  }

  struct TimeCase: Sendable, CustomTestStringConvertible {
    var text: String
    var fields: (Int, Int, Int, Int, Int, Int)
    var nanosecond: Int = 0
    var offsetSeconds: Int = 0
    var testDescription: String { text }
  }

  static let timeCases = [
    TimeCase(text: "2021-01-03T16:53:49Z", fields: (2021, 1, 3, 16, 53, 49)),
    TimeCase(text: "2021-01-03T16:53:49.250Z", fields: (2021, 1, 3, 16, 53, 49), nanosecond: 250_000_000),
    TimeCase(text: "2021-01-03T16:53:49.5", fields: (2021, 1, 3, 16, 53, 49), nanosecond: 500_000_000),
    TimeCase(text: "2021-01-03T17:53:49+01:00", fields: (2021, 1, 3, 16, 53, 49)),
    TimeCase(text: "2021-01-03T12:23:49.125-0430", fields: (2021, 1, 3, 16, 53, 49), nanosecond: 125_000_000),
    TimeCase(text: "2021-01-04T01:53:49+09", fields: (2021, 1, 3, 16, 53, 49)),
    TimeCase(text: "  2024-02-29t23:59:59z\n", fields: (2024, 2, 29, 23, 59, 59)),
    TimeCase(text: "2000-03-01T00:00:00Z", fields: (2000, 3, 1, 0, 0, 0)),
    TimeCase(text: "1969-12-31T23:59:59Z", fields: (1969, 12, 31, 23, 59, 59)),
  ]

  @Test(arguments: timeCases)
  func timestampForms(_ time: TimeCase) throws {
    let run = try #require(try readActivities(data: Self.track(times: [time.text]), name: "t.gpx").first)
    let (year, month, day, hour, minute, second) = time.fields
    let expected = try utc(year, month, day, hour, minute, second, nanosecond: time.nanosecond)

    #expect(abs(run.start.timeIntervalSince(expected)) < 1e-6)
  }

  @Test(arguments: [
    "2021-02-29T10:00:00Z", "2021-13-01T10:00:00Z", "2021-01-01T24:00:00Z", "2021-01-01T10:60:00Z",
    "2021-01-01 10:00Z", "2021-01-01T10:00:00+25:00", "2021-01-01T10:00:00.Z", "21-01-01T10:00:00Z",
    "2021-01-01T10:00:00Zjunk", "yesterday",
  ])
  func impossibleTimestampsAreErrors(_ text: String) throws {
    let data = Self.track(times: ["2021-01-01T09:00:00Z", text])
    let error = #expect(throws: ActivityError.self) { try readActivities(data: data, name: "t.gpx") }

    #expect(
      error
        == .invalidValue(
          file: "t.gpx", line: 4, field: "<time>", value: text.trimmingCharacters(in: .whitespaces), expected: .dateTime
        ))
  }

  @Test func heartRateUnderAnyPrefixAndPointsWithoutTimes() throws {
    let extensions =
      "<extensions><ns3:TrackPointExtension xmlns:ns3=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v1\">"
      + "<ns3:hr>140</ns3:hr></ns3:TrackPointExtension></extensions>"
    var xml = String(
      decoding: Self.track(times: ["2024-01-01T10:00:00Z", "2024-01-01T10:00:20Z"], extra: extensions), as: UTF8.self)
    // A point without a time is skipped, as the reference skips it.
    xml = xml.replacingOccurrences(of: "</trkseg>", with: "<trkpt lat=\"11\" lon=\"20\"><ele>5</ele></trkpt></trkseg>")
    let run = try #require(try readActivities(data: Data(xml.utf8), name: "hr.gpx").first)

    #expect(run.averageHeartRate == 140)
    #expect(run.maxHeartRate == 140)
    #expect(run.pointCount == 2)
    #expect(run.elevationGainMeters == nil)
    #expect(isClose(run.distanceMeters, metersAlongMeridian(0.001), relative: 1e-9))
  }

  @Test func pointsWithPoorAppleAccuracyAreDropped() throws {
    // hAcc 80 m on the middle point: dropped (the reference's --max-hacc 50), so the distance is the
    // 0.002° between the first and last points.
    var xml = String(
      decoding: Self.track(times: ["2024-01-01T10:00:00Z", "2024-01-01T10:00:20Z", "2024-01-01T10:00:40Z"]),
      as: UTF8.self)
    xml = xml.replacingOccurrences(
      of: "<time>2024-01-01T10:00:20Z</time>",
      with: "<time>2024-01-01T10:00:20Z</time><extensions><hAcc>80.0</hAcc></extensions>")
    xml = xml.replacingOccurrences(of: "lat=\"10.001\"", with: "lat=\"10.5\"")
    let run = try #require(try readActivities(data: Data(xml.utf8), name: "acc.gpx").first)

    #expect(run.pointCount == 2)
    #expect(isClose(run.distanceMeters, metersAlongMeridian(0.002), relative: 1e-9))
  }
}

extension GPXTests {
  @Test func namesKeepNonASCIIAndLoseSurroundingWhitespace() throws {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <gpx version="1.1"><trk><name>
          Lauf am Müggelsee – Café
        </name><type> running </type>
      <trkseg><trkpt lat="1" lon="2"><time>2024-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>

      """
    let run = try #require(try readActivities(data: Data(text.utf8), name: "names.gpx").first)

    #expect(run.name == "Lauf am Müggelsee – Café")
    #expect(run.sport == "running")
  }

  @Test func aUTF8ByteOrderMarkIsAccepted() throws {
    let text =
      "\u{FEFF}<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"><trk><trkseg>"
      + "<trkpt lat=\"1\" lon=\"2\"><time>2024-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>\n"
    let run = try #require(try readActivities(data: Data(text.utf8), name: "bom.gpx").first)

    #expect(run.pointCount == 1)
    #expect(run.start == (try utc(2024, 1, 1)))
  }
}
