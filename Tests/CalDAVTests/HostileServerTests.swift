import Foundation
import RunMateTestSupport
import Testing

@testable import CalDAV

/// Where the password may go (this machine for plain http, the origin `--caldav` names for redirects) and how long
/// one request may take, against hostile servers on loopback started by the tests.
@Suite(.serialized) struct HostileServerTests {
  /// A URL to sync to.
  struct Address: CalDAVTestServer {
    let calendarURL: String
  }

  /// Whether this machine lets a test make private user, network and mount namespaces.
  static let canUnshare: Bool = {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
    probe.arguments = ["-rnm", "true"]
    probe.standardOutput = FileHandle.nullDevice
    probe.standardError = FileHandle.nullDevice
    guard (try? probe.run()) != nil else { return false }
    probe.waitUntilExit()
    return probe.terminationStatus == 0
  }()

  @Test func thisMachineIsALoopbackAddressOrANameResolvingOnlyToOne() {
    let never: (String) -> [String] = { name in
      Issue.record("\(name) is a literal address: nothing to resolve")
      return []
    }
    for literal in ["127.0.0.1", "127.5.6.7", "127.255.255.254", "::1", "[::1]", "::ffff:127.0.0.1", "[::ffff:7f00:1]"]
    {
      #expect(Loopback.isThisMachine(literal, resolve: never), "\(literal)")
    }
    for literal in ["128.0.0.1", "10.0.0.1", "0.0.0.0", "::", "::2", "::ffff:10.0.0.1", "::127.0.0.1", "fe80::1"] {
      #expect(!Loopback.isThisMachine(literal, resolve: never), "\(literal)")
    }
    // A name is what it resolves to, never what it looks like.
    #expect(!Loopback.isThisMachine("127.evil.example") { _ in [] }, "a name that does not resolve")
    #expect(!Loopback.isThisMachine("127.evil.example") { _ in ["93.184.216.34"] }, "a name that resolves elsewhere")
    #expect(!Loopback.isThisMachine("127.evil.example") { _ in ["127.0.0.1", "2001:db8::1"] }, "partly elsewhere")
    #expect(!Loopback.isThisMachine("localhost") { _ in ["fe80::1%eth0"] }, "a scoped address is not loopback")
    #expect(Loopback.isThisMachine("calendar.home") { _ in ["127.0.0.1", "::1"] })
    #expect(!Loopback.isThisMachine("") { _ in ["127.0.0.1"] })
  }

  @Test func plainHTTPToANameThatMerelyStartsWith127IsRefusedWithTheHTTPSURL() throws {
    // The real path: getaddrinfo finds no address for a name under .invalid (RFC 6761).
    let url = "http://127.0.0.1.nip.invalid:5232/ana/running/"
    #expect(throws: CalDAVError.insecure(url: url)) { try CalDAVAccount(url: url, user: "ana", password: "secret") }
    #expect(
      CalDAVError.insecure(url: url).description.hasSuffix("; use https://127.0.0.1.nip.invalid:5232/ana/running/"))
    #expect(
      try CalDAVAccount(url: "http://localhost:5232/a/", user: "u", password: "p").collectionKey.hasPrefix("http"))
    #expect(
      try CalDAVAccount(url: "http://127.1.2.3:5232/a/", user: "u", password: "p").collectionKey.hasPrefix("http"))

    // Through the command: refused before any request, nothing recorded.
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    let before = try fixture.dump()
    let refused = try fixture.run(
      ["sync", "--caldav", url, "--user", "ana", "--password-file", fixture.passwordFile.path, "--now", "2027-01-01"])
    #expect(refused.status == 64)
    #expect(
      refused.stderr
        == "runmate: --caldav '\(url)': plain http is allowed to this machine only (a loopback address such as "
        + "127.0.0.1 or ::1, or a name that resolves only to one, such as localhost); use "
        + "https://127.0.0.1.nip.invalid:5232/ana/running/\n", "\(refused.stderr)")
    #expect(try fixture.dump() == before)
  }

  /// In a private network and mount namespace (where the machine allows one), a hosts file bound over /etc/hosts
  /// (the real file is never touched) names `127.evil.example` 10.1.2.3 and `calendar.test` 127.0.0.1: the first is
  /// refused before any request, the second is this machine (the sync goes ahead, to a loopback that is down there).
  @Test(
    .enabled(if: HostileServerTests.canUnshare, "needs unprivileged user and network namespaces (unshare -rnm)"),
    .tags(.endToEnd))
  func namesAreJudgedByWhatTheyResolveToInANamespace() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    let hosts = fixture.directory.appendingPathComponent("hosts")
    try "10.1.2.3 127.evil.example\n127.0.0.1 calendar.test\n".write(to: hosts, atomically: true, encoding: .utf8)
    func sync(_ host: String) throws -> RunmateOutcome {
      let process = try runmateProcess(
        fixture.syncArguments(Address(calendarURL: "http://\(host):5232/ana/running/"), now: "2027-01-01"),
        database: fixture.database, environment: ["RUNMATE_CALDAV_DEADLINE": "2"])
      let runmate = try #require(process.executableURL).path
      process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
      process.arguments =
        ["-rnm", "sh", "-c", "mount --bind \"$0\" /etc/hosts && exec \"$@\"", hosts.path, runmate]
        + (process.arguments ?? [])
      return try runToEnd(process)
    }
    let evil = try sync("127.evil.example")
    #expect(evil.status == 64, "\(evil.stderr)")
    #expect(evil.stderr.contains("plain http is allowed to this machine only"), "\(evil.stderr)")
    let local = try sync("calendar.test")
    #expect(local.status == 69, "\(local.stderr)")
    #expect(local.stderr.hasPrefix("runmate: ") && local.stderr.contains("calendar.test:5232"), "\(local.stderr)")
  }

  /// A discovery redirect to another loopback port is another origin: refused with the URL to use, and that
  /// server receives nothing (no request, so no Authorization header); through `/.well-known/caldav` as well.
  @Test func aDiscoveryRedirectToAnotherOriginIsRefusedAndTheOtherServerGetsNoPassword() throws {
    let other = try HostileServer { _ in
      .text("HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"x\"\r\nContent-Length: 0\r\n\r\n")
    }
    defer { other.stop() }
    let target = other.url("/dav/")
    let first = try HostileServer { head in
      head.hasPrefix("PROPFIND / ")
        ? .text("HTTP/1.1 301 Moved Permanently\r\nLocation: \(target)\r\nContent-Length: 0\r\n\r\n")
        : .text("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
    }
    defer { first.stop() }
    let wellKnown = try HostileServer { head in
      head.hasPrefix("PROPFIND /.well-known/caldav ")
        ? .text("HTTP/1.1 308 Permanent Redirect\r\nLocation: \(target)\r\nContent-Length: 0\r\n\r\n")
        : .text("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
    }
    defer { wellKnown.stop() }
    let fixture = try SyncFixture()
    defer { fixture.remove() }

    for server in [first, wellKnown] {
      let listed = try fixture.run([
        "sync", "--caldav", server.url("/"), "--user", "ana", "--password-file", fixture.passwordFile.path,
        "--list-calendars",
      ])
      #expect(listed.status == 64, "\(listed.stderr)")
      #expect(listed.stderr.hasPrefix("runmate: \(server.url("/"))"), "\(listed.stderr)")
      #expect(
        listed.stderr.hasSuffix(
          " redirects to \(target), another server (scheme, host or port): the password goes only where --caldav "
            + "points; if that server is yours, run again with --caldav '\(target)'\n"), "\(listed.stderr)")
      #expect(server.authorizationHeaders > 0, "the server --caldav names gets the password")
    }
    #expect(other.requests.isEmpty, "\(other.requests)")
    #expect(other.authorizationHeaders == 0)
  }

  @Test func redirectsStayOnTheOriginAndNeverGoFromHTTPSToHTTP() throws {
    func url(_ text: String) throws -> URL { try #require(URL(string: text)) }
    let account = try url("https://dav.example.org/ana/")
    let from = try url("https://dav.example.org/.well-known/caldav")
    #expect(throws: Never.self) {
      try CalDAVClient.checkRedirect(from: from, to: try url("https://DAV.example.org:443/dav/"), account: account)
    }
    #expect(throws: CalDAVError.insecureRedirect(from: from.absoluteString, to: "http://dav.example.org/dav/")) {
      try CalDAVClient.checkRedirect(from: from, to: try url("http://dav.example.org/dav/"), account: account)
    }
    for elsewhere in ["https://dav.example.org:8443/dav/", "https://evil.example/dav/", "https://example.org/dav/"] {
      #expect(throws: CalDAVError.redirectedElsewhere(from: from.absoluteString, to: elsewhere)) {
        try CalDAVClient.checkRedirect(from: from, to: try url(elsewhere), account: account)
      }
    }
  }

  /// A server that sends its status line, then one byte every 500 ms: `sync` ends at the deadline
  /// ($RUNMATE_CALDAV_DEADLINE=2) with one clear line, exit 69, and the logbook as it was. Dripping the headers
  /// and dripping the body alike.
  @Test(
    .tags(.endToEnd),
    arguments: [
      "HTTP/1.1 207 Multi-Status\r\nX-Drip: ",
      "HTTP/1.1 207 Multi-Status\r\nContent-Type: application/xml\r\nContent-Length: 100000\r\n\r\n<",
    ])
  func aServerDrippingItsAnswerIsCutAtTheDeadline(head: String) throws {
    let server = try HostileServer { _ in .drip(head: head, interval: 0.5) }
    defer { server.stop() }
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    let before = try fixture.dump()
    // Under watch: before the deadline existed this ran without end; now a regression fails at 15 s.
    let process = try runmateProcess(
      fixture.syncArguments(Address(calendarURL: server.url("/ana/running/")), now: "2027-01-01"),
      database: fixture.database, environment: ["RUNMATE_CALDAV_DEADLINE": "2"])
    let cut = try ProcessProbe.run(
      try #require(process.executableURL), process.arguments ?? [], in: repositoryRoot,
      environment: process.environment ?? [:], limits: .init(seconds: 15, memoryMiB: 500))
    #expect(cut.wallSeconds < 8, "sync took \(cut.wallSeconds) s with a 2 s deadline")
    #expect(cut.end == .exited(69), "\(cut.end): \(cut.stderrText)")
    #expect(
      cut.stderrText
        == "runmate: the CalDAV server at 127.0.0.1:\(server.port) sent its answer too slowly: no full answer in "
        + "2 s\n", "\(cut.stderrText)")
    #expect(cut.stdout.isEmpty)
    #expect(try fixture.dump() == before, "the logbook changed")
    #expect(server.requests.count == 1)
  }

  @Test func aDeadlineThatIsNotANumberOfSecondsIsRefused() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    for value in ["soon", "0", "-1", "99999"] {
      let refused = try fixture.run(
        [
          "sync", "--caldav", "http://127.0.0.1:1/ana/running/", "--user", "ana", "--password-file",
          fixture.passwordFile.path,
        ], environment: ["RUNMATE_CALDAV_DEADLINE": value])
      #expect(refused.status == 64, "\(value): \(refused.stderr)")
      #expect(
        refused.stderr
          == "runmate: $RUNMATE_CALDAV_DEADLINE: '\(value)' is not valid, allowed is a number of seconds from 0.1 to "
          + "3600 (default 60)\n", "\(refused.stderr)")
    }
  }
}
