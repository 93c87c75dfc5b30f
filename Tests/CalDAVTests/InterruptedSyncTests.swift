import CalDAV
import Foundation
import ICalendar
import RunMateTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `runmate sync` interrupted against a real Radicale: each write is recorded as soon as the server has answered
/// it, and the next sync adopts what an interrupted one left on the server unrecorded (the write in flight), so it
/// converges to the plan with no conflict.
@Suite(.serialized, .enabled(if: hasRadicale, "needs radicale (scripts/setup.sh installs it)"))
struct InterruptedSyncTests {
  /// One calendar collection of the Radicale.
  struct Calendar: CalDAVTestServer {
    let server: RadicaleServer
    let path: String
    var calendarURL: String { "http://127.0.0.1:\(server.port)\(path)" }

    /// A new calendar `/ana/NAME/`.
    init(_ server: RadicaleServer, _ name: String) throws {
      self.server = server
      path = "/ana/\(name)/"
      let made = try server.dav(
        "MKCALENDAR", path,
        body: """
          <?xml version="1.0" encoding="utf-8"?>
          <C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"/>
          """)
      try #require(made.status == 201, "MKCALENDAR answered \(made.status)")
    }

    /// Its resources and their ETags, as the server lists them (file name → ETag).
    func etags() throws -> [String: String] {
      let listing = try server.dav(
        "PROPFIND", path, headers: ["Depth": "1"],
        body: """
          <?xml version="1.0" encoding="utf-8"?>
          <d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>
          """)
      try #require(listing.status == 207)
      var etags: [String: String] = [:]
      for entry in try parseMultistatus(Array(listing.body.utf8)) where entry.href.hasSuffix(".ics") {
        let name = String(entry.href.split(separator: "/").last ?? "")
        etags[name.removingPercentEncoding ?? name] = entry.etag ?? ""
      }
      return etags
    }

    /// Its events as Radicale keeps them on disk, by UID (each checked to be one VEVENT named after its UID).
    func events() throws -> [String: VEvent] { try eventsByUID(try server.storedFiles(path)) }
  }

  /// What the logbook recorded for `calendar`: file name → ETag.
  func records(_ fixture: SyncFixture, _ calendar: Calendar) throws -> [String: String] {
    let rows = try fixture.sqlite(
      "SELECT uid || '.ics', etag FROM caldavResource WHERE collection = '\(calendar.calendarURL)'")
    var records: [String: String] = [:]
    for row in rows.split(separator: "\n") {
      let fields = row.split(separator: "|", maxSplits: 1).map(String.init)
      records[fields[0]] = fields.count > 1 ? fields[1] : ""
    }
    return records
  }

  /// After an interrupted sync: every record is on the server under the recorded ETag, and at most the one write
  /// in flight is there unrecorded (or recorded under the ETag it had before).
  func checkRecordedAsItHappened(_ fixture: SyncFixture, _ calendar: Calendar, _ context: String) throws {
    let onServer = try calendar.etags()
    let recorded = try records(fixture, calendar)
    let unrecorded = onServer.filter { recorded[$0.key] != $0.value }
    #expect(unrecorded.count <= 1, "\(context): \(unrecorded.count) writes on the server not recorded")
    let missing = recorded.keys.filter { onServer[$0] == nil }
    #expect(missing.count <= 1, "\(context): \(missing.count) recorded resources not on the server")
  }

  /// After a full sync: the server holds the plan's export, and the records name exactly its resources and ETags.
  func checkConverged(_ fixture: SyncFixture, _ calendar: Calendar, now: String, _ context: String) throws {
    let expected = try exported(fixture, now: now)
    let onServer = try calendar.events()
    #expect(Set(onServer.keys) == Set(expected.keys), "\(context)")
    for (uid, event) in onServer {
      #expect(expected[uid].map { same(event, $0) } == true, "\(context): \(uid) is not the plan's event")
    }
    #expect(try records(fixture, calendar) == (try calendar.etags()), "\(context): the records do not match")
  }

  /// Killed in the window: after the server answered a write, before it was recorded (the fault hook of the
  /// command). The next sync adopts that resource, for a create and for an update, also when its own clock (the
  /// DTSTAMP of a changed event) is not the killed sync's.
  @Test func aWriteAnsweredButNotRecordedIsAdoptedNotAConflict() throws {
    let server = try RadicaleServer()
    defer { server.stop() }
    let fixture = try SyncFixture(weeks: 8, days: "tue,thu,sat")
    defer { fixture.remove() }
    let calendar = try Calendar(server, "window")
    let expected = try exported(fixture, now: "2027-01-01")
    let kill = ["RUNMATE_FAULT_KILL_AFTER_WRITES": "5"]

    let killed = try fixture.run(fixture.syncArguments(calendar, now: "2027-01-01"), environment: kill)
    #expect(killed.status == SIGKILL, "\(killed.stderr)")
    #expect(try calendar.etags().count == 5)
    #expect(try records(fixture, calendar).count == 4, "each answered write is recorded at once")
    let dry = try fixture.sync(calendar, ["--dry-run"], now: "2027-01-01")
    #expect(dry.stdout.contains("\(expected.count - 5) to create, 0 to update, 0 to delete, 4 unchanged, 1 to adopt"))
    #expect(dry.stdout.split(separator: "\n").filter { $0.hasPrefix("adopt ") }.count == 1, "\(dry.stdout)")
    let resync = try fixture.sync(calendar, now: "2027-01-01")
    #expect(resync.status == 0, "\(resync.stderr)")
    #expect(
      resync.stdout.contains(
        "\(expected.count - 5) created, 0 updated, 0 deleted, 4 unchanged, 1 adopted, 0 conflicts"),
      "\(resync.stdout)")
    try checkConverged(fixture, calendar, now: "2027-01-01", "after the create window")

    try fixture.savePlan(at: "06:15", now: "2027-01-02")
    let killedUpdate = try fixture.run(
      fixture.syncArguments(calendar, now: "2027-01-02T08:00:00Z"),
      environment: ["RUNMATE_FAULT_KILL_AFTER_WRITES": "3"])
    #expect(killedUpdate.status == SIGKILL, "\(killedUpdate.stderr)")
    try checkRecordedAsItHappened(fixture, calendar, "killed in the update window")
    let later = try fixture.sync(calendar, now: "2027-01-02T09:30:00Z")
    #expect(later.status == 0, "\(later.stderr)")
    #expect(later.stdout.contains("0 created, ") && later.stdout.contains(" 1 adopted, 0 conflicts"), "\(later.stdout)")
    try checkConverged(fixture, calendar, now: "2027-01-02T09:30:00Z", "after the update window")
  }

  /// SIGKILL (and SIGINT, SIGTERM) at seeded random moments of a first sync and of a sync of a changed plan; after
  /// each, what reached the server is recorded but for the write in flight, and the next sync exits 0 with no
  /// conflict, the server holding the plan's export and the records matching it.
  @Test(.tags(.endToEnd)) func aSyncKilledAtRandomMomentsConvergesWithNoConflict() throws {
    let server = try RadicaleServer()
    defer { server.stop() }
    let fixture = try SyncFixture(weeks: 8, days: "tue,thu,sat")
    defer { fixture.remove() }

    // How long a whole sync takes here: the kills fall anywhere in it (process start included).
    let baseline = try Calendar(server, "baseline")
    let started = Date()
    let full = try fixture.sync(baseline, now: "2027-01-01")
    try #require(full.status == 0, "\(full.stderr)")
    let span = Date().timeIntervalSince(started)

    let calendars = try (0..<3).map { try Calendar(server, "trial\($0)") }
    var random = SplitMix(seed: 21)
    let phases = [
      ("first sync", "2027-01-01", [SIGKILL, SIGINT, SIGKILL]),
      ("changed plan", "2027-01-02", [SIGKILL, SIGTERM, SIGKILL]),
    ]
    for (phase, now, signals) in phases {
      if phase == "changed plan" { try fixture.savePlan(at: "06:15", now: now) }
      for (trial, calendar) in calendars.enumerated() {
        let delay = Double.random(in: 0...span, using: &random)
        let context = "\(phase), trial \(trial): signal \(signals[trial]) after \(Int(delay * 1000)) ms"
        try fixture.interruptedSync(calendar, now: now, signal: signals[trial], after: delay)
        try checkRecordedAsItHappened(fixture, calendar, context)
        let resync = try fixture.sync(calendar, now: now)
        #expect(resync.status == 0, "\(context): \(resync.stderr)")
        #expect(resync.stdout.hasSuffix(" 0 conflicts\n"), "\(context): \(resync.stdout)")
        try checkConverged(fixture, calendar, now: now, context)
      }
    }
  }
}

extension SyncFixture {
  /// `runmate sync` sent `signal` `delay` seconds after it started (nothing when it ended first).
  func interruptedSync(_ server: some CalDAVTestServer, now: String, signal: Int32, after delay: Double) throws {
    let process = try runmateProcess(syncArguments(server, now: now), database: database)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    Thread.sleep(forTimeInterval: delay)
    if process.isRunning { kill(process.processIdentifier, signal) }
    process.waitUntilExit()
  }
}
