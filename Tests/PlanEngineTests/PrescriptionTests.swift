import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing

// Session prescriptions as a coach writes them, over every distance × level × plan length × runs per week (3–7),
// with and without a recent race: whole reps (100 m, minutes, 10 s) of the template's length, whole-minute tempo
// blocks, hills by effort, warm-up and cool-down on quality days that add up to the day's distance, and race-day
// guidance per distance with splits at the race pace the runner's VDOT predicts.
//
// Like PlanInvariantTests, the checks read only the public plan and the repository's templates; the race times
// come from Daniels and Gilbert's formulas implemented here, checked against Daniels' published VDOT 50 row.

// MARK: - An independent VDOT race prediction

/// Oxygen cost of running at `v` m/min (Daniels and Gilbert).
private func oxygenCost(_ v: Double) -> Double { -4.60 + 0.182258 * v + 0.000104 * v * v }

/// The share of VO2max sustainable for `t` minutes.
private func sustainable(_ t: Double) -> Double {
  0.8 + 0.1894393 * exp(-0.012778 * t) + 0.2989558 * exp(-0.1932605 * t)
}

/// VDOT of a race of `meters` in `seconds`.
private func vdot(meters: Double, seconds: Double) -> Double {
  let minutes = seconds / 60
  return oxygenCost(meters / minutes) / sustainable(minutes)
}

/// The time, seconds, a runner of `value` VDOT runs `meters` in (bisection on the time).
private func predictedSeconds(vdot value: Double, meters: Double) -> Double {
  var low = 1.0
  var high = 1_000.0
  for _ in 0..<200 {
    let mid = (low + high) / 2
    if oxygenCost(meters / mid) / sustainable(mid) > value { low = mid } else { high = mid }
  }
  return (low + high) / 2 * 60
}

// MARK: - Reading a plan

/// The library template a session was made from: its description names it ("1 km intervals: raise VO2max.").
private func template(of workout: Workout) -> (id: String, template: WorkoutTemplate)? {
  repositoryRules.workouts.sorted { $0.key < $1.key }.first {
    workout.description.contains("\($0.value.name): \($0.value.purpose).")
  }.map { (id: $0.key, template: $0.value) }
}

/// `1:02:03` or `23:41` in seconds.
private func seconds(_ text: Substring) -> Double {
  text.split(separator: ":").reduce(0) { $0 * 60 + (Double($1) ?? .nan) }
}

/// The split marks and times of a race-day description: `5 km in 23:41 · … · 21.1 km in 1:39:56`.
private func splits(_ text: String) -> [(mark: Double, seconds: Double)] {
  let pattern = /(\d+(?:\.\d+)?) (?:km|mi) in (\d+(?::\d\d){1,2})/
  return text.matches(of: pattern).map { (mark: Double($0.output.1) ?? .nan, seconds: seconds($0.output.2)) }
}

/// A pace label `4:40/km` in seconds per unit.
private func paceSeconds(_ text: String) -> Double? {
  guard let match = text.firstMatch(of: /(\d+):(\d\d)\/(?:km|mi)/) else { return nil }
  return (Double(match.output.1) ?? .nan) * 60 + (Double(match.output.2) ?? .nan)
}

private func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-6) -> Bool { abs(a - b) <= tolerance }

// MARK: - The checks

/// Every problem with the sessions of `plan`, one line each.
private func prescriptionProblems(_ plan: Plan, goal: Goal, units: DistanceUnit) -> [String] {
  var out: [String] = []
  for week in plan.weeks {
    let sum = week.workouts.map(\.distanceKm).reduce(0, +)
    if !near(sum, week.plannedKm, 0.051) {
      out.append("week \(week.number): the days add up to \(sum), the week says \(week.plannedKm)")
    }
    for workout in week.workouts {
      let at = "week \(week.number) \(workout.slot) (\(workout.title))"
      let quality = workout.hard && workout.kind != .long && workout.kind != .race
      guard quality || workout.kind == .strides else { continue }
      guard let (id, template) = template(of: workout) else {
        out.append("\(at): no workouts.yaml template named in '\(workout.description)'")
        continue
      }
      guard let work = workout.steps.first(where: { $0.kind == .work }) else {
        out.append("\(at): no work step")
        continue
      }
      // Reps of whole 100 m of the template's own length, or whole minutes / 10 s.
      let single = template.reps.upper <= 1
      if let km = template.work.km {
        if !near(work.distanceKm * 10, (work.distanceKm * 10).rounded()) {
          out.append("\(at): a \(work.distanceKm) km bout is not whole 100 m")
        }
        if single {
          if !near(work.distanceKm * 2, (work.distanceKm * 2).rounded())
            || work.distanceKm > km.upper + 1e-9 || work.distanceKm < km.lower / 2 - 1e-9
          {
            out.append("\(at): a \(work.distanceKm) km block, \(id) allows half km from \(km.lower / 2) to \(km.upper)")
          }
        } else if km.lower == km.upper && !near(work.distanceKm, km.lower) {
          out.append("\(at): \(work.repeat) × \(work.distanceKm) km, but \(id) reps are \(km.lower) km")
        }
      } else if let minutes = template.work.minutes {
        if work.durationSeconds % 60 != 0 {
          out.append("\(at): a bout of \(work.durationSeconds) s, not whole minutes")
        }
        let low = single ? minutes.lower / 2 : minutes.lower
        if Double(work.durationSeconds) < low * 60 - 1e-9 || Double(work.durationSeconds) > minutes.upper * 60 + 1e-9 {
          out.append("\(at): a bout of \(work.durationSeconds) s, \(id) allows \(low)-\(minutes.upper) min")
        }
      } else if let secs = template.work.seconds {
        if work.durationSeconds % 10 != 0 || Double(work.durationSeconds) < secs.lower - 1e-9
          || Double(work.durationSeconds) > secs.upper + 1e-9
        {
          out.append("\(at): a bout of \(work.durationSeconds) s, \(id) allows \(secs.lower)-\(secs.upper) s")
        }
      }
      // Fewer reps, never shorter ones: down to half the template's fewest, at least 2.
      let fewest = single ? 1 : max(2, (Int(template.reps.lower) + 1) / 2)
      if work.repeat < fewest || Double(work.repeat) > template.reps.upper {
        out.append("\(at): \(work.repeat) reps, \(id) allows \(fewest)-\(Int(template.reps.upper))")
      }
      // Tempo blocks in whole minutes, in the title too (no "12:09 min").
      if template.zone == .threshold, template.work.minutes != nil, work.durationSeconds % 60 != 0 {
        out.append("\(at): a threshold block of \(work.durationSeconds) s")
      }
      if workout.title.contains(/\d+:\d\d min/) { out.append("\(at): a title with minutes and seconds") }
      // Recoveries: whole 15 s, and stated.
      if let recovery = workout.steps.first(where: { $0.kind == .recovery }) {
        if recovery.durationSeconds % 15 != 0 { out.append("\(at): a recovery of \(recovery.durationSeconds) s") }
        let stated =
          template.recoveryText.map { workout.description.contains($0) }
          ?? workout.description.contains(
            /, \d+(?::\d\d| min| s) easy jog between/)
        if !stated { out.append("\(at): the recovery is not stated in '\(workout.description)'") }
      } else if work.repeat > 1 {
        out.append("\(at): \(work.repeat) reps without a recovery")
      }
      // Hills by effort: no pace anywhere.
      if workout.kind == .hills {
        if work.pace != nil { out.append("\(at): hill reps with a pace \(work.pace ?? "")") }
        if workout.description.contains(/\d:\d\d\/(?:km|mi)/) || !workout.description.contains("uphill") {
          out.append("\(at): hills not by effort: '\(workout.description)'")
        }
      }
      // Warm-up and cool-down on quality days, as the template says; the day is their sum with the main set.
      guard quality else { continue }
      // No quality day much shorter than the minimum run of about 20 minutes (easy runs: PlanInvariantTests 10e,
      // with its exceptions). The smallest sessions (a 5-minute tempo, 2 × 2 min pickups in race week) with the
      // templates' 1.5 km warm-up and 1 km cool-down last 18 minutes for a fast runner.
      let minimum = repositoryRules.base.weekStructure.minRunMinutes * 0.9
      if Double(workout.durationMin) < minimum {
        out.append("\(at): \(workout.durationMin) minutes, under \(Int(minimum)) minutes")
      }
      let warm = workout.steps.filter { $0.kind == .warmup }
      let cool = workout.steps.filter { $0.kind == .cooldown }
      // At least the template's; more where the quality day carries the week's easy running too (a runner above
      // the template keeps their volume in warm-ups and cool-downs).
      if warm.count != 1 || cool.count != 1 || warm[0].distanceKm < template.warmupKm - 0.005
        || cool[0].distanceKm < template.cooldownKm - 0.005
      {
        out.append("\(at): warm-up \(warm.map(\.distanceKm)), cool-down \(cool.map(\.distanceKm))")
      }
      if let warm = warm.first, let cool = cool.first,
        !workout.description.hasPrefix("\(units.format(warm.distanceKm)) easy warm-up; ")
          || !workout.description.contains("; \(units.format(cool.distanceKm)) easy cool-down.")
      {
        out.append("\(at): warm-up or cool-down not stated in '\(workout.description)'")
      }
      let parts = workout.steps.map { $0.distanceKm * Double($0.repeat) }.reduce(0, +)
      let drift = 0.05 + 0.005 * Double(workout.steps.map(\.repeat).reduce(0, +))
      if !near(parts, workout.distanceKm, drift) {
        out.append("\(at): warm-up + main set + cool-down = \(parts) km, the day says \(workout.distanceKm)")
      }
    }
  }
  // Race day: splits at the predicted race pace.
  guard let race = plan.workouts.last, race.kind == .race else { return out + ["no race on the last day"] }
  let raceKm = goal.distance.kilometers
  let total = raceKm / units.kilometers
  if let recent = goal.recentRace {
    let expected = predictedSeconds(
      vdot: vdot(meters: recent.distanceKm * 1000, seconds: recent.timeSeconds), meters: raceKm * 1000)
    let marks = splits(race.description)
    if marks.count < 2 || !near(marks.last?.mark ?? 0, (total * 10).rounded() / 10, 1e-9) {
      out.append("race day: splits \(marks) do not end at the finish, \(total) \(units.rawValue)")
    }
    for (index, split) in marks.enumerated() {
      let mark = index == marks.count - 1 ? total : split.mark
      if !near(split.seconds, expected * mark / total, 1.5) {
        out.append(
          "race day: \(split.mark) \(units.rawValue) in \(split.seconds) s, expected \(expected * mark / total)")
      }
    }
    let pace = paceSeconds(race.description.components(separatedBy: "Pacing:").last ?? "")
    if pace.map({ !near($0, expected / total, 0.5 + 1e-9) }) ?? true {
      out.append("race day: pace \(pace ?? .nan) s per \(units.rawValue) in the pacing, expected \(expected / total)")
    }
  } else if race.description.contains(/\d:\d\d\/(?:km|mi)/) || !splits(race.description).isEmpty {
    out.append("race day: paces without a recent race: '\(race.description)'")
  }
  return out
}

/// The plan lengths and inputs the matrix covers for a distance and level.
private func goals(_ distance: RaceDistance, _ level: Level) -> [Goal] {
  guard let minimum = repositoryRules.rules(for: distance)?.minimumWeeks[level] else { return [] }
  var goals: [Goal] = []
  for weeks in minimum.absolute...(minimum.recommended + 6) {
    for runs in 3...7 {
      // Every other plan gets paces from a recent race (a 10K in 50:00 or a 5K in 19:57).
      let race =
        (weeks + runs) % 2 == 0
        ? nil
        : runs % 3 == 0 ? RecentRace(distanceKm: 5, timeSeconds: 1_197) : RecentRace(distanceKm: 10, timeSeconds: 3_000)
      goals.append(goal(distance, level, weeks: weeks, runs: runs, recentRace: race))
    }
  }
  return goals
}

@Suite("Prescriptions: sessions a coach would write")
struct PrescriptionTests {
  /// The independent prediction reproduces Daniels' published VDOT 50 row (5K 19:57, 10K 41:21, half 1:31:35,
  /// marathon 3:10:49), so the race-day checks below rest on the published tables.
  @Test func independentPredictionMatchesDanielsTable() {
    let value = vdot(meters: 5_000, seconds: 19 * 60 + 57)
    #expect(abs(value - 50) < 0.1, "\(value)")
    for (meters, published) in [(10_000.0, 41 * 60 + 21.0), (21_097.5, 5_495.0), (42_195, 11_449)] {
      let predicted = predictedSeconds(vdot: 50, meters: meters)
      #expect(abs(predicted - published) <= published * 0.002, "\(meters) m: \(predicted) s, published \(published)")
    }
  }

  @Test(arguments: RaceDistance.allCases, Level.allCases)
  func everySessionIsWholeStatedAndAddsUp(distance: RaceDistance, level: Level) throws {
    var made = 0
    var failing: [String] = []
    for goal in goals(distance, level) {
      guard let plan = try? makePlan(goal: goal, rules: repositoryRules) else { continue }
      made += 1
      let problems = prescriptionProblems(plan, goal: goal, units: .km)
      if !problems.isEmpty {
        failing.append(
          "\(goal.timeline.weeks) weeks, \(goal.runsPerWeek ?? 0) runs: " + problems.prefix(3).joined(separator: "; "))
      }
    }
    #expect(made >= 10, "only \(made) plans made")
    #expect(failing.isEmpty, "\(failing.count) plans: \(failing.prefix(3).joined(separator: "\n"))")
  }

  /// Miles change the words (and split every mile or few miles), never the prescription.
  @Test(arguments: RaceDistance.allCases)
  func milePlansKeepWholePrescriptions(distance: RaceDistance) throws {
    let race = RecentRace(distanceKm: 5, timeSeconds: 19 * 60 + 57)
    for level in Level.allCases {
      guard let weeks = repositoryRules.rules(for: distance)?.minimumWeeks[level].recommended else { continue }
      let goal = goal(distance, level, weeks: weeks, recentRace: race)
      let plan = try makePlan(goal: goal, rules: repositoryRules, units: .mi)
      let problems = prescriptionProblems(plan, goal: goal, units: .mi)
      #expect(problems.isEmpty, "\(level): \(problems.prefix(3))")
    }
  }

  /// Race day differs per distance: its own warm-up and pacing; fuelling for the half and the marathon only. A
  /// runner of VDOT 50 (5K in 19:57) gets Daniels' published times as the finish split.
  @Test func raceDayGuidanceIsPerDistance() throws {
    let race = RecentRace(distanceKm: 5, timeSeconds: 19 * 60 + 57)
    let published: [RaceDistance: Double] = [.fiveK: 1_197, .tenK: 2_481, .half: 5_495, .marathon: 11_449]
    var guidance: [String: RaceDistance] = [:]
    for distance in RaceDistance.allCases {
      guard let weeks = repositoryRules.rules(for: distance)?.minimumWeeks[.intermediate].recommended else {
        continue
      }
      let plan = try makePlan(
        goal: goal(distance, .intermediate, weeks: weeks, recentRace: race), rules: repositoryRules)
      let day = try #require(plan.workouts.last)
      #expect(day.kind == .race)
      let text = day.description
      for part in ["Warm-up: ", "Pacing: "] { #expect(text.contains(part), "\(distance): \(text)") }
      let fuelled = distance == .half || distance == .marathon
      #expect(
        !fuelled || text.contains("g of carbohydrate per hour"), "\(distance) without carbohydrate: \(text)")
      #expect(distance != .marathon || (text.contains("gel every 30-40 minutes") && text.contains("do not bank time")))
      if let time = published[distance] {
        let finish = try #require(splits(text).last)
        #expect(abs(finish.seconds - time) <= time * 0.002, "\(distance): finish \(finish.seconds), published \(time)")
      }
      // The guidance without the numbers and the distance's name: one text per template family.
      let words =
        text.replacing(/[\d:.]+/, with: "#").replacingOccurrences(of: distance.displayName, with: "")
        .components(separatedBy: "Warm-up:").last ?? ""
      if let other = guidance[words], other.templateName != distance.templateName {
        Issue.record("\(distance) has the race-day text of \(other)")
      }
      guidance[words] = distance
    }
    #expect(Set(guidance.values.map(\.templateName)).count == 5, "\(guidance.values)")
  }

  /// Without a recent race, race day paces by effort, and no session shows a pace.
  @Test func withoutARaceEverythingIsByEffort() throws {
    for distance in RaceDistance.allCases {
      let plan = try makePlan(goal: goal(distance, .intermediate, weeks: 16), rules: repositoryRules)
      for workout in plan.workouts {
        #expect(!workout.description.contains(/\d:\d\d\/km/), "\(workout.title): \(workout.description)")
      }
      let day = try #require(plan.workouts.last)
      #expect(day.description.contains("Pacing: start at goal race effort"), "\(day.description)")
    }
  }

  /// The review's examples: "1 km intervals" stayed 3 × 700 m, a tempo ran 12:09 minutes, hills had a road pace.
  @Test func reviewExamplesAreWhole() throws {
    let plan = try makePlan(
      goal: goal(.tenK, .intermediate, weeks: 12, recentRace: RecentRace(distanceKm: 5, timeSeconds: 22 * 60 + 30)),
      rules: repositoryRules)
    let intervals = plan.workouts.filter { $0.description.contains("1 km intervals:") }
    #expect(!intervals.isEmpty)
    for workout in intervals { #expect(workout.title.hasSuffix("× 1 km"), "\(workout.title)") }
    let hills = try #require(plan.workouts.first { $0.kind == .hills })
    // Hill repeats at the level's floor at least (6 for intermediates), never a 2 × 60 s token session.
    let floor = repositoryRules.base.levels.intermediate.sessionFloors.hillReps
    #expect(
      hills.description.contains(/[6-8] × 60 s uphill at hard effort \(about 5K effort\)/) && floor == 6,
      "\(hills.description)")
    #expect(hills.description.contains("jog back down"), "\(hills.description)")
    let tempo = try #require(plan.workouts.first { $0.description.contains("Tempo run:") })
    #expect(tempo.title.contains(/: \d+ min/), "\(tempo.title)")
  }

  /// Race-day text is checked when the templates load: an unknown placeholder, a pace in text shown without paces,
  /// an unclosed brace, and an effort-only session without its effort words are errors naming file and key.
  @Test(arguments: [
    (
      "marathon.yaml", "do not bank time, it costs", "do not bank {time}, it costs",
      "raceDay.pacing: the placeholder '{time}'"
    ),
    ("5k.yaml", "start at {effort}; the first", "start at {racePace}; the first", "raceDay.pacingByEffort"),
    ("half.yaml", "halfway in {halfTime}", "halfway in {halfTime", "raceDay.pacing"),
    ("workouts.yaml", "    effort: hard effort", "    # effort: hard effort", "workouts.hills.effort: none is wrong"),
  ])
  func badTemplateTextIsRefused(file: String, from: String, to: String, expected: String) throws {
    var files = try templateFiles()
    let index = try #require(files.firstIndex { $0.name.hasSuffix("/" + file) })
    #expect(files[index].text.contains(from))
    files[index].text = files[index].text.replacingOccurrences(of: from, with: to)
    #expect {
      _ = try PlanRules(files: files)
    } throws: { error in
      "\(error)".contains("plan-templates/\(file): \(expected)")
    }
  }
}
