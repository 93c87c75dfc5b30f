import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing

/// `--goal-time` in the engine (issue 22, case 6): the goal's VDOT sets every pace, checked against the recent race.
@Suite struct GoalTimeTests {
  /// A half marathon goal of `time` over `weeks` weeks, with an optional recent race.
  func halfGoal(_ time: String, weeks: Int = 12, recentRace: RecentRace? = nil) throws -> Goal {
    var goal = goal(.half, .intermediate, weeks: weeks, recentRace: recentRace)
    let seconds: Double = try #require(parseRaceTime(time))
    goal.goalTimeSeconds = seconds
    return goal
  }

  let tenK45 = RecentRace(distanceKm: 10, timeSeconds: 45 * 60)

  /// The refusal's message, or nil when the plan is made.
  func refusal(_ goal: Goal) -> String? {
    do {
      _ = try makePlan(goal: goal, rules: repositoryRules)
      return nil
    } catch {
      return error.description
    }
  }

  @Test func goalTimeSetsRacePaceAndEveryTrainingPace() throws {
    let plan = try makePlan(goal: try halfGoal("1:50:00"), rules: repositoryRules)
    let vdot = try VDOT(distanceMeters: 21_097.5, timeSeconds: 6600)
    #expect(plan.goal.vdot == 40.4)
    #expect(plan.goal.vdotSource == .goalTime)
    #expect(plan.goal.goalTimeSeconds == 6600)
    #expect(plan.goal.predictedTimeSeconds == 6600)
    // No recent race, a goal within the level's reach: no warning about it.
    #expect(!plan.warnings.contains { $0.contains("goal") })
    let steps = plan.workouts.flatMap(\.steps)
    let threshold = try #require(steps.first { $0.zone == .threshold })
    #expect(threshold.pace == vdot.threshold.formatted())
    let easy = try #require(steps.first { $0.zone == .easy })
    #expect(easy.pace == formatPaceRange(vdot.easy))
    let race = try #require(plan.workouts.last)
    #expect(race.kind == .race)
    #expect(race.steps.first?.pace == "5:13/km")
    #expect(race.description.contains("Your goal: 1:50:00 (5:13/km"))
    #expect(race.description.contains("21.1 km in 1:50:00"))
    #expect(race.description.contains("halfway in 55:00"))
  }

  @Test func tooAmbitiousGoalIsRefusedWithTheTimeToAimForAndTheWeeks() throws {
    #expect(
      refusal(try halfGoal("1:35:00", recentRace: tenK45))
        == "goal time 1:35:00 needs VDOT 47.9, your 10K (45:00) says 45.3: aim for 1:35:24, or give it 14 weeks "
        + "(weeks 14)")
    // The weeks named are enough: 14 weeks accept the same goal.
    let plan = try makePlan(goal: try halfGoal("1:35:00", weeks: 14, recentRace: tenK45), rules: repositoryRules)
    // The training paces stay at the 10K's fitness; the goal is race pace.
    #expect(plan.goal.vdot == 45.3)
    #expect(plan.goal.vdotSource == .recentRace)
    #expect(plan.goal.goalTimeSeconds == 5700)
  }

  /// Issue 45, "Why" 5: a 10K in 41:50 and a 3:03 marathon goal. Daniels trains at the VDOT a race shows and raises it
  /// when the next race shows more: every training pace (easy, threshold, intervals) follows the 10K, and only race
  /// pace and marathon pace (the race-pace work of the long runs) follow the goal. Checked against Daniels' formula,
  /// not the engine's labels.
  @Test func issue45PacesComeFromCurrentFitnessAndTheGoalOnlySetsRacePace() throws {
    var asked = goal(
      .marathon, .intermediate, weeks: 16, runs: 4, currentKm: 35, longestKm: 13.7,
      recentRace: RecentRace(distanceKm: 10, timeSeconds: 41 * 60 + 50))
    asked.goalTimeSeconds = 3 * 3600 + 3 * 60
    let plan = try makePlan(goal: asked, rules: repositoryRules)
    let race = try VDOT(distanceMeters: 10_000, timeSeconds: 41 * 60 + 50)
    let goalVDOT = VDOT.vdot(distanceMeters: 42_195, minutes: 183)
    #expect(goalVDOT > race.value + 1, "the goal must be faster than the race for the test to mean anything")
    #expect(plan.goal.vdot == (race.value * 10).rounded() / 10)
    #expect(plan.goal.vdotSource == .recentRace)
    let steps = plan.workouts.flatMap(\.steps)
    let threshold = try #require(steps.first { $0.zone == .threshold && $0.kind == .work })
    #expect(threshold.pace == race.threshold.formatted())
    let easy = try #require(steps.first { $0.zone == .easy })
    #expect(easy.pace == formatPaceRange(race.easy))
    // Goal marathon pace, 183 min / 42.195 km = 4:20/km, for marathon-pace segments and race day.
    let goalPace = Pace(secondsPerKilometer: 183 * 60 / 42.195).formatted()
    let marathonPace = try #require(steps.first { $0.zone == .marathon })
    #expect(marathonPace.pace == goalPace)
    let raceDay = try #require(plan.workouts.last)
    #expect(raceDay.kind == .race && raceDay.steps.first?.pace == goalPace)
    #expect(raceDay.description.contains("Your goal: 3:03:00"))
    #expect(
      plan.warnings.contains {
        $0.hasPrefix("training paces from your 10K (41:50, VDOT \((race.value * 10).rounded() / 10))")
          && $0.contains("sets marathon and race pace")
      }, "\(plan.warnings)")
  }

  @Test func goalBeyondAnyPlanNamesTheLongestPlan() throws {
    var goal = goal(.marathon, .intermediate, weeks: 16, recentRace: tenK45)
    goal.goalTimeSeconds = 2.5 * 3600
    #expect(
      refusal(goal)
        == "goal time 2:30:00 needs VDOT 66.3, your 10K (45:00) says 45.3: aim for 3:15:44, or race first and "
        + "plan again: it needs 106 weeks, more than the 40 a plan can have")
  }

  @Test func slowerGoalThanTheRaceIsAllowedWithAWarningAndPacesFollowTheGoal() throws {
    let plan = try makePlan(goal: try halfGoal("1:50:00", recentRace: tenK45), rules: repositoryRules)
    #expect(plan.goal.vdot == 40.4)
    #expect(plan.goal.vdotSource == .goalTime)
    #expect(plan.goal.predictedTimeSeconds == 6600)
    #expect(
      plan.warnings.contains(
        "your 10K (45:00) predicts 1:39:44 for the half marathon: the goal 1:50:00 is slower (VDOT 40.4 against "
          + "45.3), so the paces follow the goal"))
  }

  @Test func implausibleGoalTimesAreRefusedWithTheAllowedRange() throws {
    for time in ["50:00", "4:00:00"] {
      #expect(
        refusal(try halfGoal(time))
          == "goal time: \(time) is out of range for a half marathon, allowed is 57:17 (the world records' level) "
          + "to 3:30:58 (a brisk walk); check the time (h:mm:ss or m:ss)")
    }
  }

  @Test func planJSONCarriesTheGoalTimeTheVDOTAndItsSource() throws {
    let plan = try makePlan(goal: try halfGoal("1:50:00"), rules: repositoryRules)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let json = String(decoding: try encoder.encode(plan.goal), as: UTF8.self)
    #expect(json.contains(#""goal_time_s":6600"#))
    #expect(json.contains(#""vdot":40.4"#))
    #expect(json.contains(#""vdot_source":"goal-time""#))
    #expect(json.contains(#""predicted_time_s":6600"#))
    // Without a race or a goal time: the level's estimate, no prediction.
    let plain = try makePlan(goal: goal(.half, .intermediate, weeks: 12), rules: repositoryRules)
    #expect(plain.goal.vdotSource == .levelEstimate)
    #expect(plain.goal.predictedTimeSeconds == nil)
    #expect(!String(decoding: try encoder.encode(plain.goal), as: UTF8.self).contains("goal_time_s"))
  }

  @Test func aGoalSavedBeforeGoalTimesDecodesAndKeepsItsPlanID() throws {
    let old = Data(
      #"{"distance":"half","level":"intermediate","timeline":{"start":"2027-01-04","raceDate":"2027-03-28","weeks":12}}"#
        .utf8)
    let decoded = try JSONDecoder().decode(Goal.self, from: old)
    #expect(decoded.goalTimeSeconds == nil)
    #expect(decoded == goal(.half, .intermediate, weeks: 12))
    // Written again as before: no goal-time key.
    #expect(!String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self).contains("goalTime"))
    var timed = decoded
    timed.goalTimeSeconds = 6600
    let back = try JSONDecoder().decode(Goal.self, from: try JSONEncoder().encode(timed))
    #expect(back.goalTimeSeconds == 6600)
    #expect(try makePlan(goal: timed, rules: repositoryRules).id != makePlan(goal: decoded, rules: repositoryRules).id)
  }

  @Test func plansWithoutAGoalTimeKeepTheirIDs() throws {
    // The README tour's plan (`--weeks 10 --now 2026-11-21 --recent-race 5k=27:30`), id as written before goal times.
    let start = try #require(CivilDate(iso: "2026-11-23"))
    let goal = Goal(
      distance: .tenK, level: .beginner, timeline: Timeline(start: start, raceDate: start.adding(days: 69), weeks: 10),
      recentRace: RecentRace(distanceKm: 5, timeSeconds: 27.5 * 60))
    #expect(try makePlan(goal: goal, rules: repositoryRules).id == "rm-3d53ddd3847cb435")
  }

  @Test func aResolvedGoalSavedBeforeVDOTSourcesTellsItsSource() throws {
    let withRace = Data(
      (#"{"distance":"10k","distance_km":10,"level":"beginner","weeks":10,"start":"2026-11-23","#
        + #""race_date":"2027-01-31","runs_per_week":4,"current_weekly_km":15,"longest_recent_run_km":5,"#
        + #""vdot":34.2,"predicted_time_s":3428}"#).utf8)
    let race = try JSONDecoder().decode(ResolvedGoal.self, from: withRace)
    #expect(race.vdotSource == .recentRace)
    #expect(race.goalTimeSeconds == nil)
    let withoutRace = Data(
      (#"{"distance":"10k","distance_km":10,"level":"beginner","weeks":10,"start":"2026-11-23","#
        + #""race_date":"2027-01-31","runs_per_week":4,"current_weekly_km":15,"longest_recent_run_km":5}"#).utf8)
    #expect(try JSONDecoder().decode(ResolvedGoal.self, from: withoutRace).vdotSource == .levelEstimate)
  }
}
