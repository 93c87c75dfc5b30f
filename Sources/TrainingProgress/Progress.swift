import Foundation
import PlanEngine
import RunningCore
import TrainingDomain

/// The sum of a health field over [start, end], nil when no day of it has data.
func healthSum(_ days: [HealthDay], _ start: CivilDate, _ end: CivilDate, _ field: KeyPath<HealthDay, Double>)
  -> Double?
{
  let inside = days.filter { start <= $0.date && $0.date <= end }
  return inside.isEmpty ? nil : inside.map { $0[keyPath: field] }.reduce(0, +).rounded()
}

/// Compares what was planned with what was run, week by week.
///
/// Runs count in the week their date falls in; a planned workout is done, partial or missed by the one rule,
/// ``PlanStatus/status(of:)`` (the compliance bands of ``Compliance``).
///
/// Each run's load (``runLoad(_:thresholdSecondsPerKm:heart:)``) is from heart rate when the run has one and `heart`
/// is known, else from pace against the plan's threshold pace, else RPE or time.
public func makeProgress(
  plan: Plan, completions: [Completion], today: CivilDate,
  health: [HealthDay] = [], paused: [ClosedRange<CivilDate>] = [], heart: HeartRates? = nil
) -> ProgressReport {
  let status = PlanStatus(plan: plan, runs: completions, today: today, paused: paused)
  let workoutsByID = Dictionary(uniqueKeysWithValues: plan.workouts.map { ($0.id, $0) })
  let pauses = paused
  var weeks: [WeekProgress] = []
  for week in plan.weeks {
    let end = week.start.adding(days: 6)
    let runs = completions.filter { week.start <= $0.date && $0.date <= end }
    // Cross-training and strength days are never matched to a run: they count neither as done nor as missed.
    let planned = week.workouts.filter(\.kind.isRun)
    let done = planned.filter { status.status(of: $0) == .done }
    let missed = planned.filter { status.status(of: $0) == .missed }
    let paused = planned.filter { status.status(of: $0) == .paused }
    let easy = runs.filter { run in
      let kind = run.workoutID.flatMap { workoutsByID[$0]?.kind } ?? run.kind
      return kind == .easy || kind == .recovery || kind == .long || kind == .strides
    }
    let easyPace =
      easy.isEmpty
      ? nil
      : easy.map { $0.movingSeconds ?? $0.durationSeconds }.reduce(0, +) / easy.map(\.distanceKm).reduce(0, +)
    let doneKm = runs.map(\.distanceKm).reduce(0, +)
    // A week under way is judged on what was due so far: the days before today, and today's once a run is logged
    // today. On its first morning, before a run is due, it has no compliance yet rather than 0 %.
    let ranToday = runs.contains { $0.date == today }
    let dueKm =
      end < today
      ? week.plannedKm
      : planned.filter { $0.date < today || ($0.date == today && ranToday) }.map(\.distanceKm).reduce(0, +)
    var progress =
      WeekProgress(
        number: week.number, start: week.start, phase: week.phase, planned: Distance(kilometers: week.plannedKm),
        done: Distance(kilometers: doneKm), plannedSessions: planned.count, doneSessions: done.count,
        missedSessions: missed.count, extraRuns: runs.filter { $0.planID != plan.id || $0.workoutID == nil }.count,
        compliancePercent: week.start <= today && dueKm > 0 ? wholePercent(100 * doneKm / dueKm) : nil,
        longestRun: runs.map(\.distance).max() ?? .zero,
        averageEasyPace: easyPace.map { Pace(secondsPerKilometer: $0.rounded()) },
        hardSessions: done.filter(\.hard).count,
        steps: healthSum(health, week.start, end, \.steps),
        activeKcal: healthSum(health, week.start, end, \.activeEnergyKcal))
    progress.pausedSessions = paused.count
    // A replan takes a paused week's workouts out of the plan: with none left, a week inside a pause is paused too.
    progress.withinPause = (0..<7).allSatisfy { offset in
      pauses.contains { $0.contains(week.start.adding(days: offset)) }
    }
    if progress.isPaused { progress.compliancePercent = nil }
    weeks.append(progress)
  }
  // Streak: consecutive days with a run, ending today (or yesterday, when today's run is still to come).
  let days = Set(completions.map(\.date.dayNumber))
  var streak = 0
  var day = days.contains(today.dayNumber) ? today.dayNumber : today.dayNumber - 1
  while days.contains(day) {
    streak += 1
    day -= 1
  }
  // Load = km × RPE when known (session RPE), else km: acute (7 days) against chronic (28 days / 4).
  func load(_ run: Completion) -> Double { run.distanceKm * Double(run.rpe ?? 5) }
  let recent = completions.filter { today.adding(days: -7) < $0.date && $0.date <= today }
  let chronic = completions.filter { today.adding(days: -28) < $0.date && $0.date <= today }
  let chronicWeekly = chronic.map(load).reduce(0, +) / 4
  let acute = recent.map(load).reduce(0, +)
  let ratio = chronicWeekly > 0 ? ((acute / chronicWeekly) * 100).rounded() / 100 : nil
  var daily = Array(repeating: 0.0, count: 7)
  for run in recent { daily[6 - run.date.days(to: today)] += load(run) }
  let mean = daily.reduce(0, +) / 7
  let deviation = (daily.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / 7).squareRoot()
  let monotony = deviation > 0 ? ((mean / deviation) * 100).rounded() / 100 : nil
  // Fitness, fatigue and form from every run so far, each run's load from pace against the plan's threshold pace.
  // Seeded with the weekly volume the runner gave the plan, run at the middle of the easy range.
  let vdot = plan.goal.vdot.map { VDOT(value: $0) }
  let threshold = vdot?.threshold.secondsPerKilometer
  let seed = vdot.map { vdot in
    let easy = vdot.pace(for: .easy).secondsPerKilometer
    let perDayKm = plan.goal.currentWeeklyKm / 7
    return runLoad(
      Completion(date: plan.goal.start, distanceKm: perDayKm, durationSeconds: perDayKm * easy),
      thresholdSecondsPerKm: threshold
    ).points
  }
  let load = loadState(
    completions, today: today, thresholdSecondsPerKm: threshold, heart: heart, start: plan.goal.start,
    seed: seed ?? 0)
  // The source most runs' load came from (pace on a tie, then heart rate).
  let sources = completions.filter { $0.isRun && $0.date <= today }.map {
    runLoad($0, thresholdSecondsPerKm: threshold, heart: heart).source
  }
  let order: [LoadSource] = [.pace, .heartRate, .rpe, .time]
  let counts = order.map { source in sources.filter { $0 == source }.count }
  let fallback: LoadSource = threshold == nil ? (completions.contains { $0.rpe != nil } ? .rpe : .time) : .pace
  let loadSource = sources.isEmpty ? fallback : order[counts.firstIndex(of: counts.max() ?? 0) ?? 0]
  let tenths = { (value: Double) in value.isFinite ? (value * 10).rounded() / 10 : nil }
  return ProgressReport(
    planID: plan.id, today: today, weeks: weeks, currentStreakDays: streak,
    acuteChronicRatio: ratio, monotony: monotony, fitness: load.flatMap { tenths($0.fitness) },
    fatigue: load.flatMap { tenths($0.fatigue) }, form: load.flatMap { tenths($0.form) },
    fitnessRampPerWeek: load.flatMap { tenths($0.rampPerWeek) },
    loadSource: loadSource)
}

/// A percentage rounded to a whole number; nil when it is not finite or too large for an `Int` (a run stored with
/// an absurd distance), so no stored value can trap.
private func wholePercent(_ value: Double) -> Int? {
  let rounded = value.rounded()
  return rounded.isFinite && abs(rounded) < 1e15 ? Int(rounded) : nil
}
