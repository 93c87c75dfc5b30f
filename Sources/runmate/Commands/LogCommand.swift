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
    @Option(
      name: .long, help: ArgumentHelp("The saved plan it counts for (default: the active plan).", valueName: "name"))
    var plan: String?
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
      let completion = undo ? nil : try parsedCompletion(today: try clock.today(inZone: zone), units: units)
      let db = try existing ?? database.open()
      guard let completion else {
        let removed = try db.undoLastCompletion()
        try writeStandardOutput(
          "removed run \(removed.id ?? 0): \(removed.date.shortLabel), \(units.format(removed.distanceKm))\n")
        return
      }
      let lines = try db.addRuns([completion], plan: plan).logLines(units: units)
      try writeStandardOutput(lines.map { $0 + "\n" }.joined())
    }

    func parsedCompletion(today: CivilDate, units: DistanceUnit) throws -> Completion {
      let day = try date.map { try SettingValues.spokenDate($0, option: "DATE", today: today) } ?? today
      guard day <= today else {
        throw CLIError.invalidOption(
          option: "DATE", value: day.description,
          allowed: "today (\(today)) or earlier: runs are logged after they happen", suggestion: nil)
      }
      guard let distanceText = distance else {
        throw CLIError.missingOption(option: "--distance", allowed: "a distance such as 8.2km or 5mi")
      }
      // A race's name (`half`, `mile`), else a distance such as 3mi or 5km; a bare number is the runner's unit.
      let race =
        RaceDistance(parsing: distanceText)?.kilometers
        ?? (distanceText.lowercased() == "mile" ? Distance.kilometersPerMile : nil)
      let km = try race ?? OptionValues.distance(distanceText, option: "--distance", range: 0.1...250, bare: units)
      guard let timeText = time else {
        throw CLIError.missingOption(option: "--time", allowed: "h:mm:ss or mm:ss")
      }
      guard let seconds = parseRaceTime(timeText), seconds > 0 else {
        throw CLIError.invalidOption(
          option: "--time", value: timeText, allowed: "h:mm:ss or mm:ss, e.g. 47:30", suggestion: nil)
      }
      let pace = seconds / km
      guard (120...1200).contains(pace) else {
        throw CLIError.invalidOption(
          option: "--time", value: timeText,
          allowed:
            "a pace between \(units.pace(secondsPerKilometer: 120)) and \(units.pace(secondsPerKilometer: 1200)) "
            + "for \(units.format(km)) (this is \(units.pace(secondsPerKilometer: pace))); check --distance and --time",
          suggestion: nil)
      }
      var workoutKind = try kind.map { try SettingValues.workoutKind($0) }
      if self.race {
        guard workoutKind == nil || workoutKind == .race else {
          throw CLIError.invalidOption(
            option: "--kind", value: kind ?? "", allowed: "race with --race (or leave --kind out)",
            suggestion: nil)
        }
        workoutKind = .race
      }
      if workoutKind == .race, let vdot = RaceEvidence.superhumanVDOT(distanceKm: km, timeSeconds: seconds) {
        throw CLIError.invalidOption(
          option: "--time", value: timeText,
          allowed: "a race time a human can run: \(units.format(km)) in \(formatRaceTime(seconds)) gives VDOT "
            + "\(oneDecimal(vdot)), above the world records (about 85); check --distance and --time",
          suggestion: nil)
      }
      if let rpe, !(1...10).contains(rpe) {
        throw CLIError.invalidOption(option: "--rpe", value: String(rpe), allowed: "1 to 10", suggestion: nil)
      }
      if let hr, !(30...230).contains(hr) {
        throw CLIError.invalidOption(
          option: "--hr", value: String(hr), allowed: "30 to 230 beats per minute", suggestion: nil)
      }
      return Completion(
        date: day, distanceKm: km, durationSeconds: seconds, kind: workoutKind, rpe: rpe,
        averageHeartRate: hr, note: note, source: .manual)
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List logged runs.")
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
      let db = try database.open()
      let runs = try db.completions()
      let others = try db.crossTraining()
      // The status of each run's workout by the one rule (the compliance bands), as `week` and `progress` show it.
      let statuses = try db.runStatuses(of: runs)
      if output.format == .json {
        _ = try output.chosenUnit()
        return try writeStandardOutput(
          JSONOutput.encode(LogJSON(runs: runs, statuses: statuses, crossTraining: others)))
      }
      let units = try output.unit(profile: db.profile(named: nil)?.units, plan: db.planUnits())
      // Runs and cross-training together by date; cross-training names its sport and minutes.
      let all = (runs + others).sorted { ($0.date, $0.id ?? 0) < ($1.date, $1.id ?? 0) }
      let lines = all.map { run in
        "\(run.id ?? 0)\t\(run.date)\t\(units.format(run.distanceKm))\t\(formatRaceTime(run.durationSeconds))\t"
          + "\(run.source.rawValue)\t"
          + (run.isRun
            ? run.workoutID.map { id in
              (run.id.flatMap { statuses[$0] } ?? (run.isPartial ? .partial : .done)) == .partial
                ? "\(id) (partial)" : id
            } ?? "unplanned"
            : "cross-training: \(terminalSafe(run.sport.name)), \(crossTrainingMinutes(run.durationSeconds)) min")
      }
      try writeStandardOutput(lines.isEmpty ? "no runs logged yet\n" : lines.joined(separator: "\n") + "\n")
    }
  }

  struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "delete", abstract: "Delete a logged run by id (see `runmate log list`).")
    @Argument(help: "The run's id.") var id: Int64
    @OptionGroup var database: DatabaseOptions

    func run() throws {
      let db = try database.open()
      let removed = try db.deleteCompletion(id: id)
      let units = try db.runnerUnit()
      try writeStandardOutput(
        "removed run \(id): \(removed.date.shortLabel), \(units.format(removed.distanceKm))\n")
    }
  }
}
