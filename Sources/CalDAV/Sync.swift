import Foundation
import RunningCore

/// One event as the plan's calendar has it now: its own calendar object, to be stored as `<uid>.ics`.
public struct OutgoingEvent: Sendable, Hashable {
  /// The event's UID.
  public var uid: String
  /// The calendar object (a VCALENDAR holding this one VEVENT and its VTIMEZONE), UTF-8.
  public var body: [UInt8]
  /// The SHA-256 of `body`: what the last sync sent is compared by it.
  public var hash: [UInt8]
  /// `2027-01-05 W1 Easy · 5 km`, for the lines the sync prints.
  public var label: String

  /// An event.
  public init(uid: String, body: [UInt8], hash: [UInt8], label: String) {
    self.uid = uid
    self.body = body
    self.hash = hash
    self.label = label
  }

  /// The resource's file name: the UID with `.ics`.
  public var name: String { uid + ".ics" }
}

/// What the last sync left on the server for one event, as stored.
public struct SyncedResource: Sendable, Hashable {
  /// The event's UID.
  public var uid: String
  /// The resource's path on the server.
  public var href: String
  /// Its ETag after the last write, nil when the server gave none.
  public var etag: String?
  /// The SHA-256 of the body sent.
  public var hash: [UInt8]
  /// The label of the event sent.
  public var label: String

  /// A resource.
  public init(uid: String, href: String, etag: String?, hash: [UInt8], label: String) {
    self.uid = uid
    self.href = href
    self.etag = etag
    self.hash = hash
    self.label = label
  }
}

/// What one event needs.
public enum SyncStep: Sendable, Hashable {
  /// New to this collection: PUT with `If-None-Match: *` (no precondition with `--force` over a resource that
  /// is already there).
  case create(OutgoingEvent, href: String, precondition: WritePrecondition)
  /// Changed since the last sync: PUT with `If-Match` and the stored ETag (the server's with `--force`).
  case update(OutgoingEvent, SyncedResource, precondition: WritePrecondition)
  /// Dropped from the plan: DELETE with `If-Match`.
  case delete(SyncedResource, precondition: WritePrecondition)
  /// Dropped from the plan and already gone from the server: the record is forgotten, nothing is sent.
  case forget(SyncedResource)
  /// Nothing to send.
  case unchanged(uid: String)
  /// Already on the server at `href` as this sync would send it (an interrupted sync put it there, and did not
  /// record it): recorded as this logbook's, with the server's `etag`; nothing is sent.
  case adopt(OutgoingEvent, href: String, etag: String?)
  /// Changed here and in the calendar app (or deleted there, or there without being synced from here): left as
  /// the server has it; `reason` says what happened.
  case conflict(uid: String, label: String, reason: FieldText)
}

/// Works out the steps from the events now, what the last sync stored, what the server holds (by file name) and
/// which of the server's resources hold just what this sync sends (`identical`, by UID: the entries of
/// ``adoptionCandidates(events:stored:server:)`` found the same, with the ETag read with them).
///
/// - An event whose body is the one last sent is unchanged, whatever the server did to it since.
/// - An event the server already holds as this sync would send it is adopted: recorded, not sent, never a conflict
///   (a sync killed between the server's answer and its record left it there).
/// - A changed event is updated when the server still has the ETag stored; when the server's ETag differs (the
///   event was edited in a calendar app) or the resource is gone (deleted there), it is a conflict, unless `force`.
/// - A new event is created; a resource of that name already on the server, not put there by a sync from this
///   logbook, is a conflict unless `force`.
/// - A stored event the plan dropped is deleted while the server still has its ETag; edited there since, it is a
///   conflict unless `force`; gone already, it is forgotten.
public func planSync(
  events: [OutgoingEvent], stored: [SyncedResource], server: [String: DAVEntry],
  identical: [String: DAVEntry] = [:], hrefFor: (String) -> String, force: Bool
) -> [SyncStep] {
  let storedByUID = Dictionary(stored.map { ($0.uid, $0) }, uniquingKeysWith: { first, _ in first })
  var steps: [SyncStep] = []
  var current: Set<String> = []
  for event in events {
    current.insert(event.uid)
    let onServer = server[event.name]
    if let copy = identical[event.uid], onServer != nil, storedByUID[event.uid]?.hash != event.hash {
      steps.append(.adopt(event, href: storedByUID[event.uid]?.href ?? hrefFor(event.name), etag: copy.etag))
      continue
    }
    guard let record = storedByUID[event.uid] else {
      if let onServer {
        steps.append(
          force
            ? .create(event, href: hrefFor(event.name), precondition: onServer.etag.map { .match($0) } ?? .none)
            : .conflict(
              uid: event.uid, label: event.label,
              reason: "already in the collection, not put there by a sync from this logbook; kept (\(field: .force) "
                + "overwrites it)"))
      } else {
        steps.append(.create(event, href: hrefFor(event.name), precondition: .create))
      }
      continue
    }
    if record.hash == event.hash {
      steps.append(.unchanged(uid: event.uid))
      continue
    }
    guard let onServer else {
      steps.append(
        force
          ? .create(event, href: record.href, precondition: .create)
          : .conflict(
            uid: event.uid, label: event.label,
            reason: "deleted in the calendar app since the last sync; not put back (\(field: .force) puts it back)"))
      continue
    }
    if let etag = record.etag, let now = onServer.etag, etag != now {
      steps.append(
        force
          ? .update(event, record, precondition: .match(now))
          : .conflict(
            uid: event.uid, label: event.label,
            reason: "edited in the calendar app since the last sync; kept (\(field: .force) overwrites it)"))
      continue
    }
    steps.append(.update(event, record, precondition: record.etag.map { .match($0) } ?? .none))
  }
  for record in stored where !current.contains(record.uid) {
    let name = record.href.split(separator: "/").last.map { String($0).removingPercentEncoding ?? String($0) } ?? ""
    guard let onServer = server[name] else {
      steps.append(.forget(record))
      continue
    }
    if let etag = record.etag, let now = onServer.etag, etag != now, !force {
      steps.append(
        .conflict(
          uid: record.uid, label: record.label,
          reason: "dropped from the plan but edited in the calendar app since the last sync; kept (\(field: .force) "
            + "deletes it)"))
      continue
    }
    let etag = force ? onServer.etag : (record.etag ?? onServer.etag)
    steps.append(.delete(record, precondition: etag.map { .match($0) } ?? .none))
  }
  return steps
}

/// The events whose resource on the server ``planSync(events:stored:server:identical:hrefFor:force:)`` would call
/// a conflict unless it holds what this sync sends: one not recorded (a sync killed before it recorded its create),
/// or one whose ETag is not the recorded one while this sync changes it (a sync killed before it recorded its
/// update). Their bodies are fetched and compared; by the resource on the server (its href and ETag as listed).
public func adoptionCandidates(
  events: [OutgoingEvent], stored: [SyncedResource], server: [String: DAVEntry]
) -> [(event: OutgoingEvent, onServer: DAVEntry)] {
  let storedByUID = Dictionary(stored.map { ($0.uid, $0) }, uniquingKeysWith: { first, _ in first })
  return events.compactMap { event in
    guard let onServer = server[event.name] else { return nil }
    guard let record = storedByUID[event.uid] else { return (event, onServer) }
    guard record.hash != event.hash, let etag = record.etag, let now = onServer.etag, etag != now else { return nil }
    return (event, onServer)
  }
}

/// What a step did on the server.
public enum SyncOutcome: Sendable, Hashable {
  /// The event is on the server as sent, at `href` with `etag`; `created` when it was not there before.
  case stored(OutgoingEvent, href: String, etag: String?, created: Bool)
  /// The resource is gone: `deleted` by this sync, or found already gone. Its record goes.
  case removed(uid: String, label: String, deleted: Bool)
  /// Nothing was sent.
  case unchanged(uid: String)
  /// Nothing was sent: the server already held the event as this sync sends it, at `href` with `etag`.
  case adopted(OutgoingEvent, href: String, etag: String?)
  /// Left as the server has it (before the request, or a 412 Precondition Failed answered to it).
  case conflict(uid: String, label: String, reason: FieldText)
}

/// Carries out `steps` one by one, handing each outcome to `record` as soon as the server has answered (so that
/// what reached the server is recorded even when the process dies during the sync: at most the one write in flight
/// is not, and the next sync adopts it). Returns what each step did up to the first error of the server, and that
/// error (nil when all went through); an error of `record` stops the sync and is thrown.
public func runSync<Failure: Error>(
  _ steps: [SyncStep], client: CalDAVClient, record: (SyncOutcome) throws(Failure) -> Void
) async throws(Failure) -> (outcomes: [SyncOutcome], error: CalDAVError?) {
  var outcomes: [SyncOutcome] = []
  for step in steps {
    let outcome: SyncOutcome
    do {
      outcome = try await perform(step, client: client)
    } catch {
      return (outcomes, error)
    }
    try record(outcome)
    outcomes.append(outcome)
  }
  return (outcomes, nil)
}

/// What one step does on the server (nothing, for a step that sends nothing).
private func perform(_ step: SyncStep, client: CalDAVClient) async throws(CalDAVError) -> SyncOutcome {
  switch step {
  case .unchanged(let uid):
    return .unchanged(uid: uid)
  case .adopt(let event, let href, let etag):
    return .adopted(event, href: href, etag: etag)
  case .conflict(let uid, let label, let reason):
    return .conflict(uid: uid, label: label, reason: reason)
  case .forget(let record):
    return .removed(uid: record.uid, label: record.label, deleted: false)
  case .create(let event, let href, let precondition):
    return try await put(event, at: href, precondition: precondition, created: true, client: client)
  case .update(let event, let record, let precondition):
    return try await put(event, at: record.href, precondition: precondition, created: false, client: client)
  case .delete(let record, let precondition):
    let etag: String?
    if case .match(let value) = precondition { etag = value } else { etag = nil }
    switch try await client.delete(record.href, etag: etag) {
    case .done: return .removed(uid: record.uid, label: record.label, deleted: true)
    case .gone: return .removed(uid: record.uid, label: record.label, deleted: false)
    case .preconditionFailed:
      return .conflict(
        uid: record.uid, label: record.label,
        reason: "dropped from the plan but changed in the calendar app (412 Precondition Failed); kept "
          + "(\(field: .force) deletes it)")
    }
  }
}

private func put(
  _ event: OutgoingEvent, at href: String, precondition: WritePrecondition, created: Bool, client: CalDAVClient
) async throws(CalDAVError) -> SyncOutcome {
  switch try await client.put(event.body, at: href, precondition: precondition) {
  case .done(let etag):
    // A server that changed what it stored sends no ETag (RFC 4791 §5.3.4): ask for it.
    let known: String?
    if let etag { known = etag } else { known = try await client.etag(of: href) }
    return .stored(event, href: href, etag: known, created: created)
  case .preconditionFailed:
    let reason: FieldText =
      precondition == .create
      ? "already in the collection (412 Precondition Failed); kept (\(field: .force) overwrites it)"
      : "changed in the calendar app since the last sync (412 Precondition Failed); kept (\(field: .force) overwrites it)"
    return .conflict(uid: event.uid, label: event.label, reason: reason)
  case .gone:
    return .conflict(
      uid: event.uid, label: event.label,
      reason: "deleted in the calendar app since the last sync; not put back (\(field: .force) puts it back)")
  }
}
