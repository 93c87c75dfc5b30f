import Foundation
import RunMateTestSupport
import RunningCore
import Testing
import Training
import TrainingDomain

/// Issue 44's probe of a server whose database is busy: a 500 used to log the decoded request whole (the bearer
/// token, a login's password) and answer 500 where the request may well go through later.
@Suite(.timeLimit(.minutes(2))) struct StoreTroubleTests {
  @Test func aLockedStoreAnswers503WithRetryAfterAndLogsNoSecret() async throws {
    let club = try Club()
    defer { club.remove() }
    let log = CapturedLog()
    let server = try await APIServer.start(club.store, log: log)
    let token = try await server.login("anna")
    // A CLI import holding the file's write lock past the 10 s busy timeout: a second connection whose write
    // waits, after its first row, until the test lets it go.
    let path = club.folder.appendingPathComponent("runmate.sqlite").path
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let holder = try openStore(at: path) { _ in
      holding.signal()
      release.wait()
    }
    let day = try #require(club.workoutDays["anna"])
    let writer = Thread {
      _ = try? holder.addRuns([Completion(date: day.adding(days: 1), distanceKm: 5, durationSeconds: 1800)], plan: nil)
    }
    writer.start()
    holding.wait()
    let secretPassword = password
    async let login = server.send(
      .POST, "/api/v1/sessions", json: #"{"login":"anna","password":"\#(secretPassword)"}"#)
    async let push = server.send(
      .POST, "/api/v1/me/runs", token: token,
      json: #"{"runs":[{"client_id":"x1","date":"\#(day)","distance_km":5,"duration_s":1800}]}"#)
    let answers = try await [login, push]
    release.signal()
    await server.stop()
    for answer in answers {
      #expect(answer.status == 503, "\(answer.status) \(answer.text)")
      #expect(answer.headers.contains { $0 == ("retry-after", "5") })
      #expect(answer.text.contains("busy"))
    }
    let lines = log.all
    #expect(lines.contains { $0.contains("store unavailable") && $0.contains("locked") })
    for line in lines {
      #expect(!line.contains(token), "the token in the log: \(line)")
      #expect(!line.contains(secretPassword), "the password in the log: \(line)")
      #expect(!line.lowercased().contains("authorization"), "a header in the log: \(line)")
    }
  }
}
