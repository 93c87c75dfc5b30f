import Foundation
import PlanEngine
import PostgresNIO
import TrainingDomain

extension PostgresLogbook {
  /// Saves `plan` as athlete `athleteID`'s plan, with its schedule, and records `action` in the audit log, in one
  /// transaction (``TrainingStore/saveAthletePlan(_:name:schedule:athleteID:by:action:detail:takingOver:at:)``).
  public func saveAthletePlan(
    _ plan: Plan, name: String, schedule: (settings: ScheduleSettings?, workouts: [DatedWorkout]), athleteID: Int64,
    by account: Account, action: AuditEntry.Action, detail: String, takingOver: RunTakeover?, at now: Date
  ) throws(LogbookError) -> SavedPlan {
    let settings = try schedule.settings?.storedJSON()
    let planJSON = try Self.json(plan, what: "plan")
    return try write { tx in
      if let other = try tx.value("SELECT id FROM plan WHERE name = \(name)", as: String.self), other != plan.id {
        throw LogbookError.planNameTaken(name: name)
      }
      let active =
        try tx.value("SELECT active FROM plan WHERE id = \(plan.id)", as: Bool.self)
        ?? (try tx.value("SELECT count(*) FROM plan", as: Int64.self) == 0)
      try tx.execute(
        """
        INSERT INTO plan (id, name, active, savedAt, planJSON) VALUES (\(plan.id), \(name), \(active), \(stored(now)),
          \(planJSON))
        ON CONFLICT (id) DO UPDATE SET name = excluded.name, savedAt = excluded.savedAt, planJSON = excluded.planJSON
        """)
      try Self.storeSchedule(planID: plan.id, json: settings, workouts: schedule.workouts, in: tx)
      try tx.execute(
        """
        UPDATE plan SET profileID = CASE WHEN id = \(plan.id) THEN \(athleteID) ELSE NULL END
        WHERE id = \(plan.id) OR profileID = \(athleteID)
        """)
      if let takingOver { _ = try takeOverRuns(takingOver, planID: plan.id, to: PostgresPushWrites(tx: tx)) }
      let athlete = try tx.value("SELECT name FROM profile WHERE id = \(athleteID)", as: String.self)
      try Self.audit(
        tx, account: account, action: action, athleteID: athleteID, athlete: athlete, detail: detail, at: now)
      return SavedPlan(id: plan.id, name: name, active: active, savedAt: now, plan: plan)
    }
  }
}
