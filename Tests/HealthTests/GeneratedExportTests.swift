import Foundation
import Health
import RunMateTestSupport
import Testing

/// `Fixtures/generated/imperial.xml`: a 4-day export from `gen_export.py --units imperial --legacy-workout-attrs
/// --strava-dup-rate 1.0 --run-rate 3` (distances in mi, height in ft, body mass in lb, every Watch run also
/// written by Strava, one day's run from Strava alone), against reference_aggregate.py and the generator's
/// truth file.
struct GeneratedExportTests {
  @Test func imperialUnitsGiveTheReferenceTotals() throws {
    let health = try importFixture("generated/imperial.xml")
    expectSameDays(health.days, try referenceDays("generated/imperial-reference-days.csv"))
    #expect(health.recordCount == 563)
  }

  @Test func bodyMeasuresInFeetAndPoundsBecomeCentimetresAndKilograms() throws {
    let health = try importFixture("generated/imperial.xml")
    // Truth: height 178.0 and 178.5 cm (written in ft with 5 decimals), body mass 78.06, 77.86, 77.88 and
    // 77.87 kg (written in lb with 1 decimal, so within 0.05 lb ≈ 0.023 kg).
    let heights = health.measures.filter { $0.kind == .heightCm }.map(\.value)
    #expect(heights.count == 2)
    for (height, truth) in zip(heights, [178.0, 178.5]) { #expect(isClose(height, truth, absolute: 0.001)) }
    let masses = health.measures.filter { $0.kind == .bodyMassKg }.map(\.value)
    #expect(masses.count == 4)
    for (mass, truth) in zip(masses, [78.06, 77.86, 77.88, 77.87]) { #expect(isClose(mass, truth, absolute: 0.03)) }
  }

  @Test func stravaCopiesOfWatchRunsAreDropped() throws {
    let health = try importFixture("generated/imperial.xml")
    // Truth: 7 workouts, 3 of them "duplicate_of_watch"; the 2021-01-03 run exists only as Strava's.
    let truth: [(source: String, km: Double, kcal: Double, seconds: Double)] = [
      ("Alex’s Apple Watch", 9.8048, 461.47, 2792.1), ("Alex’s Apple Watch", 8.2703, 431.12, 2608.5),
      ("Strava", 6.3334, 305.64, 2073.5), ("Alex’s Apple Watch", 8.0989, 427.06, 2583.9),
    ]
    try #require(health.workouts.count == truth.count)
    for (workout, expected) in zip(health.workouts, truth) {
      #expect(workout.isRunning)
      #expect(workout.sourceName == expected.source)
      #expect(isClose(workout.distanceKm, expected.km, absolute: 0.0001))
      #expect(isClose(workout.energyKcal, expected.kcal, absolute: 0.01))
      #expect(isClose(workout.durationSeconds, expected.seconds, absolute: 0.1))
    }
  }
}
