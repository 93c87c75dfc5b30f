import Activity
import Foundation
import Logbook
import PlanEngine
import RunningCore
import TrainingDomain

/// Why an activity read from a file is no run to store: one line for the runner, starting with the file's name
/// (`flat.gpx (Sat 1 Jun): no duration (under a second from the first point to the last)`).
public struct UnusableActivity: Error, Sendable, Hashable, CustomStringConvertible {
  /// The line to show.
  public var description: String
  /// True when the file holds something impossible (a run after today: the device's clock is wrong), not merely no
  /// run: the import lists it with the refused files.
  public var isImpossible: Bool

  /// A refusal worded `description`.
  public init(_ description: String, isImpossible: Bool = false) {
    self.description = description
    self.isImpossible = isImpossible
  }
}

/// An activity summary (GPX, TCX, or any format Activity reads) as a completed run on its local day in `calendar`'s
/// time zone: distance, elapsed and moving time, heart rate and climb from the file, `title` (a name such as
/// Strava's) as the run's note.
/// - Parameters:
///   - summary: What the file's reader made of the activity.
///   - file: The name to store and show (the file's last path component, or a member's).
///   - title: The activity's name from an index (Strava's `activities.csv`), stored as the note; nil for none.
///   - calendar: A Gregorian calendar in the runner's time zone.
///   - today: The runner's today: a run dated after it is a device clock gone wrong.
///   - sport: ``Sport/run`` for a run; another sport (`cycling`) stores the activity as cross-training
///     (`import --all-sports`), never counted as a run.
/// - Throws: ``UnusableActivity`` when the activity has no date, distance or duration, is dated after today, or
///   holds a value the logbook would refuse (see `Completion.validated()`).
public func activityRun(
  _ summary: ActivitySummary, file: String, title: String? = nil, calendar: Calendar, today: CivilDate,
  sport: Sport = .run
) throws(UnusableActivity) -> Completion {
  guard let date = CivilDate(summary.start, in: calendar) else {
    throw UnusableActivity("\(file): its date cannot be read")
  }
  guard date <= today else {
    throw UnusableActivity(
      "\(file): the run is dated \(date), after today (\(today)); check the device's clock", isImpossible: true)
  }
  guard summary.distanceMeters > 0 else {
    throw UnusableActivity(
      "\(file) (\(date.shortLabel)): no distance (fewer than two points with a position)")
  }
  guard summary.elapsedSeconds >= 1 else {
    throw UnusableActivity(
      "\(file) (\(date.shortLabel)): no duration (under a second from the first point to the last)")
  }
  var heartRate: Int?
  if let value = summary.averageHeartRate {
    guard let bpm = Int(exactly: value.rounded()) else {
      throw UnusableActivity("\(file) (\(date.shortLabel)): average heart rate \(value) bpm (allowed 25 to 250 bpm)")
    }
    heartRate = bpm
  }
  let run = Completion(
    date: date, startedAt: summary.start, distanceKm: summary.distanceMeters / 1000,
    durationSeconds: summary.elapsedSeconds, movingSeconds: summary.movingSeconds > 0 ? summary.movingSeconds : nil,
    averageHeartRate: heartRate, elevationGainMeters: summary.elevationGainMeters,
    note: title.flatMap { $0.isEmpty ? nil : $0 },
    // A format the logbook has no word for yet (FIT) is stored under the nearest one, TCX.
    source: Completion.Source(rawValue: summary.format.rawValue) ?? .manual, sourceFile: file, sport: sport,
    // Efforts measured on the track's path; one longer than the distance stored (laps or the session's total) or
    // not within the time stored is left out, and cross-training keeps none (a ride's 10 km is no running record).
    bestEfforts: sport.isRun
      ? (summary.bestEfforts ?? []).filter {
        $0.distanceMeters <= summary.distanceMeters + 0.5 && $0.startOffsetSeconds >= 0
          && $0.startOffsetSeconds + $0.seconds <= summary.elapsedSeconds + 0.5
      } : [])
  do {
    return try run.validated()
  } catch {
    throw UnusableActivity("\(file) (\(date.shortLabel)): \(error)")
  }
}

extension Sport {
  /// The sport a file or Apple Health declared: a run, or one that names no sport (taken as a run), is ``run``;
  /// another is that sport (`cycling`, `strength training`, or the source's own word).
  public init(_ declared: DeclaredSport) {
    switch declared {
    case .run, .undeclared: self = .run
    case .other(let name): self.init(name: name)
    }
  }
}
