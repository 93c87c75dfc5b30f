import Foundation
import Ingest
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import Training
import TrainingDomain

/// Pushed runs on both engines: one run per athlete and identity, whatever the number of pushes; matched to the
/// plan's workouts; another athlete's run of the same day is not a twin; refused runs write nothing.
@Suite(.timeLimit(.minutes(1))) struct PushStoreTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000.123)

  @Test(arguments: Engine.available) func aRunPushedTwiceIsOneRun(engine: Engine) throws {
    let store = try TestStore(engine)
    defer { store.remove() }
    let db = try store.open()
    let anna = try #require(try db.createProfile(Profile(name: "anna")).id)
    let ben = try #require(try db.createProfile(Profile(name: "ben")).id)
    let annaAccount = try db.createAccount(login: "anna", role: .athlete, profileID: anna, passwordHash: "h", at: now)
    let benAccount = try db.createAccount(login: "ben", role: .athlete, profileID: ben, passwordHash: "h", at: now)
    let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
    let annaPlan = try db.savePlan(plan, name: "anna-10k", activate: true)
    try db.assignPlan(annaPlan.id, toProfile: anna)
    let benPlan = try db.savePlan(
      try makePlan(goal: goal(.tenK, .beginner, weeks: 9), rules: repositoryRules), name: "ben-10k", activate: false)
    try db.assignPlan(benPlan.id, toProfile: ben)
    let workouts = plan.weeks[0].workouts.filter(\.kind.isRun)
    let slots = workouts.map {
      PlannedSlot(workoutID: $0.id, date: $0.date, kind: $0.kind, distanceKm: $0.distanceKm, weekStart: testStart)
    }
    let runs = workouts.prefix(3).enumerated().map { index, workout in
      PushedRun(
        clientID: "run-\(index)",
        run: Completion(date: workout.date, distanceKm: workout.distanceKm, durationSeconds: workout.distanceKm * 360))
    }

    let first = try db.pushRuns(runs, account: annaAccount, planID: annaPlan.id, slots: slots, at: now)
    #expect(first == PushOutcome(added: 3, alreadyThere: 0, twins: 0))
    let stored = try db.completions(planID: annaPlan.id, from: testStart, through: testStart.adding(days: 6))
    #expect(stored.map(\.workoutID) == workouts.prefix(3).map { Optional($0.id) })
    // The same runs again, and one more: only the new one is stored.
    let extra = PushedRun(
      clientID: "run-extra", run: Completion(date: testStart.adding(days: 6), distanceKm: 3, durationSeconds: 1100))
    let second = try db.pushRuns(runs + [extra], account: annaAccount, planID: annaPlan.id, slots: slots, at: now)
    #expect(second == PushOutcome(added: 1, alreadyThere: 3, twins: 0))
    // The same run from a device, under another identity, is a twin of the hand-logged one, not a second run.
    var again = runs[0]
    again.clientID = "watch-0"
    again.run.source = .gpx
    let third = try db.pushRuns([again], account: annaAccount, planID: annaPlan.id, slots: slots, at: now)
    #expect(third == PushOutcome(added: 0, alreadyThere: 0, twins: 1))
    #expect(try db.completions(planID: annaPlan.id, from: testStart, through: testStart.adding(days: 6)).count == 4)
    // Ben's run of the same day, with the same identity, is his: not a twin of Anna's, not already there.
    let bens = try db.pushRuns([runs[0]], account: benAccount, planID: benPlan.id, slots: [], at: now)
    #expect(bens == PushOutcome(added: 1, alreadyThere: 0, twins: 0))
    let audit = try db.auditLog(limit: 10).filter { $0.action == .runsPushed }
    #expect(audit.map(\.athlete) == ["ben", "anna", "anna", "anna"])

    // An impossible run refuses the whole push: nothing written.
    let bad = PushedRun(clientID: "bad", run: Completion(date: testStart, distanceKm: -1, durationSeconds: 60))
    let fresh = PushedRun(clientID: "fresh", run: Completion(date: testStart, distanceKm: 2, durationSeconds: 700))
    #expect(throws: LogbookError.self) {
      try db.pushRuns([fresh, bad], account: annaAccount, planID: annaPlan.id, slots: slots, at: now)
    }
    #expect(try db.completions(planID: annaPlan.id, from: testStart, through: testStart.adding(days: 6)).count == 4)
    let retry = try db.pushRuns([fresh], account: annaAccount, planID: annaPlan.id, slots: slots, at: now)
    #expect(retry.added + retry.twins == 1)
  }
}

/// One identity per run (issue 44): given when the run is first stored, kept through a merge with a device's record,
/// carried by `database copy`, and what `push` recognises a copied run by; so a logbook copied to the coach's server
/// and then pushed is not doubled, on either engine.
@Suite(.timeLimit(.minutes(1))) struct RunIdentityTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  /// An athlete's logbook: an 8-week plan, three runs logged by hand (two of them the same record: a double day of
  /// two identical runs) and two device records.
  func athleteLogbook(_ db: any TrainingStore) throws -> (SavedPlan, [Completion]) {
    _ = try db.createProfile(Profile(name: "maya"))
    let saved = try db.savePlan(
      try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules), name: "maya-10k", activate: true)
    let runs = saved.plan.weeks[0].workouts.filter(\.kind.isRun)
    let start = Date(timeIntervalSince1970: Double(runs[2].date.dayNumber) * 86400 + 7 * 3600)
    let logged = [
      Completion(date: runs[0].date, distanceKm: 4, durationSeconds: 1500),
      Completion(date: runs[1].date, distanceKm: 3, durationSeconds: 1100),
      Completion(date: runs[1].date, distanceKm: 3, durationSeconds: 1100),
      Completion(date: runs[2].date, startedAt: start, distanceKm: 5.02, durationSeconds: 1805, source: .gpx),
      Completion(
        date: runs[2].date.adding(days: 1), startedAt: start.addingTimeInterval(86400), distanceKm: 3.5,
        durationSeconds: 1300, source: .gpx),
    ]
    for run in logged { _ = try db.addRuns([run], plan: nil) }
    return (saved, try db.completions())
  }

  @Test(arguments: Engine.available) func aRunKeepsItsIdentityThroughAMerge(engine: Engine) throws {
    let store = try TestStore(engine)
    defer { store.remove() }
    let db = try store.open()
    let (_, runs) = try athleteLogbook(db)
    let identities = runs.compactMap(\.identity)
    #expect(identities.count == 5)
    #expect(Set(identities).count == 5, "two runs of the same record keep two identities")
    #expect(identities.contains { $0.hasSuffix("#2") })
    // The watch's record of the first hand-logged run merges into it: the run keeps the identity it had.
    let first = try #require(runs.first)
    let watch = Completion(
      date: first.date, startedAt: Date(timeIntervalSince1970: Double(first.date.dayNumber) * 86400 + 6 * 3600),
      distanceKm: 4.05, durationSeconds: 1510, averageHeartRate: 150, source: .gpx)
    let added = try db.addRuns([watch], plan: nil)
    #expect(added.result.twins.count == 1)
    let merged = try #require(try db.completions().first { $0.id == first.id })
    #expect(merged.startedAt != nil && merged.averageHeartRate == 150)
    #expect(merged.identity == first.identity)
    #expect(merged.identity != recordIdentity(of: merged), "the record changed, the identity did not")
  }

  @Test(arguments: Engine.available) func aCopiedLogbookPushedIsNotDoubled(engine: Engine) throws {
    let athlete = try TestStore(.sqlite)
    let server = try TestStore(engine)
    defer {
      athlete.remove()
      server.remove()
    }
    let local = try athlete.open()
    let (saved, runs) = try athleteLogbook(local)
    _ = try copyStore(from: athlete.location, to: server.location)
    let coach = try server.open()
    let maya = try #require(try coach.profile(named: "maya")?.id)
    let account = try coach.createAccount(login: "maya", role: .athlete, profileID: maya, passwordHash: "h", at: now)
    try coach.assignPlan(saved.id, toProfile: maya)
    #expect(try coach.completions().map(\.identity) == runs.map(\.identity), "the copy carries each identity")

    let pushed = try runsToPush(in: local)
    let first = try coach.pushRuns(pushed, account: account, planID: saved.id, slots: [], at: now)
    #expect(first == PushOutcome(added: 0, alreadyThere: 5, twins: 0))
    #expect(try coach.completions().count == 5)
    let second = try coach.pushRuns(pushed, account: account, planID: saved.id, slots: [], at: now)
    #expect(second == PushOutcome(added: 0, alreadyThere: 5, twins: 0))

    // The same logbook from another device (identities the server does not know): each run is its record kept
    // twice, hand-logged ones included; the double day's two runs stay two, each claimed once.
    let otherDevice = pushed.enumerated().map { index, run in PushedRun(clientID: "tablet-\(index)", run: run.run) }
    let third = try coach.pushRuns(otherDevice, account: account, planID: saved.id, slots: [], at: now)
    #expect(third == PushOutcome(added: 0, alreadyThere: 0, twins: 5))
    #expect(try coach.completions().count == 5)
    // A new run is still a new run.
    let new = PushedRun(
      clientID: "tablet-new",
      run: Completion(date: saved.plan.weeks[1].workouts[0].date, distanceKm: 6, durationSeconds: 2200))
    let fourth = try coach.pushRuns([new], account: account, planID: saved.id, slots: [], at: now)
    #expect(fourth == PushOutcome(added: 1, alreadyThere: 0, twins: 0))
    #expect(try coach.completions().count == 6)
  }
}

/// Maya's logbook (``RunIdentityTests/athleteLogbook(_:)``) copied to a coach's server on `engine` (both sides on
/// it), with her athlete account there and the copied plan assigned to her.
struct CopiedLogbook {
  let athlete: TestStore
  let server: TestStore
  let local: any TrainingStore
  let coach: any TrainingStore
  let saved: SavedPlan
  let runs: [Completion]
  let account: Account

  init(_ engine: Engine, at now: Date) throws {
    athlete = try TestStore(engine)
    server = try TestStore(engine)
    local = try athlete.open()
    (saved, runs) = try RunIdentityTests().athleteLogbook(local)
    _ = try copyStore(from: athlete.location, to: server.location)
    coach = try server.open()
    let maya = try #require(try coach.profile(named: "maya")?.id)
    account = try coach.createAccount(login: "maya", role: .athlete, profileID: maya, passwordHash: "h", at: now)
    try coach.assignPlan(saved.id, toProfile: maya)
  }

  func remove() {
    athlete.remove()
    server.remove()
  }
}

/// A run deleted on the athlete's side (issue 44): the coach's server kept it for good, so the athlete's and the
/// coach's counts parted at the first `log delete`. The logbook now keeps the deleted run's identity, `push` sends
/// it, and the server removes that run (unless another device of the athlete still has it); a run logged again is
/// pushed again. Both engines, on both sides.
@Suite(.timeLimit(.minutes(1))) struct DeletedRunPushTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  @Test(arguments: Engine.available) func aDeletedRunIsRemovedAtTheNextPush(engine: Engine) throws {
    let copied = try CopiedLogbook(engine, at: now)
    defer { copied.remove() }
    let (athlete, local, coach, saved, runs, account) = (
      copied.athlete, copied.local, copied.coach, copied.saved, copied.runs, copied.account
    )
    let ben = try #require(try coach.createProfile(Profile(name: "ben")).id)
    let bens = try coach.createAccount(login: "ben", role: .athlete, profileID: ben, passwordHash: "h", at: now)
    func push(_ db: any TrainingStore, as who: Account = account) throws -> PushOutcome {
      try coach.pushRuns(
        try runsToPush(in: db), deleted: try deletionsToPush(in: db), account: who, planID: saved.id, slots: [],
        at: now)
    }
    #expect(try push(local) == PushOutcome(alreadyThere: 5))
    #expect(try deletionsToPush(in: local).isEmpty)

    // `log delete`: the logbook keeps the identity, the push removes the run; pushing again removes nothing more.
    let gone = try local.deleteCompletion(id: try #require(runs[0].id))
    #expect(try deletionsToPush(in: local) == [try #require(gone.identity)])
    #expect(try push(local) == PushOutcome(alreadyThere: 4, removed: 1))
    #expect(try coach.completions().map(\.identity) == runs.dropFirst().map(\.identity))
    #expect(try push(local) == PushOutcome(alreadyThere: 4))
    // Another athlete's deletion of the same identity removes nothing of Maya's.
    _ = try coach.pushRuns(
      [], deleted: try deletionsToPush(in: local), account: bens, planID: saved.id, slots: [], at: now)
    #expect(try coach.completions().count == 4)

    // A second device (a tablet) pushes the same runs under its own identities: twins, claimed by both.
    let tablet = try runsToPush(in: local).enumerated().map { PushedRun(clientID: "tablet-\($0)", run: $1.run) }
    #expect(try coach.pushRuns(tablet, account: account, planID: saved.id, slots: [], at: now).twins == 4)
    // Deleted on the phone only: the tablet still has it, so the server keeps it; deleted on both: removed.
    _ = try local.deleteCompletion(id: try #require(runs[4].id))
    #expect(try push(local) == PushOutcome(alreadyThere: 3, removed: 0))
    #expect(try coach.completions().count == 4)
    let both = try coach.pushRuns([], deleted: ["tablet-3"], account: account, planID: saved.id, slots: [], at: now)
    #expect(both.removed == 1)
    #expect(try coach.completions().count == 3)

    // Logged again, the same record: the same identity, no longer deleted, pushed again as a new run.
    var again = runs[0]
    again.id = nil
    again.identity = nil
    again.planID = nil
    again.workoutID = nil
    again.status = nil
    _ = try local.addRuns([again], plan: nil)
    #expect(try local.completions().first { $0.date == runs[0].date }?.identity == runs[0].identity)
    #expect(try deletionsToPush(in: local) == [try #require(runs[4].identity)])
    #expect(try push(local) == PushOutcome(added: 1, alreadyThere: 3))
    #expect(try coach.completions().count == 4)

    // The deletions are carried by `database copy`, as the runs are.
    let copy = try TestStore(engine)
    defer { copy.remove() }
    _ = try copyStore(from: athlete.location, to: copy.location)
    #expect(try deletionsToPush(in: try copy.open()) == [try #require(runs[4].identity)])
  }
}

/// A run the athlete's logbook changed after a push (issue 44): a watch's record merged into a hand-logged run keeps
/// its identity, so the server answered "already there" and kept the hand-logged distance for good. The server now
/// rewrites its run with the logbook's record, its match measured again; an unchanged run is still already there.
@Suite(.timeLimit(.minutes(1))) struct ChangedRunPushTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  @Test(arguments: Engine.available) func aMergedRunIsRewrittenOnTheServer(engine: Engine) throws {
    let copied = try CopiedLogbook(engine, at: now)
    defer { copied.remove() }
    let (local, coach, saved, runs, account) = (copied.local, copied.coach, copied.saved, copied.runs, copied.account)
    #expect(
      try coach.pushRuns(try runsToPush(in: local), account: account, planID: saved.id, slots: [], at: now)
        == PushOutcome(alreadyThere: 5))
    // The watch's record of the first hand-logged run (4 km typed in) arrives: 4.13 km, a start, a heart rate.
    let first = runs[0]
    let start = Date(timeIntervalSince1970: Double(first.date.dayNumber) * 86400 + 6 * 3600)
    let watch = Completion(
      date: first.date, startedAt: start, distanceKm: 4.13, durationSeconds: 1530, averageHeartRate: 151, source: .gpx)
    #expect(try local.addRuns([watch], plan: nil).result.twins.count == 1)
    let merged = try #require(try local.completions().first { $0.identity == first.identity })
    #expect(merged.distanceKm == 4.13)
    let outcome = try coach.pushRuns(try runsToPush(in: local), account: account, planID: saved.id, slots: [], at: now)
    #expect(outcome == PushOutcome(alreadyThere: 4, updated: 1))
    let there = try #require(try coach.completions().first { $0.identity == first.identity })
    #expect(there.id == first.id, "the same run, rewritten")
    #expect(there.distanceKm == 4.13 && there.averageHeartRate == 151 && there.startedAt == start)
    #expect(try coach.completions().count == 5)
    #expect(
      try coach.pushRuns(try runsToPush(in: local), account: account, planID: saved.id, slots: [], at: now)
        == PushOutcome(alreadyThere: 5))
  }
}

/// Text kept whole or refused on both engines (issue 44): a NUL was a 500 on PostgreSQL and cut a note short on
/// SQLite (`nul\u0000here` stored as `nul`); `' '`, `.` and `..` were profile names.
@Suite(.timeLimit(.minutes(1))) struct TextWholeOrRefusedTests {
  @Test(arguments: Engine.available) func controlCharactersAndReservedNamesAreRefused(engine: Engine) throws {
    let store = try TestStore(engine)
    defer { store.remove() }
    let db = try store.open()
    for name in [" ", ".", "..", "a\u{0}b", "tab\there", "two\nlines", ""] {
      #expect(throws: LogbookError.self, "profile name \(name.debugDescription)") {
        try db.createProfile(Profile(name: name))
      }
    }
    #expect(try db.profiles().isEmpty)
    _ = try db.createProfile(Profile(name: "maya"))
    let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
    #expect(throws: LogbookError.self) { try db.savePlan(plan, name: "spring\u{0}", activate: true) }
    #expect(try db.plans().isEmpty)
    let day = plan.weeks[0].workouts[0].date
    do {
      _ = try db.addRuns(
        [Completion(date: day, distanceKm: 5, durationSeconds: 1800, note: "nul\u{0}here")], plan: nil)
      Issue.record("a note with a NUL was stored")
    } catch let error as LogbookError {
      #expect(error.description.contains("note 'nul\\u{0}here' is not possible"), "\(error)")
    }
    _ = try db.addRuns([Completion(date: day, distanceKm: 5, durationSeconds: 1800, note: "two\nlines\tok")], plan: nil)
    #expect(try db.completions().map(\.note) == ["two\nlines\tok"])
  }
}

/// Issue 44: 20,000 runs of one athlete made every push hold the write lock 2.1 s (the plan's whole history read
/// and its pushed identities all listed). A push now reads its runs' weeks and its own identities only.
@Suite(.timeLimit(.minutes(3))) struct PushOfALongHistoryTests {
  @Test(arguments: Engine.available.filter { $0 == .sqlite }) func aPushCostsItsWeeksNotTheHistory(engine: Engine)
    throws
  {
    let store = try TestStore(engine)
    defer { store.remove() }
    let db = try store.open()
    let maya = try #require(try db.createProfile(Profile(name: "maya")).id)
    let account = try db.createAccount(login: "maya", role: .athlete, profileID: maya, passwordHash: "h", at: Date())
    let plan = try makePlan(goal: goal(.marathon, .advanced, weeks: 18), rules: repositoryRules)
    let saved = try db.savePlan(plan, name: "maya-marathon", activate: true)
    try db.assignPlan(saved.id, toProfile: maya)
    // 20,000 runs over the 55 years before the plan, on the plan (as years of pushes leave them).
    let history = (0..<20_000).map { index in
      var run = Completion(
        date: testStart.adding(days: -1 - index), distanceKm: 8 + Double(index % 7), durationSeconds: 2900)
      run.planID = saved.id
      return run
    }
    _ = try db.addCompletions(history)
    let day = plan.weeks[0].workouts[0].date
    let new = PushedRun(clientID: "new-run", run: Completion(date: day, distanceKm: 6, durationSeconds: 2100))
    let started = ContinuousClock.now
    let outcome = try db.pushRuns([new], account: account, planID: saved.id, slots: [], at: Date())
    let took = started.duration(to: .now)
    #expect(outcome == PushOutcome(added: 1, alreadyThere: 0, twins: 0))
    print("push of 1 run beside 20,000 stored: \(took)")
    #expect(took < .milliseconds(500), "\(took)")
    let again = try db.pushRuns([new], account: account, planID: saved.id, slots: [], at: Date())
    #expect(again == PushOutcome(added: 0, alreadyThere: 1, twins: 0))
  }
}
