import Foundation
import RunningCore

/// Everything the week rules need, resolved once from the goal and the templates: defaults filled in,
/// phases laid out, targets computed. Built by ``PlanContext/init(goal:rules:units:)``, which also refuses
/// unsafe or impossible goals.
struct PlanContext: Sendable {
  let goal: Goal
  let units: DistanceUnit
  let base: BaseRules
  let distance: DistanceRules
  let level: DistanceLevel
  let levelRules: LevelRules
  let library: [String: WorkoutTemplate]
  /// The library's templates each behind one reference (``Session/box``), made once per plan, not per session sized.
  let libraryBoxes: [String: TemplateBox]
  /// Each zone's effort words (``effort(_:)``), in `Intensity.allCases` order: looked up once, not per step.
  private let zoneEfforts: [String]
  let runs: Int
  let currentKm: Double
  let longestKm: Double
  let paces: TrainingPaces
  /// Where the paces' VDOT comes from.
  let vdotSource: VDOTSource
  /// The weekly pattern, sorted by offset (relative to `anchor`): the template's, or laid on the runner's days.
  let pattern: [PatternSlot]
  /// The weekday of the pattern's offset 0, the long run: the race weekday, or the runner's long-run day.
  let anchor: Weekday
  /// The phase of each week, index 0 = week 1.
  let phases: [Phase]
  /// The first and last build or peak week (numbers from 1), nil when the plan has none.
  let buildPeakWeeks: (first: Int, last: Int)?
  let taperVolume: [Double]
  let taperLongRun: [Double]
  /// Never ramp past this weekly volume.
  let peakTargetKm: Double
  /// The long run aims for this (the table's upper value, capped by time).
  let peakLongTargetKm: Double
  /// The weekly volume the peak long run lets the week's runs carry: the plan's peak, or the runner's volume when
  /// they ask for fewer runs than the level's usual.
  let peakLongCarriesKm: Double
  /// The long run's time cap as a distance at easy pace.
  let timeCapKm: Double
  let maxLongMinutes: Double
  let compressed: Bool
  /// The shortest run: `weekStructure.minRunMinutes` at easy pace, at least `volume.minRunKm`, rounded up to tenths.
  let minRunKm: Double
  /// The longest recovery run: `weekStructure.recoveryMaxMinutes` at easy pace, rounded down to half kilometres
  /// (never under the minimum run).
  let recoveryMaxKm: Double
  /// The longest any run but the long run may be (`weekStructure.otherRunMaxMinutesAtFewRuns` at easy pace, at few
  /// runs a week, never under the runner's current other runs); infinity when no cap applies.
  let otherRunCapKm: Double
  /// The distance's extended taper is in use.
  let usesExtendedTaper: Bool
  /// A cut-back week every this many weeks: the level's rhythm, or the masters' when that is more often.
  let cutbackEvery: Int
  /// A cut-back week's volume, a share of the full week before it: `cutback.volumeFactor`, or the masters'.
  let cutbackVolumeFactor: Double
  /// The long run the race needs: the distance's shortest useful long run, at most the low end of the level's peak
  /// long run, and at most what the long-run time cap covers.
  var longRunNeedKm: Double { min(distance.shortestUsefulPeakLongRunKm(goal.level), timeCapKm) }
  /// Under this longest long run a new plan is refused (`longRun.refuseUnderShareOfNeed` of the need).
  var longRunRefusalKm: Double { base.longRun.refuseUnderShareOfNeed * longRunNeedKm }
  var warnings: [String] = []
  /// Peak and step-back long runs and long-run variants (half, marathon), from a first shaping of the plan.
  var longRunLayout: LongRunLayout?
  /// Return weeks after a break (a replan): week number → share of `currentKm` (the volume before the break) the week
  /// runs at; their long runs take the same share of the last long run (``VolumeRule``, ``LongRunRule``).
  var comeback: [Int: Double] = [:]
  /// A replan: the longest run of each week before the first week built, most recent last, for the spike guard's
  /// look-back across the seam; empty: the runner's longest recent run stands for them.
  var priorLongestKm: [Double] = []
  /// Each week's days on their dates (``daySlots(weekStart:phase:context:)``), laid once for every shaping.
  private(set) var weekSlots: [[DaySlot]] = []

  var weeks: Int { goal.timeline.weeks }
  var raceKm: Double { goal.distance.kilometers }

  /// - Parameter extendedTaper: force the distance's extended taper on or off; nil decides from the peak target.
  init(goal: Goal, rules: PlanRules, units: DistanceUnit, extendedTaper: Bool? = nil) throws(PlanError) {
    guard let distance = rules.rules(for: goal.distance) else { throw .missingDistanceRules(goal.distance) }
    self.goal = goal
    self.units = units
    self.base = rules.base
    self.distance = distance
    self.library = rules.workouts
    self.libraryBoxes = rules.workouts.mapValues { TemplateBox($0) }
    self.zoneEfforts = Intensity.allCases.map { rules.base.efforts[$0.rawValue] ?? $0.rawValue }
    let level = distance.levels[goal.level]
    self.level = level
    self.levelRules = rules.base.levels[goal.level]

    if let days = goal.runDays, Set(days).count < 3 {
      throw .outOfRange(
        field: .days, value: WeekLayout.dayList(Set(days)),
        allowed: "at least 3 run days: a plan has 3 to 7 runs a week")
    }
    // With run days, the level's default runs a week is at most their number.
    let runs = goal.runsPerWeek ?? min(level.runsPerWeek, goal.runDays.map { Set($0).count } ?? 7)
    guard (3...7).contains(runs) else {
      throw .outOfRange(field: .runsPerWeek, value: String(runs), allowed: "3–7")
    }
    let extras = rules.base.extraDays.maxPerWeek
    for (field, count) in [(InputField.crossTraining, goal.crossTrainingPerWeek), (.strength, goal.strengthPerWeek)]
    where !(0...extras).contains(count) {
      throw .outOfRange(field: field, value: String(count), allowed: "0–\(extras) a week")
    }
    let current = goal.currentWeeklyKm ?? level.startWeeklyKm
    guard current.isFinite, (5...250).contains(current) else {
      throw .outOfRange(field: .currentWeeklyKm, value: formatKm(current), allowed: "5–250 km")
    }
    let longest = goal.longestRecentRunKm ?? min(level.longestRecentRunKm, current * 0.5)
    guard longest.isFinite, (3...60).contains(longest) else {
      throw .outOfRange(field: .longestRecentRunKm, value: formatKm(longest), allowed: "3–60 km")
    }
    guard longest <= current else { throw .longestRunAboveWeekly(longestKm: longest, weeklyKm: current) }
    // Under the distance's starting requirements, a plan long enough for a base phase first is taken: the weeks the
    // 10 % ramp (with its cut-back weeks) and the spike guard need to bring the runner to them, before the distance's
    // shortest plan (a coach prepends base building: a 24-week marathon from 12 km a week).
    let baseWeeks = distance.requirements.map {
      PlanContext.weeksToBuild(
        from: current, longest: longest, runs: runs, to: $0, rules: rules.base, level: goal.level)
    }
    if let requirements = distance.requirements, let baseWeeks,
      goal.timeline.weeks >= baseWeeks + distance.minimumWeeks[goal.level].absolute
    {
      if baseWeeks > 0 {
        warnings.append(
          "you start from \(formatKm(current)) km a week with a longest run of \(formatKm(longest)) km, under the "
            + "\(formatKm(requirements.minWeeklyKm)) km and \(formatKm(requirements.minLongestRunKm)) km a "
            + "\(goal.distance.displayName) plan starts from: the first \(baseWeeks) weeks build that base")
      }
    } else if let requirements = distance.requirements {
      if current < requirements.minWeeklyKm {
        throw .insufficientBase(
          distance: goal.distance, field: .currentWeeklyKm, value: current,
          required: requirements.minWeeklyKm)
      }
      if longest < requirements.minLongestRunKm {
        throw .insufficientBase(
          distance: goal.distance, field: .longestRecentRunKm, value: longest,
          required: requirements.minLongestRunKm)
      }
    }
    guard current <= 7 * longest else {
      throw .volumeAboveLongestRun(weeklyKm: current, longestKm: longest)
    }
    // Every run of the first week must be worth doing: the long run plus (runs − 1) runs of minRunKm.
    let minRun = rules.base.volume.minRunKm
    let maxRuns = Int(((current - min(longest, current / 2)) / minRun).rounded(.down)) + 1
    guard runs <= max(3, maxRuns) else {
      throw .tooManyRuns(runs: runs, weeklyKm: current, minRunKm: minRun, maxRuns: max(3, min(7, maxRuns)))
    }
    self.runs = runs
    self.currentKm = current
    self.longestKm = longest
    // Masters (base.yaml `masters`): the runner's age in the plan's first year, from the profile's birth year.
    let levelEvery = rules.base.cutback.every[goal.level]
    let age = goal.birthYear.map { goal.timeline.start.year - $0 }
    if let masters = rules.base.masters, let born = goal.birthYear, let age, age >= masters.fromAge {
      cutbackEvery = min(levelEvery, masters.cutbackEvery)
      cutbackVolumeFactor = masters.cutbackVolumeFactor
      let rhythm =
        cutbackEvery < levelEvery
        ? "every \(VolumeRule.ordinal(cutbackEvery)) week instead of every \(VolumeRule.ordinal(levelEvery))"
        : "every \(VolumeRule.ordinal(cutbackEvery)) week"
      warnings.append(
        "age \(age) (born \(born)): a cut-back week \(rhythm), at \(percent(masters.cutbackVolumeFactor)) of the "
          + "week before, because recovery takes longer from \(masters.fromAge) (Pfitzinger & Latter, Faster Road "
          + "Racing, \"Training for masters runners\"; Friel, Fast After 50); keep the strides and strength work")
    } else {
      cutbackEvery = levelEvery
      cutbackVolumeFactor = rules.base.cutback.volumeFactor
    }

    // Paces: the recent race's VDOT (a faster goal time sets race pace), else the goal time's, else the level's.
    let goalPaces = try GoalPaces(goal: goal, rules: rules.base)
    warnings += goalPaces.warnings
    vdotSource = goalPaces.source
    paces = TrainingPaces(
      vdot: goalPaces.vdot, known: goalPaces.source != .levelEstimate, race: goal.distance,
      goalSeconds: goalPaces.goalSeconds)

    // Timeline checks.
    let minimum = distance.minimumWeeks[goal.level]
    let weeks = goal.timeline.weeks
    guard weeks <= rules.base.maxWeeks else {
      throw .outOfRange(field: .weeks, value: String(weeks), allowed: "1–\(rules.base.maxWeeks)")
    }
    if weeks < minimum.absolute {
      let start = goal.timeline.start
      let alternatives = RaceDistance.allCases.filter { other in
        other.kilometers < goal.distance.kilometers
          && (rules.rules(for: other)?.minimumWeeks[goal.level].absolute ?? Int.max) <= weeks
      }
      throw .timelineTooShort(
        distance: goal.distance, level: goal.level, weeks: weeks, absolute: minimum.absolute,
        recommended: minimum.recommended,
        earliestRaceDate: start.adding(days: 7 * minimum.absolute - 1),
        recommendedRaceDate: start.adding(days: 7 * minimum.recommended - 1),
        alternatives: alternatives)
    }
    compressed = weeks < minimum.recommended
    if compressed {
      warnings.append(
        "\(weeks) weeks is shorter than the \(minimum.recommended) weeks recommended for a "
          + "\(goal.level.rawValue) \(goal.distance.displayName): this is a compressed plan with no base weeks; "
          + "a race on or after \(goal.timeline.start.adding(days: 7 * minimum.recommended - 1)) allows a full plan")
    }

    let template = (rules.base.weeklyPatterns.first { $0.runs == runs }?.days ?? []).sorted { $0.offset < $1.offset }
    if goal.laidOnRunnersDays {
      let quality = rules.base.levels[goal.level].qualityPerWeek
      let layout = try WeekLayout.make(
        runDays: goal.runDays, longRunDay: goal.longRunDay, raceWeekday: goal.timeline.raceDate.weekday, runs: runs,
        template: template, qualityWanted: Phase.allCases.map { quality[$0] }.max() ?? 0)
      pattern = layout.pattern
      anchor = layout.longRunDay
      warnings += layout.warnings
      if let note = goal.timeline.raceDayNote(longRunDay: anchor) { warnings.append(note) }
    } else {
      pattern = template
      anchor = goal.timeline.raceDate.weekday
    }

    // Targets.
    var peakTarget = max(level.peakWeeklyKm, current)
    // At many runs a week the long run's share is held lower: a plan peaks where its shortest useful long run fits
    // in that share, rounded up to half a kilometre (a beginner marathon on 6 runs: 29 km at 41.5 %, 70 km; a
    // beginner 15K on 5: 14 km at 34 %, 41.5 km).
    let manyRunsCap = PlanContext.manyRunsCap(rules.base.longRun, own: distance.longRun.manyRunsCapOfWeek, runs: runs)
    if let share = manyRunsCap {
      let fitting = distance.shortestUsefulPeakLongRunKm(goal.level) / share
      peakTarget = max(peakTarget, (fitting * 2 - 1e-9).rounded(.up) / 2)
    }
    // A plan built without the extended taper stays at or under the volume that calls for it.
    if extendedTaper == false, let extended = distance.taper.extended {
      peakTarget = min(peakTarget, extended.abovePeakKm)
    }
    peakTargetKm = peakTarget
    if let extended = distance.taper.extended, extendedTaper ?? (peakTarget > extended.abovePeakKm) {
      taperVolume = extended.volume
      taperLongRun = extended.longRun
      usesExtendedTaper = true
    } else {
      usesExtendedTaper = false
      taperVolume = distance.taper.volume
      taperLongRun = distance.taper.longRun
    }
    // Run/walk long runs cover less ground in the cap's time than running throughout: the cap is what they cover.
    let byTime = LongRunByTime(distance: distance, base: rules.base, level: goal.level, easy: paces.pace(.easy))
    maxLongMinutes = byTime.minutes
    timeCapKm = byTime.kilometers(easy: paces.pace(.easy))
    // The runner's state is the input, the template the target: the long run aims for the level's peak long run, or
    // the runner's own longest run when that is more, or the long run that lets `runs` runs carry what the runner
    // runs now while it stays a third longer than each of them (a 60 km runner on 4 runs: about 18.5 km), within the
    // time cap. With fewer runs than the level's usual, volume the runner does not run yet does not lengthen it: the
    // plan then peaks lower and says that more runs would carry more (a 3-run half plan does not grow 30 km long runs).
    let carried = runs >= level.runsPerWeek ? peakTarget : min(peakTarget, current)
    peakLongCarriesKm = carried
    // The day before the long run carries at most `eveOfLongMaxOfLong` of it (patterns with a run there).
    let eve = pattern.contains { $0.offset == -1 && $0.role != .long }
    let carries =
      carried
      / (1 + Double(runs - 1 - (eve ? 1 : 0)) / rules.base.longRun.minRatioToOtherRuns
        + (eve ? rules.base.weekStructure.eveOfLongMaxOfLong : 0))
    peakLongTargetKm = min(max(level.peakLongRunKm.upper, longest, floorHalf(carries)), timeCapKm)
    // The minimum run in minutes at easy pace, but never so long that the peak long run could not be a third
    // longer (a fast runner's 20 minutes in a beginner 5K plan).
    let easyKm = paces.pace(.easy).kilometers(inMinutes: rules.base.weekStructure.minRunMinutes)
    minRunKm = max(
      rules.base.volume.minRunKm,
      min(
        (easyKm * 10 - 1e-9).rounded(.up) / 10,
        floorTenth(peakLongTargetKm / rules.base.longRun.minRatioToOtherRuns)))
    recoveryMaxKm = max(
      minRunKm, floorHalf(paces.pace(.easy).kilometers(inMinutes: rules.base.weekStructure.recoveryMaxMinutes)))
    if let minutes = rules.base.weekStructure.otherRunMaxMinutesAtFewRuns,
      runs <= rules.base.weekStructure.fewRunsAtMost
    {
      let currentOtherRunKm = (current - longest) / Double(max(1, runs - 1))
      otherRunCapKm = max(
        minRunKm, floorHalf(paces.pace(.easy).kilometers(inMinutes: minutes)), floorHalf(currentOtherRunKm))
    } else {
      otherRunCapKm = .infinity
    }
    // The time cap's warning names the weeks it holds: longRunByTimeWarnings, once the plan is shaped.

    phases = PlanContext.layOutPhases(
      weeks: weeks, taperWeeks: taperVolume.count, compressed: compressed,
      rules: rules.base.phases)
    var buildPeak: [Int] = []
    for (index, phase) in phases.enumerated() where phase == .build || phase == .peak { buildPeak.append(index + 1) }
    buildPeakWeeks = buildPeak.first.map { ($0, buildPeak.last ?? $0) }
    // One copy of the context for every week's days (reading `self` in the closure copied it for each week).
    let laid = self
    // Every week but race week lays the same pattern on the same weekdays: the first week's days, a week later each
    // time (laid out once, not per week); race week has its own (``daySlots(weekStart:phase:context:)``).
    let start = goal.timeline.start
    let usual = daySlots(weekStart: start, phase: .base, context: laid)
    weekSlots = phases.enumerated().map { index, phase in
      guard phase != .race else {
        return daySlots(weekStart: start.adding(days: 7 * index), phase: phase, context: laid)
      }
      guard index > 0 else { return usual }
      var slots = usual
      for slot in slots.indices { slots[slot].date = slots[slot].date.adding(days: 7 * index) }
      return slots
    }
  }

  /// The weeks that bring a runner from `current` km a week and a longest run of `longest` km to the distance's
  /// starting requirements: the ramp's steps (at most min(10 %, 1.6 km × runs) a week, as ``VolumeRule`` ramps) and the
  /// spike guard's (+10 % a week) with the level's cut-back weeks between them; 0 when the runner meets them.
  static func weeksToBuild(
    from current: Double, longest: Double, runs: Int, to requirements: Requirements, rules: BaseRules, level: Level
  ) -> Int {
    var volume = current
    var long = longest
    var steps = 0
    while (volume < requirements.minWeeklyKm - 1e-9 || long < requirements.minLongestRunKm - 1e-9) && steps < 60 {
      volume += min(rules.volume.maxIncreasePercent / 100 * volume, rules.volume.maxIncreaseKmPerRun * Double(runs))
      long *= rules.longRun.spikeFactor
      steps += 1
    }
    let every = rules.cutback.every[level]
    return steps == 0 ? 0 : steps + steps / max(1, every - 1)
  }

  /// Base, build and peak before the taper; the last week is race week.
  static func layOutPhases(weeks: Int, taperWeeks: Int, compressed: Bool, rules: PhaseRules) -> [Phase] {
    let taper = min(taperWeeks, weeks)
    let remaining = weeks - taper
    var peak = min(max(Int((Double(weeks) * rules.peakFraction).rounded()), rules.peakMinWeeks), rules.peakMaxWeeks)
    var base = compressed ? 0 : max(rules.baseMinWeeks, Int((Double(weeks) * rules.baseFraction).rounded()))
    peak = min(peak, max(0, remaining - 1))
    base = min(base, max(0, remaining - peak - 1))
    var build = remaining - peak - base
    if build > rules.buildMaxWeeks {
      base += build - rules.buildMaxWeeks
      build = rules.buildMaxWeeks
    }
    var phases =
      Array(repeating: Phase.base, count: base) + Array(repeating: .build, count: build)
      + Array(repeating: .peak, count: peak)
    if taper > 0 { phases += Array(repeating: Phase.taper, count: taper - 1) + [.race] }
    return phases
  }

  /// The long-run cap for a week of `volumeKm` in `phase`: the largest of
  /// - 30 % of the week (Daniels, Hansons, for runners above ~60 km/week),
  /// - the distance's minimum useful long run, up to 50 % of the week (low-volume novice plans), and
  /// - the share the week's structure needs, up to 50 %: with few runs the long run must take more than 30 %
  ///   to stay a third longer than the other runs. Quality sessions (about 15 % of the week each) take their
  ///   share first; the easy runs and the long run share the rest, with 10 % of headroom.
  func longRunCap(volumeKm: Double, phase: Phase) -> Double {
    let rules = base.longRun
    let quality = Double(qualityCount(phase: phase))
    let easyRuns = Double(runs - 1) - quality
    let structural = min(
      rules.noviceCapOfWeek,
      1.1 * (1 - 0.15 * quality) / (1 + easyRuns / rules.minRatioToOtherRuns))
    // The runner's own longest run is never cut below (up to half of the week): a plan starts from what they run.
    // The distance's own share holds in a week big enough for all its runs beside it (each at least the shortest
    // run); a smaller week, which drops runs, keeps the base's, and so does a peak week too small to carry the
    // shortest useful peak long run at the own share (a short plan whose ramp cannot reach that volume).
    let own = distance.longRun.manyRunsCapOfWeek.flatMap { share in
      let fits = volumeKm * (1 - share) / Double(max(1, runs - 1)) >= minRunKm
      let carriesPeak = phase != .peak || volumeKm * share >= distance.shortestUsefulPeakLongRunKm(goal.level) - 0.05
      return fits && carriesPeak ? share : nil
    }
    let novice = PlanContext.manyRunsCap(rules, own: own, runs: runs) ?? rules.noviceCapOfWeek
    return max(
      rules.capOfWeek * volumeKm, min(distance.longRun.minUsefulKm, novice * volumeKm),
      structural * volumeKm, min(longestKm, rules.noviceCapOfWeek * volumeKm))
  }

  /// The share of the week the minimum useful long run may take at `runs` runs a week, when `longRun.manyRunsFrom`
  /// applies (nil: `noviceCapOfWeek`): `own` (the distance's share, where it holds) before the base's.
  static func manyRunsCap(_ rules: LongRunRules, own: Double?, runs: Int) -> Double? {
    guard let from = rules.manyRunsFrom, runs >= from else { return nil }
    return own ?? rules.manyRunsCapOfWeek
  }

  /// The shortest long run with which the week's runs can hold `volumeKm`: every other run a third shorter than it,
  /// the day before it at most `eveOfLongMaxOfLong` of it (patterns with a run there), with 3 % for the rounding of
  /// easy runs down to half kilometres; rounded up to tenths. A step-back long run never goes under it, so the week
  /// keeps its volume instead of stepping back with the long run (a 70 km week on 4 runs needs a 23.4 km long run).
  /// The recovery day after the long run carries at most `recoveryMaxKm` (an 18-week marathon at 90 km on 6 runs needs a
  /// 23 km long run, not the 20.7 km that counting it as an ordinary easy day gives).
  func longRunToCarry(volumeKm: Double) -> Double {
    let ratio = base.longRun.minRatioToOtherRuns
    let eve = pattern.contains { $0.offset == -1 && $0.role != .long }
    let recovery = pattern.contains { $0.role == .recovery }
    let others = Double(runs - 1 - (eve ? 1 : 0) - (recovery ? 1 : 0))
    let share = 1 + others / ratio + (eve ? base.weekStructure.eveOfLongMaxOfLong : 0)
    var long = 1.03 * volumeKm / (share + (recovery ? 1 / ratio : 0))
    if recovery && recoveryMaxKm < long / ratio { long = (1.03 * volumeKm - recoveryMaxKm) / share }
    return (long * 10 - 1e-9).rounded(.up) / 10
  }

  /// Quality sessions in a full week of `phase`: the level's count, at most the pattern's quality days, and at
  /// `weekStructure.fewRunsAtMost` runs a week or fewer at most `qualityAtFewRuns`.
  func qualityCount(phase: Phase) -> Int {
    let slots = pattern.reduce(0) { $0 + ($1.role == .quality ? 1 : 0) }
    let count = min(levelRules.qualityPerWeek[phase], slots)
    return min(count, fewRunsQualityCap ?? count)
  }

  /// The few-runs cap on quality sessions when it applies to this plan (nil: it does not).
  var fewRunsQualityCap: Int? {
    let structure = base.weekStructure
    return runs <= structure.fewRunsAtMost ? structure.qualityAtFewRuns[goal.level] : nil
  }

  /// Race week: the longest run before race day, and the longest in the last days.
  var raceWeekCaps: (run: Double, lastDays: Double) {
    let race = base.weekStructure.raceWeek
    var run = max(minRunKm, floorTenth(min(race.maxRunKm, max(race.lastDaysMaxKm, race.maxRunOfRace * raceKm))))
    var lastDays = max(minRunKm, min(run, race.lastDaysMaxKm))
    if let from = race.highVolumeFromPeakKm, peakTargetKm >= from {
      if let share = race.maxRunOfPeakWeek {
        run = max(run, floorTenth(min(race.maxRunKmByVolume ?? race.maxRunKm, share * peakTargetKm)))
      }
      if let share = race.lastDaysMaxOfPeakWeek { lastDays = max(lastDays, min(run, floorTenth(share * peakTargetKm))) }
    }
    if let share = race.beginnerLastDaysMaxOfRace, goal.level == .beginner, raceKm <= 10 {
      lastDays = max(base.volume.minRunKm, min(lastDays, floorTenth(share * raceKm)))
    }
    return (run, lastDays)
  }

  /// The longest run allowed on `date` in race week.
  func raceWeekCap(on date: CivilDate) -> Double {
    let caps = raceWeekCaps
    return date.days(to: goal.timeline.raceDate) <= base.weekStructure.raceWeek.lastDays ? caps.lastDays : caps.run
  }

  /// The most the day before the long run carries: `eveOfLongMaxOfLong` of the long run, and after a quality
  /// session the day before it (a session, not strides, two days before the long run) at most
  /// `eveOfLongAfterQualityMaxKm`, in tenths.
  func eveOfLongCap(long: Double, week: WeekDraft, longDate: CivilDate) -> Double {
    let structure = base.weekStructure
    let share = floorTenth(structure.eveOfLongMaxOfLong * long)
    guard let km = structure.eveOfLongAfterQualityMaxKm else { return share }
    let afterQuality = week.slots.contains { slot in
      slot.date.days(to: longDate) == 2 && (week.sessions[slot.id].map { !$0.isStrides } ?? false)
    }
    return afterQuality ? min(share, km) : share
  }

  /// The per-session cap on work at `zone`, in km, for a week of `volumeKm` (Daniels).
  func workCap(zone: Intensity, volumeKm: Double) -> Double {
    let caps = base.intensity
    switch zone {
    case .easy: return .infinity
    case .marathon, .threshold: return caps.maxThresholdOfWeek * volumeKm
    case .interval: return caps.maxIntervalOfWeek * volumeKm
    case .repetition: return caps.maxRepetitionOfWeek * volumeKm
    case .race:
      return (goal.distance.kilometers <= 10 ? caps.maxIntervalOfWeek : caps.maxThresholdOfWeek) * volumeKm
    }
  }

  /// The effort words for `zone`.
  func effort(_ zone: Intensity) -> String { zoneEfforts[TrainingPaces.slot(zone)] }
}
