import Foundation
import RunMateTestSupport
import Testing

/// Race day on the runner's week (issue 22, case 7), through the real binary.
@Suite(.tags(.endToEnd)) struct RaceDayCommandTests {
  @Test func issue22Case7ThursdayStartRacesOnSundayWithSundayLongRuns() throws {
    let result = try runmate([
      "plan", "--distance", "10k", "--level", "beginner", "--weeks", "8", "--start", "2026-11-26", "--now",
      "2026-11-21",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first?.contains("2026-11-26 → race Sun 17 Jan 2027 · id") == true)
    #expect(!result.stdout.contains("long runs on"))
    // Every week's long run, and the race, on a Sunday.
    let rows = lines.filter { $0.range(of: #"^ ?\d+  "#, options: .regularExpression) != nil }
    #expect(rows.count == 8)
    #expect(rows.dropLast().allSatisfy { $0.contains("Sun long") })
    #expect(rows.last?.contains("Sun RACE 10") == true)
  }

  @Test func weeksAloneRaceOnTheLongRunDayGiven() throws {
    let result = try runmate([
      "plan", "--distance", "10k", "--level", "beginner", "--weeks", "8", "--start", "2026-11-26", "--now",
      "2026-11-21", "--long-run-day", "sat", "--format", "json",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let plan = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    let goal = try #require(plan?["goal"] as? [String: Any])
    #expect(goal["race_date"] as? String == "2027-01-16")
    #expect(goal["weeks"] as? Int == 8)
  }

  @Test func raceDateOffTheLongRunDayIsNamedInTheHeader() throws {
    let result = try runmate([
      "plan", "--distance", "10k", "--level", "beginner", "--race-date", "2027-01-20", "--long-run-day", "sun",
      "--now", "2026-11-21",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first?.contains("→ race Wed 20 Jan 2027 (long runs on Sun) · id") == true)
    #expect(
      lines.contains(
        "warning: race on Wednesday 20 Jan 2027: your long-run day is Sunday; the long runs stay on Sunday"))
  }
}
