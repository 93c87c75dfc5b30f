import Activity
import Foundation
import RunMateTestSupport
import Testing

/// What devices and apps write that XML forbids but a runner's file should still read.
@Suite struct DeviceQuirkTests {
  func tcx() throws -> String {
    try String(contentsOf: fixtureURL("tcx/two-activities.tcx"), encoding: .utf8)
  }

  /// Whitespace (and a byte-order mark) before `<?xml …?>`, as Strava's TCX has it: read like the file without it.
  @Test(arguments: ["\n", "  \n\t", "\u{FEFF}\n  "])
  func whitespaceBeforeTheDeclarationIsRead(_ prefix: String) throws {
    let text = try tcx()
    let plain = try readActivities(data: Data(text.utf8), name: "plain.tcx")
    let shifted = try readActivities(data: Data((prefix + text).utf8), name: "strava.tcx")
    #expect(shifted.map(\.distanceMeters) == plain.map(\.distanceMeters))
    #expect(shifted.map(\.elapsedSeconds) == plain.map(\.elapsedSeconds))
  }

  /// The line numbers of errors stay those of the file as written.
  @Test func aLaterErrorKeepsItsLine() throws {
    let text = try tcx()
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let broken = "\n\n" + lines.prefix(8).joined(separator: "\n") + "\n<Bad attr=></Bad>\n"
    let error = #expect(throws: ActivityError.self) {
      try readActivities(data: Data(broken.utf8), name: "broken.tcx")
    }
    #expect(error.map { "\($0)" }?.hasPrefix("broken.tcx:11:") == true, "\(String(describing: error))")
  }

  /// A declaration naming another encoding after whitespace is left to the parser, which refuses it by line.
  @Test func aMisplacedLatinDeclarationIsStillRefused() throws {
    let text = try tcx().replacingOccurrences(of: "UTF-8", with: "ISO-8859-1")
    #expect(throws: ActivityError.self) { try readActivities(data: Data(("\n" + text).utf8), name: "latin.tcx") }
  }

  /// A track sampled every 45 s at running speed (a watch saving battery) moves between its points: moving time is
  /// the elapsed time, not the few seconds of 30-s intervals.
  @Test func sparseSamplingCountsByItsSpeed() throws {
    var points: [String] = []
    for index in 0...80 {
      // 45 s apart, 120 m north each time (2.7 m/s, a 6:15/km run).
      let latitude = 52.0 + Double(index) * 120 / 111_195
      let seconds = index * 45
      let time = String(format: "2024-06-01T%02d:%02d:%02dZ", 7 + seconds / 3600, seconds / 60 % 60, seconds % 60)
      points.append("<trkpt lat=\"\(latitude)\" lon=\"13.0\"><time>\(time)</time></trkpt>")
    }
    let gpx = """
      <?xml version="1.0" encoding="UTF-8"?>
      <gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
      \(points.joined(separator: "\n"))
      </trkseg></trk></gpx>
      """
    let run = try #require(try readActivities(data: Data(gpx.utf8), name: "sparse.gpx").first)
    #expect(run.elapsedSeconds == 3600)
    #expect(run.movingSeconds == 3600)
    #expect(abs(run.distanceMeters - 9600) < 10)
  }

  /// A point before the GPS fix (no lat, no lon) keeps its time and adds no distance; one of the two alone is a
  /// broken point, refused with its line.
  @Test func aPointBeforeTheFixIsKept() throws {
    func gpx(_ first: String) -> Data {
      Data(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
        <trkpt\(first)><time>2024-06-02T07:00:00Z</time></trkpt>
        <trkpt lat="52.0" lon="13.0"><time>2024-06-02T07:00:05Z</time></trkpt>
        <trkpt lat="52.01" lon="13.0"><time>2024-06-02T07:06:00Z</time></trkpt>
        </trkseg></trk></gpx>
        """.utf8)
    }
    let run = try #require(try readActivities(data: gpx(""), name: "nofix.gpx").first)
    #expect(run.elapsedSeconds == 360)
    #expect(abs(run.distanceMeters - 1112) < 2)
    let error = #expect(throws: ActivityError.self) { try readActivities(data: gpx(#" lat="52.0""#), name: "half.gpx") }
    #expect(error.map { "\($0)" } == "half.gpx:3: <trkpt> has no lon attribute")
  }
}
