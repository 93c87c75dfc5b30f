import Foundation
import PlanEngine
import RunMateTestSupport
import Testing

// Property tests for the plan engine: every plan the engine is willing to make, over the whole input space,
// must obey the training rules (shared/guide/training-rules.md) with the numbers of plan-templates/.
//
// The checker is independent of the engine: it reads only the public `Plan` value (weeks, workouts, steps,
// resolved goal), the `Goal` that was asked for, and the public `repositoryRules` numbers. It never calls an
// engine internal (no `@testable import`), so a bug in a rule cannot hide itself by being used to check itself.
//
// Each violation is one line, tagged with its invariant (`[2 ramp] week 5: …`) so that failures can be counted
// per invariant. Each test case reports its first three failing plans in full and a summary with the number of
// failing plans per invariant. For more, set PLAN_INVARIANT_VERBOSE=1 (plans checked, refused and failing per
// test case) or PLAN_INVARIANT_DUMP=1 (every violation of every plan, one line each, prefixed
// `[PlanInvariantDump] <inputs> |`).

// MARK: - The checker

/// Rounding tolerance for kilometres (plan numbers are rounded to 0.1 km).
private let kmTolerance = 0.05

/// The guide's second intensity check, "easy time ≥ 80 % over the build phase" (training-rules.md,
/// Intensity). plan-templates/base.yaml has no key for it (only the per-week `minEasyTimeFraction`), so the
/// guide's number is used here.
private let buildPhaseEasyFraction = 0.80

private func fmt(_ x: Double) -> String { String(format: "%.2f", x) }

/// Rounds to one decimal (the plan's rounding of race distances).
private func tenth(_ x: Double) -> Double { (x * 10).rounded() / 10 }

/// Phase order: base* build* peak* taper* race.
private func phaseRank(_ phase: Phase) -> Int {
  switch phase {
  case .base: 0
  case .build: 1
  case .peak: 2
  case .taper: 3
  case .race: 4
  }
}

private func isTaperOrRace(_ week: Week) -> Bool { week.phase == .taper || week.phase == .race }

/// Work time of a step: one repetition's seconds × repetitions.
private func seconds(_ step: WorkoutStep) -> Int { step.durationSeconds * step.repeat }

/// How far a workout's published distance can be from the distance the rules computed, because each step's
/// distance is rounded to 0.1 km per repetition and the total is the sum of the rounded steps: 0.05 km per
/// repetition of each step, plus 0.05 for the total. A single-step run rounded once drifts at most 0.05 km.
/// Used only to annotate violations, never to excuse them.
private func roundingDrift(_ workout: Workout) -> Double {
  let repetitions = workout.steps.map(\.repeat).reduce(0, +)
  return repetitions <= 1 ? 0.05 : 0.05 * Double(repetitions) + 0.05
}

private func roundingDrift(_ week: Week) -> Double { week.workouts.map(roundingDrift).reduce(0, +) }

/// Tags a violation "(rounding drift)" when its excess is no larger than the possible rounding drift, so the
/// report separates rule bugs from the step-rounding inconsistency of the published numbers.
private func tag(_ base: String, excess: Double, drift: Double) -> String {
  excess <= drift + 1e-9 ? "\(base) (rounding drift)" : base
}

private func driftNote(_ excess: Double, _ drift: Double) -> String {
  " [excess \(fmt(excess)) km, rounding drift up to \(fmt(drift)) km]"
}

/// Every rule of the training guide the plan can be checked against, as human-readable violations.
/// An empty array means the plan obeys every invariant.
func violations(of plan: Plan, goal: Goal) -> [String] {
  var out: [String] = []
  func fail(_ tag: String, _ text: String) { out.append("[\(tag)] \(text)") }

  let rules = repositoryRules
  let base = rules.base
  guard let distanceRules = rules.rules(for: goal.distance) else {
    return ["[setup] no template rules for \(goal.distance.rawValue)"]
  }
  let levelRules = distanceRules.levels[goal.level]
  let resolved = plan.goal
  let weeks = plan.weeks
  let raceKm = goal.distance.kilometers
  let runs = resolved.runsPerWeek
  let every = base.cutback.every[goal.level]
  let lookback = base.longRun.spikeLookbackWeeks

  /// Cut-back by the rule, not by the engine's flag: n % every == 0, n > 1, not in taper or race week.
  // The week right before the taper is no cut-back week when base.yaml says so: the taper is the recovery.
  let firstTaperWeek = weeks.first(where: isTaperOrRace)?.number ?? Int.max
  func ruleCutback(_ week: Week) -> Bool {
    week.number > 1 && week.number % every == 0 && !isTaperOrRace(week)
      && !(base.cutback.skipBeforeTaper && week.number == firstTaperWeek - 1)
  }

  // 0. The resolved goal is the goal that was asked for.
  if resolved.distance != goal.distance || resolved.level != goal.level || resolved.weeks != goal.timeline.weeks
    || resolved.start != goal.timeline.start || resolved.raceDate != goal.timeline.raceDate
  {
    fail(
      "0 goal",
      "resolved goal \(resolved.distance.rawValue)/\(resolved.level.rawValue)/\(resolved.weeks)w "
        + "\(resolved.start)…\(resolved.raceDate) differs from the goal \(goal.distance.rawValue)/"
        + "\(goal.level.rawValue)/\(goal.timeline.weeks)w \(goal.timeline.start)…\(goal.timeline.raceDate)")
  }
  if let asked = goal.runsPerWeek, asked != resolved.runsPerWeek {
    fail("0 goal", "runs per week \(resolved.runsPerWeek), asked for \(asked)")
  }
  if let asked = goal.currentWeeklyKm, abs(asked - resolved.currentWeeklyKm) > 1e-9 {
    fail("0 goal", "current weekly km \(fmt(resolved.currentWeeklyKm)), asked for \(fmt(asked))")
  }
  if let asked = goal.longestRecentRunKm, abs(asked - resolved.longestRecentRunKm) > 1e-9 {
    fail("0 goal", "longest recent run \(fmt(resolved.longestRecentRunKm)), asked for \(fmt(asked))")
  }
  if abs(resolved.distanceKm - raceKm) > 1e-9 {
    fail("0 goal", "resolved race distance \(resolved.distanceKm), expected \(raceKm)")
  }

  // 1. Calendar, the race, ids, weekly sums.
  if weeks.count != goal.timeline.weeks {
    fail("1 calendar", "\(weeks.count) weeks, expected \(goal.timeline.weeks)")
  }
  for (index, week) in weeks.enumerated() {
    if week.number != index + 1 { fail("1 calendar", "week at index \(index) has number \(week.number)") }
    let start = goal.timeline.start.adding(days: 7 * index)
    if week.start != start { fail("1 calendar", "week \(week.number) starts \(week.start), expected \(start)") }
    for workout in week.workouts {
      let offset = week.start.days(to: workout.date)
      if !(0...6).contains(offset) {
        fail(
          "1 calendar", "week \(week.number): \(workout.id) on \(workout.date) is outside the week from \(week.start)")
      }
    }
  }
  let all = plan.workouts
  for (previous, next) in zip(all, all.dropFirst()) where !(previous.date < next.date) {
    fail(
      "1 calendar",
      "workouts not in strictly increasing date order: \(previous.id) \(previous.date), "
        + "\(next.id) \(next.date)")
  }
  let races = all.filter { $0.kind == .race }
  if races.count != 1 { fail("1 race", "\(races.count) race workouts, expected exactly 1") }
  if let last = all.last {
    if last.kind != .race { fail("1 race", "the last workout \(last.id) is \(last.kind.rawValue), not the race") }
    if last.date != goal.timeline.raceDate {
      fail("1 race", "the last workout \(last.id) is on \(last.date), race day is \(goal.timeline.raceDate)")
    }
    if last.kind == .race && abs(last.distanceKm - tenth(raceKm)) > 1e-6 {
      fail("1 race", "race distance \(fmt(last.distanceKm)) km, expected \(fmt(tenth(raceKm)))")
    }
  } else {
    fail("1 race", "the plan has no workouts")
  }
  var ids = Set<String>()
  for week in weeks {
    let sum = week.workouts.map(\.distanceKm).reduce(0, +)
    if abs(sum - week.plannedKm) > kmTolerance {
      fail("1 sums", "week \(week.number): plannedKm \(fmt(week.plannedKm)) but the workouts sum to \(fmt(sum))")
    }
    for workout in week.workouts {
      let expected = "\(plan.id)-w\(week.number < 10 ? "0" : "")\(week.number)-\(workout.slot)"
      if workout.id != expected { fail("1 ids", "week \(week.number): id \(workout.id), expected \(expected)") }
      if !ids.insert(workout.id).inserted { fail("1 ids", "duplicate workout id \(workout.id)") }
      if workout.hard != workout.kind.isHard {
        fail("1 hard flag", "\(workout.id): kind \(workout.kind.rawValue) but hard = \(workout.hard)")
      }
      if workout.kind != .race && workout.distanceKm < base.volume.minRunKm - kmTolerance {
        fail(
          "1 min run",
          "week \(week.number): \(workout.id) is \(fmt(workout.distanceKm)) km, under the "
            + "\(fmt(base.volume.minRunKm)) km minimum run")
      }
    }
    // At most the runs per week asked for (a small week may drop an easy run rather than run under the minimum).
    if !(1...runs).contains(week.workouts.count) {
      fail(
        "1 runs",
        "week \(week.number) (\(week.phase.rawValue)): \(week.workouts.count) workouts, "
          + "runs per week is \(runs)")
    }
  }

  // 2. Ramp (and never past the level's peak volume); 4. cut-back weeks.
  let volume = base.volume
  // The level's peak, the runner's volume, or at many runs a week (base.yaml `longRun.manyRunsFrom`) the week its
  // shortest useful long run fits in at `manyRunsCapOfWeek` (the distance's own share first), rounded up to half a km.
  var peakVolume = max(levelRules.peakWeeklyKm, resolved.currentWeeklyKm)
  if let from = base.longRun.manyRunsFrom, runs >= from,
    let share = distanceRules.longRun.manyRunsCapOfWeek ?? base.longRun.manyRunsCapOfWeek
  {
    let fitting = min(distanceRules.longRun.minUsefulKm, levelRules.peakLongRunKm.lower) / share
    peakVolume = max(peakVolume, (fitting * 2 - 1e-9).rounded(.up) / 2)
  }
  var previousFull = resolved.currentWeeklyKm
  var previousName = "current weekly km"
  var previousDrift = 0.0
  for week in weeks {
    let expectedCutback = ruleCutback(week)
    if week.cutback != expectedCutback {
      fail(
        "4 cutback flag",
        "week \(week.number) (\(week.phase.rawValue)): cutback = \(week.cutback), expected "
          + "\(expectedCutback) (every \(every) weeks, never in taper/race); \(fmt(week.plannedKm)) km after "
          + "\(fmt(previousFull)) km (\(previousName))")
    }
    if isTaperOrRace(week) { continue }
    if week.plannedKm > peakVolume + kmTolerance {
      let excess = week.plannedKm - peakVolume
      fail(
        tag("2 peak volume", excess: excess, drift: roundingDrift(week)),
        "week \(week.number): "
          + "\(fmt(week.plannedKm)) km (target \(fmt(week.targetKm))) is over the peak volume \(fmt(peakVolume))"
          + driftNote(excess, roundingDrift(week)))
    }
    // A week whose cut-back flag is wrong is reported once, above, and checked neither as a cut-back week
    // nor as a full week (it does not become the reference of the ramp).
    if week.cutback != expectedCutback { continue }
    if expectedCutback {
      let limit = (base.cutback.volumeFactor + 0.05) * previousFull
      if week.plannedKm > limit + kmTolerance {
        let excess = week.plannedKm - limit
        let drift = roundingDrift(week) + (base.cutback.volumeFactor + 0.05) * previousDrift
        fail(
          tag("4 cutback volume", excess: excess, drift: drift),
          "week \(week.number): cut-back week "
            + "\(fmt(week.plannedKm)) km (target \(fmt(week.targetKm))) > (\(fmt(base.cutback.volumeFactor)) + 0.05) × "
            + "\(fmt(previousFull)) (\(previousName)) = \(fmt(limit))" + driftNote(excess, drift))
      }
      // The guide: "its long run returns to the length of two weeks earlier".
      if let long = week.workouts.first(where: { $0.kind == .long }), week.number > 2,
        let earlier = weeks[week.number - 3].workouts.first(where: { $0.kind == .long }),
        long.distanceKm > earlier.distanceKm + kmTolerance
      {
        fail(
          "4 cutback long",
          "week \(week.number): cut-back long run \(fmt(long.distanceKm)) km is longer than week "
            + "\(week.number - 2)'s \(fmt(earlier.distanceKm))")
      }
      continue
    }
    let increase = min(volume.maxIncreasePercent / 100 * previousFull, volume.maxIncreaseKmPerRun * Double(runs))
    if week.plannedKm > previousFull + increase + kmTolerance {
      let excess = week.plannedKm - previousFull - increase
      let drift = roundingDrift(week) + (1 + volume.maxIncreasePercent / 100) * previousDrift
      fail(
        tag("2 ramp", excess: excess, drift: drift),
        "week \(week.number): \(fmt(week.plannedKm)) km (target "
          + "\(fmt(week.targetKm))) > \(fmt(previousFull)) (\(previousName)) + \(fmt(increase))"
          + driftNote(excess, drift))
    }
    previousFull = week.plannedKm
    previousDrift = roundingDrift(week)
    previousName = "week \(week.number)"
  }

  // 3. Spike guard.
  let spikeFactor = base.longRun.spikeFactor
  for (index, week) in weeks.enumerated() {
    var window = weeks[max(0, index - lookback)..<index].flatMap(\.workouts).map(\.distanceKm)
    if index + 1 <= lookback { window.append(resolved.longestRecentRunKm) }
    let reference = window.max() ?? resolved.longestRecentRunKm
    // A run no longer than a third over the shortest run (20 minutes at easy pace) is never a spike: the long run
    // stays a third longer than the week's other runs even where 1.10 × a 3 km run would hold it under that.
    let neverSpike = base.weekStructure.minRunMinutes * base.longRun.minRatioToOtherRuns + 2
    for workout in week.workouts
    where workout.kind != .race
      && workout.distanceKm > spikeFactor * reference + kmTolerance && Double(workout.durationMin) > neverSpike
    {
      let excess = workout.distanceKm - spikeFactor * reference
      fail(
        tag("3 spike", excess: excess, drift: roundingDrift(workout)),
        "week \(week.number): \(workout.id) \(fmt(workout.distanceKm)) km > \(fmt(spikeFactor)) × "
          + "\(fmt(reference)) (longest of the previous \(lookback) weeks\(index + 1 <= lookback ? " and the recent run" : ""))"
          + driftNote(excess, roundingDrift(workout)))
    }
  }

  // 5. Long run.
  let ratio = base.longRun.minRatioToOtherRuns
  // The run/walk cap (marathon beginners, and runners too slow to run the race-ready long run: 4 hours), else the
  // distance's, else base.yaml's.
  let runWalkMinutes = distanceRules.longRun.runWalk.flatMap { rules in
    (try? easySecondsPerKm(goal)).map { runWalks(goal, easy: $0) } == true ? rules.maxMinutes : nil
  }
  let maxMinutes = runWalkMinutes ?? distanceRules.longRun.maxMinutes ?? base.longRun.maxMinutes
  var longest = 0.0
  for week in weeks {
    let longs = week.workouts.filter { $0.kind == .long }
    if week.phase != .race && longs.count != 1 {
      fail("5 long run", "week \(week.number) (\(week.phase.rawValue)): \(longs.count) long runs, expected 1")
    }
    if week.phase == .race && !longs.isEmpty {
      fail("5 long run", "race week \(week.number) has a long run besides the race")
    }
    for long in longs {
      longest = max(longest, long.distanceKm)
      for other in week.workouts
      where other.id != long.id
        && other.distanceKm > long.distanceKm / ratio + kmTolerance
      {
        let excess = other.distanceKm - long.distanceKm / ratio
        fail(
          tag("5 long ratio", excess: excess, drift: roundingDrift(other)),
          "week \(week.number): "
            + "\(other.slot) \(other.kind.rawValue) \(fmt(other.distanceKm)) km > long run \(fmt(long.distanceKm)) km / "
            + "\(fmt(ratio)) = \(fmt(long.distanceKm / ratio))" + driftNote(excess, roundingDrift(other)))
      }
      if Double(long.durationMin) > maxMinutes + 1 {
        fail(
          "5 long minutes",
          "week \(week.number): long run \(fmt(long.distanceKm)) km takes \(long.durationMin) "
            + "min, over \(Int(maxMinutes))")
      }
    }
  }
  // The table's peak long run, or the runner's own longest run, or the long run that lets the plan's runs carry its
  // peak volume while staying a third longer than each of them (the day before it, when the week has a run there, at
  // most `eveOfLongMaxOfLong` of it); or a third longer than the plan's shortest run.
  let eve = weeks.contains { week in
    guard let long = week.workouts.first(where: { $0.kind == .long }) else { return false }
    return week.workouts.contains { $0.kind.isRun && $0.date.days(to: long.date) == 1 }
  }
  let carries =
    peakVolume
    / (1 + Double(runs - 1 - (eve ? 1 : 0)) / ratio + (eve ? base.weekStructure.eveOfLongMaxOfLong : 0))
  let shortest = all.filter { $0.kind.isRun && $0.kind != .long && $0.kind != .race }.map(\.distanceKm).min() ?? 0
  let allowedLong = max(
    levelRules.peakLongRunKm.upper, plan.goal.longestRecentRunKm, (carries * 2 + 1e-9).rounded(.down) / 2,
    ratio * shortest + 0.1)
  if longest > allowedLong + kmTolerance {
    fail(
      "5 peak long",
      "longest long run \(fmt(longest)) km is over the table's \(fmt(levelRules.peakLongRunKm.upper)) (and the "
        + "runner's, \(fmt(allowedLong)))")
  }

  // 6. Never two hard days in a row, across weeks too.
  for (previous, next) in zip(all, all.dropFirst())
  where previous.hard && next.hard
    && previous.date.days(to: next.date) == 1
  {
    fail(
      "6 hard days",
      "\(previous.id) (\(previous.kind.rawValue), \(previous.date)) and \(next.id) "
        + "(\(next.kind.rawValue), \(next.date)) are hard days in a row")
  }

  // 7. Intensity.
  let intensity = base.intensity
  let allowed = Set(base.levels[goal.level].allowedKinds)
  // The medium-long run is an easy run (10g checks where it may be).
  let alwaysAllowed: Set<WorkoutKind> = [.easy, .recovery, .long, .race, .crossTraining, .mediumLong]
  var buildEasy = 0
  var buildTotal = 0
  for week in weeks {
    let training = week.workouts.filter { $0.kind != .race }
    let steps = training.flatMap(\.steps)
    let total = steps.map(seconds).reduce(0, +)
    let easy = steps.filter { $0.zone == .easy }.map(seconds).reduce(0, +)
    if week.phase == .build {
      buildEasy += easy
      buildTotal += total
    }
    if total > 0 && Double(easy) / Double(total) < intensity.minEasyTimeFraction - 1e-9 {
      fail(
        "7 easy share",
        "week \(week.number): easy time \(easy) s of \(total) s = "
          + "\(fmt(100 * Double(easy) / Double(total))) % < \(fmt(100 * intensity.minEasyTimeFraction)) %")
    }
    for workout in training {
      var workKm: [Intensity: Double] = [:]
      var workReps: [Intensity: Int] = [:]
      for step in workout.steps where step.kind == .work && step.zone != .easy {
        workKm[step.zone, default: 0] += step.distanceKm * Double(step.repeat)
        workReps[step.zone, default: 0] += step.repeat
      }
      for (zone, km) in workKm.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
        // A long run's marathon-pace segment or fast finish is held to the marathon-pace budget
        // (intensity.maxMarathonPaceOfWeek, LongRunTests), not to the per-session threshold cap.
        if workout.kind == .long && (zone == .marathon || zone == .race) { continue }
        let share: Double =
          switch zone {
          case .marathon, .threshold: intensity.maxThresholdOfWeek
          case .interval: intensity.maxIntervalOfWeek
          case .repetition: intensity.maxRepetitionOfWeek
          case .race: raceKm <= 10 ? intensity.maxIntervalOfWeek : intensity.maxThresholdOfWeek
          case .easy: .infinity
          }
        if km > share * week.plannedKm + kmTolerance {
          let excess = km - share * week.plannedKm
          let drift = 0.05 * Double(workReps[zone] ?? 0) + share * roundingDrift(week)
          fail(
            tag("7 session cap", excess: excess, drift: drift),
            "week \(week.number): \(workout.slot) "
              + "(\(workout.title)) has \(fmt(km)) km at \(zone.rawValue) > \(fmt(share)) × \(fmt(week.plannedKm)) "
              + "(target \(fmt(week.targetKm))) = \(fmt(share * week.plannedKm))" + driftNote(excess, drift))
        }
      }
      let intervalBouts = workout.steps.filter { $0.kind == .work && $0.zone == .interval }
      if let shortestBout = intervalBouts.map(\.durationSeconds).min() {
        for recovery in workout.steps where recovery.kind == .recovery && recovery.durationSeconds > shortestBout + 1 {
          fail(
            "7 recovery",
            "week \(week.number): \(workout.id) (\(workout.title)) recovery \(recovery.durationSeconds) s "
              + "is longer than the \(shortestBout) s work bouts")
        }
      }
      if goal.level == .beginner && workout.kind == .intervals {
        fail("7 beginner intervals", "week \(week.number): \(workout.id) (\(workout.title)) is intervals")
      }
      if !alwaysAllowed.contains(workout.kind) && !allowed.contains(workout.kind) {
        fail(
          "7 allowed kinds",
          "week \(week.number): \(workout.id) is \(workout.kind.rawValue), not allowed for "
            + "\(goal.level.rawValue)")
      }
    }
  }

  if buildTotal > 0 && Double(buildEasy) / Double(buildTotal) < buildPhaseEasyFraction - 1e-9 {
    fail(
      "7 build easy share",
      "build phase: easy time \(buildEasy) s of \(buildTotal) s = "
        + "\(fmt(100 * Double(buildEasy) / Double(buildTotal))) % < \(fmt(100 * buildPhaseEasyFraction)) %")
  }

  // 8. Phases and taper.
  let ranks = weeks.map { phaseRank($0.phase) }
  if zip(ranks, ranks.dropFirst()).contains(where: { $0 > $1 }) {
    fail("8 phases", "phases out of order: \(weeks.map(\.phase.rawValue).joined(separator: ","))")
  }
  let raceWeeks = weeks.filter { $0.phase == .race }
  if raceWeeks.count != 1 || weeks.last?.phase != .race {
    fail("8 phases", "\(raceWeeks.count) race weeks, the last week is \(weeks.last?.phase.rawValue ?? "none")")
  }
  let fullWeeks = weeks.filter { !isTaperOrRace($0) }
  let peakFull = fullWeeks.map(\.plannedKm).max() ?? resolved.currentWeeklyKm
  for week in weeks where isTaperOrRace(week) {
    let race = week.workouts.filter { $0.kind == .race }.map(\.distanceKm).reduce(0, +)
    let training = week.plannedKm - race
    if !(training < peakFull) {
      fail(
        "8 taper volume",
        "week \(week.number) (\(week.phase.rawValue)): \(fmt(training)) km of training is not "
          + "under the peak \(fmt(peakFull))")
    }
    let racePace = week.workouts.contains { workout in
      workout.kind != .race
        && workout.steps.contains { $0.kind == .work && ($0.zone == .race || $0.zone == .marathon) }
    }
    if !racePace {
      fail(
        "8 taper race pace",
        "week \(week.number) (\(week.phase.rawValue)): no race-pace session kept ("
          + week.workouts.filter { $0.kind != .race }.map { "\($0.kind.rawValue) \(fmt($0.distanceKm))" }
          .joined(separator: ", ") + ")")
    }
  }
  // Taper length: the distance's taper, or the extended one when the runner's peak volume is above its
  // threshold. The runner's peak is the plan's biggest full week, or their current volume when that is more
  // (a runner already at 90 km/week tapers like one).
  let taper = distanceRules.taper
  let runnerPeak = max(peakFull, plan.goal.currentWeeklyKm)
  let extended = taper.extended.map { runnerPeak > $0.abovePeakKm } ?? false
  let taperWeeks = min(weeks.count, extended ? taper.extended?.volume.count ?? 0 : taper.volume.count)
  let actualTaperWeeks = weeks.filter(isTaperOrRace).count
  if actualTaperWeeks != taperWeeks {
    fail(
      "8 taper length",
      "\(actualTaperWeeks) taper/race weeks, expected \(taperWeeks) (peak planned volume "
        + "\(fmt(peakFull)) km\(taper.extended.map { ", extended taper above \(fmt($0.abovePeakKm))" } ?? ""))")
  }
  // 10. Week structure (plan-templates/base.yaml weekStructure; training-rules.md "Week structure").
  let structure = base.weekStructure
  // Easy pace, seconds per km, from the plan's own easy steps.
  let easyPaceSeconds = all.lazy.filter { $0.kind == .easy || $0.kind == .long }.flatMap(\.steps)
    .first { $0.zone == .easy && $0.distanceKm >= 1 }.map { Double($0.durationSeconds) / $0.distanceKm }
  for week in weeks {
    let long = week.workouts.first { $0.kind == .long }
    // 10a. The day before the long run: at most its share of the long run, or rest (its run moves to another
    // day), or the minimum run when every other day of the week already holds a run.
    let weekFull = Set(week.workouts.map(\.date)).count >= 6
    let minimumEve = easyPaceSeconds.map { structure.minRunMinutes * 60 / $0 + 0.15 } ?? 0
    if let long, let eve = week.workouts.first(where: { $0.date.days(to: long.date) == 1 }),
      eve.distanceKm > structure.eveOfLongMaxOfLong * long.distanceKm + kmTolerance,
      !(weekFull && eve.distanceKm <= max(minimumEve, base.volume.minRunKm) + kmTolerance)
    {
      fail(
        "10a eve of long",
        "week \(week.number): \(eve.slot) \(fmt(eve.distanceKm)) km the day before a "
          + "\(fmt(long.distanceKm)) km long run (at most \(fmt(structure.eveOfLongMaxOfLong)) of it)")
    }
    // 10b. At few runs a week, at most qualityAtFewRuns quality sessions besides the long run.
    if runs <= structure.fewRunsAtMost {
      let quality = week.workouts.filter { $0.hard && $0.kind != .long && $0.kind != .race }
      if quality.count > structure.qualityAtFewRuns[goal.level] {
        fail(
          "10b quality count",
          "week \(week.number): \(quality.count) quality sessions at \(runs) runs a week ("
            + quality.map(\.kind.rawValue).joined(separator: ", ") + ")")
      }
    }
    // 10c. Race week: short runs before race day, shorter still in the last days.
    if week.phase == .race {
      let race = structure.raceWeek
      var cap = min(race.maxRunKm, max(race.lastDaysMaxKm, race.maxRunOfRace * raceKm))
      var lastCap = min(cap, race.lastDaysMaxKm)
      // A plan peaking high keeps more running (a share of the peak, within its own caps) ...
      if let from = race.highVolumeFromPeakKm, peakVolume >= from {
        cap = max(cap, min(race.maxRunKmByVolume ?? race.maxRunKm, (race.maxRunOfPeakWeek ?? 0) * peakVolume))
        lastCap = max(lastCap, min(cap, (race.lastDaysMaxOfPeakWeek ?? 0) * peakVolume))
      }
      // ... and a beginner's last days before a 5K or 10K hold nothing over half the race.
      if let share = race.beginnerLastDaysMaxOfRace, goal.level == .beginner, raceKm <= 10 {
        lastCap = max(base.volume.minRunKm, min(lastCap, share * raceKm))
      }
      for workout in week.workouts where workout.kind != .race {
        let late = workout.date.days(to: goal.timeline.raceDate) <= race.lastDays
        let limit = late ? lastCap : cap
        if workout.distanceKm > limit + kmTolerance {
          fail(
            "10c race week",
            "week \(week.number): \(workout.slot) \(fmt(workout.distanceKm)) km "
              + "\(workout.date.days(to: goal.timeline.raceDate)) days before the race (at most \(fmt(limit)))")
        }
      }
    }
    // 10d. The long run is at most its share of the week, in every week that has one, however few its runs: a week
    // of two runs cannot hold this and the third-longer rule at once, so no week may come down to two runs unless
    // it is too small for three at the absolute minimum run (under (2 + ratio) × volume.minRunKm, 6.7 km: a runner
    // whose longest recent run is 3 km, in a cut-back week). Race week has no long run: the race takes its day.
    let tooSmallForThree = week.plannedKm < (2 + ratio) * base.volume.minRunKm - kmTolerance
    if let long, !(week.workouts.count < 3 && tooSmallForThree),
      long.distanceKm > structure.longRunMaxOfWeek * week.plannedKm + kmTolerance
    {
      fail(
        "10d long share",
        "week \(week.number): long run \(fmt(long.distanceKm)) km of \(fmt(week.plannedKm)) km "
          + "(at most \(fmt(structure.longRunMaxOfWeek)))")
    }
    // 10f. A recovery run lasts at most weekStructure.recoveryMaxMinutes at easy pace (one minute of rounding), unless
    // it is the minimum run.
    for workout in week.workouts
    where workout.kind == .recovery && Double(workout.durationMin) > structure.recoveryMaxMinutes + 1
      && workout.distanceKm > base.volume.minRunKm + kmTolerance
    {
      fail(
        "10f recovery",
        "week \(week.number): \(workout.slot) \(fmt(workout.distanceKm)) km takes \(workout.durationMin) min "
          + "(at most \(Int(structure.recoveryMaxMinutes)))")
    }
    // 10g. The medium-long run: only at mediumLong.fromRuns runs a week or more, never in race week, at most one a
    // week, not beside the long run, at least minKm, a third shorter than the long run, and no easy run longer.
    let mediums = week.workouts.filter { $0.kind == .mediumLong }
    let medium = structure.mediumLong
    if !mediums.isEmpty && (runs < medium.fromRuns || week.phase == .race || mediums.count > 1) {
      fail("10g medium-long", "week \(week.number): \(mediums.count) medium-long runs at \(runs) runs a week")
    }
    for workout in mediums {
      let easier = week.workouts.filter { [.easy, .recovery, .strides].contains($0.kind) }.map(\.distanceKm)
      let beside = long.map { abs(workout.date.days(to: $0.date)) <= 1 } ?? true
      if beside || workout.distanceKm < medium.minKm - kmTolerance
        || workout.distanceKm > (long?.distanceKm ?? 0) / ratio + kmTolerance
        || easier.contains(where: { $0 > workout.distanceKm + kmTolerance })
      {
        fail(
          "10g medium-long",
          "week \(week.number): \(workout.slot) \(fmt(workout.distanceKm)) km medium-long beside or against a "
            + "\(fmt(long?.distanceKm ?? 0)) km long run, easy runs \(easier.map(fmt))")
      }
    }
    // 10e. No easy run (strides included) under the minimum minutes at easy pace, unless the week is too small to
    // hold one: its long run (in race week, the last one) cannot be a third longer than such a run (spike guard, a
    // short peak long run) or it cannot hold three of them. Quality sessions are not checked (their work is faster
    // than easy pace).
    guard let minimumKm = easyPaceSeconds.map({ structure.minRunMinutes * 60 / $0 }) else { continue }
    // Race week has no long run: the last long run before it stands for it (the spike guard's reference).
    let lastLong = long ?? weeks.filter { $0.number < week.number }.last?.workouts.first { $0.kind == .long }
    let shortLong = lastLong.map { $0.distanceKm < minimumKm * ratio + 0.2 } ?? false
    let training = week.plannedKm - week.workouts.filter { $0.kind == .race }.map(\.distanceKm).reduce(0, +)
    let small = training < (2 + ratio) * minimumKm + 0.2
    // A beginner's last days before a 5K or 10K hold nothing over half the race (base.yaml's
    // `raceWeek.beginnerLastDaysMaxOfRace`): there the race's cap wins over the minimum run.
    let beginnerLastDays = { (workout: Workout) -> Bool in
      guard week.phase == .race, goal.level == .beginner, raceKm <= 10,
        let share = structure.raceWeek.beginnerLastDaysMaxOfRace
      else { return false }
      return workout.date.days(to: goal.timeline.raceDate) <= structure.raceWeek.lastDays
        && workout.distanceKm >= min(minimumKm, share * raceKm) - 0.1
    }
    for workout in week.workouts
    where [.easy, .recovery, .strides].contains(workout.kind)
      && !shortLong && !small && workout.distanceKm < minimumKm - 0.1 && !beginnerLastDays(workout)
    {
      fail(
        "10e min run",
        "week \(week.number): \(workout.slot) \(fmt(workout.distanceKm)) km, under "
          + "\(Int(structure.minRunMinutes)) minutes at easy pace (\(fmt(minimumKm)) km)")
    }
  }
  return out
}

// MARK: - The input space

/// The rules for one distance (the templates must define every distance).
private func distanceRules(_ distance: RaceDistance) -> DistanceRules {
  guard let rules = repositoryRules.rules(for: distance) else { fatalError("no rules for \(distance.rawValue)") }
  return rules
}

/// A short label for a goal, for failure messages.
private func label(_ goal: Goal) -> String {
  var text = "\(goal.distance.rawValue) \(goal.level.rawValue) \(goal.timeline.weeks)w"
  if let runs = goal.runsPerWeek { text += " runs=\(runs)" }
  if let km = goal.currentWeeklyKm { text += " current=\(fmt(km))" }
  if let km = goal.longestRecentRunKm { text += " longest=\(fmt(km))" }
  if let race = goal.recentRace { text += " race=\(fmt(race.distanceKm))km/\(Int(race.timeSeconds))s" }
  return text
}

/// Violations counted over many plans; reports the first few failing plans in full.
private struct Tally {
  var checked = 0
  var refused = 0
  var failingPlans = 0
  var plansByInvariant: [String: Int] = [:]
  var examples: [String] = []

  /// Records a plan's violations; true for the first failing plans, which the test reports one by one.
  mutating func record(_ goal: Goal, _ found: [String]) -> Bool {
    checked += 1
    guard !found.isEmpty else { return false }
    failingPlans += 1
    if ProcessInfo.processInfo.environment["PLAN_INVARIANT_DUMP"] != nil {
      for line in found { print("[PlanInvariantDump] \(label(goal)) | \(line)") }
    }
    let tags = Set(found.map { String($0.prefix { $0 != "]" }.dropFirst()) })
    for tag in tags { plansByInvariant[tag, default: 0] += 1 }
    if examples.count < 3 {
      examples.append("\(label(goal)): \(found.prefix(8))")
      return true
    }
    return false
  }

  var summary: String {
    let counts = plansByInvariant.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value) plans" }
    return "\(failingPlans) of \(checked) plans violate invariants (\(refused) inputs refused) — "
      + counts.joined(separator: "; ") + ". First: " + examples.joined(separator: " | ")
  }

  func log(_ name: String) {
    if ProcessInfo.processInfo.environment["PLAN_INVARIANT_VERBOSE"] != nil {
      print(
        "[PlanInvariant] \(name): \(checked) plans checked, \(refused) refused, \(failingPlans) failing"
          + (plansByInvariant.isEmpty ? "" : " — \(plansByInvariant.sorted { $0.key < $1.key })"))
    }
  }
}

/// Checks one plan: its violations, and determinism (same value, same JSON bytes).
private func check(_ plan: Plan, _ goal: Goal, tally: inout Tally, determinism: Bool) {
  var found = violations(of: plan, goal: goal)
  if determinism {
    do {
      let again = try makePlan(goal: goal, rules: repositoryRules)
      if again != plan { found.append("[9 determinism] the same goal made a different plan") }
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      let first = try encoder.encode(plan)
      if try encoder.encode(plan) != first { found.append("[9 determinism] encoding twice gave different bytes") }
      if try encoder.encode(again) != first { found.append("[9 determinism] the second plan encodes differently") }
    } catch {
      found.append("[9 determinism] the second makePlan or the encoding threw: \(error)")
    }
  }
  if tally.record(goal, found) {
    #expect(found.isEmpty, "\(label(goal))")
  }
}

@Suite("PlanInvariant: every plan obeys the training rules")
struct PlanInvariantTests {
  /// Default inputs, every length from the absolute minimum to 30 weeks: none may be refused; all must obey
  /// every invariant and be deterministic. One week under the absolute minimum must be refused.
  @Test(arguments: RaceDistance.allCases, Level.allCases)
  func defaultInputsEveryLength(distance: RaceDistance, level: Level) {
    let minimum = distanceRules(distance).minimumWeeks[level]
    var tally = Tally()
    for weeks in minimum.absolute...30 {
      let asked = goal(distance, level, weeks: weeks)
      do {
        let plan = try makePlan(goal: asked, rules: repositoryRules)
        check(plan, asked, tally: &tally, determinism: true)
      } catch {
        // A compressed plan (under the recommended weeks) may be refused for a long run short of the race's need,
        // naming a later race date; a plan of the recommended length or longer never is.
        if case .longRunShort(_, _, _, _, _, let needed?, _, _, _) = error, weeks < minimum.recommended,
          needed > weeks
        {
          continue
        }
        tally.refused += 1
        Issue.record("\(label(asked)) was refused: \(error)")
      }
    }
    if minimum.absolute > 1 {
      let tooShort = goal(distance, level, weeks: minimum.absolute - 1)
      #expect(throws: PlanError.self, "\(label(tooShort)) is under the absolute minimum and must be refused") {
        _ = try makePlan(goal: tooShort, rules: repositoryRules)
      }
    }
    tally.log("defaults \(distance.rawValue) \(level.rawValue)")
    #expect(tally.refused == 0)
    #expect(tally.failingPlans == 0, "\(tally.summary)")
  }

  /// Runs per week 3…7 × current weekly km × longest recent run, at a few plan lengths. Refused inputs are
  /// skipped (and counted). Each (length, runs, current) cell is made with the default longest recent run and
  /// with one of the other values in rotation, so that every longest-run value meets every runs and current
  /// value (over the lengths) at half the cost of the full product.
  @Test(arguments: RaceDistance.allCases, Level.allCases)
  func variedRunnerInputs(distance: RaceDistance, level: Level) {
    let minimum = distanceRules(distance).minimumWeeks[level]
    let lengths = Set([minimum.absolute, minimum.recommended, 16, 24]).filter { $0 <= 30 }.sorted()
    let currentKms: [Double?] = [nil, 15, 30, 60, 90]
    let otherLongestKms: [Double] = [3, 8, 16]
    var tally = Tally()
    for (lengthIndex, weeks) in lengths.enumerated() {
      for runs in 3...7 {
        for (currentIndex, current) in currentKms.enumerated() {
          let rotated = otherLongestKms[(lengthIndex + runs + currentIndex) % otherLongestKms.count]
          for longest in [nil, rotated] {
            let asked = goal(distance, level, weeks: weeks, runs: runs, currentKm: current, longestKm: longest)
            do {
              let plan = try makePlan(goal: asked, rules: repositoryRules)
              check(plan, asked, tally: &tally, determinism: weeks == minimum.absolute)
            } catch {
              tally.refused += 1
            }
          }
        }
      }
    }
    tally.log("varied \(distance.rawValue) \(level.rawValue)")
    #expect(tally.checked > 0, "every varied input was refused")
    #expect(tally.failingPlans == 0, "\(tally.summary)")
  }

  /// Recent races change the paces, hence durations: the long run's time cap and the easy-time share.
  @Test(arguments: RaceDistance.allCases, Level.allCases)
  func recentRaceInputs(distance: RaceDistance, level: Level) {
    let minimum = distanceRules(distance).minimumWeeks[level]
    let lengths = Set([minimum.absolute, minimum.recommended, 16, 24]).filter { $0 <= 30 }.sorted()
    let races = [
      RecentRace(distanceKm: 5, timeSeconds: 17 * 60),  // fast
      RecentRace(distanceKm: 5, timeSeconds: 20 * 60),  // VDOT ≈ 50
      RecentRace(distanceKm: 10, timeSeconds: 60 * 60),  // slow
      RecentRace(distanceKm: 5, timeSeconds: 38 * 60),  // very slow
    ]
    var tally = Tally()
    for weeks in lengths {
      for race in races {
        for runs: Int? in [nil, 3, 6] {
          let asked = goal(distance, level, weeks: weeks, runs: runs, recentRace: race)
          do {
            let plan = try makePlan(goal: asked, rules: repositoryRules)
            check(plan, asked, tally: &tally, determinism: runs == nil)
          } catch {
            tally.refused += 1
          }
        }
      }
    }
    tally.log("races \(distance.rawValue) \(level.rawValue)")
    #expect(tally.checked > 0, "every input with a recent race was refused")
    #expect(tally.failingPlans == 0, "\(tally.summary)")
  }
}
