import RunningCore

/// A training phase (docs/training-rules.md, "Phases and taper").
public enum Phase: String, Sendable, Hashable, Codable, CaseIterable {
  case base, build, peak, taper, race
}

/// What a workout is. `hard` kinds never fall on consecutive days.
public enum WorkoutKind: String, Sendable, Hashable, Codable, CaseIterable {
  case easy, recovery, long
  /// The midweek medium-long run at 5+ runs a week: easy pace, the week's second-longest run.
  case mediumLong = "medium-long"
  case tempo, intervals, hills, fartlek, strides, race
  case crossTraining = "cross-training"
  case strength

  /// Quality sessions, long runs and the race are hard days.
  public var isHard: Bool {
    switch self {
    case .long, .tempo, .intervals, .hills, .fartlek, .race: true
    case .easy, .recovery, .strides, .crossTraining, .strength, .mediumLong: false
    }
  }

  /// A run: counts in the running volume and can be matched to a logged run. Cross-training and strength days
  /// are not runs (minutes, no kilometres; a logged run never matches them).
  public var isRun: Bool {
    switch self {
    case .crossTraining, .strength: false
    default: true
    }
  }

  /// "Tempo", "Cross-training".
  public var displayName: String {
    switch self {
    case .crossTraining: "Cross-training"
    case .mediumLong: "Medium-long run"
    case .easy: "Easy"
    case .recovery: "Recovery"
    case .long: "Long"
    case .tempo: "Tempo"
    case .intervals: "Intervals"
    case .hills: "Hills"
    case .fartlek: "Fartlek"
    case .strides: "Strides"
    case .race: "Race"
    case .strength: "Strength"
    }
  }
}

/// The intensity of a step: a VDOT zone, race pace, or easy running.
public enum Intensity: String, Sendable, Hashable, Codable, CaseIterable {
  case easy = "E"
  case marathon = "M"
  case threshold = "T"
  case interval = "I"
  case repetition = "R"
  case race

  /// True for everything but easy running.
  public var isQuality: Bool { self != .easy }
}

/// One part of a workout.
public struct WorkoutStep: Sendable, Hashable, Codable {
  /// warm-up, work, recovery or cool-down.
  public enum Kind: String, Sendable, Hashable, Codable { case warmup, work, recovery, cooldown }

  /// What the step is.
  public var kind: Kind
  /// Distance of one repetition, in kilometres (to 10 m).
  public var distanceKm: Double
  /// Distance of one repetition, as views show it.
  public var distance: Distance { Distance(kilometers: distanceKm) }
  /// Duration of one repetition, in whole minutes (rounded; seconds in `durationSeconds`).
  public var durationMin: Int
  /// Duration of one repetition in seconds.
  public var durationSeconds: Int
  /// Pace range or pace (`5:40-6:10/km`) when paces are known (a recent race was given).
  public var pace: String?
  /// Effort target: RPE and talk test.
  public var effort: String
  /// The intensity zone.
  public var zone: Intensity
  /// How many times the step is done.
  public var `repeat`: Int

  enum CodingKeys: String, CodingKey {
    case kind, pace, effort, zone, `repeat`
    case distanceKm = "distance_km"
    case durationMin = "duration_min"
    case durationSeconds = "duration_s"
  }
}

/// One planned session on one day.
public struct Workout: Sendable, Hashable, Codable {
  /// Stable id: the plan id, the week and the slot (`p…-w03-long`); never the date or title.
  public var id: String
  /// The slot of the weekly pattern this workout fills (`long`, `q1`, `easy2`, `race`).
  public var slot: String
  /// The day.
  public var date: CivilDate
  /// What it is.
  public var kind: WorkoutKind
  /// Total distance, kilometres (the engine computes in the templates' kilometres).
  public var distanceKm: Double
  /// Total distance, as views show it (in the runner's unit, through ``DistanceUnit``).
  public var distance: Distance { Distance(kilometers: distanceKm) }
  /// Estimated duration, whole minutes.
  public var durationMin: Int
  /// A hard day (quality session, long run, race).
  public var hard: Bool
  /// `Tempo 7.5 km`.
  public var title: String {
    get { titleText.value }
    set { titleText = DeferredText(newValue) }
  }
  /// The session in words: structure and targets.
  public var description: String {
    get { descriptionText.value }
    set { descriptionText = DeferredText(newValue) }
  }
  /// The parts of the session, in order.
  public var steps: [WorkoutStep]
  /// A long run written by time (the time cap holds it): the time, and run/walk when prescribed; nil for every
  /// other workout (and not written).
  public var timeTarget: TimeTarget? = nil
  /// The title, written when read (``DeferredText``).
  var titleText: DeferredText<String>
  /// The description, written when read.
  var descriptionText: DeferredText<String>

  enum CodingKeys: String, CodingKey {
    case id, slot, date, kind, hard, title, description, steps
    case distanceKm = "distance_km"
    case durationMin = "duration_min"
    case timeTarget = "time_target"
  }

  init(
    id: String, slot: String, date: CivilDate, kind: WorkoutKind, distanceKm: Double, durationMin: Int, hard: Bool,
    title: DeferredText<String>, description: DeferredText<String>, steps: [WorkoutStep],
    timeTarget: TimeTarget? = nil
  ) {
    self.id = id
    self.slot = slot
    self.date = date
    self.kind = kind
    self.distanceKm = distanceKm
    self.durationMin = durationMin
    self.hard = hard
    titleText = title
    descriptionText = description
    self.steps = steps
    self.timeTarget = timeTarget
  }

  init(
    id: String, slot: String, date: CivilDate, kind: WorkoutKind, distanceKm: Double, durationMin: Int, hard: Bool,
    title: String, description: String, steps: [WorkoutStep], timeTarget: TimeTarget? = nil
  ) {
    self.init(
      id: id, slot: slot, date: date, kind: kind, distanceKm: distanceKm, durationMin: durationMin, hard: hard,
      title: DeferredText(title), description: DeferredText(description), steps: steps, timeTarget: timeTarget)
  }

  /// Decodes a workout; its texts are kept as written.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try c.decode(String.self, forKey: .id), slot: try c.decode(String.self, forKey: .slot),
      date: try c.decode(CivilDate.self, forKey: .date), kind: try c.decode(WorkoutKind.self, forKey: .kind),
      distanceKm: try c.decode(Double.self, forKey: .distanceKm),
      durationMin: try c.decode(Int.self, forKey: .durationMin), hard: try c.decode(Bool.self, forKey: .hard),
      title: try c.decode(String.self, forKey: .title), description: try c.decode(String.self, forKey: .description),
      steps: try c.decode([WorkoutStep].self, forKey: .steps),
      timeTarget: try c.decodeIfPresent(TimeTarget.self, forKey: .timeTarget))
  }

  /// Encodes the workout, its fields in the order they were always written.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(id, forKey: .id)
    try c.encode(slot, forKey: .slot)
    try c.encode(date, forKey: .date)
    try c.encode(kind, forKey: .kind)
    try c.encode(distanceKm, forKey: .distanceKm)
    try c.encode(durationMin, forKey: .durationMin)
    try c.encode(hard, forKey: .hard)
    try c.encode(title, forKey: .title)
    try c.encode(description, forKey: .description)
    try c.encode(steps, forKey: .steps)
    try c.encodeIfPresent(timeTarget, forKey: .timeTarget)
  }

  /// Equal when every field is, the texts as written.
  public static func == (lhs: Workout, rhs: Workout) -> Bool {
    lhs.id == rhs.id && lhs.slot == rhs.slot && lhs.date == rhs.date && lhs.kind == rhs.kind
      && lhs.distanceKm == rhs.distanceKm && lhs.durationMin == rhs.durationMin && lhs.hard == rhs.hard
      && lhs.steps == rhs.steps && lhs.timeTarget == rhs.timeTarget && lhs.title == rhs.title
      && lhs.description == rhs.description
  }

  /// Hashes every field, the texts as written.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(id)
    hasher.combine(slot)
    hasher.combine(date)
    hasher.combine(kind)
    hasher.combine(distanceKm)
    hasher.combine(durationMin)
    hasher.combine(hard)
    hasher.combine(title)
    hasher.combine(description)
    hasher.combine(steps)
    hasher.combine(timeTarget)
  }
}

/// A long run prescribed by time: run (or run/walk) for `minutes`; the workout's distance is what that time covers
/// at the runner's easy pace, walking breaks included.
public struct TimeTarget: Sendable, Hashable, Codable {
  /// The time, whole minutes.
  public var minutes: Int
  /// Run/walk: minutes of running in each cycle; nil when running throughout.
  public var runMinutes: Int?
  /// Run/walk: minutes of walking in each cycle; nil when running throughout.
  public var walkMinutes: Int?

  /// A time target of `minutes`, run/walk when both cycle parts are given.
  public init(minutes: Int, runMinutes: Int? = nil, walkMinutes: Int? = nil) {
    self.minutes = minutes
    self.runMinutes = runMinutes
    self.walkMinutes = walkMinutes
  }

  enum CodingKeys: String, CodingKey {
    case minutes
    case runMinutes = "run_min"
    case walkMinutes = "walk_min"
  }

  /// "3:00" for 180 minutes: the one way every output (table, calendar, report) writes the time.
  public var clock: String { clockLabel(Double(minutes)) }

  /// " r/w 9/1" for run/walk, "" when running throughout: the short form tables and calendar titles use.
  public var runWalkSuffix: String {
    guard let run = runMinutes, let walk = walkMinutes else { return "" }
    return " r/w \(run)/\(walk)"
  }
}

/// One week of the plan.
public struct Week: Sendable, Hashable, Codable {
  /// 1-based week number.
  public var number: Int
  /// The training phase.
  public var phase: Phase
  /// The first day of the week.
  public var start: CivilDate
  /// The volume the rules aimed for.
  public var targetKm: Double
  /// The sum of the week's workout distances.
  public var plannedKm: Double
  /// The planned distance, as views show it.
  public var planned: Distance { Distance(kilometers: plannedKm) }
  /// A cut-back (recovery) week.
  public var cutback: Bool
  /// One sentence per rule that shaped the week.
  public var rules: [String] {
    get { rulesText.value }
    set { rulesText = DeferredText(newValue) }
  }
  /// The workouts, by date.
  public var workouts: [Workout]
  /// The "why" lines, written when read (``DeferredText``).
  var rulesText: DeferredText<[String]>

  enum CodingKeys: String, CodingKey {
    case number, phase, start, cutback, rules, workouts
    case targetKm = "target_km"
    case plannedKm = "planned_km"
  }

  init(
    number: Int, phase: Phase, start: CivilDate, targetKm: Double, plannedKm: Double, cutback: Bool,
    rules: DeferredText<[String]>, workouts: [Workout]
  ) {
    self.number = number
    self.phase = phase
    self.start = start
    self.targetKm = targetKm
    self.plannedKm = plannedKm
    self.cutback = cutback
    rulesText = rules
    self.workouts = workouts
  }

  /// Decodes a week; its "why" lines are kept as written.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      number: try c.decode(Int.self, forKey: .number), phase: try c.decode(Phase.self, forKey: .phase),
      start: try c.decode(CivilDate.self, forKey: .start), targetKm: try c.decode(Double.self, forKey: .targetKm),
      plannedKm: try c.decode(Double.self, forKey: .plannedKm), cutback: try c.decode(Bool.self, forKey: .cutback),
      rules: DeferredText(try c.decode([String].self, forKey: .rules)),
      workouts: try c.decode([Workout].self, forKey: .workouts))
  }

  /// Encodes the week, its fields in the order they were always written.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(number, forKey: .number)
    try c.encode(phase, forKey: .phase)
    try c.encode(start, forKey: .start)
    try c.encode(targetKm, forKey: .targetKm)
    try c.encode(plannedKm, forKey: .plannedKm)
    try c.encode(cutback, forKey: .cutback)
    try c.encode(rules, forKey: .rules)
    try c.encode(workouts, forKey: .workouts)
  }

  /// Equal when every field is, the "why" lines as written.
  public static func == (lhs: Week, rhs: Week) -> Bool {
    lhs.number == rhs.number && lhs.phase == rhs.phase && lhs.start == rhs.start && lhs.targetKm == rhs.targetKm
      && lhs.plannedKm == rhs.plannedKm && lhs.cutback == rhs.cutback && lhs.workouts == rhs.workouts
      && lhs.rules == rhs.rules
  }

  /// Hashes every field, the "why" lines as written.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(number)
    hasher.combine(phase)
    hasher.combine(start)
    hasher.combine(targetKm)
    hasher.combine(plannedKm)
    hasher.combine(cutback)
    hasher.combine(rules)
    hasher.combine(workouts)
  }
}

/// The goal as the plan resolved it: every default filled in.
public struct ResolvedGoal: Sendable, Hashable, Codable {
  /// Distance name (`half`).
  public var distance: RaceDistance
  /// Race distance in kilometres.
  public var distanceKm: Double
  /// Experience level.
  public var level: Level
  /// Number of weeks.
  public var weeks: Int
  /// First day of week 1.
  public var start: CivilDate
  /// Race day.
  public var raceDate: CivilDate
  /// Runs per week.
  public var runsPerWeek: Int
  /// Weekly volume in week 0 (what the runner does now).
  public var currentWeeklyKm: Double
  /// Longest run of the last four weeks.
  public var longestRecentRunKm: Double
  /// The VDOT the paces follow (``vdotSource``); a plan saved before goal times has it only from a recent race.
  public var vdot: Double?
  /// Predicted race time in seconds at ``vdot``, when a recent race or a goal time was given.
  public var predictedTimeSeconds: Int?
  /// The goal time (`--goal-time`) in seconds; nil without one. Written only when given.
  public var goalTimeSeconds: Int?
  /// The goal time's VDOT (Daniels-Gilbert), to the tenth; nil without a goal time. With a recent race it can be
  /// above ``vdot``, the fitness the training paces follow.
  public var goalVDOT: Double? {
    goalTimeSeconds.map { (VDOT.vdot(distanceMeters: distanceKm * 1000, minutes: Double($0) / 60) * 10).rounded() / 10 }
  }
  /// The runner's birth year, when the plan was made with one (masters rules). Written only when given.
  public var birthYear: Int?
  /// Where ``vdot`` comes from; a plan saved before goal times: the recent race when it has a VDOT, else the level.
  public var vdotSource: VDOTSource
  /// The day of the last race ``vdot`` takes in, when `replan --update-paces` set it (``VDOTSource/races``): races
  /// on or before it are in the paces already and do not count again. Written only when set.
  public var vdotAsOf: CivilDate?
  /// Cross-training days asked for a week (`--cross-training`); 0: none. Written only when not 0, so plans
  /// without them read and print as before.
  public var crossTrainingPerWeek: Int = 0
  /// Strength days asked for a week (`--strength`); 0: none. Written only when not 0.
  public var strengthPerWeek: Int = 0
  /// The run days the weeks are laid on (`--days`, the profile's); nil: the template's pattern on the race weekday
  /// (and a plan saved before run days). Written only when given.
  public var runDays: [Weekday]?
  /// The long-run day the weeks are laid on, when run days or a long-run day were given; nil: the race weekday.
  /// Written only when given.
  public var longRunDay: Weekday?

  /// The weekday of the plan's long runs: ``longRunDay``, else the race weekday.
  public var longRunWeekday: Weekday { longRunDay ?? raceDate.weekday }

  enum CodingKeys: String, CodingKey {
    case distance, level, weeks, start, vdot
    case distanceKm = "distance_km"
    case raceDate = "race_date"
    case runsPerWeek = "runs_per_week"
    case currentWeeklyKm = "current_weekly_km"
    case longestRecentRunKm = "longest_recent_run_km"
    case predictedTimeSeconds = "predicted_time_s"
    case crossTrainingPerWeek = "cross_training_per_week"
    case strengthPerWeek = "strength_per_week"
    case runDays = "run_days"
    case longRunDay = "long_run_day"
    case goalTimeSeconds = "goal_time_s"
    case birthYear = "birth_year"
    case vdotSource = "vdot_source"
    case vdotAsOf = "vdot_as_of"
  }

  init(
    distance: RaceDistance, distanceKm: Double, level: Level, weeks: Int, start: CivilDate, raceDate: CivilDate,
    runsPerWeek: Int, currentWeeklyKm: Double, longestRecentRunKm: Double, vdot: Double?,
    predictedTimeSeconds: Int?, crossTrainingPerWeek: Int = 0, strengthPerWeek: Int = 0, runDays: [Weekday]? = nil,
    longRunDay: Weekday? = nil, goalTimeSeconds: Int? = nil, vdotSource: VDOTSource? = nil
  ) {
    self.goalTimeSeconds = goalTimeSeconds
    self.vdotSource = vdotSource ?? (vdot == nil ? .levelEstimate : .recentRace)
    self.runDays = runDays
    self.longRunDay = longRunDay
    self.distance = distance
    self.distanceKm = distanceKm
    self.level = level
    self.weeks = weeks
    self.start = start
    self.raceDate = raceDate
    self.runsPerWeek = runsPerWeek
    self.currentWeeklyKm = currentWeeklyKm
    self.longestRecentRunKm = longestRecentRunKm
    self.vdot = vdot
    self.predictedTimeSeconds = predictedTimeSeconds
    self.crossTrainingPerWeek = crossTrainingPerWeek
    self.strengthPerWeek = strengthPerWeek
  }

  /// Decodes a goal; a plan saved before cross-training and strength days has neither field (0), one saved before
  /// run days has none (nil).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      distance: try c.decode(RaceDistance.self, forKey: .distance),
      distanceKm: try c.decode(Double.self, forKey: .distanceKm), level: try c.decode(Level.self, forKey: .level),
      weeks: try c.decode(Int.self, forKey: .weeks), start: try c.decode(CivilDate.self, forKey: .start),
      raceDate: try c.decode(CivilDate.self, forKey: .raceDate),
      runsPerWeek: try c.decode(Int.self, forKey: .runsPerWeek),
      currentWeeklyKm: try c.decode(Double.self, forKey: .currentWeeklyKm),
      longestRecentRunKm: try c.decode(Double.self, forKey: .longestRecentRunKm),
      vdot: try c.decodeIfPresent(Double.self, forKey: .vdot),
      predictedTimeSeconds: try c.decodeIfPresent(Int.self, forKey: .predictedTimeSeconds),
      crossTrainingPerWeek: try c.decodeIfPresent(Int.self, forKey: .crossTrainingPerWeek) ?? 0,
      strengthPerWeek: try c.decodeIfPresent(Int.self, forKey: .strengthPerWeek) ?? 0,
      runDays: try c.decodeIfPresent([Weekday].self, forKey: .runDays),
      longRunDay: try c.decodeIfPresent(Weekday.self, forKey: .longRunDay),
      goalTimeSeconds: try c.decodeIfPresent(Int.self, forKey: .goalTimeSeconds),
      vdotSource: try c.decodeIfPresent(VDOTSource.self, forKey: .vdotSource))
    vdotAsOf = try c.decodeIfPresent(CivilDate.self, forKey: .vdotAsOf)
    birthYear = try c.decodeIfPresent(Int.self, forKey: .birthYear)
  }

  /// Encodes the goal; the cross-training and strength counts only when not 0 (the `runmate.plan/1` fields are
  /// additive: a plan without them is written byte for byte as before).
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(distance, forKey: .distance)
    try c.encode(distanceKm, forKey: .distanceKm)
    try c.encode(level, forKey: .level)
    try c.encode(weeks, forKey: .weeks)
    try c.encode(start, forKey: .start)
    try c.encode(raceDate, forKey: .raceDate)
    try c.encode(runsPerWeek, forKey: .runsPerWeek)
    try c.encode(currentWeeklyKm, forKey: .currentWeeklyKm)
    try c.encode(longestRecentRunKm, forKey: .longestRecentRunKm)
    try c.encodeIfPresent(vdot, forKey: .vdot)
    try c.encodeIfPresent(predictedTimeSeconds, forKey: .predictedTimeSeconds)
    if crossTrainingPerWeek != 0 { try c.encode(crossTrainingPerWeek, forKey: .crossTrainingPerWeek) }
    if strengthPerWeek != 0 { try c.encode(strengthPerWeek, forKey: .strengthPerWeek) }
    try c.encodeIfPresent(runDays, forKey: .runDays)
    try c.encodeIfPresent(longRunDay, forKey: .longRunDay)
    try c.encodeIfPresent(goalTimeSeconds, forKey: .goalTimeSeconds)
    try c.encodeIfPresent(birthYear, forKey: .birthYear)
    try c.encode(vdotSource, forKey: .vdotSource)
    try c.encodeIfPresent(vdotAsOf, forKey: .vdotAsOf)
  }
}

/// A generated training plan: the output of ``makePlan(goal:rules:)``.
public struct Plan: Sendable, Hashable, Codable {
  /// The JSON schema name and version.
  public var schema: String = "runmate.plan/1"
  /// Stable id derived from the inputs.
  public var id: String
  /// The goal with defaults resolved.
  public var goal: ResolvedGoal
  /// Things the runner should know (compressed timeline, long run share, …).
  public var warnings: [String]
  /// The weeks, in order.
  public var weeks: [Week]

  /// Every workout of the plan, in date order.
  public var workouts: [Workout] { weeks.flatMap(\.workouts) }
}
