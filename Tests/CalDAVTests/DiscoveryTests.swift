import CalDAV
import Foundation
import RunMateTestSupport
import Testing

/// Finding the account's calendars from the server's URL (`--list-calendars`, `--calendar NAME`) against a real
/// Radicale: `/` names the current user's principal, whose calendar home lists the calendars.
@Suite(.serialized, .enabled(if: hasRadicale, "needs radicale (scripts/setup.sh installs it)"))
struct DiscoveryTests {
  /// Adds a calendar `Long Runs` (events) and a task list `Chores` (VTODO only) next to `Running`.
  func addCalendars(_ server: RadicaleServer) throws {
    let events = try server.dav(
      "MKCALENDAR", "/ana/long-runs/",
      body: """
        <?xml version="1.0" encoding="utf-8"?>
        <C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>\
        <D:displayname>Long Runs</D:displayname></D:prop></D:set></C:mkcalendar>
        """)
    try #require(events.status == 201)
    let tasks = try server.dav(
      "MKCALENDAR", "/ana/chores/",
      body: """
        <?xml version="1.0" encoding="utf-8"?>
        <C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>\
        <D:displayname>Chores</D:displayname><C:supported-calendar-component-set><C:comp name="VTODO"/>\
        </C:supported-calendar-component-set></D:prop></D:set></C:mkcalendar>
        """)
    try #require(tasks.status == 201)
  }

  @Test func listsTheAccountsCalendarsFromTheServerRoot() throws {
    let server = try RadicaleServer()
    defer { server.stop() }
    try addCalendars(server)
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    let root = "http://127.0.0.1:\(server.port)/"
    let listed = try fixture.run(
      ["sync", "--caldav", root, "--user", "ana", "--password-file", fixture.passwordFile.path, "--list-calendars"])
    #expect(listed.status == 0, "\(listed.stderr)")
    let lines = listed.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
    let byName = Dictionary(
      lines.map { ($0.prefix { !$0.hasPrefix("http") }.joined(separator: " "), $0.map(String.init)) },
      uniquingKeysWith: { a, _ in a })
    #expect(Set(byName.keys) == ["Running", "Long Runs", "Chores"], "\(listed.stdout)")
    #expect(byName["Running"]?.contains("\(root)ana/running/") == true, "\(listed.stdout)")
    #expect(byName["Long Runs"]?.contains("\(root)ana/long-runs/") == true, "\(listed.stdout)")
    #expect(byName["Chores"]?.suffix(2) == ["(tasks", "only)"], "\(listed.stdout)")
    #expect(try fixture.syncRows().isEmpty)
    #expect(try server.storedFiles().isEmpty)
  }

  @Test func syncsToTheCalendarNamedFromTheServerRootAndRefusesUnknownNames() throws {
    let server = try RadicaleServer()
    defer { server.stop() }
    try addCalendars(server)
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    let base = [
      "sync", "--caldav", "http://127.0.0.1:\(server.port)/", "--user", "ana", "--password-file",
      fixture.passwordFile.path, "--now", "2027-01-01",
    ]
    // A near miss is refused with the closest name; a task list is not a choice; nothing is written.
    let typo = try fixture.run(base + ["--calendar", "Runing"])
    #expect(typo.status == 64)
    #expect(
      typo.stderr
        == "runmate: --calendar 'Runing': no such calendar; the account's calendars: 'Running', 'Long Runs'; "
        + "did you mean 'Running'?\n", "\(typo.stderr)")
    let chores = try fixture.run(base + ["--calendar", "Chores"])
    #expect(chores.status == 64 && chores.stderr.contains("no such calendar"), "\(chores.stderr)")
    #expect(try fixture.syncRows().isEmpty)

    // By name, case-blind: the events land in /ana/running/ exactly as with that calendar's own URL.
    let synced = try fixture.run(base + ["--calendar", "running"])
    #expect(synced.status == 0, "\(synced.stderr)")
    let files = try server.storedFiles()
    #expect(files.count > 50 && synced.stdout.contains("\(files.count) created"), "\(synced.stdout)")
    #expect(synced.stdout.contains("→ http://127.0.0.1:\(server.port)/ana/running/: "), "\(synced.stdout)")
    // The same calendar by its URL is the same collection: nothing left to do.
    let again = try fixture.sync(server, now: "2027-01-01")
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("0 created, 0 updated, 0 deleted, \(files.count) unchanged"), "\(again.stdout)")
  }

  @Test func multistatusReadsTheDiscoveryProperties() throws {
    let body = """
      <?xml version="1.0"?>
      <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
        <response><href>/dav/</href><propstat><prop>
          <current-user-principal><href>/dav/principals/ana/</href></current-user-principal>
          <resourcetype><collection/></resourcetype></prop><status>HTTP/1.1 200 OK</status></propstat>
          <propstat><prop><C:calendar-home-set/><displayname/></prop><status>HTTP/1.1 404 Not Found</status></propstat>
        </response>
        <response><href>/dav/cal/ana/work/</href><propstat><prop>
          <resourcetype><collection/><C:calendar/></resourcetype><displayname>Work &amp; Runs</displayname>
          <C:supported-calendar-component-set><C:comp name="VEVENT"/><C:comp name="VTODO"/></C:supported-calendar-component-set>
          </prop><status>HTTP/1.1 200 OK</status></propstat></response>
      </multistatus>
      """
    let entries = try parseMultistatus(Array(body.utf8))
    #expect(entries.count == 2)
    #expect(entries[0].principal == "/dav/principals/ana/" && entries[0].calendarHome == nil)
    #expect(entries[0].displayName == nil && entries[0].isCollection && !entries[0].isCalendar)
    #expect(entries[1].displayName == "Work & Runs" && entries[1].isCalendar)
    #expect(entries[1].components == ["VEVENT", "VTODO"] && entries[1].principal == nil)
  }
}
