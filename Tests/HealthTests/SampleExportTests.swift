import Foundation
import Health
import RunMateTestSupport
import Testing

/// The shared 14-day sample export (`shared/data/apple-health-sample/export.xml`, copied to
/// `Fixtures/sample/`), against the independent reference aggregator's numbers and the generator's truth.
struct SampleExportTests {
  @Test func dailyTotalsMatchTheReferenceAggregator() throws {
    let health = try importFixture("sample/export.xml")
    // Fixtures/sample/reference-days.csv: reference_aggregate.py --json, unrounded (see its header).
    expectSameDays(health.days, try referenceDays("sample/reference-days.csv"))
    // reference_aggregate.py: "records 3811 (in correlations, ignored: 2)".
    #expect(health.recordCount == 3811)
    #expect(health.bytesRead == 1_637_279)
  }

  @Test func bodyMeasuresAreTheGeneratorsTruth() throws {
    let health = try importFixture("sample/export.xml")
    // export.xml.truth.json "body_mass" (kg) and "height" (cm), in date order.
    let masses = health.measures.filter { $0.kind == .bodyMassKg }.map(\.value)
    #expect(masses == [77.85, 77.72, 77.85, 77.99, 78.18, 78.14, 78.09, 78.04, 78.24])
    #expect(health.measures.filter { $0.kind == .heightCm }.map(\.value) == [178.0, 178.5])
    // 14 RestingHeartRate records (grep -c RestingHeartRate export.xml → 14), one a day.
    #expect(health.measures.filter { $0.kind == .restingHeartRate }.count == 14)
    // The first body mass: startDate="2021-01-01 07:20:32 +0100".
    let first = try #require(health.measures.first { $0.kind == .bodyMassKg })
    #expect(first.date == (try utc(2021, 1, 1, 6, 20, 32)))
  }

  @Test func workoutsAreTheGeneratorsTruth() throws {
    let health = try importFixture("sample/export.xml")
    // export.xml.truth.json "workouts": 8 runs and one strength session, all from the Watch.
    #expect(health.workouts.count == 9)
    let runs = health.workouts.filter(\.isRunning)
    #expect(runs.count == 8)
    let truthDistances = [5.6403, 3.7258, 6.0035, 3.3866, 11.9761, 8.0005, 5.4418, 6.9527]
    let truthKilocalories = [327.91, 187.38, 290.03, 182.8, 589.15, 446.33, 299.22, 409.75]
    let truthMovingSeconds = [1984.0, 1133.7, 1754.8, 1106.0, 3564.6, 2700.5, 1810.4, 2479.2]
    for (index, run) in runs.enumerated() {
      #expect(isClose(run.distanceKm, truthDistances[index], absolute: 0.0001))
      #expect(isClose(run.energyKcal, truthKilocalories[index], absolute: 0.01))
      #expect(isClose(run.durationSeconds, truthMovingSeconds[index], absolute: 0.1))
      #expect(run.sourceName == "Alex’s Apple Watch")
    }
    // The first run: 2021-01-02 07:11:59 +0100 to 07:46:09 +0100, elapsed 2049.9 s in the truth (whole seconds here).
    #expect(runs.first?.start == (try utc(2021, 1, 2, 6, 11, 59)))
    #expect(runs.first?.end == (try utc(2021, 1, 2, 6, 46, 9)))
    let strength = try #require(health.workouts.last)
    #expect(strength.activityType == "TraditionalStrengthTraining")
    #expect(strength.distanceKm == nil)
    #expect(isClose(strength.energyKcal, 107.33, absolute: 0.01))
  }

  @Test func progressReportsBytesUpToTheFileSize() throws {
    let url = try fixtureURL("sample/export.xml")
    let reports = Reports()
    _ = try importHealth(at: url, timeZone: zone("Europe/Berlin")) { reports.add($0) }
    let values = reports.values
    #expect(!values.isEmpty)
    #expect(values == values.sorted())
    #expect(values.last == 1_637_279)
  }
}

/// Progress values collected from a `@Sendable` callback.
final class Reports: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [Int64] = []

  func add(_ value: Int64) { lock.withLock { stored.append(value) } }

  var values: [Int64] { lock.withLock { stored } }
}
