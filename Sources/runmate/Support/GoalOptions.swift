import ArgumentParser
import PlanEngine
import RunningCore
import Training
import TrainingDomain

/// The goal: distance, level, timeline and the runner's current training.
struct GoalOptions: ParsableArguments {
  @Option(
    name: .long, help: ArgumentHelp("Race distance: 5k, 10k, 15k, 10mi, half, marathon.", valueName: "distance"),
    completion: Completions.distance)
  var distance: String?

  @Option(
    name: .long, help: ArgumentHelp("Experience level: beginner, intermediate, advanced.", valueName: "level"),
    completion: Completions.level)
  var level: String?

  @Option(name: .long, help: ArgumentHelp("Plan length in weeks, race week included.", valueName: "n"))
  var weeks: Int?

  @Option(
    name: .customLong("race-date"),
    help: ArgumentHelp("Race day: YYYY-MM-DD, or 'next sunday', 'in 12 weeks'.", valueName: "date"))
  var raceDate: String?

  @Option(
    name: .long,
    help: ArgumentHelp("First day of week 1: YYYY-MM-DD, today, monday (default: the next Monday).", valueName: "date"))
  var start: String?

  @Option(
    name: .customLong("week-start"),
    help: ArgumentHelp(
      "The day weeks start on when --start is not given: the plan starts on the next one (default: mon).",
      valueName: "day"), completion: Completions.weekday)
  var weekStart: String?

  @Option(name: .customLong("runs-per-week"), help: ArgumentHelp("Runs per week, 3-7.", valueName: "n"))
  var runsPerWeek: Int?

  @Option(
    name: .customLong("current-weekly"),
    help: ArgumentHelp(
      "Your weekly volume now, 5-250 km (3.1-155.3 mi): 20mi, 32km, or a bare number in your units.",
      valueName: "distance"))
  var currentWeekly: String?

  @Option(
    name: .customLong("current-weekly-km"),
    help: ArgumentHelp("The same as --current-weekly; a bare number is km.", valueName: "distance"))
  var currentWeeklyKm: String?

  @Option(
    name: .customLong("longest-recent-run"),
    help: ArgumentHelp(
      "Your longest run of the last 4 weeks, 3-60 km (1.9-37.3 mi): 8mi, 13km, or a bare number in your units.",
      valueName: "distance"))
  var longestRecentRun: String?

  @Option(
    name: .customLong("longest-recent-run-km"),
    help: ArgumentHelp("The same as --longest-recent-run; a bare number is km.", valueName: "distance"))
  var longestRecentRunKm: String?

  @Option(
    name: .customLong("recent-race"),
    help: ArgumentHelp("A recent result for pace targets, e.g. 5k=24:30 or half=1:52:00.", valueName: "dist=time"))
  var recentRace: String?

  @Option(
    name: .customLong("goal-time"),
    help: ArgumentHelp(
      "Your goal time for the race, h:mm:ss or m:ss (e.g. 1:50:00): it sets race pace and every training pace, "
        + "checked against --recent-race when given.", valueName: "time"))
  var goalTime: String?

  @Option(
    name: .customLong("cross-training"),
    help: ArgumentHelp(
      "Cross-training days a week, 0-2 (default 0): low-impact minutes on days without a run, not in the running "
        + "volume.", valueName: "n"))
  var crossTraining: Int?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Strength days a week, 0-2 (default 0): 20-25 minutes of strength work on days without a run, never the day "
        + "before a hard day.", valueName: "n"))
  var strength: Int?

  /// True when the command line describes a goal (otherwise a saved plan is used where that makes sense).
  var isGiven: Bool { distance != nil || level != nil || weeks != nil || raceDate != nil }

  /// The first option given that only shapes a new goal (nil when none), with its value: on a saved plan it would
  /// be ignored, so it is refused instead.
  var goalOnlyOption: (option: String, value: String)? {
    if let start { return ("--start", start) }
    if let runsPerWeek { return ("--runs-per-week", String(runsPerWeek)) }
    if let currentWeekly { return ("--current-weekly", currentWeekly) }
    if let currentWeeklyKm { return ("--current-weekly-km", currentWeeklyKm) }
    if let longestRecentRun { return ("--longest-recent-run", longestRecentRun) }
    if let longestRecentRunKm { return ("--longest-recent-run-km", longestRecentRunKm) }
    if let recentRace { return ("--recent-race", recentRace) }
    if let goalTime { return ("--goal-time", goalTime) }
    if let crossTraining { return ("--cross-training", String(crossTraining)) }
    if let strength { return ("--strength", String(strength)) }
    return nil
  }

  /// Refuses goal-only options on a saved plan, which keeps its goal, instead of ignoring them.
  func refuseOnSavedPlan() throws {
    guard let (option, value) = goalOnlyOption else { return }
    throw CLIError.invalidOption(
      option: option, value: value,
      allowed: "a goal option, for a new plan: give --distance with --weeks or --race-date too (a saved plan keeps "
        + "its goal; `runmate replan` rebuilds it from your runs)", suggestion: nil)
  }

  /// Resolves the options into a goal by Training's one reading of a goal (``PlanRequest/goal(today:maxWeeks:profile:longRunDay:)``);
  /// `today` fixes the default start and checks the race date. With `--weeks` and no race date the race is on
  /// `longRunDay` (else the profile's, else Sunday) in the last week. A bare distance is in `units` (else the
  /// profile's, else km); the `-km` spellings read a bare number as km.
  func goal(
    today: CivilDate, maxWeeks: Int, profile: Profile? = nil, longRunDay: Weekday? = nil, units: DistanceUnit? = nil
  ) throws -> Goal {
    guard let distance else { throw CLIError.missingOption(option: "--distance", allowed: RaceDistance.allowedList) }
    // The distances as typed: two spellings each, a bare number in the runner's unit, the value quoted as typed
    // ('nan', '1e309') when out of the engine's range.
    let runnerUnit = DistanceUnit.display(chosen: units, profile: profile?.units)
    let weekly = try Self.distance(
      ("--current-weekly", currentWeekly), ("--current-weekly-km", currentWeeklyKm), range: 5...250, bare: runnerUnit)
    let longest = try Self.distance(
      ("--longest-recent-run", longestRecentRun), ("--longest-recent-run-km", longestRecentRunKm), range: 3...60,
      bare: runnerUnit)
    let request = PlanRequest(
      distance: distance, level: level, weeks: weeks, raceDate: raceDate, start: start, goalTime: goalTime,
      runsPerWeek: runsPerWeek, currentWeeklyKm: weekly, longestRecentRunKm: longest, recentRace: recentRace,
      weekStart: weekStart, crossTrainingPerWeek: crossTraining, strengthPerWeek: strength, spokenDates: true)
    return try request.goal(today: today, maxWeeks: maxWeeks, profile: profile, longRunDay: longRunDay)
  }

  /// The distance of an option with a unit-neutral name (`--current-weekly`, a bare number in `bare`) and its older
  /// `-km` name (a bare number in km), in km; nil when neither is given, refused when both are.
  static func distance(
    _ neutral: (name: String, text: String?), _ km: (name: String, text: String?), range: ClosedRange<Double>,
    bare: DistanceUnit
  ) throws -> Double? {
    if let text = neutral.text, km.text != nil {
      throw CLIError.invalidOption(
        option: neutral.name, value: text, allowed: "one of \(neutral.name) and \(km.name), not both",
        suggestion: nil)
    }
    if let text = neutral.text {
      return try OptionValues.distance(text, option: neutral.name, range: range, bare: bare)
    }
    return try km.text.map { try OptionValues.distance($0, option: km.name, range: range, bare: .km) }
  }
}
