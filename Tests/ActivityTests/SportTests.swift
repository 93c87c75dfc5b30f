import Activity
import Testing

/// The declared sport decides what becomes a run: TCX `Sport`, GPX `trk/type` words of apps and Garmin, Strava's
/// numbers.
@Suite struct SportTests {
  @Test(arguments: [
    "Running", "running", "run", "trail_running", "Trail Running", "treadmill_running", "track-running", "9",
    "VirtualRun", "street_running",
  ])
  func runsAreRuns(_ declared: String) {
    #expect(DeclaredSport(declared) == .run, "\(declared)")
  }

  @Test(arguments: [
    ("Biking", "cycling"), ("road_biking", "cycling"), ("1", "cycling"), ("16", "swimming"), ("10", "walking"),
    ("Other", "other"), ("open_water_swimming", "swimming"), ("cross_country_skiing", "skiing"),
    ("stand_up_paddleboarding", "paddling"), ("hiking", "hiking"), ("99", "Strava type 99"),
    ("VirtualRide", "cycling"),
  ])
  func otherSportsAreNamed(_ declared: String, _ name: String) {
    #expect(DeclaredSport(declared) == .other(name), "\(declared)")
    #expect(!DeclaredSport(declared).isRun)
  }

  @Test func noSportNamedIsTakenAsARun() {
    #expect(DeclaredSport(nil) == .undeclared)
    #expect(DeclaredSport("  ") == .undeclared)
    #expect(DeclaredSport(nil).isRun)
  }
}
