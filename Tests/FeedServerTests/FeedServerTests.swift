import Digest
import FeedServer
import Foundation
import ICalendar
import RunMateTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// `runmate serve` as a calendar app meets it: the real binary on a free loopback port, a real HTTP client
/// (URLSession), the body parsed by libical and compared with `runmate export` on the same database.
@Suite(.serialized, .tags(.endToEnd)) struct FeedServerTests {
  @Test func theFeedIsTheExportAndFollowsAReplan() async throws {
    let fixture = try FeedFixture()
    defer { fixture.remove() }
    let token = try fixture.createFeed()
    let server = try ServeProcess(database: fixture.database)
    defer { server.stop() }

    // `runmate export` first: it records the export, which the feed (like the next export) is made against.
    let exported = try VCalendar.parse(try fixture.export())
    #expect(!exported.events.isEmpty)

    // The feed, by a real client.
    let first = try await httpGet(server.url(token))
    #expect(first.status == 200)
    #expect(first.header("Content-Type") == "text/calendar; charset=utf-8")
    let etag = try #require(first.header("ETag"))
    #expect(etag == "\"" + Hex.encode(SHA256.digest(Array(first.body)).prefix(16)) + "\"")
    #expect(first.header("Last-Modified")?.hasSuffix(" GMT") == true)
    let text = String(decoding: first.body, as: UTF8.self)
    #expect(text.contains("REFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n"))
    #expect(text.contains("X-PUBLISHED-TTL:PT1H\r\n"))
    let feed = try VCalendar.parse(text)
    #expect(feed.refreshIntervalSeconds == 3600)
    #expect(feed.publishedTTLSeconds == 3600)

    // The same events as `runmate export` of the same plan (UIDs, starts, titles, SEQUENCE, STATUS).
    #expect(eventKeys(feed) == eventKeys(exported))

    // Unchanged: 304 with the same ETag, no body.
    let again = try await httpGet(server.url(token), headers: ["If-None-Match": etag])
    #expect(again.status == 304)
    #expect(again.body.isEmpty)
    #expect(again.header("ETag") == etag)
    let weak = try await httpGet(server.url(token), headers: ["If-None-Match": "\"other\", W/\(etag)"])
    #expect(weak.status == 304)

    // Runs logged and the plan replanned: the ETag moves and the feed shows the new workouts, as export does.
    for (day, km, time) in [("2027-01-05", "3.4km", "22:30"), ("2027-01-09", "3km", "18:00")] {
      let logged = try fixture.run(["log", day, "--distance", km, "--time", time, "--now", "2027-01-13"])
      #expect(logged.status == 0, "\(logged.stderr)")
    }
    let replanned = try fixture.run(["replan", "--apply", "--now", "2027-01-14"])
    #expect(replanned.status == 0, "\(replanned.stderr)")
    let after = try await httpGet(server.url(token), headers: ["If-None-Match": etag])
    #expect(after.status == 200)
    let newTag = try #require(after.header("ETag"))
    #expect(newTag != etag)
    let replannedFeed = try VCalendar.parse(String(decoding: after.body, as: UTF8.self))
    #expect(eventKeys(replannedFeed) != eventKeys(feed))
    #expect(eventKeys(replannedFeed) == eventKeys(try VCalendar.parse(try fixture.export())))
    #expect(Set(replannedFeed.events.map(\.uid)).isSuperset(of: feed.events.map(\.uid)))

    // `feed list` shows the fetch, never the token.
    let list = try fixture.run(["feed", "list"])
    #expect(list.status == 0)
    #expect(list.stdout.contains("spring"))
    #expect(!list.stdout.contains("never"), "\(list.stdout)")
    #expect(!list.stdout.contains(token))
    #expect(!server.log().contains(token), "the token reached the access log")
    #expect(server.log().contains("path=/feeds/<token>.ics"))
  }

  @Test func rotatedAndRevokedTokensAre404AtOnce() async throws {
    let fixture = try FeedFixture()
    defer { fixture.remove() }
    let token = try fixture.createFeed()
    let server = try ServeProcess(database: fixture.database)
    defer { server.stop() }
    #expect(try await httpGet(server.url(token)).status == 200)

    let rotated = try fixture.run(["feed", "rotate", "--plan", "spring"])
    #expect(rotated.status == 0, "\(rotated.stderr)")
    let newToken = try #require(tokenOf(rotated.stdout))
    #expect(newToken != token)
    #expect(try await httpGet(server.url(token)).status == 404)
    #expect(try await httpGet(server.url(newToken)).status == 200)

    let revoked = try fixture.run(["feed", "revoke", "1"])
    #expect(revoked.status == 0, "\(revoked.stderr)")
    #expect(try await httpGet(server.url(newToken)).status == 404)
    #expect(try fixture.run(["feed", "revoke", "1"]).status == 64)

    // Unknown and malformed tokens: the same 404.
    let unknown = FeedTokens.generate()
    for name in [unknown, String(unknown.dropLast()), unknown + "A", "not-a-token", String(repeating: "=", count: 43)] {
      #expect(try await httpGet(server.url(name)).status == 404, "\(name)")
    }
    #expect(try await httpGet("http://127.0.0.1:\(server.port)/healthz").status == 200)
  }

  @Test func theServerKeepsServingWhileTheCLIWrites() async throws {
    let fixture = try FeedFixture()
    defer { fixture.remove() }
    let token = try fixture.createFeed()
    let server = try ServeProcess(database: fixture.database)
    defer { server.stop() }
    let url = server.url(token)
    // Fetches run while runs are logged one after the other (each a write transaction on the WAL database).
    async let fetches: [Int] = {
      var statuses: [Int] = []
      for _ in 0..<40 { statuses.append(try await httpGet(url).status) }
      return statuses
    }()
    var codes: [Int32] = []
    for day in 5...12 {
      codes.append(
        try fixture.run([
          "log", "2027-01-\(String(format: "%02d", day))", "--distance", "3km", "--time", "20:00",
          "--now", "2027-01-13",
        ]).status)
    }
    #expect(codes.allSatisfy { $0 == 0 })
    #expect(try await fetches.allSatisfy { $0 == 200 })
    // SIGTERM: a clean stop.
    #expect(server.terminate() == 0)
  }
}

/// A pause (issue 24) stays in the feed through two later replans: the paused days' workouts are gone (cancelled for a
/// calendar that had them), and the feed is the export.
@Suite(.serialized, .tags(.endToEnd)) struct PausedFeedTests {
  @Test func aPauseStaysInTheFeedThroughTwoLaterReplans() async throws {
    let fixture = try FeedFixture()
    defer { fixture.remove() }
    let token = try fixture.createFeed()
    let server = try ServeProcess(database: fixture.database)
    defer { server.stop() }
    _ = try fixture.export()
    for arguments in [
      ["pause", "2027-01-19..2027-01-21", "--reason", "travel", "--now", "2027-01-10"],
      ["replan", "--apply", "--now", "2027-01-12"],
      ["replan", "--apply", "--now", "2027-01-18"],
    ] {
      let outcome = try fixture.run(arguments)
      #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
    }
    let fetched = try await httpGet(server.url(token))
    #expect(fetched.status == 200)
    let text = String(decoding: fetched.body, as: UTF8.self)
    #expect(eventKeys(try VCalendar.parse(text)) == eventKeys(try VCalendar.parse(try fixture.export())))
    let blocks = text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "BEGIN:VEVENT").dropFirst()
    let onPausedDays = blocks.filter { block in
      ["20270119", "20270120", "20270121"].contains { block.contains("DTSTART;TZID=Europe/Berlin:\($0)T") }
    }
    #expect(!onPausedDays.isEmpty, "the calendar had workouts on those days")
    for block in onPausedDays { #expect(block.contains("STATUS:CANCELLED\r\n"), "\(block)") }
  }
}

/// A temporary database with the tour's saved plan 'spring'.
struct FeedFixture {
  let directory: URL
  var database: URL { directory.appendingPathComponent("runmate.sqlite") }

  init() throws {
    directory = try temporaryDirectory("runmate-feed")
    let saved = try run([
      "plan", "--distance", "10k", "--level", "beginner", "--weeks", "8", "--start", "2027-01-04", "--at", "07:00",
      "--tz", "Europe/Berlin", "--days", "tue,thu,sat,sun", "--save", "--name", "spring", "--now", "2026-12-28",
    ])
    try #require(saved.status == 0, "\(saved.stderr)")
  }

  /// Runs `runmate` on this database.
  func run(_ arguments: [String]) throws -> RunmateOutcome { try runRunmate(arguments, database: database) }

  /// `runmate feed create` for 'spring': the token of the printed webcal:// address.
  func createFeed() throws -> String {
    let created = try run(["feed", "create", "--plan", "spring"])
    try #require(created.status == 0, "\(created.stderr)")
    #expect(created.stdout.hasPrefix("webcal://127.0.0.1:8080/feeds/"))
    return try #require(tokenOf(created.stdout))
  }

  /// What `runmate export --plan spring --out -` prints now.
  func export() throws -> String {
    let exported = try run(["export", "--plan", "spring", "--out", "-"])
    try #require(exported.status == 0, "\(exported.stderr)")
    return exported.stdout
  }

  func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// The token of a `webcal://HOST:PORT/feeds/TOKEN.ics` line.
func tokenOf(_ output: String) -> String? {
  guard let line = output.split(separator: "\n").first, let range = line.range(of: "/feeds/"),
    line.hasSuffix(".ics")
  else { return nil }
  return String(line[range.upperBound...].dropLast(4))
}

/// What identifies an event for a subscriber: UID, start, title, SEQUENCE and STATUS.
func eventKeys(_ calendar: VCalendar) -> [String] {
  calendar.events.map { "\($0.uid)|\($0.start)|\($0.summary)|\($0.sequence)|\(String(describing: $0.status))" }
    .sorted()
}

/// `runmate serve --port 0` on a database (with `options`), its port read from its "listening" log line.
final class ServeProcess: @unchecked Sendable {
  let process = Process()
  let port: Int
  private let errors: ReadInBackground

  init(database: URL, _ options: [String] = []) throws {
    process.executableURL = try runmateBinary()
    process.arguments = ["serve", "--port", "0", "--db", database.path] + options
    var environment = ProcessInfo.processInfo.environment
    environment["TZ"] = "UTC"
    process.environment = environment
    let err = Pipe()
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    errors = ReadInBackground(err)
    let deadline = Date().addingTimeInterval(20)
    var found: Int?
    while found == nil, Date() < deadline, process.isRunning {
      // `address=http://HOST:PORT`, whatever --host is.
      if let range = errors.text().range(of: "address=http://"),
        let colon = errors.text()[range.upperBound...].firstIndex(of: ":")
      {
        found = Int(errors.text()[errors.text().index(after: colon)...].prefix(while: \.isNumber))
      } else {
        usleep(20_000)
      }
    }
    guard let found else {
      process.terminate()
      throw ServeDidNotStart(log: errors.text())
    }
    port = found
  }

  func url(_ token: String) -> String { "http://127.0.0.1:\(port)/feeds/\(token).ics" }

  func log() -> String { errors.text() }

  /// SIGTERM, then the exit status.
  func terminate() -> Int32 {
    process.terminate()
    process.waitUntilExit()
    return process.terminationStatus
  }

  func stop() {
    if process.isRunning { _ = terminate() }
  }
}

struct ServeDidNotStart: Error, CustomStringConvertible {
  var log: String
  var description: String { "runmate serve did not report its port: \(log)" }
}

/// An HTTP answer: status, header fields, body.
struct HTTPAnswer {
  var status: Int
  var headers: [String: String]
  var body: Data

  func header(_ name: String) -> String? {
    headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
  }
}

/// GET through URLSession with no cache of its own (what a calendar app's HTTP stack does).
func httpGet(_ url: String, headers: [String: String] = [:]) async throws -> HTTPAnswer {
  let configuration = URLSessionConfiguration.ephemeral
  configuration.urlCache = nil
  configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
  let session = URLSession(configuration: configuration)
  defer { session.finishTasksAndInvalidate() }
  var request = URLRequest(url: try #require(URL(string: url)))
  for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
  let (data, response) = try await session.data(for: request)
  let http = try #require(response as? HTTPURLResponse)
  var fields: [String: String] = [:]
  for (key, value) in http.allHeaderFields {
    if let key = key as? String, let value = value as? String { fields[key] = value }
  }
  return HTTPAnswer(status: http.statusCode, headers: fields, body: data)
}
