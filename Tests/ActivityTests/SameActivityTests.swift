import Activity
import Foundation
import RunMateTestSupport
import Testing

/// `isSameActivity`: starts within 2 minutes and distances within 3 %.
struct SameActivityTests {
  @Test func aGPXAndItsTCXTwin() throws {
    let tcx = try #require(try readFixture("tcx/two-activities.tcx").first)
    let gpx = try readSingle("gpx/twin-of-tcx-run.gpx")

    // Starts 2 s apart; 436.0 m (device) against 435.996 m (haversine).
    #expect(isSameActivity(tcx, gpx))
    #expect(isSameActivity(gpx, tcx))
  }

  @Test func theSameFileImportedAgain() throws {
    let once = try readSingle("gpx/route_2021-01-03_5.53pm.gpx")
    let again = try readSingle("gpx/route_2021-01-03_5.53pm.gpx")

    #expect(once == again)
    #expect(isSameActivity(once, again))
  }

  @Test func anotherDayIsAnotherActivity() throws {
    let activities = try readFixture("tcx/two-activities.tcx")
    let gpx = try readSingle("gpx/twin-of-tcx-run.gpx")
    try #require(activities.count == 2)

    #expect(!isSameActivity(activities[1], gpx))
    var nextDay = gpx
    nextDay.start += 86_400
    nextDay.end += 86_400
    #expect(!isSameActivity(nextDay, gpx))
  }

  @Test func theBoundaries() throws {
    let base = try readSingle("gpx/twin-of-tcx-run.gpx")
    func shifted(seconds: Double, distanceFactor: Double) -> ActivitySummary {
      var other = base
      other.start += seconds
      other.distanceMeters *= distanceFactor
      return other
    }

    #expect(isSameActivity(base, shifted(seconds: 120, distanceFactor: 1)))
    #expect(!isSameActivity(base, shifted(seconds: 121, distanceFactor: 1)))
    #expect(isSameActivity(base, shifted(seconds: -119, distanceFactor: 1.03)))
    #expect(!isSameActivity(base, shifted(seconds: 0, distanceFactor: 1.031)))
    #expect(!isSameActivity(base, shifted(seconds: 0, distanceFactor: 0.96)))
  }
}
