import Foundation
import Ingest
import Logbook
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import TrainingDomain

/// What enters the store: runs read, checked for duplicates, matched and written in one transaction; impossible
/// values refused naming the field; an impossible value stored by an older version still read and deleted.
@Suite struct StoreBoundaryTests {
  func timed(_ date: String, _ time: String, km: Double, minutes: Double = 30) throws -> Completion {
    let start = try #require(ISO8601DateFormatter().date(from: "\(date)T\(time)Z"))
    return Completion(
      date: try #require(CivilDate(iso: date)), startedAt: start, distanceKm: km,
      durationSeconds: minutes * 60, source: .gpx, sourceFile: "\(date).gpx")
  }

  // MARK: - ingestRuns

  func slots(_ plan: Plan) -> [PlannedSlot] {
    plan.weeks.flatMap { week in
      week.workouts.map {
        PlannedSlot(
          workoutID: $0.id, date: $0.date, kind: $0.kind, distanceKm: $0.distanceKm,
          weekStart: week.start)
      }
    }
  }

  @Test func ingestRunsSkipsTheSameRunAndMatchesEachWorkoutOnce() throws {
    let db = try LogbookDatabase()
    let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
    let saved = try db.savePlan(plan, name: "spring", activate: true)
    let workout = try #require(plan.workouts.first)
    let first = try timed(workout.date.description, "07:00:00", km: workout.distanceKm)
    // The same run again in the batch (a GPX and its TCX twin: 60 s and 1 % apart) is skipped.
    let twin = try timed(workout.date.description, "07:01:00", km: workout.distanceKm * 1.01)
    let added = try db.ingestRuns([first, twin], planID: saved.id, slots: slots(plan))
    #expect(added.before.isEmpty)
    #expect(added.added.count == 1)
    #expect(added.twins.map(\.candidate) == [twin] && added.twins.first?.wasStored == false)
    #expect(added.added.first?.run.workoutID == workout.id)
    #expect(added.added.first?.run.status == .done)
    #expect(added.added.first?.run.planID == plan.id)
    #expect(added.added.first?.run.id != nil)
    // Again (an import run twice): a twin. The same run logged by hand is one run too: its note joins the record.
    var manual = Completion(date: workout.date, distanceKm: workout.distanceKm, durationSeconds: 1800)
    manual.note = "felt easy"
    let again = try db.ingestRuns([first, manual], planID: saved.id, slots: slots(plan))
    #expect(again.added.isEmpty)
    #expect(again.twins.map(\.candidate) == [first, manual])
    #expect(again.twins.map(\.merged) == [false, true])
    #expect(try db.completions().map(\.note) == ["felt easy"])
    #expect(try db.completions().first?.source == .gpx)
    // Another run that day cannot take the matched workout.
    let evening = try timed(workout.date.description, "19:00:00", km: workout.distanceKm)
    let third = try db.ingestRuns([evening], planID: saved.id, slots: slots(plan))
    #expect(third.added.first?.run.workoutID != workout.id)
    #expect(try db.completions().count == 2)
    // Without a plan, runs are stored unplanned.
    let unplanned = try db.ingestRuns([try timed("2030-01-01", "07:00:00", km: 5)], planID: nil, slots: [])
    #expect(unplanned.added.first?.run.planID == nil && unplanned.added.first?.run.workoutID == nil)
    #expect(unplanned.added.first?.run.status == nil)
  }

  @Test func aDeviceRecordReplacesItsHandLoggedTwinKeepingNoteEffortAndMatch() throws {
    let db = try LogbookDatabase()
    let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
    let saved = try db.savePlan(plan, name: "spring", activate: true)
    let workout = try #require(plan.workouts.first)
    let typed = Completion(
      date: workout.date, distanceKm: workout.distanceKm, durationSeconds: 1800, rpe: 6,
      note: "windy")
    let logged = try db.ingestRuns([typed], planID: saved.id, slots: slots(plan))
    let id = try #require(logged.added.first?.run.id)
    var watch = try timed(workout.date.description, "07:00:00", km: workout.distanceKm * 1.02, minutes: 31)
    watch.averageHeartRate = 148
    watch.source = .health
    let synced = try db.ingestRuns([watch], planID: saved.id, slots: slots(plan))
    #expect(synced.added.isEmpty && synced.twins.first?.merged == true)
    let runs = try db.completions()
    #expect(runs.count == 1)
    let run = try #require(runs.first)
    #expect(run.id == id && run.source == .health && run.startedAt == watch.startedAt && run.averageHeartRate == 148)
    #expect(run.note == "windy" && run.rpe == 6 && run.workoutID == workout.id && run.status == .done)
  }

  @Test func ingestRunsAfterThePlanWasDeletedStoresThemUnplanned() throws {
    let db = try LogbookDatabase()
    let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
    let saved = try db.savePlan(plan, name: "spring", activate: true)
    try db.deletePlan(named: "spring")
    let workout = try #require(plan.workouts.first)
    let added = try db.ingestRuns(
      [Completion(date: workout.date, distanceKm: 5, durationSeconds: 1800)],
      planID: saved.id, slots: slots(plan))
    #expect(added.added.first?.run.planID == nil && added.added.first?.run.workoutID == nil)
  }

  @Test func twoConnectionsAddingTheSameRunsAtOnceStoreEachOnce() throws {
    let dir = try temporaryDirectory("logbook")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("shared.sqlite").path
    let a = try LogbookDatabase(path: path)
    let b = try LogbookDatabase(path: path)
    // A start on each run's own day (a start days away from it is refused, issue 44).
    let start = Date(timeIntervalSince1970: Double(testStart.dayNumber) * 86_400 + 7 * 3600)
    let runs = (0..<40).map { index in
      Completion(
        date: testStart.adding(days: index), startedAt: start.addingTimeInterval(Double(index) * 86_400),
        distanceKm: 5, durationSeconds: 1800, source: .gpx)
    }
    let counts = Counts()
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      let db = index == 0 ? a : b
      for run in runs {
        if let added = try? db.ingestRuns([run], planID: nil, slots: []) {
          counts.add(added.added.count, added.twins.count)
        }
      }
    }
    #expect(try a.completions().count == 40)
    #expect(counts.values == (40, 40))
  }

  final class Counts: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = 0
    private var skipped = 0
    func add(_ newStored: Int, _ newSkipped: Int) {
      lock.lock()
      stored += newStored
      skipped += newSkipped
      lock.unlock()
    }
    var values: (Int, Int) {
      lock.lock()
      defer { lock.unlock() }
      return (stored, skipped)
    }
  }

  // MARK: - Plausibility

  @Test func impossibleRunValuesAreRefusedNamingTheFieldAndNothingIsStored() throws {
    let db = try LogbookDatabase()
    let good = try timed("2027-01-05", "07:00:00", km: 5)
    func with(_ change: (inout Completion) -> Void) -> Completion {
      var run = good
      change(&run)
      return run
    }
    let record = "run on 2027-01-05 (2027-01-05.gpx)"
    let cases: [(Completion, LogbookError)] = [
      (
        with { $0.distanceKm = 1e21 },
        .implausible(record: record, field: .distance, value: "1e+21 km", allowed: "more than 0 up to 1000 km")
      ),
      (
        with { $0.distanceKm = .nan },
        .implausible(record: record, field: .distance, value: "nan km", allowed: "more than 0 up to 1000 km")
      ),
      (
        with { $0.distanceKm = 0 },
        .implausible(record: record, field: .distance, value: "0.0 km", allowed: "more than 0 up to 1000 km")
      ),
      (
        with { $0.durationSeconds = .infinity },
        .implausible(record: record, field: .time, value: "inf s", allowed: "more than 0 up to 604800 seconds")
      ),
      (
        with { $0.movingSeconds = -5 },
        .implausible(
          record: record, field: .movingTime, value: "-5.0 s",
          allowed: "more than 0 up to 604800 seconds")
      ),
      (
        with { $0.durationSeconds = 40 },
        .implausible(record: record, field: .pace, value: "0:08/km", allowed: "0:10/km or slower")
      ),
      (with { $0.rpe = 11 }, .implausible(record: record, field: .rpe, value: "11", allowed: "1 to 10")),
      (
        with { $0.averageHeartRate = 900 },
        .implausible(record: record, field: .averageHeartRate, value: "900 bpm", allowed: "25 to 250 bpm")
      ),
      (
        with { $0.elevationGainMeters = 1e9 },
        .implausible(record: record, field: .elevationGain, value: "1000000000.0 m", allowed: "0 to 30000 m")
      ),
      (
        with { $0.date = CivilDate(year: 2999, month: 1, day: 1) ?? $0.date },
        .implausible(
          record: "run on 2999-01-01 (2027-01-05.gpx)", field: .date, value: "2999-01-01",
          allowed: "1900-01-01 to 2100-12-31")
      ),
    ]
    for (run, error) in cases {
      #expect(throws: error) { try db.ingestRuns([good, run], planID: nil, slots: []) }
      #expect(throws: error) { try db.addCompletions([good, run]) }
      #expect(throws: error) { try db.saveHealth(days: [], measures: [], runs: [good, run], profile: "") }
    }
    #expect(try db.completions().isEmpty)
    #expect(
      LogbookError.implausible(
        record: record, field: .distance, value: "1e+21 km",
        allowed: "more than 0 up to 1000 km"
      ).description
        == "run on 2027-01-05 (2027-01-05.gpx): distance 1e+21 km is not possible, allowed is more than 0 up to 1000 km; "
        + "nothing was stored")
    // The bounds themselves are accepted.
    let edge = with {
      $0.distanceKm = 1000
      $0.durationSeconds = 604_800
      $0.rpe = 10
      $0.averageHeartRate = 250
      $0.elevationGainMeters = 30_000
    }
    #expect(try db.ingestRuns([edge], planID: nil, slots: []).added.count == 1)
    #expect(Plausible.days.lowerBound.description == "1900-01-01")
    #expect(Plausible.days.upperBound.description == "2100-12-31")
  }

  @Test func impossibleHealthValuesAreRefusedAndNothingIsStored() throws {
    let db = try LogbookDatabase()
    let day = try #require(CivilDate(iso: "2021-01-02"))
    let good = HealthDay(date: day, steps: 8000, distanceKm: 6, activeEnergyKcal: 400)
    let when = Date(timeIntervalSince1970: 1_609_577_200)
    let measure = BodyMeasure(kind: .bodyMassKg, date: when, value: 70)
    let cases: [([HealthDay], [BodyMeasure], LogbookError)] = [
      (
        [good, HealthDay(date: day, steps: 1e21, distanceKm: 6, activeEnergyKcal: 400)], [],
        .implausible(record: "health day 2021-01-02", field: .steps, value: "1e+21", allowed: "0 to 500000")
      ),
      (
        [HealthDay(date: day, steps: 10, distanceKm: -1, activeEnergyKcal: 400)], [],
        .implausible(record: "health day 2021-01-02", field: .distance, value: "-1.0 km", allowed: "0 to 1000 km")
      ),
      (
        [HealthDay(date: day, steps: 10, distanceKm: 1, activeEnergyKcal: .infinity)], [],
        .implausible(
          record: "health day 2021-01-02", field: .activeEnergy, value: "inf kcal",
          allowed: "0 to 50000 kcal")
      ),
      (
        [good], [measure, BodyMeasure(kind: .heightCm, date: when, value: 1700)],
        .implausible(
          record: "health measure height_cm of \(when)", field: .measure(.heightCm), value: "1700.0",
          allowed: "30 to 300")
      ),
      (
        [good], [BodyMeasure(kind: .restingHeartRate, date: when, value: .nan)],
        .implausible(
          record: "health measure resting_heart_rate of \(when)", field: .measure(.restingHeartRate), value: "nan",
          allowed: "20 to 250")
      ),
      (
        [good], [BodyMeasure(kind: .bodyMassKg, date: Date(timeIntervalSince1970: 1e12), value: 70)],
        .implausible(
          record: "health measure body_mass_kg", field: .date, value: "\(Date(timeIntervalSince1970: 1e12))",
          allowed: "between 1900 and 2100")
      ),
    ]
    for (days, measures, error) in cases {
      #expect(throws: error) { try db.saveHealth(days: days, measures: measures, runs: [], profile: "anna") }
    }
    #expect(try db.healthDays(profile: "anna").isEmpty)
    #expect(try db.latestMeasure(kind: .bodyMassKg, profile: "anna") == nil)
    let result = try db.saveHealth(days: [good], measures: [measure], runs: [], profile: "anna")
    #expect(result.newDays == 1 && result.newMeasures == 1 && result.previousBestSteps == 0)
    let later = HealthDay(date: day.adding(days: 1), steps: 9000, distanceKm: 7, activeEnergyKcal: 1)
    let next = try db.saveHealth(days: [later], measures: [], runs: [], profile: "anna")
    #expect(next.previousBestSteps == 8000)
  }

  @Test(.enabled(if: SQLiteScript.hasPython, "needs python3 (scripts/apt-packages.txt)"))
  func aRowNoOneCouldRunStoredByAnOlderVersionIsReadAndDeleted() throws {
    let dir = try temporaryDirectory("logbook")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("old.sqlite").path
    _ = try LogbookDatabase(path: path)
      .addCompletions([Completion(date: testStart, distanceKm: 5, durationSeconds: 1800)])
    try python(
      "c.execute(\"insert into completion (date, distanceKm, durationSeconds, source) values "
        + "('2027-01-06', 1e21, 9e999, 'manual')\")", path)
    let db = try LogbookDatabase(path: path)
    let runs = try db.completions()
    #expect(runs.map(\.distanceKm) == [5, 1e21])
    let bests = PersonalBests(runs)
    #expect(bests.longestRun == Distance(kilometers: 1e21))
    #expect(
      PersonalBests.improvements(from: PersonalBests(Array(runs.prefix(1))), to: bests)
        .contains("longest run ever: 1e+21 km"))
    let id = try #require(runs.last?.id)
    #expect(try db.deleteCompletion(id: id).distanceKm == 1e21)
    #expect(try db.completions().count == 1)
  }
}
