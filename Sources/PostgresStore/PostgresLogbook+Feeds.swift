import Foundation
import Ingest
import PostgresNIO
import RunningCore
import TrainingDomain

extension PostgresLogbook {
  // MARK: - Health

  /// Stores an import in one transaction: days upserted, new measures added, runs ingested as
  /// ``ingestRuns(_:planID:slots:)`` does. Killed midway, nothing of it is kept.
  /// - Throws: ``LogbookError/implausible(record:field:value:allowed:)`` before anything is written when a value is
  ///   impossible.
  public func saveHealth(
    days: [HealthDay], measures: [BodyMeasure], runs: [Completion], profile: String,
    planID: String?, slots: [PlannedSlot]
  ) throws(LogbookError) -> HealthImportResult {
    try validateHealthImport(days: days, measures: measures, runs: runs)
    let hook = afterRowWritten
    return try write { tx in
      var rows = 0
      return try applyHealthImport(
        days: days, measures: measures, runs: runs, profile: profile, planID: planID, slots: slots,
        to: PostgresIngestWrites(tx: tx)
      ) {
        rows += 1
        hook?(rows)
      }
    }
  }

  /// Every stored day of `profile`, by date.
  public func healthDays(profile: String) throws(LogbookError) -> [HealthDay] {
    try read { tx in
      try tx.rows(
        """
        SELECT date, steps, distanceKm, activeKcal FROM healthDay WHERE profile = \(profile) ORDER BY date COLLATE "C"
        """
      ).compactMap { row -> HealthDay? in
        let (date, steps, distance, kcal) = try row.decode((String, Double, Double, Double).self)
        guard let date = CivilDate(iso: date) else { return nil }
        return HealthDay(date: date, steps: steps, distanceKm: distance, activeEnergyKcal: kcal)
      }
    }
  }

  /// The latest measure of `kind` for `profile`.
  public func latestMeasure(kind: MeasureKind, profile: String) throws(LogbookError) -> BodyMeasure? {
    try read { tx in
      try tx.rows(
        """
        SELECT date, value FROM healthMeasure WHERE profile = \(profile) AND kind = \(kind.rawValue)
        ORDER BY date DESC LIMIT 1
        """
      ).first.map { row in
        let (date, value) = try row.decode((Date, Double).self)
        return BodyMeasure(kind: kind, date: date, value: value)
      }
    }
  }

  /// The best step count of `profile` before `date`.
  public func bestStepsBefore(_ date: CivilDate, profile: String) throws(LogbookError) -> Double {
    try read { tx in
      try tx.value(
        "SELECT max(steps) FROM healthDay WHERE profile = \(profile) AND date COLLATE \"C\" < \(date.description)",
        as: Double.self) ?? 0
    }
  }

  // MARK: - Feeds

  /// Stores a new feed for `planID` under the SHA-256 `tokenHash` of its secret token (32 bytes).
  /// - Throws: ``LogbookError`` when the hash is not 32 bytes or the plan is gone.
  public func createFeed(planID: String, tokenHash: [UInt8], at now: Date) throws(LogbookError) -> FeedSubscription {
    guard tokenHash.count == 32 else {
      throw .database(detail: "a feed token hash has 32 bytes, not \(tokenHash.count)")
    }
    let id = try write { tx in
      try tx.value(
        """
        INSERT INTO feedToken (planID, tokenHash, createdAt) VALUES (\(planID), \(Data(tokenHash)), \(stored(now)))
        RETURNING id
        """, as: Int64.self)
    }
    guard let id else { throw .database(detail: "a new feed got no number") }
    return try feed(id: id)
  }

  /// The feed numbered `id`.
  /// - Throws: ``LogbookError/noSuchFeed(id:known:)`` when there is none.
  public func feed(id: Int64) throws(LogbookError) -> FeedSubscription {
    guard let found = try feeds(planID: nil).first(where: { $0.id == id }) else {
      throw .noSuchFeed(id: id, known: try feeds(planID: nil).map(\.id))
    }
    return found
  }

  /// Every feed (of the plan `planID` only, when given), by number.
  public func feeds(planID: String?) throws(LogbookError) -> [FeedSubscription] {
    try read { tx in
      try tx.rows(
        """
        SELECT feedToken.id, feedToken.planID, plan.name, feedToken.createdAt, feedToken.lastFetchAt
        FROM feedToken JOIN plan ON plan.id = feedToken.planID
        WHERE \(planID)::text IS NULL OR feedToken.planID = \(planID)
        ORDER BY feedToken.id
        """
      ).map { row in
        let (id, plan, name, created, fetched) = try row.decode((Int64, String, String, Date, Date?).self)
        return FeedSubscription(id: id, planID: plan, planName: name, createdAt: created, lastFetchAt: fetched)
      }
    }
  }

  /// Replaces the token of feed `id`: the old token stops working at once.
  /// - Throws: ``LogbookError/noSuchFeed(id:known:)`` when there is no such feed.
  public func rotateFeed(id: Int64, tokenHash: [UInt8], at now: Date) throws(LogbookError) -> FeedSubscription {
    guard tokenHash.count == 32 else {
      throw .database(detail: "a feed token hash has 32 bytes, not \(tokenHash.count)")
    }
    let changed = try write { tx in
      try tx.execute(
        """
        UPDATE feedToken SET tokenHash = \(Data(tokenHash)), createdAt = \(stored(now)), lastFetchAt = NULL
        WHERE id = \(id)
        """)
    }
    guard changed == 1 else { throw .noSuchFeed(id: id, known: try feeds(planID: nil).map(\.id)) }
    return try feed(id: id)
  }

  /// Deletes feed `id`: its token stops working at once.
  /// - Throws: ``LogbookError/noSuchFeed(id:known:)`` when there is no such feed.
  public func revokeFeed(id: Int64) throws(LogbookError) -> FeedSubscription {
    let found = try feed(id: id)
    try write { tx in try tx.execute("DELETE FROM feedToken WHERE id = \(id)") }
    return found
  }

  /// The feed whose token hashes to `tokenHash`, with the change counter, in one read; nil for no such feed.
  public func feedAccess(tokenHash: [UInt8]) throws(LogbookError) -> FeedAccess? {
    guard tokenHash.count == 32 else { return nil }
    return try read { tx in
      try tx.rows(
        """
        SELECT feedToken.id, feedToken.planID, feedToken.tokenHash, feedToken.lastFetchAt, dataVersion.version,
          dataVersion.changedAt
        FROM feedToken, dataVersion WHERE feedToken.tokenHash = \(Data(tokenHash))
        """
      ).first.map { row in
        let (id, plan, hash, fetched, version, changed) = try row.decode((Int64, String, Data, Date?, Int64, Date).self)
        return FeedAccess(
          feedID: id, planID: plan, tokenHash: Array(hash), lastFetchAt: fetched, dataVersion: version,
          changedAt: changed)
      }
    }
  }

  /// The change counter and when it last moved (see ``FeedAccess/dataVersion``).
  public func dataVersion() throws(LogbookError) -> (version: Int64, changedAt: Date) {
    try read { tx in
      guard let row = try tx.rows("SELECT version, changedAt FROM dataVersion WHERE id = 1").first else {
        throw LogbookError.database(detail: "the dataVersion row is missing")
      }
      let (version, changed) = try row.decode((Int64, Date).self)
      return (version, changed)
    }
  }

  /// Notes that a calendar fetched feed `id` at `now` (the feeds table is not watched: no feed is re-rendered).
  public func recordFeedFetch(id: Int64, at now: Date) throws(LogbookError) {
    try write { tx in try tx.execute("UPDATE feedToken SET lastFetchAt = \(stored(now)) WHERE id = \(id)") }
  }

  // MARK: - CalDAV

  /// What the syncs of the calendar `identity` left in the collection at `collection`, by UID.
  public func caldavRecords(identity: String, collection: String) throws(LogbookError) -> [CalDAVRecord] {
    try read { tx in
      try tx.rows(
        """
        SELECT uid, href, etag, bodyHash, body, label FROM caldavResource
        WHERE identity = \(identity) AND collection = \(collection) ORDER BY uid COLLATE "C"
        """
      ).map { row in
        let (uid, href, etag, hash, body, label) = try row.decode((String, String, String?, Data, String, String).self)
        return CalDAVRecord(uid: uid, href: href, etag: etag, bodyHash: Array(hash), body: body, label: label)
      }
    }
  }

  /// How many resources the syncs of each calendar identity left in the collection at `collection`.
  public func caldavIdentities(collection: String) throws(LogbookError) -> [String: Int] {
    try read { tx in
      var counts: [String: Int] = [:]
      for row in try tx.rows(
        "SELECT identity, count(*) FROM caldavResource WHERE collection = \(collection) GROUP BY identity")
      {
        let (identity, count) = try row.decode((String, Int).self)
        counts[identity] = count
      }
      return counts
    }
  }

  /// Records a sync in one transaction: `stored` replace their records, the records of `removed` UIDs go.
  /// - Throws: ``LogbookError`` when a hash is not 32 bytes or the write fails (nothing is recorded then).
  public func recordCalDAVSync(
    identity: String, collection: String, stored records: [CalDAVRecord], removed: [String], at now: Date
  ) throws(LogbookError) {
    if let bad = records.first(where: { $0.bodyHash.count != 32 }) {
      throw .database(detail: "a CalDAV body hash has 32 bytes, not \(bad.bodyHash.count)")
    }
    try write { tx in
      for record in records {
        try tx.execute(
          """
          INSERT INTO caldavResource (identity, collection, uid, href, etag, bodyHash, body, label, syncedAt)
          VALUES (\(identity), \(collection), \(record.uid), \(record.href), \(record.etag), \(Data(record.bodyHash)),
            \(record.body), \(record.label), \(stored(now)))
          ON CONFLICT (identity, collection, uid) DO UPDATE SET href = excluded.href, etag = excluded.etag,
            bodyHash = excluded.bodyHash, body = excluded.body, label = excluded.label, syncedAt = excluded.syncedAt
          """)
      }
      for uid in removed {
        try tx.execute(
          "DELETE FROM caldavResource WHERE identity = \(identity) AND collection = \(collection) AND uid = \(uid)")
      }
    }
  }
}

extension PostgresIngestWrites: HealthWrites {
  func bestSteps(profile: String) throws -> Double? {
    try tx.value("SELECT max(steps) FROM healthDay WHERE profile = \(profile)", as: Double.self)
  }

  func storedDay(profile: String, date: CivilDate) throws -> HealthDay? {
    try tx.rows(
      """
      SELECT steps, distanceKm, activeKcal FROM healthDay WHERE profile = \(profile) AND date = \(date.description)
      """
    ).first.map { row in
      let (steps, distance, kcal) = try row.decode((Double, Double, Double).self)
      return HealthDay(date: date, steps: steps, distanceKm: distance, activeEnergyKcal: kcal)
    }
  }

  func upsert(_ day: HealthDay, profile: String) throws {
    try tx.execute(
      """
      INSERT INTO healthDay (profile, date, steps, distanceKm, activeKcal)
      VALUES (\(profile), \(day.date.description), \(day.steps), \(day.distanceKm), \(day.activeEnergyKcal))
      ON CONFLICT (profile, date) DO UPDATE SET steps = excluded.steps, distanceKm = excluded.distanceKm,
        activeKcal = excluded.activeKcal
      """)
  }

  func insertIfNew(_ measure: BodyMeasure, profile: String) throws -> Bool {
    try tx.execute(
      """
      INSERT INTO healthMeasure (profile, kind, date, value)
      VALUES (\(profile), \(measure.kind.rawValue), \(stored(measure.date)), \(measure.value)) ON CONFLICT DO NOTHING
      """) > 0
  }
}
