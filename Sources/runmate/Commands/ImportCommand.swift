import Activity
import ArgumentParser
import Foundation
import Ingest
import Logbook
import PlanEngine
import RunningCore
import Training

/// `runmate import`: runs from GPX and TCX files.
struct ImportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Import runs from GPX 1.1 and TCX files (files or folders).",
    discussion: """
      Files are streamed (memory does not grow with their size). The whole import is one transaction: a broken \
      file is reported by name and line and nothing is written. A run already in the logbook (the same file again, \
      or the GPX and the TCX of one activity, or Apple Health's record of it) is skipped; a run logged by hand the \
      same day with about the same distance and time is the same run: the file's record is kept, with the note and \
      effort you logged. New runs are matched to the plan (a run under 60 % of the planned distance is partial).
      """)

  @Argument(help: "GPX or TCX files, or folders holding them.", completion: .file(extensions: ["gpx", "tcx"]))
  var paths: [String]
  @Option(
    name: .long, help: ArgumentHelp("The saved plan they count for (default: the active plan).", valueName: "name"))
  var plan: String?
  @Option(
    name: .customLong("tz"),
    help: ArgumentHelp(
      "Time zone for the runs' days (default: the system zone).", valueName: "zone"), completion: Completions.timeZone)
  var timeZone: String?
  @OptionGroup var database: DatabaseOptions
  @OptionGroup var clock: ClockOptions

  func run() throws {
    let zoneName = timeZone ?? TimeZone.current.identifier
    guard let zone = TimeZone(identifier: zoneName) else {
      throw CLIError.invalidOption(
        option: "--tz", value: zoneName, allowed: "an IANA name such as Europe/Berlin",
        suggestion: nil)
    }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    // Read every file first: nothing is written unless all of them read.
    var found: [(file: String, summary: ActivitySummary)] = []
    // Other sports (a ride, a swim) are never runs: left out and counted by sport.
    var otherSports: [String: [String]] = [:]
    for file in try files() {
      for summary in try readActivities(at: URL(fileURLWithPath: file)) {
        let sport = DeclaredSport(summary.sport)
        if sport.isRun {
          found.append((file, summary))
        } else {
          otherSports[sport.description, default: []].append(URL(fileURLWithPath: file).lastPathComponent)
        }
      }
    }
    // A run after today is a device clock gone wrong: refused, as `log` refuses it, before anything is opened.
    let today = try clock.today(inZone: zone.identifier)
    for (file, summary) in found {
      let parts = calendar.dateComponents([.year, .month, .day], from: summary.start)
      if let year = parts.year, let month = parts.month, let day = parts.day,
        let date = CivilDate(year: year, month: month, day: day), date > today
      {
        throw CLIError.invalidData(
          path: file, reason: "the run is dated \(date), after today (\(today)); check the device's clock")
      }
    }
    let db = try database.open()
    let saved: SavedPlan? = try {
      do { return try db.plan(named: plan) } catch LogbookError.noActivePlan { return nil }
    }()
    var candidates: [Completion] = []
    // Activities that hold no run, each named with the reason (never counted as "already in the logbook").
    var unusable: [String] = []
    for (file, summary) in found {
      let parts = calendar.dateComponents([.year, .month, .day], from: summary.start)
      let name = URL(fileURLWithPath: file).lastPathComponent
      guard let year = parts.year, let month = parts.month, let day = parts.day,
        let date = CivilDate(year: year, month: month, day: day)
      else {
        unusable.append("skipped \(terminalSafe(name)): its date cannot be read")
        continue
      }
      guard summary.distanceMeters > 0 else {
        unusable.append(
          "skipped \(terminalSafe(name)) (\(date.shortLabel)): no distance (fewer than two points with a position)")
        continue
      }
      guard summary.elapsedSeconds > 0 else {
        unusable.append(
          "skipped \(terminalSafe(name)) (\(date.shortLabel)): no duration (every point has the same time)")
        continue
      }
      let heartRate = try summary.averageHeartRate.map { value throws(LogbookError) -> Int in
        guard let bpm = Int(exactly: value.rounded()) else {
          throw .implausible(
            record: "run on \(date) (\(name))", field: "average heart rate", value: "\(value) bpm",
            allowed: "25 to 250 bpm")
        }
        return bpm
      }
      candidates.append(
        Completion(
          date: date, startedAt: summary.start, distanceKm: summary.distanceMeters / 1000,
          durationSeconds: summary.elapsedSeconds,
          movingSeconds: summary.movingSeconds > 0 ? summary.movingSeconds : nil,
          averageHeartRate: heartRate, elevationGainMeters: summary.elevationGainMeters,
          source: summary.format == .gpx ? .gpx : .tcx, sourceFile: name))
    }
    // Twins found and workouts matched inside the write transaction: two imports of the same files at once store
    // each run once.
    let slots = try plannedSlots(for: saved, in: db)
    let result = try db.ingestRuns(candidates, planID: saved?.id, slots: slots)
    let known = result.twins.filter { !$0.merged }.count
    unusable += result.skipped.map { "skipped \(terminalSafe($0.candidate.sourceFile ?? "?")): no distance or no time" }
    var lines: [String] = []
    let units = try db.profile(named: nil)?.units ?? .km
    for new in result.added {
      let run = new.run
      let matched = matchDescription(new.match, distanceKm: run.distanceKm, in: saved, units: units)
      lines.append(
        "imported \(run.sourceFile ?? "?"): \(run.date.shortLabel), \(distanceText(run.distanceKm, units)) "
          + "in \(formatRaceTime(run.durationSeconds)) "
          + "(moving \(formatRaceTime(run.movingSeconds ?? run.durationSeconds)))"
          + (matched.map { ", " + $0.prefix(1).lowercased() + $0.dropFirst() } ?? ""))
    }
    for twin in result.twins {
      lines.append("\(twin.candidate.sourceFile ?? "?"): " + twinDescription(twin, units: units))
    }
    for (sport, names) in otherSports.sorted(by: { $0.key < $1.key }) {
      let shown = names.prefix(3).map { terminalSafe($0) }.joined(separator: ", ") + (names.count > 3 ? ", …" : "")
      lines.append(
        "skipped \(names.count == 1 ? "1 activity" : "\(names.count) activities") of another sport "
          + "(\(terminalSafe(sport))): \(shown)")
    }
    lines += unusable
    let merged = result.twins.filter(\.merged).count
    lines.append(
      "\(result.added.count) imported, \(known) already in the logbook"
        + (merged > 0 ? ", \(merged) merged with a run logged by hand" : "")
        + (unusable.isEmpty ? "" : ", \(unusable.count) without a run"))
    try writeStandardOutput(lines.joined(separator: "\n") + "\n")
  }

  /// The files named, and the .gpx/.tcx files inside named folders, sorted.
  func files() throws -> [String] {
    var result: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw CLIError.unreadable(path: path, reason: "no such file")
      }
      if isDirectory.boolValue {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        result += names.filter { $0.lowercased().hasSuffix(".gpx") || $0.lowercased().hasSuffix(".tcx") }.sorted()
          .map { (path as NSString).appendingPathComponent($0) }
      } else {
        result.append(path)
      }
    }
    return result
  }
}
