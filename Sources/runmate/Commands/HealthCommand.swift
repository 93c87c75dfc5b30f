import ArgumentParser
import Foundation
import PlanEngine
import RunningCore
import Training
import TrainingDomain

/// `runmate health`: Apple Health data, imported and summarised.
struct HealthCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "health",
    abstract: "Import an Apple Health export and see daily steps, distance and energy.",
    subcommands: [Summary.self, Import.self],
    defaultSubcommand: Summary.self)

  /// Whose data, in which zone, on which day.
  struct Who: ParsableArguments {
    @Option(name: .customLong("profile"), help: "The profile (default: the default profile).") var profile: String?
    @OptionGroup var zone: ZoneOptions

    /// The runner (``TrainingStore/healthRunner(profile:zone:systemZone:)``).
    func resolve(_ db: any TrainingStore) throws -> HealthRunner {
      try db.healthRunner(profile: profile, zone: zone.timeZone, systemZone: TimeZone.current.identifier)
    }

    /// The runner's today, in their zone.
    func today(of runner: HealthRunner) throws -> CivilDate { try zone.clock.today(inZone: runner.zone.identifier) }
  }

  struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import",
      abstract: "Import export.zip, export.xml (any size, streamed) or a CSV of date,steps,distance_km,active_kcal.")
    @Argument(help: "The export file.", completion: .file(extensions: ["zip", "xml", "csv"])) var file: String
    @OptionGroup var plan: PlanSelection
    @Flag(
      name: .long,
      help: "Also store workouts of other types with a distance (cycling, swimming, walking) as cross-training.")
    var allSports = false
    @OptionGroup var who: Who
    @OptionGroup var database: DatabaseOptions

    func run() throws {
      _ = try who.zone.clock.today()  // a bad --now is refused before the database is opened (or created)
      let db = try database.open()
      let runner = try who.resolve(db)
      guard FileManager.default.fileExists(atPath: file) else {
        throw CLIError.unreadable(path: file, reason: "no such file")
      }
      let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value ?? 0
      // A workout after today (in the runner's zone) is a device clock gone wrong: left out, as `import` and `log`
      // refuse such a run.
      let report = try ProgressBar.showing(counting: nil) { (bar: ProgressBar?) -> HealthImportReport in
        try db.importHealthExport(
          at: URL(fileURLWithPath: file), profile: runner.name, zone: runner.zone, today: try who.today(of: runner),
          planName: plan.name, allSports: allSports, progress: bar?.updates(of: size))
      }
      try writeStandardOutput(render(report, units: runner.units))
    }

    /// What the import did, in lines.
    func render(_ report: HealthImportReport, units: DistanceUnit) -> String {
      let (data, result) = (report.data, report.result)
      var lines = [
        "imported \(file): \(data.recordCount) records, \(result.newDays) new days, \(result.updatedDays) "
          + "updated, \(result.newMeasures) new measurements, \(result.newRuns) new runs"
          + (allSports ? ", \(result.runs.added.count - result.newRuns) new cross-training" : "")
      ]
      if data.skippedRecords > 0 {
        let records = data.skippedRecords == 1 ? "1 record" : "\(data.skippedRecords) records"
        lines.append(
          "skipped \(records) whose date, value or unit could not be read (missing, negative or not a number)")
      }
      if !data.skippedWorkouts.isEmpty {
        let count = data.skippedWorkouts.count
        let shown = data.skippedWorkouts.prefix(3).map { "\($0.activityType) of \($0.start): \($0.reason)" }
        lines.append(
          "skipped \(count == 1 ? "1 workout" : "\(count) workouts") that could not be read ("
            + shown.joined(separator: "; ") + (count > 3 ? "; …" : "") + ")")
      }
      let withoutDistance = report.withoutDistance
      if !withoutDistance.isEmpty {
        let count = withoutDistance.count == 1 ? "1 running workout" : "\(withoutDistance.count) running workouts"
        let days =
          withoutDistance.prefix(3).map(\.shortLabel).joined(separator: ", ")
          + (withoutDistance.count > 3 ? ", …" : "")
        lines.append("skipped \(count) without a distance (\(days)): log each with `runmate log DATE --distance …`")
      }
      if let last = report.afterToday.max() {
        let count = report.afterToday.count == 1 ? "1 workout" : "\(report.afterToday.count) workouts"
        lines.append(
          "skipped \(count) dated after today (\(report.today), the latest \(last)): check the device's clock")
      }
      if let summary = matchSummary(result.runs, plan: report.plan) { lines.append(summary) }
      let merged = result.runs.twins.filter(\.merged)
      for twin in merged.prefix(5) {
        lines.append("run on \(twin.candidate.date.shortLabel): " + twinDescription(twin, units: units))
      }
      if merged.count > 5 { lines.append("and \(merged.count - 5) more runs merged with runs logged by hand") }
      if let best = report.newBestDay {
        lines.append("New best day: \(wholeNumber(best.steps)) steps on \(best.date.shortLabel)! 🎉")
      }
      return lines.joined(separator: "\n") + "\n"
    }
  }

  struct Summary: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "summary",
      abstract: "Today, the last 7 days, the best day, the activity level.")
    @OptionGroup var who: Who
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
      let db = try database.open()
      let runner = try who.resolve(db)
      let view = try db.healthOverview(of: runner, today: try who.today(of: runner))
      if output.format == .json { return try writeStandardOutput(JSONOutput.encode(view)) }
      try writeStandardOutput(Summary.render(view))
    }

    /// The summary as lines: today, the last 7 days' steps as bars, the best day, the activity level.
    static func render(_ view: HealthOverview) -> String {
      guard view.hasData else { return "no health data yet: `runmate health import export.zip`\n" }
      let (summary, units, today) = (view.summary, view.units, view.today)
      var lines: [String] = []
      if let t = summary.todayTotals {
        lines.append(
          "Today, \(today.shortLabel): \(wholeNumber(t.steps)) steps, \(units.format(t.distanceKm)), "
            + "\(wholeNumber(t.activeEnergyKcal)) kcal")
      } else {
        lines.append("Today, \(today.shortLabel): no data yet")
      }
      lines.append("")
      lines.append("Last 7 days (steps):")
      for (day, share) in view.lastSevenDays {
        lines.append(
          "  \(pad(day.date.shortLabel, 11)) "
            + String(repeating: "█", count: Int((share * 40).rounded())) + " \(wholeNumber(day.steps))")
      }
      lines.append("")
      if let best = summary.bestDay {
        lines.append(
          "Best day: \(wholeNumber(best.steps)) steps on \(best.date.shortLabel) \(best.date.year)"
            + (summary.newBest ? " (new!)" : ""))
      }
      lines.append(
        "Activity level: \(summary.activityLevel.rawValue) (\(wholeNumber(summary.averageSteps7)) steps a day this week; "
          + "28-day average \(wholeNumber(summary.averageSteps28)), 30-day \(wholeNumber(summary.averageSteps30)))")
      return lines.joined(separator: "\n") + "\n"
    }
  }
}
