import ArgumentParser
import Foundation
import PlanEngine
import Training
import TrainingDomain

/// `runmate plans`: saved plans.
struct PlansCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "plans",
    abstract: "List, show, activate, delete, export or import saved plans.",
    subcommands: [List.self, Show.self, Activate.self, Delete.self, Export.self, Import.self],
    defaultSubcommand: List.self)

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List saved plans (* marks the active one).")
    @OptionGroup var database: DatabaseOptions

    func run() throws {
      let plans = try database.open().plans()
      if plans.isEmpty {
        try writeText("no saved plans; save one with `runmate plan ... --save`\n")
        return
      }
      var lines: [String] = []
      for saved in plans {
        let goal = saved.plan.goal
        lines.append(
          "\(saved.active ? "*" : " ") \(terminalSafe(saved.name))  "
            + "\(goal.level.rawValue) \(goal.distance.displayName), "
            + "\(goal.weeks) weeks, \(goal.start) → \(goal.raceDate)  (\(saved.id))")
      }
      try writeText(lines.joined(separator: "\n") + "\n")
    }
  }

  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Show a saved plan (default: the active one).")
    @Argument(help: "The plan's name.") var name: String?
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
      let db = try database.open()
      let saved = try db.plan(named: name)
      switch output.format {
      case .json:
        let settings = try db.scheduleSettings(ofPlan: saved.id)
        try writeStandardOutput(JSONOutput.encode(ShownPlan(saved: saved, settings: settings)))
      case .table:
        let settings = try db.scheduleSettings(ofPlan: saved.id)
        try writeText(
          PlanTable(
            plan: saved.plan, units: try output.unit(profile: db.profile(named: nil)?.units, plan: settings?.units)
          )
          .render()
            + "\n" + Show.describe(settings) + "\n")
      }
    }

    /// `Schedule: tue/thu/sat/sun, long run sun, at 06:30 sun=08:00, Europe/Berlin, …`.
    static func describe(_ settings: ScheduleSettings?) -> String {
      guard let settings else {
        return "Schedule: none saved (the profile's defaults apply; `schedule` or `export` options save them)"
      }
      var parts = [settings.runDays.map(SettingValues.dayList) ?? "the plan's days"]
      if let day = settings.longRunDay { parts.append("long run \(day.rawValue)") }
      parts.append(settings.times.isEmpty ? "all-day" : "at \(settings.times.joined(separator: " "))")
      parts.append(settings.timeZone)
      if !settings.blackouts.isEmpty { parts.append("skip \(settings.blackouts.joined(separator: " "))") }
      if !settings.busyFiles.isEmpty {
        parts.append("busy \(settings.busyFiles.joined(separator: " ")) (\(settings.busy.count) busy times kept)")
      }
      parts.append(
        settings.reminders.map { $0.isEmpty ? "no reminders" : "reminders \($0.joined(separator: " "))" }
          ?? "default reminders")
      if let units = settings.units { parts.append(units.rawValue) }
      if let start = settings.raceStart { parts.append("race at \(start)") }
      return "Schedule: " + terminalSafe(parts.joined(separator: ", "))
    }
  }

  struct Activate: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "activate", abstract: "Make a saved plan the active one.")
    @Argument(help: "The plan's name.") var name: String
    @OptionGroup var database: DatabaseOptions

    func run() throws {
      try database.open().activatePlan(named: name)
      try writeText("'\(terminalSafe(name))' is the active plan\n")
    }
  }

  struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "delete", abstract: "Delete a saved plan (its logged runs stay).")
    @Argument(help: "The plan's name.") var name: String
    @OptionGroup var database: DatabaseOptions

    func run() throws {
      try database.open().deletePlan(named: name)
      try writeText("deleted plan '\(terminalSafe(name))'\n")
    }
  }
}

/// `plans show --format json`: the `runmate.plan/1` document with the saved plan's `name`, `active` and
/// `schedule_settings` (null when none are saved) added.
struct ShownPlan: Encodable {
  var saved: SavedPlan
  var settings: ScheduleSettings?

  enum CodingKeys: String, CodingKey {
    case name, active
    case scheduleSettings = "schedule_settings"
  }

  func encode(to encoder: any Encoder) throws {
    try saved.plan.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(saved.name, forKey: .name)
    try container.encode(saved.active, forKey: .active)
    try container.encode(settings.map(SharedSettings.init), forKey: .scheduleSettings)
  }
}

extension PlansCommand {
  struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "export",
      abstract: "Write a saved plan with its schedule settings as a JSON file to share (runmate.plan-share/1).",
      discussion: """
        The file holds the plan and its schedule settings (days, times, time zone, skipped days, busy time without \
        the events' titles, reminders). `runmate plans import FILE` reads it back, on this machine or another.
        """)
    @Argument(help: "The plan's name.") var name: String
    @Option(
      name: .long, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"),
      completion: .file(extensions: ["json"]))
    var out: String?
    @Flag(name: .long, help: "Replace --out even if it is not a plan file runmate wrote.") var force = false
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var clock: ClockOptions

    func run() throws {
      let target = try out.map { try OutputFile($0, kind: .planShare, database: database.path, force: force) }
      let db = try database.open()
      let file = try db.planFile(named: name, exportedAt: try clock.instant())
      let text = try file.encoded()
      guard let target else { return try writeStandardOutput(text) }
      try target.write(text)
      writeStandardError(
        "wrote plan '\(terminalSafe(file.name))' (\(file.plan.weeks.count) weeks"
          + "\(file.settings == nil ? ", no schedule settings" : ", with its schedule settings")) to "
          + terminalSafe(target.path))
    }
  }

  struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import",
      abstract: "Save a plan from a file written by `runmate plans export`.",
      discussion: """
        The plan is saved with its schedule settings and scheduled with them; a file that cannot be trusted \
        (not a plan file, a newer version, impossible values) is refused and nothing is saved.
        """)
    @Argument(help: "The plan file (runmate.plan-share/1).", completion: .file(extensions: ["json"])) var file: String
    @Option(
      name: .long,
      help: ArgumentHelp(
        "Save it under this name (default: the name in the file).",
        valueName: "name"))
    var name: String?
    @Flag(name: .long, help: "Make it the active plan.") var activate = false
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var profileOption: ProfileOption
    @OptionGroup var clock: ClockOptions

    func run() throws {
      let shared = try PlanFile.read(file)
      let ready = try shared.readyToSave(as: name, from: file)
      let stores = OpenedStore(database)
      let saved = try stores.store().save(
        ready, activate: activate, profile: try profileOption.load(stores), savedAt: try clock.instant())
      try writeText(Import.line(saved, from: shared, scheduled: ready.dated.count) + "\n")
    }

    /// What was imported: the plan, its settings and workouts scheduled, and whether it is the active plan.
    static func line(_ saved: SavedPlan, from shared: PlanFile, scheduled: Int) -> String {
      let goal = shared.plan.goal
      var line =
        "imported plan '\(terminalSafe(saved.name))' (\(goal.level.rawValue) "
        + "\(goal.distance.displayName), \(shared.plan.weeks.count) weeks, \(goal.start) → \(goal.raceDate))"
      if let settings = shared.settings {
        let described = PlansCommand.Show.describe(settings).dropFirst("Schedule: ".count)
        line += " with its schedule settings (\(described)); \(scheduled) workouts scheduled"
      } else {
        line += " without schedule settings (the profile's defaults apply)"
      }
      return line
        + (saved.active
          ? "; it is the active plan"
          : "; make it the active plan with `runmate plans activate \(terminalSafe(saved.name))`")
    }
  }
}
