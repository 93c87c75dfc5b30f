import Foundation
import Ingest
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import Training
import TrainingDomain

/// `runmate database copy`: every table of a logbook carried from one engine to the other (and to its own kind),
/// ids, instants and hashes kept; a target holding data refused untouched.
@Suite(.timeLimit(.minutes(1))) struct StoreCopyTests {
  /// Each engine pair: SQLite → PostgreSQL is the move to a coach's server, PostgreSQL → SQLite a backup.
  static let pairs: [(Engine, Engine)] = Engine.available.flatMap { from in Engine.available.map { (from, $0) } }

  func day(_ iso: String) throws -> CivilDate { try #require(CivilDate(iso: iso)) }

  static func toTheMillisecond(_ date: Date) -> Date {
    Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
  }

  static func toTheMillisecond(_ saved: SavedPlan) -> SavedPlan {
    var saved = saved
    saved.savedAt = toTheMillisecond(saved.savedAt)
    return saved
  }

  static func toTheMillisecond(_ run: Completion) -> Completion {
    var run = run
    run.startedAt = run.startedAt.map(toTheMillisecond)
    return run
  }

  /// A logbook with a row in every table the copy carries.
  func fill(_ db: any TrainingStore) throws {
    let ana = try db.createProfile(Profile(name: "ana"))
    var coach = Profile(name: "Coach")
    coach.isCoach = true
    coach.certifications = ["UESCA"]
    _ = try db.saveProfile(coach)
    try db.addAthlete("ana", toCoach: "Coach")
    let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
    let workouts = Array(plan.workouts.prefix(2))
    let dated = workouts.enumerated().map { index, workout in
      DatedWorkout(
        workoutID: workout.id, week: 1, date: workout.date, plannedDate: workout.date,
        startMinute: index == 0 ? 390 : nil, timeZoneID: "Europe/Berlin", kind: workout.kind,
        distanceKm: workout.distanceKm)
    }
    let settings = ScheduleSettings(
      runDays: [.tuesday, .sunday], times: ["06:30"], timeZone: "Europe/Berlin", busy: [], reminders: [],
      raceStart: nil)
    let saved = try db.savePlan(plan, name: "spring", activate: true, schedule: (settings: settings, workouts: dated))
    try db.assignPlan(saved.id, toProfile: try #require(ana.id))
    // The plan followed an earlier one (a plan since deleted): a succession row, saved again with the plan.
    _ = try db.savePlan(
      plan, name: "spring", activate: true, schedule: (settings: settings, workouts: dated), replacing: true,
      takingOver: RunTakeover(fromPlanID: "rm-earlier", days: plan.goal.start...plan.goal.raceDate, slots: []),
      savedAt: Date(timeIntervalSince1970: 1_800_000_000))
    let slots = plan.workouts.map {
      PlannedSlot(workoutID: $0.id, date: $0.date, kind: $0.kind, distanceKm: $0.distanceKm)
    }
    let run = Completion(
      date: workouts[0].date, startedAt: Date(timeIntervalSince1970: 1_799_000_000.123), distanceKm: 5.2,
      durationSeconds: 1800, movingSeconds: 1750, averageHeartRate: 148, elevationGainMeters: 31, note: "easy",
      source: .gpx, sourceFile: "a.gpx",
      bestEfforts: [BestEffort(distanceMeters: 1000, seconds: 300, startOffsetSeconds: 12)])
    _ = try db.ingestRuns([run], planID: saved.id, slots: slots)
    var ride = Completion(date: workouts[1].date, distanceKm: 20, durationSeconds: 3600, sport: .cycling)
    ride.note = "commute"
    _ = try db.addCompletions([ride])
    _ = try db.saveHealth(
      days: [HealthDay(date: try day("2027-01-02"), steps: 9000, distanceKm: 6, activeEnergyKcal: 400)],
      measures: [BodyMeasure(kind: .bodyMassKg, date: Date(timeIntervalSince1970: 1_798_800_000.25), value: 70)],
      runs: [], profile: "ana")
    try db.recordExport(identity: saved.id, path: "plan.ics", calendar: "BEGIN:VCALENDAR")
    let feed = try db.createFeed(
      planID: saved.id, tokenHash: [UInt8](repeating: 7, count: 32), at: Date(timeIntervalSince1970: 1_800_000_000.5))
    try db.recordFeedFetch(id: feed.id, at: Date(timeIntervalSince1970: 1_800_000_100))
    try db.recordCalDAVSync(
      identity: saved.id, collection: "/cal/",
      stored: [
        CalDAVRecord(
          uid: "u1", href: "/cal/u1.ics", etag: "\"1\"", bodyHash: [UInt8](repeating: 1, count: 32), body: "B",
          label: "Easy")
      ], removed: [], at: Date(timeIntervalSince1970: 1_800_000_200))
    let at = Date(timeIntervalSince1970: 1_800_000_300.25)
    let account = try db.createAccount(
      login: "Coach@Example.org", role: .coach, profileID: try #require(try db.profile(named: "Coach")?.id),
      passwordHash: "$2b$04$abcdefghijklmnopqrstuv", at: at)
    try db.createSessionToken(
      accountID: account.id, tokenHash: [UInt8](repeating: 9, count: 32), at: at,
      expiresAt: at.addingTimeInterval(86_400))
    _ = try db.addComment(
      athleteID: try #require(ana.id), planID: saved.id, date: workouts[0].date, author: account, text: "Well run",
      at: at)
    let athlete = try db.createAccount(
      login: "ana", role: .athlete, profileID: try #require(ana.id), passwordHash: "$2b$04$abcdefghijklmnopqrstuv",
      at: at)
    _ = try db.pushRuns(
      [
        PushedRun(
          clientID: "c1", run: Completion(date: workouts[0].date.adding(days: -1), distanceKm: 4, durationSeconds: 1500)
        )
      ],
      account: athlete, planID: saved.id, slots: slots, at: at)
    // A run logged and deleted: its identity kept for the next push.
    let mistake = try db.addRuns(
      [Completion(date: workouts[1].date.adding(days: -1), distanceKm: 3, durationSeconds: 1000)], plan: nil)
    _ = try db.deleteCompletion(id: try #require(mistake.result.added.first?.run.id))
    _ = try db.keepPulledComments(
      [CoachComment(serverID: 42, date: workouts[0].date, author: "kim", text: "Keep it easy", createdAt: at)],
      server: "https://coach.example", planID: saved.id)
  }

  @Test(arguments: pairs) func everyTableArrivesAsItWas(from: Engine, to: Engine) throws {
    let source = try TestStore(from)
    let target = try TestStore(to)
    defer {
      source.remove()
      target.remove()
    }
    try fill(source.open())
    let copy = try copyStore(from: source.location, to: target.location)
    #expect(copy.copied.map(\.table) == StoredSchema.tables.map(\.name))  // a row in every table
    #expect(copy.summary.hasPrefix("2 profiles, 1 coach link, 1 plan, 2 scheduled workouts, 3 activities"))
    let (old, new) = (try source.open(), try target.open())
    #expect(try new.snapshot() == old.snapshot())
    // What the commands read is the same, ids and instants included.
    #expect(try new.profiles() == old.profiles())
    // Instants to the millisecond both engines keep (a Date read from SQLite's text and one from PostgreSQL's
    // microseconds can differ in the last bit).
    #expect(try new.plans().map(Self.toTheMillisecond) == old.plans().map(Self.toTheMillisecond))
    #expect(try new.completions().map(Self.toTheMillisecond) == old.completions().map(Self.toTheMillisecond))
    #expect(try new.crossTraining().map(\.sport) == [.cycling])
    #expect(try new.athletes(ofCoach: "Coach").map(\.name) == ["ana"])
    let saved = try new.plan(named: nil)
    #expect(try new.scheduledWorkouts(of: saved) == old.scheduledWorkouts(of: saved))
    #expect(try new.scheduleSettings(ofPlan: saved.id) == old.scheduleSettings(ofPlan: saved.id))
    #expect(try new.healthDays(profile: "ana") == old.healthDays(profile: "ana"))
    #expect(
      try new.latestMeasure(kind: .bodyMassKg, profile: "ana") == old.latestMeasure(kind: .bodyMassKg, profile: "ana"))
    #expect(
      try new.feedAccess(tokenHash: [UInt8](repeating: 7, count: 32))?.lastFetchAt
        == Date(timeIntervalSince1970: 1_800_000_100))
    #expect(
      try new.caldavRecords(identity: saved.id, collection: "/cal/")
        == old.caldavRecords(identity: saved.id, collection: "/cal/"))
    #expect(try new.lastExport(identity: saved.id)?.path == "plan.ics")
    #expect(try new.coachComments(of: saved.plan).map(\.text) == ["Keep it easy"])
    // The next row gets the next id (the sequences moved past the copied ones).
    let largest = try old.completions().compactMap(\.id).max() ?? 0
    let added = try new.addCompletions([Completion(date: try day("2027-02-01"), distanceKm: 3, durationSeconds: 1200)])
    #expect(added.first?.id ?? 0 > largest)
  }

  @Test(arguments: Engine.available) func aTargetHoldingDataIsRefusedAndLeftAsItWas(engine: Engine) throws {
    let source = try TestStore(.sqlite)
    let target = try TestStore(engine)
    defer {
      source.remove()
      target.remove()
    }
    try fill(source.open())
    _ = try target.open().createProfile(Profile(name: "kim"))
    let before = try target.open().snapshot()
    #expect(
      throws: LogbookError.notEmpty(
        location: shownStoreLocation(target.location), holding: [TableCount(table: "profile", rows: 1)])
    ) { try copyStore(from: source.location, to: target.location) }
    #expect(try target.open().snapshot() == before)
  }

  @Test func aFileTheCopyMadeIsRemovedWhenItFails() throws {
    let source = try TestStore(.sqlite)
    defer { source.remove() }
    try fill(source.open())
    // Copying a logbook into itself: the target holds data, and the file is not the copy's to remove.
    #expect(throws: LogbookError.self) { try copyStore(from: source.location, to: source.location) }
    #expect(FileManager.default.fileExists(atPath: source.location))
    // A new file whose folder cannot be made: nothing is left behind.
    let blocked = source.folder.appendingPathComponent("file")
    try Data("x".utf8).write(to: blocked)
    let target = blocked.appendingPathComponent("copy.sqlite").path
    #expect(throws: (any Error).self) { try copyStore(from: source.location, to: target) }
    #expect(!FileManager.default.fileExists(atPath: target))
  }
}
