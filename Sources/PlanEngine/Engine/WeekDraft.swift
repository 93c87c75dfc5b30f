import RunningCore

/// A day of a week's pattern, with its date.
struct DaySlot: Sendable, Hashable {
  /// `long`, `q1`, `easy2`, `recovery`, `race`.
  var id: String
  var role: PatternSlot.Role
  var offset: Int
  var date: CivilDate
}

/// A week while the rules shape it. Each rule reads the context and the weeks before, fills in its part,
/// and says what it did in `rules`.
struct WeekDraft: Sendable, Equatable {
  let number: Int
  let phase: Phase
  let start: CivilDate
  var slots: [DaySlot]
  var cutback = false
  var targetKm = 0.0
  /// The most the week may hold: the ramp cap, the cut-back share, or the taper share.
  var ceilingKm = Double.infinity
  /// The long run; nil in race week, where the race takes the long-run day.
  var longKm: Double?
  /// The race, in race week.
  var raceKm: Double?
  /// Quality sessions by slot id.
  var sessions: SlotMap<Session> = [:]
  /// Easy and recovery runs by slot id.
  var easyKm: SlotMap<Double> = [:]
  /// Slot ids whose easy run is the pre-race shakeout.
  var shakeoutSlots: Set<String> = []
  /// Notes from the rules that shaped the week; ``ExplainRule`` turns them, with the final numbers, into `rules`.
  var rules: [String] = []
  /// Why the week's volume is what it is (stated with the final numbers by ``ExplainRule``).
  var volumeReason: VolumeReason?
  /// Why the long run is what it is.
  var longReason: LongReason?
  /// The long run the rule chose before later rules trimmed it.
  var longChosenKm: Double?
  /// What later rules did: trimmed to the ceiling, long run trimmed to its share of the week.
  var trimmedToCeiling = false
  var longTrimmedToShare = false
  /// Easy runs were raised to the minimum run.
  var raisedToMinimum = false
  /// The day before the long run was held to its share of the long run (slot id), or made a rest day.
  var eveCappedSlot: String?
  var eveRest = false
  /// The day the run of the day before the long run moved to (`weekStructure.eveOfLongTooShort: move`).
  var eveMovedTo: CivilDate?
  /// The day strides were added to an easy run (`stridesEveryWeek`: the week's sessions had no repetition pace).
  var stridesAddedSlot: String?
  /// The day before the long run holds the minimum run: its share was under it and no other day was free.
  var eveAtMinimum = false
  /// The volume quality sessions are sized against (the target, until the planned week turns out smaller).
  var sizingKm: Double?
  /// The long run's place among the plan's peak long runs (half, marathon; see ``LongRunLayout``).
  var longRole: LongRole?
  /// The long run the week's own limits allow (spike guard, long-run cap, peak target), before the peak layout's
  /// caps (``LongRunLayout``): how far a peak long run could go.
  var longNaturalKm: Double?
  /// The race-specific part of the long run (marathon-pace segment, fast finish); nil: easy throughout.
  var longVariant: LongRunVariant?
  /// In a peak long-run week whose step-back weeks cannot carry the target: the step-back long run, which holds the
  /// other runs (a third shorter than it) as in the step-back weeks, so that the full weeks stay level instead of
  /// rising and falling with the long run (nil: the week's own long run holds them).
  var othersHeldByLongKm: Double?

  /// Easy runs were held down to stay a third shorter than the long run (the week could not reach its target).
  var cappedByLong = false
  /// Easy runs were held to `weekStructure.otherRunMaxMinutesAtFewRuns` (the week could not reach its target).
  var cappedByMinutes = false
  /// The slot whose easy run is the week's medium-long run (`weekStructure.mediumLong`).
  var mediumLongSlot: String?
  /// Recovery runs were held to `weekStructure.recoveryMaxMinutes` (their share went to other days).
  var recoveryCapped = false
  /// The spike guard's limit for this week: 1.10 × the longest run of the look-back weeks.
  var spikeLimitKm = Double.infinity
  /// The shortest run this week: the plan's minimum run, lowered when the spike guard keeps the long run so
  /// short that it could not be a third longer than it (a runner whose longest run is 3 km); set by `LongRunRule`.
  var minRunKm = 0.0

  /// The medium-long run as the week finally has it: its slot and distance, while it is still at least `minKm`
  /// and no other run but the long run is longer (a later trim may have shortened it: then it is an easy run like
  /// the others).
  func mediumLong(minKm: Double) -> (slot: String, km: Double)? {
    guard let slot = mediumLongSlot, let km = easyKm[slot], km >= minKm - 1e-9 else { return nil }
    // Every other run (shakeouts aside) at most as long, read in place.
    for (key, other) in easyKm where key != slot && !shakeoutSlots.contains(key) && other > km + 1e-9 { return nil }
    for session in sessions.values where session.totalKm > km + 1e-9 { return nil }
    return (slot, km)
  }

  /// The longest any run but the long run (and the race) may be: a third shorter than the long run, or in
  /// race week the spike guard's limit.
  func maxOtherRunKm(ratio: Double) -> Double {
    if let longKm { return min(longKm, othersHeldByLongKm ?? longKm) / ratio }
    return spikeLimitKm
  }

  /// The runs of the week, km, rounded to tenths as the plan shows them (so every guard sees the output's numbers).
  var runDistances: [Double] {
    ([longKm, raceKm].compactMap { $0 } + sessions.values.map(\.totalKm)
      + easyKm.values).map(round1)
  }

  /// The sessions with their slot ids, in slot-id order.
  var orderedSessions: [(slot: String, session: Session)] {
    sessions.map { (slot: $0.key, session: $0.value) }
  }

  /// The sum of the week's runs.
  /// Summed in whole tenths, so the order of the dictionaries cannot change the sum (and nothing is sorted:
  /// the rules ask for it often).
  var plannedKm: Double {
    func tenths(_ km: Double) -> Int { Int((km * 10).rounded()) }
    var total = tenths(longKm ?? 0) + tenths(raceKm ?? 0)
    for session in sessions.values { total += tenths(session.totalKm) }
    for km in easyKm.values { total += tenths(km) }
    return Double(total) / 10
  }

  /// The runs of the week: the long run or the race, the sessions and the easy runs.
  var runCount: Int { (longKm == nil && raceKm == nil ? 0 : 1) + sessions.count + easyKm.count }

  /// The longest run of the week.
  var maxRunKm: Double {
    var longest = max(longKm ?? 0, raceKm ?? 0)
    for session in sessions.values { longest = max(longest, session.totalKm) }
    for km in easyKm.values { longest = max(longest, km) }
    return round1(longest)
  }
}

/// What set a week's volume.
enum VolumeReason: Sendable, Hashable {
  /// A build or base week: ramped from the previous full week (named, with its volume) toward `cap`.
  case ramp(previous: String, previousKm: Double)
  /// At the volume cap: the base cap or the plan's peak.
  case capped(previous: String, previousKm: Double, base: Bool)
  /// A cut-back week at a share of the previous full week.
  case cutback(previous: String, previousKm: Double, every: Int)
  /// A taper or race week at a share of the peak.
  case taper(fraction: Double, peakKm: Double)
  /// A return week after a break (a replan): a share of the volume before it.
  case comeback(share: Double, fromKm: Double)
  /// The first full week after the return weeks: the volume before the break, not a ramp over it.
  case rejoin(fromKm: Double)
}

/// What set a week's long run.
enum LongReason: Sendable, Hashable {
  /// The binding limit, with its numbers (its words: ``LongLimit/text(_:)``).
  case limit(km: Double, reason: LongLimit)
  case cutback
  case taper(fraction: Double, peakLongKm: Double)
  /// A return week's long run: a share of the last long run before the break.
  case comeback(share: Double, fromKm: Double)
}

/// What the rules need to know of a finished week: small, so that passing the history around copies little.
struct WeekSummary: Sendable, Hashable {
  let number: Int
  let phase: Phase
  let cutback: Bool
  let plannedKm: Double
  let maxRunKm: Double
  let longKm: Double?

  init(_ week: WeekDraft) {
    number = week.number
    phase = week.phase
    cutback = week.cutback
    plannedKm = week.plannedKm
    maxRunKm = week.maxRunKm
    longKm = week.longKm
  }

  /// A sketched week (``sketchWeeks(context:fromWeek:)``): its target held, its longest run the long run or the race.
  init(sketch week: WeekDraft) {
    number = week.number
    phase = week.phase
    cutback = week.cutback
    plannedKm = round1(min(week.targetKm, week.ceilingKm))
    maxRunKm = round1(max(week.longKm ?? 0, week.raceKm ?? 0))
    longKm = week.longKm
  }
}

/// One training rule: reads the context and the finished weeks, shapes the current week, explains itself.
protocol WeekRule {
  static func apply(to week: inout WeekDraft, context: PlanContext, history: [WeekSummary])
}

/// Rounds down to the nearest half kilometre (rounding down keeps every guard a guard).
func floorHalf(_ km: Double) -> Double { (km * 2 + 1e-9).rounded(.down) / 2 }

/// Rounds down to the nearest tenth of a kilometre.
func floorTenth(_ km: Double) -> Double { (km * 10 + 1e-9).rounded(.down) / 10 }

/// `km` to the nearest tenth, a half rounding down (so the result is never more than 0.05 over `km`).
func nearestTenth(_ km: Double) -> Double { (km * 10 - 1e-6).rounded() / 10 }

/// `12 %`.
func percent(_ fraction: Double) -> String { String(Int((fraction * 100).rounded())) + " %" }
