import ArgumentParser
import Foundation
import PlanEngine
import RunningCore
import Training

/// `--templates DIR`: where the plan rules live.
struct TemplateOptions: ParsableArguments {
  @Option(name: .long, help: ArgumentHelp("Plan templates directory.", valueName: "dir"), completion: .directory)
  var templates: String?

  /// Finds the directory: --templates, $RUNMATE_TEMPLATES, <executable>/../share/runmate/plan-templates,
  /// ./plan-templates.
  func directory() throws(TemplateError) -> String {
    if let templates { return templates }
    var candidates: [String] = []
    if let env = ProcessInfo.processInfo.environment["RUNMATE_TEMPLATES"], !env.isEmpty { candidates.append(env) }
    // The binary's own path (/proc/self/exe on Linux): argv[0] is a bare `runmate` when the shell found it on PATH.
    let executable = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]))
      .resolvingSymlinksInPath()
    candidates.append(
      executable.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("share/runmate/plan-templates").path)
    candidates.append("plan-templates")
    var isDirectory: ObjCBool = false
    for candidate in candidates
    where FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory)
      && isDirectory.boolValue
    {
      return candidate
    }
    throw .directoryNotFound(lookedIn: candidates)
  }

  /// Reads and validates every `*.yaml` in the directory (through the decoded-templates cache, ``RulesCache``).
  func loadRules(from path: String? = nil) throws -> PlanRules {
    let directory = try path ?? self.directory()
    let files = try TemplateOptions.readFiles(in: directory)
    return try RulesCache.rules(files: files, directory: directory)
  }

  static func readFiles(in directory: String) throws -> [TemplateFile] {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directory)
    } catch {
      throw TemplateError.directoryNotFound(lookedIn: [directory])
    }
    return try names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted().map { name in
      let path = (directory as NSString).appendingPathComponent(name)
      // The size first: a huge file is refused before it is read.
      if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber {
        try TemplateLimits.check(byteCount: size.intValue, file: path)
      }
      guard let data = FileManager.default.contents(atPath: path) else {
        throw CLIError.unreadable(path: path, reason: "permission denied or not a file")
      }
      guard let text = String(data: data, encoding: .utf8) else {
        throw CLIError.unreadable(path: path, reason: "not UTF-8 text")
      }
      return TemplateFile(name: path, text: text)
    }
  }
}

/// `--now`: a fixed clock for reproducible output.
struct ClockOptions: ParsableArguments {
  @Option(name: .long, help: nowHelp)
  var now: String?

  /// `--now`'s help, for the groups that declare it beside their own options.
  static let nowHelp = ArgumentHelp(
    "Today's date for the plan (YYYY-MM-DD or an ISO 8601 time); default: $SOURCE_DATE_EPOCH, else the system clock.",
    valueName: "date")

  init() {}

  /// The clock of a `--now` read by another group.
  init(now: String?) { self.now = now }

  /// The current instant, for DTSTAMP: `--now` (a date means its midnight UTC), else `SOURCE_DATE_EPOCH`, else
  /// the system clock. `--now` and `SOURCE_DATE_EPOCH` must fall in the years 1900 to 2200.
  func instant() throws -> Date {
    if let now {
      if CivilDate(iso: now) != nil {
        let date = try OptionValues.date(now, option: "--now")
        return Date(timeIntervalSince1970: TimeInterval(date.dayNumber) * 86_400)
      }
      if let parsed = try? Date.ISO8601FormatStyle().parse(now) {
        guard ClockOptions.seconds.contains(parsed.timeIntervalSince1970) else { throw ClockOptions.badNow(now) }
        return parsed
      }
      throw ClockOptions.badNow(now)
    }
    if let seconds = try ClockOptions.epoch() { return Date(timeIntervalSince1970: seconds) }
    return Date()
  }

  /// Today's date: `--now`, else `SOURCE_DATE_EPOCH` (UTC), else the system clock in the local time zone.
  ///
  /// With `zoneID` (the runner's time zone), an instant (`--now` as an ISO time, `SOURCE_DATE_EPOCH`, the system
  /// clock) is read in that zone: the runner's local day. A `--now` date is that date.
  func today(inZone zoneID: String? = nil) throws -> CivilDate {
    let zone = zoneID.flatMap(TimeZone.init(identifier:))
    if let now {
      if CivilDate(iso: now) != nil { return try OptionValues.date(now, option: "--now") }
      if now.count > 10, CivilDate(iso: String(now.prefix(10))) != nil,
        (try? Date.ISO8601FormatStyle().parse(now)) != nil
      {
        let instant = try instant()
        if let zone { return try ClockOptions.day(of: instant, in: zone) }
        return try OptionValues.date(String(now.prefix(10)), option: "--now")
      }
      throw ClockOptions.badNow(now)
    }
    var calendar = Calendar(identifier: .gregorian)
    var date = Date()
    if let seconds = try ClockOptions.epoch() {
      date = Date(timeIntervalSince1970: seconds)
      calendar.timeZone = zone ?? TimeZone(identifier: "UTC") ?? calendar.timeZone
    } else {
      calendar.timeZone = zone ?? TimeZone.current
    }
    guard let today = CivilDate(date, in: calendar), OptionValues.everyDate.contains(today) else {
      throw CLIError.invalidOption(
        option: "--now", value: "(system clock)", allowed: "a date from 1900 to 2200",
        suggestion: nil)
    }
    return today
  }

  /// The civil day of `instant` in `zone`.
  static func day(of instant: Date, in zone: TimeZone) throws -> CivilDate {
    guard let today = CivilDate(instant, in: zone) else {
      throw CLIError.invalidOption(
        option: "--now", value: "\(instant)", allowed: "a date from 1900 to 2200",
        suggestion: nil)
    }
    return today
  }

  /// 1900-01-01T00:00:00Z to 2200-12-31T23:59:59Z, in seconds since 1970.
  static let seconds: ClosedRange<TimeInterval> = -2_208_988_800...7_289_654_399

  static func badNow(_ text: String) -> CLIError {
    // A time without seconds or offset (`2026-11-26T08:00`) is the likeliest miss: suggest it in UTC.
    let suggestion =
      if text.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/) != nil {
        text + ":00Z"
      } else if text.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/) != nil {
        text + "Z"
      } else {
        nil as String?
      }
    return .invalidOption(
      option: "--now", value: text,
      allowed: "a date YYYY-MM-DD or an ISO 8601 time with its offset such as 2026-11-26T08:00:00Z, from 1900 to 2200",
      suggestion: suggestion)
  }

  /// `SOURCE_DATE_EPOCH`, when set: whole or decimal seconds since 1970, in the years 1900 to 2200.
  static func epoch() throws -> TimeInterval? {
    guard let text = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"] else { return nil }
    guard let seconds = TimeInterval(text), seconds.isFinite, ClockOptions.seconds.contains(seconds) else {
      throw CLIError.invalidOption(
        option: "SOURCE_DATE_EPOCH", value: text,
        allowed: "seconds since 1970, from -2208988800 (1900) to 7289654399 (2200)",
        suggestion: nil)
    }
    return seconds
  }
}

/// `--format table|json` and `--units km|mi`.
struct OutputOptions: ParsableArguments {
  enum Format: String, ExpressibleByArgument, CaseIterable { case table, json }

  @Option(
    name: .long, help: "Output format: table or json.", completion: .list(Format.allCases.map(\.rawValue)),
    transform: Format.named)
  var format: Format = .table

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Units for tables and text: km or mi (JSON is always km; default: the profile's, else km)."),
    completion: Completions.units)
  var units: String?

  /// The unit of tables and text by the one rule (``DistanceUnit/display(chosen:profile:plan:)``): `--units`,
  /// else the profile's, else the plan's saved one, else km.
  func unit(profile: DistanceUnit?, plan: DistanceUnit? = nil) throws -> DistanceUnit {
    DistanceUnit.display(chosen: try chosenUnit(), profile: profile, plan: plan)
  }

  /// `--units` as given; nil when not given.
  func chosenUnit() throws -> DistanceUnit? { try units.map { try OptionValues.unit($0, option: "--units") } }

}

extension ExpressibleByArgument where Self: CaseIterable & RawRepresentable<String> {
  /// The case named `text` (case-blind); for a typo, what is allowed and the closest name (`jsn`: did you mean
  /// 'json'?), as every enumerated option says it.
  static func named(_ text: String) throws -> Self {
    if let value = Self(rawValue: text.lowercased()) { return value }
    let names = allCases.map(\.rawValue)
    let hint = closestName(to: text.lowercased(), among: names).map { " (did you mean '\($0)'?)" } ?? ""
    throw ValidationError("allowed is \(names.joined(separator: ", "))\(hint)")
  }
}
