import Foundation

/// Builds a training plan: `Goal + PlanRules → Plan`.
///
/// ```
/// Goal ──► PlanContext (defaults, safety checks, phases, targets)
///      ──► for each week: VolumeRule → LongRunRule → QualityRule → EasyFillRule → IntensityBalanceRule
///      ──► Workouts (steps, titles, descriptions) ──► Plan
/// ```
/// Pure: no clock, no disk, no time zone. The same inputs give the same plan, byte for byte.
///
/// - Parameters:
///   - goal: distance, level, timeline and the runner's current training.
///   - rules: the decoded `plan-templates/`.
///   - units: the unit for titles and descriptions (numbers in the plan are always kilometres).
/// - Throws: ``PlanError`` when the goal is impossible or unsafe, with what is allowed and a suggestion.
public func makePlan(goal: Goal, rules: PlanRules, units: DistanceUnit = .km) throws(PlanError) -> Plan {
  var context = try PlanContext(goal: goal, rules: rules, units: units)
  let ruleChain: [any WeekRule.Type] = [VolumeRule.self, LongRunRule.self, QualityRule.self, EasyFillRule.self,
                                        IntensityBalanceRule.self]
  var drafts: [WeekDraft] = []
  for (index, phase) in context.phases.enumerated() {
    let number = index + 1
    let start = goal.timeline.start.adding(days: 7 * index)
    var week = WeekDraft(number: number, phase: phase, start: start,
                         slots: daySlots(weekStart: start, phase: phase, context: context))
    for rule in ruleChain { rule.apply(to: &week, context: context, history: drafts) }
    drafts.append(week)
  }
  context.warnings += planWarnings(drafts, context: context)

  let id = planID(context: context)
  let factory = WorkoutFactory(context: context, planID: id)
  let weeks = drafts.map { draft in
    let workouts = factory.workouts(for: draft)
    return Week(number: draft.number, phase: draft.phase, start: draft.start, targetKm: round1(draft.targetKm),
                plannedKm: round1(workouts.map(\.distanceKm).reduce(0, +)), cutback: draft.cutback,
                rules: draft.rules, workouts: workouts)
  }
  let predicted = goal.recentRace.map { _ in
    Int(context.paces.vdot.predictedTime(distanceMeters: goal.distance.kilometers * 1000).rounded())
  }
  let resolved = ResolvedGoal(distance: goal.distance, distanceKm: goal.distance.kilometers, level: goal.level,
                              weeks: goal.timeline.weeks, start: goal.timeline.start,
                              raceDate: goal.timeline.raceDate, runsPerWeek: context.runs,
                              currentWeeklyKm: context.currentKm, longestRecentRunKm: context.longestKm,
                              vdot: goal.recentRace.map { _ in (context.paces.vdot.value * 10).rounded() / 10 },
                              predictedTimeSeconds: predicted)
  return Plan(id: id, goal: resolved, warnings: context.warnings, weeks: weeks)
}

/// The week's days from the weekly pattern: offset 0 falls on the race weekday; days after race day are dropped.
func daySlots(weekStart: CivilDate, phase: Phase, context: PlanContext) -> [DaySlot] {
  let raceDate = context.goal.timeline.raceDate
  let anchor = raceDate.weekday.index
  var counters: [PatternSlot.Role: Int] = [:]
  var slots: [DaySlot] = []
  for slot in context.pattern {
    let weekday = (anchor + slot.offset + 7) % 7
    let date = weekStart.adding(days: (weekday - weekStart.weekday.index + 7) % 7)
    counters[slot.role, default: 0] += 1
    let n = counters[slot.role, default: 1]
    let id: String
    switch slot.role {
    case .long: id = phase == .race ? "race" : "long"
    case .quality: id = "q\(n)"
    case .easy: id = "easy\(n)"
    case .recovery: id = n == 1 ? "recovery" : "recovery\(n)"
    }
    if phase == .race && date > raceDate { continue }
    slots.append(DaySlot(id: id, role: slot.role, offset: slot.offset, date: date))
  }
  return slots.sorted { $0.date < $1.date }
}

/// Plan-wide warnings: long-run share, targets not reached.
func planWarnings(_ weeks: [WeekDraft], context: PlanContext) -> [String] {
  var warnings: [String] = []
  let units = context.units
  let warnAbove = context.base.longRun.warnAboveOfWeek
  let heavy = weeks.filter { week in
    guard let long = week.longKm, week.plannedKm > 0 else { return false }
    return long / week.plannedKm > warnAbove + 1e-9
  }
  if let worst = heavy.map({ ($0.longKm ?? 0) / $0.plannedKm }).max() {
    warnings.append("the long run is over \(percent(warnAbove)) of the week in \(heavy.count) week(s) (up to "
      + "\(percent(worst))): usual for low-volume plans; more easy running on other days would balance it")
  }
  let fullWeeks = weeks.filter { $0.phase != .taper && $0.phase != .race }
  let peak = fullWeeks.map(\.plannedKm).max() ?? 0
  if peak < 0.9 * context.level.peakWeeklyKm {
    warnings.append("the plan peaks at \(units.format(peak)) a week, under the \(units.format(context.level.peakWeeklyKm)) "
      + "typical for this goal: the 10 % ramp from \(units.format(context.currentKm)) needs more weeks")
  }
  let peakLong = fullWeeks.compactMap(\.longKm).max() ?? 0
  if peakLong + 0.5 < min(context.level.peakLongRunKm.lower, context.peakLongTargetKm) {
    warnings.append("the longest run reaches \(units.format(peakLong)), short of the usual "
      + "\(units.format(context.level.peakLongRunKm.lower)): the spike guard (+10 % at most) from your longest recent "
      + "run of \(units.format(context.longestKm)) needs more weeks")
  }
  return warnings
}

/// A stable id from the inputs (FNV-1a, 64 bits): same goal, same id; any input changed, another id.
func planID(context: PlanContext) -> String {
  let goal = context.goal
  let parts = [
    "runmate.plan/1", goal.distance.rawValue, goal.level.rawValue, goal.timeline.start.description,
    goal.timeline.raceDate.description, String(goal.timeline.weeks), String(context.runs),
    formatKm(context.currentKm), formatKm(context.longestKm),
    goal.recentRace.map { "\(formatKm($0.distanceKm))=\(Int($0.timeSeconds.rounded()))" } ?? "-",
  ]
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  for byte in parts.joined(separator: "|").utf8 {
    hash ^= UInt64(byte)
    hash = hash &* 0x0000_0100_0000_01b3
  }
  let hex = String(hash, radix: 16)
  return "rm-" + String(repeating: "0", count: 16 - hex.count) + hex
}

/// Rounds to one decimal.
func round1(_ value: Double) -> Double { (value * 10).rounded() / 10 }
