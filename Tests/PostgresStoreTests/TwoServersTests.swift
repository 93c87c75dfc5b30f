import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import RunMateTestSupport
import Testing

/// Two `runmate serve --api` processes on one PostgreSQL database, on loopback: the servers keep no state of their
/// own (but the login rate limit's counts), so a token issued by one opens the other, a logout through one closes
/// both, and what is written through one (a plan, a comment) is read through the other. The time limit catches a
/// hang, not slowness: with the whole suite beside it on 2 cores, two servers and six `runmate` processes once took
/// over 2 minutes.
@Suite(.timeLimit(.minutes(5)), .tags(.endToEnd)) struct TwoServersTests {
  /// A running `runmate serve --api`, stopped with SIGTERM.
  final class Server: Sendable {
    let process: Process
    let port: Int
    let log: ReadInBackground

    init(database: String) throws {
      port = try freeLoopbackPort()
      process = try runmateProcess(
        ["serve", "--api", "--port", String(port), "--no-access-log"],
        database: URL(fileURLWithPath: "/nonexistent/runmate.sqlite"), environment: ["RUNMATE_DATABASE": database])
      let err = Pipe()
      process.standardError = err
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      log = ReadInBackground(err)
      let deadline = Date().addingTimeInterval(30)
      while !log.text().contains("listening") {
        try #require(process.isRunning && Date() < deadline, "the server did not start: \(log.text())")
        Thread.sleep(forTimeInterval: 0.05)
      }
    }

    func stop() {
      process.terminate()
      process.waitUntilExit()
    }

    /// One request with AsyncHTTPClient: the status and the body as JSON.
    func send(_ method: HTTPMethod, _ path: String, token: String? = nil, json: String? = nil) async throws
      -> (status: Int, object: [String: Any])
    {
      var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
      request.method = method
      if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
      if let json {
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: json))
      }
      // A new connection each time, as in CoachAPITests: no pooled connection the server closed as idle.
      request.headers.replaceOrAdd(name: "Connection", value: "close")
      let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
      let body = try await response.body.collect(upTo: 4 << 20)
      let object = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any]
      return (Int(response.status.code), object ?? [:])
    }
  }

  /// `runmate ARGUMENTS` on `database`, with `input` on standard input; fails the test unless it exits 0.
  func runmate(_ arguments: [String], on database: String, input: String = "") throws {
    let process = try runmateProcess(
      arguments, database: URL(fileURLWithPath: "/nonexistent/runmate.sqlite"),
      environment: ["RUNMATE_DATABASE": database])
    let stdin = Pipe()
    process.standardInput = stdin
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let outcome = try runToEnd(process)
    try #require(outcome.status == 0, "runmate \(arguments.joined(separator: " ")): \(outcome.stderr)")
  }

  @Test func twoServersOnOneDatabaseServeTheSameData() async throws {
    guard Engine.available.contains(.postgres) else { return }
    let database = try TestPostgres.newDatabase()
    for arguments in [
      ["profile", "init", "kim", "--coach"], ["profile", "init", "ana"],
      ["coach", "add-athlete", "ana", "--profile", "kim"],
    ] {
      try runmate(arguments, on: database)
    }
    try runmate(
      ["account", "create", "--email", "kim@example.org", "--role", "coach", "--profile", "kim"], on: database,
      input: "a long enough password\n")
    let (one, two) = (try Server(database: database), try Server(database: database))
    defer {
      one.stop()
      two.stop()
    }

    let login = try await one.send(
      .POST, "/api/v1/sessions", json: #"{"login":"kim@example.org","password":"a long enough password"}"#)
    #expect(login.status == 201)
    let token = try #require(login.object["token"] as? String)
    // Issued by one, honoured by the other.
    let roster = try await two.send(.GET, "/api/v1/roster", token: token)
    #expect(roster.status == 200)
    #expect((roster.object["athletes"] as? [[String: Any]])?.map { $0["name"] as? String } == ["ana"])

    // A plan assigned through one is read through the other.
    let assigned = try await two.send(
      .PUT, "/api/v1/athletes/ana/plan", token: token, json: #"{"distance":"10k","level":"beginner","weeks":8}"#)
    #expect(assigned.status == 200)
    let planID = try #require((assigned.object["plan"] as? [String: Any])?["plan_id"] as? String)
    let plan = try await one.send(.GET, "/api/v1/athletes/ana/plan", token: token)
    #expect(plan.object["plan_id"] as? String == planID)

    // A comment written through one is read through the other.
    let day = try #require(
      (assigned.object["changes"] as? [[String: Any]])?.first { $0["change"] as? String == "added" }?["date"]
        as? String)
    let written = try await one.send(
      .POST, "/api/v1/athletes/ana/workouts/\(day)/comments", token: token, json: #"{"text":"Easy does it"}"#)
    #expect(written.status == 201)
    let read = try await two.send(.GET, "/api/v1/athletes/ana/workouts/\(day)/comments", token: token)
    #expect((read.object["comments"] as? [[String: Any]])?.map { $0["text"] as? String } == ["Easy does it"])

    // Logged out through the other: refused by both.
    #expect(try await two.send(.DELETE, "/api/v1/sessions/current", token: token).status == 204)
    #expect(try await one.send(.GET, "/api/v1/roster", token: token).status == 401)
    #expect(try await two.send(.GET, "/api/v1/roster", token: token).status == 401)
  }
}
