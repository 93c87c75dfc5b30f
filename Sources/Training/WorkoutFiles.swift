import Activity
import CalendarExport
import Foundation
import PlanEngine
import RunningCore
import TrainingDomain

/// The format of `runmate workouts`: FIT workout files for a watch, or intervals.icu workout text.
public enum WorkoutFileFormat: String, Sendable, CaseIterable {
  case fit, icu

  /// The file name extension.
  public var fileExtension: String { self == .fit ? "fit" : "txt" }
}

/// One file `runmate workouts` writes: its name (no folder) and its bytes.
public struct WorkoutFile: Sendable, Hashable {
  /// `2027-01-12-W02-Tue-Tempo.fit`.
  public var name: String
  /// The plan workout's id.
  public var workoutID: String
  /// The file's content.
  public var bytes: [UInt8]
}

/// Why a workout cannot be written as a file.
public enum WorkoutFileError: FieldError, Sendable, Hashable {
  /// The workout has more steps (repeats folded) than a watch takes.
  case tooManySteps(workout: String, count: Int, maximum: Int)
  /// A step (1-based) lasts no time and no distance, or is done zero times.
  case emptyStep(workout: String, step: Int)
  /// A step's pace is not `m:ss/km` or `m:ss-m:ss/km`.
  case badPace(workout: String, step: Int, pace: String)
  /// `--from` is after `--to`.
  case badRange(from: CivilDate, to: CivilDate)
  /// `--days` out of 1 to ``GarminMount/maximumDays``.
  case badDays(Int)
  /// The folder is not a Garmin watch mounted over USB (or is missing): why.
  case notAGarminMount(path: String, reason: String)

  /// One line naming the workout, the step (or the field, named by `name`) and what is allowed.
  public func message(naming name: (InputField) -> String) -> String {
    switch self {
    case .tooManySteps(let workout, let count, let maximum):
      "workout \(workout) has \(count) steps; a watch workout holds at most \(maximum): shorten it or split it"
    case .emptyStep(let workout, let step):
      "step \(step) of workout \(workout) lasts no time and no distance (or is done 0 times): give it a duration "
        + "or a distance, or remove it"
    case .badPace(let workout, let step, let pace):
      "step \(step) of workout \(workout) has pace '\(pace)', not m:ss/km or m:ss-m:ss/km (e.g. 4:30-4:40/km)"
    case .badRange(let from, let to):
      "\(name(.from)) \(from) is after \(name(.to)) \(to): give a \(name(.from)) on or before \(name(.to))"
    case .badDays(let days):
      "\(name(.days)): '\(days)' is not valid, allowed is 1 to \(GarminMount.maximumDays) (the days from today to copy)"
    case .notAGarminMount(let path, let reason):
      "\(name(.garmin)) \(path): not a Garmin watch mounted over USB: \(reason); connect the watch and give the folder it "
        + "mounts at (e.g. /media/$USER/GARMIN)"
    }
  }
}

/// A Garmin watch mounted over USB (USB mass storage): its root holds a `GARMIN` folder with `GarminDevice.xml`,
/// the device's description, and workouts copied into `GARMIN/NewFiles` are taken in by the watch when it is
/// unplugged.
public enum GarminMount {
  /// The most days `--days` copies.
  public static let maximumDays = 60

  /// The `GARMIN/NewFiles` folder of the watch mounted at `mount` (created when the watch has none), or
  /// ``WorkoutFileError/notAGarminMount(path:reason:)`` when `mount` is missing or has no `GARMIN` folder with a
  /// `GarminDevice.xml`, or when `GARMIN` or `GARMIN/NewFiles` is a symbolic link: a watch's FAT file system has
  /// none, and one would send the files out of the mount.
  public static func newFiles(mount: String) throws(WorkoutFileError) -> String {
    let manager = FileManager.default
    func isLink(_ path: String) -> Bool {
      (try? manager.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeSymbolicLink
    }
    var isFolder: ObjCBool = false
    guard manager.fileExists(atPath: mount, isDirectory: &isFolder) else {
      throw .notAGarminMount(path: mount, reason: "no such folder")
    }
    guard isFolder.boolValue else { throw .notAGarminMount(path: mount, reason: "it is a file, not a folder") }
    let garmin = (mount as NSString).appendingPathComponent("GARMIN")
    let newFiles = (garmin as NSString).appendingPathComponent("NewFiles")
    for link in [garmin, newFiles] where isLink(link) {
      throw .notAGarminMount(
        path: mount, reason: "\((link as NSString).lastPathComponent) is a symbolic link (a watch has none)")
    }
    guard manager.fileExists(atPath: garmin, isDirectory: &isFolder), isFolder.boolValue else {
      throw .notAGarminMount(path: mount, reason: "it has no GARMIN folder")
    }
    let device = (garmin as NSString).appendingPathComponent("GarminDevice.xml")
    guard manager.fileExists(atPath: device, isDirectory: &isFolder), !isFolder.boolValue else {
      throw .notAGarminMount(path: mount, reason: "it has no GARMIN/GarminDevice.xml")
    }
    return newFiles
  }

  /// `days` when it is 1 to ``maximumDays``.
  public static func checked(days: Int) throws(WorkoutFileError) -> Int {
    guard (1...maximumDays).contains(days) else { throw .badDays(days) }
    return days
  }

  /// The days `--garmin --days N` copies: today and the N − 1 days after it.
  public static func window(today: CivilDate, days: Int) throws(WorkoutFileError) -> ClosedRange<CivilDate> {
    today...today.adding(days: try checked(days: days) - 1)
  }
}

/// The workout files of `plan`'s runs dated `from...to` (each bound optional), in date order: one FIT workout file or
/// one intervals.icu text per run (cross-training and strength are not runs and are left out).
///
/// Steps map one to one; a work step done N times with its recovery done N times becomes a repeat set of both, N
/// times; with its recovery done N − 1 times (the plan's usual "jog between"), a set of both N − 1 times and the
/// last work step after it, so the expanded steps add up to the plan's distance and time. Recoveries (jogs and
/// walks, prescribed by time) are written by time; another step by distance when its distance is whole 100 m
/// (warm-ups, 800 m or 1 km repeats, easy runs), else by time (6 min tempo bouts, 60 s hills); a long run written by
/// time is written by time throughout. Pace ranges become speed
/// targets; a single pace gets ± 5 s/km; a step without a pace (effort only, or no race given) gets an open target.
public func workoutFiles(
  of plan: Plan, format: WorkoutFileFormat, from: CivilDate? = nil, to: CivilDate? = nil,
  targets: StepTargets = .pace
) throws(WorkoutFileError) -> [WorkoutFile] {
  if let from, let to, from > to { throw .badRange(from: from, to: to) }
  var files: [WorkoutFile] = []
  var used: Set<String> = []
  for week in plan.weeks {
    for workout in week.workouts where workout.kind != .crossTraining && workout.kind != .strength {
      if let from, workout.date < from { continue }
      if let to, workout.date > to { continue }
      let stem =
        "\(workout.date)-W\(twoDigits(week.number))-\(workout.date.weekday.shortName)-"
        + workout.kind.displayName.replacingOccurrences(of: " ", with: "-")
      var name = "\(stem).\(format.fileExtension)"
      var suffix = 2
      while used.contains(name) {
        name = "\(stem)-\(suffix).\(format.fileExtension)"
        suffix += 1
      }
      used.insert(name)
      let bytes: [UInt8]
      switch format {
      case .fit: bytes = try fitWorkout(workout, week: week.number, targets: targets).encoded()
      case .icu: bytes = Array(try icuWorkout(workout, week: week.number, targets: targets).utf8)
      }
      files.append(WorkoutFile(name: name, workoutID: workout.id, bytes: bytes))
    }
  }
  return files
}

/// `W05 Tue Tempo 9.4km 3x6min`: the week, the day and the title made short, as a watch lists it (at most what
/// `wkt_name` holds).
public func watchName(_ workout: Workout, week: Int) -> String {
  var title = workout.title
  let shorter = [
    (" × ", "x"), (": ", " "), (" km", "km"), (" min", "min"), (" mi", "mi"), (" s ", "s "), (" + ", "+"),
    ("Long run", "Long"), ("at marathon pace", "@MP"), ("at goal race pace", "@RP"), ("half marathon", "half"),
    ("(about ", "~"), (")", ""),
  ]
  for (long, short) in shorter { title = title.replacingOccurrences(of: long, with: short) }
  let name = "W\(twoDigits(week)) \(workout.date.weekday.shortName) \(title)"
  return FITWorkoutFile.fitting(name, bytes: FITWorkoutFile.nameBytes)
}

/// The FIT workout file of `workout` (week `week`), created at the workout's day, 00:00 UTC.
public func fitWorkout(_ workout: Workout, week: Int, targets: StepTargets = .pace) throws(WorkoutFileError)
  -> FITWorkoutFile
{
  let blocks = try stepBlocks(workout)
  var steps: [FITWorkoutStep] = []
  func add(_ planned: PlannedStep) throws(WorkoutFileError) {
    let duration: FITStepDuration =
      planned.byTime
      ? .milliseconds(UInt32(clamping: planned.step.durationSeconds * 1000))
      : .centimeters(UInt32(clamping: Int((min(planned.step.distanceKm, 40_000) * 100_000).rounded())))
    var target = FITStepTarget.open
    if let heart = targets.heartRate(for: planned.step) {
      target = .heartRate(lowBPM: UInt32(heart.low), highBPM: UInt32(heart.high))
    } else if let range = try speedRange(planned, workout: workout.id) {
      target = .speed(lowMillimetersPerSecond: range.low, highMillimetersPerSecond: range.high)
    }
    steps.append(
      FITWorkoutStep(
        name: stepName(planned.step, in: workout), duration: duration, target: target,
        intensity: intensity(of: planned.step, in: workout)))
  }
  for block in blocks {
    switch block {
    case .single(let step): try add(step)
    case .repeated(let count, let set):
      let first = UInt16(steps.count)
      for step in set { try add(step) }
      steps.append(
        FITWorkoutStep(
          name: "Repeat \(count)x", duration: .repeatSteps(fromStep: first, count: UInt32(count)), target: .open,
          intensity: nil))
    }
  }
  if steps.count > FITWorkoutFile.maximumSteps {
    throw .tooManySteps(workout: workout.id, count: steps.count, maximum: FITWorkoutFile.maximumSteps)
  }
  let created = Int64(workout.date.dayNumber) * 86_400 - FITWorkoutFile.epochOffset
  return FITWorkoutFile(
    name: watchName(workout, week: week), timeCreated: UInt32(clamping: created), serialNumber: serial(workout.id),
    steps: steps)
}

/// The intervals.icu workout text of `workout`: a section per block (`Warmup`, `4x`, `Cooldown`), steps as
/// `- 800mtr 3:45-3:55/km Pace`, `- 6m 4:57/km Pace` or, without a pace, `- 10m Z2 Pace`; a step prescribed by heart
/// rate as `- 10m Z2 HR`.
public func icuWorkout(_ workout: Workout, week: Int, targets: StepTargets = .pace) throws(WorkoutFileError)
  -> String
{
  var sections: [String] = []
  func line(_ planned: PlannedStep) -> String {
    let step = planned.step
    let amount = planned.byTime ? icuDuration(step.durationSeconds) : icuDistance(step.distanceKm)
    let target =
      targets.heartRate(for: step).map { "Z\($0.zone) HR" } ?? step.pace.map { "\($0) Pace" }
      ?? "\(icuZone(step.zone)) Pace"
    return "- \(amount) \(target)"
  }
  for block in try stepBlocks(workout) {
    switch block {
    case .single(let planned):
      let header =
        switch planned.step.kind {
        case .warmup where workout.isEasyRunning(planned.step): ""
        case .warmup: "Warmup\n"
        case .cooldown: "Cooldown\n"
        case .work, .recovery: ""
        }
      sections.append(header + line(planned))
    case .repeated(let count, let set):
      sections.append("\(count)x\n" + set.map(line).joined(separator: "\n"))
    }
  }
  return "# \(watchName(workout, week: week))\n\n" + sections.joined(separator: "\n\n") + "\n"
}

/// The workout's steps as blocks (see ``workoutFiles(of:format:from:to:targets:)`` for the rule), each step checked:
/// a step of no time or distance, or done 0 times, is refused.
public func stepBlocks(_ workout: Workout) throws(WorkoutFileError) -> [StepBlock] {
  for (index, step) in workout.steps.enumerated() {
    let byTime = PlannedStep.byTime(step, in: workout)
    if step.repeat < 1 || (byTime ? step.durationSeconds <= 0 : step.distanceKm <= 0) {
      throw .emptyStep(workout: workout.id, step: index + 1)
    }
  }
  return workoutBlocks(workout)
}

/// The speed range (mm/s) of a step's pace, or nil when it has none.
private func speedRange(_ planned: PlannedStep, workout: String) throws(WorkoutFileError) -> (
  low: UInt32, high: UInt32
)? {
  guard let pace = planned.step.pace else { return nil }
  let fail = WorkoutFileError.badPace(workout: workout, step: planned.number, pace: pace)
  guard pace.hasSuffix("/km") else { throw fail }
  let parts = pace.dropLast(3).split(separator: "-", omittingEmptySubsequences: false)
  var seconds: [Int] = []
  for part in parts {
    let fields = part.split(separator: ":", omittingEmptySubsequences: false)
    guard fields.count == 2, let minutes = Int(fields[0]), let secs = Int(fields[1]), fields[1].count == 2,
      minutes >= 0, (0..<60).contains(secs), minutes * 60 + secs > 0
    else { throw fail }
    seconds.append(minutes * 60 + secs)
  }
  guard let fast = seconds.min(), let slow = seconds.max(), (1...2).contains(seconds.count) else { throw fail }
  let (fastest, slowest) = seconds.count == 1 ? (max(1, fast - 5), slow + 5) : (fast, slow)
  return (UInt32((1_000_000 / Double(slowest)).rounded(.down)), UInt32((1_000_000 / Double(fastest)).rounded(.up)))
}

private func stepName(_ step: WorkoutStep, in workout: Workout) -> String {
  switch step.kind {
  case .warmup: return workout.isEasyRunning(step) ? "Easy" : "Warm-up"
  case .cooldown: return "Cool-down"
  case .recovery: return step.effort.hasPrefix("walk") ? "Walk" : "Recovery"
  case .work:
    switch step.zone {
    case .easy: return "Easy"
    case .marathon: return "Marathon pace"
    case .threshold: return "Threshold"
    case .interval: return "Interval"
    case .repetition: return "Repetition"
    case .race: return "Race pace"
    }
  }
}

private func intensity(of step: WorkoutStep, in workout: Workout) -> FITStepIntensity {
  switch step.kind {
  case .warmup: workout.isEasyRunning(step) ? .active : .warmup
  case .work: .active
  case .recovery: .rest
  case .cooldown: .cooldown
  }
}

/// intervals.icu's default pace zones for a zone without a pace.
private func icuZone(_ zone: Intensity) -> String {
  switch zone {
  case .easy: "Z2"
  case .marathon: "Z3"
  case .threshold, .race: "Z4"
  case .interval: "Z5"
  case .repetition: "Z6"
  }
}

/// `45s`, `6m`, `3m30s`, `1h5m`.
private func icuDuration(_ seconds: Int) -> String {
  let (hours, minutes, secs) = (seconds / 3600, seconds % 3600 / 60, seconds % 60)
  var text = ""
  if hours > 0 { text += "\(hours)h" }
  if minutes > 0 { text += "\(minutes)m" }
  if secs > 0 || text.isEmpty { text += "\(secs)s" }
  return text
}

/// `800mtr`, `2km`, `1.5km`.
private func icuDistance(_ km: Double) -> String {
  if km < 1 { return "\(Int((km * 1000).rounded()))mtr" }
  let tenths = Int((km * 10).rounded())
  return tenths % 10 == 0 ? "\(tenths / 10)km" : "\(tenths / 10).\(tenths % 10)km"
}

private func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

/// A non-zero FNV-1a hash of the workout id: the file's serial number, the same for the same workout.
private func serial(_ id: String) -> UInt32 {
  var hash: UInt32 = 2_166_136_261
  for byte in id.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
  return hash == 0 ? 1 : hash
}

extension WorkoutFileError {
  /// A bad date range or day count is a bad input; a workout that cannot be written as steps is bad data; a folder
  /// that is not a Garmin mount is a missing input.
  public var kind: FailureKind {
    switch self {
    case .badRange, .badDays: .badInput
    case .tooManySteps, .emptyStep, .badPace: .badData
    case .notAGarminMount: .missingInput
    }
  }
}

/// The targets a runner's workouts carry: their heart-rate zones and their choice (pace, heart rate or both) from
/// the profile; by pace without a profile or zones.
public func stepTargets(for profile: Profile?) -> StepTargets {
  StepTargets(zones: profile?.heartRateZones, targets: profile?.workoutTargets ?? .pace)
}

/// The paces whose work steps are prescribed in heart-rate zone `number` (`paces` lists them beside each zone).
public func intensities(inHeartRateZone number: Int) -> [Intensity] {
  Intensity.allCases.filter { StepTargets.heartRateZone(for: $0, kind: .work) == number }
}
