import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing

/// Cross-training and strength days (`--cross-training N`, `--strength N`): placed on days without a run, by the
/// rules of `base.yaml` `extraDays`, without changing a single run.
@Suite("ExtraDays: cross-training and strength days")
struct ExtraDayTests {
  /// A goal with `cross` cross-training and `strength` strength days a week.
  static func extras(_ base: Goal, cross: Int, strength: Int) -> Goal {
    var goal = base
    goal.crossTrainingPerWeek = cross
    goal.strengthPerWeek = strength
    return goal
  }

  /// The asks tried on every base plan: one of each, two of each, and two of each kind alone.
  static let asks: [(cross: Int, strength: Int)] = [(1, 1), (2, 2), (0, 2), (2, 0)]

  /// The base goals: every distance × level × 3–6 runs a week, at the recommended length.
  static var baseGoals: [Goal] {
    var goals: [Goal] = []
    for distance in RaceDistance.allCases {
      for level in Level.allCases {
        guard let weeks = repositoryRules.rules(for: distance)?.minimumWeeks[level].recommended else { continue }
        for runs in 3...6 { goals.append(goal(distance, level, weeks: weeks, runs: runs)) }
      }
    }
    return goals
  }

  /// A run as the plan shows it, without the plan id in its workout id (the id changes with the extras).
  struct RunShape: Hashable {
    var slot: String
    var date: CivilDate
    var kind: WorkoutKind
    var km: Double
    var minutes: Int
    var title: String
    var description: String
    var steps: [WorkoutStep]

    init(_ workout: Workout) {
      slot = workout.slot
      date = workout.date
      kind = workout.kind
      km = workout.distanceKm
      minutes = workout.durationMin
      title = workout.title
      description = workout.description
      steps = workout.steps
    }
  }

  @Test func runsAreUnchangedAndExtrasFollowTheRules() throws {
    let rules = repositoryRules.base.extraDays
    var checkedPlans = 0
    var shortWeeks = 0
    for base in Self.baseGoals {
      // Some runs-per-week are refused at the level's default volume: those goals have no plan to compare.
      guard let plain = try? makePlan(goal: base, rules: repositoryRules) else { continue }
      #expect(plain.workouts.allSatisfy { $0.kind.isRun })
      let hardDays = Set(plain.workouts.filter(\.hard).map(\.date.dayNumber))
      for ask in Self.asks {
        let plan = try makePlan(
          goal: Self.extras(base, cross: ask.cross, strength: ask.strength), rules: repositoryRules)
        let label = "\(base.distance.rawValue) \(base.level.rawValue) \(base.runsPerWeek ?? 0) runs \(ask)"
        checkedPlans += 1
        #expect(plan.id != plain.id, "\(label): the id must tell the plans apart")
        #expect(plan.goal.crossTrainingPerWeek == ask.cross && plan.goal.strengthPerWeek == ask.strength)
        #expect(plan.warnings == plain.warnings, "\(label)")
        #expect(plan.weeks.count == plain.weeks.count)
        for (week, before) in zip(plan.weeks, plain.weeks) {
          let place = "\(label) week \(week.number)"
          // Running: the same runs, the same volume, the same "why" lines (extras only add lines after them).
          #expect(week.plannedKm == before.plannedKm, "\(place)")
          #expect(week.targetKm == before.targetKm, "\(place)")
          #expect(
            week.workouts.filter { $0.kind.isRun }.map { RunShape($0) } == before.workouts.map { RunShape($0) },
            "\(place)")
          #expect(Array(week.rules.prefix(before.rules.count)) == before.rules, "\(place)")
          let km: Double = week.workouts.reduce(0) { $0 + $1.distanceKm }
          let kmBefore: Double = before.workouts.reduce(0) { $0 + $1.distanceKm }
          #expect(km == kmBefore, "\(place)")

          let extras = week.workouts.filter { !$0.kind.isRun }
          let strength = extras.filter { $0.kind == .strength }
          let cross = extras.filter { $0.kind == .crossTraining }
          #expect(strength.count + cross.count == extras.count)
          if week.phase == .race {
            #expect(extras.isEmpty, "\(place): nothing besides running in race week")
            continue
          }
          // Only on days without a run, inside the week, one a day.
          let runDays = Set(before.workouts.map(\.date.dayNumber))
          let weekDays = Set((0..<7).map { week.start.dayNumber + $0 })
          #expect(extras.allSatisfy { !runDays.contains($0.date.dayNumber) }, "\(place): on a run day")
          #expect(extras.allSatisfy { weekDays.contains($0.date.dayNumber) }, "\(place): outside the week")
          #expect(Set(extras.map(\.date)).count == extras.count, "\(place): two on one day")
          // Strength never on the day before a hard day (this week's or the next).
          for workout in strength {
            #expect(!hardDays.contains(workout.date.dayNumber + 1), "\(place): strength on \(workout.date)")
          }
          // Minutes, not kilometres; the phase's minutes from the rules.
          for workout in extras {
            let kind = workout.kind == .strength ? rules.strength : rules.crossTraining
            #expect(workout.distanceKm == 0 && !workout.hard)
            #expect(workout.durationMin == kind.minutes[week.phase] && (15...60).contains(workout.durationMin))
            #expect(workout.title == "\(workout.kind.displayName) \(workout.durationMin) min")
            #expect(workout.description.contains("\(workout.durationMin) min"))
          }
          // N respected when the free days allow it, otherwise a "why" line says how many fit.
          let free = weekDays.subtracting(runDays)
          let strengthDays = free.filter { !hardDays.contains($0 + 1) }
          let wantStrength = min(ask.strength, strengthDays.count)
          #expect(strength.count == wantStrength, "\(place): \(strength.count) strength days")
          let wantCross = min(ask.cross, free.count - strength.count)
          #expect(cross.count == wantCross, "\(place): \(cross.count) cross-training days")
          if wantStrength < ask.strength {
            shortWeeks += 1
            #expect(
              week.rules.contains { $0.hasPrefix("Strength \(wantStrength) of \(ask.strength):") }, "\(place)")
          }
          if wantCross < ask.cross {
            shortWeeks += 1
            #expect(
              week.rules.contains { $0.hasPrefix("Cross-training \(wantCross) of \(ask.cross):") }, "\(place)")
          }
          if !extras.isEmpty {
            #expect(week.rules.contains { $0.hasPrefix("Besides running:") }, "\(place)")
          }
        }
      }
    }
    #expect(checkedPlans >= Self.baseGoals.count * Self.asks.count / 2, "\(checkedPlans) plans")
    #expect(shortWeeks > 0, "the matrix should hold weeks with too few free days (6 runs a week)")
  }

  /// Plans without the options keep their ids (so saved plans, UIDs and examples stay the same), and the options
  /// enter the id only when asked for.
  @Test func idsOfPlansWithoutExtrasAreUnchanged() throws {
    let base = goal(.half, .intermediate, weeks: 12)
    let plain = try makePlan(goal: base, rules: repositoryRules)
    let zero = try makePlan(goal: Self.extras(base, cross: 0, strength: 0), rules: repositoryRules)
    #expect(plain.id == zero.id)
    // The README tour and examples/ were generated before these options existed: this plan's id is in them.
    let example = try String(
      contentsOf: repositoryRoot.appendingPathComponent("examples/half-advanced/plan.out"), encoding: .utf8)
    // examples/half-advanced/plan.cmd: --weeks 14 --recent-race half=1:32:00 --runs-per-week 6 --now 2026-11-21.
    let start = try #require(CivilDate(iso: "2026-11-23"))
    let advanced = try makePlan(
      goal: Goal(
        distance: .half, level: .advanced,
        timeline: Timeline(start: start, raceDate: start.adding(days: 7 * 14 - 1), weeks: 14), runsPerWeek: 6,
        recentRace: RecentRace(distanceKm: RaceDistance.half.kilometers, timeSeconds: 5_520)),
      rules: repositoryRules)
    #expect(example.contains("id \(advanced.id)"), "\(example.prefix(200))")
    let one = try makePlan(goal: Self.extras(base, cross: 1, strength: 0), rules: repositoryRules)
    let other = try makePlan(goal: Self.extras(base, cross: 0, strength: 1), rules: repositoryRules)
    #expect(Set([plain.id, one.id, other.id]).count == 3)
  }

  /// The plan JSON: the goal says how many were asked for only when some were; a plan written without the fields
  /// reads back as 0, and a goal too.
  @Test func theFieldsAreAdditive() throws {
    let base = goal(.tenK, .beginner, weeks: 10)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let plain = String(decoding: try encoder.encode(try makePlan(goal: base, rules: repositoryRules)), as: UTF8.self)
    #expect(!plain.contains("cross_training") && !plain.contains("strength_per_week"))
    let with = try makePlan(goal: Self.extras(base, cross: 1, strength: 2), rules: repositoryRules)
    let text = String(decoding: try encoder.encode(with), as: UTF8.self)
    #expect(text.contains("\"cross_training_per_week\":1") && text.contains("\"strength_per_week\":2"))
    #expect(try JSONDecoder().decode(Plan.self, from: Data(text.utf8)) == with)
    let old = try JSONDecoder().decode(Plan.self, from: Data(plain.utf8))
    #expect(old.goal.crossTrainingPerWeek == 0 && old.goal.strengthPerWeek == 0)

    let goalText =
      #"{"distance":"5k","level":"beginner","timeline":{"start":"2027-01-04","raceDate":"2027-02-28","weeks":8}}"#
    let decoded = try JSONDecoder().decode(Goal.self, from: Data(goalText.utf8))
    #expect(decoded.crossTrainingPerWeek == 0 && decoded.strengthPerWeek == 0 && decoded.runsPerWeek == nil)
    let again = try JSONDecoder().decode(
      Goal.self, from: try JSONEncoder().encode(Self.extras(decoded, cross: 2, strength: 1)))
    #expect(again.crossTrainingPerWeek == 2 && again.strengthPerWeek == 1)
  }

  /// Six runs a week leave one free day; with strength asked twice, one or none fits, and the week says so.
  @Test func tooFewFreeDaysAreSaid() throws {
    let plan = try makePlan(
      goal: Self.extras(goal(.marathon, .advanced, weeks: 18, runs: 6), cross: 0, strength: 2), rules: repositoryRules)
    let week = try #require(plan.weeks.first)
    let strength = week.workouts.filter { $0.kind == .strength }
    #expect(strength.count < 2)
    #expect(week.rules.contains { $0.hasPrefix("Strength \(strength.count) of 2: the week has") }, "\(week.rules)")
  }

  @Test func outOfRangeCountsAreRefused() throws {
    let base = goal(.fiveK, .beginner, weeks: 8)
    #expect(throws: PlanError.self) {
      try makePlan(goal: Self.extras(base, cross: 3, strength: 0), rules: repositoryRules)
    }
    do {
      _ = try makePlan(goal: Self.extras(base, cross: 0, strength: -1), rules: repositoryRules)
      Issue.record("a negative count was accepted")
    } catch {
      #expect("\(error)".hasPrefix("strength: "), "\(error)")
      #expect("\(error)".contains("0–2"), "\(error)")
    }
  }

  /// The template rules are validated: race week keeps 0 minutes, the text has its placeholder.
  @Test(arguments: [
    (
      "minutes: {base: 30, build: 35, peak: 45, taper: 30, race: 0}",
      "minutes: {base: 30, build: 35, peak: 45, taper: 30, race: 20}", "extraDays.crossTraining.minutes.race"
    ),
    (
      "minutes: {base: 25, build: 25, peak: 25, taper: 20, race: 0}",
      "minutes: {base: 25, build: 125, peak: 25, taper: 20, race: 0}", "extraDays.strength.minutes.build"
    ),
    ("text: \"Strength {minutes} min:", "text: \"Strength min:", "extraDays.strength.text"),
    ("maxPerWeek: 2", "maxPerWeek: 9", "extraDays.maxPerWeek"),
  ])
  func brokenRulesAreRefused(_ change: (String, String, String)) throws {
    var files = try templateFiles()
    let index = try #require(files.firstIndex { $0.name.hasSuffix("base.yaml") })
    #expect(files[index].text.contains(change.0))
    files[index].text = files[index].text.replacingOccurrences(of: change.0, with: change.1)
    do {
      _ = try PlanRules(files: files)
      Issue.record("accepted: \(change.1)")
    } catch {
      #expect("\(error)".contains(change.2), "\(error)")
    }
  }
}
