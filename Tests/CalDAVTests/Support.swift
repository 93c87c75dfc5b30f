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

/// Radicale, the Debian package (scripts/apt-packages.txt installs it; CI has it).
let radicalePath = "/usr/bin/radicale"
/// Whether Radicale is installed (a local convenience: CI always has it).
let hasRadicale = FileManager.default.isExecutableFile(atPath: radicalePath)

/// A CalDAV server a test started, with one calendar collection.
protocol CalDAVTestServer {
  /// The calendar collection's URL.
  var calendarURL: String { get }
}

/// The events of `files` by UID, each file checked to hold exactly one VEVENT named after its UID.
func eventsByUID(_ files: [String: String]) throws -> [String: VEvent] {
  var events: [String: VEvent] = [:]
  for (name, text) in files {
    let calendar = try VCalendar.parse(text)
    #expect(calendar.events.count == 1, "\(name) holds \(calendar.events.count) events")
    guard let event = calendar.events.first else { continue }
    #expect(name == event.uid + ".ics")
    #expect(events[event.uid] == nil, "two resources for \(event.uid)")
    events[event.uid] = event
  }
  return events
}

/// The events `runmate export` writes for the plan now, without the cancelled ones, by UID.
func exported(_ fixture: SyncFixture, now: String) throws -> [String: VEvent] {
  let export = try fixture.run(["export", "--plan", "spring", "--out", "-", "--now", now])
  try #require(export.status == 0, "\(export.stderr)")
  let calendar = try VCalendar.parse(export.stdout)
  return Dictionary(
    calendar.events.filter { $0.status != .cancelled }.map { ($0.uid, $0) }, uniquingKeysWith: { a, _ in a })
}

func same(_ a: VEvent, _ b: VEvent) -> Bool {
  a.start == b.start && a.end == b.end && a.summary == b.summary && a.alarms == b.alarms
    && a.description == b.description
}

/// A real Radicale on a free loopback port, in a temporary directory: htpasswd users in plain text
/// (`ana:secret`), the collections on disk, a calendar `/ana/running/` (in the user's principal
/// collection `/ana/`, a plain collection).
final class RadicaleServer: CalDAVTestServer {
  let directory: URL
  let port: Int
  let process = Process()
  let log: Pipe
  static let user = "ana"
  static let password = "secret"

  init() throws {
    directory = try temporaryDirectory("runmate-radicale")
    try "\(Self.user):\(Self.password)\n".write(
      to: directory.appendingPathComponent("users"), atomically: true, encoding: .utf8)
    port = try freeLoopbackPort()
    let config = """
      [server]
      hosts = 127.0.0.1:\(port)
      [auth]
      type = htpasswd
      htpasswd_filename = \(directory.appendingPathComponent("users").path)
      htpasswd_encryption = plain
      delay = 0
      [storage]
      filesystem_folder = \(directory.appendingPathComponent("collections").path)
      [rights]
      type = owner_only
      [logging]
      level = warning
      """
    let configFile = directory.appendingPathComponent("config")
    try config.write(to: configFile, atomically: true, encoding: .utf8)
    process.executableURL = URL(fileURLWithPath: radicalePath)
    process.arguments = ["--config", configFile.path]
    log = Pipe()
    process.standardOutput = log
    process.standardError = log
    try process.run()
    do {
      // Ready when it answers (a few hundred milliseconds; 15 s at most).
      let deadline = Date().addingTimeInterval(15)
      while Date() < deadline {
        if let status = try? dav("OPTIONS", "/"), status.status > 0 { break }
        Thread.sleep(forTimeInterval: 0.1)
      }
      let made = try dav(
        "MKCALENDAR", "/ana/running/",
        body: """
          <?xml version="1.0" encoding="utf-8"?>
          <C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>\
          <D:displayname>Running</D:displayname></D:prop></D:set></C:mkcalendar>
          """)
      try #require(made.status == 201, "MKCALENDAR answered \(made.status)")
    } catch {
      stop()
      throw error
    }
  }

  /// The calendar collection's URL.
  var calendarURL: String { "http://127.0.0.1:\(port)/ana/running/" }

  /// The calendar's resources (`/ana/running/`, or `path`) as Radicale keeps them on disk: file name → text.
  func storedFiles(_ path: String = "/ana/running/") throws -> [String: String] {
    let folder = directory.appendingPathComponent("collections/collection-root\(path)")
    var files: [String: String] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".ics") {
      files[name] = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }
    return files
  }

  /// One request with basic authentication (URLSession, independent of the CalDAV module under test).
  func dav(
    _ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil,
    password: String = RadicaleServer.password
  ) throws -> (status: Int, headers: [String: String], body: String) {
    try syncRequest(
      method, "http://127.0.0.1:\(port)\(path)", headers: headers, body: body, user: Self.user, password: password)
  }

  /// Kills it (SIGKILL: a Radicale started from a test process can leave SIGTERM pending) and removes its files.
  func stop() {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(at: directory)
  }
}

/// A blocking URLSession request; status 0 when no connection could be made.
func syncRequest(
  _ method: String, _ url: String, headers: [String: String], body: String?, user: String, password: String
) throws -> (status: Int, headers: [String: String], body: String) {
  var request = URLRequest(url: try #require(URL(string: url)))
  request.httpMethod = method
  request.timeoutInterval = 10
  request.setValue(
    "Basic " + Data("\(user):\(password)".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
  for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
  if let body {
    request.httpBody = Data(body.utf8)
    if headers["Content-Type"] == nil {
      request.setValue("application/xml; charset=utf-8", forHTTPHeaderField: "Content-Type")
    }
  }
  final class Box: @unchecked Sendable {
    var result: (Int, [String: String], String) = (0, [:], "")
  }
  let box = Box()
  let done = DispatchSemaphore(value: 0)
  let session = URLSession(configuration: .ephemeral)
  session.dataTask(with: request) { data, response, _ in
    if let http = response as? HTTPURLResponse {
      var fields: [String: String] = [:]
      for (key, value) in http.allHeaderFields {
        if let key = key as? String, let value = value as? String { fields[key] = value }
      }
      box.result = (http.statusCode, fields, String(decoding: data ?? Data(), as: UTF8.self))
    }
    done.signal()
  }.resume()
  done.wait()
  session.finishTasksAndInvalidate()
  return box.result
}

/// A logbook in a temporary directory with a saved 16-week half-marathon plan 'spring' (four run days, timed at
/// 07:00 in Berlin, a 30-minute reminder; or `weeks` on `days`), and `runmate` run on it.
struct SyncFixture {
  let directory: URL
  let weeks: Int
  let days: String
  var database: URL { directory.appendingPathComponent("runmate.sqlite") }
  var passwordFile: URL { directory.appendingPathComponent("password") }

  init(password: String = RadicaleServer.password, weeks: Int = 16, days: String = "tue,thu,sat,sun") throws {
    directory = try temporaryDirectory("runmate-sync")
    self.weeks = weeks
    self.days = days
    try "\(password)\n".write(to: passwordFile, atomically: true, encoding: .utf8)
    try savePlan(at: "07:00", now: "2026-12-28")
  }

  /// Saves the plan 'spring' again with its runs at `time` (so every timed event changes).
  func savePlan(at time: String, now: String) throws {
    let saved = try run([
      "plan", "--distance", "half", "--level", "intermediate", "--weeks", "\(weeks)", "--start", "2027-01-04",
      "--at", time, "--tz", "Europe/Berlin", "--days", days, "--remind", "30m", "--save", "--name", "spring",
      "--now", now,
    ])
    try #require(saved.status == 0, "\(saved.stderr)")
  }

  /// Runs `runmate` on this database (with `environment` added).
  func run(_ arguments: [String], environment: [String: String] = [:]) throws -> RunmateOutcome {
    try runRunmate(arguments, database: database, environment: environment)
  }

  /// `runmate sync --caldav URL --user ana --password-file …` with `extra` arguments.
  func sync(_ server: some CalDAVTestServer, _ extra: [String] = [], now: String) throws -> (
    stdout: String, stderr: String, status: Int32
  ) {
    try run(syncArguments(server, extra, now: now))
  }

  /// The arguments of `runmate sync` to `server`'s calendar.
  func syncArguments(_ server: some CalDAVTestServer, _ extra: [String] = [], now: String) -> [String] {
    [
      "sync", "--caldav", server.calendarURL, "--user", RadicaleServer.user, "--password-file", passwordFile.path,
      "--now", now,
    ] + extra
  }

  /// The rows of the sync state, as sqlite3 prints them (nothing when there is none).
  func syncRows() throws -> String {
    try sqlite("SELECT uid, href, etag, hex(bodyHash) FROM caldavResource ORDER BY uid")
  }

  /// The whole database as `sqlite3 .dump` prints it: compared before and after a command that must change nothing.
  func dump() throws -> String { try sqlite(".dump") }

  /// What sqlite3 prints for `command` on this database.
  func sqlite(_ command: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [database.path, command]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  func remove() { try? FileManager.default.removeItem(at: directory) }
}
