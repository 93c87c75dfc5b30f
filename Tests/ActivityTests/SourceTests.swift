import Foundation
import RunMateTestSupport
import Testing

@testable import Activity

/// Distance and time from one source (TCX), tracks recorded on different days (GPX), and a run's speed over any 30 s.
/// Every file is written to a real file and read back; expected figures are worked out in the comments.
struct SourceTests {
  /// A TCX activity: `laps` as `(start, seconds, meters)`, then the trackpoints `(seconds after 07:00:00Z,
  /// DistanceMeters or nil, latitude or nil)` in the last lap's track (longitude 8).
  static func tcx(laps: [(String, Int, Int)], points: [(Int, Double?, Double?)]) -> String {
    let trackpoints = points.map { seconds, distance, latitude in
      let time = String(format: "2024-03-01T%02d:%02d:%02dZ", 7 + seconds / 3600, seconds / 60 % 60, seconds % 60)
      let position = latitude.map {
        "<Position><LatitudeDegrees>\($0)</LatitudeDegrees><LongitudeDegrees>8</LongitudeDegrees></Position>"
      }
      let meters = distance.map { "<DistanceMeters>\($0)</DistanceMeters>" }
      return "<Trackpoint><Time>\(time)</Time>\(position ?? "")\(meters ?? "")</Trackpoint>"
    }
    let lapText = laps.enumerated().map { index, lap in
      let track = index == laps.count - 1 ? "<Track>\(trackpoints.joined(separator: "\n"))</Track>" : ""
      return "<Lap StartTime=\"\(lap.0)\"><TotalTimeSeconds>\(lap.1)</TotalTimeSeconds>"
        + "<DistanceMeters>\(lap.2)</DistanceMeters>\(track)</Lap>"
    }
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
       <Activities><Activity Sport="Running"><Id>2024-03-01T07:00:00Z</Id>
      \(lapText.joined(separator: "\n"))
       </Activity></Activities>
      </TrainingCenterDatabase>

      """
  }

  static func read(_ text: String, _ name: String) throws -> [ActivitySummary] {
    try PlausibilityTests.readFile(text, named: name)
  }

  @Test func aDeviceDistanceStartingAt42KmCountsFromItsFirstValue() throws {
    // DistanceMeters 42,014 → 42,314 over 2 minutes (as a watch that carried a marathon's total on): 300 m in 120 s.
    var points: [(Int, Double?, Double?)] = []
    for index in 0...12 {
      let step = Double(index)
      points.append((index * 10, 42_014 + step * 25, 50 + step * 0.0002))
    }
    let text = Self.tcx(laps: [("2024-03-01T07:00:00Z", 120, 300)], points: points)
    let run = try #require(try Self.read(text, "d.tcx").first)
    #expect(run.distanceMeters == 300)
    #expect(run.elapsedSeconds == 120)
    #expect(run.distanceSource == .device)
  }

  @Test func lapsThatCoverTheTrackGiveDistanceAndTimeTogether() throws {
    // One lap of 5,730 m in 31:56 (1,916 s) from 07:00:00; trackpoints with positions only from 07:01:00 to 07:29:50
    // (28:50): the lap's distance with the lap's time, never 5.73 km in 28:50.
    var points: [(Int, Double?, Double?)] = []
    for index in 0...173 { points.append((60 + index * 10, nil, 50 + Double(index) * 0.0003)) }
    let text = Self.tcx(laps: [("2024-03-01T07:00:00Z", 1916, 5730)], points: points)
    let run = try #require(try Self.read(text, "laps.tcx").first)
    #expect(run.distanceMeters == 5730)
    #expect(run.elapsedSeconds == 1916)
    #expect(run.movingSeconds == 1916)
    #expect(run.start == (try utc(2024, 3, 1, 7, 0, 0)))
    #expect(run.distanceSource == .laps)
  }

  @Test func lapsThatDoNotCoverTheTrackGiveWayToThePositions() throws {
    // A lap of 40 km in 60 s (07:00:00–07:01:00) against a track of 20 minutes: the lap cannot describe the track,
    // so the positions' haversine (120 × 0.0003° of latitude) with the track's own 1,200 s.
    var points: [(Int, Double?, Double?)] = []
    for index in 0...120 { points.append((index * 10, nil, 50 + Double(index) * 0.0003)) }
    let text = Self.tcx(laps: [("2024-03-01T07:00:00Z", 60, 40_000)], points: points)
    let run = try #require(try Self.read(text, "track.tcx").first)
    #expect(isClose(run.distanceMeters, metersAlongMeridian(0.036), absolute: 0.01))
    #expect(run.elapsedSeconds == 1200)
    #expect(run.distanceSource == .positions)
  }

  @Test func gpxTracksOnDifferentDaysAreSeparateActivities() throws {
    // Two tracks of 10 points (0.0005° every minute), the second 3 days later: two runs, not one of 72 hours.
    let first = (0..<10).map {
      "<trkpt lat=\"\(50 + Double($0) * 0.0005)\" lon=\"8\"><time>2024-03-01T07:0\($0):00Z</time></trkpt>"
    }
    let second = (0..<10).map {
      "<trkpt lat=\"\(51 + Double($0) * 0.0005)\" lon=\"8\"><time>2024-03-04T18:0\($0):00Z</time></trkpt>"
    }
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
       <trk><name>Week</name><trkseg>\(first.joined())</trkseg></trk>
       <trk><trkseg>\(second.joined())</trkseg></trk>
      </gpx>

      """
    let runs = try Self.read(text, "days.gpx")
    #expect(runs.count == 2)
    #expect(runs.map(\.elapsedSeconds) == [540, 540])
    #expect(runs.map(\.pointCount) == [10, 10])
    for run in runs { #expect(isClose(run.distanceMeters, metersAlongMeridian(0.0045), absolute: 0.01)) }
    #expect(runs.map(\.start) == [try utc(2024, 3, 1, 7, 0, 0), try utc(2024, 3, 4, 18, 0, 0)])
  }

  /// A run at 3 m/s sampled every 5 s, with `fast` intervals from 07:05:00 at 0.0004° of latitude (44.5 m, 8.9 m/s,
  /// 32 km/h: under the 15 m/s of a GPS jump).
  static func burst(fast: Int, type: String = "running") -> String {
    var latitude = 50.0
    var points: [(Double, Double, Int)] = []
    for index in 0..<120 {
      points.append((latitude, 8, index * 5))
      let isFast = index >= 60 && index < 60 + fast
      latitude += isFast ? 0.0004 : 15 / 111_195.0
    }
    return PlausibilityTests.gpx(points).replacingOccurrences(of: "running", with: type)
  }

  @Test func aRunFasterThan25KmHOver30SecondsIsRefusedNamingTheTimeAndLine() {
    // Seven fast intervals (35 s) from the point at 07:05:00 (index 60, line 64): the 30 s from it cover 6 × 44.48 m =
    // 266.9 m, 8.90 m/s = 32.0 km/h, 1:52 min/km.
    let error = PlausibilityTests.error(Self.burst(fast: 7), named: "burst.gpx")
    #expect(
      error?.description
        == "burst.gpx:64: implausible activity: 1:52 min/km (32.0 km/h) for 30 s from 2024-03-01T07:05:00Z is faster "
        + "than a run (at most 2:24 min/km, 25.0 km/h)")
  }

  @Test func aShortSprintAndARideAreNotRefused() throws {
    // Two fast intervals (10 s): over 30 s, (2 × 44.48 + 4 × 15) / 30 = 4.97 m/s.
    #expect(try Self.read(Self.burst(fast: 2), "sprint.gpx").count == 1)
    // The same 35 s at 32 km/h on a bike.
    #expect(try Self.read(Self.burst(fast: 7, type: "cycling"), "ride.gpx").count == 1)
  }
}
