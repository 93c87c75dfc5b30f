import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Scheduling
import Testing

/// A start time the clocks skip (a spring-forward gap): the run is at the time they show then, and one note says so.
@Suite struct ClockChangeTests {
  @Test func aStartInTheGapIsAtTheTimeTheClocksShowWithOneNote() throws {
    let first = try #require(CivilDate(iso: "2026-01-26"))
    let timeline = Timeline(start: first, raceDate: first.adding(days: 7 * 12 - 1), weeks: 12)
    let plan = try makePlan(
      goal: Goal(distance: .half, level: .beginner, timeline: timeline), rules: repositoryRules)
    let preferences = SchedulingPreferences(
      runDays: [.tuesday, .thursday, .saturday, .sunday], longRunDay: .sunday,
      defaultTime: LocalTime(clampingHour: 2, minute: 30), timeZoneID: "Europe/Berlin")
    let schedule = try makeSchedule(plan, preferences: preferences)
    let gapDay = try #require(CivilDate(iso: "2026-03-29"))
    let items = schedule.weeks.flatMap(\.workouts)
    let shifted = try #require(items.first { $0.workout.date == gapDay })
    #expect(shifted.time == LocalTime(clampingHour: 3, minute: 30))
    #expect(shifted.start == (try utc(2026, 3, 29, 1, 30)))
    for item in items where item.workout.date != gapDay && item.workout.kind != .race {
      #expect(item.time == LocalTime(clampingHour: 2, minute: 30), "\(item.workout.date)")
    }
    let notes = schedule.notes.filter { $0.kind == .shifted }
    #expect(
      notes.map(\.text) == [
        "02:30 does not exist on Sun 29 Mar 2026 in Europe/Berlin (clocks go forward): the run is at 03:30"
      ])
  }
}
