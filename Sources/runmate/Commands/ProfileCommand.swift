import ArgumentParser
import Foundation
import PlanEngine
import RunningCore
import Training
import TrainingDomain

/// Profile fields, shared by `profile init` and `profile set`.
struct ProfileFields: ParsableArguments {
  @Option(name: .long, help: "Experience level: beginner, intermediate, advanced.", completion: Completions.level)
  var level: String?
  @Option(name: .customLong("birth-year"), help: "Birth year.") var birthYear: Int?
  @Option(name: .long, help: "Sex (optional, free text).") var sex: String?
  @Option(name: .long, help: ArgumentHelp("Height in cm, 100-250.", valueName: "cm")) var height: String?
  @Option(name: .long, help: ArgumentHelp("Weight in kg, 25-300.", valueName: "kg")) var weight: String?
  @Option(name: .customLong("resting-hr"), help: "Resting heart rate.") var restingHR: Int?
  @Option(name: .customLong("max-hr"), help: "Maximum heart rate.") var maxHR: Int?
  @Option(name: .customLong("lthr"), help: ArgumentHelp("Lactate-threshold heart rate.", valueName: "bpm"))
  var lactateThresholdHR: Int?
  @Option(
    name: .customLong("hr-zones"),
    help: ArgumentHelp(
      "Heart-rate zone model: karvonen (needs --max-hr and --resting-hr) or lthr (needs --lthr).", valueName: "model"),
    completion: .list(HeartRateZoneModel.allCases.map(\.rawValue)))
  var heartRateZones: String?
  @Option(
    name: .customLong("targets"),
    help: ArgumentHelp(
      "Workout targets on the watch: pace, hr, or both (easy running by heart rate, quality by pace).",
      valueName: "kind"),
    completion: .list(WorkoutTargets.allCases.map(\.rawValue)))
  var workoutTargets: String?
  @Option(name: .long, help: "Units: km or mi.", completion: Completions.units) var units: String?
  @Option(name: .customLong("tz"), help: "Time zone (IANA name).", completion: Completions.timeZone)
  var timeZone: String?
  @Option(name: .long, help: "Preferred run days, e.g. tue,thu,sat,sun.", completion: Completions.weekdays)
  var days: String?
  @Option(name: .customLong("long-run-day"), help: "Preferred long-run day.", completion: Completions.weekday)
  var longRunDay: String?
  @Option(name: .customLong("remind"), help: "Default reminders (repeatable), e.g. 30m, 20:00-1d.") var reminders:
    [String] = []
  @Option(
    name: .customLong("race-start"),
    help: ArgumentHelp(
      "Usual race start time, e.g. 09:00: race events are timed.",
      valueName: "time")) var raceStart: String?
  @Flag(name: .long, inversion: .prefixedNo, help: "A coach profile (has athletes).") var coach: Bool?
  @Option(name: .long, help: "Coach: specialty.") var specialty: String?
  @Option(name: .customLong("certification"), help: "Coach: a certification (repeatable).") var certifications:
    [String] = []
  @Option(name: .long, help: "Coach: a short bio.") var bio: String?
  @Option(name: .long, help: "WhatsApp number: digits with the country code.") var whatsapp: String?
  @Option(name: .long, help: "Telegram username.") var telegram: String?
  @Option(name: .long, help: "E-mail address.") var email: String?

  /// `profile` with every given field applied, validated.
  func apply(to profile: Profile) throws -> Profile {
    var p = profile
    if let level {
      p.level = try SettingValues.level(level)
    }
    if let birthYear { p.birthYear = birthYear }
    if let sex { p.sex = try plainText(sex, option: "--sex") }
    if let height { p.heightCm = try OptionValues.number(height, option: "--height", range: 100...250, unit: "cm") }
    if let weight { p.weightKg = try OptionValues.number(weight, option: "--weight", range: 25...300, unit: "kg") }
    if let restingHR { p.restingHeartRate = restingHR }
    if let maxHR { p.maxHeartRate = maxHR }
    if let lactateThresholdHR { p.lactateThresholdHeartRate = lactateThresholdHR }
    if let heartRateZones {
      p.heartRateZoneModel = try choice(heartRateZones, option: "--hr-zones", allowed: "karvonen or lthr")
    }
    if let workoutTargets {
      p.workoutTargets = try choice(workoutTargets, option: "--targets", allowed: "pace, hr or both")
    }
    if let units {
      p.units = try OptionValues.unit(units, option: "--units")
    }
    if let timeZone {
      try checkedTimeZone(timeZone)
      p.timeZone = timeZone
    }
    if let days {
      p.runDays = try days.split(separator: ",").map { try SettingValues.weekday(String($0), option: "--days") }
    }
    if let longRunDay {
      p.longRunDay = try SettingValues.weekday(longRunDay, option: "--long-run-day")
    }
    if !reminders.isEmpty {
      _ = try SettingValues.reminders(reminders)
      p.reminders = reminders
    }
    if let raceStart { p.raceStart = raceStart }
    if let coach { p.isCoach = coach }
    if let specialty { p.specialty = try plainText(specialty, option: "--specialty") }
    if !certifications.isEmpty {
      p.certifications = try certifications.map { try plainText($0, option: "--certification") }
    }
    if let bio { p.bio = try plainText(bio, option: "--bio", lineBreaks: true) }
    if let whatsapp { p.whatsapp = whatsapp.filter { !" -()+".contains($0) } }
    if let telegram { p.telegram = telegram.hasPrefix("@") ? String(telegram.dropFirst()) : telegram }
    if let email { p.email = email }
    return try p.validated()
  }
}

/// The case of `Choice` named `text` (any case), else the option refused with the closest name as a suggestion.
private func choice<Choice: RawRepresentable & CaseIterable>(_ text: String, option: String, allowed: String) throws
  -> Choice where Choice.RawValue == String
{
  if let found = Choice(rawValue: text.lowercased()) { return found }
  throw CLIError.invalidOption(
    option: option, value: text, allowed: allowed,
    suggestion: closestName(to: text.lowercased(), among: Choice.allCases.map(\.rawValue)))
}

/// `text` when it holds no control characters (with `lineBreaks`, line feeds are allowed); otherwise the option is
/// refused, the value shown with its control characters escaped.
func plainText(_ text: String, option: String, lineBreaks: Bool = false) throws -> String {
  guard terminalSafe(text, multiline: lineBreaks) == text else {
    throw CLIError.invalidOption(
      option: option, value: terminalSafe(text),
      allowed: lineBreaks
        ? "text without control characters other than line breaks"
        : "one line of text without control characters", suggestion: nil)
  }
  return text
}

/// `runmate profile`: who is running.
struct ProfileCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "profile",
    abstract: "Runner and coach profiles: init, show, set, list.",
    subcommands: [Init.self, Show.self, Set.self, List.self],
    defaultSubcommand: Show.self)

  struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "init", abstract: "Create a profile (the first one is the default).")
    @Argument(help: "The profile's name.") var name: String
    @OptionGroup var fields: ProfileFields
    @Flag(name: .customLong("default"), help: "Make it the default profile.") var makeDefault = false
    @OptionGroup var database: DatabaseOptions

    func run() throws {
      // Every field is checked before the database is opened (or created).
      var profile = try fields.apply(to: Profile(name: try plainText(name, option: "NAME")))
      profile.isDefault = makeDefault
      // One INSERT: the database's UNIQUE name refuses a second profile of this name, even from another process
      // creating it at the same moment; the first profile becomes the default inside the same transaction.
      let saved = try database.open().createProfile(profile)
      try writeText(
        "created \(saved.isCoach ? "coach" : "runner") profile '\(terminalSafe(name))'"
          + "\(saved.isDefault ? " (default)" : "")\n")
    }
  }

  struct Set: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "set", abstract: "Change fields of a profile.")
    @Option(name: .long, help: "The profile (default: the default profile).") var profile: String?
    @OptionGroup var fields: ProfileFields
    @Flag(name: .customLong("default"), help: "Make it the default profile.") var makeDefault = false
    @Flag(name: .customLong("from-health"), help: "Take height and weight from the latest imported health measures.")
    var fromHealth = false
    @OptionGroup var database: DatabaseOptions

    func run() throws {
      let db = try database.open()
      let fields = self.fields
      let updated = try db.setProfile(named: profile, fromHealth: fromHealth, makeDefault: makeDefault) {
        try fields.apply(to: $0)
      }
      try writeText("updated profile '\(terminalSafe(updated.name))'\n")
    }
  }

  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Show a profile (default: the default profile).")
    @Option(name: .long, help: "The profile.") var profile: String?
    @OptionGroup var output: OutputOptions
    @OptionGroup var database: DatabaseOptions

    func run() throws {
      guard let found = try database.open().profile(named: profile) else {
        try writeText("no profile yet: `runmate profile init NAME --level beginner --tz Europe/Berlin`\n")
        return
      }
      if output.format == .json { return try writeStandardOutput(JSONOutput.encode(found)) }
      try writeText(describe(found))
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List profiles (* marks the default).")
    @OptionGroup var database: DatabaseOptions

    func run() throws {
      let all = try database.open().profiles()
      let lines = all.map { "\($0.isDefault ? "*" : " ") \(terminalSafe($0.name))\($0.isCoach ? " (coach)" : "")" }
      try writeText(lines.isEmpty ? "no profiles yet\n" : lines.joined(separator: "\n") + "\n")
    }
  }
}

/// A profile as readable lines; every stored text is printed through ``terminalSafe(_:multiline:)`` on one line,
/// so no field can start a line of its own or send the terminal a control sequence.
func describe(_ p: Profile) -> String {
  var lines = ["\(terminalSafe(p.name))\(p.isCoach ? " (coach)" : "")\(p.isDefault ? ", default profile" : "")"]
  func add(_ label: String, _ value: String?) { if let value { lines.append("  \(label): \(terminalSafe(value))") } }
  add("level", p.level?.rawValue)
  add("birth year", p.birthYear.map(String.init))
  add("sex", p.sex)
  add("height", p.heightCm.map { "\(oneDecimal($0)) cm" })
  add("weight", p.weightKg.map { "\(oneDecimal($0)) kg" })
  add("resting HR", p.restingHeartRate.map(String.init))
  add("max HR", p.maxHeartRate.map(String.init))
  add("lactate-threshold HR", p.lactateThresholdHeartRate.map(String.init))
  add("HR zones", p.heartRateZoneModel?.rawValue)
  add("workout targets", p.workoutTargets?.rawValue)
  add("units", p.units?.rawValue)
  add("time zone", p.timeZone)
  add("run days", p.runDays.map { $0.map(\.rawValue).joined(separator: ",") })
  add("long-run day", p.longRunDay?.rawValue)
  add("reminders", p.reminders.map { $0.joined(separator: ", ") })
  add("race start", p.raceStart)
  add("specialty", p.specialty)
  add("certifications", p.certifications.map { $0.joined(separator: ", ") })
  add("bio", p.bio)
  for link in p.contactLinks { lines.append("  contact: \(terminalSafe(link))") }
  return lines.joined(separator: "\n") + "\n"
}
