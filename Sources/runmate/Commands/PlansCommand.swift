import ArgumentParser
import Foundation
import Logbook
import PlanEngine

/// `runmate plans`: saved plans.
struct PlansCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "plans",
    abstract: "List, show, activate or delete saved plans.",
    subcommands: [List.self, Show.self, Activate.self, Delete.self],
    defaultSubcommand: List.self)

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List saved plans (* marks the active one).")
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
        lines.append("\(saved.active ? "*" : " ") \(terminalSafe(saved.name))  "
          + "\(goal.level.rawValue) \(goal.distance.displayName), "
          + "\(goal.weeks) weeks, \(goal.start) → \(goal.raceDate)  (\(saved.id))")
      }
      try writeText(lines.joined(separator: "\n") + "\n")
    }
  }

  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show a saved plan (default: the active one).")
    @Argument(help: "The plan's name.") var name: String?
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
      let db = try database.open()
      let saved = try db.plan(named: name)
      switch output.format {
      case .json: try writeStandardOutput(JSONOutput.encode(saved.plan))
      case .table:
        let settings = try db.scheduleSettings(ofPlan: saved.id)
        try writeText(PlanTable(plan: saved.plan, units: try output.unit(default: settings?.units)).render()
          + "\n" + Show.describe(settings) + "\n")
      }
    }

    /// `Schedule: tue/thu/sat/sun, long run sun, at 06:30 sun=08:00, Europe/Berlin, …`.
    static func describe(_ settings: ScheduleSettings?) -> String {
      guard let settings else {
        return "Schedule: none saved (the profile's defaults apply; `schedule` or `export` options save them)"
      }
      var parts = [settings.runDays.map(dayList) ?? "the plan's days"]
      if let day = settings.longRunDay { parts.append("long run \(day.rawValue)") }
      parts.append(settings.times.isEmpty ? "all-day" : "at \(settings.times.joined(separator: " "))")
      parts.append(settings.timeZone)
      if !settings.blackouts.isEmpty { parts.append("skip \(settings.blackouts.joined(separator: " "))") }
      if !settings.busyFiles.isEmpty {
        parts.append("busy \(settings.busyFiles.joined(separator: " ")) (\(settings.busy.count) busy times kept)")
      }
      parts.append(settings.reminders.map { $0.isEmpty ? "no reminders" : "reminders \($0.joined(separator: " "))" }
        ?? "default reminders")
      if let units = settings.units { parts.append(units.rawValue) }
      if let start = settings.raceStart { parts.append("race at \(start)") }
      return "Schedule: " + terminalSafe(parts.joined(separator: ", "))
    }
  }

  struct Activate: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Make a saved plan the active one.")
    @Argument(help: "The plan's name.") var name: String
    @OptionGroup var database: DatabaseOptions

    func run() throws {
      try database.open().activatePlan(named: name)
      try writeText("'\(terminalSafe(name))' is the active plan\n")
    }
  }

  struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Delete a saved plan (its logged runs stay).")
    @Argument(help: "The plan's name.") var name: String
    @OptionGroup var database: DatabaseOptions

    func run() throws {
      try database.open().deletePlan(named: name)
      try writeText("deleted plan '\(terminalSafe(name))'\n")
    }
  }
}
