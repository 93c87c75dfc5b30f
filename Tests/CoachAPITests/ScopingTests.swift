import AsyncHTTPClient
import Foundation
import NIOHTTP1
import RunMateTestSupport
import RunningCore
import Testing

/// An athlete's data is the athlete's and their coaches': every endpoint that names an athlete, called by every other
/// account (the other coach, the other athlete), answers 404 with the same body as for an athlete that does not
/// exist; without a token, 401; and the athlete and their coach get it.
@Suite(.timeLimit(.minutes(3))) struct ScopingTests {
  /// Every operation about an athlete, as (method, path, body, whether only the athlete's coach may call it); the
  /// plan's writes last, as they change the plan the others read.
  static func endpoints(of athlete: String, day: CivilDate) -> [(HTTPMethod, String, String?, Bool)] {
    return [
      (.GET, "/api/v1/athletes/\(athlete)/plan", nil, false),
      (.GET, "/api/v1/athletes/\(athlete)/weeks", nil, false),
      (.GET, "/api/v1/athletes/\(athlete)/runs", nil, false),
      (.GET, "/api/v1/athletes/\(athlete)/runs?from=2027-01-01&days=32", nil, false),
      (.GET, "/api/v1/athletes/\(athlete)/workouts/\(day)/comments", nil, false),
      (.POST, "/api/v1/athletes/\(athlete)/workouts/\(day)/comments", #"{"text":"hello"}"#, false),
      (.POST, "/api/v1/athletes/\(athlete)/plan/regenerate", nil, true),
      (.PUT, "/api/v1/athletes/\(athlete)/plan", #"{"distance":"10k","level":"beginner","weeks":8}"#, true),
    ]
  }

  @Test func everyEndpointAsEveryOtherAccountIsNotFound() async throws {
    try await withServedClub { club, server in
      var tokens: [String: String] = [:]
      for login in ["kim@example.com", "lee", "anna", "ben"] { tokens[login] = try await server.login(login) }
      // Who may see whom: each athlete themself and their coach.
      let owners = ["anna": ["kim@example.com", "anna"], "ben": ["lee", "ben"]]
      var checked = 0
      for (athlete, allowed) in owners {
        let day = try #require(club.workoutDays[athlete])
        for (method, path, body, coachOnly) in Self.endpoints(of: athlete, day: day) {
          let anonymous = try await server.send(method, path, json: body)
          #expect(anonymous.status == 401, "\(method) \(path) without a token")
          for (login, token) in tokens {
            let answer = try await server.send(method, path, token: token, json: body)
            if coachOnly ? allowed.first == login : allowed.contains(login) {
              #expect(
                [200, 201].contains(answer.status), "\(login): \(method) \(path): \(answer.status) \(answer.text)")
            } else {
              #expect(answer.status == 404, "\(login): \(method) \(path): \(answer.status) \(answer.text)")
              // Nothing tells a foreign athlete from one that does not exist.
              let missing = try await server.send(
                method, path.replacingOccurrences(of: "/\(athlete)/", with: "/nobody/"), token: token, json: body)
              #expect(missing.status == 404)
              #expect(
                answer.text.replacingOccurrences(of: athlete, with: "X")
                  == missing.text.replacingOccurrences(of: "nobody", with: "X"))
            }
            checked += 1
          }
        }
      }
      #expect(checked == 2 * 8 * 4)
      // Plans were assigned only by the athletes' coaches: one each.
      let assigned = try club.store.auditLog(limit: 100).filter { $0.action == .planAssigned }
      #expect(assigned.map { "\($0.login ?? "")>\($0.athlete ?? "")" }.sorted() == ["kim@example.com>anna", "lee>ben"])
      // Comments were written only by those allowed: 2 per athlete.
      let comments = try club.store.auditLog(limit: 100).filter { $0.action == .commentAdded }
      #expect(comments.count == 4)
      #expect(comments.allSatisfy { entry in owners[entry.athlete ?? ""]?.contains(entry.login ?? "") == true })
      // An athlete's own updates (`/api/v1/me/…` names no athlete) hold only their coach's comments on their workouts.
      for (athlete, coach) in [("anna", "kim"), ("ben", "lee")] {
        let updates = try await server.send(.GET, "/api/v1/me/updates", token: tokens[athlete])
        let given = try #require(updates.object["comments"] as? [[String: Any]], "\(updates.text)")
        #expect(
          given.count == 1
            && given.allSatisfy { $0["athlete"] as? String == athlete && $0["author"] as? String == coach }
        )
      }
    }
  }
}
