import AsyncHTTPClient
import Foundation
import NIOHTTP1
import RunMateTestSupport
import RunningCore
import Testing
import TrainingDomain

/// The coach API over real HTTP (AsyncHTTPClient) against `runmate serve --api` started in this process on a real
/// SQLite file: logging in and out, the roster, an athlete's plan, weeks, runs and comments, the trainer directory,
/// the login rate limit and the body limit.
@Suite(.serialized, .timeLimit(.minutes(3))) struct CoachAPITests {
  @Test func aTokenOpensTheAPIUntilItIsRevoked() async throws {
    try await withServedClub { club, server in

      let anonymous = try await server.send(.GET, "/api/v1/roster")
      #expect(anonymous.status == 401 && anonymous.header("WWW-Authenticate") == "Bearer")
      #expect(anonymous.object["error"] is String)
      let wrong = try await server.send(
        .POST, "/api/v1/sessions", json: #"{"login":"kim@example.com","password":"not the one"}"#)
      #expect(wrong.status == 401 && wrong.object["token"] == nil)
      let unknown = try await server.send(.POST, "/api/v1/sessions", json: #"{"login":"zed","password":"whatever1"}"#)
      #expect(unknown.status == 401 && unknown.text == wrong.text)

      let login = try await server.send(
        .POST, "/api/v1/sessions", json: #"{"login":"KIM@example.com","password":"\#(password)"}"#)
      #expect(login.status == 201)
      let token = try #require(login.object["token"] as? String)
      #expect(token.count == 43)
      let account = try #require(login.object["account"] as? [String: Any])
      #expect(account["role"] as? String == "coach" && account["profile"] as? String == "kim")
      #expect(login.object["expires_at"] as? String == "2027-02-05T12:00:00Z")
      #expect(!login.text.contains("$2"), "no password hash in the answer")

      #expect(try await server.send(.GET, "/api/v1/roster", token: token).status == 200)
      #expect(try await server.send(.GET, "/api/v1/roster", token: String(token.reversed())).status == 401)
      #expect(try await server.send(.DELETE, "/api/v1/sessions/current", token: token).status == 204)
      #expect(try await server.send(.GET, "/api/v1/roster", token: token).status == 401)
      let actions = try club.store.auditLog(limit: 10).map(\.action)
      #expect(Array(actions.prefix(2)) == [.sessionRevoked, .sessionCreated])
    }
  }

  @Test func anExpiredTokenIsRefused() async throws {
    let club = try Club()
    defer { club.remove() }
    let early = try await APIServer.start(club.store)
    let token = try await early.login("anna")
    await early.stop()
    let later = try await APIServer.start(club.store) { testNow.addingTimeInterval(31 * 86400) }
    defer { Task { await later.stop() } }
    #expect(try await later.send(.GET, "/api/v1/athletes/anna/plan", token: token).status == 401)
  }

  @Test func theRosterShowsEachAthletesWeek() async throws {
    try await withServedClub { club, server in
      let token = try await server.login("kim@example.com")
      let roster = try await server.send(.GET, "/api/v1/roster", token: token)
      #expect(roster.status == 200)
      #expect(roster.object["coach"] as? String == "kim" && roster.object["today"] as? String == "2027-01-06")
      let athletes = try #require(roster.object["athletes"] as? [[String: Any]])
      #expect(athletes.map { $0["name"] as? String } == ["anna"])
      let anna = try #require(athletes.first)
      #expect(anna["plan"] as? String == "anna-10k" && anna["week"] as? Int == 1)
      #expect(anna["week_start"] as? String == testStart.description)
      let done = try #require(anna["done_km"] as? Double)
      let planned = try #require(anna["planned_km"] as? Double)
      #expect(done > 0 && done < planned)
      #expect((anna["done_sessions"] as? Int ?? 0) >= 1)
      let percent = anna["compliance_percent"] as? Int
      let colour = try #require(anna["colour"] as? String)
      #expect(
        colour
          == (percent.map { $0 >= 80 && $0 <= 120 ? "green" : $0 >= 50 && $0 <= 150 ? "yellow" : "orange" } ?? "none"))
      #expect(anna["missed_key_workouts"] is [Any])
      #expect(anna["paused"] as? Bool == false)

      // An athlete has no roster: the same 404 as a path that is not there.
      let athlete = try await server.login("anna")
      #expect(try await server.send(.GET, "/api/v1/roster", token: athlete).status == 404)
    }
  }

  @Test func anAthletesPlanWeeksRunsAndComments() async throws {
    try await withServedClub { club, server in
      let coach = try await server.login("kim@example.com")
      let athlete = try await server.login("anna")

      let plan = try await server.send(.GET, "/api/v1/athletes/anna/plan", token: coach)
      #expect(plan.status == 200)
      #expect(plan.object["name"] as? String == "anna-10k" && plan.object["weeks"] as? Int == 8)
      #expect(plan.object["distance"] as? String == "10k" && plan.object["start"] as? String == testStart.description)

      let weeks = try await server.send(.GET, "/api/v1/athletes/anna/weeks", token: athlete)
      #expect(weeks.status == 200)
      let list = try #require(weeks.object["weeks"] as? [[String: Any]])
      #expect(list.count == 8 && list.map { $0["number"] as? Int } == Array(1...8))
      let first = try #require(list.first?["workouts"] as? [[String: Any]])
      #expect(first.contains { $0["status"] as? String == "done" })
      #expect(list.last.flatMap { $0["colour"] as? String } == "none")
      #expect(list.allSatisfy { $0["paused"] as? Bool == false }, "no pause saved")

      let runs = try await server.send(.GET, "/api/v1/athletes/anna/runs", token: coach)
      #expect(runs.status == 200 && runs.object["to"] as? String == "2027-01-06")
      let logged = try #require(runs.object["runs"] as? [[String: Any]])
      #expect(logged.count == 1 && logged.first?["status"] as? String == "done")
      let week = try await server.send(.GET, "/api/v1/athletes/anna/runs?from=2027-01-05&days=7", token: coach)
      #expect(week.object["from"] as? String == "2027-01-05" && week.object["to"] as? String == "2027-01-11")
      #expect((week.object["runs"] as? [Any])?.count == 1)
      let later = try await server.send(.GET, "/api/v1/athletes/anna/runs?from=2027-01-06", token: coach)
      #expect(later.object["to"] as? String == "2027-04-05" && (later.object["runs"] as? [Any])?.isEmpty == true)
      let tooLong = try await server.send(.GET, "/api/v1/athletes/anna/runs?days=401", token: coach)
      #expect(
        tooLong.status == 400 && tooLong.object["error"] as? String == "days: '401' is not valid, allowed is 1 to 400")

      let day = try #require(club.workoutDays["anna"])
      let posted = try await server.send(
        .POST, "/api/v1/athletes/anna/workouts/\(day)/comments", token: coach, json: #"{"text":"  Nice start!  "}"#)
      #expect(posted.status == 201 && posted.object["text"] as? String == "Nice start!")
      #expect(posted.object["author"] as? String == "kim" && posted.object["role"] as? String == "coach")
      let reply = try await server.send(
        .POST, "/api/v1/athletes/anna/workouts/\(day)/comments", token: athlete, json: #"{"text":"Thanks"}"#)
      #expect(reply.status == 201)
      let thread = try await server.send(.GET, "/api/v1/athletes/anna/workouts/\(day)/comments", token: athlete)
      let comments = try #require(thread.object["comments"] as? [[String: Any]])
      #expect(comments.map { $0["text"] as? String } == ["Nice start!", "Thanks"])
      #expect(try club.store.auditLog(limit: 1).first?.action == .commentAdded)

      let empty = try await server.send(
        .POST, "/api/v1/athletes/anna/workouts/\(day)/comments", token: coach, json: #"{"text":"   "}"#)
      #expect(empty.status == 400 && (empty.object["error"] as? String ?? "").hasPrefix("text:"))
      let badDay = try await server.send(.GET, "/api/v1/athletes/anna/workouts/someday/comments", token: coach)
      #expect(badDay.status == 400 && (badDay.object["error"] as? String ?? "").contains("YYYY-MM-DD"))
      let restDay = try await server.send(.GET, "/api/v1/athletes/anna/workouts/2026-01-01/comments", token: coach)
      #expect(restDay.status == 404)
    }
  }

  @Test func theTrainerDirectorySearchesAndLinksSafely() async throws {
    try await withServedClub { club, server in
      let token = try await server.login("ben")
      func names(_ query: String) async throws -> [String?] {
        let answer = try await server.send(.GET, "/api/v1/trainers\(query)", token: token)
        #expect(answer.status == 200)
        return (answer.object["trainers"] as? [[String: Any]] ?? []).map { $0["name"] as? String }
      }
      #expect(try await names("") == ["kim", "lee"])
      #expect(try await names("?specialty=TRAIL") == ["lee"])
      #expect(try await names("?q=patient%20beginners") == ["kim"])
      #expect(try await names("?q=usatf") == ["kim"])
      #expect(try await names("?q=patient%20mountains") == [])
      let all = try await server.send(.GET, "/api/v1/trainers", token: token)
      let kim = try #require((all.object["trainers"] as? [[String: Any]])?.first)
      let contact = try #require(kim["contact"] as? [String: Any])
      #expect(contact["whatsapp"] as? String == "https://wa.me/4915112345678")
      #expect(contact["telegram"] as? String == "https://t.me/kim_runs")
      #expect(contact["email"] as? String == "mailto:kim+coach@example.com")
      #expect(kim["certifications"] as? [String] == ["USATF Level 1", "RRCA"])
    }
  }

  @Test func fiveFailedLoginsInAMinuteAreAnsweredTooManyRequests() async throws {
    try await withServedClub { club, server in
      for _ in 0..<5 {
        let failed = try await server.send(
          .POST, "/api/v1/sessions", json: #"{"login":"anna","password":"guess-1234"}"#)
        #expect(failed.status == 401)
      }
      // The right password too is refused until the minute is over, for this account and from this address.
      let limited = try await server.send(
        .POST, "/api/v1/sessions", json: #"{"login":"anna","password":"\#(password)"}"#)
      #expect(limited.status == 429)
      let wait = try #require(limited.header("Retry-After").flatMap(Int.init))
      #expect((1...60).contains(wait))
      let otherAccount = try await server.send(
        .POST, "/api/v1/sessions", json: #"{"login":"ben","password":"\#(password)"}"#)
      #expect(otherAccount.status == 429, "the same peer is limited too")
    }
  }

  @Test func bodiesOverTheLimitAndOtherMethodsAreRefused() async throws {
    try await withServedClub { club, server in
      let token = try await server.login("kim@example.com")
      let huge = #"{"text":""# + String(repeating: "a", count: 70 * 1024) + #""}"#
      let refused = try await server.send(
        .POST, "/api/v1/athletes/anna/workouts/\(try #require(club.workoutDays["anna"]))/comments", token: token,
        json: huge)
      #expect(refused.status == 413)
      #expect(try club.store.auditLog(limit: 1).first?.action == .sessionCreated, "nothing was written")
      // A method a path does not have: 405 naming the path's own methods, before any token is asked for.
      let patch = try await server.send(.PATCH, "/api/v1/roster", token: token)
      #expect(patch.status == 405 && patch.header("Allow") == "GET")
      let put = try await server.send(.PUT, "/api/v1/sessions")
      #expect(put.status == 405 && put.header("Allow") == "POST")
      let options = try await server.send(.OPTIONS, "/api/v1/athletes/anna/workouts/2027-01-05/comments")
      #expect(options.status == 405 && options.header("Allow") == "GET, POST")
      let elsewhere = try await server.send(.GET, "/api/v1/athletes/anna/secrets")
      #expect(elsewhere.status == 404 && elsewhere.object["error"] is String)
      // The feeds keep their own rules: a body there is still refused unread.
      #expect(try await server.send(.POST, "/feeds/x.ics", json: "{}").status == 405)
    }
  }

  @Test func theOpenAPIDocumentIsServedAsKept() async throws {
    try await withServedClub { club, server in
      let answer = try await server.send(.GET, "/api/v1/openapi.yaml")
      #expect(answer.status == 200 && answer.header("Content-Type")?.hasPrefix("application/yaml") == true)
      let kept = try String(
        contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
          .appendingPathComponent("../../Sources/CoachAPI/openapi.yaml").standardized, encoding: .utf8)
      #expect(answer.text == kept)
    }
  }
}
