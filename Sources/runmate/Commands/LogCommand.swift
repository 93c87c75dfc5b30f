import ArgumentParser
import Foundation
import PlanEngine
import RunningCore
import Training
import TrainingDomain

/// `runmate log`: record a run.
struct LogCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "log",
    abstract: "Log a completed run, list, delete or undo.",
    discussion: """
      Examples:
        runmate log --distance 8.2km --time 47:30
        runmate log 2026-12-12 --distance 10km --time 45:00 --race
        runmate log 2027-01-05 --distance 5mi --time 44:10 \\
          --kind tempo --rpe 7 --hr 158 --note "windy"
        runmate log --undo
        runmate log delete 12
      """,
    subcommands: [Add.self, List.self, Delete.self],
    defaultSubcommand: Add.self)

  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Log a completed run (the default).")

    @Argument(help: "The day: YYYY-MM-DD, yesterday, 'last sunday', '2 days ago' (default: today).") var date: String?
    @Option(
      name: .long,
      help: ArgumentHelp(
        "Distance: 8.2km, 5mi, or a bare number in your units (the profile's, else km).", valueName: "distance"))
    var distance: String?
    @Option(name: .long, help: ArgumentHelp("Time: h:mm:ss or mm:ss.", valueName: "time")) var time: String?
    @Option(
      name: .long,
      help: ArgumentHelp(
        "Kind: \(WorkoutKind.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "kind"),
      completion: Completions.workoutKind) var kind: String?
    @Flag(name: .long, help: "A race: the same as --kind race (races set your paces: see `runmate paces`).")
    var race = false
    @Option(name: .long, help: ArgumentHelp("Perceived effort 1-10.", valueName: "n")) var rpe: Int?
    @Option(name: .long, help: ArgumentHelp("Average heart rate.", valueName: "bpm")) var hr: Int?
    @Option(name: .long, help: ArgumentHelp("A note.", valueName: "text")) var note: String?
    @OptionGroup var plan: PlanSelection
    @Flag(name: .long, help: "Remove the most recently logged run instead.") var undo = false
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var clock: ClockOptions

    func run() throws {
      // The run is checked before the database is created: a bad value leaves no file behind. A bare distance is in
      // the runner's unit (km without a database); the run itself is stored in km.
      let existing = database.exists ? try database.open() : nil
      let units = try existing.map { try $0.runnerUnit() } ?? .km
      // Today is the runner's day, in their profile's zone (`log yesterday` at 23:30 in Auckland is their yesterday).
      let zone = try existing.flatMap { try $0.profile(named: nil)?.timeZone }
      let completion = undo ? nil : try words.completion(today: try clock.today(inZone: zone), units: units)
      let db = try existing ?? database.open()
      guard let completion else {
        let removed = try db.undoLastRun()
        return try writeStandardOutput(
          "removed run \(removed.id ?? 0): \(removed.date.shortLabel), \(units.format(removed.distance))\n")
      }
      let lines = try db.addRuns([completion], plan: plan.name).logLines(units: units, naming: Flags.name)
      try writeStandardOutput(lines.map { $0 + "\n" }.joined())
    }

    /// The run as given on the command line.
    var words: LoggedRunWords {
      LoggedRunWords(
        date: date, distance: distance, time: time, kind: kind, race: race, rpe: rpe, heartRate: hr, note: note)
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List logged runs.")
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
      let db = try database.open()
      let view = try db.logbookView()
      if output.format == .json {
        _ = try output.chosenUnit()
        return try writeStandardOutput(JSONOutput.encode(view))
      }
      let units = try output.unit(profile: db.profile(named: nil)?.units, plan: db.planUnits())
      try writeStandardOutput(List.render(view, units: units))
    }

    /// One tab-separated line per activity: id, date, distance, time, source, and its place in the plan.
    static func render(_ view: LogbookView, units: DistanceUnit) -> String {
      let lines = view.rows.map { run, place in
        let placed =
          switch place {
          case .planned(let id, let partial): partial ? "\(id) (partial)" : id
          case .unplanned: "unplanned"
          case .crossTraining(let minutes): "cross-training: \(terminalSafe(run.sport.name)), \(minutes) min"
          }
        return "\(run.id ?? 0)\t\(run.date)\t\(units.format(run.distance))\t\(formatRaceTime(run.durationSeconds))\t"
          + "\(run.source.rawValue)\t\(placed)"
      }
      return lines.isEmpty ? "no runs logged yet\n" : lines.joined(separator: "\n") + "\n"
    }
  }

  struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "delete", abstract: "Delete a logged run by id (see `runmate log list`).")
    @Argument(help: "The run's id.") var id: Int64
    @OptionGroup var database: DatabaseOptions

    func run() throws {
      let db = try database.open()
      let removed = try db.deleteRun(id: id)
      let units = try db.runnerUnit()
      try writeStandardOutput(
        "removed run \(id): \(removed.date.shortLabel), \(units.format(removed.distance))\n")
    }
  }
}
