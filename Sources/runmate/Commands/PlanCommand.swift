import ArgumentParser
import Foundation
import Logbook
import PlanEngine

/// `runmate plan`: generate a training plan.
struct PlanCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "plan",
    abstract: "Generate a week-by-week training plan.",
    discussion: """
      Examples:
        runmate plan --distance half --level beginner --weeks 12
        runmate plan --distance 10k --level intermediate --race-date 2027-04-25 --recent-race 5k=22:30
        runmate plan --distance marathon --level advanced --weeks 18 --format json
      """)

  @OptionGroup var goal: GoalOptions
  @OptionGroup var templates: TemplateOptions
  @OptionGroup var clock: ClockOptions
  @OptionGroup var output: OutputOptions
  @OptionGroup var database: DatabaseOptions
  @OptionGroup var profileOption: ProfileOption

  @Flag(name: .long, help: "Save the plan in the database (and make it the active plan).")
  var save = false

  @Option(name: .long, help: ArgumentHelp("The saved plan's name (default: distance and race date).", valueName: "name"))
  var name: String?

  func run() throws {
    let profile = try profileOption.load(database)
    let units = try output.unit(default: profile?.units)
    let rules = try templates.loadRules()
    let goal = try goal.goal(today: try clock.today(), maxWeeks: rules.base.maxWeeks, profile: profile)
    let plan = try makePlan(goal: goal, rules: rules, units: units)
    if save || name != nil {
      let planName = name ?? "\(plan.goal.distance.rawValue)-\(plan.goal.raceDate)"
      let db = try database.open()
      let saved = try db.savePlan(plan, name: planName, activate: true)
      if let id = profile?.id { try db.assignPlan(saved.id, toProfile: id) }
      FileHandle.standardError.write(Data("saved plan '\(saved.name)' (\(plan.id)) in \(database.path); it is the active plan\n".utf8))
    }
    switch output.format {
    case .json: try writeStandardOutput(JSONOutput.encode(plan))
    case .table: try writeStandardOutput(PlanTable(plan: plan, units: units).render())
    }
  }
}

/// Writes text to standard output in one piece.
func writeStandardOutput(_ text: String) throws {
  do {
    try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
  } catch {
    throw CLIError.cannotWrite(path: "standard output", reason: error.localizedDescription)
  }
}
