import Foundation
import PlanEngine
import RunMateTestSupport
import Testing

/// The week-structure rules on the plans the coach's review named, and their template validation.
@Suite("WeekStructure: the review's examples")
struct WeekStructureTests {
  /// Marathon advanced, 5 runs a week from 35 km: week 1 had a 19.2 km long run of 37.1 km.
  @Test func marathonWeekOneLongRunIsAtMostHalf() throws {
    let plan = try makePlan(goal: goal(.marathon, .advanced, weeks: 18, runs: 5, currentKm: 35), rules: repositoryRules)
    let week = try #require(plan.weeks.first)
    let long = try #require(week.workouts.first { $0.kind == .long })
    #expect(long.distanceKm <= 0.5 * week.plannedKm + 0.05, "\(long.distanceKm) of \(week.plannedKm)")
  }

  /// Intermediate half: Sat 15.6 + Sun 21 became at most half the long run on Saturday; four runs carry one
  /// quality session besides the long run; race week has no 10-13 km Thursday.
  @Test func halfIntermediateWeekShape() throws {
    let plan = try makePlan(goal: goal(.half, .intermediate, weeks: 12), rules: repositoryRules)
    for week in plan.weeks {
      if let long = week.workouts.first(where: { $0.kind == .long }),
        let eve = week.workouts.first(where: { $0.date.days(to: long.date) == 1 })
      {
        #expect(
          eve.distanceKm <= 0.5 * long.distanceKm + 0.05,
          "week \(week.number): \(eve.distanceKm) before \(long.distanceKm)")
      }
      #expect(
        week.workouts.filter { $0.hard && $0.kind != .long && $0.kind != .race }.count <= 1, "week \(week.number)")
    }
    let raceWeek = try #require(plan.weeks.last)
    #expect(
      raceWeek.workouts.filter { $0.kind != .race }.allSatisfy { $0.distanceKm <= 7.05 },
      "\(raceWeek.workouts.map(\.distanceKm))")
  }

  /// Beginner 10K, 10 weeks, 4 runs from 15 km: half of week 1's 5.5 km long run is under the minimum run, so
  /// Saturday's run moves (to Friday) instead of being dropped: week 1 keeps 4 runs and at least the runner's
  /// 15 km, and says where the run went. With `eveOfLongTooShort: rest` the run is dropped, as before.
  @Test func beginnerTenKKeepsItsRunsWhenTheEveIsTooShort() throws {
    let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 10), rules: repositoryRules)
    let week = try #require(plan.weeks.first)
    let long = try #require(week.workouts.first { $0.kind == .long })
    #expect(plan.goal.runsPerWeek == 4 && week.workouts.count == 4, "\(week.workouts.map(\.slot))")
    #expect(week.plannedKm >= plan.goal.currentWeeklyKm, "\(week.plannedKm) < \(plan.goal.currentWeeklyKm)")
    #expect(!week.workouts.contains { $0.date.days(to: long.date) == 1 }, "a run the day before the long run")
    #expect(week.rules.contains { $0.contains("that run moves to Fri") }, "\(week.rules)")
    for week in plan.weeks where !week.cutback && week.phase != .race {
      #expect(week.workouts.count == 4, "week \(week.number): \(week.workouts.map(\.slot))")
    }

    var files = try templateFiles()
    let index = try #require(files.firstIndex { $0.name.hasSuffix("base.yaml") })
    files[index].text = files[index].text.replacingOccurrences(
      of: "eveOfLongTooShort: move", with: "eveOfLongTooShort: rest")
    let resting = try makePlan(goal: goal(.tenK, .beginner, weeks: 10), rules: PlanRules(files: files))
    #expect(resting.weeks.first?.workouts.count == 3)
  }

  /// A weekStructure value out of range names the file, the key, the value and what is allowed.
  @Test func validatorNamesWeekStructureKeys() throws {
    var files = try templateFiles()
    let index = try #require(files.firstIndex { $0.name.hasSuffix("base.yaml") })
    files[index].text = files[index].text.replacingOccurrences(
      of: "eveOfLongMaxOfLong: 0.5", with: "eveOfLongMaxOfLong: 0.9")
    #expect(throws: TemplateError.self) { _ = try PlanRules(files: files) }
    do {
      _ = try PlanRules(files: files)
    } catch {
      #expect("\(error)".contains("weekStructure.eveOfLongMaxOfLong: '0.9' is wrong"), "\(error)")
    }
  }
}
