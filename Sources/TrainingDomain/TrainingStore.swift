import Foundation
import Ingest
import PlanEngine
import RunningCore

/// What the use cases need from storage: the runner's plans and their schedules, profiles, logged runs, health
/// days, feeds, exports and CalDAV records. `Logbook` (SQLite through GRDB) implements it; a second engine can stand
/// behind the same protocol. Every method is one transaction: a write either happens whole or not at all, and every
/// failure is a ``LogbookError`` written for the runner.
public protocol TrainingStore: Sendable {
  /// Where the data lives: a file path for the embedded store.
  var path: String { get }
  /// True when the store was opened read-only (a file the runner cannot write): reads work, writes fail clearly.
  var isReadOnly: Bool { get }

  // MARK: Plans and schedules

  /// Saves a plan under `name` (replacing a plan of that name unless `replacing` is false), with its schedule when
  /// given, and makes it the active plan when `activate` is true. `savedAt` is the use case's `now` (which races
  /// count for the plan starts from the day it was saved: `--now` and SOURCE_DATE_EPOCH decide it, not the clock).
  /// With `takingOver`, the plan takes over the runs of the plan it follows on its own days, in the same
  /// transaction (``takeOverRuns(_:planID:to:)``).
  func savePlan(
    _ plan: Plan, name: String, activate: Bool,
    schedule: (settings: ScheduleSettings?, workouts: [DatedWorkout])?, replacing: Bool, takingOver: RunTakeover?,
    savedAt: Date
  ) throws(LogbookError) -> SavedPlan
  /// Every saved plan, by name.
  func plans() throws(LogbookError) -> [SavedPlan]
  /// The plan named `name`, or the active plan when `name` is nil.
  func plan(named name: String?) throws(LogbookError) -> SavedPlan
  /// Makes the named plan the active one.
  func activatePlan(named name: String) throws(LogbookError)
  /// Deletes the named plan with its schedule.
  func deletePlan(named name: String) throws(LogbookError)
  /// The schedule settings saved with a plan, or nil.
  func scheduleSettings(ofPlan planID: String) throws(LogbookError) -> ScheduleSettings?
  /// Replaces a plan's schedule settings and dated workouts.
  func saveSchedule(planID: String, settings: ScheduleSettings?, workouts: [DatedWorkout]) throws(LogbookError)
  /// A plan's dated workouts as saved, by date.
  func scheduledWorkouts(ofPlan planID: String) throws(LogbookError) -> [DatedWorkout]
  /// A plan's dated workouts: as saved, or the plan's own dates when it has no saved schedule.
  func scheduledWorkouts(of saved: SavedPlan) throws(LogbookError) -> [DatedWorkout]

  // MARK: Profiles

  /// Saves a profile (created or replaced by name).
  func saveProfile(_ profile: Profile) throws(LogbookError) -> Profile
  /// Creates a profile; fails when the name is taken.
  func createProfile(_ profile: Profile) throws(LogbookError) -> Profile
  /// Reads, changes and writes a profile in one transaction (the default profile when `name` is nil).
  func updateProfile(named name: String?, _ change: @escaping @Sendable (Profile) throws -> Profile) throws
    -> Profile
  /// Every profile, by name.
  func profiles() throws(LogbookError) -> [Profile]
  /// The named profile, or the default one when `name` is nil; nil when there is none.
  func profile(named name: String?) throws(LogbookError) -> Profile?
  /// Adds an athlete to a coach's roster.
  func addAthlete(_ athlete: String, toCoach coach: String) throws(LogbookError)
  /// A coach's athletes.
  func athletes(ofCoach coach: String) throws(LogbookError) -> [Profile]
  /// For each of a coach's athletes, by name: a fingerprint of what their roster row is made from (profile, plans,
  /// dated workouts, and the plans' runs dated `runsFrom` or later) that changes whenever any of it does; nil when the
  /// engine keeps none (then every row is worked out each time).
  func rosterFingerprints(ofCoach coach: String, runsFrom from: CivilDate) throws(LogbookError) -> [String: String]?
  /// Assigns a plan to a profile.
  func assignPlan(_ planID: String, toProfile profileID: Int64) throws(LogbookError)
  /// The plans assigned to a profile.
  func plans(ofProfile profileID: Int64) throws(LogbookError) -> [SavedPlan]

  // MARK: Logged runs and health

  /// Adds runs from any source the one way, in one transaction: twins recognised, new runs matched to `slots`.
  func ingestRuns(_ candidates: [Completion], planID: String?, slots: [PlannedSlot]) throws(LogbookError)
    -> IngestedRuns
  /// Adds completions as given (no twin check or matching).
  func addCompletions(_ completions: [Completion]) throws(LogbookError) -> [Completion]
  /// Every logged run, by date.
  func completions() throws(LogbookError) -> [Completion]
  /// The runs counted for plan `planID` from `from` through `through` (dates inclusive), by date: one plan's
  /// share of a database of many athletes, read through an index.
  func completions(planID: String, from: CivilDate, through: CivilDate) throws(LogbookError) -> [Completion]
  /// Every logged activity that is not a run, by date.
  func crossTraining() throws(LogbookError) -> [Completion]
  /// Deletes a logged activity and returns it, in one transaction with its week matched again against `slots` (its
  /// plan's: ``rematchWeeks(holding:planID:slots:among:to:)``), so a workout it held goes to another run of the
  /// week that can fulfil it; its identity is kept for `runmate push` (``deletedRunIdentities()``).
  func deleteCompletion(id: Int64, slots: [PlannedSlot]) throws(LogbookError) -> Completion
  /// Deletes the activity logged last and returns it.
  func undoLastCompletion() throws(LogbookError) -> Completion
  /// Stores a health import in one transaction: days, measures and runs (matched to `slots`).
  func saveHealth(
    days: [HealthDay], measures: [BodyMeasure], runs: [Completion], profile: String,
    planID: String?, slots: [PlannedSlot]
  ) throws(LogbookError) -> HealthImportResult
  /// A profile's health days, by date.
  func healthDays(profile: String) throws(LogbookError) -> [HealthDay]
  /// A profile's latest measure of a kind.
  func latestMeasure(kind: MeasureKind, profile: String) throws(LogbookError) -> BodyMeasure?
  /// The best daily step count before a date.
  func bestStepsBefore(_ date: CivilDate, profile: String) throws(LogbookError) -> Double

  // MARK: Exports, feeds and CalDAV

  /// Records the calendar last written for an export identity.
  func recordExport(identity: String, path: String, calendar: String) throws(LogbookError)
  /// The calendar last written for an export identity, or nil.
  func lastExport(identity: String) throws(LogbookError) -> (path: String, calendar: String)?
  /// Creates a feed for a plan, keeping only the token's hash.
  func createFeed(planID: String, tokenHash: [UInt8], at now: Date) throws(LogbookError) -> FeedSubscription
  /// A feed by number.
  func feed(id: Int64) throws(LogbookError) -> FeedSubscription
  /// The feeds, of one plan or all.
  func feeds(planID: String?) throws(LogbookError) -> [FeedSubscription]
  /// Gives a feed a new token.
  func rotateFeed(id: Int64, tokenHash: [UInt8], at now: Date) throws(LogbookError) -> FeedSubscription
  /// Revokes a feed.
  func revokeFeed(id: Int64) throws(LogbookError) -> FeedSubscription
  /// What a token's hash opens, with the change counter, or nil.
  func feedAccess(tokenHash: [UInt8]) throws(LogbookError) -> FeedAccess?
  /// The change counter of the data a calendar is made from, and when it last moved.
  func dataVersion() throws(LogbookError) -> (version: Int64, changedAt: Date)
  /// Records a calendar's fetch of a feed.
  func recordFeedFetch(id: Int64, at now: Date) throws(LogbookError)
  /// The events a CalDAV sync left in a collection for an identity.
  func caldavRecords(identity: String, collection: String) throws(LogbookError) -> [CalDAVRecord]
  /// The identities with events in a collection, with their counts.
  func caldavIdentities(collection: String) throws(LogbookError) -> [String: Int]
  /// Records what a CalDAV sync stored and removed.
  func recordCalDAVSync(
    identity: String, collection: String, stored: [CalDAVRecord], removed: [String], at now: Date
  ) throws(LogbookError)

  // Copying between engines (`runmate database copy`)
  /// Every row of the runner's data, table by table (``StoredSchema/tables``), read in one snapshot.
  func snapshot() throws(LogbookError) -> [StoredTable]
  /// Writes another store's ``snapshot()`` into this one, which must hold none of the runner's data, in one
  /// transaction, ids kept; ``LogbookError/notEmpty(location:holding:)`` otherwise, with nothing written.
  func restore(_ tables: [StoredTable]) throws(LogbookError)

  // MARK: Coaches' comments kept in the runner's own logbook (`runmate pull`)

  /// Keeps the coaches' comments pulled from `server` (its URL) with plan `planID` (the logbook's plan the pull
  /// applied to; nil when it has none), in one transaction. A comment is kept once: one already kept from the same
  /// server under the same ``CoachComment/serverID`` is left as it is, so pulling it again (or from the start, after
  /// logging in again) adds nothing. Returns how many comments were new.
  func keepPulledComments(_ comments: [CoachComment], server: String, planID: String?) throws(LogbookError) -> Int
  /// The comments kept for plan `planID` on days `from` through `through` (inclusive), by date, then in the order
  /// their server numbered them (``CoachComment/workout`` is nil: it is the plan's to say).
  func pulledComments(planID: String, from: CivilDate, through: CivilDate) throws(LogbookError) -> [CoachComment]

  // MARK: Coach API accounts, tokens, comments and the audit log

  /// Creates an account for profile `profileID` with a bcrypt `passwordHash`, and records it in the audit log, in
  /// one transaction.
  /// - Throws: ``LogbookError/accountExists(login:)`` when the login (in any case) is taken.
  func createAccount(
    login: String, role: AccountRole, profileID: Int64, passwordHash: String, at now: Date
  ) throws(LogbookError) -> Account
  /// The account whose login is `login` in any case, or nil.
  func account(login: String) throws(LogbookError) -> Account?
  /// Stores a session token's SHA-256 for an account, valid until `expiresAt`, and records the login in the audit log.
  func createSessionToken(accountID: Int64, tokenHash: [UInt8], at now: Date, expiresAt: Date) throws(LogbookError)
  /// The account a token's SHA-256 opens at `now`, or nil when unknown, expired or revoked.
  func sessionAccount(tokenHash: [UInt8], at now: Date) throws(LogbookError) -> Account?
  /// Revokes a session token (logged out) and records it in the audit log; false when it was not valid.
  func revokeSessionToken(tokenHash: [UInt8], at now: Date) throws(LogbookError) -> Bool
  /// Stores a comment on athlete `athleteID`'s workout of `date` in plan `planID`, and records it in the audit log,
  /// in one transaction.
  func addComment(
    athleteID: Int64, planID: String, date: CivilDate, author: Account, text: String, at now: Date
  ) throws(LogbookError) -> WorkoutComment
  /// The comments on athlete `athleteID`'s workout of `date` in plan `planID`, oldest first.
  func comments(athleteID: Int64, planID: String, date: CivilDate) throws(LogbookError) -> [WorkoutComment]
  /// The comments on athlete `athleteID`'s workouts (of any plan) numbered after `id`, oldest first, at most `limit`:
  /// what `runmate pull` has not seen (``WorkoutComment/id`` grows with every comment).
  func comments(athleteID: Int64, after id: Int64, limit: Int) throws(LogbookError) -> [WorkoutComment]
  /// The audit log, newest first, at most `limit` entries.
  func auditLog(limit: Int) throws(LogbookError) -> [AuditEntry]
  /// Stores the runs athlete `account` pushed, each plan's share for that plan, in one transaction
  /// (``applyPush(_:deleted:account:at:to:)``): a run whose identity the athlete pushed before is not stored again. The runs the athlete `deleted` (their identities) are removed first
  /// (``applyDeletions(_:account:planIDs:at:to:)``).
  /// - Throws: ``LogbookError/implausible(record:field:value:allowed:)`` before anything is written.
  func pushRuns(_ plans: [PushPlan], deleted: [String], account: Account, at now: Date) throws(LogbookError)
    -> PushOutcome
  /// Every plan succession recorded (``PlanSuccession``): which plan followed which, from what day.
  func planSuccessions() throws(LogbookError) -> [PlanSuccession]
  /// The identities of the runs deleted from this logbook (`log delete`, `log undo`) and not logged again since,
  /// oldest first: what `runmate push` asks the server to remove.
  func deletedRunIdentities() throws(LogbookError) -> [String]
  /// Saves `plan` under `name` as athlete `athleteID`'s plan, with its schedule, in one transaction: the plan replaces
  /// a saved plan of the same id (keeping whether it is the active plan; never made active otherwise), becomes the
  /// athlete's only assigned plan (their earlier ones stay saved, unassigned), and `action` by `account` goes to the
  /// audit log with `detail`.
  /// With `takingOver`, the plan takes over the runs of the athlete's earlier plan on its own days
  /// (``takeOverRuns(_:planID:to:)``).
  /// - Throws: ``LogbookError/planNameTaken(name:)`` when another plan has the name.
  func saveAthletePlan(
    _ plan: Plan, name: String, schedule: (settings: ScheduleSettings?, workouts: [DatedWorkout]), athleteID: Int64,
    by account: Account, action: AuditEntry.Action, detail: String, takingOver: RunTakeover?, at now: Date
  ) throws(LogbookError) -> SavedPlan
}

extension TrainingStore {
  /// Saves a plan at `savedAt`, replacing one of the same name, without a schedule unless given.
  public func savePlan(
    _ plan: Plan, name: String, activate: Bool,
    schedule: (settings: ScheduleSettings?, workouts: [DatedWorkout])? = nil, savedAt: Date
  ) throws(LogbookError) -> SavedPlan {
    try savePlan(
      plan, name: name, activate: activate, schedule: schedule, replacing: true, takingOver: nil, savedAt: savedAt)
  }

  /// Saves a plan at `savedAt` taking over no runs.
  public func savePlan(
    _ plan: Plan, name: String, activate: Bool, schedule: (settings: ScheduleSettings?, workouts: [DatedWorkout])?,
    replacing: Bool, savedAt: Date
  ) throws(LogbookError) -> SavedPlan {
    try savePlan(
      plan, name: name, activate: activate, schedule: schedule, replacing: replacing, takingOver: nil,
      savedAt: savedAt)
  }

  /// Saves an athlete's plan taking over no runs.
  public func saveAthletePlan(
    _ plan: Plan, name: String, schedule: (settings: ScheduleSettings?, workouts: [DatedWorkout]), athleteID: Int64,
    by account: Account, action: AuditEntry.Action, detail: String, at now: Date
  ) throws(LogbookError) -> SavedPlan {
    try saveAthletePlan(
      plan, name: name, schedule: schedule, athleteID: athleteID, by: account, action: action, detail: detail,
      takingOver: nil, at: now)
  }

  /// Every feed.
  public func feeds() throws(LogbookError) -> [FeedSubscription] { try feeds(planID: nil) }

  /// Stores a health import without runs to match.
  public func saveHealth(days: [HealthDay], measures: [BodyMeasure], runs: [Completion], profile: String)
    throws(LogbookError) -> HealthImportResult
  {
    try saveHealth(days: days, measures: measures, runs: runs, profile: profile, planID: nil, slots: [])
  }

  /// Stores pushed runs with no deletions to apply.
  public func pushRuns(_ runs: [PushedRun], account: Account, planID: String, slots: [PlannedSlot], at now: Date)
    throws(LogbookError) -> PushOutcome
  {
    try pushRuns([PushPlan(planID: planID, slots: slots, runs: runs)], deleted: [], account: account, at: now)
  }

  /// Stores pushed runs for one plan, with the deletions to apply.
  public func pushRuns(
    _ runs: [PushedRun], deleted: [String], account: Account, planID: String, slots: [PlannedSlot], at now: Date
  ) throws(LogbookError) -> PushOutcome {
    try pushRuns([PushPlan(planID: planID, slots: slots, runs: runs)], deleted: deleted, account: account, at: now)
  }

  /// Deletes a logged activity and returns it, matching nothing again.
  public func deleteCompletion(id: Int64) throws(LogbookError) -> Completion {
    try deleteCompletion(id: id, slots: [])
  }
}
