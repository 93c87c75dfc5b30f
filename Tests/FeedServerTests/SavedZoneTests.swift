import Foundation
import RunMateTestSupport
import Testing

/// A plan whose saved time zone no calendar can be written in (`GMT+0200`, which older versions accepted as
/// `--tz UTC+2`): the feed answers with what is wrong and how to fix it, and the server keeps serving.
@Suite(.serialized, .tags(.endToEnd)) struct SavedZoneTests {
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "needs sqlite3"))
  func aBadSavedZoneIsAClearAnswer() async throws {
    let fixture = try FeedFixture()
    defer { fixture.remove() }
    let token = try fixture.createFeed()
    let sql = Process()
    sql.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    sql.arguments = [
      fixture.database.path,
      "UPDATE plan SET scheduleJSON = json_set(scheduleJSON, '$.timeZone', 'GMT+0200')",
    ]
    try sql.run()
    sql.waitUntilExit()
    try #require(sql.terminationStatus == 0)
    let server = try ServeProcess(database: fixture.database)
    defer { server.stop() }

    let answer = try await httpGet(server.url(token))
    #expect(answer.status == 500)
    #expect(answer.header("Content-Type") == "text/plain; charset=utf-8")
    let body = String(decoding: answer.body, as: UTF8.self)
    #expect(body.contains("'GMT+0200'"), "\(body)")
    #expect(body.contains("Etc/GMT-2") && body.contains("`runmate schedule`"), "\(body)")
    #expect(server.log().contains("GMT+0200"), "\(server.log())")
    let health = try await httpGet("http://127.0.0.1:\(server.port)/healthz")
    #expect(health.status == 200)
  }
}
