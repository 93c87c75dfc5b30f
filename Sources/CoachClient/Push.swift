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
  /// The requests sent.
  public var requests = 0

  /// Totals.
  public init(added: Int = 0, alreadyThere: Int = 0, twins: Int = 0, requests: Int = 0) {
    self.added = added
    self.alreadyThere = alreadyThere
    self.twins = twins
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
}

extension CoachClient {
  /// The most bytes of runs one request carries (the server takes bodies of 64 KiB).
  static let maximumBatchBytes = 60 * 1024

  /// Sends `runs` to the athlete's own runs (`POST /api/v1/me/runs`), at most ``Training/maxPushedRuns`` and
  /// ``maximumBatchBytes`` a request. Each request is stored whole or not at all, and a run the server has is not
  /// stored again: after a failure half-way, pushing again sends what is missing.
  public func pushRuns(_ runs: [PushedRun], session: CoachSession) async throws(CoachClientError) -> PushTotals {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.dateEncodingStrategy = .iso8601
    var items: [Data] = []
    for run in runs {
      do {
        items.append(try encoder.encode(RunBody(run)))
      } catch {
        throw .refused(server: server, status: 0, message: "a run cannot be written as JSON")
      }
    }
    var totals = PushTotals()
    var start = 0
    while start < items.count {
      var end = start
      var bytes = 16
      while end < items.count, end - start < maxPushedRuns,
        end == start || bytes + items[end].count + 1 <= Self.maximumBatchBytes
      {
        bytes += items[end].count + 1
        end += 1
      }
      var body = Data(#"{"runs":["#.utf8)
      for index in start..<end {
        if index > start { body.append(UInt8(ascii: ",")) }
        body.append(items[index])
      }
      body.append(contentsOf: Array("]}".utf8))
      let reply = try await send(.POST, "/api/v1/me/runs", token: session.token, json: body)
      guard reply.status == 200 else { throw failure(reply) }
      let answer = try Self.decode(PushAnswer.self, from: reply, server: server)
      totals.added += answer.added
      totals.alreadyThere += answer.alreadyThere
      totals.twins += answer.twins
      totals.requests += 1
      start = end
    }
    return totals
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
  /// (``CoachSession/planRevision``); then the `runs` (``pushRuns(_:session:)``), which go even when the plan is
  /// refused over a coach's change: they are the runner's record.
  public func push(plan: PlanFile?, cursor: String?, runs: [PushedRun], session: CoachSession) async throws
    -> PushReport
  {
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
    report.runs = try await pushRuns(runs, session: session)
    return report
  }
}
