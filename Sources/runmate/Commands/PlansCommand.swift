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
      let saved = try database.open().plan(named: name)
      switch output.format {
      case .json: try writeStandardOutput(JSONOutput.encode(saved.plan))
      case .table: try writeText(PlanTable(plan: saved.plan, units: try output.unit()).render())
      }
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
