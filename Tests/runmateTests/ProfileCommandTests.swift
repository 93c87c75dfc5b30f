import Foundation
import RunMateTestSupport
import Testing

/// Profiles, coaches and the defaults they give other commands, on a real database file.
@Suite(.tags(.endToEnd)) struct ProfileCommandTests {
  @Test func profilesCoachesAndDefaults() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    #expect(
      try runmate(
        [
          "profile", "init", "anna", "--level", "advanced", "--tz", "Asia/Tokyo", "--days",
          "mon,wed,fri,sat", "--long-run-day", "sat", "--weight", "58",
        ], environment: env
      ).stdout
        == "created runner profile 'anna' (default)\n")
    #expect(
      try runmate(
        [
          "profile", "init", "kim", "--coach", "--specialty", "trail running", "--whatsapp",
          "+49 151 2345 6789", "--telegram", "@kim_runs", "--email", "kim@example.com",
        ],
        environment: env
      ).status == 0)
    // The plan takes anna's level; the schedule her zone, run days and long-run day.
    let schedule = try runmate(
      [
        "schedule", "--distance", "10k", "--weeks", "8", "--start", "2027-01-04", "--now",
        "2027-01-01", "--format", "json",
      ], environment: env)
    #expect(schedule.status == 0, "\(schedule.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(schedule.stdout.utf8)) as? [String: Any])
    #expect(json["time_zone"] as? String == "Asia/Tokyo")
    #expect((json["goal"] as? [String: Any])?["level"] as? String == "advanced")
    let workouts = (json["weeks"] as? [[String: Any]] ?? []).flatMap { $0["workouts"] as? [[String: Any]] ?? [] }
    #expect(
      workouts.filter { $0["kind"] as? String == "long" }.allSatisfy { workout in
        guard let date = (workout["date"] as? String).flatMap(isoWeekday) else { return false }
        return date == 6  // Saturday
      })
    // Coach: contact links, search, athletes.
    let show = try runmate(["coach", "show", "--profile", "kim"], environment: env)
    #expect(
      show.stdout.contains(
        "contact: https://wa.me/4915123456789\n  contact: https://t.me/kim_runs\n  contact: mailto:kim@example.com"))
    #expect(try runmate(["coaches", "--search", "TRAIL"], environment: env).stdout.hasPrefix("kim · trail running"))
    #expect(try runmate(["coaches", "--search", "road"], environment: env).stdout == "no coaches found\n")
    #expect(try runmate(["coach", "add-athlete", "anna", "--profile", "kim"], environment: env).status == 0)
    #expect(
      try runmate(
        [
          "plan", "--distance", "10k", "--weeks", "8", "--start", "2027-01-04", "--now", "2027-01-01",
          "--save", "--profile", "anna",
        ], environment: env
      ).status == 0)
    let athletes = try runmate(["coach", "athletes", "--profile", "kim", "--now", "2027-01-06"], environment: env)
    // Anna's long-run day is Saturday: with --weeks alone her race is on the Saturday of week 8 (issue 22, case 7).
    #expect(
      athletes.stdout.hasPrefix("Athletes of kim on Wed 6 Jan:\n  anna: 10k-2027-02-27, week 1, 0 of "),
      "\(athletes.stdout)")
    // On the plan's first morning nothing is due yet: no "0 %" for a week that has only begun.
    let first = try runmate(["coach", "athletes", "--profile", "kim", "--now", "2027-01-04"], environment: env)
    #expect(first.stdout.hasSuffix(" km, nothing due yet\n"), "\(first.stdout)")
    // Bad contact details are refused with what is allowed.
    let bad = try runmate(["profile", "set", "--profile", "kim", "--email", "kim.example.com"], environment: env)
    #expect(bad.status == 64)
    #expect(
      bad.stderr == "runmate: --email: 'kim.example.com' is not valid, allowed is an address like "
        + "name@example.com (no spaces, quotes, brackets or colons; a domain name after the @)\n")
    let notCoach = try runmate(["coach", "show", "--profile", "anna"], environment: env)
    #expect(
      notCoach.stderr
        == "runmate: 'anna' is not a coach; make it one with `runmate profile set --profile anna --coach`\n")
  }

  /// 1 = Monday … 7 = Sunday for a YYYY-MM-DD string.
  func isoWeekday(_ text: String) -> Int? {
    let parts = text.split(separator: "-").compactMap { Int($0) }
    guard parts.count == 3 else { return nil }
    var components = DateComponents()
    components.year = parts[0]
    components.month = parts[1]
    components.day = parts[2]
    var calendar = Calendar(identifier: .iso8601)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    guard let date = calendar.date(from: components) else { return nil }
    let weekday = calendar.component(.weekday, from: date)  // 1 = Sunday
    return weekday == 1 ? 7 : weekday - 1
  }

  /// Heart rates in the profile load runs with a heart rate by TRIMP (issue 24): `progress` says so; a resting
  /// heart rate too close to the maximum is refused with one line, and the profile keeps its values.
  @Test(.timeLimit(.minutes(1))) func heartRatesLoadRunsByTRIMP() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    func run(_ arguments: [String], status: Int32 = 0) throws -> RunResult {
      let result = try runmate(arguments, environment: env)
      #expect(result.status == status, "runmate \(arguments.joined(separator: " ")): \(result.stderr)")
      return result
    }
    _ = try run(["profile", "init", "ana", "--max-hr", "190", "--resting-hr", "50"])
    _ = try run([
      "plan", "--distance", "10k", "--level", "beginner", "--weeks", "8", "--start", "2027-01-04",
      "--recent-race", "5k=27:00", "--now", "2027-01-01", "--save",
    ])
    _ = try run(["log", "2027-01-05", "--distance", "5km", "--time", "32:00", "--hr", "148", "--now", "2027-01-05"])
    let progress = try run(["progress", "--format", "json", "--now", "2027-01-06"])
    #expect(progress.stdout.contains("\"load_source\" : \"heart-rate\""), "\(progress.stdout)")
    #expect(try run(["progress", "--now", "2027-01-06"]).stdout.contains("(load from heart rate)"))

    let refused = try run(["profile", "set", "--max-hr", "130", "--resting-hr", "115"], status: 64)
    #expect(
      refused.stderr.contains("--resting-hr: '115' is not valid, allowed is at least 20 beats under the max HR (130)"),
      "\(refused.stderr)")
    #expect(try run(["profile", "show"]).stdout.contains("resting HR: 50"))
  }
}
