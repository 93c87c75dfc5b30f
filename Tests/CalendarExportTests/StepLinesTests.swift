import CalendarExport
import Foundation
import ICalendar
import PlanEngine
import RunMateTestSupport
import RunningCore
import Scheduling
import Testing

/// The calendar's descriptions list a workout's steps as the workout files have them (issue 25), through libical.
@Suite struct StepLinesTests {
  private let plan: Plan
  private let schedule: Schedule

  init() throws {
    plan = try makePlan(
      goal: goal(.marathon, .intermediate, weeks: 18, recentRace: RecentRace(distanceKm: 10, timeSeconds: 3000)),
      rules: repositoryRules)
    schedule = try makeSchedule(
      plan,
      preferences: SchedulingPreferences(
        defaultTime: LocalTime(clampingHour: 6, minute: 30), timeZoneID: "Europe/Berlin"))
  }

  private func events(units: DistanceUnit = .km) throws -> [String: VEvent] {
    let options = ExportOptions(
      reminders: [], identity: ExportOptions.identity(of: plan), calendarName: "Test", units: units)
    let exported = try makeCalendar(for: schedule, options: options, now: Date(timeIntervalSince1970: 1_795_219_200))
    // Through libical's serializer and parser: the folded lines come back whole.
    let parsed = try VCalendar.parse(try exported.calendar.serialized())
    var byWorkout: [String: VEvent] = [:]
    for (event, item) in zip(parsed.events, schedule.workouts) { byWorkout[item.workout.id] = event }
    return byWorkout
  }

  @Test func intervalsListTheirStepsOneALine() throws {
    let intervals = try #require(
      plan.workouts.first { $0.kind == .intervals && $0.steps.contains { $0.kind == .recovery } })
    let work = try #require(intervals.steps.first { $0.kind == .work })
    let lines = stepLines(intervals)
    #expect(lines.count == 3, "\(lines)")
    #expect(lines.first?.hasPrefix("Warm-up 2 km at ") == true, "\(lines)")
    #expect(lines[1].hasPrefix("\(work.repeat) × 1 km at \(work.pace ?? "?"), "), "\(lines)")
    #expect(lines[1].hasSuffix(" min jog between"), "\(lines)")
    #expect(lines.last?.hasPrefix("Cool-down ") == true, "\(lines)")
    // The same steps the workout files run: the work steps of the blocks expand to the line's count.
    let expandedWork = workoutBlocks(intervals).reduce(0) { total, block in
      switch block {
      case .single(let step): total + (step.step.kind == .work ? 1 : 0)
      case .repeated(let count, let set): total + count * set.filter { $0.step.kind == .work }.count
      }
    }
    #expect(expandedWork == work.repeat)

    let event = try #require(try events()[intervals.id])
    let description = try #require(event.description)
    #expect(description.contains("\n\n" + lines.joined(separator: "\n") + "\n\nWeek "), "\(description)")
  }

  @Test func aLongRunWithAFinishSaysBothParts() throws {
    let finish = try #require(
      plan.workouts.first { $0.kind == .long && $0.steps.count == 2 && $0.steps[1].zone != .easy })
    let lines = stepLines(finish)
    #expect(lines.count == 2, "\(lines)")
    #expect(lines[0].hasPrefix("Easy "), "\(lines)")
    #expect(lines[1].contains(finish.steps[1].pace ?? "?"), "\(lines)")
  }

  @Test func aOneStepRunKeepsItsDescriptionAlone() throws {
    let easy = try #require(plan.workouts.first { $0.kind == .easy && $0.steps.count == 1 && $0.steps[0].repeat == 1 })
    #expect(stepLines(easy).isEmpty)
    let event = try #require(try events()[easy.id])
    #expect(event.description?.hasPrefix(easy.description + "\n\nWeek ") == true, "\(event.description ?? "")")
  }

  @Test func milesAndHeartRatesAreShownAsTheRunnerReadsThem() throws {
    let intervals = try #require(
      plan.workouts.first { $0.kind == .intervals && $0.steps.contains { $0.kind == .recovery } })
    let description = try #require(try events(units: .mi)[intervals.id]?.description)
    #expect(description.contains("/mi, ") && description.contains("Warm-up 1.2 mi at "), "\(description)")
    let zones = try #require(HeartRateZones(resting: 52, maximum: 188, threshold: nil))
    let lines = stepLines(intervals, targets: StepTargets(zones: zones, targets: .both))
    #expect(lines.first?.hasPrefix("Warm-up 2 km at Z2 120-146 bpm") == true, "\(lines)")
    #expect(lines[1].contains("/km"), "quality stays by pace with both: \(lines)")
  }
}
