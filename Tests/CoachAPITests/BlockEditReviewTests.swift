import CoachAPI
import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import Training
import TrainingDomain

/// A seeded coach's review of a coach's new goal for a block under way (`PUT …/plan`, issue 44), by rules from the
/// books, not the engine's: the past as it was planned (the record runs were matched to); the week from today no
/// more than 10 % over the last week run (Daniels' and Pfitzinger's ceiling for a week's rise, with a kilometre of
/// rounding), nor the next long run over 10 % past the longest of the last four weeks; race day where it was; a taper
/// (the last week under the peak).
@Suite(.timeLimit(.minutes(3))) struct BlockEditReviewTests {
  struct Case: CustomStringConvertible {
    let distance: RaceDistance
    let level: Level
    let weeks: Int
    let weeklyKm: Double
    let longestKm: Double
    let editWeek: Int
    let share: Double
    let missedWeek: Int?
    let goalTime: String?
    let newLevel: Level?
    var description: String {
      "\(distance.rawValue) \(level.rawValue) \(weeks) wk, edit in week \(editWeek + 1), runs at "
        + "\(Int(share * 100)) %\(missedWeek.map { ", week \($0 + 1) missed" } ?? ""), "
        + (goalTime.map { "goal \($0)" } ?? "") + (newLevel.map { " level \($0.rawValue)" } ?? "")
    }
  }

  /// Twelve runners, the same for every run of the suite.
  static let cases: [Case] = {
    var random = SplitMix(seed: 44)
    let shapes: [(RaceDistance, Level, Int, Double, Double)] = [
      (.tenK, .beginner, 10, 20, 6), (.half, .intermediate, 12, 40, 14), (.marathon, .intermediate, 16, 55, 22),
      (.marathon, .advanced, 18, 80, 28), (.half, .beginner, 12, 25, 10), (.fiveK, .intermediate, 8, 30, 8),
    ]
    return (0..<12).map { index in
      let (distance, level, weeks, weeklyKm, longestKm) = shapes[index % shapes.count]
      let editWeek = Int.random(in: 3...(weeks - 3), using: &random)
      let shares: [Double] = [0.7, 0.9, 1.0, 1.05]
      let share = shares.randomElement(using: &random) ?? 1
      let missed = Bool.random(using: &random) ? Int.random(in: 1..<editWeek, using: &random) : nil
      let times: [RaceDistance: [String]] = [
        .fiveK: ["22:00", "26:00"], .tenK: ["50:00", "58:00"], .half: ["1:45:00", "2:05:00"],
        .marathon: ["3:30:00", "4:10:00"],
      ]
      let levelChange: Level? = index % 4 == 3 ? (level == .advanced ? .intermediate : .advanced) : nil
      return Case(
        distance: distance, level: level, weeks: weeks, weeklyKm: weeklyKm, longestKm: longestKm, editWeek: editWeek,
        share: share, missedWeek: missed,
        goalTime: levelChange == nil ? times[distance]?.randomElement(using: &random) : nil, newLevel: levelChange)
    }
  }()

  @Test(arguments: 0..<12) func aBlockEditedMidwayKeepsThePastAndRampsFromTheRuns(index: Int) throws {
    let review = Self.cases[index]
    let (weekly, longest) = (review.weeklyKm, review.longestKm)
    let folder = try temporaryDirectory("block-review")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try openStore(at: folder.appendingPathComponent("coach.sqlite").path)
    var kim = Profile(name: "kim")
    kim.isCoach = true
    _ = try store.createProfile(kim)
    var runner = Profile(name: "ana")
    runner.timeZone = "UTC"
    let anaID = try #require(try store.createProfile(runner).id)
    try store.addAthlete("ana", toCoach: "kim")
    let plan = try makePlan(
      goal: goal(review.distance, review.level, weeks: review.weeks, currentKm: weekly, longestKm: longest),
      rules: repositoryRules)
    let saved = try store.savePlan(plan, name: "block", activate: true)
    try store.assignPlan(saved.id, toProfile: anaID)
    let today = plan.weeks[review.editWeek].start.adding(days: 1)
    var logged: [Completion] = []
    for week in plan.weeks.prefix(review.editWeek) where week.number - 1 != review.missedWeek {
      for workout in week.workouts where workout.kind.isRun {
        let km = (workout.distanceKm * review.share * 10).rounded() / 10
        logged.append(Completion(date: workout.date, distanceKm: km, durationSeconds: km * 340))
      }
    }
    _ = try store.addRuns(logged, plan: "block")
    let coach = try store.createAccount(login: "kim", role: .coach, profileID: 1, passwordHash: "h", at: Date())
    let now = Date(timeIntervalSince1970: Double(today.dayNumber) * 86400 + 10 * 3600)
    let request = PlanRequest(
      distance: review.distance.rawValue, level: review.newLevel?.rawValue, goalTime: review.goalTime)
    let assignment = try assignPlan(
      request, to: try #require(try store.profile(named: "ana")), by: coach, in: store, rules: repositoryRules,
      systemZone: "UTC", now: now)
    let edited = assignment.saved.plan

    // The past as it was planned, the race where it was, the plan the same one.
    #expect(edited.id == saved.id, "\(review)")
    #expect(edited.goal.raceDate == plan.goal.raceDate, "\(review)")
    let before = plan.weeks.flatMap(\.workouts).filter { $0.date < today }
    #expect(edited.weeks.flatMap(\.workouts).filter { $0.date < today } == before, "\(review)")
    #expect(assignment.changes.allSatisfy { $0.date >= today }, "\(review)")
    // The week from today against the last week run, and the next long run against the longest of four weeks.
    let lastWeekRun = logged.filter { plan.weeks[review.editWeek - 1].start <= $0.date && $0.date < today }
      .map(\.distanceKm).reduce(0, +)
    let recent = logged.filter { $0.date >= today.adding(days: -29) }.map(\.distanceKm).max() ?? longest
    let thisWeek = edited.weeks[review.editWeek]
    // What the runner is asked to run this week: the workouts from today on (the days before it are the record).
    let ahead = thisWeek.workouts.filter { $0.date >= today && $0.kind.isRun }.map(\.distanceKm).reduce(0, +)
    if lastWeekRun > 0 {
      #expect(
        ahead <= lastWeekRun * 1.10 + 1.6,
        "\(review): week \(thisWeek.number) asks \(ahead) km after \(lastWeekRun) km run")
    }
    if let nextLong = edited.weeks.flatMap(\.workouts).first(where: { $0.date >= today && $0.kind == .long }) {
      #expect(
        nextLong.distanceKm <= max(recent, longest) * 1.10 + 0.5,
        "\(review): long run \(nextLong.distanceKm) km after \(recent) km")
    }
    let peak = edited.weeks.map(\.plannedKm).max() ?? 0
    #expect((edited.weeks.last?.plannedKm ?? peak) < peak, "\(review): no taper")
    print(
      "block review \(index + 1): \(review): week \(thisWeek.number) asks \(ahead) km after \(lastWeekRun) km; "
        + "peak \(peak) km; \(assignment.changes.count) changes; basis: \(assignment.basis ?? "-")")
  }
}
