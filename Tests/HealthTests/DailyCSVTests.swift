import Foundation
import Health
import RunMateTestSupport
import RunningCore
import Testing

/// CSV files of daily totals (`date,steps,distance_km,active_kcal`).
struct DailyCSVTests {
  @Test func aSmallFileWithBOMCRLFQuotesAndBlanks() throws {
    // csv/daily.csv: a byte order mark, CRLF line ends, an empty distance (0), a blank line, quoted fields
    // and spaces, rows out of order.
    let health = try importFixture("csv/daily.csv")
    #expect(
      health.days == [
        HealthDay(date: day("2024-05-01"), steps: 8123, distanceKm: 6.2, activeEnergyKcal: 410.5),
        HealthDay(date: day("2024-05-02"), steps: 9500, distanceKm: 7.25, activeEnergyKcal: 388),
        HealthDay(date: day("2024-05-03"), steps: 12000, distanceKm: 0, activeEnergyKcal: 512),
      ])
    #expect(health.recordCount == 3)
    #expect(health.measures.isEmpty)
    #expect(health.workouts.isEmpty)
  }

  @Test func refusals() throws {
    #expect(
      try importError("csv/semicolons.csv")?.description
        == "semicolons.csv: unsupported CSV header \"day;steps\" (expected date,steps,distance_km,active_kcal)")
    #expect(
      try importError("csv/negative.csv")?.description == "negative.csv:3: steps '-5' is not a non-negative number")
    #expect(
      try importError("csv/duplicate.csv")?.description
        == "duplicate.csv:4: 2024-05-01 appears twice (first on line 2)")
    #expect(
      try importError("csv/bad-date.csv")?.description == "bad-date.csv:2: '2024-02-30' is not a date (YYYY-MM-DD)")
  }
}
