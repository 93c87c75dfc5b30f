import Foundation
import GRDB
import PlanEngine
import TrainingDomain

extension LogbookDatabase {
  /// Saves `plan` as athlete `athleteID`'s plan, with its schedule, and records `action` in the audit log, in one
  /// transaction (``TrainingStore/saveAthletePlan(_:name:schedule:athleteID:by:action:detail:takingOver:at:)``).
  public func saveAthletePlan(
    _ plan: Plan, name: String, schedule: (settings: ScheduleSettings?, workouts: [DatedWorkout]), athleteID: Int64,
    by account: Account, action: AuditEntry.Action, detail: String, takingOver: RunTakeover?, at now: Date
  ) throws(LogbookError) -> SavedPlan {
    let settings = try LogbookDatabase.encode(schedule.settings)
    let workouts = schedule.workouts
    let json: String
    do {
      json = String(decoding: try JSONEncoder().encode(plan), as: UTF8.self)
    } catch {
      throw .database(detail: "cannot encode the plan: \(error)")
    }
    return try write { db in
      if let other = try PlanRecord.filter(Column("name") == name).fetchOne(db), other.id != plan.id {
        throw LogbookError.planNameTaken(name: name)
      }
      let active = try PlanRecord.fetchOne(db, key: plan.id)?.active ?? (try PlanRecord.fetchCount(db) == 0)
      try PlanRecord(id: plan.id, name: name, active: active, savedAt: now, planJSON: json).save(db)
      try LogbookDatabase.storeSchedule(planID: plan.id, json: settings, workouts: workouts, in: db)
      try db.execute(
        sql: "UPDATE plan SET profileID = CASE WHEN id = ? THEN ? ELSE NULL END WHERE id = ? OR profileID = ?",
        arguments: [plan.id, athleteID, plan.id, athleteID])
      if let takingOver { _ = try takeOverRuns(takingOver, planID: plan.id, to: SQLitePushWrites(db: db)) }
      let athlete = try String.fetchOne(db, sql: "SELECT name FROM profile WHERE id = ?", arguments: [athleteID])
      try audit(db, account: account, action: action, athleteID: athleteID, athlete: athlete, detail: detail, at: now)
      return SavedPlan(id: plan.id, name: name, active: active, savedAt: now, plan: plan)
    }
  }
}
