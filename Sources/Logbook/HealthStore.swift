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
    for day in days { _ = try day.validated() }
    for measure in measures { _ = try measure.validated() }
    for run in runs { _ = try run.validated() }
    do {
      return try writer.write { db in
        var result = HealthImportResult(newDays: 0, updatedDays: 0, newMeasures: 0, newRuns: 0)
        var rows = 0
        func wroteRow() {
          rows += 1
          afterRowWritten?(rows)
        }
        result.previousBestSteps =
          try Double.fetchOne(
            db, sql: "SELECT MAX(steps) FROM healthDay WHERE profile = ?",
            arguments: [profile]) ?? 0
        for day in days {
          let existing = try Row.fetchOne(
            db, sql: "SELECT steps, distanceKm, activeKcal FROM healthDay WHERE profile = ? AND date = ?",
            arguments: [profile, day.date.description])
          if let existing {
            let same =
              abs((existing["steps"] as Double) - day.steps) < 1e-6
              && abs((existing["distanceKm"] as Double) - day.distanceKm) < 1e-6
              && abs((existing["activeKcal"] as Double) - day.activeEnergyKcal) < 1e-6
            if same { continue }
            result.updatedDays += 1
          } else {
            result.newDays += 1
          }
          try db.execute(
            sql: """
              INSERT INTO healthDay (profile, date, steps, distanceKm, activeKcal) VALUES (?, ?, ?, ?, ?)
              ON CONFLICT(profile, date) DO UPDATE SET steps = excluded.steps, distanceKm = excluded.distanceKm,
                activeKcal = excluded.activeKcal
              """, arguments: [profile, day.date.description, day.steps, day.distanceKm, day.activeEnergyKcal])
          wroteRow()
        }
        for measure in measures {
          try db.execute(
            sql: "INSERT OR IGNORE INTO healthMeasure (profile, kind, date, value) VALUES (?, ?, ?, ?)",
            arguments: [profile, measure.kind.rawValue, measure.date, measure.value])
          result.newMeasures += db.changesCount
          wroteRow()
        }
        let added = try LogbookDatabase.ingestRuns(runs, planID: planID, slots: slots, in: db, wroteRow: wroteRow)
        result.newRuns = added.added.filter(\.run.isRun).count
        result.skippedRuns = added.twins.count + added.skipped.count
        result.runs = added
        return result
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
