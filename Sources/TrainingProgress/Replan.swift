import Foundation
import PlanEngine
import RunningCore
import TrainingDomain

/// Why the remaining weeks cannot be rebuilt.
public enum ReplanError: FieldError, Sendable, Equatable {
  /// Race day has passed.
  case nothingLeft(raceDate: CivilDate)
  /// The pause ends on or after race day.
  case pauseOverlapsRace(pauseEnd: CivilDate, raceDate: CivilDate)
  /// Even with the inputs clamped to what the plan engine accepts, no plan fits (never seen for an ordinary state;
  /// kept so a refusal is a sentence, not an engine message about options the runner never gave).
  case cannotRebuild(weekly: Distance, longest: Distance, raceDate: CivilDate, units: DistanceUnit)

  /// The message for a runner: one line naming what is wrong and what is allowed.
  public func message(naming flag: (InputField) -> String) -> String {
    switch self {
    case .nothingLeft(let raceDate):
      return "nothing to replan: race day (\(raceDate)) is past"
    case .pauseOverlapsRace(let pauseEnd, let raceDate):
      return
        "\(flag(.pause)): it ends on \(pauseEnd), on or after race day (\(raceDate)); allowed is a pause that ends before it"
    case .cannotRebuild(let weekly, let longest, let raceDate, let units):
      return "the weeks up to race day (\(raceDate)) cannot be rebuilt from what you ran (about "
        + "\(units.format(weekly)) a week, longest run \(units.format(longest))); the plan is kept "
        + "as it was: log your recent runs, or make a new plan with `runmate plan`"
    }
  }
}

/// How one week changed.
public struct WeekChange: Sendable, Hashable {
  /// The week.
  public var number: Int
  /// Planned distance before.
  public var plannedBefore: Distance
  /// Planned distance after.
  public var plannedAfter: Distance
  /// Workouts before (titles with days).
  public var before: [String]
  /// Workouts after.
  public var after: [String]
}

/// How one workout changed, in the words of `runmate export --diff` (the raw values are the same).
public enum WorkoutChangeKind: String, Sendable, Hashable, Codable, CaseIterable {
  /// Same workout id, another day.
  case moved
  /// Same workout id and day, another session (distance, kind or title).
  case changed
  /// In the old plan, not in the new one (its calendar event is cancelled on the next export).
  case cancelled
  /// In the new plan only.
  case added
}

/// One workout that a replan changes. Workout ids are kept for the weeks kept and rebuilt, so the calendar UID
/// (weeks before race week and slot) of a `changed` or `moved` workout stays the same.
public struct WorkoutChange: Sendable, Hashable {
  /// What happened.
  public var kind: WorkoutChangeKind
  /// The workout id (the same before and after).
  public var workoutID: String
  /// The plan week.
  public var week: Int
  /// The title after the change (before it, for a cancellation): `Tempo 7.5 km`.
  public var title: String
  /// The day before (nil when added).
  public var oldDate: CivilDate?
  /// The day after (nil when cancelled).
  public var newDate: CivilDate?
  /// The title before, when it changed.
  public var oldTitle: String?
  /// For moves and changes: `Sat 6 Mar → Sun 7 Mar`, `Tempo 7.5 km → Easy 6 km`.
  public var detail: String? {
    switch kind {
    case .moved: return oldDate.flatMap { old in newDate.map { "\(old.shortLabel) → \($0.shortLabel)" } }
    case .changed: return oldTitle.map { "\($0) → \(title)" }
    case .cancelled, .added: return nil
    }
  }
}

/// A rebuilt plan and what changed.
public struct Replan: Sendable, Hashable {
  /// The plan with its remaining weeks rebuilt (same id, so saving replaces it and exports update in place).
  public var plan: Plan
  /// The weeks that changed.
  public var changes: [WeekChange]
  /// Every workout that changed, in date order (moved, changed, cancelled, added).
  public var workoutChanges: [WorkoutChange]

  /// The workout changes by kind, in the order a report lists them (moved, changed, cancelled, added), every kind
  /// with its list, empty or not.
  public var workoutChangesByKind: [(kind: WorkoutChangeKind, changes: [WorkoutChange])] {
    byKind(workoutChanges)
  }
  /// The starting point the rebuild used, in words, with the rule that chose it.
  public var basis: String
  /// The weekly volume the rebuild ramps from, km.
  public var weeklyKm: Double
  /// The longest run the spike guard starts from, km.
  public var longestKm: Double
}

/// `replan --update-paces`: the plan's paces move to `vdot`, the estimate from the races logged up to `asOf`.
public struct PaceUpdate: Sendable, Hashable {
  /// The VDOT the rebuilt workouts' paces follow.
  public var vdot: Double
  /// The day of the last race in it: races on or before it do not count again.
  public var asOf: CivilDate

  /// Paces at `vdot`, from the races to `asOf`.
  public init(vdot: Double, asOf: CivilDate) {
    self.vdot = vdot
    self.asOf = asOf
  }

  /// What the replan's basis says of them.
  var basisNote: String { "paces at VDOT \(String(format: "%.1f", vdot)) from your races to \(asOf)" }

  /// `goal` recording these paces as the plan `rebuilt` at them has them.
  func recorded(in goal: ResolvedGoal, by rebuilt: Plan) -> ResolvedGoal {
    var goal = goal
    goal.vdot = rebuilt.goal.vdot
    goal.predictedTimeSeconds = rebuilt.goal.predictedTimeSeconds
    goal.vdotSource = .races
    goal.vdotAsOf = asOf
    return goal
  }
}

extension ResolvedGoal {
  /// The goal to rebuild the plan from `weeklyKm` and `longestKm` with: the same race, timeline and days, and the
  /// paces at `paces` (as the race they predict), else the goal time of a goal-time plan (so its race week still
  /// speaks of the goal), else the plan's prediction (its VDOT, with the goal time as race pace when it has one),
  /// else the level's estimate.
  func rebuilding(weeklyKm: Double, longestKm: Double, paces: PaceUpdate?) -> Goal {
    var recentRace = predictedTimeSeconds.map { RecentRace(distanceKm: distanceKm, timeSeconds: Double($0)) }
    var goalTime: Double?
    if let paces {
      recentRace = RecentRace(
        distanceKm: distanceKm, timeSeconds: VDOT(value: paces.vdot).predictedTime(distanceMeters: distanceKm * 1000))
    } else if vdotSource == .goalTime, let seconds = goalTimeSeconds {
      (recentRace, goalTime) = (nil, Double(seconds))
    } else if vdotSource == .recentRace, let seconds = goalTimeSeconds {
      // Paces at the race's fitness, a faster goal as race pace: both kept.
      goalTime = Double(seconds)
    }
    return Goal(
      distance: distance, level: level, timeline: Timeline(start: start, raceDate: raceDate, weeks: weeks),
      runsPerWeek: runsPerWeek, currentWeeklyKm: weeklyKm, longestRecentRunKm: longestKm, recentRace: recentRace,
      crossTrainingPerWeek: crossTrainingPerWeek, strengthPerWeek: strengthPerWeek, runDays: runDays,
      longRunDay: longRunDay, goalTimeSeconds: goalTime, birthYear: birthYear)
  }
}

/// Why the runner did not run: illness and injury come back more gently than travel.
public enum BreakReason: String, Sendable, Hashable, Codable, CaseIterable {
  /// Ill: the body recovers before it trains again.
  case illness = "ill"
  /// Injured: back gently, and only when it allows running.
  case injury
  /// Away: fitness kept, only the running missed.
  case travel
  /// Runs missed without a stated reason.
  case missed
}

/// Rebuilds the plan from today (or the day after a pause) to race day from what was actually run, keeping the race
/// date and every rule of the plan engine.
///
/// - Only today and later change: workouts before today (done or missed) stay as they were, with their ids; so do
///   the weeks before the current one. The rebuilt weeks keep their numbers, phases and dates, and every workout
///   keeps its id (plan id, week, slot), so calendar UIDs (weeks before race week and slot) stay stable.
/// - Fitness (`replan` in base.yaml): the weekly volume is the weighted average of the last 4 weeks' logs (4:3:2:1, most
///   recent first; weeks before the plan count at the plan's starting volume when nothing was logged), never above
///   the plan's own volume for those weeks (extra or twice-counted runs do not steepen the ramp), and never below
///   what the plan's own rules give after one missed week: a missed or short week (under 75 % of its plan) counts
///   as a cut-back week, and the week after a cut-back continues from the last full week run (docs/training-rules.md,
///   "Cut-back weeks"); each further missed or short week lowers that by `cutback.volumeFactor` (75 %). A pause of
///   a week or more lowers the volume to 70 %. The spike guard starts from the
///   longest run of the last 4 weeks or the plan's last long run done (at its planned length when run at 90 % of it
///   or more, else at what was run), whichever is longer.
/// - These are clamped into what the engine accepts (5–250 km a week, a longest run of 3–60 km, at most the week,
///   at least a seventh of it, a marathon's entry minimums); with too little volume for the plan's runs a week, it
///   plans fewer runs.
///
/// - Parameters:
///   - plan: the saved plan.
///   - completions: every logged run.
///   - today: the day of the replan; days before it stay as they were.
///   - pause: days with no running (illness, travel); the rebuild starts the day after it ends.
///   - rules: the plan templates.
///   - units: the units the rebuilt workouts' titles and the basis are written in (the plan's own, so a replan
///     changes no title from miles to kilometres).
///   - reason: why the runner paused: illness and injury come back more gently than travel.
///   - savedPauses: pauses saved with the plan's schedule: their days stay empty from today on, in every replan.
///   - paces: new paces (`replan --update-paces`): every workout from today on takes them, and the goal records
///     them. On track, the same weeks at the new paces (``repacedWeeks(_:paces:from:today:rules:units:)``);
///     otherwise the rebuild never rejoins the old weeks, which carry the old paces.
///   - rebuild: rebuild from the logs even when the runner is on track: `plan` is a new goal for a block under way
///     (a coach's new goal time, level or race day, ``Plan/keepingPast(of:before:)`` the plan it replaces), whose
///     weeks from today were made from the runner's state when the block began, not from what was run since; the
///     rebuild ramps from the logs (the spike guard from the longest run done) and rejoins its build where they meet.
/// - Throws: ``ReplanError``.
public func replan(
  _ plan: Plan, completions: [Completion], today: CivilDate, pause: ClosedRange<CivilDate>?,
  rules: PlanRules, units: DistanceUnit = .km, reason: BreakReason = .illness,
  savedPauses: [ClosedRange<CivilDate>] = [], paces: PaceUpdate? = nil, rebuild: Bool = false
) throws(ReplanError) -> Replan {
  let race = plan.goal.raceDate
  if let pause, pause.upperBound >= race { throw .pauseOverlapsRace(pauseEnd: pause.upperBound, raceDate: race) }
  let resumeDay = max(today, pause.map { $0.upperBound.adding(days: 1) } ?? today)
  guard resumeDay <= race, let lastWeek = plan.weeks.last else { throw .nothingLeft(raceDate: race) }
  let resumeIndex = plan.weeks.firstIndex { resumeDay <= $0.start.adding(days: 6) } ?? lastWeek.number - 1

  // Judge fitness up to the first day without running by choice: today, or the first day of the pause.
  let judgeDay = min(today, pause?.lowerBound ?? today)
  // A week in progress that already holds more than the week before it counts as the most recent week (only
  // without a pause, and while a later week is left to rebuild); it then stays as planned, and the rebuild starts
  // the week after it.
  var fitness = judgeFitness(
    plan, completions: completions, before: judgeDay, rules: rules, units: units,
    weekInProgress: pause == nil && resumeIndex + 1 < plan.weeks.count, excused: savedPauses)
  let firstRebuilt = fitness.throughCurrentWeek ? resumeIndex + 1 : resumeIndex
  // The course: on track, the plan stands; after a break (a pause, or the last weeks missed or short), return weeks
  // from the volume before it, then the original build; after a long break, or always under the plan, a rebuild
  // from what was run.
  var course = replanCourse(
    plan, fitness: fitness, today: today, pause: pause, resumeIndex: resumeIndex, reason: reason, units: units,
    rules: rules)
  if rebuild, case .stands = course { course = .rebuild }
  if case .stands(let why) = course {
    let pauses = savedPauses + (pause.map { [$0] } ?? [])
    let warnings = plan.warnings.filter { !$0.hasPrefix("replanned on ") }
    guard let paces else {
      return replanResult(
        plan, weeks: emptying(plan.weeks, pauses: pauses, today: today), warnings: warnings, today: today,
        basis: why, weeklyKm: fitness.weeklyKm, longestKm: fitness.longestKm)
    }
    // On track with new paces: the same weeks at the new paces when the plan's own inputs rebuild its weeks from
    // today on (a plan never replanned, or back on its original build); else rebuilt from the logs below.
    if let repaced = repacedWeeks(plan, paces: paces, from: firstRebuilt, today: today, rules: rules, units: units) {
      return replanResult(
        plan, weeks: emptying(repaced.weeks, pauses: pauses, today: today), warnings: warnings, today: today,
        basis: why + "; " + paces.basisNote,
        weeklyKm: fitness.weeklyKm, longestKm: fitness.longestKm, goal: repaced.goal)
    }
    course = .rebuild
  }
  var comeback: [Double] = []
  if case .comeback(let shares, let volume, let longest, let why) = course {
    comeback = shares
    fitness.weeklyKm = volume
    fitness.longestKm = longest
    fitness.volumeBasis = why
    fitness.longestBasis = "the longest run before it: \(units.format(longest))"
  } else if let pause, pause.lowerBound.days(to: pause.upperBound) + 1 >= rules.base.replan.pauseDays {
    fitness.weeklyKm *= rules.base.replan.afterPauseShare
    fitness.volumeBasis +=
      ", then \(percent(rules.base.replan.afterPauseShare)) of it after a pause of "
      + "\(pause.lowerBound.days(to: pause.upperBound) + 1) days: \(units.format(fitness.weeklyKm))"
  }
  let inputs = clampedInputs(fitness, plan: plan, rules: rules, units: units)
  var basis = fitness.volumeBasis + "; " + fitness.longestBasis + inputs.notes.map { "; \($0)" }.joined()

  var goal = plan.goal.rebuilding(weeklyKm: inputs.weeklyKm, longestKm: inputs.longestKm, paces: paces)
  if let paces { basis += "; " + paces.basisNote }
  let minRun = rules.base.volume.minRunKm
  // The engine's own limit (PlanContext): the long run plus (runs − 1) runs of the shortest run must fit.
  let maxRuns = Int(((inputs.weeklyKm - min(inputs.longestKm, inputs.weeklyKm / 2)) / minRun).rounded(.down)) + 1
  if plan.goal.runsPerWeek > max(3, maxRuns) {
    goal.runsPerWeek = max(3, min(7, maxRuns))
    basis += "; \(max(3, min(7, maxRuns))) runs a week instead of \(plan.goal.runsPerWeek) while the volume is low"
  }
  // The same taper as the plan's (a marathon's extended taper depends on its peak), so every week keeps its phase.
  let taperWeeks = plan.weeks.filter { $0.phase == .taper || $0.phase == .race }.count
  let taper = rules.rules(for: plan.goal.distance)?.taper
  let extended = taper.flatMap { taper in
    taper.extended.flatMap { $0.volume.count == taper.volume.count ? nil : $0.volume.count == taperWeeks }
  }
  let rebuilt: Plan
  do {
    rebuilt = try makePlan(
      goal: goal, rules: rules, units: units, fromWeek: firstRebuilt + 1, extendedTaper: extended,
      comeback: comeback,
      priorLongestKm: comeback.isEmpty
        ? []
        : priorLongestRuns(
          plan, completions: completions, before: firstRebuilt, today: today,
          weeks: rules.base.longRun.spikeLookbackWeeks, paused: savedPauses + (pause.map { [$0] } ?? [])))
  } catch {
    throw .cannotRebuild(
      weekly: Distance(kilometers: inputs.weeklyKm), longest: Distance(kilometers: inputs.longestKm), raceDate: race,
      units: units)
  }
  // Rejoin the original build where the rebuilt weeks reach it: from there on the weeks stay exactly as they were
  // (not with new paces: the old weeks carry the old ones).
  let rejoin =
    paces != nil
    ? nil
    : rejoinIndex(
      old: plan, rebuilt: rebuilt, firstRebuilt: firstRebuilt, from: firstRebuilt + max(1, comeback.count),
      lookback: rules.base.replan.lookbackWeeks, rules: rules)

  // The rebuilt weeks keep the old plan's ids (plan id, week, slot), so saved matches and calendar UIDs stay.
  var weeks = Array(plan.weeks.prefix(firstRebuilt))
  for var week in rebuilt.weeks where week.number <= (rejoin ?? plan.weeks.count) {
    // The rebuild starts from the volume judged from the logs, not from the week the plan was made in.
    week.rules = week.rules.map {
      $0.replacingOccurrences(of: " your current week (", with: " the volume judged from your logs (")
    }
    week.workouts = week.workouts.map { workout in
      var copy = workout
      copy.id = "\(plan.id)-w\(week.number < 10 ? "0" : "")\(week.number)-\(workout.slot)"
      return copy
    }
    if let old = plan.weeks.first(where: { $0.number == week.number }) {
      // Days before today keep what they were (done or missed); later days take the rebuilt workouts.
      let past = old.workouts.filter { $0.date < today }
      let pastSlots = Set(past.map(\.slot))
      week.workouts = (past + week.workouts.filter { $0.date >= today && !pastSlots.contains($0.slot) })
        .sorted { ($0.date, $0.slot) < ($1.date, $1.slot) }
      let rebuiltRules = week.rules
      week.plannedKm = (week.workouts.map(\.distanceKm).reduce(0, +) * 10).rounded() / 10
      if !past.isEmpty {
        week.rules = partlyKeptRules(
          old: old, rebuilt: rebuiltRules, final: week, keptKm: past.map(\.distanceKm).reduce(0, +), today: today,
          fromKm: inputs.weeklyKm, units: units)
      }
    }
    // A week ramps from the rebuilt volume of an earlier week, which may differ from that week's final one (a week
    // partly kept): its line states the change against the final volume, as the table shows it.
    if let first = week.rules.first {
      let earlier = weeks
      week.rules[0] = WhyLine.restating(first, planned: week.plannedKm, units: units) { number in
        earlier.first { $0.number == number }?.plannedKm
      }
    }
    weeks.append(week)
  }
  if let rejoin {
    // The original weeks as they were; a volume line that compares with a rebuilt week states its new volume.
    for var week in plan.weeks.suffix(from: rejoin) {
      if let first = week.rules.first {
        let earlier = weeks
        week.rules[0] = WhyLine.restating(first, planned: week.plannedKm, units: units) { number in
          earlier.first { $0.number == number }?.plannedKm
        }
      }
      weeks.append(week)
    }
    basis += "; the plan rejoins the original build in week \(rejoin + 1)"
  }
  // A peak the rebuilt weeks no longer reach is said, even when the taper is rejoined.
  if let lost = lostNote(old: plan, new: weeks, from: firstRebuilt, units: units) { basis += "; \(lost)" }
  // The pauses' days are empty from today on, in kept and rebuilt weeks alike.
  weeks = emptying(weeks, pauses: savedPauses + (pause.map { [$0] } ?? []), today: today)
  return replanResult(
    plan, weeks: weeks, warnings: rebuilt.warnings, today: today, basis: basis, weeklyKm: inputs.weeklyKm,
    longestKm: inputs.longestKm, goal: paces.map { $0.recorded(in: plan.goal, by: rebuilt) })
}

/// The plan's weeks with the workouts from `today` on (weeks from index `from`) at `paces`, and its goal recording
/// them; nil when the plan's own inputs at its old paces do not rebuild those workouts exactly as they are (weeks an
/// earlier replan rebuilt from the logs). So only the paces change, and the distance of a run set by time.
func repacedWeeks(
  _ plan: Plan, paces: PaceUpdate, from first: Int, today: CivilDate, rules: PlanRules, units: DistanceUnit
) -> (weeks: [Week], goal: ResolvedGoal)? {
  let old = plan.goal
  func rebuild(at paces: PaceUpdate?) -> Plan? {
    let goal = old.rebuilding(weeklyKm: old.currentWeeklyKm, longestKm: old.longestRecentRunKm, paces: paces)
    return try? makePlan(goal: goal, rules: rules, units: units)
  }
  guard let before = rebuild(at: nil), let after = rebuild(at: paces), before.weeks.count == plan.weeks.count,
    after.weeks.count == plan.weeks.count
  else { return nil }
  // What a runner runs: the day, the slot, the kind and the distance of every workout from today on.
  func running(_ week: Week) -> [String] {
    week.workouts.filter { $0.date >= today }.map { "\($0.date) \($0.slot) \($0.kind) \($0.distanceKm)" }
  }
  var weeks = Array(plan.weeks.prefix(first))
  for (was, (now, kept)) in zip(before.weeks, zip(after.weeks, plan.weeks)).dropFirst(first) {
    guard was.number == kept.number, running(was) == running(kept) else { return nil }
    // The days before today stay; the rest take the new paces (and a run set by time, such as race week's
    // shakeout, the distance they give), with their ids.
    let past = kept.workouts.filter { $0.date < today }
    var week = past.isEmpty ? now : kept
    let ids = Dictionary(kept.workouts.map { ($0.slot, $0.id) }, uniquingKeysWith: { first, _ in first })
    week.workouts =
      past
      + now.workouts.filter { $0.date >= today }.map { workout in
        var copy = workout
        copy.id = ids[workout.slot] ?? workout.id
        return copy
      }
    week.plannedKm = (week.workouts.map(\.distanceKm).reduce(0, +) * 10).rounded() / 10
    weeks.append(week)
  }
  return (weeks, paces.recorded(in: old, by: after))
}

/// The replanned plan (`weeks`, the warnings after the replan's line) with its week and workout changes.
func replanResult(
  _ plan: Plan, weeks: [Week], warnings: [String], today: CivilDate, basis: String, weeklyKm: Double,
  longestKm: Double, goal: ResolvedGoal? = nil
) -> Replan {
  var result = plan
  result.weeks = weeks
  result.goal = goal ?? plan.goal
  result.warnings = ["replanned on \(today) from \(basis)"] + warnings
  var changes: [WeekChange] = []
  for (old, new) in zip(plan.weeks, weeks) where old != new {
    changes.append(
      WeekChange(
        number: old.number, plannedBefore: Distance(kilometers: old.plannedKm),
        plannedAfter: Distance(kilometers: new.plannedKm),
        before: old.workouts.map { "\($0.date.shortLabel) \($0.title)" },
        after: new.workouts.map { "\($0.date.shortLabel) \($0.title)" }))
  }
  return Replan(
    plan: result, changes: changes, workoutChanges: workoutChanges(from: plan, to: result), basis: basis,
    weeklyKm: weeklyKm, longestKm: longestKm)
}

/// What a replan does, chosen from the runner's state (``replan(_:completions:today:pause:rules:units:reason:)``).
enum ReplanCourse {
  /// On track: the plan stands as it is.
  case stands(why: String)
  /// Back from a break: return weeks at `shares` of `volumeKm` (the last full week before it), then the original
  /// build.
  case comeback(shares: [Double], volumeKm: Double, longestKm: Double, why: String)
  /// A long break, or weeks under the plan: rebuilt from what was run.
  case rebuild
}

/// The course of a replan: a pause (told after the fact or ahead) or the last whole weeks missed or short is a break
/// (`replan.comeback` in base.yaml); a runner on track (`replan.onTrackShare`) keeps the plan.
func replanCourse(
  _ plan: Plan, fitness: Fitness, today: CivilDate, pause: ClosedRange<CivilDate>?, resumeIndex: Int,
  reason: BreakReason, units: DistanceUnit, rules: PlanRules
) -> ReplanCourse {
  let daysOff: Int
  let why: String
  if let pause {
    daysOff = pause.lowerBound.days(to: pause.upperBound) + 1
    why = "a pause of \(daysOff) day\(daysOff == 1 ? "" : "s") (\(reason.rawValue))"
    // Under a week off costs a runner on track no fitness: the days stay free (their week is the lighter week), and
    // the plan stands.
    if daysOff < rules.base.replan.pauseDays && fitness.onTrack {
      return .stands(
        why: "\(why): its days stay free, under a week off costs no fitness, so the plan stands (judged from "
          + "\(fitness.volumeBasis))")
    }
  } else if fitness.shortWeeks > 0 {
    daysOff = 7 * fitness.shortWeeks - 1
    why = "\(fitness.shortWeeks) week\(fitness.shortWeeks == 1 ? "" : "s") missed or short"
  } else if fitness.onTrack {
    return .stands(why: "\(fitness.volumeBasis): on track, the plan stands as it is")
  } else {
    return .rebuild
  }
  let breakReason = pause == nil ? BreakReason.missed : reason
  guard let shares = rules.base.replan.comeback(daysOff: daysOff, reason: breakReason.rawValue) else { return .rebuild }
  // The volume and longest run before the break: for a pause ahead, the plan's own weeks before it (the runner on
  // track runs them); else the last full week run as planned and the longest run judged from the logs.
  var volume = fitness.lastFullKm ?? fitness.weeklyKm
  var longest = fitness.longestKm
  if let pause, pause.lowerBound > today, fitness.onTrack {
    let before = plan.weeks.prefix(resumeIndex).filter { $0.start.adding(days: 6) < pause.lowerBound }
    if let full = before.last(where: { !$0.cutback && $0.phase != .taper && $0.phase != .race }) {
      volume = full.plannedKm
    }
    longest = max(
      longest, before.suffix(rules.base.replan.lookbackWeeks).flatMap(\.workouts).map(\.distanceKm).max() ?? 0)
  }
  guard volume > 0 else { return .rebuild }
  let steps = shares.map { "\(Int(($0 * 100).rounded())) %" }.joined(separator: ", then ")
  return .comeback(
    shares: shares, volumeKm: volume, longestKm: longest,
    why: "\(why): back over \(steps) of the \(units.format(volume)) a week before it, then the build resumes "
      + "(judged from \(fitness.volumeBasis))")
}

/// The longest run of each of the `weeks` weeks before the week at `index`, most recent last, for the spike guard
/// across a replan's seam, as the plan shows those weeks (what the linter judges): the longest run logged or planned
/// in a week of the plan (the days from today on as planned), the longest recent run the plan started from before it.
/// A run planned on a day of a pause (`paused`: ill, injured, away) counts for nothing: it was not run, and after a
/// sick week the long runs grow from the return weeks' and the runs before it, not from the one the runner missed.
func priorLongestRuns(
  _ plan: Plan, completions: [Completion], before index: Int, today: CivilDate, weeks: Int,
  paused: [ClosedRange<CivilDate>]
) -> [Double] {
  guard let first = plan.weeks.first?.start else { return [] }
  let start = first.adding(days: 7 * index)
  return (1...max(1, weeks)).reversed().map { back in
    let weekStart = start.adding(days: -7 * back)
    let days = weekStart...weekStart.adding(days: 6)
    let logged = completions.filter { days.contains($0.date) && $0.date < today }.map(\.distanceKm).max() ?? 0
    guard let week = plan.weeks.first(where: { $0.start == weekStart }) else {
      return max(logged, plan.goal.longestRecentRunKm)
    }
    let planned =
      week.workouts.filter { workout in
        workout.kind.isRun && workout.kind != .race && !paused.contains { $0.contains(workout.date) }
      }.map(\.distanceKm).max() ?? 0
    return max(logged, planned)
  }
}

/// The first week (index) from which the original plan's weeks can stand unchanged after a rebuild: they are of the
/// same phase, for `lookback` weeks (the spike guard's look-back) hold no more volume and no longer a run than the
/// rebuilt weeks (within `replan.rejoinTolerance`: a taper from a peak 0.1 km lower is the same taper), and
/// the plan spliced there breaks no rule of the linter that neither the original nor the rebuilt plan breaks (the
/// ramp and the spike guard across the seam); nil when the rebuild never reaches them.
func rejoinIndex(
  old: Plan, rebuilt: Plan, firstRebuilt: Int, from first: Int, lookback: Int, rules: PlanRules
) -> Int? {
  let byNumber = Dictionary(rebuilt.weeks.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
  func longest(_ week: Week) -> Double {
    week.workouts.filter { $0.kind.isRun && $0.kind != .race }.map(\.distanceKm).max() ?? 0
  }
  guard first < old.weeks.count else { return nil }
  let prefix = Array(old.weeks.prefix(firstRebuilt))
  let rebuiltWeeks = old.weeks.indices.dropFirst(firstRebuilt).compactMap { byNumber[$0 + 1] }
  func findings(_ weeks: [Week]) -> Set<String> {
    var spliced = old
    spliced.weeks = weeks
    return Set(lint(LintPlan(spliced), rules: rules).filter { $0.week > firstRebuilt }.map { "\($0.week) \($0.rule)" })
  }
  let known = findings(old.weeks).union(findings(prefix + rebuiltWeeks))
  for start in first..<old.weeks.count {
    let span = start..<min(start + lookback, old.weeks.count)
    let fits = span.allSatisfy { index in
      let was = old.weeks[index]
      guard let new = byNumber[was.number] else { return false }
      let slack = { (km: Double) in km * (1 + rules.base.replan.rejoinTolerance) + 0.05 }
      return was.phase == new.phase && was.cutback == new.cutback && was.plannedKm <= slack(new.plannedKm)
        && longest(was) <= slack(longest(new))
    }
    guard fits else { continue }
    let spliced = prefix + rebuiltWeeks.prefix(start - firstRebuilt) + old.weeks.suffix(from: start)
    if findings(spliced).isSubset(of: known) { return start }
  }
  return nil
}

/// When the replanned weeks no longer reach the plan's peak volume or its longest run: what was lost, and why.
func lostNote(old: Plan, new: [Week], from first: Int, units: DistanceUnit) -> String? {
  func peak(_ weeks: [Week]) -> Double {
    weeks.filter { $0.phase != .taper && $0.phase != .race }.map(\.plannedKm).max() ?? 0
  }
  func longest(_ weeks: [Week]) -> Double {
    weeks.flatMap(\.workouts).filter { $0.kind == .long }.map(\.distanceKm).max() ?? 0
  }
  let (oldPeak, newPeak) = (peak(old.weeks), peak(new))
  let (oldLong, newLong) = (longest(old.weeks), longest(new))
  guard newPeak < oldPeak - 0.5 || newLong < oldLong - 0.5 else { return nil }
  return "the plan now peaks at \(units.format(newPeak)) a week (was \(units.format(oldPeak))) with a longest run of "
    + "\(units.format(newLong)) (was \(units.format(oldLong))): the \(new.count - first) weeks left ramp from what "
    + "was run, within the 10 % ramp and the spike guard"
}

/// `weeks` with the days of `pauses` from `today` on without workouts, each week so emptied saying so first (once).
func emptying(_ weeks: [Week], pauses: [ClosedRange<CivilDate>], today: CivilDate) -> [Week] {
  var weeks = weeks
  for pause in pauses where pause.upperBound >= today {
    let emptied = pause.lowerBound > today ? pause : today...max(today, pause.upperBound)
    let line = "Paused \(pause.lowerBound.shortLabel)–\(pause.upperBound.shortLabel)"
    for index in weeks.indices where weeks[index].workouts.contains(where: { emptied.contains($0.date) }) {
      if !weeks[index].rules.contains(line) { weeks[index].rules.insert(line, at: 0) }
      weeks[index].workouts.removeAll { emptied.contains($0.date) }
      weeks[index].plannedKm = (weeks[index].workouts.map(\.distanceKm).reduce(0, +) * 10).rounded() / 10
    }
  }
  return weeks
}

/// The "why" lines of a week partly kept (the days before `today`) and partly rebuilt, in its final numbers.
///
/// While the week's volume is what it was, its lines stay (calendar events quote the first, and the days already
/// past need not change in the calendar). Otherwise the volume line states the final volume and its two parts, and the
/// long-run line comes from the part that holds the long run. A note says what the rest was rebuilt from.
func partlyKeptRules(
  old: Week, rebuilt: [String], final: Week, keptKm: Double, today: CivilDate, fromKm: Double, units: DistanceUnit
) -> [String] {
  let note =
    "Replanned from \(today.shortLabel) (\(units.format(fromKm)) a week from your logs): the days before stay as "
    + "they were"
  guard old.plannedKm != final.plannedKm else { return old.rules + [note] }
  let kept = (keptKm * 10).rounded() / 10
  let volume =
    "Volume \(units.format(final.plannedKm)): \(units.format(kept)) on the days before \(today.shortLabel) as planned, "
    + "\(units.format(((final.plannedKm - kept) * 10).rounded() / 10)) from then on as replanned"
  let isLong = { (line: String) in line.contains("ong run") }
  let longIsPast = final.workouts.contains { $0.kind == .long && $0.date < today }
  return [volume] + (longIsPast ? old.rules : rebuilt).filter(isLong) + [note]
}

/// What was run, as the rebuild's starting point.
struct Fitness {
  /// Whether the current week (so far) was judged as the most recent week: it then stays as planned.
  var throughCurrentWeek = false
  var weeklyKm: Double
  var longestKm: Double
  /// How the volume was judged, in words.
  var volumeBasis: String
  /// How the longest run was judged.
  var longestBasis: String
  /// The most recent whole weeks that were missed or short (under the cut-back share of their plan), in a row.
  var shortWeeks = 0
  /// The last full week run as planned before them (its logged volume, at most its plan), km; nil when none.
  var lastFullKm: Double?
  /// The runner keeps up with the plan: no short week last, and the weighted logs at least
  /// `replan.onTrackShare` of the weighted plan.
  var onTrack = false
}

/// The runner's weekly volume and longest run before `day` (see ``replan(_:completions:today:pause:rules:units:)``),
/// explained in `units`.
func judgeFitness(
  _ plan: Plan, completions: [Completion], before day: CivilDate, rules: PlanRules,
  units: DistanceUnit, weekInProgress: Bool = true, excused: [ClosedRange<CivilDate>] = []
) -> Fitness {
  // The blocks are the plan's weeks (7 days each, from its start); the current week's runs before `day` are not a
  // whole week, so the blocks end where the week of `day` begins, unless the runner is on track this week (at least
  // the cut-back share of what was planned before `day`) and the week, with its remaining days as planned, holds more
  // than the week before it: then it is the most recent block, counted as run so far plus planned from `day` on (a
  // runner ahead of an early short week is not cut back), and it stays as planned.
  let offset = plan.goal.start.days(to: day)
  let thisWeek = plan.goal.start.adding(days: 7 * Int((Double(offset) / 7).rounded(.down)))
  let volume = { (first: CivilDate, last: CivilDate) in
    completions.filter { first <= $0.date && $0.date <= last }.map(\.distanceKm).reduce(0, +)
  }
  let current = plan.weeks.first { $0.start == thisWeek }
  let plannedBefore = current?.workouts.filter { $0.date < day && $0.kind.isRun }.map(\.distanceKm).reduce(0, +) ?? 0
  let plannedRest = current?.workouts.filter { $0.date >= day && $0.kind.isRun }.map(\.distanceKm).reduce(0, +) ?? 0
  let soFar = volume(thisWeek, day.adding(days: -1))
  let projected = soFar + plannedRest
  let inProgress =
    weekInProgress && current != nil && plannedBefore > 0
    && soFar >= rules.base.cutback.volumeFactor * plannedBefore - 0.05
    && projected > volume(thisWeek.adding(days: -7), thisWeek.adding(days: -1)) + 0.05
  let end = inProgress ? thisWeek.adding(days: 7) : thisWeek
  let lookback = rules.base.replan.lookbackWeeks
  var logged: [Double] = []
  var asked: [Double] = []
  // Full weeks (not cut-back, taper or race): the floor continues from the last of them, as the engine's ramp does.
  var full: [Bool] = []
  // The last day of a saved pause the look-back reached (nil: none).
  var sincePause: CivilDate?
  for index in 0..<lookback {
    let first = end.adding(days: -7 * (index + 1))
    let days = first...first.adding(days: 6)
    let runs = completions.filter { days.contains($0.date) && $0.date < day }
    let planned = plan.weeks.first { $0.start == first }
    // Before the plan: what the runner said they ran when it was made, unless they logged that week.
    let startingPoint = planned == nil && first < plan.goal.start
    let run = runs.map(\.distanceKm).reduce(0, +)
    logged.append(
      runs.isEmpty && startingPoint ? plan.goal.currentWeeklyKm : index == 0 && inProgress ? projected : run)
    // A week mostly inside a saved pause, and every week before it, were judged by the replan that saved the pause
    // (its return weeks follow): only the weeks since count, so a runner back on the plan is on track again, and a
    // runner just back keeps the return weeks (a short week before an illness is no reason to rebuild its comeback).
    let paused = (0..<7).filter { offset in excused.contains { $0.contains(first.adding(days: offset)) } }.count
    if paused >= 4 {
      logged.removeLast()
      sincePause = excused.filter { $0.overlaps(days) }.map(\.upperBound).max()
      break
    }
    asked.append(
      planned.map { $0.plannedKm - ($0.phase == .race ? plan.goal.distanceKm : 0) }
        ?? plan.goal.currentWeeklyKm)
    full.append(planned.map { !$0.cutback && $0.phase != .taper && $0.phase != .race } ?? true)
  }
  // Back from a saved pause with no whole week run since: nothing new to judge, so the runner counts as running this
  // week's plan (the return weeks the pause's replan set stand).
  let justBack = logged.isEmpty && sincePause != nil
  if justBack {
    let planned = plan.weeks.first { $0.start <= day && day <= $0.start.adding(days: 6) }?.plannedKm ?? 0
    (logged, asked, full) = ([planned], [planned], [false])
  }
  let weights = Array(rules.base.replan.weekWeights.prefix(logged.count))
  let average = zip(logged, weights).map { $0 * $1 }.reduce(0, +) / weights.reduce(0, +)
  // Never above the plan's own volume for those weeks: extra (or twice-counted) runs do not steepen the ramp.
  let ceiling = asked.max() ?? plan.goal.currentWeeklyKm
  // The floor: one missed or short week counts as a cut-back week, and the week after a cut-back continues from the
  // last full week (docs/training-rules.md, "Cut-back weeks"; the engine's VolumeRule): each full week's logged
  // volume (at most its plan) holds over one missed or short week since, and drops by `cutback.volumeFactor` for
  // each further one. A week is short when under that same share of its plan; a planned cut-back run as planned
  // is not.
  let cutback = rules.base.cutback.volumeFactor
  let short = logged.indices.map { logged[$0] < cutback * asked[$0] - 0.05 }
  let held = logged.indices.filter { full[$0] }.map { index in
    let light = short.prefix(index).filter { $0 }.count
    return (km: min(logged[index], asked[index]) * pow(cutback, Double(max(0, light - 1))), light: light)
  }
  let best = held.max { $0.km < $1.km }
  let floor = best?.km ?? 0
  let shortWeeks = short.prefix { $0 }.count
  let lastFull = logged.indices.first { $0 >= shortWeeks && full[$0] && !short[$0] }.map { min(logged[$0], asked[$0]) }
  let askedAverage = zip(asked, weights).map { $0 * $1 }.reduce(0, +) / weights.reduce(0, +)
  let weekly = max(min(average, ceiling), floor)
  let shown = logged.enumerated().map { index, km in
    index == 0 && inProgress
      ? "\(units.format(km)) this week (\(units.format(soFar)) so far, the rest as planned)" : units.format(km)
  }
  let weighted = weights.map { String(Int($0.rounded())) }.joined(separator: ":")
  var basis =
    logged.count == 1
    ? "last week's log (\(shown[0]))"
    : "the last \(logged.count) weeks' logs (\(shown.joined(separator: ", ")), most recent first) weighted "
      + "\(weighted): \(units.format(average))"
  if justBack, let sincePause {
    basis = "no whole week run since the pause that ended \(sincePause.shortLabel), whose return weeks follow"
  } else if average > ceiling {
    basis += ", held at the plan's \(units.format(ceiling))"
  } else if average < floor {
    basis +=
      ", raised to \(units.format(floor)): a missed or short week counts as a cut-back week, and the week "
      + "after a cut-back continues from the last full week run"
      + ((best?.light ?? 0) > 1 ? " (less \(100 - Int((cutback * 100).rounded())) % for each further week)" : "")
  }
  // The longest run: of the spike guard's look-back, or the plan's last long run done, whichever is longer.
  let window = rules.base.longRun.spikeLookbackWeeks
  let recent = completions.filter { day.adding(days: -7 * window) <= $0.date && $0.date < day }
  var longest = recent.map(\.distanceKm).max() ?? 0
  var longestWhy = "longest run of the last \(window) weeks"
  // The plan's last long run done counts at its planned length when run in full (`replan.longRunDoneShare`),
  // else at what was run; a partial one (``PlanStatus``: short of the plan) not at all (the run itself is in `recent`).
  let status = PlanStatus(plan: plan, runs: completions, today: day)
  var runKm: [String: Double] = [:]
  for run in completions where run.planID == plan.id && run.date < day {
    if let id = run.workoutID { runKm[id] = max(runKm[id] ?? 0, run.distanceKm) }
  }
  if let lastLong = plan.workouts.last(where: {
    $0.kind == .long && $0.date < day && runKm[$0.id] != nil && status.status(of: $0) != .partial
  }) {
    let ran = runKm[lastLong.id] ?? 0
    let counted = ran >= rules.base.replan.longRunDoneShare * lastLong.distanceKm ? lastLong.distanceKm : ran
    if counted > longest {
      longest = counted
      longestWhy =
        "the plan's last long run done (\(lastLong.date.shortLabel)"
        + (counted < lastLong.distanceKm ? ", \(units.format(lastLong.distanceKm)) planned" : "") + ")"
    }
  }
  if day.adding(days: -7 * window) < plan.goal.start, plan.goal.longestRecentRunKm > longest {
    longest = plan.goal.longestRecentRunKm
    longestWhy = "the longest recent run the plan started from"
  }
  return Fitness(
    throughCurrentWeek: inProgress, weeklyKm: weekly, longestKm: longest, volumeBasis: basis,
    longestBasis: "\(longestWhy): \(units.format(longest))", shortWeeks: shortWeeks, lastFullKm: lastFull,
    onTrack: shortWeeks == 0 && average >= rules.base.replan.onTrackShare * askedAverage - 0.05)
}

/// The judged fitness clamped into what the plan engine accepts, with a note for each clamp.
func clampedInputs(
  _ fitness: Fitness, plan: Plan, rules: PlanRules,
  units: DistanceUnit
) -> (weeklyKm: Double, longestKm: Double, notes: [String]) {
  var notes: [String] = []
  let requirements = rules.rules(for: plan.goal.distance)?.requirements
  // The engine's ranges (PlanContext): 5–250 km a week, a longest run of 3–60 km; and a marathon's entry minimums.
  var weekly = min(250, max(5, requirements?.minWeeklyKm ?? 0, (fitness.weeklyKm * 10).rounded() / 10))
  if weekly > fitness.weeklyKm + 0.05 {
    notes.append("volume raised to \(units.format(weekly)), the least a plan holds")
  }
  var longest = min(60, max(3, requirements?.minLongestRunKm ?? 0, (fitness.longestKm * 10).rounded() / 10))
  // A week holds its longest run, and at most seven runs of it.
  if longest > weekly {
    weekly = min(250, max(weekly, longest <= 2 * weekly ? weekly : longest / 2))
    longest = min(longest, weekly)
    notes.append("longest run counted as \(units.format(longest)), at most the week")
  }
  if 7 * longest < weekly {
    longest = min(60, (weekly / 7 * 10).rounded(.up) / 10)
    notes.append("longest run counted as \(units.format(longest)), a seventh of the week")
  }
  return (weekly, longest, notes)
}

/// `changes` by kind, in the order a report lists them (moved, changed, cancelled, added), every kind with its list,
/// empty or not.
public func byKind(_ changes: [WorkoutChange]) -> [(kind: WorkoutChangeKind, changes: [WorkoutChange])] {
  WorkoutChangeKind.allCases.map { kind in (kind, changes.filter { $0.kind == kind }) }
}

/// The workouts that differ between two versions of a plan, by workout id (every workout of `new` added when there
/// is no `old`): what a replan changes, and what a plan pulled from the coach's server changes.
public func workoutChanges(from old: Plan?, to new: Plan) -> [WorkoutChange] {
  let before = Dictionary((old?.workouts ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  let after = Dictionary(new.workouts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  func week(_ id: String, in plan: Plan) -> Int {
    plan.weeks.first { $0.workouts.contains { $0.id == id } }?.number ?? 0
  }
  var changes: [WorkoutChange] = []
  for workout in new.workouts {
    guard let was = before[workout.id] else {
      changes.append(
        WorkoutChange(
          kind: .added, workoutID: workout.id, week: week(workout.id, in: new),
          title: workout.title, oldDate: nil, newDate: workout.date))
      continue
    }
    guard was != workout else { continue }
    changes.append(
      WorkoutChange(
        kind: was.date != workout.date ? .moved : .changed, workoutID: workout.id,
        week: week(workout.id, in: new), title: workout.title, oldDate: was.date,
        newDate: workout.date, oldTitle: was.title == workout.title ? nil : was.title))
  }
  for workout in old?.workouts ?? [] where after[workout.id] == nil {
    changes.append(
      WorkoutChange(
        kind: .cancelled, workoutID: workout.id, week: old.map { week(workout.id, in: $0) } ?? 0,
        title: workout.title, oldDate: workout.date, newDate: nil))
  }
  func day(_ change: WorkoutChange) -> CivilDate { change.newDate ?? change.oldDate ?? new.goal.raceDate }
  return changes.sorted { (day($0), $0.workoutID) < (day($1), $1.workoutID) }
}

/// `70 %`.
private func percent(_ fraction: Double) -> String { "\(Int((fraction * 100).rounded())) %" }

extension ReplanError {
  /// Every replan error is about what was asked for.
  public var kind: FailureKind { .badInput }
}
