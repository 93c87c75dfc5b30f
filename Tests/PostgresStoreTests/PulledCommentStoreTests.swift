import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import TrainingDomain

/// The coaches' comments `runmate pull` keeps, on both engines: one per server and comment number however often they
/// are pulled, read by plan and range of days in date order, gone with their plan, and moving the change counter
/// (they are in the plan's calendar).
@Suite(.timeLimit(.minutes(1))) struct PulledCommentStoreTests {
  let written = Date(timeIntervalSince1970: 1_800_000_000.125)  // whole milliseconds, as the stores keep them

  func comment(_ id: Int64, _ date: CivilDate, _ text: String, by author: String = "kim") -> CoachComment {
    CoachComment(
      serverID: id, date: date, author: author, text: text, createdAt: written.addingTimeInterval(Double(id)))
  }

  @Test(arguments: Engine.available) func aCommentPulledTwiceIsKeptOnce(engine: Engine) throws {
    let store = try TestStore(engine)
    defer { store.remove() }
    let db = try store.open()
    let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
    let saved = try db.savePlan(plan, name: "spring", activate: true)
    let server = "https://coach.example"
    let first = [
      comment(7, testStart.adding(days: 3), "Easy does it"), comment(3, testStart.adding(days: 1), "Good start"),
    ]

    #expect(try db.keepPulledComments(first, server: server, planID: saved.id) == 2)
    // The same comments again (a pull from the start, after logging in again) and one new: only the new one is kept.
    let later = comment(9, testStart.adding(days: 1), "And strides next time", by: "ana")
    #expect(try db.keepPulledComments(first + [later], server: server, planID: saved.id) == 1)
    // Another server numbers its comments its own way: its comment 3 is another comment.
    let other = comment(3, testStart.adding(days: 5), "From the club")
    #expect(try db.keepPulledComments([other], server: "https://club.example", planID: saved.id) == 1)

    let kept = try db.pulledComments(planID: saved.id, from: testStart, through: testStart.adding(days: 6))
    // By date, then server, then number; as written, to the millisecond.
    #expect(kept.map(\.text) == ["Good start", "And strides next time", "Easy does it", "From the club"])
    #expect(kept[0] == first[1])
    #expect(kept[1].author == "ana" && kept[1].serverID == 9)
    #expect(kept.allSatisfy { $0.workout == nil })
    // A range of days, both ends included.
    let oneDay = try db.pulledComments(
      planID: saved.id, from: testStart.adding(days: 1), through: testStart.adding(days: 1))
    #expect(oneDay.map(\.serverID) == [3, 9])
    #expect(try db.pulledComments(planID: "another-plan", from: testStart, through: testStart.adding(days: 6)).isEmpty)
    #expect(try db.keepPulledComments([], server: server, planID: saved.id) == 0)
  }

  @Test(arguments: Engine.available) func commentsMoveTheChangeCounterAndGoWithTheirPlan(engine: Engine) throws {
    let store = try TestStore(engine)
    defer { store.remove() }
    let db = try store.open()
    let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
    let saved = try db.savePlan(plan, name: "spring", activate: true)
    let before = try db.dataVersion().version
    _ = try db.keepPulledComments([comment(1, testStart, "Welcome")], server: "s", planID: saved.id)
    #expect(try db.dataVersion().version > before)
    // Kept again: nothing written, the counter stays.
    let kept = try db.dataVersion().version
    #expect(try db.keepPulledComments([comment(1, testStart, "Welcome")], server: "s", planID: saved.id) == 0)
    #expect(try db.dataVersion().version == kept)
    // Saving the plan again (a pull's or a replan's new version) keeps them; deleting it removes them.
    _ = try db.savePlan(plan, name: "spring", activate: true)
    #expect(try db.pulledComments(planID: saved.id, from: testStart, through: testStart).count == 1)
    // A comment pulled before the logbook had a plan is kept, with none.
    #expect(try db.keepPulledComments([comment(2, testStart, "Hello")], server: "s", planID: nil) == 1)
    try db.deletePlan(named: "spring")
    _ = try db.savePlan(plan, name: "spring", activate: true)
    #expect(try db.pulledComments(planID: saved.id, from: testStart, through: testStart).isEmpty)
    // The snapshot (`database copy`) carries the one left.
    let rows = try db.snapshot().first { $0.shape.name == "pulledComment" }?.rows ?? []
    #expect(rows.count == 1)
    #expect(rows.first?[1] == .integer(2))
  }
}
