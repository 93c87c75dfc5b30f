import Foundation
import PlanEngine
import RunningCore
import Training
import TrainingDomain

/// sysexits(3) codes.
enum ExitCodes {
  static let usage: Int32 = 64
  static let dataError: Int32 = 65
  static let noInput: Int32 = 66
  static let cannotCreate: Int32 = 73
  static let ioError: Int32 = 74
}

/// An error the CLI prints as one line with an exit code.
protocol RunMateError: Error {
  var message: String { get }
  var exitCode: Int32 { get }
}

/// The one table from the core's inputs to the options that give them: the core's errors name fields, the CLI says
/// which option to change.
enum Flags {
  static func name(_ field: InputField) -> String {
    switch field {
    case .weeks: "--weeks"
    case .start: "--start"
    case .days: "--days"
    case .strength: "--strength"
    case .pause: "--pause"
    case .plan: "--plan"
    case .name: "--name"
    case .profile: "--profile"
    case .calendar: "--calendar"
    case .caldav: "--caldav"
    case .raceDate: "--race-date"
    case .runsPerWeek: "--runs-per-week"
    case .currentWeeklyKm: "--current-weekly-km"
    case .longestRecentRunKm: "--longest-recent-run-km"
    case .longRunDay: "--long-run-day"
    case .crossTraining: "--cross-training"
    case .recentRace: "--recent-race"
    case .goalTime: "--goal-time"
    case .timeZone: "--tz"
    case .database: "--db"
    case .at: "--at"
    case .busy: "--busy"
    case .skip: "--skip"
    case .calendarList: "--list-calendars"
    case .fromWeek: "week"
    case .port: "--port"
    case .idleTimeout: "--idle-timeout"
    case .headTimeout: "--head-timeout"
    case .requestTimeout: "--request-timeout"
    case .maxConnections: "--max-connections"
    case .maxConnectionsPerPeer: "--max-connections-per-peer"
    case .now: "--now"
    case .distance: "--distance"
    case .units: "--units"
    case .time: "--time"
    case .level: "--level"
    case .kind: "--kind"
    case .race: "--race"
    case .reason: "--reason"
    case .sex: "--sex"
    case .height: "--height"
    case .weight: "--weight"
    case .bio: "--bio"
    case .specialty: "--specialty"
    case .certification: "--certification"
    case .host: "--host"
    case .weeklyVolume: "--current-weekly"
    case .format: "--format"
    case .weekStart: "--week-start"
    case .from: "--from"
    case .to: "--to"
    case .targets: "--targets"
    case .rpe: "--rpe"
    case .remind: "--remind"
    case .noRemind: "--no-remind"
    case .raceStart: "--race-start"
    case .passwordFile: "--password-file"
    case .out: "--out"
    case .heartRateZones: "--hr-zones"
    case .heartRate: "--hr"
    case .garmin: "--garmin"
    case .fromHealth: "--from-health"
    case .login: "--email"
    case .role: "--role"
    case .password: "the password (standard input)"
    case .save: "--save"
    case .makeDefault: "--default"
    case .coach: "--coach"
    case .force: "--force"
    case .templates: "--templates"
    case .updatePaces: "--update-paces"
    }
  }
}

extension FieldError {
  /// The message with each field named by its option.
  var message: String { message(naming: Flags.name) }
}

/// The core's errors, as the CLI prints them: the message with each field named by its option, and the sysexits code
/// of the error's kind.
struct CoreFailure: RunMateError {
  let error: any RunnerFacingError

  var message: String { (error as? any FieldError)?.message ?? error.description }

  var exitCode: Int32 {
    switch error.kind {
    case .badInput: ExitCodes.usage
    case .badData: ExitCodes.dataError
    case .missingInput: ExitCodes.noInput
    case .unavailable: 69  // EX_UNAVAILABLE
    case .cannotCreate: ExitCodes.cannotCreate
    case .io: ExitCodes.ioError
    case .protocolError: 76  // EX_PROTOCOL
    case .notPermitted: 77  // EX_NOPERM
    }
  }
}

/// `error` as the CLI prints it: its own errors as they are, the core's through ``CoreFailure``; nil for others.
func runMateError(_ error: any Error) -> (any RunMateError)? {
  if let own = error as? any RunMateError { return own }
  if let core = error as? any RunnerFacingError { return CoreFailure(error: core) }
  return nil
}

/// Problems found while reading the command line or the disk.
enum CLIError: RunMateError {
  case invalidOption(option: String, value: String, allowed: String, suggestion: String?)
  case missingOption(option: String, allowed: String)
  case unreadable(path: String, reason: String)
  case cannotWrite(path: String, reason: String)
  case notACalendar(path: String)
  case notEncodable(field: String, value: String)
  /// A file that reads but holds something impossible (a run after today).
  case invalidData(path: String, reason: String)
  /// `import` found files and refused them all: nothing importable (the reason, or a count of the files listed).
  case nothingImported(reason: String)

  var message: String {
    switch self {
    case .invalidOption(let option, let value, let allowed, let suggestion):
      let hint = suggestion.map { " (did you mean '\($0)'?)" } ?? ""
      return "\(option): '\(value)' is not valid, allowed is \(allowed)\(hint)"
    case .missingOption(let option, let allowed):
      return "\(option) is required (\(allowed))"
    case .unreadable(let path, let reason):
      return "\(path): cannot read: \(reason)"
    case .cannotWrite(let path, let reason):
      return "\(path): cannot write: \(reason)"
    case .invalidData(let path, let reason):
      return "\(path): \(reason)"
    case .nothingImported(let reason):
      return reason
    case .notACalendar(let path):
      return "\(path): not an iCalendar file (it does not start with BEGIN:VCALENDAR)"
    case .notEncodable(let field, let value):
      return "--format json: \(field) is \(value), allowed is a finite number; the database holds a value out of range"
    }
  }

  var exitCode: Int32 {
    switch self {
    case .invalidOption, .missingOption: ExitCodes.usage
    case .unreadable: ExitCodes.noInput
    case .cannotWrite: ExitCodes.cannotCreate
    case .notACalendar, .notEncodable, .invalidData, .nothingImported: ExitCodes.dataError
    }
  }
}

extension TimeZoneError: RunMateError {
  /// A zone given now names its option; one read back from the database says how to set it again.
  var message: String { message(naming: Flags.name) }
  var exitCode: Int32 { origin == .given ? ExitCodes.usage : ExitCodes.dataError }
}

extension ActivityFilesError: RunMateError {
  /// A path that does not exist is missing input (66); a temporary folder that cannot be made, output that cannot
  /// be created (73).
  var message: String { cliError.message }
  var exitCode: Int32 { cliError.exitCode }

  private var cliError: CLIError {
    switch self {
    case .missing(let path): .unreadable(path: path, reason: "no such file")
    case .temporaryFolder(let reason): .cannotWrite(path: "a temporary folder", reason: reason)
    }
  }
}
