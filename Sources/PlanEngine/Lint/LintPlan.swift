import RunningCore

/// What a day of a plan under review holds, as the linter sees it (any plan: runmate's or a published one).
public enum LintKind: String, Sendable, Hashable, Codable, CaseIterable {
  case easy, long, quality, race, rest, cross, strength

  /// Counts in the running volume.
  public var isRun: Bool { self == .easy || self == .long || self == .quality || self == .race }
  /// Quality sessions, long runs and the race are hard days.
  public var isHard: Bool { self == .long || self == .quality || self == .race }
}

/// One day's session of a plan under review.
public struct LintRun: Sendable, Hashable, Codable {
  /// Day of the week, 0 (the week's first day) to 6.
  public var day: Int
  /// The date, when the plan has dates.
  public var date: CivilDate?
  /// Kilometres (0 for rest, cross-training and strength).
  public var km: Double
  /// What it is.
  public var kind: LintKind
  /// The plan's own title, for messages.
  public var title: String
  /// Its minutes, when the plan gives them (a run no longer than a third over the minimum run is never a spike).
  public var minutes: Int?

  /// A session on `day` of its week.
  public init(day: Int, date: CivilDate? = nil, km: Double, kind: LintKind, title: String = "", minutes: Int? = nil) {
    self.day = day
    self.date = date
    self.km = km
    self.kind = kind
    self.title = title
    self.minutes = minutes
  }
}

/// One week of a plan under review.
public struct LintWeek: Sendable, Hashable, Codable {
  /// The sessions, by day.
  public var runs: [LintRun]
  /// The weekday of day 0 (runmate plans: the week's start; calendar-hack plans: Monday).
  public var firstWeekday: Weekday

  /// A week whose day 0 is `firstWeekday`.
  public init(runs: [LintRun], firstWeekday: Weekday = .monday) {
    self.runs = runs
    self.firstWeekday = firstWeekday
  }

  /// The running volume, km.
  public var runningKm: Double { runs.filter(\.kind.isRun).map(\.km).reduce(0, +) }
  /// The running volume before race day (the whole week when it has no race), km.
  public var kmBeforeRace: Double {
    guard let race = runs.first(where: { $0.kind == .race }) else { return runningKm }
    return runs.filter { $0.kind.isRun && $0.day < race.day }.map(\.km).reduce(0, +)
  }
  /// The week's longest run that is not the race.
  public var longest: LintRun? {
    runs.filter { $0.kind.isRun && $0.kind != .race }.max { ($0.km, $0.day) < ($1.km, $1.day) }
  }
  /// True when the week holds the race.
  public var hasRace: Bool { runs.contains { $0.kind == .race } }
}

/// A plan under review: weeks of days, and the race distance when known.
public struct LintPlan: Sendable, Hashable, Codable {
  /// The plan's name, for messages.
  public var name: String
  /// The weeks, in order.
  public var weeks: [LintWeek]
  /// The race, when known (it selects the taper rules).
  public var distance: RaceDistance?
  /// The runner's level, when known (it selects the cut-back rhythm; unknown: the longest rhythm of any level).
  public var level: Level?
  /// What the runner ran before week 1, when the plan says (a runmate plan does): week 1 ramps from the weekly
  /// volume, and the long runs of the first weeks are judged against the longest recent run too.
  public var currentWeeklyKm: Double?
  /// The runner's longest run of the last weeks before week 1, when the plan says.
  public var longestRecentRunKm: Double?

  /// A plan of `weeks`.
  public init(
    name: String, weeks: [LintWeek], distance: RaceDistance? = nil, level: Level? = nil,
    currentWeeklyKm: Double? = nil, longestRecentRunKm: Double? = nil
  ) {
    self.name = name
    self.weeks = weeks
    self.distance = distance
    self.level = level
    self.currentWeeklyKm = currentWeeklyKm
    self.longestRecentRunKm = longestRecentRunKm
  }
}

/// A rule a plan can break (the same numbers the engine uses, `plan-templates/`).
public enum LintRule: String, Sendable, Hashable, Codable, CaseIterable {
  /// A full week rises more than `volume.maxIncreasePercent` / `maxIncreaseKmPerRun` over the last full week.
  case ramp
  /// The long run is over `longRun.spikeFactor` × the longest run of the previous `spikeLookbackWeeks` weeks.
  case longRunSpike = "long-run-spike"
  /// More than `cutback.every` weeks of build without a week that drops about 10 %.
  case cutback
  /// A taper week above the distance's `taper` share of peak volume.
  case taper
  /// The long run is not `longRun.minRatioToOtherRuns` × every other run of its week.
  case longRunRatio = "long-run-ratio"
  /// The long run is over `weekStructure.longRunMaxOfWeek` of its week.
  case longRunShare = "long-run-share"
  /// Two hard days (quality, long, race) on consecutive days.
  case adjacentHardDays = "adjacent-hard-days"
  /// A medium-long run (the week's second-longest, at least `mediumLong.minKm`) between two hard days.
  case mediumLongBetweenHardDays = "medium-long-between-hard-days"
  /// A run under `volume.minRunKm`.
  case shortRun = "short-run"
}

/// One thing a coach would change, with its numbers.
public struct LintFinding: Sendable, Hashable, Codable {
  /// 1-based week number.
  public var week: Int
  /// The day (`Sun`) when the finding is about one run.
  public var day: String?
  /// The rule broken.
  public var rule: LintRule
  /// The measured value (km, or a ratio for ratios).
  public var value: Double
  /// What the rule allows (same unit as `value`).
  public var limit: Double
  /// What is wrong, with the numbers.
  public var message: String
  /// What a coach would change.
  public var advice: String

  /// `week 5 Sun: long run 19.3 km is …; change: …`.
  public var line: String {
    "week \(week)\(day.map { " \($0)" } ?? ""): \(message); \(advice)"
  }
}
