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
