import Foundation
import RunningCore

/// A race distance the plan engine builds for.
public enum RaceDistance: String, Sendable, Hashable, Codable, CaseIterable {
  case fiveK = "5k"
  case tenK = "10k"
  case fifteenK = "15k"
  case tenMiles = "10mi"
  case half = "half"
  case marathon = "marathon"

  /// The race distance in kilometres.
  public var kilometers: Double {
    switch self {
    case .fiveK: 5
    case .tenK: 10
    case .fifteenK: 15
    case .tenMiles: 10 * Distance.kilometersPerMile
    case .half: 21.0975
    case .marathon: 42.195
    }
  }

  /// The template family whose rules apply (10 miles trains like a 15k).
  public var templateName: String {
    switch self {
    case .tenMiles: RaceDistance.fifteenK.rawValue
    default: rawValue
    }
  }

  /// A name for people: "5K", "half marathon".
  public var displayName: String {
    switch self {
    case .fiveK: "5K"
    case .tenK: "10K"
    case .fifteenK: "15K"
    case .tenMiles: "10 miles"
    case .half: "half marathon"
    case .marathon: "marathon"
    }
  }

  static let aliases: [String: RaceDistance] = [
    "5k": .fiveK, "5km": .fiveK, "5000m": .fiveK, "5000": .fiveK,
    "10k": .tenK, "10km": .tenK, "10000m": .tenK, "10000": .tenK,
    "15k": .fifteenK, "15km": .fifteenK, "15000m": .fifteenK,
    "10mi": .tenMiles, "10-mile": .tenMiles, "10mile": .tenMiles, "10miles": .tenMiles, "16.1k": .tenMiles,
    "half": .half, "half-marathon": .half, "halfmarathon": .half, "hm": .half, "21.1k": .half, "21.1km": .half,
    "21k": .half, "13.1mi": .half,
    "marathon": .marathon, "full": .marathon, "full-marathon": .marathon, "42.2k": .marathon,
    "42.2km": .marathon, "42k": .marathon, "26.2mi": .marathon,
  ]

  /// Parses a distance name or alias (`5k`, `half-marathon`, `21.1k`, `10mi`, `marathon`), case-insensitively, or
  /// a race's distance in either unit as a runner writes it (`3.1mi`, `6.2 mi`, `21.1 km`: within 1 %).
  public init?(parsing text: String) {
    let key = text.lowercased().replacingOccurrences(of: "_", with: "-").replacingOccurrences(of: " ", with: "-")
    if let distance = RaceDistance.aliases[key] {
      self = distance
      return
    }
    guard let written = WrittenDistance(text), written.hasUnit else { return nil }
    let km = written.distance(bare: .km).kilometers
    guard let race = RaceDistance.allCases.first(where: { abs($0.kilometers - km) <= 0.01 * $0.kilometers }) else {
      return nil
    }
    self = race
  }

  /// The allowed spellings, for error messages.
  public static let allowedList = "5k, 10k, 15k, 10mi, half (or half-marathon, 21.1k), marathon"

  /// The closest known name to a mistyped one, if any is close.
  public static func suggestion(for text: String) -> String? {
    closestName(to: text.lowercased(), among: Array(aliases.keys).sorted())
  }
}

/// The runner's experience level.
public enum Level: String, Sendable, Hashable, Codable, CaseIterable {
  case beginner, intermediate, advanced

  /// Parses a level name or a short form (`beg`, `int`, `adv`, `novice`).
  public init?(parsing text: String) {
    switch text.lowercased() {
    case "beginner", "beg", "novice": self = .beginner
    case "intermediate", "int": self = .intermediate
    case "advanced", "adv": self = .advanced
    default: return nil
    }
  }
}

/// A recent race result, used to derive training paces (VDOT).
public struct RecentRace: Sendable, Hashable, Codable {
  /// The race distance in kilometres.
  public var distanceKm: Double
  /// The finishing time in seconds.
  public var timeSeconds: Double

  /// Creates a result.
  public init(distanceKm: Double, timeSeconds: Double) {
    self.distanceKm = distanceKm
    self.timeSeconds = timeSeconds
  }

  /// Parses `5k=20:00`, `half=1:35:00`, `10mi=1:10:00`, `3000m=11:30`, `mile=6:00`.
  public init?(parsing text: String) {
    let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2, let km = parseDistanceKilometers(parts[0]),
      let seconds = parseRaceTime(parts[1]), seconds > 0
    else { return nil }
    self.init(distanceKm: km, timeSeconds: seconds)
  }
}

/// Parses a distance such as `5k`, `half`, `mile`, `3000m`, `8.2km`, `5mi` into kilometres: a race's name, else a
/// number with its unit (RunningCore's ``WrittenDistance``); a bare number is not a distance here.
public func parseDistanceKilometers(_ text: String) -> Double? {
  let lower = text.lowercased().trimmingCharacters(in: .whitespaces)
  if let race = RaceDistance(parsing: lower) { return race.kilometers }
  if lower == "mile" { return Distance.kilometersPerMile }
  guard let written = WrittenDistance(lower), written.hasUnit else { return nil }
  return written.distance(bare: .km).kilometers
}

/// What the runner asks for: the inputs of the plan engine.
public struct Goal: Sendable, Hashable, Codable {
  /// The race distance.
  public var distance: RaceDistance
  /// The runner's experience level.
  public var level: Level
  /// The plan's timeline, resolved to dates.
  public var timeline: Timeline
  /// Runs per week (3…7), or nil for the level's default.
  public var runsPerWeek: Int?
  /// The runner's current weekly volume, or nil for the level's default.
  public var currentWeeklyKm: Double?
  /// The longest run of the last four weeks, or nil for the level's default.
  public var longestRecentRunKm: Double?
  /// A recent race result, for VDOT paces.
  public var recentRace: RecentRace?
  /// The goal time for the race in seconds (`--goal-time`): it sets race pace and every training pace (the VDOT of
  /// the goal performance), checked against ``recentRace`` when one is given. Nil: no goal time (a goal saved before
  /// goal times has none).
  public var goalTimeSeconds: Double?
  /// Cross-training days a week (0 … `extraDays.maxPerWeek`), placed on days without a run; 0: none.
  public var crossTrainingPerWeek: Int
  /// Strength days a week (0 … `extraDays.maxPerWeek`), placed on days without a run; 0: none.
  public var strengthPerWeek: Int
  /// The days the runner runs (`--days`, the profile's); nil: the template's pattern on the race weekday. When
  /// given, the weeks are laid on these days (``WeekLayout``), the runs a week default to at most their number, and
  /// the plan id includes them. Kept in week order from Monday, each day once.
  public var runDays: [Weekday]? {
    didSet {
      let normal = runDays.map { Array(Set($0)).sorted { $0.index < $1.index } }
      if normal != runDays { runDays = normal }
    }
  }
  /// The long-run day (`--long-run-day`, the profile's); nil: the race weekday, or with run days the one nearest to
  /// it. When given, the weeks are laid with the long run on this day, and the plan id includes it.
  public var longRunDay: Weekday?
  /// The runner's birth year (the profile's); nil: not given. From base.yaml's `masters.fromAge` it changes the plan.
  public var birthYear: Int?

  /// The weeks are laid on the runner's days (run days or long-run day given), not on the race weekday's pattern.
  public var laidOnRunnersDays: Bool { runDays != nil || longRunDay != nil }

  /// Creates a goal.
  public init(
    distance: RaceDistance, level: Level, timeline: Timeline, runsPerWeek: Int? = nil,
    currentWeeklyKm: Double? = nil, longestRecentRunKm: Double? = nil, recentRace: RecentRace? = nil,
    crossTrainingPerWeek: Int = 0, strengthPerWeek: Int = 0, runDays: [Weekday]? = nil, longRunDay: Weekday? = nil,
    goalTimeSeconds: Double? = nil, birthYear: Int? = nil
  ) {
    self.goalTimeSeconds = goalTimeSeconds
    self.birthYear = birthYear
    self.runDays = runDays.map { Array(Set($0)).sorted { $0.index < $1.index } }
    self.longRunDay = longRunDay
    self.distance = distance
    self.level = level
    self.timeline = timeline
    self.runsPerWeek = runsPerWeek
    self.currentWeeklyKm = currentWeeklyKm
    self.longestRecentRunKm = longestRecentRunKm
    self.recentRace = recentRace
    self.crossTrainingPerWeek = crossTrainingPerWeek
    self.strengthPerWeek = strengthPerWeek
  }

  enum CodingKeys: String, CodingKey {
    case distance, level, timeline, runsPerWeek, currentWeeklyKm, longestRecentRunKm, recentRace
    case crossTrainingPerWeek, strengthPerWeek, runDays, longRunDay, goalTimeSeconds, birthYear
  }

  /// Decodes a goal; one written before cross-training and strength days has neither (0), one written before run
  /// days or goal times has none (nil).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      distance: try c.decode(RaceDistance.self, forKey: .distance), level: try c.decode(Level.self, forKey: .level),
      timeline: try c.decode(Timeline.self, forKey: .timeline),
      runsPerWeek: try c.decodeIfPresent(Int.self, forKey: .runsPerWeek),
      currentWeeklyKm: try c.decodeIfPresent(Double.self, forKey: .currentWeeklyKm),
      longestRecentRunKm: try c.decodeIfPresent(Double.self, forKey: .longestRecentRunKm),
      recentRace: try c.decodeIfPresent(RecentRace.self, forKey: .recentRace),
      crossTrainingPerWeek: try c.decodeIfPresent(Int.self, forKey: .crossTrainingPerWeek) ?? 0,
      strengthPerWeek: try c.decodeIfPresent(Int.self, forKey: .strengthPerWeek) ?? 0,
      runDays: try c.decodeIfPresent([Weekday].self, forKey: .runDays),
      longRunDay: try c.decodeIfPresent(Weekday.self, forKey: .longRunDay),
      goalTimeSeconds: try c.decodeIfPresent(Double.self, forKey: .goalTimeSeconds),
      birthYear: try c.decodeIfPresent(Int.self, forKey: .birthYear))
  }

  /// Encodes the goal; the cross-training and strength counts only when not 0, the run days, long-run day and goal
  /// time only when given (a goal without them is written as before).
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(distance, forKey: .distance)
    try c.encode(level, forKey: .level)
    try c.encode(timeline, forKey: .timeline)
    try c.encodeIfPresent(runsPerWeek, forKey: .runsPerWeek)
    try c.encodeIfPresent(currentWeeklyKm, forKey: .currentWeeklyKm)
    try c.encodeIfPresent(longestRecentRunKm, forKey: .longestRecentRunKm)
    try c.encodeIfPresent(recentRace, forKey: .recentRace)
    if crossTrainingPerWeek != 0 { try c.encode(crossTrainingPerWeek, forKey: .crossTrainingPerWeek) }
    if strengthPerWeek != 0 { try c.encode(strengthPerWeek, forKey: .strengthPerWeek) }
    try c.encodeIfPresent(runDays, forKey: .runDays)
    try c.encodeIfPresent(longRunDay, forKey: .longRunDay)
    try c.encodeIfPresent(goalTimeSeconds, forKey: .goalTimeSeconds)
    try c.encodeIfPresent(birthYear, forKey: .birthYear)
  }
}

/// The plan's dates: week 1 starts on `start`; the race is on `raceDate`, inside week `weeks`.
public struct Timeline: Sendable, Hashable, Codable {
  /// The first day of week 1.
  public var start: CivilDate
  /// Race day, the last workout of the plan.
  public var raceDate: CivilDate
  /// The number of weeks, counting the race week.
  public var weeks: Int

  /// Resolves the command-line timeline into dates.
  ///
  /// - `weeks` alone: week 1 starts on `start` (default: the first `weekStart` day, Monday unless said otherwise,
  ///   after `today`) and the race is on `longRunDay` in week `weeks`, so a plan started mid-week still races on
  ///   the runner's long-run day (nil: on the last day of week `weeks`; a Monday start with a Sunday long run
  ///   gives the same date either way).
  /// - `raceDate` alone: week 1 starts on `start` (same default) and the plan has as many weeks as it takes
  ///   to reach race day.
  /// - both: the plan ends on race day and starts `weeks` weeks earlier (unless `start` is given too, which
  ///   must then agree).
  /// - Throws: `PlanError` naming the option, the value and what is allowed.
  public static func resolve(
    weeks: Int?, raceDate: CivilDate?, start: CivilDate?, today: CivilDate,
    maxWeeks: Int, weekStart: Weekday = .monday, longRunDay: Weekday? = nil
  ) throws(PlanError) -> Timeline {
    if let weeks, !(1...maxWeeks).contains(weeks) {
      throw .outOfRange(field: .weeks, value: String(weeks), allowed: "1–\(maxWeeks)")
    }
    if let raceDate, raceDate <= today {
      throw .raceDateNotInFuture(raceDate: raceDate, today: today)
    }
    switch (weeks, raceDate) {
    case (nil, nil):
      throw .missingTimeline
    case (let weeks?, nil):
      let first = start ?? today.next(weekStart)
      let last = first.adding(days: 7 * weeks - 1)
      // The long-run day within week `weeks`: the last day, or up to 6 days before it.
      let back = longRunDay.map { (last.weekday.index - $0.index + 7) % 7 } ?? 0
      return Timeline(start: first, raceDate: last.adding(days: -back), weeks: weeks)
    case (nil, let race?):
      let first = start ?? today.next(weekStart)
      guard first < race else { throw .startNotBeforeRace(start: first, raceDate: race) }
      let days = first.days(to: race) + 1
      let weeks = (days + 6) / 7
      guard weeks <= maxWeeks else {
        throw .raceTooFar(
          raceDate: race, first: first, last: first.adding(days: 7 * maxWeeks - 1), maxWeeks: maxWeeks)
      }
      return Timeline(start: first, raceDate: race, weeks: weeks)
    case (let weeks?, let race?):
      if let start {
        let firstAllowed = start.adding(days: 7 * (weeks - 1))
        let lastAllowed = start.adding(days: 7 * weeks - 1)
        guard (firstAllowed...lastAllowed).contains(race) else {
          throw .inconsistentTimeline(weeks: weeks, start: start, raceDate: race)
        }
        return Timeline(start: start, raceDate: race, weeks: weeks)
      }
      return Timeline(start: race.adding(days: -(7 * weeks - 1)), raceDate: race, weeks: weeks)
    }
  }

  /// Says which day the race is on when it is not the long-run day ("race on Wednesday 20 Jan 2027: your long-run
  /// day is Sunday; the long runs stay on Sunday"); nil when it is.
  public func raceDayNote(longRunDay: Weekday) -> String? {
    guard raceDate.weekday != longRunDay else { return nil }
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    return "race on \(Timeline.dayName(raceDate.weekday)) \(raceDate.day) \(months[raceDate.month - 1]) "
      + "\(raceDate.year): your long-run day is \(Timeline.dayName(longRunDay)); the long runs stay on "
      + Timeline.dayName(longRunDay)
  }

  /// "Monday" … "Sunday".
  public static func dayName(_ day: Weekday) -> String {
    ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][day.index]
  }

  /// Creates a timeline directly.
  public init(start: CivilDate, raceDate: CivilDate, weeks: Int) {
    self.start = start
    self.raceDate = raceDate
    self.weeks = weeks
  }
}
