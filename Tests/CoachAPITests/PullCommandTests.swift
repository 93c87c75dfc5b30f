import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import Training
import TrainingDomain

/// `runmate pull` and the plan of `runmate push`, the built binary against a server in this process: a coach's new
/// plan applied to the runner's own plan with its changes listed, the next export updating the same events with a
/// higher SEQUENCE, a second pull up to date, the coach's comments shown, the runner's plan sent and refused over a
/// change not pulled yet, and a rate-limited login in one line with the wait.
@Suite(.serialized, .timeLimit(.minutes(4)), .tags(.endToEnd)) struct PullCommandTests {
  let commands = PushCommandTests()

  /// A club's coach server in this process and the runner's own logbook beside it (`localLogbook`), with the folder
  /// where `runmate` keeps its session.
  struct Side {
    let club: Club
    let server: APIServer
    let database: URL
    var config: URL { club.folder.appendingPathComponent("config") }
    var env: [String: String] { ["RUNMATE_CONFIG_DIR": config.path] }
    var url: String { "http://127.0.0.1:\(server.port)" }

    static func start() async throws -> Side {
      let club = try Club()
      do {
        let server = try await APIServer.start(club.store)
        return Side(club: club, server: server, database: try PushCommandTests.localLogbook(in: club.folder).0)
      } catch {
        club.remove()
        throw error
      }
    }

    /// Stops the server and removes the folder.
    func stop() {
      Task { await server.stop() }
      club.remove()
    }
  }

  /// The UIDs and SEQUENCE numbers of the events of an .ics file.
  static func events(_ path: URL) throws -> [(uid: String, sequence: Int)] {
    try descriptions(path).map { ($0.uid, $0.sequence) }
  }

  @Test func aCoachsPlanIsPulledOnceAndTheCalendarUpdatedInPlace() async throws {
    let side = try await Side.start()
    defer { side.stop() }
    let (club, server, database, config, env, url) = (
      side.club, side.server, side.database, side.config, side.env, side.url
    )
    let now = ["--now", testNow.formatted(.iso8601)]
    let local = try openStore(at: database.path)
    let runsBefore = try local.completions()
    #expect(
      try await commands.login([url, "--email", "anna"], password: password, database: database, config: config)
        .status == 0)

    // The server's plan is the runner's own (the same goal): nothing to apply.
    let first = try await commands.cli(["pull"] + now, database: database, environment: env)
    #expect(first.status == 0 && first.stdout == "Up to date.\n", "\(first.stdout)\(first.stderr)")
    let ics = club.folder.appendingPathComponent("plan.ics")
    let exported = try await commands.cli(["export", "--out", ics.path] + now, database: database, environment: env)
    #expect(exported.status == 0, "\(exported.stderr)")
    let before = try Self.events(ics)
    #expect(!before.isEmpty && before.allSatisfy { $0.sequence == 0 })

    // The coach makes it a 9-week intermediate plan for the same race and comments on a workout.
    let kim = try await server.login("kim@example.com")
    let race = try local.plan(named: "spring").plan.goal.raceDate
    let assigned = try await server.send(
      .PUT, "/api/v1/athletes/anna/plan", token: kim,
      json: #"{"distance":"10k","level":"intermediate","race_date":"\#(race)","weeks":9}"#)
    #expect(assigned.status == 200, "\(assigned.text)")
    let day = try #require(club.workoutDays["anna"])
    #expect(
      try await server.send(
        .POST, "/api/v1/athletes/anna/workouts/\(day)/comments", token: kim, json: #"{"text":"Keep it easy"}"#
      ).status == 201)

    let pulled = try await commands.cli(["pull"] + now, database: database, environment: env)
    #expect(pulled.status == 0, "\(pulled.stderr)")
    #expect(pulled.stdout.hasPrefix("Your coach changed plan 'spring' on \(url):\n"), "\(pulled.stdout)")
    // The workouts compared as the calendar's events (weeks before the race and slot): a 9-week plan against an
    // 8-week one for the same race counts what the export will count.
    // The days before today keep their workouts (issue 44), so they are not in the list; an event of the week under
    // way still changes when the week's note does, which the calendar's line counts and says.
    let lines = pulled.stdout.split(separator: "\n").map(String.init)
    func counts(_ line: String) -> [String: Int] {
      var found: [String: Int] = [:]
      for part in line.split(separator: ",") {
        let words = part.split(separator: " ")
        if let index = words.firstIndex(where: { Int($0) != nil }), index + 1 < words.count,
          let number = Int(words[index])
        {
          found[String(words[index + 1])] = number
        }
      }
      return found
    }
    let workouts = counts(try #require(lines.first { $0.hasSuffix(" added workouts") }))
    let calendar = counts(try #require(lines.first { $0.hasPrefix("calendar events against the last export: ") }))
    for kind in ["moved", "cancelled", "added"] {
      #expect(calendar[kind] == workouts[kind], "\(kind): \(pulled.stdout)")
    }
    #expect((calendar["changed"] ?? 0) >= (workouts["changed"] ?? 0), "\(pulled.stdout)")
    #expect(pulled.stdout.contains("(an event also changes when its week's note does)"))
    #expect(lines.contains { $0.hasPrefix("changed   W") }, "\(pulled.stdout)")
    #expect(pulled.stdout.contains("Saved. Update your calendar"))
    #expect(pulled.stdout.contains("Comments from your coach:\n\(day.shortLabel) · "), "\(pulled.stdout)")
    #expect(pulled.stdout.hasSuffix(" · kim: Keep it easy\n"), "\(pulled.stdout)")
    let saved = try local.plan(named: "spring")
    // A new goal for the block under way keeps its start: 8 weeks to the race, not the 9 asked for (issue 44).
    #expect(saved.plan.goal.level == .intermediate && saved.plan.weeks.count == 8 && saved.active)
    #expect(saved.id == (try local.plans()).first { $0.name == "spring" }?.id)
    #expect(try local.completions().count == runsBefore.count, "logged runs are never lost")

    // The next export replaces the same events: no duplicate UID, the changed ones with a higher SEQUENCE.
    #expect(
      try await commands.cli(["export", "--out", ics.path] + now, database: database, environment: env).status == 0)
    let after = try Self.events(ics)
    #expect(Set(after.map(\.uid)).count == after.count)
    #expect(after.contains { $0.sequence > 0 })
    #expect(Set(after.map(\.uid)).isSuperset(of: before.map(\.uid)), "cancelled events stay, as CANCELLED")

    // A second pull applies nothing; the JSON form says so too.
    let again = try await commands.cli(["pull"] + now, database: database, environment: env)
    #expect(again.stdout == "Up to date.\n", "\(again.stdout)")
    let json = try await commands.cli(["pull", "--format", "json"] + now, database: database, environment: env)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["schema"] as? String == "runmate.pull/1" && object["up_to_date"] as? Bool == true)

    // push does not send back the plan it pulled; after another change by the coach, the runner's own change (a
    // start time) is refused, the runs still sent.
    let pushed = try await commands.cli(["push"] + now, database: database, environment: env)
    #expect(pushed.status == 0, "\(pushed.stderr)")
    #expect(
      pushed.stdout.hasPrefix("Plan 'spring' unchanged since the last push or pull: not sent\nPushed 3 runs to \(url)"),
      "\(pushed.stdout)")
    let reassigned = try await server.send(
      .PUT, "/api/v1/athletes/anna/plan", token: kim,
      json: #"{"distance":"10k","level":"beginner","race_date":"\#(race)","weeks":9}"#)
    #expect(reassigned.status == 200, "\(reassigned.text)")
    let timed = try await commands.cli(["schedule", "--at", "07:00"] + now, database: database, environment: env)
    #expect(timed.status == 0, "\(timed.stderr)")
    let refused = try await commands.cli(["push"] + now, database: database, environment: env)
    #expect(refused.status == 69, "\(refused.stderr)")
    #expect(refused.stdout.hasPrefix("Pushed 3 runs to \(url)"), "\(refused.stdout)")
    #expect(
      refused.stderr
        == "runmate: your coach changed your plan on \(url) since your last pull, so yours was not sent: run "
        + "`runmate pull`, then `runmate push` again\n")
  }

  /// Each event's UID, SEQUENCE and DESCRIPTION (unfolded and unescaped; not its alarms') in an .ics file.
  static func descriptions(_ path: URL) throws -> [(uid: String, sequence: Int, description: String)] {
    let text = try String(contentsOf: path, encoding: .utf8).replacingOccurrences(of: "\r\n ", with: "")
    var events: [(uid: String, sequence: Int, description: String)] = []
    var event = (uid: "", sequence: 0, description: "")
    var inAlarm = false
    for line in text.components(separatedBy: "\r\n") {
      if line == "BEGIN:VEVENT" { event = ("", 0, "") }
      if line == "BEGIN:VALARM" || line == "END:VALARM" { inAlarm = line.hasPrefix("BEGIN") }
      if line.hasPrefix("UID:") { event.uid = String(line.dropFirst(4)) }
      if line.hasPrefix("SEQUENCE:") { event.sequence = Int(line.dropFirst(9)) ?? -1 }
      if line.hasPrefix("DESCRIPTION:"), !inAlarm {
        event.description = String(line.dropFirst(12)).replacingOccurrences(of: "\\n", with: "\n")
          .replacingOccurrences(of: "\\,", with: ",").replacingOccurrences(of: "\\;", with: ";")
      }
      if line == "END:VEVENT" { events.append(event) }
    }
    return events
  }

  /// Issue 44: a coach's plan for another race, begun this Monday, is a new plan in the runner's logbook too, as on
  /// the server: saved beside the runner's plan and made active, the runner's plan kept as it was, Monday and
  /// Tuesday with their workouts, and the runs from Monday on counted for the new plan on both sides.
  @Test func aCoachsPlanForAnotherRaceIsSavedAsANewPlanKeepingThePast() async throws {
    let side = try await Side.start()
    defer { side.stop() }
    let (club, server, database, config, env, url) = (
      side.club, side.server, side.database, side.config, side.env, side.url
    )
    let now = ["--now", testNow.formatted(.iso8601)]
    let local = try openStore(at: database.path)
    let spring = try local.plan(named: "spring")
    let runsBefore = try local.completions()
    let today = try #require(CivilDate(iso: "2027-01-06"))
    #expect(
      try await commands.login([url, "--email", "anna"], password: password, database: database, config: config)
        .status == 0)
    let kim = try await server.login("kim@example.com")
    let assigned = try await server.send(
      .PUT, "/api/v1/athletes/anna/plan", token: kim,
      json: #"{"distance":"half","level":"beginner","weeks":12,"start":"\#(testStart)"}"#)
    #expect(assigned.status == 200, "\(assigned.text)")
    let serverPlan = try #require((assigned.object["plan"] as? [String: Any])?["plan_id"] as? String)

    let pulled = try await commands.cli(["pull"] + now, database: database, environment: env)
    #expect(pulled.status == 0, "\(pulled.stderr)")
    let name = "anna-half-\(testStart.adding(days: 7 * 12 - 1))"
    #expect(
      pulled.stdout.hasPrefix(
        "Your coach gave you a new plan on \(url): saved as '\(name)', the active plan; 'spring' is kept as it was"),
      "\(pulled.stdout)")
    let new = try local.plan(named: nil)
    #expect(new.name == name && new.id == serverPlan && new.plan.goal.distance == .half)
    // The runner's plan is as it was; the new one holds its Monday and Tuesday.
    #expect(try local.plan(named: "spring").plan == spring.plan)
    let past = { (plan: Plan) in plan.workouts.filter { $0.date < today }.map { "\($0.id) \($0.date) \($0.title)" } }
    #expect(past(new.plan) == past(spring.plan))
    // Every run is kept; those from the new plan's first day on are its runs, holding the same workouts.
    let runs = try local.completions()
    #expect(runs.map(\.id) == runsBefore.map(\.id))
    #expect(runs.allSatisfy { $0.planID == new.id }, "\(runs.map { "\($0.date) \($0.planID ?? "-")" })")
    let held = { (runs: [Completion]) in runs.filter { $0.date < today }.map { "\($0.date) \($0.workoutID ?? "-")" } }
    #expect(held(runs) == held(runsBefore))
    // The JSON form names the plan it follows; a second pull applies nothing.
    let again = try await commands.cli(["pull"] + now, database: database, environment: env)
    #expect(again.stdout == "Up to date.\n", "\(again.stdout)")
    _ = club
  }

  @Test func aCoachsCommentIsKeptOnceAndShownInTodayWeekAndTheCalendar() async throws {
    let side = try await Side.start()
    defer { side.stop() }
    let (club, server, database, config, env, url) = (
      side.club, side.server, side.database, side.config, side.env, side.url
    )
    let now = ["--now", testNow.formatted(.iso8601)]
    let login = {
      try await self.commands.login([url, "--email", "anna"], password: password, database: database, config: config)
    }
    #expect(try await login().status == 0)
    #expect(try await commands.cli(["pull"] + now, database: database, environment: env).stdout == "Up to date.\n")
    let ics = club.folder.appendingPathComponent("plan.ics")
    #expect(
      try await commands.cli(["export", "--out", ics.path] + now, database: database, environment: env).status == 0)
    let before = try Self.descriptions(ics)
    #expect(!before.isEmpty && before.allSatisfy { $0.sequence == 0 && !$0.description.contains("Coach ") })

    // The coach comments on the first workout (a comma in it, as runners write).
    let kim = try await server.login("kim@example.com")
    let day = try #require(club.workoutDays["anna"])
    let text = "Keep it easy, you raced Sunday"
    #expect(
      try await server.send(
        .POST, "/api/v1/athletes/anna/workouts/\(day)/comments", token: kim, json: #"{"text":"\#(text)"}"#
      ).status == 201)
    let pulled = try await commands.cli(["pull"] + now, database: database, environment: env)
    #expect(pulled.status == 0 && pulled.stdout.hasSuffix(" · kim: \(text)\n"), "\(pulled.stdout)\(pulled.stderr)")

    // `today` on that day shows it under the workout, `week` under the workout's line, their JSON carries it.
    let on = ["--now", day.description]
    let today = try await commands.cli(["today"] + on, database: database, environment: env)
    let todayLines = today.stdout.split(separator: "\n").map(String.init)
    #expect(todayLines.count >= 3 && todayLines[2] == "Coach kim: \(text)", "\(today.stdout)\(today.stderr)")
    #expect(todayLines[0].hasPrefix("Today, \(day.shortLabel): "))
    let week = try await commands.cli(["week"] + on, database: database, environment: env)
    let weekLines = week.stdout.split(separator: "\n").map(String.init)
    let under = try #require(weekLines.firstIndex { $0.contains(" \(day.shortLabel)  ") })
    #expect(weekLines[under + 1] == "    Coach kim: \(text)", "\(week.stdout)")
    #expect(weekLines.filter { $0.contains("Coach kim") }.count == 1)
    let json = try await commands.cli(["today", "--format", "json"] + on, database: database, environment: env)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let workout = try #require(object["workout"] as? [String: Any])
    let comments = try #require(workout["comments"] as? [[String: Any]])
    #expect(comments.count == 1 && comments[0]["author"] as? String == "kim" && comments[0]["text"] as? String == text)
    #expect(((object["next"] as? [String: Any])?["comments"] as? [Any])?.isEmpty == true)

    // The export: that workout's event ends with the comment and goes up one SEQUENCE; the others are unchanged.
    #expect(
      try await commands.cli(["export", "--out", ics.path] + now, database: database, environment: env).status == 0)
    let after = try Self.descriptions(ics)
    #expect(after.map(\.uid) == before.map(\.uid))
    let changed = after.filter { $0.sequence > 0 }
    #expect(changed.count == 1 && changed.first?.sequence == 1, "\(changed.map(\.uid))")
    #expect(
      changed.first?.description.hasSuffix("RunningMate\n\nCoach kim: \(text)") == true,
      "\(changed.first?.description ?? "")")
    #expect(after.filter { $0.description.contains("Coach kim") }.count == 1)

    // Pulled again, and again from the start after logging out and in (the session and its cursor are new): the
    // comment is shown but kept once, so the next export changes nothing.
    #expect(try await commands.cli(["pull"] + now, database: database, environment: env).stdout == "Up to date.\n")
    #expect(try await commands.cli(["account", "logout"], database: database, environment: env).status == 0)
    #expect(try await login().status == 0)
    let repulled = try await commands.cli(["pull"] + now, database: database, environment: env)
    #expect(repulled.stdout.hasSuffix(" · kim: \(text)\n"), "\(repulled.stdout)\(repulled.stderr)")
    let again = try await commands.cli(["today"] + on, database: database, environment: env)
    #expect(again.stdout.components(separatedBy: "Coach kim").count == 2, "\(again.stdout)")
    #expect(
      try await commands.cli(["export", "--out", ics.path] + now, database: database, environment: env).status == 0)
    let last = try Self.descriptions(ics)
    #expect(last.map(\.sequence) == after.map(\.sequence) && last.map(\.description) == after.map(\.description))

    // A comment kept for a day that is a rest day in the runner's own schedule (the coach's plan had a workout
    // there): `today` that day and `week` show it on the rest day, and the JSON carries it with its date.
    let local = try openStore(at: database.path)
    let saved = try local.plan(named: nil)
    let state = try TrainingState.read(saved, db: local, profile: nil, systemZone: "UTC")
    let busy = Set(state.workouts.flatMap { [$0.date, $0.plannedDate] })
    let weekStart = try #require(saved.plan.weeks.first { $0.start <= day && day <= $0.start.adding(days: 6) }?.start)
    let restDay = try #require((0..<7).map { weekStart.adding(days: $0) }.first { !busy.contains($0) })
    _ = try local.keepPulledComments(
      [CoachComment(serverID: 999, date: restDay, author: "kim", text: "Feet up today", createdAt: testNow)],
      server: url, planID: saved.id)
    let onRest = ["--now", restDay.description]
    let restToday = try await commands.cli(["today"] + onRest, database: database, environment: env)
    #expect(
      restToday.stdout.contains("rest day. Recovery is training too.\nCoach kim: Feet up today\n"),
      "\(restToday.stdout)")
    let restWeek = try await commands.cli(["week"] + onRest, database: database, environment: env)
    #expect(
      restWeek.stdout.contains("    \(restDay.shortLabel)  Rest day\n    Coach kim: Feet up today\n"),
      "\(restWeek.stdout)")
    let weekJSON = try await commands.cli(["week", "--format", "json"] + onRest, database: database, environment: env)
    let weekObject = try #require(try JSONSerialization.jsonObject(with: Data(weekJSON.stdout.utf8)) as? [String: Any])
    let restComments = try #require((weekObject["week"] as? [String: Any])?["rest_day_comments"] as? [[String: Any]])
    #expect(restComments.count == 1 && restComments[0]["date"] as? String == restDay.description)
  }

  @Test func theCursorAndThePlanSentStayWithTheAccountAndStartOverForAnother() async throws {
    let side = try await Side.start()
    defer { side.stop() }
    let (database, config, env, url) = (side.database, side.config, side.env, side.url)
    let file = config.appendingPathComponent("coach-session.json")
    func saved() throws -> [String: Any] {
      try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    }
    func login(_ name: String) async throws {
      let made = try await commands.login(
        [url, "--email", name], password: password, database: database, config: config)
      #expect(made.status == 0, "\(made.stderr)")
    }
    try await login("anna")
    #expect(try await commands.cli(["push"], database: database, environment: env).status == 0)
    let cursor = try #require(try saved()["cursor"] as? String)
    let revision = try #require(try saved()["planRevision"] as? String)
    // The same account again (in another case): where pull and push stand is kept.
    try await login("ANNA")
    let again = try saved()
    #expect(again["cursor"] as? String == cursor && again["planRevision"] as? String == revision)
    // Another account: both start over, so its first push sends the plan (refused: ben's coach gave him another
    // one, which he has not pulled).
    try await login("ben")
    let other = try saved()
    #expect(other["cursor"] == nil && other["planRevision"] == nil)
    let pushed = try await commands.cli(["push"], database: database, environment: env)
    #expect(pushed.status == 69 && pushed.stderr.contains("since your last pull"), "\(pushed.stdout)\(pushed.stderr)")
  }

  @Test func aRateLimitedLoginIsOneLineWithTheWait() async throws {
    try await withServedClub { club, server in
      let (database, _) = try PushCommandTests.localLogbook(in: club.folder)
      let config = club.folder.appendingPathComponent("config")
      let url = "http://127.0.0.1:\(server.port)"
      for _ in 0..<5 {
        _ = try await server.send(.POST, "/api/v1/sessions", json: #"{"login":"anna","password":"wrong"}"#)
      }
      let limited = try await commands.login(
        [url, "--email", "anna"], password: password, database: database, config: config)
      #expect(limited.status == 69, "\(limited.stderr)")
      let line = limited.stderr
      #expect(line.hasPrefix("runmate: \(url) refuses logins for "), "\(line)")
      #expect(line.hasSuffix(" s after too many failed ones: try again then\n"), "\(line)")
      let seconds = Int(line.dropFirst("runmate: \(url) refuses logins for ".count).prefix { $0.isNumber }) ?? 0
      #expect((1...60).contains(seconds), "\(line)")
      #expect(!FileManager.default.fileExists(atPath: config.appendingPathComponent("coach-session.json").path))
    }
  }
}
