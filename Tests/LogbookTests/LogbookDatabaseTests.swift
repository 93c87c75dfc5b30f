import Foundation
import Ingest
import Logbook
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import TrainingDomain

/// The database on real SQLite files in a temporary directory.
@Suite struct LogbookDatabaseTests {
  func run(_ date: String, _ km: Double, _ minutes: Double, kind: WorkoutKind? = nil) throws -> Completion {
    Completion(date: try #require(CivilDate(iso: date)), distanceKm: km, durationSeconds: minutes * 60, kind: kind)
  }

  @Test func aNewDatabaseIsCreatedPrivateAndReopens() throws {
    let dir = try temporaryDirectory("logbook")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("sub/runmate.sqlite").path
    let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
    do {
      let db = try LogbookDatabase(path: path)
      _ = try db.savePlan(plan, name: "spring 10k", activate: true)
      _ = try db.addCompletions([try run("2027-01-05", 4, 26)])
    }
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    let again = try LogbookDatabase(path: path)
    #expect(try again.plan(named: nil).plan == plan)
    #expect(try again.plans().map(\.name) == ["spring 10k"])
    #expect(try again.completions().map(\.distanceKm) == [4])
  }

  @Test func aDatabaseFromTheFirstVersionIsMigratedAndKeepsItsData() throws {
    // Fixtures/schema-v1.sqlite was written by runmate with only the v1 migration: a plan and two runs.
    let dir = try temporaryDirectory("logbook")
    defer { try? FileManager.default.removeItem(at: dir) }
    let fixture = try fixtureURL("schema-v1.sqlite")
    let path = dir.appendingPathComponent("old.sqlite").path
    try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
    let db = try LogbookDatabase(path: path)
    #expect(try db.plans().map(\.name) == ["v1 plan"])
    let runs = try db.completions()
    #expect(runs.map(\.distanceKm) == [3.5, 4])
    #expect(runs.last?.note == "v1 era")
    #expect(runs.first?.workoutID != nil)
    // The v2 table works on the migrated file.
    try db.recordExport(identity: "rm-x", path: "plan.ics", calendar: "BEGIN:VCALENDAR")
    #expect(try db.lastExport(identity: "rm-x")?.path == "plan.ics")
    #expect(try db.lastExport(identity: "rm-y") == nil)
  }

  @Test func aDatabaseFromSchemaV4KeepsItsPlansLogsAndExportsAndGetsScheduleStorage() throws {
    // Fixtures/schema-v4.sqlite was written by the runmate of schema v4 (before schedule settings): profile 'ana',
    // plan 'spring' (half, from 2027-01-04), one run logged on 2027-01-05 and one export of that plan.
    let dir = try temporaryDirectory("logbook")
    defer { try? FileManager.default.removeItem(at: dir) }
    let fixture = try fixtureURL("schema-v4.sqlite")
    let path = dir.appendingPathComponent("v4.sqlite").path
    try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
    let db = try LogbookDatabase(path: path)
    let saved = try db.plan(named: nil)
    #expect(saved.name == "spring")
    #expect(saved.plan.goal.start == CivilDate(iso: "2027-01-04"))
    let runs = try db.completions()
    #expect(runs.map(\.note) == ["v4 era"])
    #expect(runs.first?.workoutID == "rm-0f77ee25f7caea6d-w01-q1")
    #expect(try db.lastExport(identity: "rm-84d13c575f097001")?.path == "/tmp/h6fix/spring.ics")
    #expect(try db.profile(named: nil)?.runDays == [.tuesday, .thursday, .saturday, .sunday])
    // An existing plan has no settings (the old behaviour) and no dated workouts until it is scheduled.
    #expect(try db.scheduleSettings(ofPlan: saved.id) == nil)
    #expect(try db.scheduledWorkouts(of: saved).isEmpty)
    let settings = ScheduleSettings(
      runDays: [.tuesday, .sunday], times: ["06:30"], timeZone: "Europe/Berlin",
      busy: [
        BusyTime(
          start: Date(timeIntervalSince1970: 1_800_000_000),
          end: Date(timeIntervalSince1970: 1_800_003_600), summary: "work")
      ],
      reminders: [], raceStart: "09:00")
    let first = try #require(saved.plan.workouts.first)
    let moved = try #require(CivilDate(iso: "2027-01-05"))
    let dated = [
      DatedWorkout(
        workoutID: first.id, week: 1, date: moved, plannedDate: first.date, startMinute: 390,
        timeZoneID: "Europe/Berlin", kind: first.kind, distanceKm: first.distanceKm)
    ]
    try db.saveSchedule(planID: saved.id, settings: settings, workouts: dated)
    let reopened = try LogbookDatabase(path: path)
    #expect(try reopened.scheduleSettings(ofPlan: saved.id) == settings)
    #expect(try reopened.scheduledWorkouts(of: saved) == dated)
    #expect(try reopened.scheduledWorkouts(of: saved).first?.startText == "06:30")
    #expect(saved.plan.scheduled(dated).workouts.map(\.date) == [moved])
    // Saving the plan again without a schedule keeps its settings and drops the dated workouts (they may be stale).
    _ = try reopened.savePlan(saved.plan, name: "spring", activate: true)
    #expect(try reopened.scheduleSettings(ofPlan: saved.id) == settings)
    #expect(try reopened.scheduledWorkouts(of: saved).isEmpty)
    #expect(throws: LogbookError.self) { try reopened.saveSchedule(planID: "rm-none", settings: nil, workouts: []) }
  }

  @Test func runsMatchWorkoutsOnTheirScheduledDays() throws {
    let db = try LogbookDatabase()
    let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
    let moved = try #require(plan.weeks.first?.workouts.first)
    let dropped = try #require(plan.weeks.first?.workouts.last)
    let dated = plan.weeks.flatMap { week in
      week.workouts.filter { $0.id != dropped.id }.map { workout in
        DatedWorkout(
          workoutID: workout.id, week: week.number,
          date: workout.id == moved.id ? workout.date.adding(days: 3) : workout.date,
          plannedDate: workout.date, startMinute: nil, timeZoneID: "UTC", kind: workout.kind,
          distanceKm: workout.distanceKm)
      }
    }
    let saved = try db.savePlan(plan, name: "spring", activate: true, schedule: (settings: nil, workouts: dated))
    #expect(try db.scheduledWorkouts(of: saved).count == plan.workouts.count - 1)
    let onMovedDay = Completion(
      date: moved.date.adding(days: 3), distanceKm: moved.distanceKm, durationSeconds: 1800,
      kind: moved.kind)
    let onDroppedDay = Completion(
      date: dropped.date, distanceKm: dropped.distanceKm, durationSeconds: 1800,
      kind: dropped.kind)
    // The slots runs are matched to are the stored dated workouts (as the CLI's `plannedSlots` builds them).
    let slots = try db.scheduledWorkouts(of: saved).map {
      PlannedSlot(workoutID: $0.workoutID, date: $0.date, kind: $0.kind, distanceKm: $0.distanceKm)
    }
    let added = try db.ingestRuns([onMovedDay, onDroppedDay], planID: saved.id, slots: slots).added.map(\.run)
    #expect(added.first?.workoutID == moved.id)
    // A workout the schedule dropped is not offered: the run is unplanned.
    #expect(added.last?.workoutID != dropped.id)
  }

  @Test func aForeignSQLiteFileIsRefusedAndLeftAlone() throws {
    let dir = try temporaryDirectory("logbook")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("other.sqlite").path
    // Another program's database: made with the sqlite3 command-line shell if present, else python's sqlite3.
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", "-c",
      "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table notes(x)'); c.commit()", path,
    ]
    try process.run()
    process.waitUntilExit()
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(throws: LogbookError.notOurs(path: path)) { try LogbookDatabase(path: path) }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test func aCorruptFileIsRefused() throws {
    let dir = try temporaryDirectory("logbook")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("broken.sqlite").path
    try Data("this is not a database at all, just text".utf8).write(to: URL(fileURLWithPath: path))
    #expect(throws: LogbookError.corrupt(path: path, detail: "the file is not an SQLite database")) {
      try LogbookDatabase(path: path)
    }
    #expect(
      LogbookError.corrupt(path: "x.sqlite", detail: "the file is not an SQLite database").description
        == "x.sqlite: not a readable RunningMate database (the file is not an SQLite database); restore a backup or give "
        + "another database file path")
  }

  @Test func plansAreNamedActivatedAndDeleted() throws {
    let db = try LogbookDatabase()
    let a = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
    let b = try makePlan(goal: goal(.half, .intermediate, weeks: 12), rules: repositoryRules)
    _ = try db.savePlan(a, name: "a", activate: false)  // the first plan saved becomes active anyway
    _ = try db.savePlan(b, name: "b", activate: false)
    #expect(try db.plan(named: nil).name == "a")
    try db.activatePlan(named: "b")
    #expect(try db.plan(named: nil).name == "b")
    #expect(throws: LogbookError.planNameTaken(name: "a")) { try db.savePlan(b, name: "a", activate: false) }
    #expect(throws: LogbookError.noSuchPlan(name: "c", known: ["b", "a"])) { try db.activatePlan(named: "c") }
    _ = try db.addCompletions([
      Completion(
        date: testStart, distanceKm: 5, durationSeconds: 1800, planID: b.id,
        workoutID: b.workouts[0].id)
    ])
    try db.deletePlan(named: "b")
    #expect(throws: LogbookError.noActivePlan) { try db.plan(named: nil) }
    // The run stays, unplanned (foreign key ON DELETE SET NULL).
    #expect(try db.completions().first?.planID == nil)
  }

  @Test func aBatchIsOneTransaction() throws {
    let db = try LogbookDatabase()
    let good = try run("2027-01-05", 5, 30)
    var bad = try run("2027-01-06", 5, 30)
    bad.distanceKm = -1  // violates the CHECK constraint
    #expect(throws: LogbookError.self) { try db.addCompletions([good, bad]) }
    #expect(try db.completions().isEmpty)
  }

  @Test func undoAndDelete() throws {
    let db = try LogbookDatabase()
    let stored = try db.addCompletions([try run("2027-01-05", 5, 30), try run("2027-01-07", 6, 36)])
    #expect(try db.undoLastCompletion().distanceKm == 6)
    let first = try #require(stored.first?.id)
    #expect(try db.deleteCompletion(id: first).distanceKm == 5)
    #expect(throws: LogbookError.nothingToUndo) { try db.undoLastCompletion() }
    #expect(throws: LogbookError.noSuchCompletion(id: 99)) { try db.deleteCompletion(id: 99) }
  }

  @Test func twoWritersAtOnceBothLand() throws {
    let dir = try temporaryDirectory("logbook")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("shared.sqlite").path
    _ = try LogbookDatabase(path: path)
    // Two connections (as two processes would have) writing 50 runs each, concurrently.
    let a = try LogbookDatabase(path: path)
    let b = try LogbookDatabase(path: path)
    let runs = (0..<50).map { Completion(date: testStart.adding(days: $0), distanceKm: 5, durationSeconds: 1800) }
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      let db = index == 0 ? a : b
      for run in runs { _ = try? db.addCompletions([run]) }
    }
    #expect(try LogbookDatabase(path: path).completions().count == 100)
  }

  @Test func personalBestsFromAHandCheckedLog() throws {
    let log = [
      try run("2027-01-04", 5, 30), try run("2027-01-05", 10, 55, kind: .race), try run("2027-01-06", 6, 33),
      try run("2027-01-11", 12, 70),
    ]
    let bests = PersonalBests(log)
    #expect(bests.longestRun == Distance(kilometers: 12))
    // Race records from races of their distance only: the 10 km race in 55:00 is a 10K record, not a 5K one; the
    // easy 6 km at the same pace and the 12 km training run are no race records.
    #expect(bests.fastest["5k"] == nil)
    #expect(abs((bests.fastest["10k"] ?? 0) - 55 * 60) < 0.001)
    #expect(bests.fastest["half"] == nil)
    #expect(bests.biggestWeek == Distance(kilometers: 21))  // week of 4 Jan: 5 + 10 + 6
    #expect(bests.longestStreakDays == 3)
    let news = PersonalBests.improvements(from: PersonalBests(Array(log.prefix(3))), to: bests)
    #expect(news == ["longest run ever: 12 km"])
  }

  /// The misleading records: an easy 12 km run announced as "first 10k", an easy 6 km as "fastest 5k", a
  /// 9.5 km run as "longest run ever" for a runner who gave 10 km as their longest, every week-1 run a "biggest week".
  @Test func recordsAreTrue() throws {
    let first = [try run("2027-01-04", 5, 30), try run("2027-01-05", 6, 33)]
    // Training runs set no race record.
    let easy12 = try run("2027-01-06", 12, 75)
    let training = PersonalBests.improvements(from: PersonalBests(first), to: PersonalBests(first + [easy12]))
    #expect(training == ["longest run ever: 12 km", "longest streak: 3 days in a row"], "\(training)")
    // A race does, once; a faster race beats it.
    let race = try run("2027-01-09", 10, 50, kind: .race)
    let raced = PersonalBests.improvements(from: PersonalBests(first), to: PersonalBests(first + [race]))
    #expect(raced.contains("first 10k race: 50:00"))
    // It is a 10K record only, not a 5K one; a GPS track 2 % long keeps the race's own time.
    #expect(!raced.contains { $0.contains("5k") }, "\(raced)")
    let gps = try run("2027-01-16", 10.2, 49, kind: .race)
    #expect(
      PersonalBests.improvements(from: PersonalBests(first + [race]), to: PersonalBests(first + [race, gps]))
        .contains("fastest 10k: 49:00 (was 50:00)"))
    // The runner's own longest recent run is the mark to beat.
    let long = try run("2027-01-10", 9.5, 57)
    #expect(
      PersonalBests.improvements(
        from: PersonalBests(first, baselineLongest: Distance(kilometers: 10)),
        to: PersonalBests(first + [long], baselineLongest: Distance(kilometers: 10))
      ).isEmpty)
    // A week is the biggest only against three earlier weeks, and is announced once.
    var log: [Completion] = []
    var news: [String] = []
    for (week, km) in [20.0, 22, 24, 26].enumerated() {
      for day in 0..<2 {
        let date = try #require(CivilDate(iso: "2027-01-04")).adding(days: 7 * week + 2 * day)
        let next = Completion(date: date, distanceKm: km / 2, durationSeconds: km * 180)
        news += PersonalBests.improvements(from: PersonalBests(log), to: PersonalBests(log + [next]))
        log.append(next)
      }
    }
    #expect(news.filter { $0.hasPrefix("biggest week") } == ["biggest week: 26 km"], "\(news)")
  }
}
