import Foundation
import RunMateTestSupport
import Testing

@testable import Activity

/// Seeded random mutations of the real fixtures through the GPX/TCX reader: it must never trap, and must
/// either give summaries whose values are all inside `ActivityLimits`, or throw an ``ActivityError`` whose
/// message is one line.
///
/// The campaign (``fuzz(_:corpus:defaultSeed:mutator:check:)`` in RunMateTestSupport) takes
/// `RUNMATE_FUZZ_SECONDS` (default 2) from the printed seed `RUNMATE_FUZZ_SEED`.
struct FuzzTests {
  static let fixtures = [
    "gpx/route_2021-01-03_5.53pm.gpx", "gpx/two-segments.gpx", "gpx/twin-of-tcx-run.gpx", "tcx/treadmill.tcx",
    "tcx/two-activities.tcx",
  ]

  static let mutator = Mutator(
    garbage: Mutator.controlBytes + Mutator.xmlMarkup + [
      Array("<trkpt lat=\"0\" lon=\"0\">".utf8), Array("</trkseg>".utf8), Array("<Trackpoint>".utf8),
      Array("<time>1850-01-01T00:00:00Z</time>".utf8),
    ])

  @Test func mutatedActivityFilesNeverTrapAndStayPlausible() throws {
    let corpus = try Self.fixtures.map { [UInt8](try Data(contentsOf: fixtureURL($0))) }
    let run = fuzz("Activity", corpus: corpus, defaultSeed: 0x5EED_AC71, mutator: Self.mutator) { input, random in
      let name = random.next() % 2 == 0 ? "fuzz.gpx" : "fuzz.tcx"
      do {
        return try readActivities(data: Data(input), name: name).flatMap(Self.implausibilities)
      } catch  where !String(describing: error).hasPrefix(name) {
        return ["the message does not start with the file name: \(error)"]
      }
    }
    #expect(run.passed, "\(run.failures.prefix(5)) slowest \(run.slowest)")
  }

  /// What is out of range in a summary (empty when all is plausible).
  static func implausibilities(_ summary: ActivitySummary) -> [String] {
    let limits = ActivityLimits.standard
    var problems: [String] = []
    func check(_ ok: Bool, _ what: String) { if !ok { problems.append(what) } }
    check((0...limits.maximumDistance).contains(summary.distanceMeters), "distance \(summary.distanceMeters)")
    check((0...limits.maximumElapsed).contains(summary.elapsedSeconds), "elapsed \(summary.elapsedSeconds)")
    check(
      summary.movingSeconds >= 0 && summary.movingSeconds <= summary.elapsedSeconds, "moving \(summary.movingSeconds)")
    check(
      limits.accepts(time: summary.start.timeIntervalSince1970)
        && limits.accepts(time: summary.end.timeIntervalSince1970), "dates \(summary.start) \(summary.end)")
    check(
      summary.distanceMeters <= limits.maximumSpeed(sport: summary.sport) * summary.elapsedSeconds + limits.speedSlack,
      "speed")
    if let gain = summary.elevationGainMeters {
      check(gain >= 0 && gain <= limits.maximumElevationGain, "gain \(gain)")
    }
    if let average = summary.averageHeartRate { check(limits.heartRate.contains(average), "heart rate \(average)") }
    if let maximum = summary.maxHeartRate { check(limits.heartRate.contains(Double(maximum)), "max hr \(maximum)") }
    check(summary.pointCount >= 0 && summary.droppedPoints >= 0, "counts")
    return problems
  }
}
