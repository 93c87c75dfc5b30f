import Foundation
import Health
import RunMateTestSupport
import RunningCore
import Testing

/// `Fixtures/handwritten/export.xml`: an iPhone and an Apple Watch counting the same steps, samples crossing
/// midnight and the start of summer time (Europe/Berlin, 2021-03-28 02:00 CET → 03:00 CEST), a manual entry,
/// exact duplicates, a Record inside a Correlation, unusable records, imperial and kJ units, and a run written
/// twice (Watch and Strava). Every expected number below is worked out by hand from the file; running
/// `reference_aggregate.py` on it (with the quoted "]>" in its DTD removed, which the reference's regex
/// cannot skip) prints the same days: 200 / 1400 / 2507 steps, 4.909 km, 125.0 kcal.
///
/// Source ranks: "Manual Log" (its first sample has HKWasUserEntered = 1) > the Watch (device
/// name:Apple Watch) > the iPhone. `&#8217;` and `&#x2019;` in names decode to ’, so "Alex&#8217;s Apple
/// Watch" and "Alex’s Apple Watch" are one source.
struct HandwrittenExportTests {
  /// The days in Europe/Berlin, worked out by hand:
  ///
  /// 2021-03-27 — Watch 23:50–00:10 (200 steps, 20 min): its 10 minutes before midnight → 100. iPhone
  ///   23:40–00:20 (400, 40 min): 20 minutes before midnight → 200, half of that under the Watch → 100.
  ///   Total 200.
  /// 2021-03-28 — Watch: 00:00–00:10 → 100; 01:30 +0100 to 03:30 +0200 is 60 real minutes (the clock jumps
  ///   from 02:00 to 03:00) → 600, written twice (exact duplicate) → counted once. iPhone: 00:00–00:20 → 200,
  ///   10 minutes under the Watch → 100; 01:00 +0100 to 04:00 +0200 is 120 real minutes (1200), 60 of them
  ///   under the Watch → 600. The 5000 steps inside <Correlation> are ignored. Total 700 + 100 + 600 = 1400.
  /// 2021-03-29 — Manual Log 12:00–12:30: 1000. Watch 12:00–13:00 (3000), 30 minutes under the manual entry
  ///   → 1500. iPhone 12:10–12:20 (500) covered → 0; an instant at 18:00 (7) uncovered → 7; an instant at
  ///   12:40 (9) covered → 0; a NaN value and an end before its start are skipped. Total 2507.
  ///   Distance: Watch 08:30–09:00 2.5 km, 10:00–10:10 800 m = 0.8 km; iPhone 08:00–09:00 2 mi = 3.218688 km,
  ///   half under the Watch → 1.609344. Total 4.909344 km.
  ///   Energy: Watch 09:00–09:10 418.4 kJ × 0.239005736 = 99.99999994 kcal; iPhone 09:00–09:20 50 Cal, half
  ///   under the Watch → 25; a record in "furlongs" is skipped. Total 124.99999994 kcal.
  static let berlinDays = [
    HealthDay(date: day("2021-03-27"), steps: 200, distanceKm: 0, activeEnergyKcal: 0),
    HealthDay(date: day("2021-03-28"), steps: 1400, distanceKm: 0, activeEnergyKcal: 0),
    HealthDay(date: day("2021-03-29"), steps: 2507, distanceKm: 4.909344, activeEnergyKcal: 125),
  ]

  @Test func dailyTotalsDeduplicateSourcesAcrossMidnightAndSummerTime() throws {
    let health = try importFixture("handwritten/export.xml")
    expectSameDays(health.days, Self.berlinDays, tolerance: 1e-6)
    // 23 top-level <Record>s (the two inside <Correlation> are not counted).
    #expect(health.recordCount == 23)
  }

  @Test func theSameExportZipped() throws {
    // Fixtures/handwritten/export.zip: apple_health_export/export.xml (deflated) + export_cda.xml, made once
    // with Python's zipfile.
    let health = try importFixture("handwritten/export.zip")
    expectSameDays(health.days, Self.berlinDays, tolerance: 1e-6)
    #expect(health == (try importFixture("handwritten/export.xml")))
  }

  @Test func aLocalizedFileNameInsideTheZipIsFoundByItsContent() throws {
    // Fixtures/handwritten/localized.zip: export_cda.xml first, a GPX route, then apple_health_export/eksport.xml
    // (stored, not deflated).
    let health = try importFixture("handwritten/localized.zip")
    expectSameDays(health.days, Self.berlinDays, tolerance: 1e-6)
    #expect(health.workouts.count == 2)
  }

  @Test func anUnzippedExportFolder() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("health-folder-\(UUID())")
    let inner = directory.appendingPathComponent("apple_health_export")
    try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.copyItem(
      at: try fixtureURL("handwritten/export.xml"), to: inner.appendingPathComponent("exportar.xml"))
    try Data("<ClinicalDocument/>".utf8).write(to: inner.appendingPathComponent("export_cda.xml"))
    let health = try importHealth(at: directory, timeZone: zone("Europe/Berlin"))
    expectSameDays(health.days, Self.berlinDays, tolerance: 1e-6)
  }

  @Test func daysFollowTheRequestedTimeZone() throws {
    // In UTC: the Watch's 22:50–23:10 and the iPhone's 22:40–23:20 (UTC) are both on the 27th: 200 + 400 × 20/40
    // = 400. The 28th keeps the 01:30/01:00 samples (00:30–01:30 and 00:00–02:00 UTC): 600 + 600 = 1200.
    // The 29th is unchanged (10:00–11:00 UTC and an instant at 16:00 UTC).
    let health = try importFixture("handwritten/export.xml", timeZone: "UTC")
    expectSameDays(
      health.days,
      [
        HealthDay(date: day("2021-03-27"), steps: 400, distanceKm: 0, activeEnergyKcal: 0),
        HealthDay(date: day("2021-03-28"), steps: 1200, distanceKm: 0, activeEnergyKcal: 0),
        HealthDay(date: day("2021-03-29"), steps: 2507, distanceKm: 4.909344, activeEnergyKcal: 125),
      ], tolerance: 1e-6)
  }

  @Test func anExplicitSourceOrderChangesWhoCounts() throws {
    // iPhone first, then the Watch, then Manual Log (explicit entries outrank the built-in tiers).
    // 27th: iPhone 200; Watch's 100 is covered → 200. 28th: iPhone 200 + 1200; the Watch's samples are
    // covered → 1400. 29th: iPhone 500 + 7 + 9 (nothing above it) = 516; Watch 3000 with 10 minutes
    // covered → 2500; Manual Log covered → 0: 3016. Distance: iPhone 3.218688 + Watch's 10:00 0.8 = 4.018688.
    // Energy: iPhone 50; the Watch's 09:00–09:10 is covered → 50.
    // (reference_aggregate.py --priority "Alex’s iPhone,Alex’s Apple Watch" prints 200 / 1400 / 3016, 4.019, 50.0.)
    let health = try importHealth(
      at: fixtureURL("handwritten/export.xml"), timeZone: zone("Europe/Berlin"),
      sourcePriority: ["Alex’s iPhone", "Alex’s Apple Watch"])
    expectSameDays(
      health.days,
      [
        HealthDay(date: day("2021-03-27"), steps: 200, distanceKm: 0, activeEnergyKcal: 0),
        HealthDay(date: day("2021-03-28"), steps: 1400, distanceKm: 0, activeEnergyKcal: 0),
        HealthDay(date: day("2021-03-29"), steps: 3016, distanceKm: 4.018688, activeEnergyKcal: 50),
      ], tolerance: 1e-6)
  }

  @Test func bodyMeasuresAreNormalised() throws {
    let health = try importFixture("handwritten/export.xml")
    // Height 5.9 ft × 30.48 = 179.832 cm; body mass 170 lb × 0.45359237 = 77.1107029 kg (written twice,
    // kept once; the 99 kg inside <Correlation> is ignored); resting heart rate 52 count/min.
    #expect(health.measures.map(\.kind) == [.heightCm, .bodyMassKg, .restingHeartRate])
    #expect(isClose(health.measures[0].value, 179.832, absolute: 1e-9))
    #expect(isClose(health.measures[1].value, 77.1107029, absolute: 1e-9))
    #expect(health.measures[2].value == 52)
    #expect(health.measures[0].date == (try utc(2021, 3, 27, 8)))
    #expect(health.measures[1].date == (try utc(2021, 3, 28, 5)))
    #expect(health.measures[2].date == (try utc(2021, 3, 28, 22)))
  }

  @Test func workoutsKeepTheRicherOfTwoCopies() throws {
    let health = try importFixture("handwritten/export.xml")
    // The walk: legacy attributes, 2 mi = 3.218688 km, 418.4 kJ = 99.99999994 kcal, duration 1800 s.
    // The run: the Watch's (statistics, route) is kept over Strava's copy 10 s later (overlap 39:50 of 39:55).
    try #require(health.workouts.count == 2)
    let walk = health.workouts[0]
    #expect(walk.activityType == "Walking")
    #expect(!walk.isRunning)
    #expect(isClose(walk.distanceKm, 3.218688))
    #expect(isClose(walk.energyKcal, 99.99999994, absolute: 1e-6))
    #expect(walk.durationSeconds == 1800)
    #expect(walk.start == (try utc(2021, 3, 28, 13)))
    let run = health.workouts[1]
    #expect(run.isRunning)
    #expect(run.sourceName == "Alex’s Apple Watch")
    #expect(run.distanceKm == 6.5)
    #expect(run.energyKcal == 420)
    #expect(run.durationSeconds == 35 * 60)
    #expect(run.start == (try utc(2021, 3, 29, 5)))
    #expect(run.end == (try utc(2021, 3, 29, 5, 40)))
  }
}
