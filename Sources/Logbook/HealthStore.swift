import Foundation
import GRDB
import Ingest
import PlanEngine
import RunningCore
import TrainingDomain

extension LogbookDatabase {
  /// Stores an import in one transaction: days upserted (an export holds the whole history, so a newer one
  /// replaces a day's totals), new measures added, and runs added as ``ingestRuns(_:planID:slots:)`` does (a run
  /// already in the logbook, from an earlier import, a GPX file or logged by hand, is one run; new runs matched to
  /// `slots`). Killed midway, nothing of it is kept.
  ///
  /// - Throws: ``LogbookError/implausible(record:field:value:allowed:)`` before anything is written when a value is
  ///   impossible.
  public func saveHealth(
    days: [HealthDay], measures: [BodyMeasure], runs: [Completion], profile: String,
    planID: String? = nil, slots: [PlannedSlot] = []
  ) throws(LogbookError) -> HealthImportResult {
    try validateHealthImport(days: days, measures: measures, runs: runs)
    do {
      return try writer.write { db in
        var rows = 0
        return try applyHealthImport(
          days: days, measures: measures, runs: runs, profile: profile, planID: planID, slots: slots,
          to: SQLiteIngestWrites(db: db)
        ) {
          rows += 1
          afterRowWritten?(rows)
        }
      }
    } catch {
      throw LogbookDatabase.describe(error, path: path)
    }
  }

  /// Every stored day of `profile`, by date.
  public func healthDays(profile: String) throws(LogbookError) -> [HealthDay] {
    do {
      return try writer.read { db in
        try Row.fetchAll(
          db, sql: "SELECT date, steps, distanceKm, activeKcal FROM healthDay WHERE profile = ? ORDER BY date",
          arguments: [profile]
        ).compactMap { row -> HealthDay? in
          guard let date = CivilDate(iso: row["date"]) else { return nil }
          return HealthDay(
            date: date, steps: row["steps"], distanceKm: row["distanceKm"], activeEnergyKcal: row["activeKcal"])
        }
      }
    } catch {
      throw LogbookDatabase.describe(error, path: path)
    }
  }

  /// The latest measure of `kind` for `profile`.
  public func latestMeasure(kind: MeasureKind, profile: String) throws(LogbookError) -> BodyMeasure? {
    do {
      return try writer.read { db in
        try Row.fetchOne(
          db, sql: "SELECT date, value FROM healthMeasure WHERE profile = ? AND kind = ? ORDER BY date DESC LIMIT 1",
          arguments: [profile, kind.rawValue]
        ).map { BodyMeasure(kind: kind, date: $0["date"], value: $0["value"]) }
      }
    } catch {
      throw LogbookDatabase.describe(error, path: path)
    }
  }

  /// The best step count of `profile` before `date` (to celebrate a new best after an import).
  public func bestStepsBefore(_ date: CivilDate, profile: String) throws(LogbookError) -> Double {
    do {
      return try writer.read { db in
        try Double.fetchOne(
          db, sql: "SELECT MAX(steps) FROM healthDay WHERE profile = ? AND date < ?",
          arguments: [profile, date.description]) ?? 0
      }
    } catch {
      throw LogbookDatabase.describe(error, path: path)
    }
  }
}

extension SQLiteIngestWrites: HealthWrites {
  func bestSteps(profile: String) throws -> Double? {
    try Double.fetchOne(db, sql: "SELECT MAX(steps) FROM healthDay WHERE profile = ?", arguments: [profile])
  }

  func storedDay(profile: String, date: CivilDate) throws -> HealthDay? {
    try Row.fetchOne(
      db, sql: "SELECT steps, distanceKm, activeKcal FROM healthDay WHERE profile = ? AND date = ?",
      arguments: [profile, date.description]
    ).map {
      HealthDay(date: date, steps: $0["steps"], distanceKm: $0["distanceKm"], activeEnergyKcal: $0["activeKcal"])
    }
  }

  func upsert(_ day: HealthDay, profile: String) throws {
    try db.execute(
      sql: """
        INSERT INTO healthDay (profile, date, steps, distanceKm, activeKcal) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT(profile, date) DO UPDATE SET steps = excluded.steps, distanceKm = excluded.distanceKm,
          activeKcal = excluded.activeKcal
        """, arguments: [profile, day.date.description, day.steps, day.distanceKm, day.activeEnergyKcal])
  }

  func insertIfNew(_ measure: BodyMeasure, profile: String) throws -> Bool {
    try db.execute(
      sql: "INSERT OR IGNORE INTO healthMeasure (profile, kind, date, value) VALUES (?, ?, ?, ?)",
      arguments: [profile, measure.kind.rawValue, measure.date, measure.value])
    return db.changesCount > 0
  }
}
