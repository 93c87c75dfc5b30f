import ArgumentParser
import CalendarExport
import Foundation
import Logbook
import PlanEngine
import Scheduling

/// Where and when the runner runs: days, long-run day, times, time zone, blackouts.
struct ScheduleOptions: ParsableArguments {
  @Option(name: .long, help: ArgumentHelp("Run days, e.g. mon,wed,fri,sun (default: the plan's pattern).", valueName: "days"))
  var days: String?

  @Option(name: .customLong("long-run-day"), help: ArgumentHelp("Long-run day, e.g. sat (default: race weekday).", valueName: "day"))
  var longRunDay: String?

  @Option(name: .customLong("at"), help: ArgumentHelp(
    "Start time, e.g. 06:30, or for one weekday sat=08:00 (repeatable). Without it, workouts are all-day events.",
    valueName: "time"))
  var times: [String] = []

  @Option(name: .customLong("tz"), help: ArgumentHelp("Time zone, e.g. Europe/Berlin (default: the system zone).", valueName: "zone"))
  var timeZone: String?

  @Option(name: .customLong("skip"), help: ArgumentHelp(
    "A blackout date or range with no running, e.g. 2027-02-14 or 2027-02-14..2027-02-20 (repeatable).",
    valueName: "dates"))
  var skips: [String] = []

  @Option(name: .customLong("busy"), help: ArgumentHelp(
    "An .ics of your existing calendar: workouts go where you are free (repeatable).", valueName: "file"))
  var busyFiles: [String] = []

  /// The busy files' events over the plan's span, read through libical.
  func busyIntervals(plan: Plan, timeZoneID: String) throws -> [BusyInterval] {
    guard !busyFiles.isEmpty else { return [] }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: timeZoneID) ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
    let first = plan.goal.start.adding(days: -1)
    let last = plan.goal.raceDate.adding(days: 2)
    guard let from = calendar.date(from: DateComponents(year: first.year, month: first.month, day: first.day)),
          let to = calendar.date(from: DateComponents(year: last.year, month: last.month, day: last.day)) else { return [] }
    var intervals: [BusyInterval] = []
    for path in busyFiles {
      let text = try CalendarFiles.readText(path)
      intervals += try CalendarExport.busyIntervals(ics: text, file: path, from: from, to: to, timeZoneID: timeZoneID)
    }
    return intervals
  }

  /// The preferences these options describe.
  func preferences(profile: Profile? = nil) throws -> SchedulingPreferences {
    let days = self.days ?? profile?.runDays.map { $0.map(\.rawValue).joined(separator: ",") }
    let longRunDay = self.longRunDay ?? profile?.longRunDay?.rawValue
    let runDays = try days.map { text throws -> Set<Weekday> in
      var set = Set<Weekday>()
      for part in text.split(separator: ",") {
        guard let day = parseWeekday(String(part)) else {
          throw CLIError.invalidOption(option: "--days", value: String(part), allowed: "mon, tue, wed, thu, fri, sat, sun",
                                       suggestion: nil)
        }
        set.insert(day)
      }
      guard set.count >= 2 else {
        throw CLIError.invalidOption(option: "--days", value: text, allowed: "at least two run days", suggestion: nil)
      }
      return set
    }
    let longRun = try longRunDay.map { text throws -> Weekday in
      guard let day = parseWeekday(text) else {
        throw CLIError.invalidOption(option: "--long-run-day", value: text, allowed: "mon, tue, wed, thu, fri, sat, sun",
                                     suggestion: nil)
      }
      return day
    }
    if let runDays, let longRun, !runDays.contains(longRun) {
      throw CLIError.invalidOption(option: "--long-run-day", value: longRunDay ?? "", allowed:
        "one of the --days (\(Weekday.allCases.filter(runDays.contains).map(\.rawValue).joined(separator: ",")))",
        suggestion: nil)
    }
    var perDay: [Weekday: LocalTime] = [:]
    var defaultTime: LocalTime?
    for text in times {
      let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
      let timeText = parts.last ?? text
      guard let time = LocalTime(parsing: timeText) else {
        throw CLIError.invalidOption(option: "--at", value: text, allowed: "HH:MM (06:30) or DAY=HH:MM (sat=08:00)",
                                     suggestion: nil)
      }
      if parts.count == 2 {
        guard let day = parseWeekday(parts[0]) else {
          throw CLIError.invalidOption(option: "--at", value: text, allowed: "DAY=HH:MM with DAY one of mon … sun",
                                       suggestion: nil)
        }
        perDay[day] = time
      } else {
        defaultTime = time
      }
    }
    var blackouts: [ClosedRange<CivilDate>] = []
    for text in skips {
      let parts = text.components(separatedBy: "..")
      guard (1...2).contains(parts.count), let first = CivilDate(iso: parts[0]),
            let last = parts.count == 2 ? CivilDate(iso: parts[1]) : first else {
        throw CLIError.invalidOption(option: "--skip", value: text, allowed: "YYYY-MM-DD or YYYY-MM-DD..YYYY-MM-DD",
                                     suggestion: nil)
      }
      _ = try OptionValues.date(parts[0], option: "--skip")
      _ = try OptionValues.date(parts[parts.count - 1], option: "--skip")
      guard first <= last else {
        throw CLIError.invalidOption(option: "--skip", value: text, allowed: "a range whose first day is not after its last",
                                     suggestion: "\(last)..\(first)")
      }
      blackouts.append(first...last)
    }
    let zone = timeZone ?? profile?.timeZone ?? TimeZone.current.identifier
    return SchedulingPreferences(runDays: runDays, longRunDay: longRun, times: perDay, defaultTime: defaultTime,
                                 timeZoneID: zone, blackouts: blackouts)
  }
}

/// `mon`, `Monday`, `tue`, …
func parseWeekday(_ text: String) -> Weekday? {
  let key = text.lowercased().trimmingCharacters(in: .whitespaces)
  guard key.count >= 2 else { return nil }
  return Weekday.allCases.first { key.hasPrefix($0.rawValue) || $0.rawValue.hasPrefix(key) && key.count >= 3 }
    ?? Weekday.allCases.first { day in
      ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"][day.index].hasPrefix(key)
    }
}
