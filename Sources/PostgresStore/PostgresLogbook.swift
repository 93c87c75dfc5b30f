import Foundation
import Ingest
import PlanEngine
import PostgresNIO
import RunningCore
import TrainingDomain

/// The runner's data in a PostgreSQL database: the second engine behind ``TrainingStore``, with the same tables,
/// migrations (``PostgresMigrations``), errors, ordering and idempotency as the SQLite logbook.
///
/// Every method is one transaction (see ``PostgresSession``): a write lands whole or not at all, one writer at a time
/// per database, and a read sees one snapshot.
public final class PostgresLogbook: TrainingStore {
  let session: PostgresSession
  /// The test hook called inside an import's write transaction after each row it writes (see ``RowHook``).
  let afterRowWritten: RowHook?
  /// The URL, its password replaced by `***`: what messages show.
  public let path: String
  /// True when the server only reads (a standby, or a role whose transactions are read-only).
  public let isReadOnly: Bool

  /// Connects to the database at `url` (`postgres://user[:password]@host[:port]/database`) and migrates it.
  ///
  /// - Parameters:
  ///   - afterRowWritten: a test hook for fault injection (see ``RowHook``); nil in normal use.
  ///   - statementDeadline: how long one statement may go unanswered before the connection is closed and the
  ///     command fails (exit 74): two minutes; tests shorten it.
  /// - Throws: ``LogbookError/badLocation(location:detail:)`` for a URL that is not one,
  ///   ``LogbookError/serverUnavailable(location:detail:)`` when the server cannot be reached or refuses the login,
  ///   ``LogbookError/notOurs(path:)`` for a database another program's tables fill, and
  ///   ``LogbookError/newerSchema(path:migration:)`` for one a newer RunningMate migrated.
  public init(url: String, afterRowWritten: RowHook? = nil, statementDeadline: Duration = .seconds(120))
    throws(LogbookError)
  {
    let location = try PostgresLocation(url: url)
    session = try PostgresSession(location: location, statementDeadline: TimeAmount(statementDeadline))
    path = location.shown
    self.afterRowWritten = afterRowWritten
    let readOnly: Bool
    do {
      readOnly = try session.transaction(write: false) { transaction in
        // Not `transaction_read_only`: this very transaction is a read-only one.
        try transaction.value(
          "SELECT current_setting('default_transaction_read_only') = 'on' OR pg_is_in_recovery()", as: Bool.self)
          ?? false
      }
    } catch {
      throw session.describe(error)
    }
    isReadOnly = readOnly
    if !readOnly { try PostgresMigrations.migrate(session) }
  }

  /// Runs `body` in one write transaction, mapping errors to ``LogbookError``.
  @discardableResult
  func write<T>(_ body: (PostgresTransaction) throws -> T) throws(LogbookError) -> T {
    do {
      return try session.transaction(write: true, body)
    } catch {
      throw session.describe(error)
    }
  }

  /// Runs `body` in one read-only transaction (one snapshot), mapping errors to ``LogbookError``.
  func read<T>(_ body: (PostgresTransaction) throws -> T) throws(LogbookError) -> T {
    do {
      return try session.transaction(write: false, body)
    } catch {
      throw session.describe(error)
    }
  }

  static func json(_ value: some Encodable, what: String) throws(LogbookError) -> String {
    do {
      return String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    } catch {
      throw .database(detail: "cannot encode the \(what): \(error)")
    }
  }

  // MARK: - Plans

  /// Saves `plan` under `name` as ``LogbookDatabase/savePlan(_:name:activate:schedule:replacing:)`` does: the name
  /// and id checks, the first plan becoming active, and the schedule kept, replaced or dropped, in one transaction.
  public func savePlan(
    _ plan: Plan, name: String, activate: Bool,
    schedule: (settings: ScheduleSettings?, workouts: [DatedWorkout])?, replacing: Bool, takingOver: RunTakeover?,
    savedAt: Date
  ) throws(LogbookError) -> SavedPlan {
    try checkPlanName(name)
    var encoded: (json: String?, workouts: [DatedWorkout])?
    if let schedule {
      encoded = (try schedule.settings?.storedJSON(), schedule.workouts)
    }
    let planJSON = try Self.json(plan, what: "plan")
    let now = savedAt
    return try write { tx in
      if !replacing, let same = try tx.value("SELECT name FROM plan WHERE id = \(plan.id)", as: String.self) {
        throw LogbookError.planAlreadySaved(id: plan.id, name: same)
      }
      if let other = try tx.value("SELECT id FROM plan WHERE name = \(name)", as: String.self), other != plan.id {
        throw LogbookError.planNameTaken(name: name)
      }
      let isFirst = try tx.value("SELECT count(*) FROM plan", as: Int64.self) == 0
      if activate || isFirst { try tx.execute("UPDATE plan SET active = false WHERE active") }
      let active = activate || isFirst
      try tx.execute(
        """
        INSERT INTO plan (id, name, active, savedAt, planJSON) VALUES (\(plan.id), \(name), \(active), \(stored(now)),
          \(planJSON))
        ON CONFLICT (id) DO UPDATE SET name = excluded.name, active = excluded.active, savedAt = excluded.savedAt,
          planJSON = excluded.planJSON
        """)
      if let encoded {
        try Self.storeSchedule(planID: plan.id, json: encoded.json, workouts: encoded.workouts, in: tx)
      } else {
        try tx.execute("DELETE FROM scheduledWorkout WHERE planID = \(plan.id)")
      }
      if let takingOver { _ = try takeOverRuns(takingOver, planID: plan.id, to: PostgresPushWrites(tx: tx)) }
      return SavedPlan(id: plan.id, name: name, active: active, savedAt: now, plan: plan)
    }
  }

  static func savedPlan(_ row: PostgresRow) throws -> SavedPlan {
    let (id, name, active, savedAt, json) = try row.decode((String, String, Bool, Date, String).self)
    do {
      return SavedPlan(
        id: id, name: name, active: active, savedAt: savedAt,
        plan: try JSONDecoder().decode(Plan.self, from: Data(json.utf8)))
    } catch {
      throw LogbookError.database(detail: "saved plan '\(name)' cannot be read: \(error)")
    }
  }

  static let planColumns = "id, name, active, savedAt, planJSON"

  /// Every saved plan, active first, then by name.
  public func plans() throws(LogbookError) -> [SavedPlan] {
    try read { tx in
      try tx.rows(
        PostgresQuery(unsafeSQL: "SELECT \(Self.planColumns) FROM plan ORDER BY active DESC, name COLLATE \"C\"")
      )
      .map(Self.savedPlan)
    }
  }

  /// The plan named `name`, or the active plan when `name` is nil.
  public func plan(named name: String?) throws(LogbookError) -> SavedPlan {
    let found = try read { tx -> SavedPlan? in
      var binds = PostgresBindings()
      let condition: String
      if let name {
        binds.append(name)
        condition = "name = $1"
      } else {
        condition = "active"
      }
      let query = PostgresQuery(
        unsafeSQL: "SELECT \(Self.planColumns) FROM plan WHERE \(condition) LIMIT 1", binds: binds)
      return try tx.rows(query).first.map(Self.savedPlan)
    }
    guard let found else {
      guard let name else { throw .noActivePlan }
      throw .noSuchPlan(name: name, known: try plans().map(\.name))
    }
    return found
  }

  /// Makes the plan named `name` the active one.
  public func activatePlan(named name: String) throws(LogbookError) {
    let known = try plans().map(\.name)
    let found = try write { tx -> Bool in
      guard try tx.value("SELECT count(*) FROM plan WHERE name = \(name)", as: Int64.self) == 1 else { return false }
      try tx.execute("UPDATE plan SET active = (name = \(name))")
      return true
    }
    if !found { throw .noSuchPlan(name: name, known: known) }
  }

  /// Deletes the plan named `name` with its schedule; its completions stay, unplanned.
  public func deletePlan(named name: String) throws(LogbookError) {
    let known = try plans().map(\.name)
    let deleted = try write { tx in try tx.execute("DELETE FROM plan WHERE name = \(name)") }
    if deleted == 0 { throw .noSuchPlan(name: name, known: known) }
  }

  // MARK: - Schedules

  /// The schedule settings saved with the plan `planID`; nil when none were saved.
  public func scheduleSettings(ofPlan planID: String) throws(LogbookError) -> ScheduleSettings? {
    let json = try read { tx in try tx.value("SELECT scheduleJSON FROM plan WHERE id = \(planID)", as: String.self) }
    guard let json else { return nil }
    return try ScheduleSettings(storedJSON: json, ofPlan: planID)
  }

  /// Replaces the schedule settings and dated workouts of the saved plan `planID` in one transaction.
  /// - Throws: ``LogbookError/database(detail:)`` when no plan has that id.
  public func saveSchedule(planID: String, settings: ScheduleSettings?, workouts: [DatedWorkout])
    throws(LogbookError)
  {
    let json = try settings?.storedJSON()
    let found = try write { tx -> Bool in
      guard try tx.value("SELECT count(*) FROM plan WHERE id = \(planID)", as: Int64.self) == 1 else { return false }
      try Self.storeSchedule(planID: planID, json: json, workouts: workouts, in: tx)
      return true
    }
    if !found { throw .database(detail: "no saved plan has the id \(planID)") }
  }

  static func storeSchedule(planID: String, json: String?, workouts: [DatedWorkout], in tx: PostgresTransaction)
    throws
  {
    try tx.execute("UPDATE plan SET scheduleJSON = \(json) WHERE id = \(planID)")
    try tx.execute("DELETE FROM scheduledWorkout WHERE planID = \(planID)")
    for item in workouts {
      try tx.execute(
        """
        INSERT INTO scheduledWorkout (planID, workoutID, week, date, plannedDate, startMinute, timeZone, kind, distanceKm)
        VALUES (\(planID), \(item.workoutID), \(item.week), \(item.date.description), \(item.plannedDate.description),
          \(item.startMinute), \(item.timeZoneID), \(item.kind.rawValue), \(item.distanceKm))
        ON CONFLICT (planID, workoutID) DO UPDATE SET week = excluded.week, date = excluded.date,
          plannedDate = excluded.plannedDate, startMinute = excluded.startMinute, timeZone = excluded.timeZone,
          kind = excluded.kind, distanceKm = excluded.distanceKm
        """)
    }
  }

  /// The saved plan's workouts on their scheduled days, by date then start time (all-day first); empty when none.
  public func scheduledWorkouts(ofPlan planID: String) throws(LogbookError) -> [DatedWorkout] {
    try read { tx in
      try tx.rows(
        """
        SELECT workoutID, week, date, plannedDate, startMinute, timeZone, kind, distanceKm FROM scheduledWorkout
        WHERE planID = \(planID) ORDER BY date COLLATE "C", startMinute NULLS FIRST, workoutID COLLATE "C"
        """
      ).compactMap { row -> DatedWorkout? in
        let (workoutID, week, date, planned, start, zone, kind, distance) = try row.decode(
          (String, Int, String, String, Int?, String, String, Double).self)
        guard let date = CivilDate(iso: date), let planned = CivilDate(iso: planned),
          let kind = WorkoutKind(rawValue: kind)
        else { return nil }
        return DatedWorkout(
          workoutID: workoutID, week: week, date: date, plannedDate: planned, startMinute: start,
          timeZoneID: zone, kind: kind, distanceKm: distance)
      }
    }
  }

  /// The saved plan's workouts on their scheduled days (``scheduledWorkouts(ofPlan:)``).
  public func scheduledWorkouts(of saved: SavedPlan) throws(LogbookError) -> [DatedWorkout] {
    try scheduledWorkouts(ofPlan: saved.id)
  }

  // MARK: - Exports

  /// Remembers an export (the last five per identity are kept).
  public func recordExport(identity: String, path: String, calendar: String) throws(LogbookError) {
    let now = stored(Date())
    try write { tx in
      try tx.execute(
        "INSERT INTO export (identity, path, exportedAt, calendar) VALUES (\(identity), \(path), \(now), \(calendar))")
      try tx.execute(
        """
        DELETE FROM export WHERE identity = \(identity) AND id NOT IN
          (SELECT id FROM export WHERE identity = \(identity) ORDER BY id DESC LIMIT 5)
        """)
    }
  }

  /// The last export for `identity`: where it went and the calendar text.
  public func lastExport(identity: String) throws(LogbookError) -> (path: String, calendar: String)? {
    try read { tx -> (path: String, calendar: String)? in
      guard
        let row = try tx.rows(
          "SELECT path, calendar FROM export WHERE identity = \(identity) ORDER BY id DESC LIMIT 1"
        ).first
      else { return nil }
      let (path, calendar) = try row.decode((String, String).self)
      return (path: path, calendar: calendar)
    }
  }
}
