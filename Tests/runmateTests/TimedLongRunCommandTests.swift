import Foundation
import RunMateTestSupport
import Testing

/// A long run set by time states the same thing in the table, the JSON and the calendar: the real binary, an
/// 18-week beginner marathon from 25 km a week for a runner of a 38-minute 5K (9:19/km easy), whose peak long runs
/// the run/walk levels' 240-minute cap holds.
@Suite(.tags(.endToEnd)) struct TimedLongRunCommandTests {
  static let goal = [
    "--distance", "marathon", "--level", "beginner", "--weeks", "18", "--current-weekly-km", "25",
    "--recent-race", "5k=38:00", "--now", "2026-11-21",
  ]

  /// The long runs the JSON sets by time, as (week, minutes, run, walk, km).
  func timedLongRuns() throws -> [(week: Int, minutes: Int, run: Int?, walk: Int?, km: Double)] {
    let result = try runmate(["plan"] + Self.goal + ["--format", "json"])
    #expect(result.status == 0, "\(result.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let weeks = try #require(json["weeks"] as? [[String: Any]])
    var found: [(Int, Int, Int?, Int?, Double)] = []
    for week in weeks {
      for workout in week["workouts"] as? [[String: Any]] ?? [] {
        guard let target = workout["time_target"] as? [String: Any] else { continue }
        #expect(workout["kind"] as? String == "long")
        found.append(
          (
            week["number"] as? Int ?? -1, target["minutes"] as? Int ?? -1, target["run_min"] as? Int,
            target["walk_min"] as? Int, workout["distance_km"] as? Double ?? -1
          ))
      }
    }
    return found
  }

  @Test func tableJSONAndCalendarAgree() throws {
    let timed = try timedLongRuns()
    #expect(timed.map(\.week) == [13, 15])
    for long in timed {
      #expect(long.minutes == 240 && long.run == 2 && long.walk == 1 && long.km == 25.7, "\(long)")
    }

    // The table: the long-run cell of exactly those weeks, and the legend.
    let table = try runmate(["plan"] + Self.goal)
    #expect(table.status == 0)
    let rows = table.stdout.split(separator: "\n").filter { $0.first?.isNumber == true || $0.hasPrefix(" ") }
    let cellWeeks = rows.filter { $0.contains("long 4:00 r/w 2/1 ≈25.7") }.compactMap {
      Int($0.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber })
    }
    #expect(cellWeeks == timed.map(\.week), "\(table.stdout)")
    #expect(table.stdout.contains("weeks 13 and 15: the long run is set by time, 4:00 as run/walk"))
    #expect(table.stdout.contains("as run/walk: run 2 min, walk 1 min, repeated."))

    // The calendar: the long run's DESCRIPTION (unfolded, unescaped) of exactly those weeks.
    let export = try runmate(["export"] + Self.goal + ["--tz", "Europe/Berlin", "--out", "-"])
    #expect(export.status == 0, "\(export.stderr)")
    let text = export.stdout.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\\,", with: ",")
      .replacingOccurrences(of: "\\;", with: ";").replacingOccurrences(of: "\\n", with: "\n")
    var calendarWeeks: [Int] = []
    for event in text.components(separatedBy: "BEGIN:VEVENT").dropFirst() {
      guard let line = event.components(separatedBy: "\r\n").first(where: { $0.hasPrefix("DESCRIPTION:") }),
        line.contains("4:00 run/walk: run 2 min easy (")
      else { continue }
      #expect(line.contains("walk 1 min, 80 times; about 25.7 km"), "\(line)")
      if let range = line.range(of: #"Week (\d+) of"#, options: .regularExpression) {
        calendarWeeks.append(Int(line[range].split(separator: " ")[1]) ?? -1)
      }
    }
    #expect(calendarWeeks == timed.map(\.week), "\(calendarWeeks)")

    // The calendar's title says the time too, as the table does: `W13 Long run · 4:00 r/w 2/1 (about 25.7 km)`,
    // in exactly those weeks; every other long run's title is its distance.
    let summaries = text.components(separatedBy: "\r\n").filter { $0.hasPrefix("SUMMARY:W") && $0.contains("Long run") }
    let timedTitles = summaries.filter { $0.hasSuffix(" Long run · 4:00 r/w 2/1 (about 25.7 km)") }
    #expect(timedTitles.map { Int($0.dropFirst("SUMMARY:W".count).prefix { $0.isNumber }) ?? -1 } == timed.map(\.week))
    let distanceTitles = summaries.filter {
      $0.range(of: #" Long run · \d+(\.\d)? km$"#, options: .regularExpression) != nil
    }
    #expect(distanceTitles.count + timedTitles.count == summaries.count && distanceTitles.count >= 10, "\(summaries)")
  }
}
