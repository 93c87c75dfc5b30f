import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import Training
import TrainingDomain

/// The `pull` use case on a real SQLite logbook: a coach's plan applied to the runner's own plan (its id, name and
/// runs kept, the runner's settings kept but for the coach's run days), saved once, and saved as the active plan in
/// a logbook that has none.
@Suite(.timeLimit(.minutes(1))) struct PulledUpdatesTests {
  let systemZone = "UTC"

  /// The coach's plan: an intermediate 10K of 8 weeks for the same race, on Tuesday, Thursday, Saturday and Sunday.
  func coachsPlan() throws -> PlanFile {
    PlanFile(
      name: "anna-10k", exportedAt: testNow,
      plan: try makePlan(goal: goal(.tenK, .intermediate, weeks: 8, runs: 4), rules: repositoryRules).owned(by: "anna"),
      settings: ScheduleSettings(
        runDays: [.tuesday, .thursday, .saturday, .sunday], longRunDay: .sunday, timeZone: "UTC"))
  }

  @Test func theCoachsPlanReplacesTheRunnersOwnInPlace() throws {
    let folder = try temporaryDirectory("pulled")
    defer { try? FileManager.default.removeItem(at: folder) }
    let db = try openStore(at: folder.appendingPathComponent("local.sqlite").path)
    let own = try makePlan(goal: goal(.tenK, .beginner, weeks: 8, runs: 4), rules: repositoryRules)
    let mine = ScheduleSettings(
      runDays: [.monday, .wednesday, .friday, .sunday], longRunDay: .sunday, times: ["06:30"],
      timeZone: "Europe/Berlin")
    let schedule = try mine.schedule(own)
    _ = try db.savePlan(own, name: "spring", activate: true, schedule: (mine, schedule.datedWorkouts))
    let first = try #require(schedule.datedWorkouts.first)
    _ = try db.addRuns([Completion(date: first.date, distanceKm: 4, durationSeconds: 1500)], plan: "spring")
    let runs = try db.completions()

    // The coach comments on a workout of the coach's plan, on the coach's days.
    let coach = try coachsPlan()
    let coachSettings = try #require(coach.settings)
    let day = try #require(try coachSettings.schedule(coach.plan).datedWorkouts.first?.date)
    let updates = PulledUpdates(
      comments: [CoachComment(date: day, author: "kim", text: "Good start", createdAt: testNow)],
      plan: try coachsPlan(), cursor: "u1.1.0123456789abcdef")
    let result = try applyUpdates(
      updates, to: nil, server: "http://coach", in: db, profile: nil, systemZone: systemZone, now: testNow)
    #expect(result.stored && !result.created && result.planName == "spring")
    #expect(!result.changes.isEmpty && result.calendarChanges == nil, "no export yet: no calendar to compare")
    let saved = try db.plan(named: "spring")
    #expect(saved.id == own.id && saved.active && saved.plan.goal.level == .intermediate)
    #expect(saved.plan.workouts.allSatisfy { $0.id.hasPrefix(own.id) }, "the workouts under the runner's own id")
    let settings = try #require(try db.scheduleSettings(ofPlan: own.id))
    #expect(settings.runDays == [.tuesday, .thursday, .saturday, .sunday])
    #expect(settings.times == ["06:30"] && settings.timeZone == "Europe/Berlin", "the runner's own settings stay")
    #expect(try db.completions() == runs, "logged runs are never touched")
    #expect(result.comments.first?.workout != nil, "the comment names its day's workout")

    // The same plan again: nothing saved.
    let again = try applyUpdates(
      PulledUpdates(comments: [], plan: try coachsPlan(), cursor: "u1.1.0123456789abcdef"), to: nil,
      server: "http://coach", in: db, profile: nil, systemZone: systemZone, now: testNow)
    #expect(!again.stored && again.changes.isEmpty && again.upToDate)
    #expect(try db.plans().count == 1)

    // Another plan from a coach whose settings name no run days: the runner's days stay.
    var other = try coachsPlan()
    other.plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8, runs: 4), rules: repositoryRules)
    other.settings = ScheduleSettings(timeZone: "UTC")
    let kept = try applyUpdates(
      PulledUpdates(comments: [], plan: other, cursor: "u1.1.-"), to: "spring", server: "http://coach", in: db,
      profile: nil, systemZone: systemZone, now: testNow)
    #expect(kept.stored)
    #expect(try db.plan(named: "spring").plan.goal.level == .beginner)
    #expect(try db.scheduleSettings(ofPlan: own.id)?.runDays == [.tuesday, .thursday, .saturday, .sunday])
  }

  @Test func aLogbookWithoutAPlanSavesTheCoachsAsActive() throws {
    let folder = try temporaryDirectory("pulled")
    defer { try? FileManager.default.removeItem(at: folder) }
    let db = try openStore(at: folder.appendingPathComponent("local.sqlite").path)
    let file = try coachsPlan()
    let result = try applyUpdates(
      PulledUpdates(comments: [], plan: file, cursor: "u1.0.0123456789abcdef"), to: nil, server: "http://coach",
      in: db, profile: nil, systemZone: systemZone, now: testNow)
    #expect(result.created && result.stored && result.planName == "anna-10k")
    #expect(result.changes.count == file.plan.workouts.count && result.changes.allSatisfy { $0.kind == .added })
    let saved = try db.plan(named: nil)
    #expect(saved.name == "anna-10k" && saved.id == file.plan.id)
  }
}
