import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import Training
import TrainingDomain

/// The coach's roster use case, in-process on a real SQLite file: each athlete's week on the athlete's own day,
/// counted from their runs, and an athlete without a plan said as such.
@Suite struct RosterTests {
  @Test func theRosterShowsEachAthletesWeekOnTheirOwnDay() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try openStore(at: directory.appendingPathComponent("runmate.sqlite").path)
    var coach = Profile(name: "kim")
    coach.isCoach = true
    coach.units = .mi
    coach.timeZone = "Europe/Berlin"
    _ = try store.createProfile(coach)
    var anna = Profile(name: "anna")
    anna.timeZone = "Pacific/Auckland"
    let annaID = try #require(try store.createProfile(anna).id)
    _ = try store.createProfile(Profile(name: "ben"))
    try store.addAthlete("anna", toCoach: "kim")
    try store.addAthlete("ben", toCoach: "kim")
    let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
    let saved = try store.savePlan(plan, name: "spring", activate: true, schedule: nil, replacing: true)
    try store.assignPlan(saved.id, toProfile: annaID)
    let first = try #require(plan.weeks.first?.workouts.first { $0.kind.isRun })
    _ = try store.addRuns(
      [Completion(date: first.date, distanceKm: first.distanceKm, durationSeconds: first.distanceKm * 360)], plan: nil)

    // Noon on Wednesday in Berlin is already Thursday in Auckland: each is asked for their own zone's day.
    var asked: [String?] = []
    let roster = try coachRoster(coach: "kim", in: store, systemZone: "UTC") { zone in
      asked.append(zone)
      return zone == "Pacific/Auckland" ? testStart.adding(days: 3) : testStart.adding(days: 2)
    }
    #expect(asked.contains("Pacific/Auckland") && asked.contains("Europe/Berlin"))
    #expect(roster.coach == "kim" && roster.today == testStart.adding(days: 2) && roster.units == .mi)
    #expect(roster.athletes.map(\.name) == ["anna", "ben"])
    let week = try #require(roster.athletes.first?.week)
    #expect(week.number == 1)
    #expect(abs(week.done.kilometers - first.distanceKm) < 0.05, "\(week.done.kilometers) km done")
    #expect(roster.athletes.last?.plan == nil && roster.athletes.last?.week == nil)

    #expect(throws: LogbookError.self) {
      _ = try coachRoster(coach: "nobody", in: store, systemZone: "UTC") { _ in testStart }
    }
  }
}
