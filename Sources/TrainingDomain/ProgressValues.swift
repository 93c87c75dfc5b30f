import Foundation
import PlanEngine
import RunningCore

/// How a run's training load was worked out.
public enum LoadSource: String, Sendable, Hashable, Codable {
  /// Running stress from pace against threshold pace (rTSS): hours × intensity² × 100.
  case pace
  /// Session RPE (Foster): minutes × RPE, scaled so that an hour at RPE 7 (about threshold) is 100 points.
  case rpe
  /// Neither pace nor RPE is usable: minutes at an assumed easy intensity (0.75).
  case time
  /// Heart rate (Banister's TRIMP against the runner's resting and maximum heart rates), scaled so that an hour at
  /// threshold heart rate is 100 points, as TrainingPeaks' hrTSS.
  case heartRate = "heart-rate"
}

/// One plan week, planned against done.
public struct WeekProgress: Sendable, Hashable, Encodable {
  /// The plan's week number.
  public var number: Int
  /// Its first day.
  public var start: CivilDate
  /// Its phase.
  public var phase: Phase
  /// Planned distance.
  public var planned: Distance
  /// Run distance in the week (every logged run dated in it), unrounded: text rounds it once, in the runner's unit
  /// (a 7.82 km week is 4.9 mi, as its run is in the log, not 4.8 from 7.8 km); JSON writes it to 0.1 km.
  public var done: Distance
  /// Planned workouts.
  public var plannedSessions: Int
  /// Planned workouts matched by a logged run.
  public var doneSessions: Int
  /// Planned workouts whose day has passed with no run matched.
  public var missedSessions: Int
  /// Runs that matched no planned workout.
  public var extraRuns: Int
  /// Planned workouts on days of a pause the runner saved (ill, injured, away) with nothing run: excused.
  public var pausedSessions = 0
  /// Done as a share of planned distance, percent: of the week's, or in the week under way of the distance due so
  /// far (the days before today, and today's once a run is logged today); nil before anything is due, for weeks
  /// that have not started, and for a week paused whole with nothing run: there is nothing to comply with.
  public var compliancePercent: Int?

  /// Whether all seven days of the week fall in pauses the runner saved.
  public var withinPause = false

  /// True when nothing was run and every planned workout of the week fell in a pause, or the week lies in a pause
  /// whole (a replan takes its workouts out of the plan).
  public var isPaused: Bool {
    done == .zero && (plannedSessions > 0 ? pausedSessions == plannedSessions : withinPause)
  }

  /// How a week stands against its plan: every view (`progress`, `coach athletes`, the API) says one of these.
  public enum Standing: Sendable, Hashable {
    /// Paused whole with nothing run (`isPaused`).
    case paused
    /// This share of the distance due was run.
    case percent(Int)
    /// Nothing is due yet: the week has not started, or nothing of it is due before today.
    case nothingDue
  }

  /// The week's standing: paused first, then its compliance, else nothing due.
  public var standing: Standing {
    if isPaused { return .paused }
    return compliancePercent.map(Standing.percent) ?? .nothingDue
  }
  /// The longest run of the week.
  public var longestRun: Distance
  /// Average pace of easy runs (matched to easy, strides, recovery or long workouts, or logged as such), to the
  /// whole second per kilometre.
  public var averageEasyPace: Pace?
  /// Hard sessions done (matched to a hard workout).
  public var hardSessions: Int
  /// Steps in the week, from imported health data (nil without any).
  public var steps: Double?
  /// Active energy in the week, kcal, from imported health data.
  public var activeKcal: Double?

  enum CodingKeys: String, CodingKey {
    case number, start, phase
    case planned = "planned_km"
    case done = "done_km"
    case plannedSessions = "planned_sessions"
    case doneSessions = "done_sessions"
    case missedSessions = "missed_sessions"
    case extraRuns = "extra_runs"
    case pausedSessions = "paused_sessions"
    case compliancePercent = "compliance_percent"
    case longestRun = "longest_run_km"
    case averageEasyPace = "average_easy_pace_s_per_km"
    case hardSessions = "hard_sessions"
    case steps
    case activeKcal = "active_kcal"
  }

  /// `paused` is ``isPaused``.
  private enum StandingKeys: String, CodingKey {
    case paused
  }

  /// `runmate.progress/1`, distances in kilometres, `done_km` to 0.1 km as it has always been written; written, never
  /// read back (a report is made again from the logbook).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(number, forKey: .number)
    try container.encode(start, forKey: .start)
    try container.encode(phase, forKey: .phase)
    try container.encode(planned.kilometers, forKey: .planned)
    try container.encode((done.kilometers * 10).rounded() / 10, forKey: .done)
    try container.encode(plannedSessions, forKey: .plannedSessions)
    try container.encode(doneSessions, forKey: .doneSessions)
    try container.encode(missedSessions, forKey: .missedSessions)
    try container.encode(extraRuns, forKey: .extraRuns)
    try container.encode(pausedSessions, forKey: .pausedSessions)
    try container.encodeIfPresent(compliancePercent, forKey: .compliancePercent)
    var standing = encoder.container(keyedBy: StandingKeys.self)
    try standing.encode(isPaused, forKey: .paused)
    try container.encode(longestRun.kilometers, forKey: .longestRun)
    try container.encodeIfPresent(averageEasyPace?.secondsPerKilometer, forKey: .averageEasyPace)
    try container.encode(hardSessions, forKey: .hardSessions)
    try container.encodeIfPresent(steps, forKey: .steps)
    try container.encodeIfPresent(activeKcal, forKey: .activeKcal)
  }

  /// A week as the progress rules count it.
  public init(
    number: Int, start: CivilDate, phase: Phase, planned: Distance, done: Distance, plannedSessions: Int,
    doneSessions: Int, missedSessions: Int, extraRuns: Int, compliancePercent: Int? = nil, longestRun: Distance,
    averageEasyPace: Pace? = nil, hardSessions: Int, steps: Double? = nil, activeKcal: Double? = nil
  ) {
    self.number = number
    self.start = start
    self.phase = phase
    self.planned = planned
    self.done = done
    self.plannedSessions = plannedSessions
    self.doneSessions = doneSessions
    self.missedSessions = missedSessions
    self.extraRuns = extraRuns
    self.compliancePercent = compliancePercent
    self.longestRun = longestRun
    self.averageEasyPace = averageEasyPace
    self.hardSessions = hardSessions
    self.steps = steps
    self.activeKcal = activeKcal
  }
}

/// The progress of a plan: the output of ``makeProgress(plan:completions:today:)``.
public struct ProgressReport: Sendable, Hashable, Encodable {
  /// `runmate.progress/1`.
  public var schema = "runmate.progress/1"
  /// The plan's id.
  public var planID: String
  /// Today, as the report was made.
  public var today: CivilDate
  /// Every plan week.
  public var weeks: [WeekProgress]
  /// Days in a row with a run, ending today or yesterday.
  public var currentStreakDays: Int
  /// Acute:chronic workload ratio (last 7 days against the 28-day weekly average), information only.
  public var acuteChronicRatio: Double?
  /// Foster's monotony over the last 7 days (mean daily load / its standard deviation), information only.
  public var monotony: Double?
  /// Fitness (the 42-day weighted stress, ``loadState(_:today:thresholdSecondsPerKm:start:seed:fitnessDays:
  /// fatigueDays:)``), to tenths; nil before the first run, as the fields below.
  public var fitness: Double?
  /// Fatigue (the 7-day weighted stress), to tenths.
  public var fatigue: Double?
  /// Form: yesterday's fitness minus yesterday's fatigue, to tenths.
  public var form: Double?
  /// How much fitness rose over the last 7 days, to tenths.
  public var fitnessRampPerWeek: Double?
  /// How most runs' load was worked out: heart rate, pace against the plan's threshold pace, RPE or time.
  public var loadSource: LoadSource = .pace

  enum CodingKeys: String, CodingKey {
    case schema, today, weeks, monotony, fitness, fatigue, form
    case planID = "plan_id"
    case currentStreakDays = "current_streak_days"
    case acuteChronicRatio = "acute_chronic_ratio"
    case fitnessRampPerWeek = "fitness_ramp_per_week"
    case loadSource = "load_source"
  }

  /// A report as the progress rules make it.
  public init(
    planID: String, today: CivilDate, weeks: [WeekProgress], currentStreakDays: Int, acuteChronicRatio: Double? = nil,
    monotony: Double? = nil, fitness: Double? = nil, fatigue: Double? = nil, form: Double? = nil,
    fitnessRampPerWeek: Double? = nil, loadSource: LoadSource = .pace
  ) {
    self.planID = planID
    self.today = today
    self.weeks = weeks
    self.currentStreakDays = currentStreakDays
    self.acuteChronicRatio = acuteChronicRatio
    self.monotony = monotony
    self.fitness = fitness
    self.fatigue = fatigue
    self.form = form
    self.fitnessRampPerWeek = fitnessRampPerWeek
    self.loadSource = loadSource
  }
}
