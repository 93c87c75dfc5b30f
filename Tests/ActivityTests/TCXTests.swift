import Activity
import Foundation
import RunMateTestSupport
import Testing

/// `tcx/two-activities.tcx` and `tcx/treadmill.tcx`, written by hand; every expected value is worked out
/// in the comments from the numbers in the files.
struct TCXTests {
  @Test func oneSummaryPerActivity() throws {
    let activities = try readFixture("tcx/two-activities.tcx")

    #expect(activities.count == 2)
    #expect(activities.map(\.format) == [.tcx, .tcx])
    #expect(activities.map(\.sport) == ["Running", "Biking"])
  }

  /// The run: 11 trackpoints, cumulative DistanceMeters 0, 31, 62, 93, 124, 124, 155, 340, 372, 404, 436 at
  /// 07:00:00, :10, :20, :30, :40, :50, 07:01:00, 07:02:00, :10, :20, :30.
  @Test func theRunWorkedOutByHand() throws {
    let run = try #require(try readFixture("tcx/two-activities.tcx").first)

    // Distance: the device's, the last trackpoint's cumulative DistanceMeters = 436.0 m. (The laps say
    // 124.0 + 312.5 = 436.5 m and the positions give a haversine of 435.996 m: neither is used.)
    #expect(run.distanceMeters == 436.0)
    #expect(run.distanceSource == .device)
    // Elapsed: 07:00:00 → 07:02:30 = 150 s.
    #expect(run.start == (try utc(2024, 3, 10, 7, 0, 0)))
    #expect(run.end == (try utc(2024, 3, 10, 7, 2, 30)))
    #expect(run.elapsedSeconds == 150)
    // Moving: ten intervals. 07:00:40→:50 covers 0 m (a stop), 07:01:00→07:02:00 lasts 60 s (> 30 s, a
    // pause); the other eight cover 31 or 32 m in 10 s (≥ 0.894 m/s): 8 × 10 s = 80 s.
    #expect(run.movingSeconds == 80)
    // Elevation 10.0, 10.5, 11.0, 12.0, 14.0, 13.0, 15.0, 16.5, 16.0, 17.0, 19.5 with a 3 m hysteresis:
    // low 10 → 14.0 is +4 (low 14) → 13.0 new low → 16.5 is +3.5 (low 16.5) → 16.0 new low → 19.5 is +3.5.
    // Gain 4 + 3.5 + 3.5 = 11.0 m. (gpx_stats.py says 10.5 m: it never looks at the first point's altitude.)
    #expect(run.elevationGainMeters == 11.0)
    // Heart rate, each sample weighted by the interval to the next point (≤ 30 s; the 60 s one is left
    // out): (120 + 125 + 130 + 134 + 138 + 140 + 145 + 150 + 152) × 10 / 90 = 12340 / 90 = 137.11 bpm
    // (gpx_stats.py: 137.1). The maximum is the last sample, 155 (the lap's MaximumHeartRateBpm, 140, and
    // AverageHeartRateBpm, 131, are not samples).
    #expect(isClose(run.averageHeartRate, 12_340.0 / 90.0, absolute: 1e-9))
    #expect(run.maxHeartRate == 155)
    #expect(run.pointCount == 11)
    // Notes, not the Id (a timestamp), name the run.
    #expect(run.name == "Easy run by the canal")
  }

  /// The ride: times written as 19:00:00+01:00 (18:00:00Z), two laps of DistanceMeters 1000 and 1500,
  /// trackpoints with positions only, every 20 s, 0.001° of latitude apart along 4.9°E.
  @Test func theRideUsesTheLapDistancesAndOffsets() throws {
    let ride = try #require(try readFixture("tcx/two-activities.tcx").last)

    // No trackpoint has DistanceMeters and the laps (19:00:00 + 40 s, 19:01:00 + 40 s) cover the track: the laps'
    // sum, 1000 + 1500 = 2500 m, and the laps' times with it.
    #expect(ride.distanceMeters == 2500)
    #expect(ride.distanceSource == .laps)
    #expect(ride.start == (try utc(2024, 3, 12, 18, 0, 0)))
    #expect(ride.end == (try utc(2024, 3, 12, 18, 1, 40)))
    #expect(ride.elapsedSeconds == 100)
    // Moving time from the same source as the distance: the laps' TotalTimeSeconds, 40 + 40 = 80 s (the track
    // alone would say 100 s).
    #expect(ride.movingSeconds == 80)
    #expect(ride.elevationGainMeters == nil)
    #expect(ride.averageHeartRate == nil)
    #expect(ride.maxHeartRate == nil)
    #expect(ride.pointCount == 6)
    // The Id is only a timestamp and there are no notes: no name.
    #expect(ride.name == nil)
  }

  @Test func aManualLapWithoutTrackpointsStillCounts() throws {
    let activities = try readFixture("tcx/treadmill.tcx")
    try #require(activities.count == 2)
    let manual = activities[0]

    // Lap StartTime 08:00:00Z, TotalTimeSeconds 1800, DistanceMeters 5000, no Track.
    #expect(manual.start == (try utc(2024, 5, 5, 8, 0, 0)))
    #expect(manual.end == (try utc(2024, 5, 5, 8, 30, 0)))
    #expect(manual.distanceMeters == 5000)
    #expect(manual.elapsedSeconds == 1800)
    #expect(manual.movingSeconds == 1800)
    #expect(manual.pointCount == 0)
    // An Id that is not a timestamp is a name.
    #expect(manual.name == "Treadmill 5k")
  }

  @Test func trackpointsWithoutPositionsUseTheDeviceDistance() throws {
    let treadmill = try #require(try readFixture("tcx/treadmill.tcx").last)

    // DistanceMeters 0, 28, 56, 84 every 10 s: 2.8 m/s, all moving; heart rate 130, 132, 134 weighted by
    // 10 s each (the last sample ends the track): 396 / 3 = 132; maximum 136.
    #expect(treadmill.distanceMeters == 84)
    #expect(treadmill.movingSeconds == 30)
    #expect(treadmill.elapsedSeconds == 30)
    #expect(treadmill.averageHeartRate == 132)
    #expect(treadmill.maxHeartRate == 136)
    #expect(treadmill.pointCount == 4)
  }
}
