import ArgumentParser
import Foundation
import PlanEngine
import Training
import TrainingDomain

/// `runmate plan`: generate a training plan.
struct PlanCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "plan",
    abstract: "Generate a week-by-week training plan.",
    discussion: """
      Examples:
        runmate plan --distance half --level beginner --weeks 12
        runmate plan --distance 10k --level intermediate \\
          --race-date 2027-04-25 --recent-race 5k=22:30
        runmate plan --distance marathon --level advanced --weeks 18 \\
          --format json
        runmate plan --distance half --level beginner --weeks 12 \\
          --save --name spring --days tue,thu,sat,sun --at 06:30 \\
          --tz Europe/Berlin --remind 30m

      With --save, the schedule options (or the profile's defaults) are saved with the plan: `schedule`, \
      `export`, `today` and `week` use them until an option given to `schedule` or `export` changes them.
      """)

  @OptionGroup var goal: GoalOptions
  @OptionGroup var templates: TemplateOptions
  @OptionGroup var clock: ClockOptions
  @OptionGroup var output: OutputOptions
  @OptionGroup var database: DatabaseOptions
  @OptionGroup var profileOption: ProfileOption
  @OptionGroup var schedule: ScheduleOptions
  @OptionGroup var reminderOptions: ReminderOptions

  @Flag(name: .long, help: "Save the plan in the database (and make it the active plan).")
  var save = false

  @Option(
    name: .long, help: ArgumentHelp("The saved plan's name (default: distance and race date).", valueName: "name"))
  var name: String?

  func run() throws {
    let stores = OpenedStore(database)
    let profile = try profileOption.load(stores)
    let units = try output.unit(profile: profile?.units)
    let rules = try templates.loadRules()
    // Today is the runner's day, in their profile's zone: a plan started "today" starts on their day.
    let today = try clock.today(inZone: profile?.timeZone)
    let request = schedule.request(reminders: reminderOptions, units: output.units != nil ? units : nil)
    let new = try newPlan(
      request: request, profile: profile, rules: rules, units: units, today: today,
      systemZone: TimeZone.current.identifier
    ) { longRunDay in
      try goal.goal(today: today, maxWeeks: rules.base.maxWeeks, profile: profile, longRunDay: longRunDay, units: units)
    }
    if save || name != nil { try saveAndSay(new, given: request.isGiven, profile: profile, in: stores) }
    switch output.format {
    case .json: try writeStandardOutput(JSONOutput.encode(new.plan))
    case .table: try writeText(PlanTable(plan: new.plan, units: units).render())
    }
  }

  /// Saves the new plan (``saveNewPlan(_:name:settings:settingsGiven:profile:in:now:)``) and says so: the profile's
  /// defaults used, where it is saved, the notes of laying it on its days.
  private func saveAndSay(
    _ new: (plan: Plan, settings: ScheduleSettings, announcement: String?), given: Bool, profile: Profile?,
    in stores: OpenedStore
  ) throws {
    let (plan, settings) = (new.plan, new.settings)
    let (saved, schedule) = try saveNewPlan(
      plan, name: name, settings: settings, settingsGiven: given, profile: profile, in: try stores.store(),
      now: try clock.instant())
    if let announcement = new.announcement { writeStandardError(announcement) }
    writeStandardError(
      "saved plan '\(terminalSafe(saved.name))' (\(plan.id)) in \(terminalSafe(database.shown)); it is the active plan")
    for line in noteLines(schedule.notes, runDays: settings.runDays, units: try output.unit(profile: profile?.units)) {
      writeStandardError(line)
    }
  }
}

/// Writes lines for a terminal to standard output in one piece: line feeds stay, every other control character is
/// escaped (``terminalSafe(_:multiline:)``). Fields from outside the program are escaped one by one before, so
/// none of them can start a line of its own.
func writeText(_ text: String) throws {
  try writeStandardOutput(terminalSafe(text, multiline: true))
}

/// Writes one line for a terminal (a note, a summary) to standard error, control characters escaped.
func writeStandardError(_ line: String) {
  FileHandle.standardError.write(Data((terminalSafe(line) + "\n").utf8))
}

/// Writes bytes to standard output in one piece, as they are (JSON, iCalendar).
func writeStandardOutput(_ text: String) throws {
  do {
    try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
  } catch {
    throw CLIError.cannotWrite(path: "standard output", reason: error.localizedDescription)
  }
}
