import Foundation
import GRDB
import Ingest
import PlanEngine
import RunningCore
import TrainingDomain

/// The runner's database: one SQLite file (WAL mode), reached only through this type.
///
/// Every write method is one transaction: it lands whole or not at all. The schema goes through named, append-only
/// GRDB migrations; foreign keys and NOT NULL are enforced. A file that is not ours, or not a database, is refused
/// with a clear message and left untouched.
public final class LogbookDatabase: TrainingStore {
  /// `RMAT` in ASCII: `PRAGMA application_id` marks a RunningMate database.
  static let applicationID: Int32 = 0x524D_4154

  let writer: any DatabaseWriter
  /// Where the database is (`:memory:` for an in-memory one).
  public let path: String
  /// The file, held (and locked while set up) as long as the database is open; nil in memory.
  let file: DatabaseFile?
  /// The test hook called inside an import's write transaction after each row it writes (see ``RowHook``).
  let afterRowWritten: RowHook?
  /// True when the database could not be opened for writing (a read-only file, folder or mount) and was opened
  /// read-only: reads work, every write throws ``LogbookError/readOnly(path:)``.
  public let isReadOnly: Bool

  /// Opens (or creates, mode 0600) the database at `path`, migrating an older schema.
  ///
  /// Creation, the ownership check and migrations run under an exclusive lock on the file, so processes opening a
  /// new path at once take turns. A file that is not ours, or is damaged, is refused before SQLite may write to it:
  /// it is left byte for byte as it was, with no `-wal` or `-shm` beside it. Our own file is made 0600.
  ///
  /// - Parameter afterRowWritten: a test hook for fault injection (see ``RowHook``); nil in normal use.
  /// - Throws: ``LogbookError`` when the file is not ours, not a database, from a newer version, or cannot be made.
  public init(path: String, afterRowWritten: RowHook? = nil) throws(LogbookError) {
    self.path = path
    self.afterRowWritten = afterRowWritten
    do {
      (file, writer) = try LogbookDatabase.openWritable(path: path)
      isReadOnly = false
    } catch {
      // A database that exists but cannot be written (a read-only file, folder or mount, an immutable file) is
      // opened read-only: the commands that only read work, and a write is refused with ``LogbookError/readOnly(path:)``.
      switch error {
      case .cannotOpen, .readOnly: break
      default: throw error
      }
      guard LogbookDatabase.fileSize(path) > 0 else { throw error }
      let writableError = error
      do {
        (file, writer) = try LogbookDatabase.openReadOnly(path: path)
      } catch {
        // Not readable either: the first reason, unless the read-only open found more (not ours, damaged, newer).
        if case .cannotOpen = error { throw writableError }
        throw error
      }
      isReadOnly = true
    }
  }

  /// Opens (or creates) the database for reading and writing: a pool in WAL mode, migrated.
  private static func openWritable(path: String) throws(LogbookError) -> (DatabaseFile, any DatabaseWriter) {
    let url = URL(fileURLWithPath: path)
    do {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    } catch {
      throw .cannotOpen(path: path, detail: (error as NSError).localizedDescription)
    }
    return try DatabaseFile.withSetupLock(path: path) {
      file, kind throws(LogbookError) -> (DatabaseFile, any DatabaseWriter) in
      if kind != .empty { try LogbookDatabase.probe(path: path) }
      file.makePrivate(path: path)
      var configuration = Configuration()
      configuration.foreignKeysEnabled = true
      configuration.busyMode = .timeout(10)
      let pool: DatabasePool
      do {
        pool = try DatabasePool(path: path, configuration: configuration)
      } catch {
        throw LogbookDatabase.describe(error, path: path)
      }
      do throws(LogbookError) {
        try LogbookDatabase.migrate(pool, path: path)
      } catch {
        try? pool.close()
        throw error
      }
      return (file, pool)
    }
  }

  /// Opens an existing database that cannot be written, read-only: checked as ``probe(path:)`` does, and refused
  /// (``LogbookError/readOnly(path:)``) when it still needs a migration. Without a `-wal` beside it the file is read
  /// as immutable, so SQLite needs no `-shm` (which a read-only folder could not hold) and takes no lock.
  private static func openReadOnly(path: String) throws(LogbookError) -> (DatabaseFile, any DatabaseWriter) {
    try DatabaseFile.withSetupLock(path: path, readOnly: true) {
      file, kind throws(LogbookError) -> (DatabaseFile, any DatabaseWriter) in
      guard kind != .empty else { throw .readOnly(path: path) }
      try LogbookDatabase.probe(path: path)
      var configuration = Configuration()
      configuration.readonly = true
      configuration.foreignKeysEnabled = true
      configuration.busyMode = .timeout(10)
      do {
        let location = fileSize(path + "-wal") > 0 ? path : immutableLocation(path)
        let queue = try DatabaseQueue(path: location, configuration: configuration)
        guard try queue.read({ db in try migrator.hasCompletedMigrations(db) }) else {
          try? queue.close()
          throw LogbookError.readOnly(path: path)
        }
        return (file, queue)
      } catch {
        throw LogbookDatabase.describe(error, path: path)
      }
    }
  }

  /// The size of the file at `path`, 0 when there is none.
  static func fileSize(_ path: String) -> Int64 {
    var status = stat()
    return stat(path, &status) == 0 ? Int64(status.st_size) : 0
  }

  /// The URI that opens `path` as immutable (no locks, no `-wal` / `-shm`).
  static func immutableLocation(_ path: String) -> String {
    "file:\(path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)?immutable=1"
  }

  deinit {
    guard let file else { return }
    if let pool = writer as? DatabasePool {
      // Readers first (releaseMemory closes them), so the writer closes last and checkpoints the WAL away, as
      // SQLite does for the last connection. Connections still open keep the descriptor: closing it would drop
      // their locks.
      pool.releaseMemory()
      do { try pool.close() } catch { return }
    } else if let queue = writer as? DatabaseQueue {
      do { try queue.close() } catch { return }
    }
    file.release()
  }

  /// Looks at an existing file read-only: ours (or an empty SQLite file), and not damaged. Without a `-wal` beside
  /// it, the file is read as immutable, so SQLite makes no `-wal` / `-shm` and takes no lock.
  static func probe(path: String) throws(LogbookError) {
    var configuration = Configuration()
    configuration.readonly = true
    configuration.busyMode = .timeout(10)
    func check(_ location: String) throws {
      let probe = try DatabaseQueue(path: location, configuration: configuration)
      defer { try? probe.close() }
      try probe.read { db in
        try LogbookDatabase.checkOwnership(db, path: path)
        // A newer version's file is refused here too, before the pool below would switch it to WAL.
        let applied = try migrator.appliedIdentifiers(db)
        if let unknown = applied.subtracting(migrator.migrations).sorted().first {
          throw LogbookError.newerSchema(path: path, migration: unknown)
        }
        let problems = try String.fetchAll(db, sql: "PRAGMA quick_check(3)")
        if problems != ["ok"] {
          let text = problems.joined(separator: "; ").split(whereSeparator: \.isNewline).joined(separator: " ")
          throw LogbookError.corrupt(path: path, detail: "damaged: \(text.prefix(160))")
        }
      }
    }
    do {
      if FileManager.default.fileExists(atPath: path + "-wal") {
        try check(path)
      } else {
        do {
          try check(immutableLocation(path))
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CANTOPEN {
          try check(path)  // an SQLite built without URI file names
        }
      }
    } catch {
      throw LogbookDatabase.describe(error, path: path)
    }
  }

  /// A private in-memory database, for tests.
  public init() throws(LogbookError) {
    path = ":memory:"
    file = nil
    afterRowWritten = nil
    isReadOnly = false
    let queue: DatabaseQueue
    do {
      queue = try DatabaseQueue()
    } catch {
      throw LogbookDatabase.describe(error, path: ":memory:")
    }
    try LogbookDatabase.migrate(queue, path: path)
    writer = queue
  }

  static func describe(_ error: any Error, path: String) -> LogbookError {
    if let error = error as? LogbookError { return error }
    if let error = error as? DatabaseError {
      switch error.resultCode {
      case .SQLITE_NOTADB, .SQLITE_CORRUPT: return .corrupt(path: path, detail: error.message ?? "corrupt")
      case .SQLITE_CANTOPEN, .SQLITE_PERM:
        return .cannotOpen(path: path, detail: error.message ?? "\(error.resultCode)")
      case .SQLITE_READONLY: return .readOnly(path: path)
      case .SQLITE_FULL: return .diskFull(path: path)
      case .SQLITE_IOERR: return .writeFailed(path: path, detail: error.message ?? "disk I/O error")
      case .SQLITE_BUSY, .SQLITE_LOCKED:
        return .busy(detail: "\(path) stayed locked by another process for 10 seconds; try again")
      default: return .database(detail: error.message ?? "\(error)")
      }
    }
    return .database(detail: "\(error)")
  }

  /// Refuses a database that another program made: ours carry `PRAGMA application_id`, an empty one has no tables.
  static func checkOwnership(_ db: Database, path: String) throws {
    let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
    let tables = try String.fetchAll(
      db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    if applicationID != LogbookDatabase.applicationID && (applicationID != 0 || !tables.isEmpty) {
      throw LogbookError.notOurs(path: path)
    }
  }

  private static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1-plans-and-completions") { db in
      try db.execute(sql: "PRAGMA application_id = \(LogbookDatabase.applicationID)")
      try db.create(table: "plan") { t in
        t.primaryKey("id", .text)
        t.column("name", .text).notNull().unique()
        t.column("active", .boolean).notNull().defaults(to: false)
        t.column("savedAt", .datetime).notNull()
        t.column("planJSON", .text).notNull()
      }
      try db.create(table: "completion") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("date", .text).notNull().indexed()
        t.column("startedAt", .datetime)
        t.column("distanceKm", .double).notNull().check { $0 > 0 }
        t.column("durationSeconds", .double).notNull().check { $0 > 0 }
        t.column("movingSeconds", .double)
        t.column("kind", .text)
        t.column("rpe", .integer).check { $0 == nil || ($0 >= 1 && $0 <= 10) }
        t.column("averageHeartRate", .integer)
        t.column("elevationGainMeters", .double)
        t.column("note", .text)
        t.column("source", .text).notNull()
        t.column("sourceFile", .text)
        t.column("planID", .text).references("plan", onDelete: .setNull)
        t.column("workoutID", .text)
      }
    }
    migrator.registerMigration("v2-exports") { db in
      // What was exported, per plan identity: the previous version for SEQUENCE and cancellations when the old file
      // is not at hand.
      try db.create(table: "export") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("identity", .text).notNull().indexed()
        t.column("path", .text).notNull()
        t.column("exportedAt", .datetime).notNull()
        t.column("calendar", .text).notNull()
      }
    }
    migrator.registerMigration("v3-profiles") { db in
      try db.create(table: "profile") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("name", .text).notNull().unique()
        t.column("isCoach", .boolean).notNull().defaults(to: false)
        t.column("isDefault", .boolean).notNull().defaults(to: false)
        t.column("profileJSON", .text).notNull()
      }
      try db.create(table: "coachAthlete") { t in
        t.column("coachID", .integer).notNull().references("profile", onDelete: .cascade)
        t.column("athleteID", .integer).notNull().references("profile", onDelete: .cascade)
        t.primaryKey(["coachID", "athleteID"])
      }
      try db.alter(table: "plan") { t in
        t.add(column: "profileID", .integer).references("profile", onDelete: .setNull)
      }
    }
    migrator.registerMigration("v4-health") { db in
      try db.create(table: "healthDay") { t in
        t.column("profile", .text).notNull()
        t.column("date", .text).notNull()
        t.column("steps", .double).notNull().check { $0 >= 0 }
        t.column("distanceKm", .double).notNull().check { $0 >= 0 }
        t.column("activeKcal", .double).notNull().check { $0 >= 0 }
        t.primaryKey(["profile", "date"])
      }
      try db.create(table: "healthMeasure") { t in
        t.column("profile", .text).notNull()
        t.column("kind", .text).notNull()
        t.column("date", .datetime).notNull()
        t.column("value", .double).notNull()
        t.primaryKey(["profile", "kind", "date"])
      }
    }
    migrator.registerMigration("v5-schedule") { db in
      // A saved plan's schedule settings (NULL: none saved, the old behaviour) and its workouts on their days.
      try db.alter(table: "plan") { t in
        t.add(column: "scheduleJSON", .text)
      }
      try db.create(table: "scheduledWorkout") { t in
        t.column("planID", .text).notNull().references("plan", onDelete: .cascade)
        t.column("workoutID", .text).notNull()
        t.column("week", .integer).notNull()
        t.column("date", .text).notNull()
        t.column("plannedDate", .text).notNull()
        t.column("startMinute", .integer).check { $0 == nil || ($0 >= 0 && $0 < 1440) }
        t.column("timeZone", .text).notNull()
        t.column("kind", .text).notNull()
        t.column("distanceKm", .double).notNull()
        t.primaryKey(["planID", "workoutID"])
      }
    }
    registerIngestMigration(in: &migrator)
    migrator.registerMigration("v7-completion-sport") { db in
      // Cross-training (`import --all-sports`): the sport of each completion; everything stored before is a run.
      try db.alter(table: "completion") { t in
        t.add(column: "sport", .text).notNull().defaults(to: Sport.run.name)
      }
    }
    registerFeedMigration(in: &migrator)
    registerCalDAVMigration(in: &migrator)
    registerBestEffortMigration(in: &migrator)
    registerAccountMigration(in: &migrator)
    registerPushMigration(in: &migrator)
    registerPulledCommentMigration(in: &migrator)
    // Each run's identity (Completion.identity), kept through merges, copies and pushes; a run stored before has
    // none and is read with the identity of its record, the one it was pushed with (PostgresStore has the same one).
    migrator.registerMigration("v14-run-identity") { db in
      try db.alter(table: "completion") { t in t.add(column: "identity", .text) }
      try db.create(index: "completion_on_identity", on: "completion", columns: ["identity"])
    }
    registerDeletedRunMigration(in: &migrator)
    registerPlanSuccessionMigration(in: &migrator)
    return migrator
  }

  private static func migrate(_ writer: any DatabaseWriter, path: String) throws(LogbookError) {
    do {
      try writer.read { db in try LogbookDatabase.checkOwnership(db, path: path) }
      let known = Set(migrator.migrations)
      let applied = try writer.read { db in try migrator.appliedIdentifiers(db) }
      if let unknown = applied.subtracting(known).sorted().first {
        throw LogbookError.newerSchema(path: path, migration: unknown)
      }
      try migrator.migrate(writer)
    } catch {
      throw LogbookDatabase.describe(error, path: path)
    }
  }

  /// Runs `body` in one write transaction, mapping errors to ``LogbookError``.
  func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) throws(LogbookError) -> T {
    do {
      return try writer.write(body)
    } catch {
      throw LogbookDatabase.describe(error, path: path)
    }
  }

  /// Runs `body` in one read transaction, mapping errors to ``LogbookError``.
  func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) throws(LogbookError) -> T {
    do {
      return try writer.read(body)
    } catch {
      throw LogbookDatabase.describe(error, path: path)
    }
  }

  // MARK: - Plans

  /// Saves `plan` under `name` (replacing a plan of the same id), optionally making it the active plan.
  ///
  /// With `schedule`, its settings and dated workouts replace the plan's in the same transaction (nil settings:
  /// none saved). Without it, saved settings are kept and the dated workouts are dropped (the plan changed).
  /// With `replacing` false (an import), a plan of the same id already saved is kept and
  /// ``LogbookError/planAlreadySaved(id:name:)`` thrown. Both checks run inside the write transaction, so two
  /// processes saving at once cannot both pass them.
  public func savePlan(
    _ plan: Plan, name: String, activate: Bool,
    schedule: (settings: ScheduleSettings?, workouts: [DatedWorkout])? = nil, replacing: Bool = true,
    takingOver: RunTakeover? = nil, savedAt: Date
  )
    throws(LogbookError) -> SavedPlan
  {
    try checkPlanName(name)
    var encoded: (json: String?, workouts: [DatedWorkout])?
    if let schedule { encoded = (try LogbookDatabase.encode(schedule.settings), schedule.workouts) }
    let stored = encoded
    let json: String
    do {
      json = String(decoding: try JSONEncoder().encode(plan), as: UTF8.self)
    } catch {
      throw .database(detail: "cannot encode the plan: \(error)")
    }
    let now = savedAt
    return try write { db in
      if !replacing, let same = try PlanRecord.fetchOne(db, key: plan.id) {
        throw LogbookError.planAlreadySaved(id: plan.id, name: same.name)
      }
      if let other = try PlanRecord.filter(Column("name") == name).fetchOne(db), other.id != plan.id {
        throw LogbookError.planNameTaken(name: name)
      }
      let isFirst = try PlanRecord.fetchCount(db) == 0
      if activate || isFirst { try db.execute(sql: "UPDATE plan SET active = 0") }
      let record = PlanRecord(id: plan.id, name: name, active: activate || isFirst, savedAt: now, planJSON: json)
      try record.save(db)
      if let stored {
        try LogbookDatabase.storeSchedule(planID: plan.id, json: stored.json, workouts: stored.workouts, in: db)
      } else {
        try db.execute(sql: "DELETE FROM scheduledWorkout WHERE planID = ?", arguments: [plan.id])
      }
      if let takingOver { _ = try takeOverRuns(takingOver, planID: plan.id, to: SQLitePushWrites(db: db)) }
      return SavedPlan(id: plan.id, name: name, active: record.active, savedAt: now, plan: plan)
    }
  }

  /// Every saved plan, active first, then by name.
  public func plans() throws(LogbookError) -> [SavedPlan] {
    let records = try read { db in try PlanRecord.order(Column("active").desc, Column("name")).fetchAll(db) }
    return try records.map { record throws(LogbookError) in try record.savedPlan() }
  }

  /// The plan named `name`, or the active plan when `name` is nil.
  public func plan(named name: String?) throws(LogbookError) -> SavedPlan {
    let record = try read { db -> PlanRecord? in
      if let name { return try PlanRecord.filter(Column("name") == name).fetchOne(db) }
      return try PlanRecord.filter(Column("active") == true).fetchOne(db)
    }
    guard let record else {
      guard let name else { throw .noActivePlan }
      throw .noSuchPlan(name: name, known: try plans().map(\.name))
    }
    return try record.savedPlan()
  }

  /// Makes the plan named `name` the active one.
  public func activatePlan(named name: String) throws(LogbookError) {
    let known = try plans().map(\.name)
    let found = try write { db -> Bool in
      guard try PlanRecord.filter(Column("name") == name).fetchCount(db) == 1 else { return false }
      try db.execute(sql: "UPDATE plan SET active = (name = ?)", arguments: [name])
      return true
    }
    if !found { throw .noSuchPlan(name: name, known: known) }
  }

  /// Deletes the plan named `name`; its completions stay, unplanned.
  public func deletePlan(named name: String) throws(LogbookError) {
    let known = try plans().map(\.name)
    let deleted = try write { db in try PlanRecord.filter(Column("name") == name).deleteAll(db) }
    if deleted == 0 { throw .noSuchPlan(name: name, known: known) }
  }

  // MARK: - Schedules

  /// The schedule settings saved with the plan `planID`; nil when none were saved (plans from before v5, or saved
  /// without any).
  public func scheduleSettings(ofPlan planID: String) throws(LogbookError) -> ScheduleSettings? {
    let json = try read { db in
      try String.fetchOne(db, sql: "SELECT scheduleJSON FROM plan WHERE id = ?", arguments: [planID])
    }
    guard let json else { return nil }
    return try ScheduleSettings(storedJSON: json, ofPlan: planID)
  }

  /// Replaces the schedule settings and dated workouts of the saved plan `planID` in one transaction.
  ///
  /// - Throws: ``LogbookError/database(detail:)`` when no plan has that id.
  public func saveSchedule(planID: String, settings: ScheduleSettings?, workouts: [DatedWorkout])
    throws(LogbookError)
  {
    let json = try LogbookDatabase.encode(settings)
    let found = try write { db -> Bool in
      guard try PlanRecord.exists(db, key: planID) else { return false }
      try LogbookDatabase.storeSchedule(planID: planID, json: json, workouts: workouts, in: db)
      return true
    }
    if !found { throw .database(detail: "no saved plan has the id \(planID)") }
  }

  /// The saved plan's workouts on their scheduled days, by date then start time; empty when none were stored.
  public func scheduledWorkouts(ofPlan planID: String) throws(LogbookError) -> [DatedWorkout] {
    try read { db in try LogbookDatabase.scheduledWorkouts(planID: planID, in: db) }
  }

  static func scheduledWorkouts(planID: String, in db: Database) throws -> [DatedWorkout] {
    try Row.fetchAll(
      db,
      sql: """
        SELECT workoutID, week, date, plannedDate, startMinute, timeZone, kind, distanceKm FROM scheduledWorkout
        WHERE planID = ? ORDER BY date, startMinute, workoutID
        """, arguments: [planID]
    ).compactMap { row -> DatedWorkout? in
      guard let date = CivilDate(iso: row["date"]), let planned = CivilDate(iso: row["plannedDate"]),
        let kind = WorkoutKind(rawValue: row["kind"])
      else { return nil }
      return DatedWorkout(
        workoutID: row["workoutID"], week: row["week"], date: date, plannedDate: planned,
        startMinute: row["startMinute"], timeZoneID: row["timeZone"], kind: kind,
        distanceKm: row["distanceKm"])
    }
  }

  /// The saved plan's workouts on their scheduled days (``scheduledWorkouts(ofPlan:)``).
  public func scheduledWorkouts(of saved: SavedPlan) throws(LogbookError) -> [DatedWorkout] {
    try scheduledWorkouts(ofPlan: saved.id)
  }

  static func encode(_ settings: ScheduleSettings?) throws(LogbookError) -> String? {
    try settings?.storedJSON()
  }

  static func storeSchedule(planID: String, json: String?, workouts: [DatedWorkout], in db: Database) throws {
    try db.execute(sql: "UPDATE plan SET scheduleJSON = ? WHERE id = ?", arguments: [json, planID])
    try db.execute(sql: "DELETE FROM scheduledWorkout WHERE planID = ?", arguments: [planID])
    for item in workouts {
      try db.execute(
        sql: """
          INSERT OR REPLACE INTO scheduledWorkout
            (planID, workoutID, week, date, plannedDate, startMinute, timeZone, kind, distanceKm)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          planID, item.workoutID, item.week, item.date.description, item.plannedDate.description,
          item.startMinute, item.timeZoneID, item.kind.rawValue, item.distanceKm,
        ])
    }
  }

  // MARK: - Profiles

  /// Saves a profile (insert or update by name); the first profile becomes the default.
  @discardableResult
  public func saveProfile(_ profile: Profile) throws(LogbookError) -> Profile {
    try checkProfileName(profile.name)
    let json: String
    do {
      json = String(decoding: try JSONEncoder().encode(profile), as: UTF8.self)
    } catch {
      throw .database(detail: "cannot encode the profile: \(error)")
    }
    return try write { db in
      var stored = profile
      let isFirst = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM profile") == 0
      if isFirst { stored.isDefault = true }
      if stored.isDefault { try db.execute(sql: "UPDATE profile SET isDefault = 0") }
      if let id = try Int64.fetchOne(db, sql: "SELECT id FROM profile WHERE name = ?", arguments: [profile.name]) {
        stored.id = id
        try db.execute(
          sql: "UPDATE profile SET isCoach = ?, isDefault = ?, profileJSON = ? WHERE id = ?",
          arguments: [stored.isCoach, stored.isDefault, json, id])
      } else {
        try db.execute(
          sql: "INSERT INTO profile (name, isCoach, isDefault, profileJSON) VALUES (?, ?, ?, ?)",
          arguments: [stored.name, stored.isCoach, stored.isDefault, json])
        stored.id = db.lastInsertedRowID
      }
      return stored
    }
  }

  /// Creates the profile `profile.name`: one INSERT, so the database's UNIQUE constraint on the name decides
  /// between processes creating the same name at once (one succeeds, the others get ``LogbookError/profileExists(name:)``).
  /// Whether it becomes the default (asked, or the first profile) is decided inside the same write transaction
  /// (`BEGIN IMMEDIATE`: one writer at a time), so two first profiles cannot both, or neither, be the default.
  @discardableResult
  public func createProfile(_ profile: Profile) throws(LogbookError) -> Profile {
    try checkProfileName(profile.name)
    let json = try LogbookDatabase.encode(profile)
    do {
      return try writer.write { db in
        var stored = profile
        stored.id = nil
        if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM profile)") != true { stored.isDefault = true }
        if stored.isDefault { try db.execute(sql: "UPDATE profile SET isDefault = 0") }
        try db.execute(
          sql: "INSERT INTO profile (name, isCoach, isDefault, profileJSON) VALUES (?, ?, ?, ?)",
          arguments: [stored.name, stored.isCoach, stored.isDefault, json])
        stored.id = db.lastInsertedRowID
        return stored
      }
    } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
      throw .profileExists(name: profile.name)
    } catch {
      throw LogbookDatabase.describe(error, path: path)
    }
  }

  /// Changes the profile named `name` (the default one when nil) in one write transaction: `change` gets the profile
  /// as stored at that moment, so two processes changing different fields at once both keep their change. A changed
  /// profile marked default becomes the only default. Errors thrown by `change` pass through unchanged.
  /// - Throws: ``LogbookError/noSuchProfile(name:known:)`` when there is no such profile,
  ///   ``LogbookError/noDefaultProfile(known:)`` when none is named and there is no default one.
  @discardableResult
  public func updateProfile(named name: String?, _ change: @escaping @Sendable (Profile) throws -> Profile) throws
    -> Profile
  {
    do {
      return try writer.write { db in
        let row =
          try name.map {
            try Row.fetchOne(
              db, sql: "SELECT id, isCoach, isDefault, profileJSON FROM profile WHERE name = ?", arguments: [$0])
          }
          ?? Row.fetchOne(db, sql: "SELECT id, isCoach, isDefault, profileJSON FROM profile WHERE isDefault")
        guard let row else {
          let known = try String.fetchAll(db, sql: "SELECT name FROM profile ORDER BY name")
          throw Self.missingProfile(named: name, known: known)
        }
        var changed = try change(try LogbookDatabase.profile(row))
        changed.id = row["id"]
        if changed.isDefault { try db.execute(sql: "UPDATE profile SET isDefault = 0") }
        try db.execute(
          sql: "UPDATE profile SET isCoach = ?, isDefault = ?, profileJSON = ? WHERE id = ?",
          arguments: [changed.isCoach, changed.isDefault, try LogbookDatabase.encode(changed), changed.id])
        return changed
      }
    } catch let error as DatabaseError {
      throw LogbookDatabase.describe(error, path: path)
    }
  }

  static func encode(_ profile: Profile) throws(LogbookError) -> String {
    do {
      return String(decoding: try JSONEncoder().encode(profile), as: UTF8.self)
    } catch {
      throw .database(detail: "cannot encode the profile: \(error)")
    }
  }

  /// A profile from its row (id, isCoach, isDefault, profileJSON).
  static func profile(_ row: Row) throws(LogbookError) -> Profile {
    do {
      var profile = try JSONDecoder().decode(Profile.self, from: Data((row["profileJSON"] as String).utf8))
      profile.id = row["id"]
      profile.isCoach = row["isCoach"]
      profile.isDefault = row["isDefault"]
      return profile
    } catch {
      throw .database(detail: "a profile cannot be read: \(error)")
    }
  }

  /// Every profile, by name.
  public func profiles() throws(LogbookError) -> [Profile] {
    try read { db in
      try Row.fetchAll(db, sql: "SELECT id, isCoach, isDefault, profileJSON FROM profile ORDER BY name")
        .map { row in try LogbookDatabase.profile(row) }
    }
  }

  /// Links an athlete to a coach.
  public func addAthlete(_ athlete: String, toCoach coach: String) throws(LogbookError) {
    let link = try coachLink(athlete: athlete, coach: coach)
    try write { db in
      try db.execute(
        sql: "INSERT OR IGNORE INTO coachAthlete (coachID, athleteID) VALUES (?, ?)",
        arguments: [link.coachID, link.athleteID])
    }
  }

  /// A coach's athletes, by name.
  public func athletes(ofCoach coach: String) throws(LogbookError) -> [Profile] {
    // Only the coach's athletes are read and decoded: a club's database holds a profile per athlete.
    try read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT athlete.id, athlete.isCoach, athlete.isDefault, athlete.profileJSON FROM profile AS athlete
          JOIN coachAthlete ON coachAthlete.athleteID = athlete.id
          JOIN profile AS coach ON coach.id = coachAthlete.coachID
          WHERE coach.name = ? ORDER BY athlete.name
          """, arguments: [coach]
      ).map { row in try LogbookDatabase.profile(row) }
    }
  }

  /// Links a saved plan to a profile (an athlete's plan).
  public func assignPlan(_ planID: String, toProfile profileID: Int64) throws(LogbookError) {
    try write { db in
      try db.execute(sql: "UPDATE plan SET profileID = ? WHERE id = ?", arguments: [profileID, planID])
    }
  }

  /// The saved plans of a profile.
  public func plans(ofProfile profileID: Int64) throws(LogbookError) -> [SavedPlan] {
    // Only this profile's plans are decoded: a club's database holds a plan per athlete.
    let records = try read { db in
      try PlanRecord.filter(Column("profileID") == profileID).order(Column("active").desc, Column("name"))
        .fetchAll(db)
    }
    return try records.map { record throws(LogbookError) in try record.savedPlan() }
  }

  // MARK: - Exports

  /// Remembers an export (the last five per identity are kept).
  public func recordExport(identity: String, path: String, calendar: String) throws(LogbookError) {
    let now = Date()
    try write { db in
      try db.execute(
        sql: "INSERT INTO export (identity, path, exportedAt, calendar) VALUES (?, ?, ?, ?)",
        arguments: [identity, path, now, calendar])
      try db.execute(
        sql: """
          DELETE FROM export WHERE identity = ? AND id NOT IN
            (SELECT id FROM export WHERE identity = ? ORDER BY id DESC LIMIT 5)
          """, arguments: [identity, identity])
    }
  }

  /// The last export for `identity`: where it went and the calendar text.
  public func lastExport(identity: String) throws(LogbookError) -> (path: String, calendar: String)? {
    try read { db -> (path: String, calendar: String)? in
      guard
        let row = try Row.fetchOne(
          db, sql: "SELECT path, calendar FROM export WHERE identity = ? ORDER BY id DESC LIMIT 1",
          arguments: [identity])
      else { return nil }
      return (path: row["path"], calendar: row["calendar"])
    }
  }

  // MARK: - Completions

  /// Adds completions as they are (no duplicate check, no matching) in one transaction (all or none) and returns
  /// them with their ids.
  ///
  /// - Throws: ``LogbookError/implausible(record:field:value:allowed:)`` before anything is written when a value is
  ///   impossible.
  public func addCompletions(_ completions: [Completion]) throws(LogbookError) -> [Completion] {
    for completion in completions { _ = try completion.validated() }
    return try write { db in
      let rows = SQLiteIngestWrites(db: db)
      return try completions.map { try rows.insert($0) }
    }
  }

  /// Every run, by date: what running volume, personal bests, progress and matching count. Cross-training (other
  /// sports imported with `--all-sports`) is left out: see ``crossTraining()``.
  public func completions() throws(LogbookError) -> [Completion] {
    try read { db in
      try LogbookDatabase.withBestEfforts(
        CompletionRecord.filter(Column("sport") == Sport.run.name).order(Column("date"), Column("id"))
          .fetchAll(db).map(\.completion), in: db)
    }
  }

  /// Every activity of another sport (cross-training), by date.
  public func crossTraining() throws(LogbookError) -> [Completion] {
    try read { db in
      try CompletionRecord.filter(Column("sport") != Sport.run.name).order(Column("date"), Column("id"))
        .fetchAll(db).map(\.completion)
    }
  }

  /// Deletes the completion with `id`, returning it, its week matched again against `slots`.
  public func deleteCompletion(id: Int64, slots: [PlannedSlot]) throws(LogbookError) -> Completion {
    let removed = try write { db -> Completion? in
      guard let record = try CompletionRecord.fetchOne(db, key: id) else { return nil }
      try record.delete(db)
      let run = record.completion
      try LogbookDatabase.recordDeleted(run, in: db)
      if let planID = run.planID, !slots.isEmpty {
        let writes = SQLitePushWrites(db: db)
        let week = try writes.activities(
          ofPlan: planID, from: run.date.adding(days: -7), through: run.date.adding(days: 7))
        _ = try rematchWeeks(holding: [run.date], planID: planID, slots: slots, among: week, to: writes)
      }
      return run
    }
    guard let removed else { throw .noSuchCompletion(id: id) }
    return removed
  }

  /// Deletes the most recently logged completion, returning it.
  public func undoLastCompletion() throws(LogbookError) -> Completion {
    let removed = try write { db -> Completion? in
      guard let record = try CompletionRecord.order(Column("id").desc).fetchOne(db) else { return nil }
      try record.delete(db)
      try LogbookDatabase.recordDeleted(record.completion, in: db)
      return record.completion
    }
    guard let removed else { throw .nothingToUndo }
    return removed
  }
}

struct PlanRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
  static let databaseTableName = "plan"
  var id: String
  var name: String
  var active: Bool
  var savedAt: Date
  var planJSON: String

  func savedPlan() throws(LogbookError) -> SavedPlan {
    do {
      let plan = try JSONDecoder().decode(Plan.self, from: Data(planJSON.utf8))
      return SavedPlan(id: id, name: name, active: active, savedAt: savedAt, plan: plan)
    } catch {
      throw .database(detail: "saved plan '\(name)' cannot be read: \(error)")
    }
  }
}

struct CompletionRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
  static let databaseTableName = "completion"
  var id: Int64?
  var date: String
  var startedAt: Date?
  var distanceKm: Double
  var durationSeconds: Double
  var movingSeconds: Double?
  var kind: String?
  var rpe: Int?
  var averageHeartRate: Int?
  var elevationGainMeters: Double?
  var note: String?
  var source: String
  var sourceFile: String?
  var planID: String?
  var workoutID: String?
  var status: String?  // v6-ingest-status
  var sport: String  // v7-completion-sport
  var identity: String?  // v14-run-identity

  init(_ c: Completion) {
    id = c.id
    date = c.date.description
    startedAt = c.startedAt
    distanceKm = c.distanceKm
    durationSeconds = c.durationSeconds
    movingSeconds = c.movingSeconds
    kind = c.kind?.rawValue
    rpe = c.rpe
    averageHeartRate = c.averageHeartRate
    elevationGainMeters = c.elevationGainMeters
    note = c.note
    source = c.source.rawValue
    sourceFile = c.sourceFile
    planID = c.planID
    workoutID = c.workoutID
    status = c.status?.rawValue
    sport = c.sport.name
    identity = c.identity
  }

  mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

  var completion: Completion {
    var run = Completion(
      id: id, date: CivilDate(iso: date) ?? CivilDate(dayNumber: 0), startedAt: startedAt, distanceKm: distanceKm,
      durationSeconds: durationSeconds, movingSeconds: movingSeconds,
      kind: kind.flatMap(WorkoutKind.init(rawValue:)), rpe: rpe, averageHeartRate: averageHeartRate,
      elevationGainMeters: elevationGainMeters, note: note, source: Completion.Source(rawValue: source) ?? .manual,
      sourceFile: sourceFile, planID: planID, workoutID: workoutID,
      status: status.flatMap(MatchStatus.init(rawValue:)), sport: Sport(name: sport))
    run.identity = identity ?? recordIdentity(of: run)
    return run
  }
}
