import CalDAV
import CalendarExport
import Digest
import Foundation
import ICalendar
import Logbook
import PlanEngine
import Training
import TrainingDomain

/// What `runmate sync` is asked to do with a saved plan and a CalDAV calendar.
public struct PlanSyncRequest: Sendable {
  /// What is sent.
  public enum Mode: Sendable, Equatable {
    /// The plan's events now: new ones created, changed ones updated, dropped ones deleted.
    case sync
    /// Every event this plan's syncs put in the calendar deleted (a plan replaced by another, say).
    case remove
  }

  /// The calendar collection and the account that writes to it.
  public var account: CalDAVAccount
  /// The saved plan by name (nil: the active one).
  public var planName: String?
  /// `.sync` or `.remove`.
  public var mode: Mode
  /// Work out the steps and send nothing.
  public var dryRun: Bool
  /// Overwrite (or delete) events edited in a calendar app since the last sync.
  public var force: Bool
  /// The calendar was picked by name from the account (so a URL that is not a calendar is not the runner's
  /// mistake to explain with the account's calendars).
  public var calendarChosen: Bool
  /// When the sync happens (DTSTAMP of changed events).
  public var now: Date
  /// The system's time zone, for plans whose settings and profile name none.
  public var systemZone: String
  /// Fault injection for tests: called with N once the server has answered the Nth write (PUT or DELETE), before
  /// its outcome is recorded (a test kills the process there). nil in normal use.
  public var afterWriteAnswered: (@Sendable (Int) -> Void)?

  /// A request.
  public init(
    account: CalDAVAccount, planName: String?, mode: Mode = .sync, dryRun: Bool = false, force: Bool = false,
    calendarChosen: Bool = false, now: Date, systemZone: String
  ) {
    self.account = account
    self.planName = planName
    self.mode = mode
    self.dryRun = dryRun
    self.force = force
    self.calendarChosen = calendarChosen
    self.now = now
    self.systemZone = systemZone
  }
}

/// Events another plan's syncs left in the same calendar (an earlier plan for a moved race, say).
public struct LeftoverEvents: Sendable, Equatable {
  /// The saved plan they belong to; nil when that plan is no longer in the logbook.
  public var planName: String?
  /// That plan's race date (`2027-04-11`); nil with `planName`.
  public var raceDate: String?
  /// How many events.
  public var count: Int
}

/// What a sync did (or, in a dry run, would do).
public struct PlanSyncResult: Sendable {
  /// The saved plan's name.
  public var planName: String
  /// The collection's URL as stored.
  public var collection: String
  /// What each event needed (what a dry run reports).
  public var steps: [SyncStep]
  /// What each step did on the server, in order (empty in a dry run).
  public var outcomes: [SyncOutcome]
  /// The request that failed, when one did: the outcomes before it happened and are recorded.
  public var error: CalDAVError?
  /// Other plans' events in the same calendar (not looked up when removing, nor in a dry run).
  public var leftovers: [LeftoverEvents]

  /// How many events were left as the calendar app has them.
  public var conflicts: Int {
    outcomes.count { if case .conflict = $0 { true } else { false } }
  }
}

/// Syncs a saved plan's calendar into one CalDAV collection, one resource per event, and records what reached
/// the server in the logbook as it happens: each write's outcome is committed right after the server's answer
/// (one small transaction each), so a sync interrupted at any moment (a failed request, SIGINT, kill -9) leaves
/// everything it did recorded but the one write in flight; the next sync finds that one on the server as it would
/// send it and adopts it (see ``holdsSameEvent(_:as:)``).
///
/// The calendar is the one `runmate export` makes (the same `planCalendar`: UIDs, SEQUENCE, reminders), with
/// SEQUENCE counted from what this collection last received (else from the last file export). Cancelled events are
/// not sent: a dropped workout is deleted from the collection. See ``planSync(events:stored:server:hrefFor:force:)``
/// for what is created, updated, deleted or reported as a conflict.
/// - Throws: ``LogbookError`` (no such plan), ``ExportError``, ``CalDAVError`` for a collection that cannot be listed
///   (an account URL without `--calendar` is answered with the account's calendars).
public func syncPlan(_ request: PlanSyncRequest, db: any TrainingStore) async throws -> PlanSyncResult {
  let saved = try db.plan(named: request.planName)
  let profile = try db.profile(named: nil)
  let settings = try settingsInEffect(of: saved, in: db, profile: profile, systemZone: request.systemZone).settings
  let schedule = try settings.schedule(saved.plan)
  let identity = ExportOptions.identity(of: saved.plan)
  let collection = request.account.collectionKey
  let records = try db.caldavRecords(identity: identity, collection: collection)
  let previous = try previousCalendar(records, plan: saved.plan, db: db)
  let export = try planCalendar(
    saved.plan, schedule: schedule, settings: settings, previous: previous,
    comments: try db.coachComments(of: saved.plan), now: request.now,
    targets: stepTargets(for: profile))
  let outgoing = request.mode == .remove ? [] : try outgoingEvents(of: export.calendar)
  let stored = records.map {
    SyncedResource(uid: $0.uid, href: $0.href, etag: $0.etag, hash: $0.bodyHash, label: $0.label)
  }

  let client = CalDAVClient(account: request.account)
  var result = PlanSyncResult(
    planName: saved.name, collection: collection, steps: [], outcomes: [], error: nil, leftovers: [])
  do {
    let members = try await client.members(calendarChosen: request.calendarChosen)
    let identical = try await identicalCopies(
      adoptionCandidates(events: outgoing, stored: stored, server: members), client: client)
    result.steps = planSync(
      events: outgoing, stored: stored, server: members, identical: identical,
      hrefFor: request.account.href(forName:), force: request.force)
    if !request.dryRun {
      var writes = 0
      (result.outcomes, result.error) = try await runSync(result.steps, client: client) { outcome in
        switch outcome {
        case .stored, .removed(_, _, deleted: true):
          writes += 1
          request.afterWriteAnswered?(writes)
        default: break
        }
        try record(outcome, identity: identity, collection: collection, db: db)
      }
    }
  } catch {
    await client.shutdown()
    throw error
  }
  await client.shutdown()
  if request.dryRun { return result }
  if request.mode == .sync {
    result.leftovers = try leftovers(in: db, collection: collection, besides: identity)
  }
  return result
}

/// Of the candidates, those whose resource on the server holds the event as this sync sends it (GET, then
/// ``holdsSameEvent(_:as:)``), by UID, with the ETag the GET answered (else the listed one).
func identicalCopies(
  _ candidates: [(event: OutgoingEvent, onServer: DAVEntry)], client: CalDAVClient
) async throws(CalDAVError) -> [String: DAVEntry] {
  var identical: [String: DAVEntry] = [:]
  for (event, onServer) in candidates {
    guard let copy = try await client.get(onServer.href), holdsSameEvent(copy.body, as: event) else { continue }
    var entry = onServer
    entry.etag = copy.etag ?? onServer.etag
    identical[event.uid] = entry
  }
  return identical
}

/// Whether `body`, a resource as the server holds it, is the event `event` sends: the same bytes, or the same
/// VEVENT once parsed (UID, SEQUENCE, times, texts, reminders: a server may store it rewritten) whatever its
/// DTSTAMP (when it was written, not what it says: a sync killed before its record wrote it at another time).
func holdsSameEvent(_ body: [UInt8], as event: OutgoingEvent) -> Bool {
  if SHA256.digest(body) == event.hash { return true }
  guard let theirs = try? VCalendar.parse(String(decoding: body, as: UTF8.self)).events, theirs.count == 1,
    let ours = try? VCalendar.parse(String(decoding: event.body, as: UTF8.self)).events, ours.count == 1
  else { return false }
  var copy = theirs[0]
  copy.dtstamp = ours[0].dtstamp
  return copy == ours[0]
}

/// What this collection last received of the plan, as one calendar (SEQUENCE counts from it); the last file
/// export when nothing was synced there yet.
func previousCalendar(_ records: [CalDAVRecord], plan: Plan, db: any TrainingStore) throws -> VCalendar? {
  guard !records.isEmpty else { return try lastExport(of: plan, in: db)?.calendar }
  var events: [VEvent] = []
  for record in records {
    do {
      events += try VCalendar.parse(record.body).events
    } catch {
      throw ExportError.unreadableCalendar(file: "the CalDAV sync record of \(record.uid) in \(db.path)", error)
    }
  }
  return VCalendar(prodID: "-//RunningMate//runmate 0.1//EN", events: events)
}

/// Records one outcome, in its own transaction: an event stored (or adopted) with its href, ETag and body; a removed
/// one forgotten; nothing for the others.
func record(_ outcome: SyncOutcome, identity: String, collection: String, db: any TrainingStore) throws(LogbookError) {
  switch outcome {
  case .stored(let event, let href, let etag, _), .adopted(let event, let href, let etag):
    let stored = CalDAVRecord(
      uid: event.uid, href: href, etag: etag, bodyHash: event.hash, body: String(decoding: event.body, as: UTF8.self),
      label: event.label)
    try db.recordCalDAVSync(identity: identity, collection: collection, stored: [stored], removed: [], at: Date())
  case .removed(let uid, _, _):
    try db.recordCalDAVSync(identity: identity, collection: collection, stored: [], removed: [uid], at: Date())
  case .unchanged, .conflict:
    break
  }
}

/// The events other plans' syncs left in `collection`, by plan (saved plans by name, sorted by their identity).
func leftovers(in db: any TrainingStore, collection: String, besides identity: String) throws -> [LeftoverEvents] {
  let counts = try db.caldavIdentities(collection: collection).filter { $0.key != identity }
  guard !counts.isEmpty else { return [] }
  let plans = try db.plans()
  return counts.sorted(by: { $0.key < $1.key }).map { other, count in
    let plan = plans.first { ExportOptions.identity(of: $0.plan) == other }
    return LeftoverEvents(planName: plan?.name, raceDate: plan.map { "\($0.plan.goal.raceDate)" }, count: count)
  }
}

/// Each event not cancelled, as its own calendar object (a dropped workout is deleted from the collection, not
/// kept there cancelled). No METHOD: a calendar collection's resources carry none (RFC 4791 §4.1).
/// - Throws: ``ExportError/calendarLibrary(_:)`` when libical cannot write an event.
public func outgoingEvents(of calendar: VCalendar) throws(ExportError) -> [OutgoingEvent] {
  var resources: [OutgoingEvent] = []
  for event in calendar.events where event.status != .cancelled {
    let one = VCalendar(prodID: calendar.prodID, method: nil, name: nil, events: [event])
    let body: [UInt8]
    do {
      body = try one.serializedUTF8()
    } catch {
      throw .calendarLibrary(error)
    }
    resources.append(
      OutgoingEvent(
        uid: event.uid, body: body, hash: SHA256.digest(body), label: "\(startLabel(event.start)) \(event.summary)"))
  }
  return resources
}

/// `2027-01-05` or `2027-01-05 06:30`: when an event starts, for the lines a sync prints.
func startLabel(_ time: EventTime) -> String {
  func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
  switch time {
  case .date(let d): return "\(d.year)-\(two(d.month))-\(two(d.day))"
  case .zoned(let t, _), .utc(let t), .floating(let t):
    return "\(t.year)-\(two(t.month))-\(two(t.day)) \(two(t.hour)):\(two(t.minute))"
  }
}

/// What the account behind `account` holds: its calendars (RFC 6764 and RFC 4791 §6.2.1 discovery).
public func discoverCalendars(_ account: CalDAVAccount) async throws(CalDAVError) -> Discovery {
  let client = CalDAVClient(account: account)
  do {
    let discovery = try await client.discover()
    await client.shutdown()
    return discovery
  } catch {
    await client.shutdown()
    throw error
  }
}
