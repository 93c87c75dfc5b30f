import ArgumentParser
import Foundation
import PlanEngine
import RunningCore
import Training
import TrainingDomain

/// `runmate export`: the plan as an iCalendar file for any calendar app.
struct ExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Export the plan as an .ics calendar (Google, Apple, Outlook, Thunderbird and others).",
    discussion: """
      Re-exporting an updated plan for the same race updates the events (same UIDs, higher SEQUENCE) and \
      cancels removed workouts; an existing --out file is read as the previous export. Without --distance, \
      --level and the other goal options, a saved plan is exported: --plan NAME, else the active plan.

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

  @OptionGroup var plan: PlanSelection

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
    // cannot be written. The database is opened once, when first needed.
    let output = out == "-" ? nil : try OutputFile(out, kind: .calendar, database: database.path, force: force)
    let stores = OpenedStore(database)
    let profile = try profileOption.load(stores)
    let resolved = try resolveSchedule(
      goal: goal, request: try request(), templates: templates, clock: clock, stores: stores, name: plan.name,
      profile: profile)
    let export = try exportCalendar(
      resolved.plan, schedule: resolved.schedule, settings: resolved.settings, previousFile: previousFile(output),
      store: try stores.existing(), now: try clock.instant(), targets: stepTargets(for: profile))
    try report(export, of: resolved)
    let delivered = try resolved.deliver(
      export, to: output == nil ? "standard output" : out, store: try stores.existing(), open: stores.store
    ) { text in if let output { try output.write(text) } else { try writeStandardOutput(text) } }
    say(delivered, of: export, toFile: output != nil)
  }

  /// The previous version's file: `--diff`, else `--previous`, else the `--out` file when it is a calendar (with
  /// `--force`, anything else is replaced); nil when none, and then the last export kept in the database (when there
  /// is one) is the previous version.
  private func previousFile(_ output: OutputFile?) -> String? {
    diff ?? previous ?? (output?.replacesOwnFile == true ? out : nil)
  }

  /// The schedule options as given, with `--units` for the event titles.
  private func request() throws -> ScheduleRequest {
    schedule.request(reminders: reminderOptions, units: try units.map { try OptionValues.unit($0, option: "--units") })
  }

  /// What became of the calendar: not kept in a read-only database, the settings' source and changes, the file
  /// written.
  private func say(_ delivered: (kept: Bool?, lines: [FieldText]), of export: CalendarExportResult, toFile: Bool) {
    if delivered.kept == false {
      writeStandardError(
        "note: \(terminalSafe(database.shown)) is read-only, so this export is not kept in it: the next export "
          + "compares with its --out file (or --previous FILE)")
    }
    for line in delivered.lines { writeStandardError(line.worded(by: Flags.name)) }
    if toFile { writeStandardError("wrote \(terminalSafe(out)): \(export.events) events, \(export.alarms) reminders") }
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
}
