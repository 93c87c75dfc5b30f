import RunningCore

/// Where a plan's peak long runs fall, and which long runs carry race-specific work (half, marathon:
/// `longRun.peaks` and `longRun.variants` in the distance file).
///
/// Pfitzinger, Hansons and Higdon run the peak long run about three times, never two weeks running, with shorter
/// long runs (80–85 %) between, the last one three weeks before a marathon. The plan is shaped once without this
/// layout; its longest long run and the weeks that reach it (within `withinOfLongest`) are then known:
/// - peak weeks: up to `maxCount` of those weeks, latest first, never two in a row, none after
///   `lastDaysBeforeRace` days before race day;
/// - step-back weeks: every other full week from the first peak on runs at most `stepBackOfPeak` × the peak, as
///   does any earlier week that reached the peak band but was not picked;
/// - variants: the full build and peak weeks that are not peak weeks take `variants.rotation` in turn, counted back
///   from the last one (levels in `variants.levels` only). The plan is then shaped again with the layout.
struct LongRunLayout: Sendable, Hashable {
  /// The longest long run of the first shaping: what the peak weeks reach.
  let peakKm: Double
  /// The weeks with a peak long run, in order.
  let peakWeeks: [Int]
  /// Weeks whose long run steps back to at most `stepBackOfPeak` × `peakKm`.
  let stepBackWeeks: Set<Int>
  /// Weeks whose long run carries a variant.
  let variants: [Int: LongRunVariantKind]

  /// The layout for a plan shaped without one; nil when the distance has no `longRun.peaks`.
  init?(drafts: [WeekDraft], context: PlanContext) {
    guard let peaks = context.distance.longRun.peaks else { return nil }
    let full = drafts.filter { !$0.cutback && $0.longKm != nil && $0.phase != .taper && $0.phase != .race }
    guard let longest = full.compactMap(\.longKm).max(), longest > 0 else { return nil }
    let band = (1 - peaks.withinOfLongest) * longest
    let raceDate = context.goal.timeline.raceDate
    func longDate(_ week: WeekDraft) -> CivilDate? { week.slots.first { $0.role == .long }?.date }
    let candidates = full.filter { week in
      guard let long = week.longKm, long >= band - 1e-9, let date = longDate(week) else { return false }
      return date.days(to: raceDate) >= peaks.lastDaysBeforeRace
    }
    var picked: [Int] = []
    for week in candidates.reversed() where picked.count < peaks.maxCount {
      if picked.contains(where: { abs($0 - week.number) <= 1 }) { continue }
      picked.append(week.number)
    }
    picked.sort()
    let firstPeak = picked.first ?? Int.max
    var stepBack: Set<Int> = []
    for week in full where !picked.contains(week.number) {
      if week.number > firstPeak || (week.longKm ?? 0) >= band - 1e-9 { stepBack.insert(week.number) }
    }
    var variants: [Int: LongRunVariantKind] = [:]
    if let rules = context.distance.longRun.variants, rules.levels.contains(context.goal.level),
      !rules.rotation.isEmpty
    {
      let eligible = full.filter { ($0.phase == .build || $0.phase == .peak) && !picked.contains($0.number) }
      // Counted back from the last one, so the long run nearest the race takes the rotation's first variant.
      for (index, week) in eligible.reversed().enumerated() {
        variants[week.number] = rules.rotation[index % rules.rotation.count]
      }
    }
    peakKm = longest
    peakWeeks = picked
    stepBackWeeks = stepBack
    self.variants = variants
  }
}

/// A long run's place among the plan's peak long runs.
enum LongRole: Sendable, Hashable {
  /// One of the plan's peak long runs.
  case peak
  /// A step-back long run between (or after the first of) the peak long runs.
  case stepBack
}

/// Shapes the weeks twice when the distance has `longRun.peaks`: once to learn the plan's longest long run and
/// the weeks that reach it, then again with the ``LongRunLayout`` those give.
func shapeWeeksWithLongRunLayout(context: PlanContext, fromWeek: Int) -> [WeekDraft] {
  let first = shapeWeeks(context: context, fromWeek: fromWeek)
  guard let layout = LongRunLayout(drafts: first, context: context) else { return first }
  var laidOut = context
  laidOut.longRunLayout = layout
  var drafts = shapeWeeks(context: laidOut, fromWeek: fromWeek)
  // With few runs a week the long run and the week's volume move together: a step-back long run lowers the week,
  // the ramp from it, and so the next peak. Lay the peaks out again from the plan as shaped, a few times at most,
  // until the plan keeps its layout.
  for _ in 0..<3 where !keepsLayout(drafts, context: laidOut) {
    guard let next = LongRunLayout(drafts: drafts, context: context), next != laidOut.longRunLayout else { break }
    laidOut.longRunLayout = next
    drafts = shapeWeeks(context: laidOut, fromWeek: fromWeek)
  }
  markPeakLongRuns(&drafts, context: laidOut)
  return drafts
}

/// Whether the shaped plan keeps its peak layout: at most `maxCount` peak long runs, never two weeks running, the
/// other full weeks after the first one at most `stepBackOfPeak` of the longest.
func keepsLayout(_ drafts: [WeekDraft], context: PlanContext) -> Bool {
  guard let peaks = context.distance.longRun.peaks else { return true }
  let full = drafts.filter { !$0.cutback && $0.phase != .taper && $0.phase != .race && $0.longKm != nil }
  guard let longest = full.compactMap({ $0.longKm.map(round1) }).max() else { return true }
  let inBand = full.filter { round1($0.longKm ?? 0) >= (1 - peaks.withinOfLongest) * longest - 1e-9 }.map(\.number)
  guard inBand.count <= peaks.maxCount, !zip(inBand, inBand.dropFirst()).contains(where: { $1 - $0 == 1 }),
    let first = inBand.first
  else { return false }
  return full.allSatisfy { week in
    week.number <= first || inBand.contains(week.number)
      || round1(week.longKm ?? 0) <= peaks.stepBackOfPeak * longest + 0.1
  }
}

/// Names the peak long runs in their week's long-run line, from the finished plan: the full weeks whose long run
/// (as the plan shows it) is within `withinOfLongest` of the plan's longest.
func markPeakLongRuns(_ drafts: inout [WeekDraft], context: PlanContext) {
  guard let peaks = context.distance.longRun.peaks else { return }
  let full = { (week: WeekDraft) in !week.cutback && week.phase != .taper && week.phase != .race }
  guard let longest = drafts.filter(full).compactMap({ $0.longKm.map(round1) }).max() else { return }
  for index in drafts.indices where full(drafts[index]) {
    guard let long = drafts[index].longKm.map(round1), long >= (1 - peaks.withinOfLongest) * longest - 1e-9,
      let line = drafts[index].rules.firstIndex(where: { $0.hasPrefix("Long run ") })
    else { continue }
    drafts[index].rules[line] +=
      "; a peak long run (the plan aims for at most \(peaks.maxCount), never two weeks running)"
  }
}
