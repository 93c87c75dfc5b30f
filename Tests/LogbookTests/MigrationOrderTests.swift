import Foundation
import Logbook
import PlanEngine
import RunMateTestSupport
import Testing
import TrainingDomain

/// The migrations added on top of a released schema run after it, so a logbook written by the previous runmate
/// upgrades (GRDB applies migrations in the order they are registered, and refuses none it already ran).
@Suite struct MigrationOrderTests {
  /// The migrations this branch adds after `v7-completion-sport` (the last one of the runmate before it), in order.
  static let added = [
    "v8-feed-tokens", "v9-caldav-sync", "v10-best-efforts", "v11-accounts", "v12-pushed-runs",
    "v13-pulled-comments", "v14-run-identity", "v15-deleted-runs", "v16-plan-succession",
  ]

  /// The identifiers recorded in `grdb_migrations` of the logbook at `path`, in the order they were applied.
  func applied(_ path: String) throws -> [String] {
    try sqliteRows("select identifier from grdb_migrations order by rowid", in: path)
  }

  @Test(.enabled(if: SQLiteScript.hasPython, "needs python3")) func theNewMigrationsComeAfterTheCompletionSport()
    throws
  {
    let dir = try temporaryDirectory("logbook")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("fresh.sqlite").path
    _ = try LogbookDatabase(path: path)
    let order = try applied(path)
    let sport = try #require(order.firstIndex(of: "v7-completion-sport"))
    #expect(Array(order[(sport + 1)...]) == Self.added)
  }

  @Test(.enabled(if: SQLiteScript.hasPython, "needs python3")) func aLogbookOfTheRunmateBeforeUpgradesAndKeepsItsData()
    throws
  {
    let dir = try temporaryDirectory("logbook")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("v7.sqlite").path
    let plan = try makePlan(goal: goal(.half, .intermediate, weeks: 12), rules: repositoryRules)
    do {
      let db = try LogbookDatabase(path: path)
      _ = try db.savePlan(plan, name: "spring", activate: true)
    }
    // Back to the schema of the runmate before this branch: what the new migrations made is dropped, and so is
    // their record, as in a logbook that runmate wrote.
    let identifiers = Self.added.map { "'\($0)'" }.joined(separator: ",")
    try python(
      "[c.execute('drop trigger ' + r[0]) for r in c.execute(\"select name from sqlite_master where type = 'trigger' "
        + "and name like '%moves_data_version'\").fetchall()]; "
        + "c.execute('drop table feedToken'); c.execute('drop table dataVersion'); "
        + "c.execute('drop table caldavResource'); c.execute('drop table bestEffort'); "
        + "[c.execute('drop table ' + t) for t in ['planSuccession', 'deletedRun', 'pulledComment', 'pushedRun', 'auditLog', 'workoutComment', 'sessionToken', "
        + "'account']]; "
        + "c.execute('drop index completion_on_plan_date'); c.execute('drop index plan_on_profileID'); "
        + "c.execute('drop index completion_on_identity'); c.execute('alter table completion drop column identity'); "
        + "c.execute(\"delete from grdb_migrations where identifier in (\(identifiers))\")", path)
    #expect(try applied(path).last == "v7-completion-sport")

    let upgraded = try LogbookDatabase(path: path)
    #expect(try upgraded.plan(named: nil).plan == plan)
    #expect(Array(try applied(path).suffix(Self.added.count)) == Self.added)
    let feed = try upgraded.createFeed(
      planID: try upgraded.plan(named: nil).id, tokenHash: Array(repeating: 7, count: 32), at: Date())
    #expect(try upgraded.feeds().map(\.id) == [feed.id])
    let record = CalDAVRecord(
      uid: "rm-x-r01-q1@runningmate", href: "/u/cal/rm-x-r01-q1@runningmate.ics", etag: "\"1\"",
      bodyHash: Array(repeating: 1, count: 32), body: "BEGIN:VCALENDAR", label: "W1 Easy")
    try upgraded.recordCalDAVSync(
      identity: "rm-x", collection: "http://127.0.0.1/u/cal/", stored: [record], removed: [], at: Date())
    #expect(try upgraded.caldavRecords(identity: "rm-x", collection: "http://127.0.0.1/u/cal/") == [record])
    #expect(try upgraded.caldavRecords(identity: "rm-x", collection: "http://127.0.0.1/u/other/").isEmpty)
  }
}
