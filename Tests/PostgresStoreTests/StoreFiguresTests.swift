import Foundation
import Ingest
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import TrainingDomain

/// How long both engines take for a year of runs and for the reads every command starts with; printed, and bounded
/// loosely (a debug build on a shared machine), so a store that went quadratic or lost its transaction fails.
@Suite(.timeLimit(.minutes(1))) struct StoreFiguresTests {
  @Test(arguments: Engine.available) func aYearOfRunsIsStoredAndReadInSeconds(engine: Engine) throws {
    let store = try TestStore(engine)
    defer { store.remove() }
    let db = try store.open()
    let plan = try makePlan(goal: goal(.marathon, .intermediate, weeks: 18), rules: repositoryRules)
    let clock = ContinuousClock()
    let saving = clock.measure { _ = try? db.savePlan(plan, name: "spring", activate: true) }
    let start = try #require(CivilDate(iso: "2026-01-01"))
    let year = (0..<365).map { (offset: Int) -> Completion in
      Completion(
        date: start.adding(days: offset),
        startedAt: Date(timeIntervalSince1970: 1_767_225_600 + Double(offset) * 86_400),
        distanceKm: 5 + Double(offset % 7), durationSeconds: 1800 + Double(offset % 11) * 60, source: .gpx,
        sourceFile: "run-\(offset).gpx")
    }
    var added = 0
    let storing = clock.measure { added = (try? db.ingestRuns(year, planID: nil, slots: []).added.count) ?? -1 }
    #expect(added == 365)
    var again = -1
    let storingAgain = clock.measure { again = (try? db.ingestRuns(year, planID: nil, slots: []).twins.count) ?? -1 }
    #expect(again == 365)
    var read = 0
    let reading = clock.measure { read = (try? db.completions().count) ?? -1 }
    #expect(read == 365)
    let planReads = clock.measure {
      for _ in 0..<100 { _ = try? db.plan(named: nil) }
    }
    print(
      "figures[\(engine)]: save an 18-week plan \(saving), store 365 runs \(storing), the same again (all twins) "
        + "\(storingAgain), read them \(reading), 100 plan reads \(planReads)")
    #expect(storing < .seconds(15) && storingAgain < .seconds(15))
  }
}
