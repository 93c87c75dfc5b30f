import Foundation
import PostgresNIO
import TrainingDomain

/// The logbook's schema on PostgreSQL: the same append-only migrations as the SQLite logbook's (Sources/Logbook),
/// under the same identifiers and in the same order, recorded in `runmate_migrations`. A schema change adds a
/// migration to both engines; a shipped one is never edited. A change to how PostgreSQL alone does something (its
/// trigger functions) is a migration of its own, named `pg-…`.
///
/// Names are unquoted, so PostgreSQL folds them to lower case (`savedAt` is `savedat`); every statement writes them as
/// SQLite's schema does. Text that is sorted is compared byte by byte (`COLLATE "C"` where read), as SQLite does.
enum PostgresMigrations {
  /// The tables a plan's calendar is made from: a change to any of them moves the change counter (as in SQLite).
  static let watchedTables = ["plan", "scheduledWorkout", "export", "profile", "completion"]

  /// Every migration, in order: its identifier (the same as SQLite's GRDB migration) and its statements.
  static let all: [(identifier: String, statements: [String])] = [
    (
      "v1-plans-and-completions",
      [
        """
        CREATE TABLE plan (id text PRIMARY KEY, name text NOT NULL UNIQUE, active boolean NOT NULL DEFAULT false,
          savedAt timestamptz NOT NULL, planJSON text NOT NULL)
        """,
        """
        CREATE TABLE completion (id bigserial PRIMARY KEY, date text NOT NULL, startedAt timestamptz,
          distanceKm double precision NOT NULL CHECK (distanceKm > 0),
          durationSeconds double precision NOT NULL CHECK (durationSeconds > 0), movingSeconds double precision,
          kind text, rpe bigint CHECK (rpe IS NULL OR (rpe >= 1 AND rpe <= 10)), averageHeartRate bigint,
          elevationGainMeters double precision, note text, source text NOT NULL, sourceFile text,
          planID text REFERENCES plan (id) ON DELETE SET NULL, workoutID text)
        """,
        "CREATE INDEX completion_on_date ON completion (date)",
      ]
    ),
    (
      "v2-exports",
      [
        """
        CREATE TABLE export (id bigserial PRIMARY KEY, identity text NOT NULL, path text NOT NULL,
          exportedAt timestamptz NOT NULL, calendar text NOT NULL)
        """,
        "CREATE INDEX export_on_identity ON export (identity)",
      ]
    ),
    (
      "v3-profiles",
      [
        """
        CREATE TABLE profile (id bigserial PRIMARY KEY, name text NOT NULL UNIQUE,
          isCoach boolean NOT NULL DEFAULT false, isDefault boolean NOT NULL DEFAULT false, profileJSON text NOT NULL)
        """,
        """
        CREATE TABLE coachAthlete (coachID bigint NOT NULL REFERENCES profile (id) ON DELETE CASCADE,
          athleteID bigint NOT NULL REFERENCES profile (id) ON DELETE CASCADE, PRIMARY KEY (coachID, athleteID))
        """,
        "ALTER TABLE plan ADD COLUMN profileID bigint REFERENCES profile (id) ON DELETE SET NULL",
      ]
    ),
    (
      "v4-health",
      [
        """
        CREATE TABLE healthDay (profile text NOT NULL, date text NOT NULL,
          steps double precision NOT NULL CHECK (steps >= 0), distanceKm double precision NOT NULL CHECK (distanceKm >= 0),
          activeKcal double precision NOT NULL CHECK (activeKcal >= 0), PRIMARY KEY (profile, date))
        """,
        """
        CREATE TABLE healthMeasure (profile text NOT NULL, kind text NOT NULL, date timestamptz NOT NULL,
          value double precision NOT NULL, PRIMARY KEY (profile, kind, date))
        """,
      ]
    ),
    (
      "v5-schedule",
      [
        "ALTER TABLE plan ADD COLUMN scheduleJSON text",
        """
        CREATE TABLE scheduledWorkout (planID text NOT NULL REFERENCES plan (id) ON DELETE CASCADE,
          workoutID text NOT NULL, week bigint NOT NULL, date text NOT NULL, plannedDate text NOT NULL,
          startMinute bigint CHECK (startMinute IS NULL OR (startMinute >= 0 AND startMinute < 1440)),
          timeZone text NOT NULL, kind text NOT NULL, distanceKm double precision NOT NULL,
          PRIMARY KEY (planID, workoutID))
        """,
      ]
    ),
    (
      "v6-ingest-status",
      [
        "ALTER TABLE completion ADD COLUMN status text CHECK (status IS NULL OR status = 'done' OR status = 'partial')",
        "UPDATE completion SET status = 'done' WHERE workoutID IS NOT NULL",
      ]
    ),
    (
      "v7-completion-sport",
      ["ALTER TABLE completion ADD COLUMN sport text NOT NULL DEFAULT '\(Sport.run.name)'"]
    ),
    (
      "v8-feed-tokens",
      [
        """
        CREATE TABLE feedToken (id bigserial PRIMARY KEY,
          planID text NOT NULL REFERENCES plan (id) ON DELETE CASCADE,
          tokenHash bytea NOT NULL UNIQUE CHECK (length(tokenHash) = 32), createdAt timestamptz NOT NULL,
          lastFetchAt timestamptz)
        """,
        "CREATE INDEX feedToken_on_planID ON feedToken (planID)",
        """
        CREATE TABLE dataVersion (id bigint PRIMARY KEY CHECK (id = 1), version bigint NOT NULL,
          changedAt timestamptz NOT NULL)
        """,
        "INSERT INTO dataVersion (id, version, changedAt) VALUES (1, 0, date_trunc('milliseconds', clock_timestamp()))",
        // One row moved by every row written to the watched tables, as SQLite's triggers do.
        """
        CREATE FUNCTION runmate_moves_data_version() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          UPDATE dataVersion SET version = version + 1, changedAt = date_trunc('milliseconds', clock_timestamp());
          RETURN NULL;
        END
        $$
        """,
      ]
        + watchedTables.map { table in
          """
          CREATE TRIGGER \(table)_moves_data_version AFTER INSERT OR UPDATE OR DELETE ON \(table)
          FOR EACH ROW EXECUTE FUNCTION runmate_moves_data_version()
          """
        }
    ),
    (
      "v9-caldav-sync",
      [
        """
        CREATE TABLE caldavResource (identity text NOT NULL, collection text NOT NULL, uid text NOT NULL,
          href text NOT NULL, etag text, bodyHash bytea NOT NULL CHECK (length(bodyHash) = 32), body text NOT NULL,
          label text NOT NULL, syncedAt timestamptz NOT NULL, PRIMARY KEY (identity, collection, uid))
        """
      ]
    ),
    (
      "v10-best-efforts",
      [
        """
        CREATE TABLE bestEffort (completionID bigint NOT NULL REFERENCES completion (id) ON DELETE CASCADE,
          distanceMeters double precision NOT NULL CHECK (distanceMeters > 0),
          seconds double precision NOT NULL CHECK (seconds > 0),
          startOffsetSeconds double precision NOT NULL CHECK (startOffsetSeconds >= 0),
          PRIMARY KEY (completionID, distanceMeters))
        """
      ]
    ),
    (
      "v11-accounts",
      [
        """
        CREATE TABLE account (id bigserial PRIMARY KEY, login text NOT NULL, loginKey text NOT NULL UNIQUE,
          role text NOT NULL CHECK (role IN ('coach', 'athlete')),
          profileID bigint NOT NULL REFERENCES profile (id) ON DELETE CASCADE, passwordHash text NOT NULL,
          createdAt timestamptz NOT NULL)
        """,
        "CREATE INDEX account_on_profileID ON account (profileID)",
        """
        CREATE TABLE sessionToken (id bigserial PRIMARY KEY,
          accountID bigint NOT NULL REFERENCES account (id) ON DELETE CASCADE,
          tokenHash bytea NOT NULL UNIQUE CHECK (length(tokenHash) = 32), createdAt timestamptz NOT NULL,
          expiresAt timestamptz NOT NULL, revokedAt timestamptz)
        """,
        "CREATE INDEX sessionToken_on_accountID ON sessionToken (accountID)",
        """
        CREATE TABLE workoutComment (id bigserial PRIMARY KEY,
          athleteID bigint NOT NULL REFERENCES profile (id) ON DELETE CASCADE,
          planID text NOT NULL REFERENCES plan (id) ON DELETE CASCADE, date text NOT NULL,
          authorAccountID bigint NOT NULL REFERENCES account (id) ON DELETE CASCADE, text text NOT NULL,
          createdAt timestamptz NOT NULL)
        """,
        "CREATE INDEX workoutComment_on_athlete_plan_date ON workoutComment (athleteID, planID, date)",
        """
        CREATE TABLE auditLog (id bigserial PRIMARY KEY,
          accountID bigint REFERENCES account (id) ON DELETE SET NULL, login text, action text NOT NULL,
          athleteID bigint REFERENCES profile (id) ON DELETE SET NULL, athlete text, detail text NOT NULL,
          at timestamptz NOT NULL)
        """,
        "CREATE INDEX completion_on_plan_date ON completion (planID, date COLLATE \"C\")",
        "CREATE INDEX plan_on_profileID ON plan (profileID)",
      ]
    ),
    (
      "v12-pushed-runs",
      [
        """
        CREATE TABLE pushedRun (profileID bigint NOT NULL REFERENCES profile (id) ON DELETE CASCADE,
          clientID text NOT NULL, completionID bigint NOT NULL REFERENCES completion (id) ON DELETE CASCADE,
          pushedAt timestamptz NOT NULL, PRIMARY KEY (profileID, clientID))
        """,
        "CREATE INDEX pushedRun_on_completionID ON pushedRun (completionID)",
      ]
    ),
    (
      // The change counter moves once per transaction, not once per row: PostgreSQL writes a new version of the
      // counter's row for every UPDATE, and the versions one transaction leaves behind cannot be pruned before it
      // ends, so each row of a bulk write walked all the versions before it (64,000 rows of a coach's plans took
      // minutes; now 0.8 s). The guard skips the UPDATE when this transaction already wrote the row (its xmin).
      "pg-data-version-per-transaction",
      [
        """
        CREATE OR REPLACE FUNCTION runmate_moves_data_version() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          UPDATE dataVersion SET version = version + 1, changedAt = date_trunc('milliseconds', clock_timestamp())
            WHERE NOT (xmin = pg_current_xact_id()::xid);
          RETURN NULL;
        END
        $$
        """
      ]
    ),
    (
      "v13-pulled-comments",
      [
        """
        CREATE TABLE pulledComment (server text NOT NULL, serverID bigint NOT NULL,
          planID text REFERENCES plan (id) ON DELETE CASCADE, date text NOT NULL, author text NOT NULL,
          text text NOT NULL, createdAt timestamptz NOT NULL, PRIMARY KEY (server, serverID))
        """,
        "CREATE INDEX pulledComment_on_plan_date ON pulledComment (planID, date COLLATE \"C\")",
        // The comments are in the plan's calendar: writing them moves the change counter, as in SQLite.
        """
        CREATE TRIGGER pulledComment_moves_data_version AFTER INSERT OR UPDATE OR DELETE ON pulledComment
        FOR EACH ROW EXECUTE FUNCTION runmate_moves_data_version()
        """,
      ]
    ),
    (
      "v14-run-identity",
      [
        "ALTER TABLE completion ADD COLUMN identity text",
        "CREATE INDEX completion_on_identity ON completion (identity)",
      ]
    ),
    (
      // The identities of runs deleted from the logbook, which `runmate push` asks the server to remove.
      "v15-deleted-runs",
      ["CREATE TABLE deletedRun (identity text PRIMARY KEY, deletedAt timestamptz NOT NULL)"]
    ),
    (
      // Which plan followed which from what day: a run of an earlier block's day counts for that block.
      "v16-plan-succession",
      ["CREATE TABLE planSuccession (planID text PRIMARY KEY, followedBy text NOT NULL, fromDay text NOT NULL)"]
    ),
  ]

  /// Brings the database up to date in one transaction (under the write lock, so processes opening a new database at
  /// once take turns): refuses a database with other tables and no migration record (another program's), or with a
  /// migration this version does not know (a newer RunningMate's), then applies the missing ones in order.
  static func migrate(_ session: PostgresSession) throws(LogbookError) {
    let shown = session.location.shown
    do {
      try session.transaction(write: true) { transaction in
        let hasRecord =
          try transaction.value("SELECT to_regclass('runmate_migrations') IS NOT NULL", as: Bool.self) ?? false
        if !hasRecord {
          let tables =
            try transaction.value(
              "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()", as: Int64.self) ?? 0
          if tables > 0 { throw LogbookError.notOurs(path: shown) }
          try transaction.execute(
            "CREATE TABLE runmate_migrations (identifier text PRIMARY KEY, appliedAt timestamptz NOT NULL DEFAULT now())"
          )
        }
        var applied = Set<String>()
        for row in try transaction.rows("SELECT identifier FROM runmate_migrations") {
          applied.insert(try row.decode(String.self))
        }
        if let unknown = applied.subtracting(all.map(\.identifier)).sorted().first {
          throw LogbookError.newerSchema(path: shown, migration: unknown)
        }
        for migration in all where !applied.contains(migration.identifier) {
          for statement in migration.statements { try transaction.execute(PostgresQuery(unsafeSQL: statement)) }
          try transaction.execute("INSERT INTO runmate_migrations (identifier) VALUES (\(migration.identifier))")
        }
      }
    } catch {
      throw session.describe(error)
    }
  }
}
