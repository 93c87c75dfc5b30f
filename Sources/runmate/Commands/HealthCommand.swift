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

  /// Whose data, in which zone.
  struct Who: ParsableArguments {
    @Option(name: .customLong("profile"), help: "The profile (default: the default profile).") var profile: String?
    @Option(
      name: .customLong("tz"), help: "Time zone for days (default: the profile's, else the system's).",
      completion: Completions.timeZone) var timeZone: String?

    func resolve(_ db: any TrainingStore) throws -> (name: String, zone: TimeZone, profile: Profile?) {
      let found = try db.profile(named: profile)
      var zone = TimeZone.current
      if let timeZone {
        zone = try checkedTimeZone(timeZone)
      } else if let saved = found?.timeZone {
        zone = try checkedTimeZone(saved, origin: .saved)
      }
      return (found?.name ?? "", zone, found)
    }
  }

  struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import",
      abstract: "Import export.zip, export.xml (any size, streamed) or a CSV of date,steps,distance_km,active_kcal.")
    @Argument(help: "The export file.", completion: .file(extensions: ["zip", "xml", "csv"])) var file: String
    @Option(
      name: .long,
      help: ArgumentHelp(
        "The saved plan its runs count for (default: the active plan).",
        valueName: "name"))
    var plan: String?
    @Flag(
      name: .long,
      help: "Also store workouts of other types with a distance (cycling, swimming, walking) as cross-training.")
    var allSports = false
    @OptionGroup var who: Who
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var clock: ClockOptions

    func run() throws {
      _ = try clock.today()  // a bad --now is refused before the database is opened (or created)
      let db = try database.open()
      let (name, zone, found) = try who.resolve(db)
      guard FileManager.default.fileExists(atPath: file) else {
        throw CLIError.unreadable(path: file, reason: "no such file")
      }
      let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value ?? 0
      let bar: ProgressBar? = isatty(STDERR_FILENO) == 1 ? ProgressBar() : nil
      var progress: (@Sendable (Int64) -> Void)?
      if let bar { progress = { bar.update($0, of: size) } }
      let report: HealthImportReport
      do {
        // A workout after today (in the runner's zone) is a device clock gone wrong: left out, as `import` and
        // `log` refuse such a run.
        report = try db.importHealthExport(
          at: URL(fileURLWithPath: file), profile: name, zone: zone,
          today: try clock.today(inZone: zone.identifier), planName: plan, allSports: allSports, progress: progress)
      } catch {
        bar?.finish()
        throw error
      }
      bar?.finish()
      try writeStandardOutput(render(report, units: DistanceUnit.display(chosen: nil, profile: found?.units)))
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
    @OptionGroup var clock: ClockOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
      let db = try database.open()
      let (name, zone, found) = try who.resolve(db)
      let today = try clock.today(inZone: zone.identifier)  // the profile's local day
      let units = DistanceUnit.display(chosen: nil, profile: found?.units)
      let (summary, hasData) = try db.healthSummary(profile: name, today: today)
      if output.format == .json { return try writeStandardOutput(JSONOutput.encode(summary)) }
      guard hasData else {
        return try writeStandardOutput("no health data yet: `runmate health import export.zip`\n")
      }
      var lines: [String] = []
      if let t = summary.todayTotals {
        lines.append(
          "Today, \(today.shortLabel): \(wholeNumber(t.steps)) steps, \(units.format(t.distanceKm)), "
            + "\(wholeNumber(t.activeEnergyKcal)) kcal")
      } else {
        lines.append("Today, \(today.shortLabel): no data yet")
      }
      let top = max(1, summary.lastSevenDays.map(\.steps).max() ?? 1)
      lines.append("")
      lines.append("Last 7 days (steps):")
      for day in summary.lastSevenDays {
        let share = day.steps / top
        let width = share.isFinite ? Int((min(max(share, 0), 1) * 40).rounded()) : 0
        lines.append(
          "  \(pad(day.date.shortLabel, 11)) "
            + String(repeating: "█", count: width) + " \(wholeNumber(day.steps))")
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
      try writeStandardOutput(lines.joined(separator: "\n") + "\n")
    }
  }
}
