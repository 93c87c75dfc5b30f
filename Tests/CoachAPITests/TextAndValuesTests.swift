import CoachAPI
import Foundation
import RunMateTestSupport
import RunningCore
import Testing
import Training
import TrainingDomain

/// Issue 44's probe of text and values at the API's door: a NUL was a 500 on PostgreSQL and cut short on SQLite; the
/// API took runs the CLI refuses. Each is now a 400 naming the field, and nothing is stored.
@Suite(.timeLimit(.minutes(2))) struct TextAndValuesTests {
  @Test func aPushedRunIsHeldToTheCLIsRulesAndItsNoteKeptWholeOrRefused() async throws {
    let club = try Club()
    defer { club.remove() }
    let server = try await APIServer.start(club.store)
    let token = try await server.login("anna")
    let day = try #require(club.workoutDays["anna"])
    let before = try club.store.completions().count
    let farStart = "2020-01-01T07:00:00Z"
    let cases: [(String, String)] = [
      (#""distance_km":5,"duration_s":1800,"note":"nul\u0000here""#, "runs[0].note"),
      (#""distance_km":5,"duration_s":1800,"note":"bell\u0007""#, "runs[0].note"),
      (#""distance_km":10,"duration_s":300"#, "runs[0] pace"),
      (#""distance_km":5,"duration_s":1800,"moving_s":2400"#, "runs[0].moving_s"),
      (#""distance_km":5,"duration_s":1800,"source":"gpx","started_at":"\#(farStart)""#, "runs[0].started_at"),
    ]
    for (fields, field) in cases {
      let answer = try await server.send(
        .POST, "/api/v1/me/runs", token: token, json: #"{"runs":[{"client_id":"c1","date":"\#(day)",\#(fields)}]}"#)
      #expect(answer.status == 400, "\(fields): \(answer.status) \(answer.text)")
      #expect((answer.object["error"] as? String)?.hasPrefix(field) == true, "\(fields): \(answer.text)")
    }
    // A note with line breaks and a tab is text, kept whole.
    let kept = try await server.send(
      .POST, "/api/v1/me/runs", token: token,
      json: #"{"runs":[{"client_id":"c2","date":"\#(day)","distance_km":5,"duration_s":1800,"note":"legs\n\tok"}]}"#)
    #expect(kept.status == 200, "\(kept.text)")
    let stored = try club.store.completions()
    #expect(stored.count == before + 1)
    #expect(stored.contains { $0.note == "legs\n\tok" })
    await server.stop()
  }

  @Test func aCommentOrALoginWithANULIsA400NamingIt() async throws {
    let club = try Club()
    defer { club.remove() }
    let server = try await APIServer.start(club.store)
    let coach = try await server.login("kim@example.com")
    let day = try #require(club.workoutDays["anna"])
    let comment = try await server.send(
      .POST, "/api/v1/athletes/anna/workouts/\(day)/comments", token: coach, json: #"{"text":"nul\u0000here"}"#)
    #expect(comment.status == 400, "\(comment.text)")
    #expect((comment.object["error"] as? String)?.hasPrefix("text: 'nul\\u{0}here'") == true, "\(comment.text)")
    let thread = try await server.send(.GET, "/api/v1/athletes/anna/workouts/\(day)/comments", token: coach)
    #expect(thread.status == 200)
    #expect(!thread.text.contains("nul"))

    let login = try await server.send(
      .POST, "/api/v1/sessions", json: #"{"login":"ki\u0000m@example.com","password":"\#(password)"}"#)
    #expect(login.status == 400, "\(login.text)")
    #expect((login.object["error"] as? String)?.hasPrefix("login:") == true, "\(login.text)")
    // A password with a NUL is never the account's, even when what comes before it is (bcrypt stops at a NUL).
    let cut = try await server.send(
      .POST, "/api/v1/sessions", json: #"{"login":"anna","password":"\#(password)\u0000guess"}"#)
    #expect(cut.status == 401, "\(cut.text)")
    await server.stop()
  }

  @Test func aPasswordWithANULOrALineEndIsRefused() throws {
    for bad in ["correct horse\u{0}battery", "correct horse battery\r", "correct horse battery\n"] {
      #expect(throws: AccountError.self) { try AccountRules.checkPassword(bad) }
    }
    try AccountRules.checkPassword("correct\thorse battery")
  }
}
