import Foundation
import Ingest
import Logbook
import PlanEngine
import RunMateTestSupport
import Testing
import TrainingDomain

/// The `status` column (migration v6-ingest-status) on a database from the first release, and partial runs stored.
@Suite struct IngestStoreTests {
  @Test func anOldDatabaseGainsTheStatusColumnItsMatchedRunsAreDone() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ingest-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let fixture = try fixtureURL("schema-v1.sqlite")
    let path = dir.appendingPathComponent("old.sqlite").path
    try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
    let db = try LogbookDatabase(path: path)
    let runs = try db.completions()
    #expect(runs.map(\.status) == runs.map { $0.workoutID == nil ? nil : MatchStatus.done })
    #expect(runs.first?.status == .done)
    // A run much shorter than its planned workout is stored partial, and read back so.
    let saved = try db.plan(named: "v1 plan")
    let taken = Set(runs.compactMap(\.workoutID))
    let open = try #require(saved.plan.workouts.first { !taken.contains($0.id) && $0.kind != .race })
    let slot = PlannedSlot(workoutID: open.id, date: open.date, kind: open.kind, distanceKm: open.distanceKm)
    let short = Completion(date: open.date, distanceKm: open.distanceKm * 0.5, durationSeconds: 1200)
    let added = try db.ingestRuns([short], planID: saved.id, slots: [slot])
    #expect(added.added.first?.match?.status == .partial)
    let reopened = try LogbookDatabase(path: path).completions()
    #expect(reopened.last?.workoutID == open.id && reopened.last?.status == .partial)
  }
}
