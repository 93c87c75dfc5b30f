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
      comments: [CoachComment(serverID: 1, date: day, author: "kim", text: "Good start", createdAt: testNow)],
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

  @Test func pulledCommentsAreKeptOnceAndOnTheirWorkoutInTheViewsAndTheCalendar() throws {
    let folder = try temporaryDirectory("pulled")
    defer { try? FileManager.default.removeItem(at: folder) }
    let db = try openStore(at: folder.appendingPathComponent("local.sqlite").path)
    let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8, runs: 4), rules: repositoryRules)
    let settings = ScheduleSettings(
      runDays: [.monday, .wednesday, .friday, .sunday], longRunDay: .sunday, timeZone: "UTC")
    let schedule = try settings.schedule(plan)
    _ = try db.savePlan(plan, name: "spring", activate: true, schedule: (settings, schedule.datedWorkouts))
    let first = try #require(schedule.datedWorkouts.first)
    let second = try #require(schedule.datedWorkouts.dropFirst().first)
    let comments = [
      CoachComment(serverID: 4, date: first.date, author: "kim", text: "Easy, you raced Sunday", createdAt: testNow),
      CoachComment(serverID: 5, date: first.date, author: "lee", text: "Agreed", createdAt: testNow),
      CoachComment(serverID: 6, date: second.date, author: "kim", text: "Strides after", createdAt: testNow),
    ]
    let pulled = try applyUpdates(
      PulledUpdates(comments: comments, plan: nil, cursor: "u1.6.-"), to: nil, server: "http://coach", in: db,
      profile: nil, systemZone: systemZone, now: testNow)
    #expect(pulled.newComments == 3 && !pulled.upToDate)
    #expect(
      pulled.comments.map(\.workout)
        == [first, first, second].map { dated in
          plan.workouts.first { $0.id == dated.workoutID }?.title
        })
    // Pulled again (a pull from the start): shown again, kept once.
    let again = try applyUpdates(
      PulledUpdates(comments: comments, plan: nil, cursor: "u1.6.-"), to: nil, server: "http://coach", in: db,
      profile: nil, systemZone: systemZone, now: testNow)
    #expect(again.newComments == 0 && again.comments.count == 3)
    let kept = try db.coachComments(of: plan)
    #expect(kept.map(\.serverID) == [4, 5, 6])

    // The views: each workout with its own, in order.
    let state = try TrainingState.read(try db.plan(named: nil), db: db, profile: nil, systemZone: systemZone)
    let today = state.todayView(
      runs: [], crossTraining: [], today: first.date, weightKg: nil, units: .km, comments: kept)
    #expect(today.workout?.comments.map(\.text) == ["Easy, you raced Sunday", "Agreed"])
    #expect(today.next?.comments.map(\.text) == ["Strides after"])
    let week = state.weekView(runs: [], crossTraining: [], today: first.date, comments: kept)
    #expect(week.days.reduce(0) { $0 + $1.comments.count } == 3)
    #expect(today.restDayComments.isEmpty && week.restDayComments.isEmpty)
    // A comment on a rest day of that week: on today's view that day, and in the week's, on no workout.
    let busy = Set(state.workouts.flatMap { [$0.date, $0.plannedDate] })
    let weekStart = try #require(week.week?.start)
    let restDay = try #require((0..<7).map { weekStart.adding(days: $0) }.first { !busy.contains($0) })
    let onRest = kept + [CoachComment(serverID: 7, date: restDay, author: "kim", text: "Feet up", createdAt: testNow)]
    let rest = state.todayView(
      runs: [], crossTraining: [], today: restDay, weightKg: nil, units: .km, comments: onRest)
    #expect(rest.workout == nil && rest.restDayComments.map(\.text) == ["Feet up"])
    let restWeek = state.weekView(runs: [], crossTraining: [], today: first.date, comments: onRest)
    #expect(restWeek.restDayComments.map(\.date) == [restDay])
    #expect(restWeek.days.reduce(0) { $0 + $1.comments.count } == 3)

    // The calendar: the commented events end with the comments; the same inputs give the same bytes.
    let calendar = try planCalendar(
      plan, schedule: schedule, settings: settings, previous: nil, comments: kept, now: testNow)
    let described = calendar.calendar.events.filter { $0.description?.contains("Coach ") == true }
    #expect(described.count == 2)
    #expect(
      described.first?.description?.hasSuffix("\n\nCoach kim: Easy, you raced Sunday\nCoach lee: Agreed") == true)
    let twice = try planCalendar(
      plan, schedule: schedule, settings: settings, previous: nil, comments: kept, now: testNow)
    #expect(try twice.calendar.serialized() == calendar.calendar.serialized())
    // Against the calendar without them: those two events change, nothing else.
    let without = try planCalendar(
      plan, schedule: schedule, settings: settings, previous: nil, comments: [], now: testNow)
    let next = try planCalendar(
      plan, schedule: schedule, settings: settings, previous: without.calendar, comments: kept, now: testNow)
    #expect(next.changes.filter { $0.change == .changed }.count == 2)
    #expect(next.changes.filter { $0.change != .changed }.allSatisfy { $0.change == .unchanged })
  }

  @Test func aCommentIsOnTheWorkoutScheduledOnItsDayElseTheOneMovedFromIt() throws {
    func dated(_ id: String, on date: CivilDate, plannedOn planned: CivilDate) -> DatedWorkout {
      DatedWorkout(
        workoutID: id, week: 1, date: date, plannedDate: planned, startMinute: nil, timeZoneID: "UTC", kind: .easy,
        distanceKm: 5)
    }
    let monday = testStart
    let workouts = [
      dated("a", on: monday, plannedOn: monday),
      // Moved by the runner's calendar from Tuesday to Thursday.
      dated("b", on: monday.adding(days: 3), plannedOn: monday.adding(days: 1)),
    ]
    func comment(_ id: Int64, _ date: CivilDate) -> CoachComment {
      CoachComment(serverID: id, date: date, author: "kim", text: "c\(id)", createdAt: testNow)
    }
    let onWorkouts = commentsByWorkout(
      [
        comment(1, monday), comment(2, monday.adding(days: 1)), comment(3, monday.adding(days: 3)),
        comment(4, monday.adding(days: 2)),
      ],
      on: workouts)
    #expect(onWorkouts["a"]?.map(\.serverID) == [1])
    #expect(onWorkouts["b"]?.map(\.serverID) == [2, 3], "its planned day and its scheduled day")
    #expect(onWorkouts.values.joined().count == 3, "a rest day's comment is on no workout")
    let all = [
      comment(1, monday), comment(2, monday.adding(days: 1)), comment(3, monday.adding(days: 3)),
      comment(4, monday.adding(days: 2)),
    ]
    #expect(restDayComments(all, on: workouts).map(\.serverID) == [4])
  }
}
