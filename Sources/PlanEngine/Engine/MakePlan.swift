import Foundation
import RunningCore

/// Builds a training plan: `Goal + PlanRules → Plan`.
///
/// ```
/// Goal ──► PlanContext (defaults, safety checks, phases, targets)
///      ──► for each week: VolumeRule → LongRunRule → QualityRule → EasyFillRule → LongRunVariantRule
///          → IntensityBalanceRule → GuardRule → ExplainRule
///      (half, marathon: shaped twice, the second time with the peak long runs laid out: LongRunLayout)
///      ──► Workouts (steps, titles, descriptions) ──► Plan
/// ```
/// Pure: no clock, no disk, no time zone. The same inputs give the same plan, byte for byte.
///
/// - Parameters:
///   - goal: distance, level, timeline and the runner's current training.
///   - rules: the decoded `plan-templates/`.
///   - units: the unit for titles and descriptions (numbers in the plan are always kilometres).
///   - fromWeek: the first week to build (a replan): the plan then holds weeks `fromWeek`…`weeks` with the numbers,
///     phases, dates and cut-back cadence of the full plan, ramping from `goal.currentWeeklyKm` and
///     `goal.longestRecentRunKm` as the runner's state just before week `fromWeek`.
///   - extendedTaper: use the distance's extended taper (true) or its usual one (false), so a rebuilt plan keeps the
///     phases of the plan it rebuilds; nil: decided from the peak the plan reaches.
///   - comeback: a replan after a break: the first weeks built (from `fromWeek`, base, build and peak weeks only) are
///     return weeks at these shares of `goal.currentWeeklyKm` (the volume before the break), their long runs at the
///     same shares of the last long run, with no quality session under the cut-back share; the weeks after continue
///     from the volume before the break, as after a cut-back week.
///   - priorLongestKm: a replan: the longest run of each week before `fromWeek` (most recent last), for the spike
///     guard's look-back across the seam; empty: `goal.longestRecentRunKm` stands for them.
/// - Throws: ``PlanError`` when the goal is impossible or unsafe, with what is allowed and a suggestion.
public func makePlan(
  goal: Goal, rules: PlanRules, units: DistanceUnit = .km, fromWeek: Int = 1,
  extendedTaper: Bool? = nil, comeback: [Double] = [], priorLongestKm: [Double] = []
) throws(PlanError) -> Plan {
  var context = try PlanContext(goal: goal, rules: rules, units: units, extendedTaper: extendedTaper)
  guard (1...context.weeks).contains(fromWeek) else {
    throw .outOfRange(field: .fromWeek, value: String(fromWeek), allowed: "1–\(context.weeks)")
  }
  func returnWeeks(_ phases: [Phase]) -> [Int: Double] {
    var weeks: [Int: Double] = [:]
    for (offset, share) in comeback.enumerated() where fromWeek + offset <= phases.count {
      let phase = phases[fromWeek + offset - 1]
      if phase == .taper || phase == .race { break }
      weeks[fromWeek + offset] = min(1, max(0.3, share))
    }
    return weeks
  }
  context.comeback = returnWeeks(context.phases)
  context.priorLongestKm = priorLongestKm
  var (drafts, marked) = layOutWeeks(context: context, fromWeek: fromWeek)
  // The extended taper depends on the peak the plan reaches, known only once it is built: build again when
  // the first guess (from the peak target) was wrong.
  if extendedTaper == nil, let extended = context.distance.taper.extended {
    // The runner's peak: the plan's biggest full week, or what they run now if that is more.
    func peak(_ weeks: [WeekDraft]) -> Double {
      var most: Double?
      for week in weeks where week.phase != .taper && week.phase != .race {
        most = max(most ?? -.infinity, week.plannedKm)
      }
      return max(context.currentKm, most ?? 0)
    }
    if (peak(drafts) > extended.abovePeakKm) != context.usesExtendedTaper {
      var retry = try PlanContext(
        goal: goal, rules: rules, units: units,
        extendedTaper: peak(drafts) > extended.abovePeakKm)
      retry.comeback = returnWeeks(retry.phases)
      retry.priorLongestKm = priorLongestKm
      let retried = layOutWeeks(context: retry, fromWeek: fromWeek)
      if (peak(retried.drafts) > extended.abovePeakKm) == retry.usesExtendedTaper {
        context = retry
        (drafts, marked) = retried
      }
    }
  }
  // The long run the race needs, or a refusal that names the fix (a new plan only: a replan keeps its race).
  if fromWeek == 1 && peakLongRun(drafts) < context.longRunRefusalKm {
    throw longRunShortError(goal: goal, rules: rules, context: context, reached: peakLongRun(drafts))
  }
  context.warnings += planWarnings(drafts, context: context)

  let id = planID(context: context)
  let factory = WorkoutFactory(context: context, planID: id)
  // The "why" lines are written when read (``ExplainedWeeks``).
  let explained = ExplainedWeeks(drafts: drafts, context: context, marked: marked)
  var runningWeeks: [Week] = []
  runningWeeks.reserveCapacity(drafts.count)
  for (index, draft) in drafts.enumerated() {
    let workouts = factory.workouts(for: draft)
    var plannedKm = 0.0
    for workout in workouts { plannedKm += workout.distanceKm }
    runningWeeks.append(
      Week(
        number: draft.number, phase: draft.phase, start: draft.start, targetKm: round1(draft.targetKm),
        plannedKm: round1(plannedKm), cutback: draft.cutback,
        rules: DeferredText(deferred: { explained.lines(ofWeekAt: index) }), workouts: workouts))
  }
  let weeks = ExtraDays.place(on: runningWeeks, context: context, planID: id)
  let known = context.vdotSource != .levelEstimate
  let predicted =
    known ? Int(context.paces.vdot.predictedTime(distanceMeters: goal.distance.kilometers * 1000).rounded()) : nil
  var resolved = ResolvedGoal(
    distance: goal.distance, distanceKm: goal.distance.kilometers, level: goal.level,
    weeks: goal.timeline.weeks, start: goal.timeline.start,
    raceDate: goal.timeline.raceDate, runsPerWeek: context.runs,
    currentWeeklyKm: context.currentKm, longestRecentRunKm: context.longestKm,
    vdot: round1(context.paces.vdot.value),
    predictedTimeSeconds: predicted, crossTrainingPerWeek: goal.crossTrainingPerWeek,
    strengthPerWeek: goal.strengthPerWeek, runDays: goal.runDays,
    longRunDay: goal.laidOnRunnersDays ? context.anchor : nil,
    goalTimeSeconds: goal.goalTimeSeconds.map { Int($0.rounded()) }, vdotSource: context.vdotSource)
  resolved.birthYear = goal.birthYear
  return Plan(id: id, goal: resolved, warnings: context.warnings, weeks: weeks)
}

/// Shapes every week in order, from week `fromWeek` on (the weeks before it are the runner's past: the context's
/// current volume and longest run stand for them).
/// `explain: false` leaves out the weeks' "why" lines (``ExplainRule``, the costliest rule): a shaping that may be thrown
/// away (a first shaping, a layout tried) is explained only once chosen, by ``ExplainedWeeks``.
/// `memo`: the weeks of earlier shapings of the same plan with other long-run layouts (``layOutWeeks(context:fromWeek:)``),
/// reused where a week comes out of ``VolumeRule`` and ``LongRunRule`` as it did then.
func shapeWeeks(
  context: PlanContext, fromWeek: Int = 1, explain: Bool = true, memo: ShapedWeeks? = nil
) -> [WeekDraft] {
  eachWeek(context: context, fromWeek: fromWeek) { week, history in
    shapeWeek(&week, context: context, history: history, explain: explain, memo: memo)
    return WeekSummary(week)
  }
}

/// The weeks shaped so far while a plan's long-run layouts are tried (``layOutWeeks(context:fromWeek:)``), by week
/// number: each as it came out of ``VolumeRule`` and ``LongRunRule``, with its history, the long-run variant its
/// layout gave it, and the finished week.
///
/// A layout reaches a week's rules only through ``LongRunRule`` (the week's long run, role and held runs) and the
/// week's variant (``QualityRule``, ``LongRunVariantRule``); every rule reads only the context, the week and its
/// history. So a week that leaves ``LongRunRule`` as it did in an earlier shaping, after the same history and with the
/// same variant, is finished as it was then: the finished week is taken instead of running the rules again.
final class ShapedWeeks {
  struct Entry {
    let history: [WeekSummary]
    let variant: LongRunVariantKind?
    let ruled: WeekDraft
    let shaped: WeekDraft
  }
  private var entries: [Int: [Entry]] = [:]

  /// The finished week shaped before from `ruled` (the week after ``LongRunRule``) after `history`, if any.
  func shaped(_ ruled: WeekDraft, variant: LongRunVariantKind?, history: [WeekSummary]) -> WeekDraft? {
    entries[ruled.number]?.first { $0.variant == variant && $0.ruled == ruled && $0.history == history }?.shaped
  }

  func record(_ ruled: WeekDraft, variant: LongRunVariantKind?, history: [WeekSummary], shaped: WeekDraft) {
    entries[ruled.number, default: []].append(
      Entry(history: history, variant: variant, ruled: ruled, shaped: shaped))
  }
}

/// A sketch of the weeks: only their volume and long run (``VolumeRule``, ``LongRunRule``), each week taken to hold
/// its target. Enough to lay out the peak long runs at a fraction of a full shaping's cost; the shaping with the
/// layout then finds where a week falls short, and the layout follows it (``layOutWeeks(context:fromWeek:)``).
func sketchWeeks(context: PlanContext, fromWeek: Int = 1) -> [WeekDraft] {
  eachWeek(context: context, fromWeek: fromWeek) { week, history in
    VolumeRule.apply(to: &week, context: context, history: history)
    LongRunRule.apply(to: &week, context: context, history: history)
    return WeekSummary(sketch: week)
  }
}

/// The weeks from `fromWeek` on, each laid on its dates and given to `shape` with the summaries of the weeks before
/// it; `shape` returns the week's summary for the weeks after.
private func eachWeek(
  context: PlanContext, fromWeek: Int, _ shape: (inout WeekDraft, [WeekSummary]) -> WeekSummary
) -> [WeekDraft] {
  var drafts: [WeekDraft] = []
  var history: [WeekSummary] = []
  drafts.reserveCapacity(context.phases.count)
  history.reserveCapacity(context.phases.count)
  for (index, phase) in context.phases.enumerated() where index + 1 >= fromWeek {
    let start = context.goal.timeline.start.adding(days: 7 * index)
    // Shaped where it is kept: a week is large, and shaping a local copy then appending it copied it twice.
    drafts.append(WeekDraft(number: index + 1, phase: phase, start: start, slots: context.weekSlots[index]))
    history.append(shape(&drafts[drafts.count - 1], history))
  }
  return drafts
}

/// Runs the week rules in order. Quality sessions are sized against the week's volume, which is only known
/// once the easy running is filled in; when the week comes out smaller than its target, the sessions are
/// sized again against what it holds. `GuardRule` then enforces the ceilings on the finished week, and
/// `ExplainRule` writes the week's "why" lines from its final numbers.
func shapeWeek(
  _ week: inout WeekDraft, context: PlanContext, history: [WeekSummary], explain: Bool = true,
  memo: ShapedWeeks? = nil
) {
  VolumeRule.apply(to: &week, context: context, history: history)
  LongRunRule.apply(to: &week, context: context, history: history)
  let variant = context.longRunLayout?.variants[week.number]
  var ruled: WeekDraft?
  if let memo {
    if let shaped = memo.shaped(week, variant: variant, history: history) {
      week = shaped
      if explain { ExplainRule.apply(to: &week, context: context, history: history) }
      return
    }
    ruled = week
  }
  let mark = week.rules.count
  for _ in 0..<4 {
    week.rules.removeSubrange(mark...)
    week.sessions = [:]
    week.easyKm = [:]
    week.shakeoutSlots = []
    QualityRule.apply(to: &week, context: context, history: history)
    EasyFillRule.apply(to: &week, context: context, history: history)
    let planned = week.plannedKm
    let fits = week.sessions.values.allSatisfy {
      $0.workTotalKm <= context.workCap(zone: $0.zone, volumeKm: planned) - 0.05
    }
    if fits { break }
    week.sizingKm = min(planned, week.sizingKm ?? week.targetKm) - 0.5
  }
  LongRunVariantRule.apply(to: &week, context: context, history: history)
  IntensityBalanceRule.apply(to: &week, context: context, history: history)
  GuardRule.apply(to: &week, context: context, history: history)
  LongRunVariantRule.enforce(&week, context: context)
  if let memo, let ruled { memo.record(ruled, variant: variant, history: history, shaped: week) }
  if explain { ExplainRule.apply(to: &week, context: context, history: history) }
}

/// The "why" lines of a plan's weeks shaped with `explain: false`, written when a week's lines are read:
/// ``ExplainRule`` with the week's history, as ``shapeWeeks(context:fromWeek:explain:)`` would have (it is the last
/// rule and changes no number), then the peak long runs named (``markPeakLongRuns(_:context:)``) when the plan was
/// laid out with peaks. One per plan, shared by its weeks.
final class ExplainedWeeks: Sendable {
  let drafts: [WeekDraft]
  let context: PlanContext
  /// The summaries of `drafts`, in order: week `i`'s history is the first `i`.
  let summaries: [WeekSummary]
  /// The weeks whose long-run line names a peak long run.
  let peakLongRun: [Bool]

  init(drafts: [WeekDraft], context: PlanContext, marked: Bool) {
    self.drafts = drafts
    self.context = context
    summaries = drafts.map { WeekSummary($0) }
    peakLongRun = marked ? peakLongRunWeeks(drafts, context: context) : Array(repeating: false, count: drafts.count)
  }

  /// The "why" lines of `drafts[index]`.
  func lines(ofWeekAt index: Int) -> [String] {
    var week = drafts[index]
    ExplainRule.apply(to: &week, context: context, history: Array(summaries[..<index]))
    if peakLongRun[index] { markPeakLongRun(&week, context: context) }
    return week.rules
  }
}

/// The week's days from the weekly pattern: offset 0 falls on the context's anchor (the race weekday, or the
/// runner's long-run day); days after race day are dropped. Laid on the runner's days, race week is
/// ``raceWeekEntries(_:weekStart:context:)``.
func daySlots(weekStart: CivilDate, phase: Phase, context: PlanContext) -> [DaySlot] {
  let raceDate = context.goal.timeline.raceDate
  let anchor = context.anchor.index
  let laid = context.goal.laidOnRunnersDays
  var entries: [(offset: Int, role: PatternSlot.Role, date: CivilDate)] = context.pattern.map { slot in
    let weekday = (anchor + slot.offset + 7) % 7
    return (slot.offset, slot.role, weekStart.adding(days: (weekday - weekStart.weekday.index + 7) % 7))
  }
  if laid && phase == .race { entries = raceWeekEntries(entries, weekStart: weekStart, context: context) }
  // How many slots of each role so far (long, quality, easy, recovery): a week lays out every plan's days, so no
  // dictionary and no interpolation for the usual ids.
  var counters = (long: 0, quality: 0, easy: 0, recovery: 0)
  var slots: [DaySlot] = []
  slots.reserveCapacity(entries.count)
  for entry in entries {
    let id: String
    switch entry.role {
    case .long:
      counters.long += 1
      id = phase == .race ? "race" : "long"
    case .quality:
      counters.quality += 1
      let n = counters.quality
      id = n < qualityIDs.count ? qualityIDs[n] : "q\(n)"
    case .easy:
      counters.easy += 1
      let n = counters.easy
      id = n < easyIDs.count ? easyIDs[n] : "easy\(n)"
    case .recovery:
      counters.recovery += 1
      let n = counters.recovery
      id = n == 1 ? "recovery" : "recovery\(n)"
    }
    if phase == .race && entry.date > raceDate { continue }
    slots.append(DaySlot(id: id, role: entry.role, offset: entry.offset, date: entry.date))
  }
  return slots.sorted { $0.date < $1.date }
}

/// The usual slot ids, by their number (index 0 unused).
private let qualityIDs = ["", "q1", "q2", "q3", "q4", "q5", "q6", "q7"]
private let easyIDs = ["", "easy1", "easy2", "easy3", "easy4", "easy5", "easy6", "easy7"]

/// Race week laid on the runner's days: the race on race day in place of the long run (a run day's slot there
/// becomes the race; a long-run day before it becomes an easy run when the race takes a run day, else it rests, so
/// the week keeps its number of runs); days after the race dropped. A quality day beside the race moves to the
/// latest easy day before it that is apart from every hard day (the race, the other quality days, the long run of
/// the week before), else it is an easy run.
func raceWeekEntries(
  _ entries: [(offset: Int, role: PatternSlot.Role, date: CivilDate)], weekStart: CivilDate, context: PlanContext
) -> [(offset: Int, role: PatternSlot.Role, date: CivilDate)] {
  let raceDate = context.goal.timeline.raceDate
  let raceOnRunDay = entries.contains { $0.date == raceDate && $0.role != .long }
  var result: [(offset: Int, role: PatternSlot.Role, date: CivilDate)] = []
  for entry in entries where entry.date <= raceDate {
    if entry.date == raceDate {
      result.append((entry.offset, .long, entry.date))
    } else if entry.role == .long {
      if raceOnRunDay { result.append((entry.offset, .easy, entry.date)) }
    } else {
      result.append(entry)
    }
  }
  if !result.contains(where: { $0.role == .long }), raceDate <= weekStart.adding(days: 6) {
    result.append((-((context.anchor.index - raceDate.weekday.index + 7) % 7), .long, raceDate))
  }
  let previousLong = entries.first { $0.role == .long }.map { $0.date.adding(days: -7) }
  for index in result.indices where result[index].role == .quality && result[index].date.days(to: raceDate) <= 1 {
    result[index].role = .easy
    let hard = result.filter { $0.role == .quality || $0.role == .long }.map(\.date) + [previousLong].compactMap { $0 }
    let target = result.indices.filter { other in
      (result[other].role == .easy || result[other].role == .recovery) && other != index
        && hard.allSatisfy { abs($0.days(to: result[other].date)) > 1 }
    }.max { result[$0].date < result[$1].date }
    if let target { result[target].role = .quality }
  }
  return result.sorted { $0.offset < $1.offset }
}

/// The plan's longest long run before race week.
func peakLongRun(_ weeks: [WeekDraft]) -> Double {
  // Read in place: a week is large, and a filtered copy of the weeks costs more than the look.
  var longest: Double?
  for week in weeks where week.phase != .race {
    if let long = week.longKm { longest = max(longest ?? -.infinity, long) }
  }
  return longest ?? 0
}

/// Whether the goal's plan reaches the long run its race needs (shaped, not built into workouts).
func reachesLongRunNeed(_ goal: Goal, rules: PlanRules, units: DistanceUnit) -> Bool {
  guard let context = try? PlanContext(goal: goal, rules: rules, units: units) else { return false }
  return peakLongRun(layOutWeeks(context: context, fromWeek: 1).drafts) >= context.longRunRefusalKm
}

/// The refusal for a plan whose long run falls short of the race's need, with the fixes that work: the earliest
/// race date (the same weekday, weeks added before: a base phase) whose plan reaches it, fewer or more runs a week if
/// that reaches it in the same weeks, and the shorter distances this plan's long run is enough for.
func longRunShortError(goal: Goal, rules: PlanRules, context: PlanContext, reached: Double) -> PlanError {
  let weeks = goal.timeline.weeks
  let growth = Int(
    (log(context.longRunNeedKm / context.longestKm) / log(context.base.longRun.spikeFactor)).rounded(.up))
  var weeksNeeded: Int?
  var earliest = max(weeks + 1, growth + context.taperVolume.count + 1)
  var tries = 0
  while weeksNeeded == nil && earliest <= rules.base.maxWeeks && tries < 12 {
    var longer = goal
    longer.timeline = Timeline(
      start: goal.timeline.raceDate.adding(days: -(7 * earliest - 1)), raceDate: goal.timeline.raceDate,
      weeks: earliest)
    if reachesLongRunNeed(longer, rules: rules, units: context.units) { weeksNeeded = earliest }
    earliest += 1
    tries += 1
  }
  // Fewer runs a week first (the long run takes more of the week), then more (at 3-4 runs the other runs are capped
  // in time, so the week, and the long run with it, peaks lower).
  let otherRuns =
    Array(stride(from: context.runs - 1, through: 3, by: -1)) + Array(stride(from: context.runs + 1, through: 7, by: 1))
  let runsPerWeek = otherRuns.first { runs in
    var other = goal
    other.runsPerWeek = runs
    return reachesLongRunNeed(other, rules: rules, units: context.units)
  }
  let alternatives = RaceDistance.allCases.filter { other in
    guard other.kilometers < goal.distance.kilometers, let distance = rules.rules(for: other) else { return false }
    return distance.shortestUsefulPeakLongRunKm(goal.level) <= reached + 0.5
  }
  return .longRunShort(
    distance: goal.distance, weeks: weeks, longestKm: context.longestKm, reachedKm: round1(reached),
    needKm: context.longRunNeedKm, weeksNeeded: weeksNeeded,
    raceDate: weeksNeeded.map {
      goal.timeline.start.adding(days: 7 * ($0 - weeks)).adding(
        days: goal.timeline.start.days(to: goal.timeline.raceDate))
    },
    runsPerWeek: runsPerWeek, alternatives: alternatives)
}

/// Plan-wide warnings: long-run share, targets not reached.
func planWarnings(_ weeks: [WeekDraft], context: PlanContext) -> [String] {
  var warnings = longRunByTimeWarnings(weeks, context: context)
  let units = context.units
  let warnAbove = context.base.longRun.warnAboveOfWeek
  // The weeks are read in place (a week is large: no filtered copies).
  var heavy = 0
  var worst: Double?
  for week in weeks {
    guard let long = week.longKm else { continue }
    let planned = week.plannedKm
    guard planned > 0, long / planned > warnAbove + 1e-9 else { continue }
    heavy += 1
    worst = max(worst ?? -.infinity, long / planned)
  }
  if let worst {
    warnings.append(
      "the long run is over \(percent(warnAbove)) of the week in \(heavy) week(s) (up to "
        + "\(percent(worst))): usual for low-volume plans; more easy running on other days would balance it")
  }
  if let first = weeks.first, context.comeback.isEmpty, first.plannedKm < 0.85 * context.currentKm {
    warnings.append(
      "week \(first.number) holds \(units.format(first.plannedKm)), less than your current "
        + "\(units.format(context.currentKm)): "
        + "with a longest recent run of \(units.format(context.longestKm)) the other runs stay under "
        + "\(units.format(first.longKm.map { $0 / context.base.longRun.minRatioToOtherRuns } ?? 0)) so the long run "
        + "is a third longer; more runs a week, or your real longest run, give a fuller start")
  }
  func isFull(_ week: WeekDraft) -> Bool { week.phase != .taper && week.phase != .race }
  var peakKm: Double?
  var peakLongKm: Double?
  for week in weeks where isFull(week) {
    peakKm = max(peakKm ?? -.infinity, week.plannedKm)
    if let long = week.longKm { peakLongKm = max(peakLongKm ?? -.infinity, long) }
  }
  let peak = peakKm ?? 0
  if peak < 0.9 * context.level.peakWeeklyKm {
    let build = { (week: WeekDraft) in week.phase == .peak || week.phase == .build }
    let structural = weeks.contains { build($0) && $0.cappedByLong }
    let byMinutes = weeks.contains { build($0) && $0.cappedByMinutes }
    warnings.append(
      "the plan peaks at \(units.format(peak)) a week, under the \(units.format(context.level.peakWeeklyKm)) "
        + "typical for this goal: "
        + (byMinutes
          ? "with \(context.runs) runs a week each run but the long run lasts at most "
            + "\(Int(context.base.weekStructure.otherRunMaxMinutesAtFewRuns ?? 0)) minutes "
            + "(\(units.format(context.otherRunCapKm))); more runs a week would carry more"
          : structural
            ? "with \(context.runs) runs a week the other runs cannot carry more while the long run stays a third "
              + "longer than each of them; more runs a week would allow it"
            : "the 10 % ramp from \(units.format(context.currentKm)) needs more weeks"))
  }
  if let eve = runDaysEveWarning(weeks, context: context) { warnings.append(eve) }
  if let fewer = fewerRunsWarning(weeks, context: context) { warnings.append(fewer) }
  let peakLong = peakLongKm ?? 0
  if peakLong + 0.5 < min(context.level.peakLongRunKm.lower, context.peakLongTargetKm) {
    warnings.append(
      "the longest run reaches \(units.format(peakLong)), short of the usual "
        + "\(units.format(context.level.peakLongRunKm.lower)): the spike guard (+10 % at most) from your longest recent "
        + "run of \(units.format(context.longestKm)) needs more weeks")
  }
  return warnings
}

/// Laid on the runner's run days with a run on the day before the long run: the weeks where that run stays the
/// shortest run although half the long run is less, and where the long run is over its share of the week, named
/// with the days (the template's rest day there is not a run day).
func runDaysEveWarning(_ weeks: [WeekDraft], context: PlanContext) -> String? {
  guard let runDays = context.goal.runDays, context.pattern.contains(where: { $0.offset == -1 }) else { return nil }
  let structure = context.base.weekStructure
  var atMinimum: [Int] = []
  var overShare: [Int] = []
  for week in weeks {
    if week.eveAtMinimum { atMinimum.append(week.number) }
    guard let long = week.longKm, week.plannedKm > 0 else { continue }
    if round1(long) > structure.longRunMaxOfWeek * week.plannedKm + 1e-9 { overShare.append(week.number) }
  }
  guard !atMinimum.isEmpty || !overShare.isEmpty else { return nil }
  let long = context.anchor
  let eve = Weekday.allCases[(long.index + 6) % 7]
  func list(_ numbers: [Int]) -> String { numbers.map(String.init).joined(separator: ", ") }
  var parts: [String] = []
  if !atMinimum.isEmpty {
    parts.append(
      "it stays the shortest run (\(context.units.format(context.minRunKm))), over half the long run, in week"
        + "\(atMinimum.count == 1 ? "" : "s") \(list(atMinimum))")
  }
  if !overShare.isEmpty {
    parts.append(
      "the long run is over \(percent(structure.longRunMaxOfWeek)) of the week in week"
        + "\(overShare.count == 1 ? "" : "s") \(list(overShare))")
  }
  return "your run days \(WeekLayout.dayList(Set(runDays))) put a run on \(eve.shortName), the day before the long "
    + "run (\(long.shortName)), and leave no other day for it: \(parts.joined(separator: "; ")); a rest day before "
    + "\(long.shortName) would let the other days carry the volume"
}

/// The weeks with fewer runs than asked for (race week aside), named in one line: the header says it, and each week
/// says why (``ExplainRule``).
func fewerRunsWarning(_ weeks: [WeekDraft], context: PlanContext) -> String? {
  var fewer: [Int] = []
  var least = Int.max
  var most = Int.min
  for week in weeks where week.phase != .race {
    let runs = week.runCount
    guard runs < context.runs else { continue }
    fewer.append(week.number)
    least = min(least, runs)
    most = max(most, runs)
  }
  guard !fewer.isEmpty else { return nil }
  let counts = least == most ? "\(least)" : "\(least)–\(most)"
  return "week\(fewer.count == 1 ? "" : "s") \(numberRanges(fewer)) \(fewer.count == 1 ? "has" : "have") "
    + "\(counts) runs, not the \(context.runs) you asked for: a week holds a run only when it lasts about "
    + "\(Int(context.base.weekStructure.minRunMinutes)) minutes beside the long run (cut-back and taper weeks have fewer "
    + "kilometres); the runs come back as the volume grows"
}

/// `1–4, 6, 9–12`.
func numberRanges(_ numbers: [Int]) -> String {
  var parts: [String] = []
  var index = 0
  let sorted = numbers.sorted()
  while index < sorted.count {
    var end = index
    while end + 1 < sorted.count && sorted[end + 1] == sorted[end] + 1 { end += 1 }
    parts.append(end == index ? "\(sorted[index])" : "\(sorted[index])–\(sorted[end])")
    index = end + 1
  }
  return parts.joined(separator: ", ")
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
  // Only plans with cross-training or strength days hash them, so every other plan keeps its id.
  let extras =
    goal.crossTrainingPerWeek > 0 || goal.strengthPerWeek > 0
    ? ["x\(goal.crossTrainingPerWeek)s\(goal.strengthPerWeek)"] : []
  // Only plans laid on the runner's days hash the days and the long-run day: another week layout is another plan.
  let days =
    goal.laidOnRunnersDays
    ? ["d" + (goal.runDays ?? Weekday.allCases).map(\.rawValue).joined(separator: ",") + "l\(context.anchor.rawValue)"]
    : []
  // Only plans with a goal time hash it, so every plan without one keeps its id.
  let goalTime = goal.goalTimeSeconds.map { ["g\(Int($0.rounded()))"] } ?? []
  // Only plans made with a birth year hash it.
  let born = goal.birthYear.map { ["b\($0)"] } ?? []
  return hashedPlanID((parts + extras + days + goalTime + born).joined(separator: "|"))
}

/// `rm-` and the FNV-1a hash (64 bits, 16 hex digits) of `text`.
func hashedPlanID(_ text: String) -> String {
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  for byte in text.utf8 {
    hash ^= UInt64(byte)
    hash = hash &* 0x0000_0100_0000_01b3
  }
  let hex = String(hash, radix: 16)
  return "rm-" + String(repeating: "0", count: 16 - hex.count) + hex
}

/// Rounds to one decimal.
func round1(_ value: Double) -> Double { (value * 10).rounded() / 10 }
