import AsyncHTTPClient
import Foundation
import NIOHTTP1
import RunMateTestSupport
import RunningCore
import Testing
import TrainingDomain

/// The athlete's own operations over real HTTP: the plan, and runs pushed from the athlete's logbook (a run pushed
/// twice is one run, a coach account has no "me", a refused run writes nothing, the batch limit).
@Suite(.serialized, .timeLimit(.minutes(3))) struct AthleteSyncTests {
  /// A push body of `runs` as (client id, day, km).
  static func push(_ runs: [(String, CivilDate, Double)]) -> String {
    let items = runs.map { id, day, km in
      #"{"client_id":"\#(id)","date":"\#(day)","distance_km":\#(km),"duration_s":\#(km * 360),"source":"gpx"}"#
    }
    return #"{"runs":[\#(items.joined(separator: ","))]}"#
  }

  @Test func anAthletesRunsPushedTwiceAreStoredOnce() async throws {
    try await withServedClub { club, server in
      let anna = try await server.login("anna")
      let plan = try club.store.plan(named: "anna-10k")
      let week = try #require(plan.plan.weeks.first).workouts.filter(\.kind.isRun)
      let before = try club.store.completions(planID: plan.id, from: testStart, through: testStart.adding(days: 60))

      let mine = try await server.send(.GET, "/api/v1/me/plan", token: anna)
      #expect(mine.status == 200 && mine.object["plan_id"] as? String == plan.id)

      // The seeded run (week 1's first workout) comes back from the device as a twin; the two others are new.
      let runs = week.prefix(3).enumerated().map { ("gpx-\($0.offset)", $0.element.date, $0.element.distanceKm) }
      let first = try await server.send(.POST, "/api/v1/me/runs", token: anna, json: Self.push(runs))
      #expect(first.status == 200, "\(first.text)")
      #expect(first.object["added"] as? Int == 2 && first.object["twins"] as? Int == 1)
      let second = try await server.send(.POST, "/api/v1/me/runs", token: anna, json: Self.push(runs))
      #expect(second.object["added"] as? Int == 0 && second.object["already_there"] as? Int == 3)
      let after = try club.store.completions(planID: plan.id, from: testStart, through: testStart.adding(days: 60))
      #expect(after.count == before.count + 2)
      #expect(Set(after.compactMap(\.workoutID)) == Set(week.prefix(3).map(\.id)))

      // What the coach sees: the runs counted for the plan.
      let coach = try await server.login("kim@example.com")
      let seen = try await server.send(
        .GET, "/api/v1/athletes/anna/runs?from=\(testStart)&days=7", token: coach)
      #expect((seen.object["runs"] as? [Any])?.count == after.count)
      #expect(try club.store.auditLog(limit: 5).filter { $0.action == .runsPushed }.count == 1)
    }
  }

  @Test func aCoachHasNoOwnRunsAndBadRunsWriteNothing() async throws {
    try await withServedClub { club, server in
      let day = try #require(club.workoutDays["anna"])
      let coach = try await server.login("kim@example.com")
      for (method, path, body) in [
        (HTTPMethod.GET, "/api/v1/me/plan", nil), (.POST, "/api/v1/me/runs", Self.push([("x", day, 5)])),
        (.GET, "/api/v1/me/updates", nil), (.PUT, "/api/v1/me/plan", #"{"plan_file":"{}"}"#),
      ] {
        #expect(try await server.send(method, path, json: body).status == 401)
        let answer = try await server.send(method, path, token: coach, json: body)
        #expect(answer.status == 404, "\(method) \(path): \(answer.text)")
      }

      let anna = try await server.login("anna")
      let plan = try club.store.plan(named: "anna-10k")
      let count = try club.store.completions(planID: plan.id, from: testStart, through: testStart.adding(days: 60))
        .count
      let bad = try await server.send(
        .POST, "/api/v1/me/runs", token: anna, json: Self.push([("ok", day, 5), ("none", day, -2)]))
      #expect(bad.status == 400)
      // The refused value is named by where it is in the request, as JSON: the run's index and its member.
      #expect((bad.object["error"] as? String)?.hasPrefix("runs[1].distance_km: '-2.0 km'") == true, "\(bad.text)")
      let badDay = try await server.send(
        .POST, "/api/v1/me/runs", token: anna,
        json: #"{"runs":[{"client_id":"d","date":"2027-02-30","distance_km":5,"duration_s":1800}]}"#)
      #expect(badDay.status == 400 && badDay.text.contains("runs[0].date"), "\(badDay.text)")
      let badHeart = try await server.send(
        .POST, "/api/v1/me/runs", token: anna,
        json: #"{"runs":[{"client_id":"h","date":"\#(day)","distance_km":5,"duration_s":1800,"moving_s":1700,"#
          + #""average_heart_rate":900}]}"#)
      #expect(
        badHeart.status == 400 && badHeart.text.contains("runs[0].average_heart_rate: '900 bpm'"), "\(badHeart.text)")
      #expect(
        try club.store.completions(planID: plan.id, from: testStart, through: testStart.adding(days: 60)).count == count
      )
      // More than a batch holds: refused whole, naming the limit.
      let many = (0...200).map { ("m\($0)", day.adding(days: $0 % 50), 5.0) }
      let tooMany = try await server.send(.POST, "/api/v1/me/runs", token: anna, json: Self.push(many))
      #expect(tooMany.status == 400, "\(tooMany.status) \(tooMany.text)")
    }
  }
}
