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
  /// A server's settings.
  case port
  case idleTimeout = "idle timeout"
  case headTimeout = "head timeout"
  case requestTimeout = "request timeout"
  case maxConnections = "most connections"
  case maxConnectionsPerPeer = "most connections from one address"
  /// What a runner gives by hand and the settings they choose.
  case now = "today's date"
  case distance, units, time, level, kind, race, reason, sex, height, weight, bio, specialty, certification, host
  case weeklyVolume = "weekly volume"
  case format = "output format"
  case weekStart = "week start"
  case from = "first day"
  case to = "last day"
  case targets = "workout targets"
  case rpe = "effort (RPE)"
  case remind = "reminders"
  case noRemind = "no reminders"
  case raceStart = "race start time"
  case passwordFile = "password file"
  case out = "output file"
  case heartRateZones = "heart-rate zones"
  case heartRate = "average heart rate"
  case garmin = "Garmin watch folder"
  case fromHealth = "Apple Health export"
  /// A coach API account's login name or e-mail address.
  case login
  /// A coach API account's role (coach or athlete).
  case role
  /// A coach API account's password (read from standard input, never an argument).
  case password
  /// Keeping a plan in the logbook (`plan … --save`).
  case save
  /// Making a profile the default one.
  case makeDefault = "default profile"
  /// Making a profile a coach's.
  case coach
  /// Overwriting what a calendar app changed (a CalDAV sync).
  case force
  /// The folder of plan templates (the training rules).
  case templates = "templates folder"
  /// Putting re-estimated paces into a plan (a replan).
  case updatePaces = "update paces"

  /// The field in plain words: `race date`, `runs a week`.
  public var label: String { rawValue }
}

/// What kind of failure an error is, decided where the rule lives: each front door answers a kind its own way (the
/// CLI with a sysexits code, a server with an HTTP status), so no front door needs to know every module's errors.
public enum FailureKind: Sendable, Hashable {
  /// The input asked for something not allowed (a value, a name that is not there): change the input.
  case badInput
  /// A file or stored record holds something impossible.
  case badData
  /// A file or folder that should be there is not.
  case missingInput
  /// A server could not be reached, or took too long.
  case unavailable
  /// An output (a file, the database) cannot be created or written.
  case cannotCreate
  /// Reading or writing failed midway (the disk, the database engine).
  case io
  /// A server answered something that breaks its protocol.
  case protocolError
  /// A server refused the credentials.
  case notPermitted
}

/// An error written for the runner: its description is one line naming the value and what is allowed, and its kind
/// says what went wrong.
public protocol RunnerFacingError: Error, CustomStringConvertible {
  /// What kind of failure it is.
  var kind: FailureKind { get }
}

/// What an error names: a field the core knows, or a name a front door gave when it asked the core to read one of its
/// own inputs (an option such as `--current-weekly`, an argument, a variable); a literal is a given name.
public enum FieldName: Sendable, Hashable, ExpressibleByStringLiteral {
  /// A field of the core's, named by each front door its own way.
  case field(InputField)
  /// A name the front door chose, shown as it is.
  case given(String)

  /// A given name.
  public init(stringLiteral value: String) { self = .given(value) }

  /// The name as `name` words fields.
  public func named(by name: (InputField) -> String) -> String {
    switch self {
    case .field(let field): name(field)
    case .given(let text): text
    }
  }
}

/// An error that names the input it is about: each front door words it with its own name for the field.
public protocol FieldError: RunnerFacingError {
  /// The message with each field named by `name`.
  func message(naming name: (InputField) -> String) -> String
}

extension FieldError {
  /// The message with the fields' plain names (``InputField/label``).
  public var description: String { message(naming: \.label) }
}
