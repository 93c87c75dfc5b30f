import Foundation
import Training
import TrainingDomain

/// What the server did with the runs a push sent, summed over its requests.
public struct PushTotals: Sendable, Equatable {
  /// Runs the server stored.
  public var added = 0
  /// Runs it had from an earlier push.
  public var alreadyThere = 0
  /// Runs it found to be the same as one it counts.
  public var twins = 0
  /// Runs it removed because they were deleted from the logbook.
  public var removed = 0
  /// Runs it had, rewritten because the logbook's record of them changed.
  public var updated = 0
  /// The requests sent.
  public var requests = 0

  /// Totals.
  public init(
    added: Int = 0, alreadyThere: Int = 0, twins: Int = 0, removed: Int = 0, updated: Int = 0, requests: Int = 0
  ) {
    self.added = added
    self.alreadyThere = alreadyThere
    self.twins = twins
    self.removed = removed
    self.updated = updated
    self.requests = requests
  }
}

/// A pushed run as the API's JSON (`PushedRun` in openapi.yaml).
private struct RunBody: Encodable {
  let clientId: String
  let date: String
  let startedAt: Date?
  let distanceKm: Double
  let durationS: Double
  let movingS: Double?
  let kind: String?
  let rpe: Int?
  let averageHeartRate: Int?
  let elevationGainM: Double?
  let note: String?
  let source: String

  init(_ pushed: PushedRun) {
    let run = pushed.run
    clientId = pushed.clientID
    date = run.date.description
    startedAt = run.startedAt
    distanceKm = run.distanceKm
    durationS = run.durationSeconds
    movingS = run.movingSeconds
    kind = run.kind?.rawValue
    rpe = run.rpe
    averageHeartRate = run.averageHeartRate
    elevationGainM = run.elevationGainMeters
    note = run.note
    source = run.source.rawValue
  }
}

private struct PushAnswer: Decodable {
  let added: Int
  let alreadyThere: Int
  let twins: Int
  /// Absent from servers that came before deletions and updates were pushed.
  let removed: Int?
  let updated: Int?
}

extension CoachClient {
  /// The most bytes of runs one request carries (the server takes bodies of 64 KiB).
  static let maximumBatchBytes = 60 * 1024

  /// Sends the identities of runs `deleted` from the logbook, then `runs`, to the athlete's own runs (`POST
  /// /api/v1/me/runs`): the deletions first, at most ``Training/maxDeletedRuns`` and ``maximumBatchBytes`` a
  /// request, then the runs, at most ``Training/maxPushedRuns`` and ``maximumBatchBytes`` a request. Each request is
  /// stored whole or not at all, a run the server has is not stored again, and a deletion applied before removes
  /// nothing: after a failure half-way, pushing again sends what is missing.
  public func pushRuns(_ runs: [PushedRun], deleted: [String] = [], session: CoachSession)
    async throws(CoachClientError) -> PushTotals
  {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.dateEncodingStrategy = .iso8601
    var runItems: [Data] = []
    var deletedItems: [Data] = []
    do {
      for run in runs { runItems.append(try encoder.encode(RunBody(run))) }
      for identity in deleted { deletedItems.append(try encoder.encode(identity)) }
    } catch {
      throw .refused(server: server, status: 0, message: "a run cannot be written as JSON")
    }
    var totals = PushTotals()
    for batch in Self.batches(deletedItems, most: maxDeletedRuns) {
      try await send(#"{"runs":[],"deleted":["#, batch, session: session, into: &totals)
    }
    for batch in Self.batches(runItems, most: maxPushedRuns) {
      try await send(#"{"runs":["#, batch, session: session, into: &totals)
    }
    return totals
  }

  /// `items` cut into runs of at most `most` items and ``maximumBatchBytes`` (one item a batch at least).
  private static func batches(_ items: [Data], most: Int) -> [ArraySlice<Data>] {
    var batches: [ArraySlice<Data>] = []
    var start = 0
    while start < items.count {
      var end = start
      var bytes = 32
      while end < items.count, end - start < most, end == start || bytes + items[end].count + 1 <= maximumBatchBytes {
        bytes += items[end].count + 1
        end += 1
      }
      batches.append(items[start..<end])
      start = end
    }
    return batches
  }

  /// Sends one request of the push: `head`, the `items` separated by commas, `]}`; adds the answer to `totals`.
  private func send(_ head: String, _ items: ArraySlice<Data>, session: CoachSession, into totals: inout PushTotals)
    async throws(CoachClientError)
  {
    var body = Data(head.utf8)
    for (offset, item) in items.enumerated() {
      if offset > 0 { body.append(UInt8(ascii: ",")) }
      body.append(item)
    }
    body.append(contentsOf: Array("]}".utf8))
    let reply = try await send(.POST, "/api/v1/me/runs", token: session.token, json: body)
    guard reply.status == 200 else { throw failure(reply) }
    let answer = try Self.decode(PushAnswer.self, from: reply, server: server)
    totals.added += answer.added
    totals.alreadyThere += answer.alreadyThere
    totals.twins += answer.twins
    totals.removed += answer.removed ?? 0
    totals.updated += answer.updated ?? 0
    totals.requests += 1
  }
}

/// What `runmate push` did: the plan's answer (when a plan was sent and taken), the refusal of a plan over a coach's
/// change not pulled yet, and the runs' totals.
public struct PushReport: Sendable {
  /// Whether the server stored the plan (false: it had it), and the cursor to keep; nil when no plan was taken.
  public var plan: (stored: Bool, cursor: String)?
  /// ``CoachClientError/planChanged(server:)`` when the plan was refused; nil otherwise.
  public var planRefused: CoachClientError?
  /// The plan was not sent: it is the one last sent or pulled (``CoachSession/planRevision``).
  public var planUnchanged = false
  /// The revision of the plan taken (``Training/PlanFile/revision()``), to keep with the session; nil when none was.
  public var planRevision: String?
  /// What the server did with the runs.
  public var runs: PushTotals
}

extension CoachClient {
  /// `runmate push`: the athlete's `plan` first (``pushPlan(_:cursor:session:)``, based on `cursor`, so that a first
  /// push gives the server the plan its runs are counted for), unless it is the one the session last sent or pulled
  /// (``CoachSession/planRevision``); then the runs `deleted` and the `runs` (``pushRuns(_:deleted:session:)``), which go even when the plan is
  /// refused over a coach's change: they are the runner's record.
  public func push(
    plan: PlanFile?, cursor: String?, runs: [PushedRun], deleted: [String] = [], session: CoachSession
  ) async throws -> PushReport {
    var report = PushReport(plan: nil, planRefused: nil, runs: PushTotals())
    let revision = try plan?.revision()
    report.planUnchanged = revision != nil && revision == session.planRevision
    if let plan, !report.planUnchanged {
      do {
        report.plan = try await pushPlan(plan, cursor: cursor, session: session)
        report.planRevision = revision
      } catch {
        guard let failure = error as? CoachClientError, case .planChanged = failure else { throw error }
        report.planRefused = failure
      }
    }
    report.runs = try await pushRuns(runs, deleted: deleted, session: session)
    return report
  }
}
