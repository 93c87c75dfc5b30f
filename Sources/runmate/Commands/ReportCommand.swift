import ArgumentParser
import Foundation
import PlanEngine
import RunningCore
import Training
import TrainingDomain

/// `runmate report --html FILE`.
struct ReportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Write a self-contained HTML report: weekly volume, long runs, pace trend, the plan calendar.")

  @Option(
    name: .long, help: ArgumentHelp("Where to write the HTML page.", valueName: "file"),
    completion: .file(extensions: ["html"])) var html: String
  @OptionGroup var plan: PlanSelection
  @OptionGroup var database: DatabaseOptions
  @OptionGroup var clock: ClockOptions
  @Option(
    name: .long, help: "Units for distances and paces: km or mi (default: the profile's, else km).",
    completion: Completions.units)
  var units: String?
  @Flag(name: .long, help: "Replace an existing file even when it is not a report runmate wrote.")
  var force = false

  func run() throws {
    let chosenUnit = try units.map { try OptionValues.unit($0, option: "--units") }
    let output = try OutputFile(html, kind: .report, database: database.path, force: force)
    let db = try database.open()
    let saved = try plan.saved(in: db)
    let runs = try db.completions()
    let profile = try db.profile(named: nil)
    let state = try TrainingState.read(saved, db: db, profile: profile)
    let today = try clock.today(inZone: localZone(profile: profile, state: state))
    let report = state.progress(runs, today: today)
    let others = try db.crossTraining()
    let unit = DistanceUnit.display(chosen: chosenUnit, profile: profile?.units, plan: state.stored?.units)
    var page = HTMLReport(
      name: saved.name, plan: state.plan, report: report, runs: runs,
      status: state.status(runs: runs, crossTraining: others, today: today), units: unit)
    page.crossTraining = others
    try output.write(page.render())
    writeStandardError("wrote \(terminalSafe(html))")
  }
}
