import Foundation
import Ingest
import RunningCore

// What every engine behind ``TrainingStore`` decides the same way, written once: profile lookups, the coach checks,
// how schedule settings are stored, and what a health import changes.

extension TrainingStore {
  /// None: an engine without cheap row versions works every roster row out (SQLite, one runner's file).
  public func rosterFingerprints(ofCoach coach: String, runsFrom from: CivilDate) throws(LogbookError)
    -> [String: String]?
  { nil }

  /// The profile named `name`, or the default one when `name` is nil (nil when there is none).
  /// - Throws: ``LogbookError/noSuchProfile(name:known:)`` when no profile has that name.
  public func profile(named name: String?) throws(LogbookError) -> Profile? {
    let all = try profiles()
    guard let name else { return all.first { $0.isDefault } }
    guard let found = all.first(where: { $0.name == name }) else {
      throw .noSuchProfile(name: name, known: all.map(\.name))
    }
    return found
  }

  /// The profile named `name`, or the default one when `name` is nil; for a command that needs one.
  /// - Throws: ``LogbookError/noSuchProfile(name:known:)`` when no profile has that name,
  ///   ``LogbookError/noDefaultProfile(known:)`` when none is named and none is the default.
  public func requiredProfile(named name: String?) throws(LogbookError) -> Profile {
    guard let found = try profile(named: name) else { throw .noDefaultProfile(known: try profiles().map(\.name)) }
    return found
  }

  /// The error for a profile not found: the name not there, or no default one when none was named.
  public static func missingProfile(named name: String?, known: [String]) -> LogbookError {
    name.map { .noSuchProfile(name: $0, known: known) } ?? .noDefaultProfile(known: known)
  }

  /// The stored ids of a coach and an athlete about to be linked (``addAthlete(_:toCoach:)``).
  /// - Throws: ``LogbookError/noSuchProfile(name:known:)`` for either name, ``LogbookError/notACoach(name:)`` when
  ///   `coach` is not one.
  public func coachLink(athlete: String, coach: String) throws(LogbookError) -> (coachID: Int64, athleteID: Int64) {
    guard let coachProfile = try profile(named: coach), let coachID = coachProfile.id else {
      throw .noSuchProfile(name: coach, known: try profiles().map(\.name))
    }
    guard coachProfile.isCoach else { throw .notACoach(name: coach) }
    guard let athleteProfile = try profile(named: athlete), let athleteID = athleteProfile.id else {
      throw .noSuchProfile(name: athlete, known: try profiles().map(\.name))
    }
    return (coachID, athleteID)
  }
}

extension ScheduleSettings {
  /// The settings as a store keeps them: JSON with sorted keys.
  public func storedJSON() throws(LogbookError) -> String {
    do {
      let encoder = JSONEncoder()
      encoder.outputFormatting = .sortedKeys
      return String(decoding: try encoder.encode(self), as: UTF8.self)
    } catch {
      throw .database(detail: "cannot encode the schedule settings: \(error)")
    }
  }

  /// The settings a store kept for the plan `planID` (``storedJSON()``).
  public init(storedJSON json: String, ofPlan planID: String) throws(LogbookError) {
    do {
      self = try JSONDecoder().decode(ScheduleSettings.self, from: Data(json.utf8))
    } catch {
      throw .database(detail: "the schedule settings of plan \(planID) cannot be read: \(error)")
    }
  }
}

/// The reads and writes an engine gives ``applyHealthImport(days:measures:runs:profile:planID:slots:to:wroteRow:)``,
/// inside its one write transaction.
public protocol HealthWrites: IngestWrites {
  /// The best daily step count stored for `profile` (nil when none).
  func bestSteps(profile: String) throws -> Double?
  /// The totals stored for `profile` on `date`, if any.
  func storedDay(profile: String, date: CivilDate) throws -> HealthDay?
  /// Stores `day` for `profile`, replacing the totals of that day.
  func upsert(_ day: HealthDay, profile: String) throws
  /// Stores `measure` for `profile` unless one of its kind is stored for that instant; true when it was new.
  func insertIfNew(_ measure: BodyMeasure, profile: String) throws -> Bool
}

/// Checks an import before anything of it is written.
/// - Throws: ``LogbookError/implausible(record:field:value:allowed:)`` naming the first impossible value.
public func validateHealthImport(days: [HealthDay], measures: [BodyMeasure], runs: [Completion]) throws(LogbookError) {
  for day in days { _ = try day.validated() }
  for measure in measures { _ = try measure.validated() }
  for run in runs { _ = try run.validated() }
}

/// Applies a health import inside the caller's write transaction: days upserted (an export holds the whole history,
/// so a newer one replaces a day's totals; an unchanged day is not written), new measures added, runs added as
/// ``applyIngest(_:planID:slots:to:wroteRow:)`` does. `wroteRow` is called after each row written.
public func applyHealthImport(
  days: [HealthDay], measures: [BodyMeasure], runs: [Completion], profile: String, planID: String?,
  slots: [PlannedSlot], to store: some HealthWrites, wroteRow: () -> Void
) throws -> HealthImportResult {
  var result = HealthImportResult(newDays: 0, updatedDays: 0, newMeasures: 0, newRuns: 0)
  result.previousBestSteps = try store.bestSteps(profile: profile) ?? 0
  for day in days {
    if let existing = try store.storedDay(profile: profile, date: day.date) {
      let same =
        abs(existing.steps - day.steps) < 1e-6 && abs(existing.distanceKm - day.distanceKm) < 1e-6
        && abs(existing.activeEnergyKcal - day.activeEnergyKcal) < 1e-6
      if same { continue }
      result.updatedDays += 1
    } else {
      result.newDays += 1
    }
    try store.upsert(day, profile: profile)
    wroteRow()
  }
  for measure in measures {
    if try store.insertIfNew(measure, profile: profile) { result.newMeasures += 1 }
    wroteRow()
  }
  let added = try applyIngest(runs, planID: planID, slots: slots, to: store, wroteRow: wroteRow)
  result.newRuns = added.added.filter(\.run.isRun).count
  result.skippedRuns = added.twins.count + added.skipped.count
  result.runs = added
  return result
}
