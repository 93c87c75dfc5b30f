import Foundation
import PlanEngine
import RunMateTestSupport
import Testing

/// Behaviour of `makePlan` on inputs whose results are worked out by hand from the templates' numbers.
@Suite struct PlanEngineTests {
  @Test func firstWeekRampsTenPercentAndLongRunStepsTenPercent() throws {
    // Beginner half defaults: 20 km/week, longest run 8 km, 4 runs.
    let plan = try makePlan(goal: goal(.half, .beginner, weeks: 12), rules: repositoryRules)
    let week1 = plan.weeks[0]
    #expect(week1.targetKm == 22)  // 20 + min(10 % × 20, 1.6 × 4) = 22
    let long = try #require(week1.workouts.first { $0.kind == .long })
    #expect(long.distanceKm == 8.8)  // 1.10 × 8
    #expect(week1.workouts.count == 4)
  }

  @Test func cutbackWeekIsThreeQuartersOfThePreviousFullWeek() throws {
    let plan = try makePlan(goal: goal(.half, .beginner, weeks: 12), rules: repositoryRules)
    let week2 = plan.weeks[1]
    let week3 = plan.weeks[2]
    #expect(week3.cutback && !week2.cutback)
    #expect(abs(week3.targetKm - 0.75 * week2.plannedKm) <= 0.11)
    #expect(week3.plannedKm <= 0.75 * week2.plannedKm + 0.05)
    // The week after continues from week 2, not from the cut-back week.
    let week4 = plan.weeks[3]
    #expect(abs(week4.targetKm - (week2.plannedKm + min(0.1 * week2.plannedKm, 6.4))) <= 0.11)
  }

  @Test func phasesFollowTheGuideProportions() throws {
    let plan = try makePlan(goal: goal(.half, .intermediate, weeks: 16), rules: repositoryRules)
    let phases = plan.weeks.map(\.phase)
    // taper 2 (75 %, race week), peak round(0.15 × 16) = 2, base round(0.25 × 16) = 4, build the rest.
    #expect(
      phases == Array(repeating: .base, count: 4) + Array(repeating: .build, count: 8)
        + [.peak, .peak, .taper, .race])
  }

  @Test func longTimelinesGetMoreBaseNotMoreBuild() throws {
    let plan = try makePlan(goal: goal(.tenK, .intermediate, weeks: 30), rules: repositoryRules)
    #expect(plan.weeks.filter { $0.phase == .build }.count == 12)
    // 30 weeks: race week 1, peak min(round(0.15 × 30), 3) = 3, build capped at 12, base the rest.
    #expect(plan.weeks.filter { $0.phase == .base }.count == 30 - 12 - 3 - 1)
    let peak = try #require(repositoryRules.rules(for: .tenK)).levels.intermediate.peakWeeklyKm
    #expect(plan.weeks.allSatisfy { $0.plannedKm <= peak + 0.05 })
  }

  @Test func compressedPlanWarnsAndSkipsBase() throws {
    let plan = try makePlan(goal: goal(.half, .beginner, weeks: 9), rules: repositoryRules)
    #expect(!plan.weeks.contains { $0.phase == .base })
    #expect(
      plan.warnings.first?.hasPrefix(
        "9 weeks is shorter than the 12 weeks recommended for a beginner half marathon: "
          + "this is a compressed plan with no base weeks; a race on or after 2027-03-28 allows a full plan") == true)
  }

  @Test func unsafeTimelineSuggestsDatesAndShorterDistances() throws {
    #expect(throws: PlanError.self) { try makePlan(goal: goal(.marathon, .beginner, weeks: 6), rules: repositoryRules) }
    do {
      _ = try makePlan(goal: goal(.marathon, .beginner, weeks: 6), rules: repositoryRules)
    } catch {
      #expect(
        error.description == "weeks: 6 is too short for a beginner marathon plan, allowed is at least 12 weeks "
          + "(18 recommended); choose a race on or after 2027-03-28 (2027-05-09 for 18 weeks), or a shorter distance: "
          + "5k, 10k, 15k, 10mi")
    }
  }

  @Test func tenMilesUsesFifteenKRulesWithItsOwnDistance() throws {
    let plan = try makePlan(goal: goal(.tenMiles, .intermediate, weeks: 10), rules: repositoryRules)
    let race = try #require(plan.workouts.last)
    #expect(race.kind == .race)
    #expect(race.distanceKm == 16.1)
    #expect(plan.goal.distanceKm == 16.09344)
  }

  @Test func recentRaceGivesVDOTPacesInSteps() throws {
    let race = RecentRace(distanceKm: 5, timeSeconds: 20 * 60)
    let plan = try makePlan(goal: goal(.tenK, .intermediate, weeks: 10, recentRace: race), rules: repositoryRules)
    #expect(plan.goal.vdot == 49.8)
    let steps = plan.workouts.flatMap(\.steps)
    #expect(steps.contains { $0.zone == .threshold && $0.pace == "4:16/km" })
    #expect(steps.contains { $0.zone == .interval && $0.pace == "3:56/km" })
    #expect(
      steps.filter { $0.zone == .easy }.allSatisfy {
        $0.pace?.hasSuffix("/km") == true && $0.pace?.contains("-") == true
      })
    // Without a race: efforts only.
    let effortOnly = try makePlan(goal: goal(.tenK, .intermediate, weeks: 10), rules: repositoryRules)
    #expect(effortOnly.workouts.flatMap(\.steps).allSatisfy { $0.pace == nil && !$0.effort.isEmpty })
  }

  @Test func milesChangeTextNotNumbers() throws {
    let km = try makePlan(goal: goal(.tenK, .beginner, weeks: 10), rules: repositoryRules, units: .km)
    let mi = try makePlan(goal: goal(.tenK, .beginner, weeks: 10), rules: repositoryRules, units: .mi)
    #expect(km.weeks.map(\.plannedKm) == mi.weeks.map(\.plannedKm))
    #expect(km.workouts.map(\.distanceKm) == mi.workouts.map(\.distanceKm))
    let long = try #require(mi.workouts.first { $0.kind == .long })
    #expect(long.title.hasSuffix(" mi"))
  }

  @Test func planIDIsStableAndDependsOnInputs() throws {
    let a = try makePlan(goal: goal(.fiveK, .beginner, weeks: 8), rules: repositoryRules)
    let b = try makePlan(goal: goal(.fiveK, .beginner, weeks: 8), rules: repositoryRules)
    let c = try makePlan(goal: goal(.fiveK, .beginner, weeks: 9), rules: repositoryRules)
    #expect(a.id == b.id)
    #expect(a.id != c.id)
    #expect(a.id.hasPrefix("rm-") && a.id.count == 19)
    #expect(a.workouts.allSatisfy { $0.id.hasPrefix(a.id + "-w0") })
  }

  @Test func marathonNeedsABase() throws {
    #expect(
      throws: PlanError.insufficientBase(
        distance: .marathon, field: .longestRecentRunKm, value: 6,
        required: 8)
    ) {
      // 10 weeks: no room for the base phase (4 weeks of the spike guard's steps and a cut-back) before the
      // shortest intermediate marathon plan (8 weeks).
      try makePlan(goal: goal(.marathon, .intermediate, weeks: 10, longestKm: 6), rules: repositoryRules)
    }
  }

  @Test func runsPerWeekSetsTheNumberOfRunDays() throws {
    for runs in 3...7 {
      let plan = try makePlan(goal: goal(.half, .advanced, weeks: 12, runs: runs), rules: repositoryRules)
      let fullWeeks = plan.weeks.filter { $0.phase != .race }
      #expect(fullWeeks.allSatisfy { $0.workouts.count == runs }, "runs \(runs)")
    }
  }
}
