import Foundation
import ICalendar
import RunMateTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Xandikos, the Debian package (scripts/apt-packages.txt installs it; CI has it): a second CalDAV server, another
/// implementation than Radicale (Dulwich, a Git store; strict about RFC 4791 by default).
let xandikosPath = "/usr/bin/xandikos"
/// Whether Xandikos is installed (a local convenience: CI always has it).
let hasXandikos = FileManager.default.isExecutableFile(atPath: xandikosPath)

/// A real Xandikos on a free loopback port, in a temporary directory, with its default calendar
/// (`/user/calendars/calendar/`, found from the server's root through its current-user-principal). Xandikos has no
/// authentication of its own (it is meant to sit behind a proxy that has it): the credentials sent are ignored.
final class XandikosServer: CalDAVTestServer {
  let directory: URL
  let port: Int
  let process = Process()
  /// Its output (an access-log line per request): a file, so that a full pipe never stalls it.
  let log: URL

  init() throws {
    directory = try temporaryDirectory("runmate-xandikos")
    port = try freeLoopbackPort()
    process.executableURL = URL(fileURLWithPath: xandikosPath)
    process.arguments = [
      "-d", directory.appendingPathComponent("store").path, "--defaults", "-l", "127.0.0.1", "-p", String(port),
    ]
    log = directory.appendingPathComponent("xandikos.log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let output = try FileHandle(forWritingTo: log)
    defer { try? output.close() }
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      if let answer = try? dav("OPTIONS", "/"), answer.status > 0 { return }
      Thread.sleep(forTimeInterval: 0.1)
    }
    stop()
    throw XandikosDidNotStart()
  }

  struct XandikosDidNotStart: Error {}

  var rootURL: String { "http://127.0.0.1:\(port)/" }
  var calendarPath: String { "/user/calendars/calendar/" }
  var calendarURL: String { "http://127.0.0.1:\(port)\(calendarPath)" }

  func dav(_ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil) throws -> (
    status: Int, headers: [String: String], body: String
  ) {
    try syncRequest(
      method, "http://127.0.0.1:\(port)\(path)", headers: headers, body: body, user: "ana", password: "unused")
  }

  /// The calendar's resources, read through the server (PROPFIND, then a GET of each): file name → text.
  func storedFiles() throws -> [String: String] {
    let listing = try dav("PROPFIND", calendarPath, headers: ["Depth": "1"])
    try #require(listing.status == 207, "PROPFIND answered \(listing.status)")
    var files: [String: String] = [:]
    for match in listing.body.matches(of: /href>([^<]*\.ics)</) {
      let href = String(match.output.1)
      let answer = try dav("GET", href)
      try #require(answer.status == 200, "GET \(href) answered \(answer.status)")
      let name = String(href.split(separator: "/").last ?? "")
      files[name.removingPercentEncoding ?? name] = answer.body
    }
    return files
  }

  func stop() {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(at: directory)
  }
}

/// `runmate sync` against a real Xandikos: the whole life of a synced plan on a second server implementation.
@Suite(.serialized, .enabled(if: hasXandikos, "needs xandikos (scripts/setup.sh installs it)"))
struct XandikosSyncTests {
  @Test func aPlanLivesInAXandikosCalendarFromFirstSyncToDeletion() throws {
    let server = try XandikosServer()
    defer { server.stop() }
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    let env = ["RUNMATE_CALDAV_PASSWORD": "unused"]

    // Discovery from the server's root: /.well-known/caldav, the principal, the calendar home.
    let listed = try fixture.run(
      ["sync", "--caldav", server.rootURL, "--user", "ana", "--list-calendars"], environment: env)
    #expect(listed.status == 0, "\(listed.stderr)")
    #expect(listed.stdout.contains(server.calendarURL), "\(listed.stdout)")

    // First sync, to the calendar picked by name from the root: one resource per event, equal to the export.
    let expected = try exported(fixture, now: "2027-01-01")
    let first = try fixture.run(
      ["sync", "--caldav", server.rootURL, "--user", "ana", "--calendar", "calendar", "--now", "2027-01-01"],
      environment: env)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("\(expected.count) created, 0 updated, 0 deleted, 0 unchanged, 0 conflicts"))
    let synced = try eventsByUID(try server.storedFiles())
    #expect(Set(synced.keys) == Set(expected.keys))
    for (uid, event) in synced { #expect(same(event, try #require(expected[uid])), "\(uid) differs") }

    // Unchanged: nothing sent.
    let again = try fixture.sync(server, now: "2027-01-02")
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("0 created, 0 updated, 0 deleted, \(expected.count) unchanged, 0 conflicts"))

    // The plan moves to 06:15 and one of its events is edited in a calendar app: that one is a conflict and
    // kept; every other is updated in place (same names, no duplicates).
    let moved = try fixture.run([
      "plan", "--distance", "half", "--level", "intermediate", "--weeks", "16", "--start", "2027-01-04", "--at",
      "06:15", "--tz", "Europe/Berlin", "--days", "tue,thu,sat,sun", "--remind", "30m", "--save", "--name",
      "spring", "--now", "2027-01-02",
    ])
    #expect(moved.status == 0, "\(moved.stderr)")
    let changed = try exported(fixture, now: "2027-01-02")
    let edited = try #require(
      changed.keys.sorted().first { uid in synced[uid].map { !same($0, changed[uid]!) } ?? false })
    let path = server.calendarPath + edited + ".ics"
    let original = try server.dav("GET", path)
    let put = try server.dav(
      "PUT", path, headers: ["Content-Type": "text/calendar; charset=utf-8"],
      body: original.body.replacingOccurrences(of: "SUMMARY:", with: "SUMMARY:Edited in the app · "))
    #expect(put.status == 201 || put.status == 204, "PUT answered \(put.status)")
    let resync = try fixture.sync(server, now: "2027-01-02")
    #expect(resync.status == 1, "\(resync.stderr)")
    let conflicts = resync.stdout.split(separator: "\n").filter { $0.hasPrefix("conflict ") }
    #expect(conflicts.count == 1 && conflicts[0].contains("edited in the calendar app"), "\(resync.stdout)")
    let updates = changed.filter { uid, event in synced[uid].map { !same($0, event) } ?? false }.count
    #expect(resync.stdout.contains("0 created, \(updates - 1) updated"), "\(resync.stdout)")
    let after = try eventsByUID(try server.storedFiles())
    #expect(Set(after.keys) == Set(synced.keys))
    #expect(after[edited]?.summary.hasPrefix("Edited in the app") == true, "the app's edit was overwritten")
    for (uid, event) in after where uid != edited {
      #expect(same(event, try #require(changed[uid])), "\(uid) is not the changed event")
    }

    // A week away: its workouts are deleted; --force then puts the plan's version over the app's edit.
    let paused = try fixture.run(["replan", "--pause", "2027-01-11..2027-01-17", "--apply", "--now", "2027-01-10"])
    #expect(paused.status == 0, "\(paused.stderr)")
    let forced = try fixture.sync(server, ["--force"], now: "2027-01-10")
    #expect(forced.status == 0, "\(forced.stderr)")
    let final = try eventsByUID(try server.storedFiles())
    let now = try exported(fixture, now: "2027-01-10")
    #expect(Set(final.keys) == Set(now.keys))
    #expect(Set(synced.keys).subtracting(final.keys).count >= 4, "the paused week's workouts are gone")
    for (uid, event) in final { #expect(same(event, try #require(now[uid])), "\(uid) is not the plan's event") }

    // Removing the plan's events leaves the calendar empty.
    let removed = try fixture.sync(server, ["--remove"], now: "2027-01-10")
    #expect(removed.status == 0, "\(removed.stderr)")
    #expect(try server.storedFiles().isEmpty)
  }
}
