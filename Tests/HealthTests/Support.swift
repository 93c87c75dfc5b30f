import Foundation
import Health
import RunMateTestSupport
import RunningCore
import Testing

/// A named time zone.
func zone(_ identifier: String) throws -> TimeZone {
  try #require(TimeZone(identifier: identifier))
}

/// Imports a fixture in a time zone (Europe/Berlin unless told).
func importFixture(_ path: String, timeZone: String = "Europe/Berlin") throws -> HealthImport {
  try importHealth(at: fixtureURL(path), timeZone: zone(timeZone))
}

/// The error importing a fixture throws, or nil when it imports.
func importError(_ path: String) throws -> HealthError? {
  let url = try fixtureURL(path)
  let berlin = try zone("Europe/Berlin")
  do {
    _ = try importHealth(at: url, timeZone: berlin)
    return nil
  } catch {
    return error
  }
}

/// Daily totals from a CSV fixture written from `reference_aggregate.py` output (`#` lines are comments).
func referenceDays(_ path: String) throws -> [HealthDay] {
  let text = try String(contentsOf: fixtureURL(path), encoding: .utf8)
  let rows = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.dropFirst()
  return try rows.map { row in
    let fields = row.split(separator: ",").map(String.init)
    try #require(fields.count == 4)
    return HealthDay(
      date: try #require(CivilDate(iso: fields[0])), steps: try #require(Double(fields[1])),
      distanceKm: try #require(Double(fields[2])),
      activeEnergyKcal: try #require(Double(fields[3])))
  }
}

/// Expects the same days, each total within `tolerance`.
func expectSameDays(
  _ actual: [HealthDay], _ expected: [HealthDay], tolerance: Double = 0.01,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(actual.map(\.date) == expected.map(\.date), sourceLocation: sourceLocation)
  for (day, reference) in zip(actual, expected) {
    #expect(abs(day.steps - reference.steps) <= tolerance, "\(day.date) steps", sourceLocation: sourceLocation)
    #expect(
      abs(day.distanceKm - reference.distanceKm) <= tolerance, "\(day.date) distance", sourceLocation: sourceLocation)
    #expect(
      abs(day.activeEnergyKcal - reference.activeEnergyKcal) <= tolerance, "\(day.date) active energy",
      sourceLocation: sourceLocation)
  }
}

/// The day `iso` (`YYYY-MM-DD`), for expectations; a wrong literal stops the test at its line.
func day(_ iso: String, sourceLocation: SourceLocation = #_sourceLocation) -> CivilDate {
  guard let date = CivilDate(iso: iso) else {
    Issue.record("not a date: \(iso)", sourceLocation: sourceLocation)
    return CivilDate(dayNumber: 0)
  }
  return date
}
