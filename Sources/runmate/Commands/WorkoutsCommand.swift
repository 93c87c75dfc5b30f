import ArgumentParser
import Foundation
import RunningCore
import Training

/// `runmate workouts`: the plan's runs as files for a watch (FIT workout files) or for intervals.icu (workout text).
struct WorkoutsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "workouts",
    abstract: "Write the plan's runs as FIT workout files for a watch, or as intervals.icu workout text.",
    discussion: """
      One file per run, named by date, week, day and kind (2027-01-12-W02-Tue-Tempo.fit), with warm-up, work
      (repeats as repeat steps), recovery and cool-down, and pace targets from your paces (open targets when the
      plan has none), or heart-rate targets when the profile says so (profile set --targets hr). With --garmin,
      the next days' files go straight into GARMIN/NewFiles of a Garmin watch connected over USB.

      Examples:
        runmate workouts --out watch --from 2027-01-11 --to 2027-01-17
        runmate workouts --format icu --out icu
        runmate workouts --garmin /media/$USER/GARMIN --days 7
      """)

  @Option(name: .long, help: ArgumentHelp("fit (FIT workout files) or icu (intervals.icu text).", valueName: "format"))
  var format: String = "fit"
  @Option(name: .long, help: ArgumentHelp("The folder to write the files into (created if missing).", valueName: "dir"))
  var out: String?
  @Option(
    name: .long,
    help: ArgumentHelp(
      "A Garmin watch mounted over USB: copy the next days' FIT files into its GARMIN/NewFiles.", valueName: "mount"))
  var garmin: String?
  @Option(
    name: .long, help: ArgumentHelp("With --garmin: the days from today to copy (1-60; default 7).", valueName: "n"))
  var days: Int?
  @OptionGroup var plan: PlanSelection
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The first day: YYYY-MM-DD, today, 'next monday' (default: the plan's first).", valueName: "date"))
  var from: String?
  @Option(
    name: .long,
    help: ArgumentHelp("The last day: YYYY-MM-DD, 'in 2 weeks' (default: the plan's last).", valueName: "date"))
  var to: String?
  @OptionGroup var database: DatabaseOptions
  @OptionGroup var clock: ClockOptions

  /// The days `--garmin` copies without `--days`.
  static let defaultDays = 7

  func run() throws {
    guard let chosen = WorkoutFileFormat(rawValue: format.lowercased()) else {
      throw CLIError.invalidOption(
        option: "--format", value: format, allowed: "fit or icu",
        suggestion: closestName(to: format.lowercased(), among: WorkoutFileFormat.allCases.map(\.rawValue)))
    }
    let folder = try destination(format: chosen)
    let db = try database.open()
    let saved = try plan.saved(in: db)
    // The runs on their scheduled days (moved, skipped, paused), as the calendar has them.
    let profile = try db.profile(named: nil)
    let state = try TrainingState.read(saved, db: db, profile: profile)
    let days = try window(today: try clock.today(inZone: localZone(profile: profile, state: state)))
    let files = try workoutFiles(
      of: state.plan, format: chosen, from: days.first, to: days.last, targets: stepTargets(for: profile))
    try Self.write(files, into: folder)
    try writeText(
      "Wrote \(files.count) \(chosen == .fit ? "FIT workout" : "intervals.icu workout") file(s) to \(folder)\n")
  }

  /// The folder the files go into: `--out`, or the watch's GARMIN/NewFiles (FIT only, the days from today); the
  /// options that do not go together are refused before anything is read.
  func destination(format chosen: WorkoutFileFormat) throws -> String {
    switch (out, garmin) {
    case (let out?, nil):
      if let days {
        throw CLIError.invalidOption(
          option: "--days", value: "\(days)", allowed: "--days only with --garmin (with --out, give --from and --to)",
          suggestion: nil)
      }
      return out
    case (nil, let mount?):
      guard chosen == .fit else {
        throw CLIError.invalidOption(
          option: "--format", value: format, allowed: "fit with --garmin (a watch takes FIT files)", suggestion: "fit")
      }
      guard from == nil, to == nil else {
        throw CLIError.invalidOption(
          option: from == nil ? "--to" : "--from", value: from ?? to ?? "",
          allowed: "nothing with --garmin, which copies the days from today: give --days N instead", suggestion: nil)
      }
      _ = try GarminMount.checked(days: days ?? Self.defaultDays)
      return try GarminMount.newFiles(mount: mount)
    case (.some, .some):
      throw CLIError.invalidOption(
        option: "--garmin", value: garmin ?? "", allowed: "--out DIR or --garmin MOUNT, not both", suggestion: nil)
    case (nil, nil):
      throw CLIError.missingOption(option: "--out", allowed: "--out DIR, or --garmin MOUNT for a watch over USB")
    }
  }

  /// The days whose runs are written: with --garmin, `today` and the days after it; else --from and --to (dates
  /// or words such as `today`, `next monday`; nil: the plan's first or last day).
  func window(today: CivilDate) throws -> (first: CivilDate?, last: CivilDate?) {
    if garmin != nil {
      let days = try GarminMount.window(today: today, days: days ?? Self.defaultDays)
      return (days.lowerBound, days.upperBound)
    }
    return (
      try from.map { try SettingValues.spokenDate($0, option: "--from", today: today) },
      try to.map { try SettingValues.spokenDate($0, option: "--to", today: today) }
    )
  }

  /// Writes `files` into `folder` (created if missing), each whole or not at all (a temporary file renamed).
  static func write(_ files: [WorkoutFile], into folder: String) throws {
    let manager = FileManager.default
    var isFolder: ObjCBool = false
    if manager.fileExists(atPath: folder, isDirectory: &isFolder) {
      guard isFolder.boolValue else { throw CLIError.cannotWrite(path: folder, reason: "it is a file, not a folder") }
    } else {
      do {
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
      } catch {
        throw CLIError.cannotWrite(path: folder, reason: "cannot create the folder (\(error.localizedDescription))")
      }
    }
    for file in files {
      let path = (folder as NSString).appendingPathComponent(file.name)
      let temporary = (folder as NSString).appendingPathComponent(".\(file.name).tmp")
      do {
        try Data(file.bytes).write(to: URL(fileURLWithPath: temporary))
        if manager.fileExists(atPath: path) { try manager.removeItem(atPath: path) }
        try manager.moveItem(atPath: temporary, toPath: path)
      } catch {
        try? manager.removeItem(atPath: temporary)
        throw CLIError.cannotWrite(path: path, reason: error.localizedDescription)
      }
    }
  }
}
