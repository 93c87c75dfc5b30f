import ArgumentParser
import Foundation
import PlanEngine
import RunningCore
import Training
import TrainingDomain

/// `runmate import`: runs from GPX, TCX and FIT files, gzipped or not, Strava and Garmin bulk exports, and folders.
struct ImportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Import runs from GPX, TCX and FIT files, .gz files, Strava and Garmin exports (files or folders).",
    discussion: """
      Files are streamed (memory does not grow with their size). A folder is read recursively. A zip is read as \
      a bulk export: Strava's export_NNN.zip (activities.csv names the activities and their types; rides, swims \
      and other sports are left out and counted by sport, or with --all-sports stored as cross-training) or Garmin's (zips of FIT files inside the zip). Members \
      are inflated one at a time into one private temporary folder (in $TMPDIR; the folder of a killed import is \
      removed by the next one), each deleted once read, within size and ratio limits (a zip or gzip bomb, a \
      member whose path leaves the archive, a zip nested two deep are refused).

      One file never stops the import: every file that cannot be read is listed with its reason and the rest is \
      imported, in one transaction. A run already in the logbook (the same file again, or the GPX and the TCX of \
      one activity, or Apple Health's record of it) is skipped; a run logged by hand the same day with about the \
      same distance and time is the same run: the file's record is kept, with the note and effort you logged. \
      New runs are matched to the plan (a run under 80 % of the planned distance is partial).

      Other sports (a TCX Sport="Biking", a GPX <type> of cycling, Strava's ride and swim types, a FIT sport) are \
      skipped and counted by sport; with --all-sports they are stored as cross-training (the sport, distance and \
      minutes), shown by `log list`, `week` and `report`, never counted as running and never matched to the plan.

      Exit status: 0 when a run was imported or was already in the logbook (or no file held anything refused); \
      65 when files were refused and none held a run (nothing importable); 66 when a path does not exist.
      """)

  @Argument(
    help: "GPX, TCX or FIT files (also .gz), zips (Strava, Garmin), or folders holding them.",
    completion: .file(extensions: ["gpx", "tcx", "fit", "gz", "zip"]))
  var paths: [String]
  @OptionGroup var plan: PlanSelection
  @OptionGroup var zone: ZoneOptions
  @Flag(
    name: .long,
    help: "Store activities of other sports (cycling, swimming, walking, …) as cross-training instead of skipping them."
  )
  var allSports = false
  @OptionGroup var database: DatabaseOptions

  func run() throws {
    let store = database.exists ? try database.open() : nil
    let zone = try runnerZone(
      given: self.zone.timeZone, profile: try store?.profile(named: nil), systemZone: TimeZone.current.identifier)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    // A run after today is a device clock gone wrong: refused, as `log` refuses it.
    let today = try self.zone.clock.today(inZone: zone.identifier)
    // Every file is read first; then all runs are written in one transaction.
    let found = try ProgressBar.showing(counting: "files") { bar in
      try readActivityFiles(paths, calendar: calendar, today: today, allSports: allSports) { done, total in
        bar?.update(Int64(done), of: Int64(total))
      }
    }
    let outcome = try found.add(to: { try store ?? database.open() }, plan: plan.name)
    try writeStandardOutput(ImportReport(found: found, outcome: outcome).lines.joined(separator: "\n") + "\n")
    if let reason = found.nothingImported { throw CLIError.nothingImported(reason: terminalSafe(reason)) }
  }
}

/// What `import` prints: each new run with its match, each twin, the new fastest times, what was skipped or refused,
/// and the counts.
struct ImportReport {
  let found: ActivityFiles
  /// What storing the runs did; nil when the files held none.
  let outcome: RunsAdded?

  var lines: [String] {
    var unusable = found.unusable.map { "skipped " + terminalSafe($0) }
    let refused = found.refused.map { "refused " + terminalSafe($0) }
    var lines: [String] = []
    var added = 0
    var known = 0
    var merged = 0
    if let outcome {
      let (saved, result, units) = (outcome.plan, outcome.result, outcome.units)
      added = result.added.count
      known = result.twins.filter { !$0.merged }.count
      merged = result.twins.filter(\.merged).count
      unusable += result.skipped.map {
        "skipped \(terminalSafe($0.candidate.sourceFile ?? "?")): no distance or no time"
      }
      for new in result.added {
        let run = new.run
        guard run.isRun else {
          lines.append(
            "imported \(terminalSafe(run.sourceFile ?? "?")) as cross-training (\(terminalSafe(run.sport.name))): "
              + "\(run.date.shortLabel), \(units.format(run.distance)) in \(formatRaceTime(run.durationSeconds))"
          )
          continue
        }
        let matched = matchDescription(new.match, distanceKm: run.distanceKm, in: saved, units: units)
        lines.append(
          "imported \(terminalSafe(run.sourceFile ?? "?"))"
            + (run.note.map { " (\(terminalSafe($0)))" } ?? "")
            + ": \(run.date.shortLabel), \(units.format(run.distance)) "
            + "in \(formatRaceTime(run.durationSeconds)) "
            + "(moving \(formatRaceTime(run.movingSeconds ?? run.durationSeconds)))"
            + (matched.map { ", " + $0.prefix(1).lowercased() + $0.dropFirst() } ?? ""))
      }
      for twin in result.twins {
        lines.append("\(terminalSafe(twin.candidate.sourceFile ?? "?")): " + twinDescription(twin, units: units))
      }
      // Records measured inside the new tracks (their fastest 5 km, 10 km, half), as `log` announces a race's.
      for news in outcome.newFastest {
        lines.append("New personal best: \(news)!")
      }
    }
    var others = 0
    for (sport, names) in found.otherSports.sorted(by: { $0.key < $1.key }) {
      others += names.count
      let shown = names.prefix(3).map { terminalSafe($0) }.joined(separator: ", ") + (names.count > 3 ? ", …" : "")
      lines.append(
        "skipped \(names.count == 1 ? "1 activity" : "\(names.count) activities") of another sport "
          + "(\(terminalSafe(sport))): \(shown)")
    }
    lines += unusable
    lines += refused
    if found.withoutFile > 0 {
      lines.append(
        "skipped \(found.withoutFile) \(found.withoutFile == 1 ? "activity" : "activities") of activities.csv "
          + "without a file (entered by hand on Strava)")
    }
    lines.append(
      "\(added) imported, \(known) already in the logbook"
        + (merged > 0 ? ", \(merged) merged with a run logged by hand" : "")
        + (unusable.isEmpty ? "" : ", \(unusable.count) without a run")
        + (others > 0 ? ", \(others) of other sports" : "")
        + (refused.isEmpty ? "" : ", \(refused.count) \(refused.count == 1 ? "file" : "files") refused"))
    return lines
  }
}
