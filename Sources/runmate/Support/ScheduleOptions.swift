import ArgumentParser
import Foundation
import PlanEngine
import RunningCore
import Training
import TrainingDomain

/// Where and when the runner runs: days, long-run day, times, time zone, blackouts.
struct ScheduleOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "Run days, e.g. mon,wed,fri,sun (default: the plan's pattern).", valueName: "days"),
    completion: Completions.weekdays)
  var days: String?

  @Option(
    name: .customLong("long-run-day"),
    help: ArgumentHelp(
      "Long-run day, e.g. sat (default: race weekday).", valueName: "day"), completion: Completions.weekday)
  var longRunDay: String?

  @Option(
    name: .customLong("at"),
    help: ArgumentHelp(
      "Start time, e.g. 06:30, or for one weekday sat=08:00 (repeatable). Without it, workouts are all-day events.",
      valueName: "time"))
  var times: [String] = []

  @Option(
    name: .customLong("tz"),
    help: ArgumentHelp(
      "Time zone, e.g. Europe/Berlin (default: the system zone).", valueName: "zone"), completion: Completions.timeZone)
  var timeZone: String?

  @Option(
    name: .customLong("skip"),
    help: ArgumentHelp(
      "A blackout date or range with no running, e.g. 2027-02-14, 2027-02-14..2027-02-20 or monday..friday "
        + "(repeatable).",
      valueName: "dates"))
  var skips: [String] = []

  @Option(
    name: .customLong("busy"),
    help: ArgumentHelp(
      "An .ics of your existing calendar: workouts go where you are free (repeatable).", valueName: "file"),
    completion: Completions.calendarFile)
  var busyFiles: [String] = []

  @Option(
    name: .customLong("race-start"),
    help: ArgumentHelp(
      "The race's start time, e.g. 09:00: the race event is timed (default: an all-day race event).", valueName: "time")
  )
  var raceStart: String?

  /// True when any of these options is given.
  var isGiven: Bool {
    days != nil || longRunDay != nil || !times.isEmpty || timeZone != nil || !skips.isEmpty || !busyFiles.isEmpty
      || raceStart != nil
  }

  /// `base` with every option given applied (busy files read over `plan`'s span), and what changed, in words
  /// (`--at 06:30 (was all-day)`). Values are checked here; the whole result by `ScheduleSettings.preferences()`.
  /// Days said in words (`--skip tomorrow`) are read from `today` and saved as dates.
  func apply(
    to base: ScheduleSettings, plan: Plan, today: CivilDate
  ) throws -> (settings: ScheduleSettings, changes: [String]) {
    var settings = base
    var changes: [String] = []
    func note(_ option: String, _ new: String, _ old: String) {
      if new != old { changes.append("\(option) \(new) (was \(old))") }
    }
    if let days {
      let parsed = try SettingValues.runDays(days)
      note("--days", SettingValues.dayList(parsed), settings.runDays.map(SettingValues.dayList) ?? "the plan's days")
      settings.runDays = parsed
    }
    if let day = try parsedLongRunDay() {
      note("--long-run-day", day.rawValue, settings.longRunDay?.rawValue ?? "the race weekday")
      settings.longRunDay = day
    }
    if !times.isEmpty {
      _ = try SettingValues.times(times)
      let old = settings.times.isEmpty ? "all-day" : settings.times.joined(separator: " ")
      note("--at", times.joined(separator: " "), old)
      settings.times = times
    }
    if let timeZone {
      try checkedTimeZone(timeZone)
      note("--tz", timeZone, settings.timeZone)
      settings.timeZone = timeZone
    }
    if !skips.isEmpty {
      let dates = try skips.map { text throws(SettingError) in
        let range = try SettingValues.dateRange(text, option: "--skip", today: today)
        return range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)..\(range.upperBound)"
      }
      let old = settings.blackouts.isEmpty ? "none" : settings.blackouts.joined(separator: " ")
      note("--skip", dates.joined(separator: " "), old)
      settings.blackouts = dates
    }
    if let raceStart {
      _ = try SettingValues.raceStart(raceStart)
      note("--race-start", raceStart, settings.raceStart ?? "all-day")
      settings.raceStart = raceStart
    }
    if !busyFiles.isEmpty {
      let busy = try readBusy(plan: plan, timeZoneID: settings.timeZone)
      changes.append("--busy \(busyFiles.joined(separator: " ")) (\(busy.count) busy times read)")
      settings.busyFiles = busyFiles
      settings.busy = busy
    }
    if let runDays = settings.runDays, let longRun = settings.longRunDay, !runDays.contains(longRun) {
      throw CLIError.invalidOption(
        option: "--long-run-day", value: longRun.rawValue,
        allowed: "one of the run days (\(SettingValues.dayList(runDays)))", suggestion: nil)
    }
    return (settings, changes)
  }

  /// `--long-run-day` as a weekday, nil when not given.
  func parsedLongRunDay() throws -> Weekday? {
    try longRunDay.map { try SettingValues.weekday($0, option: "--long-run-day") }
  }

  /// The busy files' events over the plan's span (``CalendarFiles/busyTimes(in:over:timeZoneID:)``).
  func readBusy(plan: Plan, timeZoneID: String) throws -> [BusyTime] {
    try CalendarFiles.busyTimes(in: busyFiles, over: plan, timeZoneID: timeZoneID)
  }
}

/// `--remind` / `--no-remind`: the reminders on workout events.
struct ReminderOptions: ParsableArguments {
  @Option(
    name: .customLong("remind"),
    help: ArgumentHelp(
      "Reminder: 30m / 2h before a timed workout, or a local time: 06:00 (same day), 20:00-1d (the evening before). "
        + "Repeatable. Default: the plan's saved ones, else 30m and 20:00-1d.", valueName: "when"))
  var reminders: [String] = []

  @Flag(name: .customLong("no-remind"), help: "No reminders.")
  var noReminders = false

  func validate() throws {
    if noReminders && !reminders.isEmpty {
      throw ValidationError("--no-remind and --remind exclude each other")
    }
  }

  /// `settings` with the reminders given, and what changed.
  func apply(to settings: ScheduleSettings) throws -> (settings: ScheduleSettings, changes: [String]) {
    guard noReminders || !reminders.isEmpty else { return (settings, []) }
    var settings = settings
    let old = settings.reminders.map { $0.isEmpty ? "none" : $0.joined(separator: " ") } ?? "the default ones"
    if noReminders {
      settings.reminders = []
      return (settings, old == "none" ? [] : ["--no-remind (was \(old))"])
    }
    _ = try SettingValues.reminders(reminders)
    settings.reminders = reminders
    let new = reminders.joined(separator: " ")
    return (settings, new == old ? [] : ["--remind \(new) (was \(old))"])
  }
}
