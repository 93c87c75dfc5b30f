import Foundation
import Ingest
import PlanEngine
import PostgresNIO
import RunningCore
import TrainingDomain

extension PostgresLogbook {
  // MARK: - Profiles

  private static let profileColumns = "id, isCoach, isDefault, profileJSON"

  /// A profile from its row (id, isCoach, isDefault, profileJSON).
  static func profile(_ row: PostgresRow) throws -> Profile {
    let (id, isCoach, isDefault, json) = try row.decode((Int64, Bool, Bool, String).self)
    do {
      var profile = try JSONDecoder().decode(Profile.self, from: Data(json.utf8))
      profile.id = id
      profile.isCoach = isCoach
      profile.isDefault = isDefault
      return profile
    } catch {
      throw LogbookError.database(detail: "a profile cannot be read: \(error)")
    }
  }

  /// Saves a profile (insert or update by name); the first profile becomes the default.
  @discardableResult
  public func saveProfile(_ profile: Profile) throws(LogbookError) -> Profile {
    try checkProfileName(profile.name)
    let json = try Self.json(profile, what: "profile")
    return try write { tx in
      var saved = profile
      if try tx.value("SELECT count(*) FROM profile", as: Int64.self) == 0 { saved.isDefault = true }
      if saved.isDefault { try tx.execute("UPDATE profile SET isDefault = false WHERE isDefault") }
      if let id = try tx.value("SELECT id FROM profile WHERE name = \(profile.name)", as: Int64.self) {
        saved.id = id
        try tx.execute(
          """
          UPDATE profile SET isCoach = \(saved.isCoach), isDefault = \(saved.isDefault), profileJSON = \(json)
          WHERE id = \(id)
          """)
      } else {
        saved.id = try tx.value(
          """
          INSERT INTO profile (name, isCoach, isDefault, profileJSON)
          VALUES (\(saved.name), \(saved.isCoach), \(saved.isDefault), \(json)) RETURNING id
          """, as: Int64.self)
      }
      return saved
    }
  }

  /// Creates the profile `profile.name` (one INSERT: a name taken is ``LogbookError/profileExists(name:)``); the
  /// first profile becomes the default, decided in the same transaction.
  @discardableResult
  public func createProfile(_ profile: Profile) throws(LogbookError) -> Profile {
    try checkProfileName(profile.name)
    let json = try Self.json(profile, what: "profile")
    do {
      return try session.transaction(write: true) { tx in
        var created = profile
        created.id = nil
        if try tx.value("SELECT EXISTS (SELECT 1 FROM profile)", as: Bool.self) != true { created.isDefault = true }
        if created.isDefault { try tx.execute("UPDATE profile SET isDefault = false WHERE isDefault") }
        created.id = try tx.value(
          """
          INSERT INTO profile (name, isCoach, isDefault, profileJSON)
          VALUES (\(created.name), \(created.isCoach), \(created.isDefault), \(json)) RETURNING id
          """, as: Int64.self)
        return created
      }
    } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
      throw .profileExists(name: profile.name)
    } catch {
      throw session.describe(error)
    }
  }

  /// Changes the profile named `name` (the default one when nil) in one write transaction; errors thrown by
  /// `change` pass through unchanged.
  /// - Throws: ``LogbookError/noSuchProfile(name:known:)`` when there is no such profile,
  ///   ``LogbookError/noDefaultProfile(known:)`` when none is named and there is no default one.
  @discardableResult
  public func updateProfile(named name: String?, _ change: @escaping @Sendable (Profile) throws -> Profile) throws
    -> Profile
  {
    do {
      return try session.transaction(write: true) { tx in
        let query: PostgresQuery =
          if let name {
            "SELECT id, isCoach, isDefault, profileJSON FROM profile WHERE name = \(name)"
          } else {
            "SELECT id, isCoach, isDefault, profileJSON FROM profile WHERE isDefault LIMIT 1"
          }
        guard let row = try tx.rows(query).first else {
          let known = try tx.rows("SELECT name FROM profile ORDER BY name COLLATE \"C\"").map {
            try $0.decode(String.self)
          }
          throw Self.missingProfile(named: name, known: known)
        }
        let current = try Self.profile(row)
        var changed = try change(current)
        changed.id = current.id
        if changed.isDefault { try tx.execute("UPDATE profile SET isDefault = false WHERE isDefault") }
        let json = try Self.json(changed, what: "profile")
        try tx.execute(
          """
          UPDATE profile SET isCoach = \(changed.isCoach), isDefault = \(changed.isDefault), profileJSON = \(json)
          WHERE id = \(current.id)
          """)
        return changed
      }
    } catch let error as PSQLError {
      throw session.describe(error)
    }
  }

  /// Every profile, by name.
  public func profiles() throws(LogbookError) -> [Profile] {
    try read { tx in
      try tx.rows(
        PostgresQuery(unsafeSQL: "SELECT \(Self.profileColumns) FROM profile ORDER BY name COLLATE \"C\"")
      ).map(Self.profile)
    }
  }

  /// The profile named `name`, or the default one when `name` is nil (nil when there is none), read by its name: a
  /// club's database holds a profile per athlete, and a server looks one up on every request. The same answers as
  /// the protocol's reading of ``profiles()``.
  /// - Throws: ``LogbookError/noSuchProfile(name:known:)`` when no profile has that name.
  public func profile(named name: String?) throws(LogbookError) -> Profile? {
    let query: PostgresQuery =
      if let name {
        "SELECT \(unescaped: Self.profileColumns) FROM profile WHERE name = \(name)"
      } else {
        "SELECT \(unescaped: Self.profileColumns) FROM profile WHERE isDefault ORDER BY name COLLATE \"C\" LIMIT 1"
      }
    if let found = try read({ tx in try tx.rows(query).first.map(Self.profile) }) { return found }
    guard let name else { return nil }
    throw .noSuchProfile(name: name, known: try profiles().map(\.name))
  }

  /// Links an athlete to a coach.
  public func addAthlete(_ athlete: String, toCoach coach: String) throws(LogbookError) {
    let link = try coachLink(athlete: athlete, coach: coach)
    try write { tx in
      try tx.execute(
        """
        INSERT INTO coachAthlete (coachID, athleteID) VALUES (\(link.coachID), \(link.athleteID))
        ON CONFLICT DO NOTHING
        """)
    }
  }

  /// A coach's athletes, by name.
  public func athletes(ofCoach coach: String) throws(LogbookError) -> [Profile] {
    // Only the coach's athletes are read and decoded: a club's database holds a profile per athlete.
    try read { tx in
      try tx.rows(
        """
        SELECT athlete.id, athlete.isCoach, athlete.isDefault, athlete.profileJSON FROM profile AS athlete
        JOIN coachAthlete ON coachAthlete.athleteID = athlete.id
        JOIN profile AS coach ON coach.id = coachAthlete.coachID
        WHERE coach.name = \(coach) ORDER BY athlete.name COLLATE "C"
        """
      ).map(Self.profile)
    }
  }

  /// Links a saved plan to a profile (an athlete's plan).
  public func assignPlan(_ planID: String, toProfile profileID: Int64) throws(LogbookError) {
    try write { tx in try tx.execute("UPDATE plan SET profileID = \(profileID) WHERE id = \(planID)") }
  }

  /// The saved plans of a profile.
  public func plans(ofProfile profileID: Int64) throws(LogbookError) -> [SavedPlan] {
    // Only this profile's plans are decoded: a club's database holds a plan per athlete.
    try read { tx in
      try tx.rows(
        """
        SELECT \(unescaped: Self.planColumns) FROM plan WHERE profileID = \(profileID)
        ORDER BY active DESC, name COLLATE "C"
        """
      ).map(Self.savedPlan)
    }
  }

  // MARK: - Completions

  static let completionColumns = """
    id, date, startedAt, distanceKm, durationSeconds, movingSeconds, kind, rpe, averageHeartRate, \
    elevationGainMeters, note, source, sourceFile, planID, workoutID, status, sport, identity
    """

  /// A completion from its row (``completionColumns``), without its best efforts.
  static func completion(_ row: PostgresRow) throws -> Completion {
    let (
      id, date, startedAt, distanceKm, durationSeconds, movingSeconds, kind, rpe, averageHeartRate,
      elevationGainMeters, note, source, sourceFile, planID, workoutID, status, sport, identity
    ) = try row.decode(
      (
        Int64, String, Date?, Double, Double, Double?, String?, Int?, Int?, Double?, String?, String, String?,
        String?, String?, String?, String, String?
      ).self)
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

  /// The completions `condition` selects, by date then id.
  static func completions(where condition: String, in tx: PostgresTransaction) throws -> [Completion] {
    try tx.rows(
      PostgresQuery(
        unsafeSQL: "SELECT \(completionColumns) FROM completion \(condition) ORDER BY date COLLATE \"C\", id")
    ).map(completion)
  }

  /// `completions` with their stored best efforts, shortest first (reading only theirs when `onlyTheirs`, for a
  /// few runs of a large database).
  static func withBestEfforts(
    _ completions: [Completion], in tx: PostgresTransaction, onlyTheirs: Bool = false
  ) throws -> [Completion] {
    var byCompletion: [Int64: [BestEffort]] = [:]
    let ids = completions.compactMap(\.id)
    let rows = try tx.rows(
      onlyTheirs
        ? """
        SELECT completionID, distanceMeters, seconds, startOffsetSeconds FROM bestEffort
        WHERE completionID = ANY(\(ids)) ORDER BY distanceMeters
        """
        : "SELECT completionID, distanceMeters, seconds, startOffsetSeconds FROM bestEffort ORDER BY distanceMeters")
    for row in rows {
      let (id, meters, seconds, offset) = try row.decode((Int64, Double, Double, Double).self)
      byCompletion[id, default: []].append(
        BestEffort(distanceMeters: meters, seconds: seconds, startOffsetSeconds: offset))
    }
    guard !byCompletion.isEmpty else { return completions }
    return completions.map { completion in
      var completion = completion
      if let id = completion.id, let efforts = byCompletion[id] { completion.bestEfforts = efforts }
      return completion
    }
  }

  /// Adds completions as they are (no duplicate check, no matching) in one transaction and returns them with ids.
  /// - Throws: ``LogbookError/implausible(record:field:value:allowed:)`` before anything is written when a value is
  ///   impossible.
  public func addCompletions(_ completions: [Completion]) throws(LogbookError) -> [Completion] {
    for completion in completions { _ = try completion.validated() }
    return try write { tx in
      let rows = PostgresIngestWrites(tx: tx)
      return try completions.map { try rows.insert($0) }
    }
  }

  /// Every run, by date (cross-training left out: see ``crossTraining()``).
  public func completions() throws(LogbookError) -> [Completion] {
    try read { tx in
      try Self.withBestEfforts(Self.completions(where: "WHERE sport = '\(Sport.run.name)'", in: tx), in: tx)
    }
  }

  /// Every activity of another sport (cross-training), by date.
  public func crossTraining() throws(LogbookError) -> [Completion] {
    try read { tx in try Self.completions(where: "WHERE sport <> '\(Sport.run.name)'", in: tx) }
  }

  /// Deletes the completion with `id`, returning it, its week matched again against `slots`.
  public func deleteCompletion(id: Int64, slots: [PlannedSlot]) throws(LogbookError) -> Completion {
    let removed = try write { tx in
      let run = try tx.rows(
        PostgresQuery(
          unsafeSQL: "DELETE FROM completion WHERE id = $1 RETURNING \(Self.completionColumns)",
          binds: {
            var binds = PostgresBindings()
            binds.append(id)
            return binds
          }())
      ).first.map(Self.completion).map { try Self.recordDeleted($0, in: tx) }
      if let run, let planID = run.planID, !slots.isEmpty {
        let writes = PostgresPushWrites(tx: tx)
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
    let removed = try write { tx in
      try tx.rows(
        PostgresQuery(
          unsafeSQL: """
            DELETE FROM completion WHERE id = (SELECT max(id) FROM completion) RETURNING \(Self.completionColumns)
            """)
      ).first.map(Self.completion).map { try Self.recordDeleted($0, in: tx) }
    }
    guard let removed else { throw .nothingToUndo }
    return removed
  }

  /// Adds runs from any source the one way (``TrainingDomain/applyIngest(_:planID:slots:to:wroteRow:)``) in one
  /// write transaction: twins recognised, new runs matched to `slots`.
  /// - Throws: ``LogbookError/implausible(record:field:value:allowed:)`` before anything is written when a value is
  ///   impossible; nothing is written when any write fails.
  public func ingestRuns(_ candidates: [Completion], planID: String?, slots: [PlannedSlot])
    throws(LogbookError) -> IngestedRuns
  {
    for candidate in candidates { _ = try candidate.validated() }
    let hook = afterRowWritten
    return try write { tx in
      var rows = 0
      return try applyIngest(candidates, planID: planID, slots: slots, to: PostgresIngestWrites(tx: tx)) {
        rows += 1
        hook?(rows)
      }
    }
  }
}

/// The database's rows for ``TrainingDomain/applyIngest(_:planID:slots:to:wroteRow:)``, in a write transaction.
struct PostgresIngestWrites: IngestWrites {
  let tx: PostgresTransaction

  func storedActivities() throws -> [Completion] {
    try PostgresLogbook.withBestEfforts(PostgresLogbook.completions(where: "", in: tx), in: tx)
  }

  func planExists(id: String) throws -> Bool {
    try tx.value("SELECT EXISTS (SELECT 1 FROM plan WHERE id = \(id))", as: Bool.self) ?? false
  }

  func update(_ run: Completion) throws {
    guard let id = run.id else { return }
    try tx.execute(
      """
      UPDATE completion SET date = \(run.date.description), startedAt = \(run.startedAt.map(stored)),
        distanceKm = \(run.distanceKm), durationSeconds = \(run.durationSeconds), movingSeconds = \(run.movingSeconds),
        kind = \(run.kind?.rawValue), rpe = \(run.rpe), averageHeartRate = \(run.averageHeartRate),
        elevationGainMeters = \(run.elevationGainMeters), note = \(run.note), source = \(run.source.rawValue),
        sourceFile = \(run.sourceFile), planID = \(run.planID), workoutID = \(run.workoutID),
        status = \(run.status?.rawValue), sport = \(run.sport.name), identity = \(run.identity)
      WHERE id = \(id)
      """)
    if !run.bestEfforts.isEmpty { try saveBestEfforts(run.bestEfforts, completionID: id) }
  }

  func insert(_ run: Completion) throws -> Completion {
    let id = try tx.value(
      """
      INSERT INTO completion (date, startedAt, distanceKm, durationSeconds, movingSeconds, kind, rpe,
        averageHeartRate, elevationGainMeters, note, source, sourceFile, planID, workoutID, status, sport, identity)
      VALUES (\(run.date.description), \(run.startedAt.map(stored)), \(run.distanceKm), \(run.durationSeconds),
        \(run.movingSeconds), \(run.kind?.rawValue), \(run.rpe), \(run.averageHeartRate), \(run.elevationGainMeters),
        \(run.note), \(run.source.rawValue), \(run.sourceFile), \(run.planID), \(run.workoutID),
        \(run.status?.rawValue), \(run.sport.name), \(run.identity ?? recordIdentity(of: run)))
      RETURNING id
      """, as: Int64.self)
    guard let id else { throw LogbookError.database(detail: "an inserted run got no id") }
    // A run logged again after it was deleted is no longer one to remove from the coach's server.
    try tx.execute("DELETE FROM deletedRun WHERE identity = \(run.identity ?? recordIdentity(of: run))")
    try saveBestEfforts(run.bestEfforts, completionID: id)
    var saved = run
    saved.id = id
    return saved
  }

  /// Replaces the best efforts stored for the completion `id` with `efforts`.
  func saveBestEfforts(_ efforts: [BestEffort], completionID id: Int64) throws {
    try tx.execute("DELETE FROM bestEffort WHERE completionID = \(id)")
    for effort in efforts {
      try tx.execute(
        """
        INSERT INTO bestEffort (completionID, distanceMeters, seconds, startOffsetSeconds)
        VALUES (\(id), \(effort.distanceMeters), \(effort.seconds), \(effort.startOffsetSeconds))
        """)
    }
  }
}
