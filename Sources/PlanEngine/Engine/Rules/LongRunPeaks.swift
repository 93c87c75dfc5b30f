import RunningCore

/// Where a plan's peak long runs fall, and which long runs carry race-specific work (half, marathon:
/// `longRun.peaks` and `longRun.variants` in the distance file).
///
/// Pfitzinger, Hansons and Higdon run the peak long run about three times, never two weeks running, with shorter
/// long runs (80–85 %) between, the last one three weeks before a marathon. The long-run lengths are fixed first,
/// from a first shaping of the plan without this layout, and the week's other runs are then fitted around them:
/// - the peak `peakKm`: the longest long run the first shaping reaches in the peak window (full weeks
///   `lastDaysBeforeRace`…`earliestDaysBeforeRace` days before race day);
/// - peak weeks: up to `maxCount` weeks of that window that reached the peak band (within `withinOfLongest`),
///   latest first, never two in a row; each runs exactly `peakKm`;
/// - step-back weeks: every other full week from the first peak on, and the full weeks before it an odd number of
///   weeks before it, run at most `stepBackOfPeak` × `peakKm`;
/// - lead-in weeks: the full weeks an even number of weeks before the first peak run at most `peakKm` / the spike
///   factor (rounded up to tenths), so that the spike guard lets the next long run reach the peak, and stay under
///   the peak band;
/// - variants: the full build and peak weeks that are not peak weeks take `variants.rotation` in turn, counted back
///   from the last one (levels in `variants.levels` only).
struct LongRunLayout: Sendable, Hashable {
  /// The length of every peak long run.
  var peakKm: Double
  /// The weeks with a peak long run, in order.
  let peakWeeks: [Int]
  /// Weeks whose long run steps back to at most `stepBackOfPeak` × `peakKm`.
  let stepBackWeeks: Set<Int>
  /// Weeks before the first peak whose long run is at most the spike guard's step below `peakKm`.
  let leadInWeeks: Set<Int>
  /// Weeks whose long run carries a variant.
  let variants: [Int: LongRunVariantKind]

  /// The layout for a plan shaped without one; nil when the distance has no `longRun.peaks` or the plan has no
  /// full week in the peak window.
  /// - Parameters:
  ///   - maxCount: at most this many peak long runs (at most `longRun.peaks.maxCount`).
  ///   - alternating: the weeks before the first peak alternate lead-in and step-back long runs (true) or are all
  ///     lead-in long runs (false: with few runs a week, a step-back week is too small to ramp from to a peak).
  init?(drafts: [WeekDraft], context: PlanContext, maxCount: Int? = nil, alternating: Bool = true) {
    guard let peaks = context.distance.longRun.peaks else { return nil }
    // The full weeks and those of the peak window, by index (a week is large: read in place, not copied).
    let full = drafts.indices.filter { isFullWeek(drafts[$0]) }
    let raceDate = context.goal.timeline.raceDate
    let window = full.filter { index in
      guard let date = drafts[index].slots.first(where: { $0.role == .long })?.date else { return false }
      return (peaks.lastDaysBeforeRace...peaks.earliestDaysBeforeRace).contains(date.days(to: raceDate))
    }
    guard let peak = window.compactMap({ drafts[$0].longKm.map(round1) }).max(), peak > 0 else { return nil }
    let band = (1 - peaks.withinOfLongest) * peak
    var picked: [Int] = []
    let count = min(maxCount ?? peaks.maxCount, peaks.maxCount)
    // The latest week of the window always takes a peak (the peaks close the build); the others, latest first, when
    // the first shaping reached the peak band there.
    for index in window.reversed()
    where picked.count < count && (picked.isEmpty || round1(drafts[index].longKm ?? 0) >= band - 1e-9) {
      let number = drafts[index].number
      if picked.contains(where: { abs($0 - number) <= 1 }) { continue }
      picked.append(number)
    }
    picked.sort()
    guard let firstPeak = picked.first else { return nil }
    var stepBack: Set<Int> = []
    var leadIn: Set<Int> = []
    for index in full where !picked.contains(drafts[index].number) {
      let number = drafts[index].number
      if number < firstPeak && (!alternating || (firstPeak - number) % 2 == 0) {
        leadIn.insert(number)
      } else {
        stepBack.insert(number)
      }
    }
    peakKm = peak
    peakWeeks = picked
    stepBackWeeks = stepBack
    leadInWeeks = leadIn
    variants = LongRunLayout.variants(
      full: full.map { (drafts[$0].number, drafts[$0].phase) }, peakWeeks: picked, context: context)
  }

  /// The layout for a runner whose longest recent run is already in the peak band: no peak, step-back or lead-in
  /// weeks (their usual long run is the peak; holding it shorter would cut what they run), the variants as usual.
  init(flatFrom drafts: [WeekDraft], context: PlanContext) {
    peakKm = longestFullLongRun(drafts)
    peakWeeks = []
    stepBackWeeks = []
    leadInWeeks = []
    variants = LongRunLayout.variants(
      full: drafts.indices.filter { isFullWeek(drafts[$0]) }.map { (drafts[$0].number, drafts[$0].phase) },
      peakWeeks: [], context: context)
  }

  /// The full build and peak weeks that are not peak weeks take `variants.rotation` in turn, counted back from the
  /// last one (so the long run nearest the race takes the rotation's first variant); levels in `variants.levels`.
  private static func variants(
    full: [(number: Int, phase: Phase)], peakWeeks: [Int], context: PlanContext
  ) -> [Int: LongRunVariantKind] {
    guard let rules = context.distance.longRun.variants, rules.levels.contains(context.goal.level),
      !rules.rotation.isEmpty
    else { return [:] }
    var variants: [Int: LongRunVariantKind] = [:]
    let eligible = full.filter { ($0.phase == .build || $0.phase == .peak) && !peakWeeks.contains($0.number) }
    for (index, week) in eligible.reversed().enumerated() {
      variants[week.number] = rules.rotation[index % rules.rotation.count]
    }
    return variants
  }

  /// The lead-in long run's limit: the spike guard's step below the peak, under the peak band.
  func leadInKm(spikeFactor: Double, withinOfLongest: Double) -> Double {
    min((peakKm / spikeFactor * 10 - 1e-9).rounded(.up) / 10, floorTenth((1 - withinOfLongest) * peakKm) - 0.1)
  }
}

/// A long run's place among the plan's peak long runs.
enum LongRole: Sendable, Hashable {
  /// One of the plan's peak long runs.
  case peak
  /// A step-back long run between (or after the first of) the peak long runs.
  case stepBack
}

/// Shapes the weeks with a ``LongRunLayout`` when the distance has `longRun.peaks`: a sketch without it (volume and
/// long run only, ``sketchWeeks(context:fromWeek:)``) gives the peak long run and the weeks that reach it, then the
/// weeks are shaped with it. The peak weeks should all run the same peak long run:
/// when one falls short and the plan breaks its layout, the peak comes down to what every peak week reaches and the
/// plan is shaped again. With few runs a week the long run and the week's volume move together (the other runs stay
/// a third shorter), so a step-back week can be too small for the 10 % ramp to reach the next peak: then every
/// layout, from the fullest to the simplest (fewer peak long runs, lead-in long runs only before the first), is
/// tried, and of those that hold the one with the longest peak long run (3 % more per extra peak long run) wins.
///
/// The weeks come without their "why" lines (``ExplainedWeeks`` writes them for the chosen shaping);
/// `marked`: a peak layout was used, and ``markPeakLongRun(_:context:)`` names the peak long runs once explained.
func layOutWeeks(context: PlanContext, fromWeek: Int) -> (drafts: [WeekDraft], marked: Bool) {
  func plain() -> [WeekDraft] { shapeWeeks(context: context, fromWeek: fromWeek, explain: false) }
  guard let peaks = context.distance.longRun.peaks else { return (plain(), false) }
  // The peak long run and the weeks that may reach it, from a sketch (volume and long run only).
  let first = sketchWeeks(context: context, fromWeek: fromWeek)
  // A runner whose longest recent run is already in the peak band keeps it: no peaks to build toward.
  let firstPeak = longestFullLongRun(first)
  if context.longestKm >= (1 - peaks.withinOfLongest) * firstPeak - 1e-9 {
    var flat = context
    flat.longRunLayout = LongRunLayout(flatFrom: first, context: context)
    return (shapeWeeks(context: flat, fromWeek: fromWeek, explain: false), false)
  }
  var best: (drafts: [WeekDraft], value: Double)?
  var fallback: [WeekDraft]?
  var tried: Set<LongRunLayout> = []
  // The layouts tried share most of their weeks: each is shaped once.
  let memo = ShapedWeeks()
  for count in (1...peaks.maxCount).reversed() {
    for alternating in [true, false] {
      guard var layout = LongRunLayout(drafts: first, context: context, maxCount: count, alternating: alternating)
      else { return (plain(), false) }
      guard tried.insert(layout).inserted else { continue }
      var laidOut = context
      var raised = false
      for attempt in 0..<5 {
        laidOut.longRunLayout = layout
        let drafts = shapeWeeks(context: laidOut, fromWeek: fromWeek, explain: false, memo: memo)
        if fallback == nil { fallback = drafts }
        // The peak weeks' shortest long run and least room, read in place (a week is large: no copies).
        var lowest: Double?
        var room: Double?
        for index in drafts.indices where layout.peakWeeks.contains(drafts[index].number) {
          if let long = drafts[index].longKm { lowest = min(lowest ?? .infinity, round1(long)) }
          if let natural = drafts[index].longNaturalKm { room = min(room ?? .infinity, natural) }
        }
        let lowestKm = lowest ?? 0
        if keepsLayout(drafts, context: laidOut) {
          // What every peak week would allow without the layout's peak: the first shaping may have underrated it
          // (the layout's variants change the weeks' sessions, hence their long-run caps).
          let roomKm = room ?? 0
          let canRise = !raised && roomKm > layout.peakKm + 0.05 && lowestKm >= layout.peakKm - 0.05
          // The first layout, every peak at the peak and no room above it: nothing can do better.
          if best == nil && tried.count == 1 && attempt == 0 && lowestKm >= layout.peakKm - 0.05 && !canRise {
            return (drafts, true)
          }
          let longest = longestFullLongRun(drafts)
          var count = 0
          for week in drafts where isFullWeek(week) {
            if round1(week.longKm ?? 0) >= (1 - peaks.withinOfLongest) * longest - 1e-9 { count += 1 }
          }
          let value = longest * (1 + 0.03 * Double(count - 1))
          if value > (best?.value ?? 0) + 1e-9 { best = (drafts, value) }
          guard canRise else { break }
          raised = true
          layout.peakKm = roomKm
          continue
        }
        guard lowestKm > 0, lowestKm < layout.peakKm - 0.05 else { break }
        layout.peakKm = lowestKm
      }
    }
  }
  guard let drafts = best?.drafts ?? fallback else { return (plain(), false) }
  return (drafts, true)
}

/// A full week: neither a cut-back week nor in the taper, with a long run.
private func isFullWeek(_ week: WeekDraft) -> Bool {
  !week.cutback && week.longKm != nil && week.phase != .taper && week.phase != .race
}

/// The longest long run of the full weeks as the plan shows it (tenths), 0 when none: read in place, without copying
/// the weeks into a filtered array.
private func longestFullLongRun(_ drafts: [WeekDraft]) -> Double {
  var longest: Double?
  for week in drafts where isFullWeek(week) {
    if let long = week.longKm { longest = max(longest ?? -.infinity, round1(long)) }
  }
  return longest ?? 0
}

/// Whether the shaped plan keeps its peak layout, as the plan shows it (long runs rounded to tenths): at most
/// `maxCount` long runs within `withinOfLongest` of the longest (cut-back and taper weeks included), never two weeks
/// running, all of them in the peak window (`lastDaysBeforeRace`…`earliestDaysBeforeRace` days before race day).
/// Every other long run is under the band: a step-back long run may stay longer than `stepBackOfPeak` of the peak
/// when the week's volume needs it (``LongRunRule``).
func keepsLayout(_ drafts: [WeekDraft], context: PlanContext) -> Bool {
  guard let peaks = context.distance.longRun.peaks else { return true }
  // The weeks are read in place, by index: a week is large, and filtered copies of them cost more than the checks.
  var longestKm: Double?
  for week in drafts { if let long = week.longKm { longestKm = max(longestKm ?? -.infinity, round1(long)) } }
  guard let longest = longestKm else { return true }
  let raceDate = context.goal.timeline.raceDate
  var inBand: [Int] = []
  for index in drafts.indices {
    guard let long = drafts[index].longKm, round1(long) >= (1 - peaks.withinOfLongest) * longest - 1e-9 else {
      continue
    }
    inBand.append(index)
  }
  guard inBand.count <= peaks.maxCount,
    !zip(inBand, inBand.dropFirst()).contains(where: { drafts[$1].number - drafts[$0].number == 1 }),
    !inBand.isEmpty
  else { return false }
  func daysOut(_ index: Int) -> Int {
    drafts[index].slots.first { $0.role == .long }?.date.days(to: raceDate) ?? -1
  }
  // Every peak in the window, the last one within a week of `lastDaysBeforeRace`.
  return
    inBand.allSatisfy { (peaks.lastDaysBeforeRace...peaks.earliestDaysBeforeRace).contains(daysOut($0)) }
    && inBand.last.map { daysOut($0) <= peaks.lastDaysBeforeRace + 7 } == true
}

/// The weeks whose long run is one of the plan's peak long runs, from the finished plan: the full weeks whose long run
/// (as the plan shows it) is within `withinOfLongest` of the plan's longest.
func peakLongRunWeeks(_ drafts: [WeekDraft], context: PlanContext) -> [Bool] {
  var marked = Array(repeating: false, count: drafts.count)
  guard let peaks = context.distance.longRun.peaks else { return marked }
  let full = { (week: WeekDraft) in !week.cutback && week.phase != .taper && week.phase != .race }
  var longestKm: Double?
  for week in drafts where full(week) {
    if let long = week.longKm { longestKm = max(longestKm ?? -.infinity, round1(long)) }
  }
  guard let longest = longestKm else { return marked }
  for index in drafts.indices where full(drafts[index]) {
    guard let long = drafts[index].longKm.map(round1), long >= (1 - peaks.withinOfLongest) * longest - 1e-9
    else { continue }
    marked[index] = true
  }
  return marked
}

/// Names the peak long run in an explained week's long-run line (a week ``peakLongRunWeeks(_:context:)`` marks).
func markPeakLongRun(_ week: inout WeekDraft, context: PlanContext) {
  guard let peaks = context.distance.longRun.peaks,
    let line = week.rules.firstIndex(where: { $0.hasPrefix("Long run ") })
  else { return }
  week.rules[line] += "; a peak long run (the plan aims for at most \(peaks.maxCount), never two weeks running)"
}
