import AsyncHTTPClient
import CoachAPI
import FeedServer
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import PlanEngine
import RunMateTestSupport
import RunningCore
import Synchronization
import Testing
import Training
import TrainingDomain

/// The password every seeded account has.
let password = "correct horse battery"

/// The server's clock: Wednesday of week 1 of the seeded plans, noon UTC.
let testNow = Date(timeIntervalSince1970: Double(testStart.adding(days: 2).dayNumber) * 86400 + 12 * 3600)

/// A database with two coaches and one athlete each, their plans and a run, and an account for each of the four:
/// kim (coach of anna), lee (coach of ben), anna and ben (athletes). bcrypt at its lowest cost, to keep tests fast.
struct Club {
  let folder: URL
  let store: any TrainingStore
  /// The first day of each athlete's plan with a run planned.
  let workoutDays: [String: CivilDate]

  init() throws {
    folder = try temporaryDirectory("coach-api")
    store = try openStore(at: folder.appendingPathComponent("runmate.sqlite").path)
    var kim = Profile(name: "kim")
    kim.isCoach = true
    kim.specialty = "Marathon and half marathon"
    kim.certifications = ["USATF Level 1", "RRCA"]
    kim.bio = "Former steeplechaser; patient with beginners."
    kim.whatsapp = "4915112345678"
    kim.telegram = "kim_runs"
    kim.email = "kim+coach@example.com"
    _ = try store.createProfile(kim)
    var lee = Profile(name: "lee")
    lee.isCoach = true
    lee.specialty = "Trail"
    lee.bio = "Mountains."
    _ = try store.createProfile(lee)
    let anna = try #require(try store.createProfile(Profile(name: "anna")).id)
    let ben = try #require(try store.createProfile(Profile(name: "ben")).id)
    try store.addAthlete("anna", toCoach: "kim")
    try store.addAthlete("ben", toCoach: "lee")
    let annaPlan = try store.savePlan(
      try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules), name: "anna-10k",
      activate: true)
    try store.assignPlan(annaPlan.id, toProfile: anna)
    let benPlan = try store.savePlan(
      try makePlan(goal: goal(.tenK, .beginner, weeks: 10), rules: repositoryRules), name: "ben-10k",
      activate: false)
    try store.assignPlan(benPlan.id, toProfile: ben)
    let first = try #require(annaPlan.plan.weeks.first?.workouts.first { $0.kind.isRun })
    let benFirst = try #require(benPlan.plan.weeks.first?.workouts.first { $0.kind.isRun })
    workoutDays = ["anna": first.date, "ben": benFirst.date]
    _ = try store.addRuns(
      [Completion(date: first.date, distanceKm: first.distanceKm, durationSeconds: first.distanceKm * 360)],
      plan: "anna-10k")
    for (login, role, profile) in [
      ("kim@example.com", "coach", "kim"), ("lee", "coach", "lee"), ("anna", "athlete", "anna"),
      ("ben", "athlete", "ben"),
    ] {
      _ = try createAccount(
        login: login, role: role, profile: profile, password: password, in: store, now: testNow, cost: 4)
    }
  }

  func remove() { try? FileManager.default.removeItem(at: folder) }
}

/// `runmate serve --api` in this process on a free port, stopped by cancelling its task.
final class APIServer: Sendable {
  let port: Int
  let task: Task<Void, any Error>

  private init(port: Int, task: Task<Void, any Error>) {
    self.port = port
    self.task = task
  }

  static func start(
    _ store: any TrainingStore, now: @escaping @Sendable () -> Date = { testNow }, log: CapturedLog? = nil,
    requestTimeout: Duration = .seconds(120)
  ) async throws -> APIServer {
    var logger =
      log.map { log in Logger(label: "test.api") { _ in CapturingLogHandler(log: log) } }
      ?? Logger(label: "test.api")
    logger.logLevel = log == nil ? .critical : .trace
    let configuration = FeedServerConfiguration(
      port: 0, systemZone: "UTC", accessLog: false, idleTimeout: .seconds(5), requestTimeout: requestTimeout,
      handlesSignals: false,
      api: CoachAPIConfiguration(systemZone: "UTC", passwordCost: 4, now: now, rules: repositoryRules))
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let task = Task {
      try await runFeedServer(db: store, configuration: configuration, logger: logger) { continuation.yield($0) }
    }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else { throw APITestFailure(message: "the server did not start") }
    return APIServer(port: port, task: task)
  }

  /// Cancels the server's task and waits for it to end.
  func stop() async {
    task.cancel()
    _ = await task.result
  }

  /// Sends one request with AsyncHTTPClient and reads the whole answer.
  func send(
    _ method: HTTPMethod, _ path: String, token: String? = nil, json: String? = nil, headers: [(String, String)] = []
  ) async throws -> Answer {
    var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
    request.method = method
    if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
    if let json {
      request.headers.add(name: "Content-Type", value: "application/json")
      request.body = .bytes(ByteBuffer(string: json))
    }
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    // A new connection for each request: a pooled one the server closed as idle (a test starved for minutes on a
    // busy machine) was reset under the next POST, which AsyncHTTPClient does not retry ("Connection reset by peer").
    request.headers.replaceOrAdd(name: "Connection", value: "close")
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
    let body = try await response.body.collect(upTo: 4 << 20)
    return Answer(
      status: Int(response.status.code), headers: response.headers.map { ($0.name.lowercased(), $0.value) },
      body: Data(buffer: body))
  }

  /// Logs in and returns the token.
  func login(_ login: String, _ password: String = password) async throws -> String {
    let answer = try await send(.POST, "/api/v1/sessions", json: #"{"login":"\#(login)","password":"\#(password)"}"#)
    try #require(answer.status == 201, "login \(login): \(answer.status) \(answer.text)")
    return try #require(answer.object["token"] as? String)
  }
}

/// An HTTP answer.
struct Answer: Sendable {
  let status: Int
  let headers: [(String, String)]
  let body: Data

  var text: String { String(decoding: body, as: UTF8.self) }
  func header(_ name: String) -> String? { headers.first { $0.0 == name.lowercased() }?.1 }
  /// The body as a JSON object (empty when it is not one).
  var object: [String: Any] { ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:] }
}

struct APITestFailure: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}

/// `body` with a ``Club`` served by an ``APIServer``; the server stopped and the club's files removed after it,
/// whatever happens.
func withServedClub(_ body: (Club, APIServer) async throws -> Void) async throws {
  let club = try Club()
  defer { club.remove() }
  let server = try await APIServer.start(club.store)
  do {
    try await body(club, server)
  } catch {
    await server.stop()
    throw error
  }
  await server.stop()
}

/// Every line a server logged, as its text and metadata would be written out.
final class CapturedLog: Sendable {
  private let lines = Mutex<[String]>([])

  func append(_ line: String) { lines.withLock { $0.append(line) } }

  /// The lines so far.
  var all: [String] { lines.withLock { $0 } }
}

/// A log handler that keeps each line (level, message, metadata) in a ``CapturedLog``.
struct CapturingLogHandler: LogHandler {
  let log: CapturedLog
  var metadata: Logger.Metadata = [:]
  var metadataProvider: Logger.MetadataProvider?
  var logLevel: Logger.Level = .trace

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    let fields = metadata.merging(event.metadata ?? [:]) { $1 }.sorted { $0.key < $1.key }
    log.append("\(event.level) \(event.message) \(fields.map { "\($0.key)=\($0.value)" }.joined(separator: " "))")
  }
}
