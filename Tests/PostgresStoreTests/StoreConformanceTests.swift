import Foundation
import Ingest
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import TrainingDomain

/// The same assertions on both engines behind ``TrainingStore``: a SQLite file and a PostgreSQL database (started
/// for the tests by scripts/postgres.sh). Each test has a store of its own.
@Suite(.timeLimit(.minutes(1))) struct StoreConformanceTests {
  func day(_ iso: String) throws -> CivilDate { try #require(CivilDate(iso: iso)) }

  func run(_ date: String, _ km: Double, _ minutes: Double, kind: WorkoutKind? = nil) throws -> Completion {
    Completion(date: try day(date), distanceKm: km, durationSeconds: minutes * 60, kind: kind)
  }

  @Test(arguments: Engine.available) func plansAreSavedNamedActivatedAndDeleted(engine: Engine) throws {
    let store = try TestStore(engine)
    defer { store.remove() }
    let db = try store.open()
    let tenK = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
    let half = try makePlan(goal: goal(.half, .intermediate, weeks: 12), rules: repositoryRules)
    #expect(throws: LogbookError.noActivePlan) { try db.plan(named: nil) }
    let first = try db.savePlan(tenK, name: "spring", activate: false)
    #expect(first.active)  // the first plan is active
    _ = try db.savePlan(half, name: "Autumn", activate: false)
    // Active first, then by name, byte order (upper case first), on both engines.
    #expect(try db.plans().map(\.name) == ["spring", "Autumn"])
    #expect(try db.plan(named: nil).plan == tenK)
    #expect(try db.plan(named: "Autumn").plan == half)
    #expect(throws: LogbookError.planNameTaken(name: "spring")) {
      try db.savePlan(half, name: "spring", activate: false)
    }
    #expect(throws: LogbookError.planAlreadySaved(id: tenK.id, name: "spring")) {
      try db.savePlan(tenK, name: "other", activate: false, schedule: nil, replacing: false)
    }
    try db.activatePlan(named: "Autumn")
    #expect(try db.plans().map(\.name) == ["Autumn", "spring"])
    #expect(throws: LogbookError.noSuchPlan(name: "nope", known: ["Autumn", "spring"])) {
      try db.activatePlan(named: "nope")
    }
    try db.deletePlan(named: "spring")
    #expect(throws: LogbookError.noSuchPlan(name: "spring", known: ["Autumn"])) { try db.deletePlan(named: "spring") }
    // Reopened, the data is there.
    #expect(try store.open().plans().map(\.name) == ["Autumn"])
  }

  @Test(arguments: Engine.available) func schedulesKeepTheirSettingsAndOrder(engine: Engine) throws {
    let store = try TestStore(engine)
    defer { store.remove() }
    let db = try store.open()
    let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
    let settings = ScheduleSettings(
      runDays: [.tuesday, .sunday], times: ["06:30"], timeZone: "Europe/Berlin", busy: [], reminders: [],
      raceStart: "09:00")
    let workouts = Array(plan.workouts.prefix(3))
    // Two on one day: the all-day one (no start) comes first, as SQLite sorts NULL first.
    let dated = [
      DatedWorkout(
        workoutID: workouts[0].id, week: 1, date: try day("2027-01-06"), plannedDate: workouts[0].date,
        startMinute: 390, timeZoneID: "Europe/Berlin", kind: workouts[0].kind, distanceKm: workouts[0].distanceKm),
      DatedWorkout(
        workoutID: workouts[1].id, week: 1, date: try day("2027-01-06"), plannedDate: workouts[1].date,
        startMinute: nil, timeZoneID: "Europe/Berlin", kind: workouts[1].kind, distanceKm: workouts[1].distanceKm),
      DatedWorkout(
        workoutID: workouts[2].id, week: 1, date: try day("2027-01-05"), plannedDate: workouts[2].date,
        startMinute: 1000, timeZoneID: "Europe/Berlin", kind: workouts[2].kind, distanceKm: workouts[2].distanceKm),
    ]
    let saved = try db.savePlan(plan, name: "spring", activate: true, schedule: (settings: settings, workouts: dated))
    #expect(try db.scheduleSettings(ofPlan: saved.id) == settings)
    #expect(try db.scheduledWorkouts(of: saved).map(\.workoutID) == [workouts[2].id, workouts[1].id, workouts[0].id])
    #expect(try db.scheduledWorkouts(ofPlan: saved.id).map(\.startMinute) == [1000, nil, 390])
    // Saved again without a schedule: the settings stay, the dated workouts go.
    _ = try db.savePlan(plan, name: "spring", activate: true)
    #expect(try db.scheduleSettings(ofPlan: saved.id) == settings)
    #expect(try db.scheduledWorkouts(of: saved).isEmpty)
    try db.saveSchedule(planID: saved.id, settings: nil, workouts: dated)
    #expect(try db.scheduleSettings(ofPlan: saved.id) == nil)
    #expect(try db.scheduledWorkouts(of: saved).count == 3)
    #expect(throws: LogbookError.database(detail: "no saved plan has the id rm-none")) {
      try db.saveSchedule(planID: "rm-none", settings: nil, workouts: [])
    }
  }

  @Test(arguments: Engine.available) func profilesCoachesAndAssignedPlans(engine: Engine) throws {
    let store = try TestStore(engine)
    defer { store.remove() }
    let db = try store.open()
    #expect(try db.profile(named: nil) == nil)
    let ana = try db.createProfile(Profile(name: "ana"))
    #expect(ana.isDefault && ana.id != nil)
    #expect(throws: LogbookError.profileExists(name: "ana")) { try db.createProfile(Profile(name: "ana")) }
    var coach = Profile(name: "Coach")
    coach.isCoach = true
    _ = try db.saveProfile(coach)
    #expect(try db.profiles().map(\.name) == ["Coach", "ana"])
    #expect(try db.profile(named: nil)?.name == "ana")
    let changed = try db.updateProfile(named: nil) { profile in
      var profile = profile
      profile.runDays = [.monday, .friday]
      return profile
    }
    #expect(changed.id == ana.id)
    #expect(try store.open().profile(named: "ana")?.runDays == [.monday, .friday])
    #expect(throws: LogbookError.noSuchProfile(name: "bo", known: ["Coach", "ana"])) { try db.profile(named: "bo") }
    #expect(throws: LogbookError.notACoach(name: "ana")) { try db.addAthlete("Coach", toCoach: "ana") }
    try db.addAthlete("ana", toCoach: "Coach")
    try db.addAthlete("ana", toCoach: "Coach")  // twice is once
    #expect(try db.athletes(ofCoach: "Coach").map(\.name) == ["ana"])
    let saved = try db.savePlan(
      try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules), name: "p", activate: true)
    try db.assignPlan(saved.id, toProfile: try #require(ana.id))
    #expect(try db.plans(ofProfile: try #require(ana.id)).map(\.name) == ["p"])
    // An error of the change passes through unchanged, and nothing is written.
    struct Refused: Error {}
    #expect(throws: Refused.self) { try db.updateProfile(named: "ana") { _ in throw Refused() } }
    #expect(try db.profile(named: "ana")?.runDays == [.monday, .friday])
  }

  @Test(arguments: Engine.available) func aRunStoredTwiceIsOneRunAndMatchesItsWorkoutOnce(engine: Engine) throws {
    let store = try TestStore(engine)
    defer { store.remove() }
    var rows: [Int] = []
    let counter = RowCounter()
    let db = try store.open(afterRowWritten: { counter.add($0) })
    let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
    let saved = try db.savePlan(plan, name: "spring", activate: true)
    let first = try #require(plan.workouts.first { $0.kind != .race })
    let slots = plan.workouts.map {
      PlannedSlot(workoutID: $0.id, date: $0.date, kind: $0.kind, distanceKm: $0.distanceKm)
    }
    var device = Completion(
      date: first.date, startedAt: Date(timeIntervalSince1970: 1_799_000_000.123_456),
      distanceKm: first.distanceKm, durationSeconds: 1800, source: .gpx, sourceFile: "a.gpx",
      bestEfforts: [BestEffort(distanceMeters: 1000, seconds: 300, startOffsetSeconds: 12)])
    device.averageHeartRate = 150
    var extra = try run(first.date.adding(days: 1).description, 3, 20)
    extra.startedAt = Date(timeIntervalSince1970: 1_799_090_000)
    extra.source = .tcx
    let once = try db.ingestRuns([device, extra], planID: saved.id, slots: slots)
    #expect(once.added.count == 2)
    #expect(once.added.first?.run.workoutID == first.id)
    rows = counter.rows
    #expect(rows == [1, 2])
    // The same runs again: twins, nothing added, nothing matched twice.
    let twice = try db.ingestRuns([device, extra], planID: saved.id, slots: slots)
    #expect(twice.added.isEmpty)
    #expect(twice.twins.count == 2)
    let stored = try db.completions()
    #expect(stored.count == 2)
    #expect(stored.map(\.date) == [first.date, first.date.adding(days: 1)])
    #expect(stored.first?.bestEfforts == device.bestEfforts)
    #expect(stored.first?.averageHeartRate == 150)
    #expect(stored.first?.status == .done)
    // A hand-logged twin of the device run with a note: merged into the stored run, which keeps its efforts.
    var noted = device
    noted.source = .manual
    noted.sourceFile = nil
    noted.bestEfforts = []
    noted.note = "felt good"
    noted.rpe = 6
    _ = try db.ingestRuns([noted], planID: saved.id, slots: slots)
    let merged = try #require(try db.completions().first)
    #expect(merged.bestEfforts == device.bestEfforts)
    #expect(try db.completions().count == 2)
  }

  @Test(arguments: Engine.available) func completionsAreListedDeletedAndUndone(engine: Engine) throws {
    let store = try TestStore(engine)
    defer { store.remove() }
    let db = try store.open()
    #expect(throws: LogbookError.nothingToUndo) { try db.undoLastCompletion() }
    var swim = try run("2027-01-04", 1.5, 40)
    swim.sport = Sport(name: "aquajogging")
    let added = try db.addCompletions([
      try run("2027-01-07", 5, 30), try run("2027-01-05", 4, 25, kind: .easy), swim, try run("2027-01-05", 6, 36),
    ])
    #expect(added.compactMap(\.id).count == 4)
    // Runs by date then id; cross-training apart.
    #expect(try db.completions().map(\.distanceKm) == [4, 6, 5])
    #expect(try db.crossTraining().map(\.sport) == [.other("aquajogging")])
    #expect(try db.deleteCompletion(id: try #require(added[0].id)).distanceKm == 5)
    #expect(throws: LogbookError.noSuchCompletion(id: try #require(added[0].id))) {
      try db.deleteCompletion(id: try #require(added[0].id))
    }
    #expect(try db.undoLastCompletion().distanceKm == 6)
    #expect(try db.completions().map(\.distanceKm) == [4])
    // An impossible value is refused before anything is written.
    #expect(throws: LogbookError.self) {
      try db.addCompletions([try run("2027-01-08", 5, 30), try run("2027-01-09", 1e9, 30)])
    }
    #expect(try db.completions().map(\.distanceKm) == [4])
  }

  @Test(arguments: Engine.available) func healthDaysMeasuresAndBests(engine: Engine) throws {
    let store = try TestStore(engine)
    defer { store.remove() }
    let db = try store.open()
    let days = [
      HealthDay(date: try day("2027-01-02"), steps: 9000, distanceKm: 6, activeEnergyKcal: 400),
      HealthDay(date: try day("2027-01-01"), steps: 12000, distanceKm: 8, activeEnergyKcal: 500),
    ]
    let weight = BodyMeasure(kind: .bodyMassKg, date: Date(timeIntervalSince1970: 1_798_800_000), value: 70)
    let first = try db.saveHealth(days: days, measures: [weight], runs: [], profile: "ana")
    #expect([first.newDays, first.updatedDays, first.newMeasures] == [Int]([2, 0, 1]))
    var newer = days
    newer[0].steps = 9500
    let second = try db.saveHealth(days: newer, measures: [weight], runs: [], profile: "ana")
    #expect([second.newDays, second.updatedDays, second.newMeasures] == [Int]([0, 1, 0]))
    #expect(second.previousBestSteps == 12000)
    #expect(try db.healthDays(profile: "ana").map(\.steps) == [12000, 9500])
    #expect(try db.latestMeasure(kind: .bodyMassKg, profile: "ana") == weight)
    #expect(try db.latestMeasure(kind: .bodyMassKg, profile: "bo") == nil)
    #expect(try db.bestStepsBefore(try day("2027-01-02"), profile: "ana") == 12000)
    #expect(try db.bestStepsBefore(try day("2027-01-01"), profile: "ana") == 0)
  }

  @Test(arguments: Engine.available) func exportsFeedsAndCalDAVRecords(engine: Engine) throws {
    let store = try TestStore(engine)
    defer { store.remove() }
    let db = try store.open()
    for index in 1...7 { try db.recordExport(identity: "rm-x", path: "p\(index).ics", calendar: "cal \(index)") }
    #expect(try db.lastExport(identity: "rm-x")?.calendar == "cal 7")
    #expect(try db.lastExport(identity: "rm-y") == nil)
    let saved = try db.savePlan(
      try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules), name: "spring", activate: true)
    let now = Date(timeIntervalSince1970: 1_800_000_000.5)
    let hash = [UInt8](repeating: 7, count: 32)
    let feed = try db.createFeed(planID: saved.id, tokenHash: hash, at: now)
    #expect(feed.planName == "spring" && feed.createdAt == now && feed.lastFetchAt == nil)
    let before = try db.dataVersion().version
    try db.recordFeedFetch(id: feed.id, at: now)
    #expect(try db.dataVersion().version == before)  // a fetch is not a change of the calendar's data
    let access = try #require(try db.feedAccess(tokenHash: hash))
    #expect(access.feedID == feed.id && access.planID == saved.id && access.lastFetchAt == now)
    _ = try db.savePlan(saved.plan, name: "spring", activate: true)
    #expect(try db.dataVersion().version > before)
    // A write of many rows in one transaction moves the counter: on PostgreSQL once (its trigger skips a row this
    // transaction wrote already; once per row made bulk writes quadratic).
    let beforeBulk = try db.dataVersion().version
    _ = try db.addCompletions(
      (0..<300).map { Completion(date: testStart.adding(days: $0), distanceKm: 5, durationSeconds: 1_800) })
    let moved = try db.dataVersion().version - beforeBulk
    #expect(moved >= 1)
    if engine == .postgres { #expect(moved == 1) }
    let rotated = try db.rotateFeed(id: feed.id, tokenHash: [UInt8](repeating: 8, count: 32), at: now)
    #expect(rotated.lastFetchAt == nil)
    #expect(try db.feedAccess(tokenHash: hash) == nil)
    #expect(try db.feeds(planID: "rm-none").isEmpty && db.feeds().count == 1)
    _ = try db.revokeFeed(id: feed.id)
    #expect(throws: LogbookError.noSuchFeed(id: feed.id, known: [])) { try db.feed(id: feed.id) }
    #expect(throws: LogbookError.self) { try db.createFeed(planID: "rm-none", tokenHash: hash, at: now) }

    let records = ["b", "a", "c"].map {
      CalDAVRecord(
        uid: $0, href: "/cal/\($0).ics", etag: nil, bodyHash: [UInt8](repeating: 1, count: 32), body: "B", label: $0)
    }
    try db.recordCalDAVSync(identity: "rm-x", collection: "/cal/", stored: records, removed: [], at: now)
    try db.recordCalDAVSync(
      identity: "rm-x", collection: "/cal/",
      stored: [
        CalDAVRecord(
          uid: "a", href: "/cal/a.ics", etag: "\"2\"", bodyHash: [UInt8](repeating: 2, count: 32), body: "A2",
          label: "a")
      ],
      removed: ["c"], at: now)
    #expect(try db.caldavRecords(identity: "rm-x", collection: "/cal/").map(\.uid) == ["a", "b"])
    #expect(try db.caldavRecords(identity: "rm-x", collection: "/cal/").first?.etag == "\"2\"")
    #expect(try db.caldavIdentities(collection: "/cal/") == ["rm-x": 2])
  }
}

/// Rows the row hook saw, from any thread.
final class RowCounter: Sendable {
  private let lock = NSLock()
  nonisolated(unsafe) private var seen: [Int] = []
  func add(_ row: Int) { lock.withLock { seen.append(row) } }
  var rows: [Int] { lock.withLock { seen } }
}
