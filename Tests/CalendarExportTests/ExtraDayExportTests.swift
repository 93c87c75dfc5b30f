import CalendarExport
import Foundation
import ICalendar
import PlanEngine
import RunMateTestSupport
import RunningCore
import Scheduling
import Testing

/// Cross-training and strength days in the calendar: parsed back through real libical, one event each, in minutes,
/// with UIDs that do not move when the calendar is exported again.
@Suite struct ExtraDayExportTests {
  static let now = Date(timeIntervalSince1970: 1_795_219_200)  // 2026-11-21T00:00:00Z

  func plan(cross: Int, strength: Int, runs: Int = 4) throws -> Plan {
    let first = try #require(CivilDate(iso: "2027-01-25"))
    var goal = Goal(
      distance: .half, level: .intermediate,
      timeline: Timeline(start: first, raceDate: first.adding(days: 7 * 12 - 1), weeks: 12), runsPerWeek: runs)
    goal.crossTrainingPerWeek = cross
    goal.strengthPerWeek = strength
    return try makePlan(goal: goal, rules: repositoryRules)
  }

  func export(_ schedule: Schedule, previous: VCalendar? = nil) throws -> String {
    let options = ExportOptions(
      reminders: ExportOptions.defaultReminders, identity: ExportOptions.identity(of: schedule.plan),
      calendarName: "Test", previous: previous)
    return try makeCalendar(for: schedule, options: options, now: Self.now).calendar.serialized()
  }

  @Test func everyExtraDayIsAnEventInMinutes() throws {
    let plan = try plan(cross: 1, strength: 1)
    let preferences = SchedulingPreferences(
      defaultTime: LocalTime(clampingHour: 6, minute: 30), timeZoneID: "Europe/Berlin")
    let schedule = try makeSchedule(plan, preferences: preferences)
    let text = try export(schedule)
    let parsed = try VCalendar.parse(text)
    #expect(parsed.events.count == plan.workouts.count, "nothing dropped: extras take free days")
    #expect(Set(parsed.events.map(\.uid)).count == parsed.events.count)
    let strength = parsed.events.filter { $0.categories == ["Training", "Strength"] }
    let cross = parsed.events.filter { $0.categories == ["Training", "Cross-training"] }
    #expect(strength.count == plan.workouts.filter { $0.kind == .strength }.count && strength.count == 11)
    #expect(cross.count == plan.workouts.filter { $0.kind == .crossTraining }.count && cross.count == 11)
    for event in strength + cross {
      #expect(event.summary.hasSuffix(" min") && !event.summary.contains("km"), "\(event.summary)")
      #expect(event.description?.contains("Not counted in the running volume") == true)
      // A timed event lasts the session's minutes (a DURATION: no local DTEND a clock change could misread).
      if case .zoned = event.start, let seconds = event.durationSeconds, event.end == nil {
        #expect(event.summary.hasSuffix(" \(seconds / 60) min"), "\(event.summary)")
      } else {
        Issue.record("\(event.summary) is not timed")
      }
    }
    // Exported again over the first calendar: byte for byte the same (no new UIDs, no duplicates).
    #expect(try export(schedule, previous: parsed) == text)
  }

  /// Run days bind runs, not cross-training or strength: with four run days, the extras keep the other days.
  @Test func runDaysDoNotDropThem() throws {
    let plan = try plan(cross: 1, strength: 1)
    let preferences = SchedulingPreferences(
      runDays: [.tuesday, .thursday, .saturday, .sunday], longRunDay: .sunday, timeZoneID: "UTC")
    let schedule = try makeSchedule(plan, preferences: preferences)
    let placed = schedule.weeks.flatMap(\.workouts).map(\.workout)
    #expect(placed.count == plan.workouts.count, "\(schedule.notes.map(\.text))")
    for workout in placed where workout.kind.isRun {
      #expect(preferences.runDays?.contains(workout.date.weekday) == true, "\(workout.title) on \(workout.date)")
    }
  }
}
