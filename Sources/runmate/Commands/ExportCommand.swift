import ArgumentParser
import Foundation
import PlanEngine
import Training
import TrainingDomain

/// `runmate export`: the plan as an iCalendar file for any calendar app.
struct ExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Export the plan as an .ics calendar (Google, Apple, Outlook, Thunderbird and others).",
    discussion: """
      Re-exporting an updated plan for the same race updates the events (same UIDs, higher SEQUENCE) and \
      cancels removed workouts; an existing --out file is read as the previous export.

      Examples:
        runmate export --distance half --level beginner --weeks 12 \\
          --out plan.ics
        runmate export --distance 10k --level intermediate \\
          --weeks 10 --at 06:30 --tz Europe/Berlin --remind 30m \\
          --busy work.ics --out plan.ics
      """)

  @OptionGroup var goal: GoalOptions
  @OptionGroup var schedule: ScheduleOptions
  @OptionGroup var templates: TemplateOptions
  @OptionGroup var clock: ClockOptions
  @OptionGroup var database: DatabaseOptions
  @OptionGroup var profileOption: ProfileOption

  @Option(
    name: .customLong("plan"),
    help: ArgumentHelp(
      "A saved plan to use instead of --distance/--level/... (default without them: the active plan).",
      valueName: "name"))
  var planName: String?

  @Option(
    name: .long, help: ArgumentHelp("Where to write the calendar; - for standard output.", valueName: "file"),
    completion: Completions.calendarFile)
  var out: String

  @OptionGroup var reminderOptions: ReminderOptions

  @Option(
    name: .long,
    help: ArgumentHelp(
      "The previous export to update against (default: the --out file, if it exists).", valueName: "file"),
    completion: Completions.calendarFile)
  var previous: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Print what changed against this previous export (moved, changed, cancelled, added).", valueName: "file"),
    completion: Completions.calendarFile)
  var diff: String?

  @Option(
    name: .customLong("units"),
    help: "Units in event titles: km or mi (default: the plan's, else the profile's, else km).",
    completion: Completions.units)
  var units: String?

  @Flag(name: .long, help: "Replace an existing --out file even when it is not a calendar runmate wrote.")
  var force = false

  func run() throws {
    // The output is checked before anything else: nothing is worked out, read or recorded for a file that
    // cannot be written.
    let output = out == "-" ? nil : try OutputFile(out, kind: .calendar, database: database.path, force: force)
    let profile = try profileOption.load(database)
    let resolved = try resolveSchedule(
      goal: goal,
      request: schedule.request(
        reminders: reminderOptions, units: try units.map { try OptionValues.unit($0, option: "--units") }),
      templates: templates, clock: clock, database: database, name: planName, profile: profile)
    // An --out file is the previous export only when it is a calendar (with --force, anything else is replaced).
    // Without a file, the last export kept in the database (when there is one) is the previous version.
    let logbook = database.exists ? try database.open() : nil
    let export = try exportCalendar(
      resolved.plan, schedule: resolved.schedule, settings: resolved.settings,
      previousFile: diff ?? previous ?? (output?.replacesOwnFile == true ? out : nil), store: logbook,
      now: try clock.instant(), targets: stepTargets(for: profile))
    try report(export, of: resolved)
    // A read-only database cannot keep changed schedule settings: refused before anything is written.
    if let logbook, logbook.isReadOnly, resolved.saved != nil, resolved.pending != nil {
      throw LogbookError.readOnly(path: logbook.path)
    }
    if let output { try output.write(export.text) } else { try writeStandardOutput(export.text) }
    // Recorded only once the calendar is out: a failed write leaves the database as it was.
    try record(export.text, path: output == nil ? "standard output" : out, of: resolved.plan, in: logbook)
    try resolved.commit(to: database)
    if output != nil {
      writeStandardError("wrote \(terminalSafe(out)): \(export.events) events, \(export.alarms) reminders")
    }
  }

  /// The scheduler's notes (workouts named as the calendar's titles), then the diff (`--diff`) or its summary
  /// against the previous version.
  private func report(_ export: CalendarExportResult, of resolved: ResolvedSchedule) throws {
    let settings = resolved.settings
    for line in noteLines(resolved.schedule.notes, runDays: settings.runDays, units: settings.units ?? .km) {
      writeStandardError(line)
    }
    if diff != nil {
      try writeText(export.diff.render())
    } else if let previousLabel = export.previousLabel {
      writeStandardError("against \(terminalSafe(previousLabel)): \(export.diff.summary())")
    }
  }

  /// Keeps the export in the database (the previous version for the next one). A read-only database cannot: the
  /// calendar is still written, and a note says what the next export will compare with.
  private func record(_ text: String, path: String, of plan: Plan, in logbook: (any TrainingStore)?) throws {
    guard let logbook else { return }
    guard !logbook.isReadOnly else {
      writeStandardError(
        "note: \(terminalSafe(database.shown)) is read-only, so this export is not kept in it: the next export "
          + "compares with its --out file (or --previous FILE)")
      return
    }
    try Training.recordExport(text, path: path, of: plan, in: logbook)
  }
}
