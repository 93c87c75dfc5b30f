/// The training rules and workout library, decoded from `plan-templates/*.yaml`.
///
/// Every number a coach might want to change lives here, not in code. See `plan-templates/README.md` for the
/// schema. Build one with ``PlanRules/init(files:)``; it validates every file and reports the first problem
/// as a ``TemplateError`` naming the file, the key path, the value and what is allowed.
public struct PlanRules: Sendable {
  /// Rules shared by every distance (`base.yaml`).
  public var base: BaseRules
  /// The workout library (`workouts.yaml`), by id.
  public var workouts: [String: WorkoutTemplate]
  /// Per-distance rules, keyed by template name (`5k`, `half`).
  public var distances: [String: DistanceRules]
  /// The files the rules came from, for messages.
  public var sources: [String]

  /// The rules for one race distance, if its file was loaded.
  public func rules(for distance: RaceDistance) -> DistanceRules? { distances[distance.templateName] }
}

/// One template file's name and text, as the caller read it.
public struct TemplateFile: Sendable, Hashable {
  /// The file name for messages (`plan-templates/half.yaml`).
  public var name: String
  /// The YAML text.
  public var text: String

  /// Creates a template file value.
  public init(name: String, text: String) {
    self.name = name
    self.text = text
  }
}

/// A value per experience level.
public struct PerLevel<Value: Sendable & Codable & Hashable>: Sendable, Codable, Hashable {
  /// Value for beginners.
  public var beginner: Value
  /// Value for intermediate runners.
  public var intermediate: Value
  /// Value for advanced runners.
  public var advanced: Value

  /// The value for `level`.
  public subscript(level: Level) -> Value {
    switch level {
    case .beginner: beginner
    case .intermediate: intermediate
    case .advanced: advanced
    }
  }
}

/// A value per training phase.
public struct PerPhase<Value: Sendable & Codable & Hashable>: Sendable, Codable, Hashable {
  /// Base phase.
  public var base: Value
  /// Build phase.
  public var build: Value
  /// Peak phase.
  public var peak: Value
  /// Taper weeks before race week.
  public var taper: Value
  /// Race week.
  public var race: Value

  /// The value for `phase`.
  public subscript(phase: Phase) -> Value {
    switch phase {
    case .base: base
    case .build: build
    case .peak: peak
    case .taper: taper
    case .race: race
    }
  }
}

/// A number or a `[low, high]` range in YAML.
public struct ValueRange: Sendable, Codable, Hashable {
  /// The low end.
  public var lower: Double
  /// The high end (equal to `lower` for a single number).
  public var upper: Double

  /// Creates a range.
  public init(_ lower: Double, _ upper: Double) {
    self.lower = lower
    self.upper = upper
  }

  /// The value at `fraction` (0…1) of the way from `lower` to `upper`.
  public func value(at fraction: Double) -> Double { lower + (upper - lower) * min(1, max(0, fraction)) }

  /// Decodes a number (`12`) or a range (`[10, 14]`).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let single = try? container.decode(Double.self) {
      self.init(single, single)
      return
    }
    let pair = try container.decode([Double].self)
    guard pair.count == 2 else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a number or [low, high]")
    }
    self.init(pair[0], pair[1])
  }

  /// Encodes a number when both ends are equal, else `[lower, upper]`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if lower == upper { try container.encode(lower) } else { try container.encode([lower, upper]) }
  }
}

/// `base.yaml`: rules shared by every distance.
public struct BaseRules: Sendable, Codable, Hashable {
  /// Must be 1.
  public var schemaVersion: Int
  /// The longest plan allowed, in weeks.
  public var maxWeeks: Int
  /// Weekly volume progression.
  public var volume: VolumeRules
  /// Cut-back weeks.
  public var cutback: CutbackRules
  /// How weeks are split into phases.
  public var phases: PhaseRules
  /// Long-run limits.
  public var longRun: LongRunRules
  /// Intensity distribution and per-session caps.
  public var intensity: IntensityRules
  /// Per-level settings.
  public var levels: PerLevel<LevelRules>
  /// Day patterns, one per number of runs a week (3 … 7).
  public var weeklyPatterns: [WeeklyPattern]
  /// How the runs of a week relate to each other: the day before the long run, the long run's share, the
  /// shortest run, quality sessions at few runs a week, race week.
  public var weekStructure: WeekStructureRules
  /// Cross-training and strength days (`--cross-training N`, `--strength N`): how many, how long, where.
  public var extraDays: ExtraDayRules
  /// Goal times (`--goal-time`): the plausible range and the VDOT a week of training can add.
  public var goalTime: GoalTimeRules
  /// Replanning (`runmate replan`, `pause`): how the logs are read and how a runner comes back after a break.
  public var replan: ReplanRules
  /// Logged races that move the paces (`runmate paces`, `replan --update-paces`): the step cap and the shortest race.
  public var paceUpdates: PaceUpdateRules
  /// Effort descriptions per intensity zone (RPE and talk test).
  public var efforts: [String: String]
  /// Masters runners (the runner's age from the profile's birth year); nil: age changes nothing.
  public var masters: MastersRules?
}

/// Masters runners recover more slowly (Pfitzinger & Latter, *Faster Road Racing*, "Training for masters runners";
/// Friel, *Fast After 50*): from `fromAge` the plan has a cut-back week every `cutbackEvery` weeks at most.
public struct MastersRules: Sendable, Codable, Hashable {
  /// The age (in the plan's first year) from which these rules apply.
  public var fromAge: Int
  /// A cut-back week at least this often (the level's rhythm when that is more often).
  public var cutbackEvery: Int
  /// A cut-back week's volume as a share of the full week before it (in place of `cutback.volumeFactor`).
  public var cutbackVolumeFactor: Double
}

/// Replanning (`runmate replan`, `pause`; docs/training-rules.md, "Replanning"): how the logs are read, when a runner
/// is on track, and how they come back after a break.
public struct ReplanRules: Sendable, Codable, Hashable {
  /// Weeks of logs read (the spike guard's look-back, Garmin-RUNSAFE, BJSM 2025).
  public var lookbackWeeks: Int
  /// Weights of those weeks, most recent first (a linearly decaying average, as Williams et al., BJSM 2017).
  public var weekWeights: [Double]
  /// A pause of at least this many days lowers the volume of a rebuild to `afterPauseShare`.
  public var pauseDays: Int
  /// After such a pause, the share of the volume before it (Daniels' return-from-a-break guidance).
  public var afterPauseShare: Double
  /// A long run run at this share of its plan or more counts at its planned length for the spike guard.
  public var longRunDoneShare: Double
  /// Logs (weighted) holding this share of what the plan asked, no missed or short week last: on track.
  public var onTrackShare: Double
  /// The original weeks rejoin a rebuild where they hold at most this much more (volume and longest run).
  public var rejoinTolerance: Double
  /// Return weeks after a break, by its length: the first step whose `underDays` the break is under.
  public var comeback: [ComebackStep]
  /// Added to the return shares by the reason of the break (`ill`, `injury`, `travel`; missed days: none).
  public var reasonStep: [String: Double]
  /// No return week is over this share of the last full week.
  public var maxReturnShare: Double

  /// The return weeks for a break of `daysOff` days for `reason` (a ``reasonStep`` key), as shares of the last full
  /// week before it; nil for a break longer than every step (a rebuild from what was run).
  public func comeback(daysOff: Int, reason: String) -> [Double]? {
    guard let step = comeback.first(where: { daysOff < $0.underDays }) else { return nil }
    let delta = reasonStep[reason] ?? 0
    return step.shares.map { min(maxReturnShare, $0 + delta) }
  }
}

/// Return weeks for breaks shorter than `underDays` days.
public struct ComebackStep: Sendable, Codable, Hashable {
  /// The break is shorter than this many days.
  public var underDays: Int
  /// One share of the last full week per return week.
  public var shares: [Double]
}

/// `--goal-time`: what a goal may ask for, and how far past the recent race's VDOT the plan can take the runner.
public struct GoalTimeRules: Sendable, Codable, Hashable {
  /// VDOT a week of training can plausibly add (Daniels: one point after 4–6 weeks at a VDOT).
  public var vdotGainPerWeek: Double
  /// The fastest goal accepted, as a VDOT (the world records are about 85).
  public var maxVdot: Double
  /// The slowest goal accepted, as minutes a kilometre (a brisk walk).
  public var slowestMinutesPerKm: Double
  /// A goal with no race behind it more than this many VDOT points above what the weekly volume usually supports
  /// (Tanda's marathon model) is questioned with a warning; nil: goals alone are not questioned.
  public var unbackedMarginVdot: Double?
}

/// Optional non-running days: cross-training and strength, on days without a run, never in race week, never
/// counted in the running volume.
public struct ExtraDayRules: Sendable, Codable, Hashable {
  /// The most of each kind a week (the largest `--cross-training` and `--strength` accepted).
  public var maxPerWeek: Int
  /// Low-intensity cross-training (cycling, swimming, elliptical).
  public var crossTraining: ExtraDayKind
  /// Strength and core work.
  public var strength: ExtraDayKind
}

/// One kind of non-running day.
public struct ExtraDayKind: Sendable, Codable, Hashable {
  /// Minutes per session, by phase (race week: 0, none is placed).
  public var minutes: PerPhase<Int>
  /// Never on the day before a hard day (the long run, a quality session, the race).
  public var notBeforeHardDay: Bool
  /// Prefer the day right after a hard day (true: active recovery) or the day furthest from the next hard
  /// day (false: sore muscles have the most time to recover).
  public var afterHardDay: Bool
  /// The description; `{minutes}` is replaced by the session's minutes.
  public var text: String
}

/// Weekly volume progression (the 10 % guideline and Daniels' 1 mile per session).
public struct VolumeRules: Sendable, Codable, Hashable {
  /// Largest increase over the previous full week, in percent.
  public var maxIncreasePercent: Double
  /// Largest increase per run of the week, in km.
  public var maxIncreaseKmPerRun: Double
  /// Base weeks stay at or below this fraction of peak volume.
  public var baseCapOfPeak: Double
  /// The shortest run worth lacing up for, in km.
  public var minRunKm: Double
}

/// Cut-back (recovery) weeks.
public struct CutbackRules: Sendable, Codable, Hashable {
  /// Every n-th week is a cut-back week.
  public var every: PerLevel<Int>
  /// Cut-back volume as a fraction of the previous full week.
  public var volumeFactor: Double
  /// The cut-back long run is at most this fraction of the previous full week's long run (it also returns to
  /// the length of two weeks earlier), so a plateaued long run still gets a lighter week.
  public var longRunFactor: Double
  /// No cut-back in the week right before the taper: the taper that follows is the recovery.
  public var skipBeforeTaper: Bool
}

/// How the weeks before the taper divide into base, build and peak.
public struct PhaseRules: Sendable, Codable, Hashable {
  /// Share of the plan spent in base.
  public var baseFraction: Double
  /// Fewest base weeks in a plan that is not compressed.
  public var baseMinWeeks: Int
  /// Share of the plan at peak.
  public var peakFraction: Double
  /// Fewest peak weeks.
  public var peakMinWeeks: Int
  /// Most peak weeks.
  public var peakMaxWeeks: Int
  /// Most build weeks; longer plans get more base.
  public var buildMaxWeeks: Int
}

/// Long-run limits.
public struct LongRunRules: Sendable, Codable, Hashable {
  /// Long run cap as a share of the week (Daniels, Hansons).
  public var capOfWeek: Double
  /// The share allowed when needed to reach the distance's minimum useful long run.
  public var noviceCapOfWeek: Double
  /// From this many runs a week (nil: never) the share allowed for the minimum useful long run is
  /// `manyRunsCapOfWeek` (or the distance's own) instead, and a plan peaks at least high enough for its shortest
  /// useful long run to fit in it.
  public var manyRunsFrom: Int?
  /// The share at `manyRunsFrom` runs or more.
  public var manyRunsCapOfWeek: Double?
  /// Warn when the long run is above this share of its week.
  public var warnAboveOfWeek: Double
  /// No run longer than this factor × the longest run of the look-back window (Garmin-RUNSAFE).
  public var spikeFactor: Double
  /// The look-back window, in weeks.
  public var spikeLookbackWeeks: Int
  /// The long run is at least this factor × any other run of its week.
  public var minRatioToOtherRuns: Double
  /// Longest long run, in minutes at easy pace.
  public var maxMinutes: Double
  /// A new plan whose longest long run stays under this share of what the race needs (the distance's
  /// `minUsefulKm`, at most the level's low peak long run or the time cap) is refused with the fix named.
  public var refuseUnderShareOfNeed: Double
}

/// Week structure (training-rules.md, "Week structure and race specificity"): principles shared by Higdon,
/// Pfitzinger, Hansons and Daniels.
public struct WeekStructureRules: Sendable, Codable, Hashable {
  /// The shortest run, in minutes at easy pace (novices: at least about 20 minutes); `volume.minRunKm` stays
  /// the floor in km. A week too small for its runs at this length drops an easy run.
  public var minRunMinutes: Double
  /// The day before the long run carries at most this share of the long run; the rest of the week's volume goes
  /// to the other days. When that share is under the minimum run, `eveOfLongTooShort` says what happens.
  public var eveOfLongMaxOfLong: Double
  /// After a quality session two days before the long run, the day between carries at most this many km (a
  /// recovery-length run, so the long run does not start on tired legs: Pfitzinger); nil: only the share applies.
  public var eveOfLongAfterQualityMaxKm: Double?
  /// What becomes of the run on the day before the long run when its share is under the minimum run.
  public var eveOfLongTooShort: EveOfLongTooShort
  /// The long run is never more than this share of its week's planned volume.
  public var longRunMaxOfWeek: Double
  /// At this many runs a week or fewer, `qualityAtFewRuns` caps the quality sessions besides the long run.
  public var fewRunsAtMost: Int
  /// Most quality sessions besides the long run at `fewRunsAtMost` runs a week or fewer, per level.
  public var qualityAtFewRuns: PerLevel<Int>
  /// The midweek medium-long run at many runs a week.
  public var mediumLong: MediumLongRules
  /// The longest recovery run (the day after the long run), minutes at easy pace.
  public var recoveryMaxMinutes: Double
  /// At `fewRunsAtMost` runs a week or fewer, the longest any run but the long run may be, minutes at easy pace
  /// (unless the runner's current week needs more); nil: no such cap.
  public var otherRunMaxMinutesAtFewRuns: Double?
  /// Race week.
  public var raceWeek: RaceWeekRules
}

/// The medium-long run: at `fromRuns` runs a week or more, the easy day furthest from the long run carries about
/// `ofLong` of the long run and is the week's second-longest run.
public struct MediumLongRules: Sendable, Codable, Hashable {
  /// The fewest runs a week that have one.
  public var fromRuns: Int
  /// Its length as a share of the week's long run.
  public var ofLong: Double
  /// Shorter than this, km, it is an ordinary easy run.
  public var minKm: Double
  /// The other easy days must keep at least this share of it on average, or the week stays even.
  public var othersAtLeastOfIt: Double
}

/// What becomes of the run on the day before the long run when `eveOfLongMaxOfLong` of the long run is under
/// the minimum run.
public enum EveOfLongTooShort: String, Sendable, Codable, Hashable {
  /// The run moves to a free day of the week (the one with the fewest hard days, then runs, beside it), so the
  /// week keeps its runs and the day before the long run rests; with no day free, it stays as the minimum run.
  case move
  /// The day rests and the week has one run fewer.
  case rest
}

/// Race week: short runs before race day, nothing long in the last days.
public struct RaceWeekRules: Sendable, Codable, Hashable {
  /// No run before race day longer than this share of the race distance (never under the minimum run) ...
  public var maxRunOfRace: Double
  /// ... nor longer than this, km.
  public var maxRunKm: Double
  /// The last days before the race (3: the three days before race day) ...
  public var lastDays: Int
  /// ... hold runs of at most this, km.
  public var lastDaysMaxKm: Double
  /// The shakeout on the day before the race, km (at least the minimum run).
  public var shakeoutKm: Double
  /// A plan peaking at this weekly volume or more (km) keeps more running in race week (nil: never) ...
  public var highVolumeFromPeakKm: Double?
  /// ... its runs before race day up to this share of the peak week ...
  public var maxRunOfPeakWeek: Double?
  /// ... and at most this, km ...
  public var maxRunKmByVolume: Double?
  /// ... and in the last days up to this share of the peak week (never over the runs before).
  public var lastDaysMaxOfPeakWeek: Double?
  /// Beginners racing 10 km or less: no run in the last days longer than this share of the race (nil: no such cap).
  public var beginnerLastDaysMaxOfRace: Double?
}

/// Intensity distribution (Seiler) and Daniels' per-session caps.
public struct IntensityRules: Sendable, Codable, Hashable {
  /// Easy running's minimum share of each week's time.
  public var minEasyTimeFraction: Double
  /// Threshold work per session, as a share of weekly volume.
  public var maxThresholdOfWeek: Double
  /// Interval work per session, as a share of weekly volume.
  public var maxIntervalOfWeek: Double
  /// Repetition work per session, as a share of weekly volume.
  public var maxRepetitionOfWeek: Double
  /// The marathon-pace budget: work at marathon pace in a week (long-run segments, fast finishes and marathon-pace
  /// sessions together) as a share of the week's volume; separate from the per-session threshold cap.
  public var maxMarathonPaceOfWeek: Double
  /// Threshold and interval sessions carry at least this share of their per-session cap, within their template's
  /// range (Daniels sizes quality as a share of the week: a 110 km runner's intervals are not a 40 km runner's);
  /// nil: the build's progression alone sizes them.
  public var minWorkOfCap: Double?
}

/// Settings per level that hold for every distance.
public struct LevelRules: Sendable, Codable, Hashable {
  /// VDOT assumed for duration estimates when no recent race is given.
  public var estimateVdot: Double
  /// Quality sessions per week, by phase.
  public var qualityPerWeek: PerPhase<Int>
  /// Workout kinds this level may be given.
  public var allowedKinds: [WorkoutKind]
  /// The smallest sessions worth doing in full base, build and peak weeks.
  public var sessionFloors: SessionFloors
}

/// The smallest quality sessions worth doing at a level (`levels.<level>.sessionFloors`): a session sized under its
/// floor grows to it when the week's per-session caps allow, else another session of the phase's list is taken, and
/// at last a fartlek or strides. Fartlek and strides have none.
public struct SessionFloors: Sendable, Codable, Hashable {
  /// Minutes of work at threshold or marathon pace (tempo runs, cruise intervals; race pace above 10 km).
  public var thresholdMinutes: Double
  /// Kilometres of work at interval pace (intervals; race pace up to 10 km).
  public var intervalKm: Double
  /// Hill repeats.
  public var hillReps: Int
}

/// The days of a week with `runs` runs.
public struct WeeklyPattern: Sendable, Codable, Hashable {
  /// Runs per week.
  public var runs: Int
  /// The days.
  public var days: [PatternSlot]
}

/// A day in the weekly pattern: days before the long-run day, and what the day is for.
public struct PatternSlot: Sendable, Codable, Hashable {
  /// The role of the day.
  public enum Role: String, Sendable, Codable, Hashable, CaseIterable { case long, quality, easy, recovery }
  /// Days relative to the long-run (race) weekday: 0 is the long run, −1 the day before, down to −6.
  public var offset: Int
  /// What the day is for.
  public var role: Role
}

/// Per-distance rules (`5k.yaml`, `half.yaml`, …).
public struct DistanceRules: Sendable, Codable, Hashable {
  /// Must be 1.
  public var schemaVersion: Int
  /// The template name (`5k`, `10k`, `15k`, `half`, `marathon`).
  public var distance: String
  /// Minimum sensible and absolute plan lengths per level.
  public var minimumWeeks: PerLevel<MinimumWeeks>
  /// The taper shape.
  public var taper: TaperRules
  /// Long-run facts for the distance.
  public var longRun: DistanceLongRun
  /// What a runner needs before starting a plan for this distance (marathon).
  public var requirements: Requirements?
  /// Strides in every base, build and peak week: a week whose sessions have no repetition-pace work gets strides
  /// on an easy run (Daniels: R pace in every phase of 5K and 10K training); nil or false: only as sessions.
  public var stridesEveryWeek: Bool?
  /// Race-day guidance: warm-up, pacing splits, fuelling.
  public var raceDay: RaceDayRules
  /// Per-level volumes and workouts.
  public var levels: PerLevel<DistanceLevel>
}

/// Race-day guidance for a distance, as text with placeholders filled in from the runner's paces
/// (see ``RaceDayText``).
public struct RaceDayRules: Sendable, Codable, Hashable {
  /// How to warm up.
  public var warmup: String
  /// Pacing when paces are known (a recent race was given); may use every placeholder.
  public var pacing: String
  /// Pacing by effort, when paces are not known; may use `{effort}` and `{distance}` only.
  public var pacingByEffort: String
  /// Fuelling and drinking (half marathon and marathon); none for short races.
  public var fuelling: String?
  /// The `{splits}` placeholder lists the time at every this many km (km plans) ...
  public var splitEveryKm: Double
  /// ... or miles (mile plans), and at the finish.
  public var splitEveryMi: Double
}

/// Plan length limits.
public struct MinimumWeeks: Sendable, Codable, Hashable {
  /// Shorter plans are compressed (no base) and say so.
  public var recommended: Int
  /// Shorter plans are refused.
  public var absolute: Int
}

/// The taper: volume per taper week (the last entry is race week) as a fraction of peak volume.
public struct TaperRules: Sendable, Codable, Hashable {
  /// Volume fraction of peak per taper week; the last is race week.
  public var volume: [Double]
  /// Long run as a fraction of the peak long run, per taper week before race week.
  public var longRun: [Double]
  /// A longer taper for high peak volumes (marathon above 80 km/week).
  public var extended: ExtendedTaper?
}

/// A longer taper used above a peak volume.
public struct ExtendedTaper: Sendable, Codable, Hashable {
  /// Used when peak volume is above this, km/week.
  public var abovePeakKm: Double
  /// Volume fraction of peak per taper week; the last is race week.
  public var volume: [Double]
  /// Long run fraction of peak long run per taper week before race week.
  public var longRun: [Double]
}

extension DistanceRules {
  /// The shortest long run that prepares a runner of `level` for this distance: the distance's minimum useful long
  /// run, at most the level's low peak long run.
  func shortestUsefulPeakLongRunKm(_ level: Level) -> Double {
    min(longRun.minUsefulKm, levels[level].peakLongRunKm.lower)
  }
}

/// Long-run facts for a distance.
public struct DistanceLongRun: Sendable, Codable, Hashable {
  /// The shortest long run that prepares for this distance, km.
  public var minUsefulKm: Double
  /// Overrides the base `longRun.maxMinutes`.
  public var maxMinutes: Double?
  /// Overrides the base `longRun.manyRunsCapOfWeek` (shorter races hold the long run nearer 35 % at 5-7 runs).
  public var manyRunsCapOfWeek: Double?
  /// The shortest long run that readies a runner for the race, km (marathon: 29, the 18 miles a first marathon
  /// needs): the time cap stretches to it (`raceReadyMaxMinutes`).
  public var raceReadyKm: Double?
  /// For a runner running throughout, the time cap stretches to the minutes `raceReadyKm` takes at easy pace, up to
  /// this many (nil: it does not stretch).
  public var raceReadyMaxMinutes: Double?
  /// Peak long runs: how many, how far apart, and the step-back length between them (half, marathon).
  public var peaks: LongRunPeaks?
  /// Race-specific long runs: marathon-pace segments and fast finishes (half, marathon).
  public var variants: LongRunVariantRules?
  /// Run/walk for the long runs the time cap holds (marathon beginners): Galloway-style ratios by easy pace.
  public var runWalk: RunWalkRules?
}

/// Run/walk long runs (Galloway): a long run at the time cap alternates running at easy pace with short walking
/// breaks, the ratio chosen from the runner's easy pace (more walking the slower the pace). Walking is slower than
/// running, so a run/walk long run covers less ground in the same time: its distance is stated from `walkSecondsPerKm`.
public struct RunWalkRules: Sendable, Codable, Hashable {
  /// Levels whose long runs at the time cap are run/walk.
  public var levels: [Level]
  /// Brisk walking pace for the walking breaks, seconds per km (600: 6 km/h).
  public var walkSecondsPerKm: Double
  /// Ratios by easy pace, fastest pace first: a runner whose easy pace is `fromEasySecondsPerKm` or slower takes
  /// the last ratio that reaches them; a runner faster than the first runs continuously.
  public var ratios: [RunWalkRatio]
  /// The long-run time cap for these levels, minutes, in place of `longRun.maxMinutes` (nil: that one): the walking
  /// breaks make a longer time on feet safe (Galloway).
  public var maxMinutes: Double?
}

/// One run/walk ratio: run `runMinutes`, walk `walkMinutes`, repeated.
public struct RunWalkRatio: Sendable, Codable, Hashable {
  /// The slowest-from easy pace this ratio applies at, seconds per km.
  public var fromEasySecondsPerKm: Double
  /// Minutes of running at easy pace in each cycle.
  public var runMinutes: Int
  /// Minutes of brisk walking in each cycle.
  public var walkMinutes: Int
}

/// Peak long runs (Pfitzinger, Hansons, Higdon): a few at the peak length, never two weeks running, the weeks
/// between them at a step-back length; the last one well before race day.
public struct LongRunPeaks: Sendable, Codable, Hashable {
  /// Most long runs at the peak length in a plan.
  public var maxCount: Int
  /// A long run within this share of the plan's longest counts as a peak long run (0.03: within 3 %).
  public var withinOfLongest: Double
  /// The build and peak weeks between peak long runs run this share of the peak long run (0.80–0.85).
  public var stepBackOfPeak: Double
  /// The last peak long run is at least this many days before race day.
  public var lastDaysBeforeRace: Int
  /// No peak long run earlier than this many days before race day: the peaks close the build.
  public var earliestDaysBeforeRace: Int
  /// The long runs of a long plan's early weeks, far from the peaks (nil: as the later ones).
  public var early: EarlyLongRuns?
}

/// On a long timeline the weeks far from race day are a base (Pfitzinger's 24-week schedules, Daniels' phase I and
/// II): their long runs stay well under the peak and alternate a longer and a shorter one, so that the peak long runs
/// come at the end of the build, not 20 weeks out, and the long run never sits at one length for months.
public struct EarlyLongRuns: Sendable, Codable, Hashable {
  /// Full weeks more than this many weeks before race week are early.
  public var weeksOut: Int
  /// An early week's longer long run: at most this share of the peak long run.
  public var longerOfPeak: Double
  /// The early week between two longer ones: at most this share of the peak long run.
  public var shorterOfPeak: Double
}

/// A race-specific long-run variant.
public enum LongRunVariantKind: String, Sendable, Codable, Hashable, CaseIterable {
  /// Easy throughout.
  case easy
  /// The last kilometres at marathon pace (Pfitzinger, Hansons).
  case marathonPace = "marathon-pace"
  /// The last few kilometres at `fastFinishZone` pace.
  case fastFinish = "fast-finish"
}

/// Race-specific long runs: the step-back long runs of the build and peak weeks (not the peak long runs, not
/// cut-back weeks) take these variants in rotation, for the levels listed.
public struct LongRunVariantRules: Sendable, Codable, Hashable {
  /// Levels that get variants (beginners keep easy long runs).
  public var levels: [Level]
  /// The variants in rotation over the eligible long runs.
  public var rotation: [LongRunVariantKind]
  /// The marathon-pace segment at the end of the long run, km; a range grows over the build.
  public var marathonPaceKm: ValueRange
  /// The fast finish, km; a range grows over the build.
  public var fastFinishKm: ValueRange
  /// The fast finish's pace: `M` (marathon pace) or `race` (goal race pace).
  public var fastFinishZone: Intensity
  /// A week with a variant keeps at least this share of its time easy (the segment gives way).
  public var minEasyTimeOfWeek: Double
  /// Most quality sessions in a week whose long run has a marathon-pace segment (the other quality days are easy).
  public var qualityBesideMarathonPace: Int
}

/// Entry requirements.
public struct Requirements: Sendable, Codable, Hashable {
  /// Weekly volume needed to start, km.
  public var minWeeklyKm: Double
  /// Longest recent run needed to start, km.
  public var minLongestRunKm: Double
}

/// Per-distance, per-level settings.
public struct DistanceLevel: Sendable, Codable, Hashable {
  /// Default current weekly volume, km.
  public var startWeeklyKm: Double
  /// Default longest recent run, km.
  public var longestRecentRunKm: Double
  /// Peak weekly volume, km; never ramped past.
  public var peakWeeklyKm: Double
  /// Peak long run, km (the guide's table).
  public var peakLongRunKm: ValueRange
  /// Default runs per week.
  public var runsPerWeek: Int
  /// Workout ids per phase, used in rotation.
  public var workouts: PerPhase<[String]>
}

/// `workouts.yaml`: the workout library.
public struct WorkoutLibrary: Sendable, Codable, Hashable {
  /// Must be 1.
  public var schemaVersion: Int
  /// Workouts by id.
  public var workouts: [String: WorkoutTemplate]
}

/// A quality session shape.
public struct WorkoutTemplate: Sendable, Codable, Hashable {
  /// The workout kind.
  public var kind: WorkoutKind
  /// Intensity of the work bouts.
  public var zone: Intensity
  /// Short name (`Cruise intervals`).
  public var name: String
  /// Easy warm-up, km (0 for strides, which ride on an easy run).
  public var warmupKm: Double
  /// Easy cool-down, km.
  public var cooldownKm: Double
  /// Size of one work bout; a range grows over the build.
  public var work: Amount
  /// Repetitions; a range grows over the build.
  public var reps: ValueRange
  /// Recovery between bouts.
  public var recovery: Amount?
  /// Words for the session's purpose.
  public var purpose: String
  /// What the work bouts aim at: the zone's pace when paces are known (`pace`, the default), or an effort only
  /// (`effort`: hills, where a road pace means nothing).
  public var target: WorkoutTarget?
  /// The effort for the work bouts, replacing `base.yaml`'s `efforts` text for the zone (`hard effort (about 5K
  /// effort)`).
  public var effort: String?
  /// Where the bouts are run, written after the bout (`uphill`).
  public var terrain: String?
  /// The recovery in words, replacing "<duration> easy jog between" (`jog back down`).
  public var recoveryText: String?

  /// True when the work bouts show an effort only, never a pace.
  public var effortOnly: Bool { target == .effort }
}

/// What a session's work bouts aim at.
public enum WorkoutTarget: String, Sendable, Codable, Hashable, CaseIterable {
  /// The zone's pace (when paces are known), with its effort.
  case pace
  /// An effort only.
  case effort
}

/// An amount of running: one of km, minutes, seconds (a number or a range), or `ofWork` for recoveries.
public struct Amount: Sendable, Codable, Hashable {
  /// Kilometres.
  public var km: ValueRange?
  /// Minutes.
  public var minutes: ValueRange?
  /// Seconds.
  public var seconds: ValueRange?
  /// Recovery as a fraction of the work bout's duration.
  public var ofWork: Double?
}
