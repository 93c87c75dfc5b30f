import Activity
import Foundation
import RunMateTestSupport
import Testing

/// The two real runs from `shared/data/gpx/` (Apple Health workout routes), against the project's
/// independent reference.
///
/// Expected values are the output of
/// `python3 /work/shared/tools/health-gen/gpx_stats.py route_2021-01-03_5.53pm.gpx route_2021-01-07_6.34pm.gpx`
/// (run 2025-11-21), pasted here:
/// ```
/// {'points': 1134, 'distance_km': 3.7275, 'elapsed_s': 1133.0, 'moving_s': 1133.0, 'elevation_gain_m': 6.0, 'avg_hr': None}
/// {'points': 1107, 'distance_km': 3.3986, 'elapsed_s': 1258.0, 'moving_s': 1105.0, 'elevation_gain_m': 6.0, 'avg_hr': None}
/// ```
/// The files carry no heart rate, so the reference has no mean HR for them; heart rate is compared with the
/// reference on `gpx/two-segments.gpx` and `gpx/twin-of-tcx-run.gpx` (see `GPXTests`).
struct RealRouteTests {
  struct Reference: Sendable, CustomTestStringConvertible {
    var file: String
    var points: Int
    var distanceKilometers: Double
    var elapsedSeconds: Double
    var movingSeconds: Double
    var elevationGainMeters: Double
    var testDescription: String { file }
  }

  static let references = [
    Reference(
      file: "route_2021-01-03_5.53pm.gpx", points: 1134, distanceKilometers: 3.7275, elapsedSeconds: 1133.0,
      movingSeconds: 1133.0, elevationGainMeters: 6.0),
    Reference(
      file: "route_2021-01-07_6.34pm.gpx", points: 1107, distanceKilometers: 3.3986, elapsedSeconds: 1258.0,
      movingSeconds: 1105.0, elevationGainMeters: 6.0),
  ]

  @Test(arguments: references)
  func matchesTheReference(_ reference: Reference) throws {
    let run = try readSingle("gpx/\(reference.file)")

    #expect(run.format == .gpx)
    #expect(run.pointCount == reference.points)
    #expect(isClose(run.distanceMeters, reference.distanceKilometers * 1000, relative: 0.005))
    #expect(abs(run.elapsedSeconds - reference.elapsedSeconds) <= max(1, 0.005 * reference.elapsedSeconds))
    #expect(abs(run.movingSeconds - reference.movingSeconds) <= max(1, 0.005 * reference.movingSeconds))
    // The reference rounds to 0.1 m.
    #expect(isClose(run.elevationGainMeters, reference.elevationGainMeters, absolute: 0.05 + 1e-9))
    #expect(run.averageHeartRate == nil)
    #expect(run.maxHeartRate == nil)
  }

  @Test func namesAndTimesComeFromTheFile() throws {
    let run = try readSingle("gpx/route_2021-01-07_6.34pm.gpx")

    // <name>Route 2021-01-07 6:34pm</name>; first <time> 2021-01-07T17:34:13Z, last 2021-01-07T17:55:11Z.
    #expect(run.name == "Route 2021-01-07 6:34pm")
    #expect(run.sport == nil)
    #expect(run.start == (try utc(2021, 1, 7, 17, 34, 13)))
    #expect(run.end == (try utc(2021, 1, 7, 17, 55, 11)))
    #expect(run.elapsedSeconds == run.end.timeIntervalSince(run.start))
  }
}
