/// An input the runner gives (a command-line option, a profile field, an API field): what an error of the core names,
/// so that the core speaks no front door's language. Each front door names the fields its own way (the CLI: one table
/// of options, `Flags` in Sources/runmate); ``label`` is the plain name for anything else.
public enum InputField: String, Sendable, Hashable, CaseIterable {
  case weeks, start, days, strength, pause, plan, name, profile, calendar, caldav
  case raceDate = "race date"
  case runsPerWeek = "runs a week"
  case currentWeeklyKm = "current weekly volume"
  case longestRecentRunKm = "longest recent run"
  case longRunDay = "long-run day"
  case crossTraining = "cross-training days"
  case recentRace = "recent race"
  case goalTime = "goal time"
  case timeZone = "time zone"
  case database = "database file"
  case at = "run times"
  case busy = "busy calendars"
  case skip = "days off"
  case calendarList = "calendar list"
  /// The first plan week a rebuild starts from (a replan's, never the runner's).
  case fromWeek = "week"

  /// The field in plain words: `race date`, `runs a week`.
  public var label: String { rawValue }
}

/// An error that names the input it is about: each front door words it with its own name for the field.
public protocol FieldError: Error, CustomStringConvertible {
  /// The message with each field named by `name`.
  func message(naming name: (InputField) -> String) -> String
}

extension FieldError {
  /// The message with the fields' plain names (``InputField/label``).
  public var description: String { message(naming: \.label) }
}
