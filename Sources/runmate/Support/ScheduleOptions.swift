import ArgumentParser
import Foundation
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

  /// The request these options make, with the reminders and the units of titles given beside them.
  func request(reminders: ReminderOptions? = nil, units: DistanceUnit? = nil) -> ScheduleRequest {
    ScheduleRequest(
      days: days, longRunDay: longRunDay, times: times, timeZone: timeZone, skips: skips, busyFiles: busyFiles,
      raceStart: raceStart, reminders: reminders?.reminders ?? [], noReminders: reminders?.noReminders ?? false,
      units: units)
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
}
