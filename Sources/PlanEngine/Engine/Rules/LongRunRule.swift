/// The long run: grows toward the peak long run for the distance and level, never faster than the spike guard.
///
/// - Spike guard (Garmin-RUNSAFE, Frandsen/Nielsen et al., BJSM 2025): no run longer than 1.10 × the longest
///   run of the previous 4 weeks (week 1: the runner's longest recent run).
/// - Cap: max(30 % of the week, the distance's minimum useful long run up to 50 % of the week) (Daniels,
///   Hansons; low-volume novice plans sit at 35–50 % by necessity), and at most 150 minutes at easy pace
///   (180 for the marathon).
/// - Cut-back weeks return to the long run of two weeks earlier (at most 85 % of the last one); taper weeks run a fraction of the peak long
///   run; race week has the race instead.
/// - Half and marathon (`longRun.peaks`): at most a few long runs at the peak length, never two weeks running; the
///   full weeks between them step back to 80–85 % of it (``LongRunLayout``).
enum LongRunRule: WeekRule {
  static func apply(to week: inout WeekDraft, context: PlanContext, history: [WeekSummary]) {
    let rules = context.base.longRun
    // The longest run of the look-back weeks: the last weeks shaped, then (near the start) the runner's past ones.
    var longestLookback: Double?
    for summary in history.suffix(rules.spikeLookbackWeeks) {
      longestLookback = max(longestLookback ?? -.infinity, summary.maxRunKm)
    }
    if history.count < rules.spikeLookbackWeeks {
      let past = rules.spikeLookbackWeeks - history.count
      if context.priorLongestKm.isEmpty {
        if past > 0 { longestLookback = max(longestLookback ?? -.infinity, context.longestKm) }
      } else {
        for km in context.priorLongestKm.suffix(past) { longestLookback = max(longestLookback ?? -.infinity, km) }
      }
    }
    let longestRecent = longestLookback ?? context.longestKm
    let spikeLimit = rules.spikeFactor * longestRecent
    let volumeCap = context.longRunCap(volumeKm: week.targetKm, phase: week.phase)
    week.spikeLimitKm = spikeLimit
    // The plan's minimum run, unless the spike guard or a small week cannot hold it: the long run must stay a
    // third longer than it within the spike limit, and the week must hold the long run and two such runs (race
    // week has no long run: there an easy run is dropped when the runs do not fit).
    // Every run lasts the plan's minimum run (about 20 minutes): a week too small for all its runs at that length
    // has fewer runs, and says so (``ExplainRule``), rather than runs too short to be worth doing; the long run stays
    // a third longer than it even where the spike guard would hold it shorter (a step of a few minutes). Only a week
    // too small for three such runs (the fewest a plan has) shortens them, so that it holds the long run and two
    // runs. Race week keeps its own limits: the runs before the race stay under the spike guard's step.
    week.minRunKm = max(
      context.base.volume.minRunKm,
      min(
        context.minRunKm,
        week.phase == .race
          ? floorTenth(floorTenth(spikeLimit) / rules.minRatioToOtherRuns)
          : smallWeekMinRun(min(week.targetKm, week.ceilingKm), ratio: rules.minRatioToOtherRuns)))

    switch week.phase {
    case .race:
      week.raceKm = context.raceKm
      week.rules.append(
        "Race day \(context.goal.timeline.raceDate.shortLabel): the \(context.goal.distance.displayName) "
          + "is the last workout")
      return
    case .taper:
      let peakLong = history.compactMap(\.longKm).max() ?? context.longestKm
      let index = week.number - (context.weeks - context.taperVolume.count) - 1
      let fraction = context.taperLongRun[max(0, min(index, context.taperLongRun.count - 1))]
      week.longKm = max(shortestLong(week, context), floorTenth(min(fraction * peakLong, spikeLimit, volumeCap)))
      week.longReason = .taper(fraction: fraction, peakLongKm: peakLong)
      week.longChosenKm = week.longKm
      return
    default:
      break
    }

    if let share = context.comeback[week.number] {
      let lastLong = history.last { !$0.cutback }?.longKm ?? context.longestKm
      week.longKm = max(shortestLong(week, context), floorTenth(min(share * lastLong, volumeCap, spikeLimit)))
      week.longReason = .comeback(share: share, fromKm: lastLong)
      week.longChosenKm = week.longKm
      return
    }
    if week.cutback {
      let twoWeeksEarlier = history.first { $0.number == week.number - 2 }?.longKm ?? context.longestKm
      let lastLong = history.last { !$0.cutback }?.longKm ?? context.longestKm
      let factor = context.base.cutback.longRunFactor
      week.longKm = max(
        shortestLong(week, context), floorTenth(min(twoWeeksEarlier, factor * lastLong, volumeCap, spikeLimit)))
      week.longReason = .cutback
      week.longChosenKm = week.longKm
      return
    }

    // The spike guard's step to the plan's tenth of a km, the nearer one (at most 50 m over 1.10 ×): a step rounded
    // down every week would lose a kilometre over a 15-step build (7 km grows to 28.2 km, not 29.2).
    var limits: [(km: Double, reason: LongLimit)] = [
      (nearestTenth(spikeLimit), .spikeGuard(longestRecentKm: longestRecent)),
      (volumeCap, .volumeCap(targetKm: week.targetKm)),
      (context.peakLongTargetKm, .peakTarget),
    ]
    // The first full week after the return weeks: no longer than the last long run before the break (the spike guard
    // alone would allow a new longest run straight after a week or two of short ones).
    if week.number > 1 && context.comeback[week.number - 1] != nil {
      let beforeBreak = history.last { !$0.cutback }?.longKm ?? context.longestKm
      limits.append((beforeBreak, .beforeBreak(lastLongKm: beforeBreak)))
    }
    var stepBack: [(km: Double, reason: LongLimit)] = []
    if let layout = context.longRunLayout, let peaks = context.distance.longRun.peaks {
      let firstPeak = layout.peakWeeks.first ?? Int.max
      if layout.peakWeeks.contains(week.number) {
        week.longRole = .peak
        stepBack.append((layout.peakKm, .peakLength))
      } else if let early = peaks.early, week.number < firstPeak, context.weeks - week.number > early.weeksOut,
        layout.leadInWeeks.contains(week.number) || layout.stepBackWeeks.contains(week.number)
      {
        // A base week far from race day: the longer and the shorter long run in turn, counted back from the first
        // peak (an even number of weeks before it is a longer one, as the lead-ins are).
        if layout.stepBackWeeks.contains(week.number) { week.longRole = .stepBack }
        let longer = (firstPeak - week.number) % 2 == 0
        let share = longer ? early.longerOfPeak : early.shorterOfPeak
        stepBack.append((floorTenth(share * layout.peakKm), .early(share: share, peakKm: layout.peakKm)))
      } else if layout.leadInWeeks.contains(week.number) {
        stepBack.append(
          (layout.leadInKm(spikeFactor: rules.spikeFactor, withinOfLongest: peaks.withinOfLongest), .leadIn))
      } else if layout.stepBackWeeks.contains(week.number) {
        week.longRole = .stepBack
        // After a peak long run: a share of the longest long run so far (the plan's own number); before the first
        // one: a share of the plan's peak long run.
        let after = history.contains { layout.peakWeeks.contains($0.number) }
        let longestSoFar = history.compactMap(\.longKm).max() ?? layout.peakKm
        stepBack.append(
          after
            ? (
              floorTenth(peaks.stepBackOfPeak * round1(longestSoFar)),
              .stepBackAfterPeak(longestSoFarKm: round1(longestSoFar))
            )
            : (floorTenth(peaks.stepBackOfPeak * layout.peakKm), .stepBackBeforePeaks))
      }
    }
    // A step-back or lead-in long run stays long enough for the week's runs to hold its volume (the other runs stay a
    // third shorter), under the peak band; before the first peak, never under the runner's own longest run.
    week.othersHeldByLongKm = nil
    if let layout = context.longRunLayout, let peaks = context.distance.longRun.peaks, !stepBack.isEmpty {
      let underBand = floorTenth((1 - peaks.withinOfLongest) * layout.peakKm) - 0.1
      let beforePeaks = layout.peakWeeks.first.map { week.number < $0 } ?? false
      let carry = context.longRunToCarry(volumeKm: week.targetKm)
      let floor = min(underBand, max(carry, beforePeaks ? context.longestKm : 0))
      // A peak week holds its other runs as the step-back weeks around it must (when the peak band keeps those
      // from carrying the target): the full weeks stay level, only the long run is longer.
      if week.longRole == .peak && underBand < carry - 1e-9 { week.othersHeldByLongKm = underBand }
      if week.longRole != .peak && stepBack[0].km < floor - 1e-9 {
        stepBack[0] = (
          floor, carry >= floor - 1e-9 ? .stepBackCarry(targetKm: week.targetKm) : .stepBackNoShorter
        )
      }
    }
    // The limits in order, then the layout's: the first of the smallest binds.
    var binding = limits[0]
    for limit in limits.dropFirst() where limit.km < binding.km { binding = limit }
    week.longNaturalKm = floorTenth(binding.km)
    for limit in stepBack where limit.km < binding.km { binding = limit }
    let long = max(shortestLong(week, context), floorTenth(binding.km))
    week.longKm = long
    week.longChosenKm = long
    week.longReason = .limit(km: binding.km, reason: binding.reason)
  }

  /// The longest minimum run (tenths) with which a week of `budgetKm` holds two such runs and the shortest long run
  /// beside them, rounded up to tenths as ``shortestLong(_:_:)`` rounds it: 2 m + ⌈ratio × m⌉ ≤ budget.
  /// (`budget / (ratio + 2)` rounded down leaves no room for the long run's rounding up: 9.375 km gave
  /// 2.8 + 2.8 + 3.8 = 9.4 km, and the guard dropped a run.)
  static func smallWeekMinRun(_ budgetKm: Double, ratio: Double) -> Double {
    var tenths = Int((budgetKm / (ratio + 2) * 10 + 1e-9).rounded(.down))
    func longTenths(_ minRun: Int) -> Int { Int((Double(minRun) * ratio - 1e-9).rounded(.up)) }
    while tenths > 0 && Double(2 * tenths + longTenths(tenths)) / 10 > budgetKm + 1e-9 { tenths -= 1 }
    return Double(tenths) / 10
  }

  /// The shortest long run that is still a third longer than a minimum-length run.
  static func shortestLong(_ week: WeekDraft, _ context: PlanContext) -> Double {
    (week.minRunKm * context.base.longRun.minRatioToOtherRuns * 10 - 1e-9).rounded(.up) / 10
  }
}

/// What bound a week's long run (``LongReason/limit(km:reason:)``), with the numbers its "why" line states: the text
/// is written by ``ExplainRule`` for the chosen shaping only.
enum LongLimit: Sendable, Hashable {
  /// The spike guard over the longest run of the look-back weeks.
  case spikeGuard(longestRecentKm: Double)
  /// The long-run cap for the week's target.
  case volumeCap(targetKm: Double)
  /// The plan's peak long run.
  case peakTarget
  /// A peak week: the length of the plan's peak long runs.
  case peakLength
  /// A lead-in week before the first peak long run.
  case leadIn
  /// A step-back week after a peak long run: a share of the longest long run so far.
  case stepBackAfterPeak(longestSoFarKm: Double)
  /// A step-back week before the first peak long run.
  case stepBackBeforePeaks
  /// A step-back long run as long as the week's target needs.
  case stepBackCarry(targetKm: Double)
  /// A step-back long run held at the runner's longest recent run.
  case stepBackNoShorter
  /// The first full week after a break's return weeks: the last long run before the break.
  case beforeBreak(lastLongKm: Double)
  /// A base week of a long plan, far from race day: a share of the plan's peak long run.
  case early(share: Double, peakKm: Double)

  /// The reason in words.
  func text(_ context: PlanContext) -> String {
    let units = context.units
    let rules = context.base.longRun
    let peaks = context.distance.longRun.peaks
    switch self {
    case .spikeGuard(let longestRecent):
      return "spike guard: at most \(rules.spikeFactor) × \(units.format(longestRecent)), "
        + "the longest run of the previous \(rules.spikeLookbackWeeks) weeks"
    case .volumeCap(let targetKm):
      return "long-run cap for the week's \(units.format(targetKm)) target"
    case .peakTarget:
      return context.peakLongTargetKm < context.level.peakLongRunKm.upper
        || context.peakLongTargetKm >= context.timeCapKm - 1e-9
        ? "the \(Int(context.maxLongMinutes))-minute cap at easy pace"
        : context.peakLongTargetKm <= context.level.peakLongRunKm.upper + 1e-9
          ? "the peak long run for this distance and level"
          : context.peakLongTargetKm <= context.longestKm + 1e-9
            ? "the peak long run: your longest recent run, over the level's "
              + "\(units.format(context.level.peakLongRunKm.upper))"
            : "the peak long run: what lets \(context.runs) runs carry "
              + (context.peakLongCarriesKm > context.currentKm + 1e-9 ? "the plan's peak " : "your ")
              + "\(units.format(context.peakLongCarriesKm)) a week with every other run a third shorter, over the "
              + "level's "
              + "\(units.format(context.level.peakLongRunKm.upper))"
    case .peakLength:
      return "the length of the plan's peak long runs"
    case .leadIn:
      return "a lead-in long run, a spike guard's step under the peak long runs that come later"
    case .stepBackAfterPeak(let longestSoFar):
      return "step-back long run, \(percent(peaks?.stepBackOfPeak ?? 0)) of the longest long run so far "
        + "\(units.format(longestSoFar)) (at most \(peaks?.maxCount ?? 0) peak long runs, never two weeks "
        + "running)"
    case .stepBackBeforePeaks:
      return "step-back long run: the peak long runs come later (never two weeks running)"
    case .stepBackCarry(let targetKm):
      return "a step-back long run as long as the week's \(units.format(targetKm)) needs with "
        + "\(context.runs) runs (the other runs stay a third shorter)"
    case .stepBackNoShorter:
      return "a step-back long run, no shorter than your longest recent run"
    case .beforeBreak(let km):
      return "the first full week back after the break: no longer than your last long run before it "
        + "(\(units.format(round1(km))))"
    case .early(let share, let peakKm):
      let weeksOut = peaks?.early?.weeksOut ?? 0
      return "a base week more than \(weeksOut) weeks before the race: at most \(percent(share)) of the "
        + "\(units.format(round1(peakKm))) peak long run the plan aims for, the longer and the shorter long run in turn; the peak "
        + "long runs come later, at the end of the build"
    }
  }
}
