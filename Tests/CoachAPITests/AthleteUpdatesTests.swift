import AsyncHTTPClient
import Foundation
import NIOHTTP1
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import Training
import TrainingDomain

/// `GET /api/v1/me/updates` and `PUT /api/v1/me/plan` over real HTTP: the coaches' comments and the changed plan
/// given once per cursor, the athlete's plan sent only on top of the coach's last change, a coach account refused.
@Suite(.serialized, .timeLimit(.minutes(3))) struct AthleteUpdatesTests {
  /// A `PUT /me/plan` body: `file` as its document, on `base`.
  static func planBody(_ file: PlanFile, base: String?) throws -> String {
    var object: [String: Any] = ["plan_file": try file.encoded()]
    if let base { object["base"] = base }
    return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
  }

  @Test func commentsAndTheChangedPlanComeOncePerCursor() async throws {
    try await withServedClub { club, server in
      let anna = try await server.login("anna")
      let kim = try await server.login("kim@example.com")
      let day = try #require(club.workoutDays["anna"])

      // The first pull: the plan, no comment yet.
      let first = try await server.send(.GET, "/api/v1/me/updates", token: anna)
      #expect(first.status == 200, "\(first.text)")
      let document = try #require(first.object["plan_file"] as? String)
      let plan = try PlanFile.parse(Data(document.utf8), source: "test")
      #expect(plan.plan.id == (try club.store.plan(named: "anna-10k")).id)
      #expect((first.object["comments"] as? [Any])?.isEmpty == true && first.object["more"] as? Bool == false)
      let cursor = try #require(first.object["cursor"] as? String)

      // Nothing new: neither plan nor comment.
      let again = try await server.send(.GET, "/api/v1/me/updates?since=\(cursor)", token: anna)
      #expect(again.status == 200 && again.object["plan_file"] == nil, "\(again.text)")
      #expect(again.object["cursor"] as? String == cursor)

      // The coach's comment comes; the athlete's own does not, but is passed.
      let path = "/api/v1/athletes/anna/workouts/\(day)/comments"
      #expect(try await server.send(.POST, path, token: kim, json: #"{"text":"Easy does it"}"#).status == 201)
      #expect(try await server.send(.POST, path, token: anna, json: #"{"text":"Felt good"}"#).status == 201)
      let comments = try await server.send(.GET, "/api/v1/me/updates?since=\(cursor)", token: anna)
      let list = try #require(comments.object["comments"] as? [[String: Any]])
      #expect(list.count == 1 && list.first?["text"] as? String == "Easy does it")
      #expect(list.first?["author"] as? String == "kim" && list.first?["date"] as? String == day.description)
      #expect(comments.object["plan_file"] == nil)
      let afterComments = try #require(comments.object["cursor"] as? String)
      let quiet = try await server.send(.GET, "/api/v1/me/updates?since=\(afterComments)", token: anna)
      #expect((quiet.object["comments"] as? [Any])?.isEmpty == true, "\(quiet.text)")

      // The coach assigns another plan: it comes, once.
      let assigned = try await server.send(
        .PUT, "/api/v1/athletes/anna/plan", token: kim, json: #"{"distance":"10k","level":"beginner","weeks":9}"#)
      #expect(assigned.status == 200, "\(assigned.text)")
      let changed = try await server.send(.GET, "/api/v1/me/updates?since=\(afterComments)", token: anna)
      let newDocument = try #require(changed.object["plan_file"] as? String, "\(changed.text)")
      #expect(try PlanFile.parse(Data(newDocument.utf8), source: "test").plan.weeks.count == 9)
      let latest = try #require(changed.object["cursor"] as? String)
      #expect(
        try await server.send(.GET, "/api/v1/me/updates?since=\(latest)", token: anna).object["plan_file"] == nil)

      // A cursor that is not one is refused naming the parameter; a coach has no updates of their own.
      let bad = try await server.send(.GET, "/api/v1/me/updates?since=u1.x.y", token: anna)
      #expect(
        bad.status == 400 && (bad.object["error"] as? String)?.hasPrefix("since: 'u1.x.y'") == true, "\(bad.text)")
      #expect(try await server.send(.GET, "/api/v1/me/updates", token: kim).status == 404)
      #expect(try await server.send(.GET, "/api/v1/me/updates").status == 401)
    }
  }

  @Test func theAthletesPlanIsSentOnlyOnTheCoachsLastChange() async throws {
    try await withServedClub { club, server in
      let anna = try await server.login("anna")
      let kim = try await server.login("kim@example.com")
      let own = PlanFile(
        name: "spring", exportedAt: testNow,
        plan: try makePlan(goal: goal(.marathon, .intermediate, weeks: 18), rules: repositoryRules))
      // An 18-week marathon plan's document is over the 64 KiB of other bodies; a plan has 1 MiB.
      #expect(try Self.planBody(own, base: nil).utf8.count > 64 * 1024)

      // Never pulled: the server's plan may be the coach's, so nothing is written.
      let unseen = try await server.send(.PUT, "/api/v1/me/plan", token: anna, json: try Self.planBody(own, base: nil))
      #expect(unseen.status == 409 && (unseen.object["error"] as? String)?.contains("pull it first") == true)
      let cursor = try #require(
        try await server.send(.GET, "/api/v1/me/updates", token: anna).object["cursor"] as? String)
      let sent = try await server.send(.PUT, "/api/v1/me/plan", token: anna, json: try Self.planBody(own, base: cursor))
      #expect(sent.status == 200 && sent.object["saved"] as? Bool == true, "\(sent.text)")
      let serverID = try club.store.plan(named: "anna-10k").id
      #expect(sent.object["plan_id"] as? String == serverID, "the plan keeps the server's id")

      // The coach sees it; sending it again changes nothing; the new cursor pulls nothing back.
      let seen = try await server.send(.GET, "/api/v1/athletes/anna/plan", token: kim)
      #expect(seen.object["level"] as? String == "intermediate", "\(seen.text)")
      let next = try #require(sent.object["cursor"] as? String)
      let twice = try await server.send(.PUT, "/api/v1/me/plan", token: anna, json: try Self.planBody(own, base: next))
      #expect(twice.status == 200 && twice.object["saved"] as? Bool == false, "\(twice.text)")
      #expect(
        try await server.send(.GET, "/api/v1/me/updates?since=\(next)", token: anna).object["plan_file"] == nil)
      #expect(try club.store.auditLog(limit: 20).filter { $0.action == .planPushed }.count == 1)

      // The coach rebuilds it: the athlete's next send on the old cursor is refused, and nothing is written.
      #expect(
        try await server.send(
          .PUT, "/api/v1/athletes/anna/plan", token: kim, json: #"{"distance":"10k","level":"beginner","weeks":9}"#
        ).status == 200)
      let stale = try await server.send(.PUT, "/api/v1/me/plan", token: anna, json: try Self.planBody(own, base: next))
      #expect(stale.status == 409, "\(stale.text)")
      #expect(
        try club.store.plans(ofProfile: #require(club.store.profile(named: "anna")?.id)).first?.plan.weeks.count == 9)

      // A body over 1 MiB, a document that is not a plan file, and a coach account: refused.
      let huge = try await server.send(
        .PUT, "/api/v1/me/plan", token: anna, json: #"{"plan_file":"\#(String(repeating: "x", count: 1 << 20))"}"#)
      #expect(huge.status == 413, "\(huge.text)")
      let junk = try await server.send(.PUT, "/api/v1/me/plan", token: anna, json: #"{"plan_file":"{}"}"#)
      #expect(junk.status == 400 && junk.text.contains("plan_file"), "\(junk.text)")
      #expect(
        try await server.send(.PUT, "/api/v1/me/plan", token: kim, json: try Self.planBody(own, base: nil)).status
          == 404)
    }
  }
}
