import Foundation
import RunMateTestSupport
import Testing

@testable import Activity

/// Values no body or device can produce are refused where they are parsed, naming the line; GPS jumps are
/// dropped and counted; a file cannot make the reader work without end.
struct PlausibilityTests {
  /// A TCX run of two trackpoints ten minutes apart, the second with `distance` as its DistanceMeters.
  static func tcx(distance: String, lapDistance: String = "2000") -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
     <Activities>
      <Activity Sport="Running">
       <Id>2024-03-01T07:00:00Z</Id>
       <Lap StartTime="2024-03-01T07:00:00Z">
        <TotalTimeSeconds>600</TotalTimeSeconds>
        <DistanceMeters>\(lapDistance)</DistanceMeters>
        <Track>
         <Trackpoint><Time>2024-03-01T07:00:00Z</Time><DistanceMeters>0</DistanceMeters></Trackpoint>
         <Trackpoint><Time>2024-03-01T07:10:00Z</Time><DistanceMeters>\(distance)</DistanceMeters></Trackpoint>
        </Track>
       </Lap>
      </Activity>
     </Activities>
    </TrainingCenterDatabase>

    """
  }

  /// A GPX track: one `<trkpt>` per line from line 4, each `(lat, lon, seconds after 07:00:00Z)`.
  static func gpx(_ points: [(Double, Double, Int)], extra: String = "") -> String {
    var text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
       <trk><type>running</type><trkseg>

      """
    for (lat, lon, seconds) in points {
      let time = "2024-03-01T07:\(String(format: "%02d:%02d", seconds / 60, seconds % 60))Z"
      text += "  <trkpt lat=\"\(lat)\" lon=\"\(lon)\"><time>\(time)</time>\(extra)</trkpt>\n"
    }
    return text + " </trkseg></trk>\n</gpx>\n"
  }

  /// Reads text written to a real file in a temporary folder.
  static func readFile(_ text: String, named name: String) throws -> [ActivitySummary] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plausibility-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return try readActivities(at: url)
  }

  static func error(_ text: String, named name: String) -> ActivityError? {
    do {
      _ = try readFile(text, named: name)
      return nil
    } catch let error as ActivityError {
      return error
    } catch {
      return nil
    }
  }

  @Test func aTCXDistanceOf1e21IsRefusedWithItsLine() {
    let error = Self.error(Self.tcx(distance: "1e21"), named: "e21.tcx")
    #expect(
      error?.description == "e21.tcx:11: <DistanceMeters> '1e21' is out of range (allowed 0 to 1000000 m)")
  }

  @Test func aNegativeTCXDistanceIsAnErrorNotASkip() {
    let error = Self.error(Self.tcx(distance: "-2000"), named: "negative.tcx")
    #expect(
      error?.description == "negative.tcx:11: <DistanceMeters> '-2000' is out of range (allowed 0 to 1000000 m)")
    let lap = Self.error(Self.tcx(distance: "2000", lapDistance: "-5"), named: "lap.tcx")
    #expect(lap?.description == "lap.tcx:8: <DistanceMeters> '-5' is out of range (allowed 0 to 1000000 m)")
  }

  @Test(arguments: ["nan", "NaN", "inf", "-inf", "1e309", "0x10", "Infinity"])
  func nonFiniteNumbersAreRefused(_ value: String) {
    let error = Self.error(Self.tcx(distance: value), named: "odd.tcx")
    #expect(
      error == .invalidValue(file: "odd.tcx", line: 11, field: "<DistanceMeters>", value: value, expected: .number))
  }

  @Test func aPlausibleTCXStillReads() throws {
    let runs = try Self.readFile(Self.tcx(distance: "2000"), named: "fine.tcx")
    #expect(runs.map(\.distanceMeters) == [2000])
  }

  @Test func theAntipodesAreRefusedNotA20000KmRun() {
    let error = Self.error(Self.gpx([(45, 10, 0), (-45, -170, 1)]), named: "antipodes.gpx")
    #expect(
      error?.description
        == "antipodes.gpx:5: implausible activity: 1 of 2 track points are GPS jumps (over 100 m faster than 15 m/s)")
  }

  @Test func aSingleGPSJumpIsDroppedAndCounted() throws {
    // 0.0005° of latitude (55.6 m) every 10 s, with point 4 thrown 1° (111 km) away.
    var points: [(Double, Double, Int)] = (0..<10).map { (i: Int) -> (Double, Double, Int) in
      (50 + Double(i) * 0.0005, 8, i * 10)
    }
    points[4].0 += 1
    let run = try #require(try Self.readFile(Self.gpx(points), named: "glitch.gpx").first)

    #expect(run.droppedPoints == 1)
    #expect(run.pointCount == 9)
    // The glitch adds nothing: 9 intervals of 55.6 m minus none (3 → 5 is one interval of 111.2 m).
    #expect(isClose(run.distanceMeters, metersAlongMeridian(0.0045), absolute: 0.01))
  }

  @Test func aTrackOfMostlyJumpsIsRefused() {
    // Every point 0.01° (1.1 km) from the previous one, 5 s apart: 222 m/s.
    let points: [(Double, Double, Int)] = (0..<6).map { (i: Int) -> (Double, Double, Int) in
      (50 + Double(i) * 0.01, 8, i * 5)
    }
    let error = Self.error(Self.gpx(points), named: "car.gpx")
    #expect(
      error?.description
        == "car.gpx:5: implausible activity: 5 of 6 track points are GPS jumps (over 100 m faster than 15 m/s)")
  }

  @Test func aRunFasterThanAnyRunnerIsRefused() {
    // 0.0009° (100 m) every 7 s: 14.3 m/s, under the glitch speed but far faster than 1:30 min/km.
    let points: [(Double, Double, Int)] = (0..<100).map { (i: Int) -> (Double, Double, Int) in
      (50 + Double(i) * 0.0009, 8, i * 7)
    }
    let error = Self.error(Self.gpx(points), named: "fast.gpx")
    #expect(error?.description == "fast.gpx:4: implausible activity: 9.9 km in 0:11:33 is faster than 1:30 min/km")
  }

  @Test func aRideMayGoFasterThanARun() throws {
    let points: [(Double, Double, Int)] = (0..<100).map { (i: Int) -> (Double, Double, Int) in
      (50 + Double(i) * 0.0009, 8, i * 7)
    }
    let text = Self.gpx(points).replacingOccurrences(of: "<type>running</type>", with: "<type>cycling</type>")
    let ride = try #require(try Self.readFile(text, named: "ride.gpx").first)
    #expect(ride.droppedPoints == 0)
  }

  /// Trackpoints every 10 hours (never 12 apart) over `hours`, 50 km apart.
  static func ultra(hours: Int) -> String {
    let start = Date(timeIntervalSince1970: 1_709_276_400)  // 2024-03-01T07:00:00Z
    let points = stride(from: 0, through: hours, by: 10).enumerated().map { index, hour in
      let time = ISO8601DateFormatter().string(from: start.addingTimeInterval(Double(hour) * 3600))
      return "<Trackpoint><Time>\(time)</Time><DistanceMeters>\(index * 50_000)</DistanceMeters></Trackpoint>"
    }
    return Self.tcx(distance: "2000").replacingOccurrences(
      of: "<Trackpoint><Time>2024-03-01T07:00:00Z</Time><DistanceMeters>0</DistanceMeters></Trackpoint>",
      with: points.joined()
    ).replacingOccurrences(
      of: "<Trackpoint><Time>2024-03-01T07:10:00Z</Time><DistanceMeters>2000</DistanceMeters></Trackpoint>", with: "")
  }

  /// A 30-hour 100-miler (Western States' cut-off) is a run; a week and more is not one activity.
  @Test func ultrasUpToAWeekAreAcceptedLongerIsRefused() throws {
    #expect(Self.error(Self.ultra(hours: 30), named: "ultra.tcx") == nil)
    let week = Self.error(Self.ultra(hours: 170), named: "long.tcx")
    #expect(
      week?.description == "long.tcx:4: implausible activity: elapsed time 170:00:00 is longer than 168 hours",
      "\(String(describing: week))")
  }

  @Test func aTCXActivityRecordedOnDifferentDaysIsRefused() {
    let text = Self.tcx(distance: "2000").replacingOccurrences(
      of: "<Time>2024-03-01T07:10:00Z</Time>", with: "<Time>2024-03-09T07:10:00Z</Time>")
    let error = Self.error(text, named: "days.tcx")
    #expect(
      error?.description
        == "days.tcx:11: implausible activity: points 192:10:00 apart (2024-03-01T07:00:00Z to 2024-03-09T07:10:00Z): "
        + "recorded on different days, more than 12 hours apart")
  }

  @Test(arguments: [
    ("<hr>300</hr>", "<hr> '300' is out of range (allowed 20 to 250 bpm)"),
    ("<ele>99999</ele>", "<ele> '99999' is out of range (allowed -1000 to 10000 m)"),
    ("<ele>nan</ele>", "<ele> 'nan' is not a number"),
  ])
  func pointValuesOutsideTheirRangeAreRefused(_ extra: String, _ message: String) {
    let points: [(Double, Double, Int)] = (0..<3).map { (i: Int) -> (Double, Double, Int) in
      (50 + Double(i) * 0.0005, 8, i * 10)
    }
    let error = Self.error(Self.gpx(points, extra: extra), named: "values.gpx")
    #expect(error?.description == "values.gpx:4: \(message)")
  }

  @Test func lapsAddingUpToMoreThan1000KmAreRefused() {
    // Two manual laps (no trackpoints) of 600 km in 6 days each: each value is in range, the sum is not.
    let laps = ["2024-03-01T07:00:00Z", "2024-03-07T07:00:00Z"].map { start in
      "<Lap StartTime=\"\(start)\"><TotalTimeSeconds>518400</TotalTimeSeconds>"
        + "<DistanceMeters>600000</DistanceMeters></Lap>"
    }
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
       <Activities>
        <Activity Sport="Running">
         <Id>Walk</Id>\(laps.joined())
        </Activity>
       </Activities>
      </TrainingCenterDatabase>

      """
    let error = Self.error(text, named: "laps.tcx")
    #expect(error?.description == "laps.tcx:4: implausible activity: distance 1200.0 km is more than 1000 km")
  }

  @Test func climbingMoreThan50KmIsRefused() {
    // Elevation swinging between -1000 and 10000 m every 20 s: 11 km of climbing per swing, 5 swings.
    let text = (0..<11).reduce(into: Self.gpx([])) { text, index in
      let elevation = index % 2 == 0 ? -1000 : 10000
      let point =
        "  <trkpt lat=\"\(50 + Double(index) * 0.0005)\" lon=\"8\"><ele>\(elevation)</ele>"
        + "<time>2024-03-01T07:\(String(format: "%02d:%02d", index * 20 / 60, index * 20 % 60))Z</time></trkpt>\n"
      text = text.replacingOccurrences(of: " </trkseg>", with: point + " </trkseg>")
    }
    let error = Self.error(text, named: "climb.gpx")
    #expect(error?.description == "climb.gpx:4: implausible activity: elevation gain 55000 m is more than 50000 m")
  }

  @Test func movingTimeNeverExceedsElapsedTime() throws {
    // The same 30 s stretch twice (points out of time order): 60 s of moving intervals in 30 s elapsed.
    let points: [(Double, Double, Int)] = [(50, 8, 0), (50.0005, 8, 10), (50.001, 8, 20), (50.0015, 8, 30)]
    let text = Self.gpx(points + points.map { ($0.0 + 0.002, $0.1, $0.2) })
    let run = try #require(try Self.readFile(text, named: "twice.gpx").first)
    #expect(run.elapsedSeconds == 30)
    #expect(run.movingSeconds == 30)
  }

  @Test func aHeartRateOfZeroIsNoReading() throws {
    let points: [(Double, Double, Int)] = (0..<3).map { (i: Int) -> (Double, Double, Int) in
      (50 + Double(i) * 0.0005, 8, i * 10)
    }
    let run = try #require(try Self.readFile(Self.gpx(points, extra: "<hr>0</hr>"), named: "strap.gpx").first)
    #expect(run.averageHeartRate == nil)
  }

  @Test(arguments: ["1850-01-01T00:00:00Z", "2250-01-01T00:00:00Z", "9999-12-31T23:59:59Z"])
  func datesOutsideTheAcceptedYearsAreRefused(_ date: String) {
    let text = Self.gpx([(50, 8, 0)]).replacingOccurrences(of: "2024-03-01T07:00:00Z", with: date)
    let error = Self.error(text, named: "dates.gpx")
    #expect(
      error?.description
        == "dates.gpx:4: <time> '\(date)' is out of range (allowed 1900-01-01T00:00:00Z to 2200-01-01T00:00:00Z)")
  }

  @Test func thePointLimitIsReachedWhileStreaming() throws {
    var limits = ActivityLimits.standard
    limits.maximumPoints = 5
    let points: [(Double, Double, Int)] = (0..<6).map { (i: Int) -> (Double, Double, Int) in
      (50 + Double(i) * 0.0005, 8, i * 10)
    }
    let text = Self.gpx(points)
    #expect(throws: Never.self) {
      _ = try readActivities(data: Data(Self.gpx(Array(points.prefix(5))).utf8), name: "five.gpx", limits: limits)
    }
    let error = #expect(throws: ActivityError.self) {
      try readActivities(data: Data(text.utf8), name: "six.gpx", limits: limits)
    }
    #expect(error?.description == "six.gpx:9: more than 5 track points (the most one file may hold)")
    // TCX trackpoints count too.
    let tcxError = #expect(throws: ActivityError.self) {
      var tight = limits
      tight.maximumPoints = 1
      return try readActivities(data: Data(Self.tcx(distance: "2000").utf8), name: "two.tcx", limits: tight)
    }
    #expect(tcxError == .tooManyPoints(file: "two.tcx", line: 11, limit: 1))
  }
}
