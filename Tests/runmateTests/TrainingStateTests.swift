import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing

/// One training state: a saved plan keeps its schedule settings and dated workouts, and `schedule`, `export`,
/// `today`, `week` and `replan` agree with each other and with the calendar, on one real database file.
@Suite(.tags(.endToEnd)) struct TrainingStateTests {
  /// A VEVENT of an exported calendar, read from the text (lines unfolded).
  struct Event {
    var uid = ""
    var start = ""
    var status: String?
    var transparent = false
    var alarms = 0
    var summary = ""

    /// `2027-01-05` from `DTSTART;TZID=Europe/Berlin:20270105T063000` or `DTSTART;VALUE=DATE:20270105`.
    var day: String {
      let value = start.split(separator: ":").last.map(String.init) ?? ""
      let digits = Array(value.prefix(8))
      guard digits.count == 8 else { return value }
      return "\(String(digits[0..<4]))-\(String(digits[4..<6]))-\(String(digits[6..<8]))"
    }

    /// `06:30`, or nil for an all-day event.
    var time: String? {
      guard start.hasPrefix("DTSTART;TZID="), let value = start.split(separator: ":").last, value.count >= 13 else {
        return nil
      }
      let digits = Array(value)
      return "\(String(digits[9..<11])):\(String(digits[11..<13]))"
    }
  }

  static func events(_ ics: String) -> [Event] {
    let unfolded = ics.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\r\n\t", with: "")
    var events: [Event] = []
    var current: Event?
    var inAlarm = false
    for line in unfolded.components(separatedBy: "\r\n") {
      if line == "BEGIN:VEVENT" { current = Event() }
      if line == "BEGIN:VALARM" {
        inAlarm = true
        current?.alarms += 1
      }
      if line == "END:VALARM" { inAlarm = false }
      guard !inAlarm else { continue }
      if line.hasPrefix("UID:") { current?.uid = String(line.dropFirst(4)) }
      if line.hasPrefix("DTSTART") { current?.start = line }
      if line.hasPrefix("STATUS:") { current?.status = String(line.dropFirst(7)) }
      if line == "TRANSP:TRANSPARENT" { current?.transparent = true }
      if line.hasPrefix("SUMMARY:") { current?.summary = String(line.dropFirst(8)) }
      if line == "END:VEVENT", let event = current {
        events.append(event)
        current = nil
      }
    }
    return events
  }

  /// `Tue 5 Jan`, as the terminal prints a day.
  static func label(_ day: Int) -> String {
    let names = ["Fri", "Sat", "Sun", "Mon", "Tue", "Wed", "Thu"]  // 2027-01-01 is a Friday
    return "\(names[(day - 1) % 7]) \(day) Jan"
  }

  /// True when `2027-01-10` is a Sunday.
  static func isSunday(_ day: String) -> Bool {
    let parts = day.split(separator: "-").compactMap { Int($0) }
    guard parts.count == 3 else { return false }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    guard let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])) else {
      return false
    }
    return calendar.component(.weekday, from: date) == 1
  }

  @Test func aMonthOfUseKeepsTheCalendarTheTerminalAndTheSettingsInAgreement() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("runmate.sqlite").path
    let env = ["RUNMATE_DB": db]
    let ics = directory.appendingPathComponent("plan.ics").path
    func run(_ arguments: [String]) throws -> RunResult {
      let result = try runmate(arguments, environment: env)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      return result
    }
    _ = try run([
      "profile", "init", "ana", "--level", "beginner", "--tz", "Europe/Berlin", "--days", "tue,thu,sat,sun",
      "--long-run-day", "sun", "--race-start", "09:00",
    ])

    // More runs a week than run days: one line naming both and the fix, and nothing saved.
    let conflict = try runmate(
      [
        "plan", "--distance", "half", "--weeks", "12", "--start", "2027-01-04", "--now",
        "2027-01-01", "--runs-per-week", "6", "--save", "--name", "spring",
      ], environment: env)
    #expect(conflict.status == 64)
    #expect(
      conflict.stderr == "runmate: --runs-per-week: '6' is not valid, allowed is at most 4, one run a day on the "
        + "4 run days (tue/thu/sat/sun from profile 'ana'); give --days with 6 days or --runs-per-week 4\n")
    #expect(try runmate(["plans"], environment: env).stdout.contains("spring") == false)

    // The plan keeps the settings given and the profile's, and says which came from the profile.
    let saved = try run([
      "plan", "--distance", "half", "--weeks", "12", "--start", "2027-01-04", "--now", "2027-01-01",
      "--save", "--name", "spring", "--at", "06:30", "--at", "sun=08:00", "--remind", "30m",
      "--skip", "2027-01-14",
    ])
    #expect(
      saved.stderr.contains("from profile 'ana': tue/thu/sat/sun, long run sun, Europe/Berlin, race start 09:00\n"),
      "\(saved.stderr)")

    // Export without options: the saved settings (times, reminders, zone, blackout, timed and busy race).
    let first = try run(["export", "--out", ics, "--now", "2027-01-02"])
    #expect(!first.stderr.contains("from profile"), "\(first.stderr)")
    let before = Self.events(try String(contentsOfFile: ics, encoding: .utf8))
    #expect(before.count > 30)
    #expect(before.allSatisfy { $0.time != nil && $0.alarms == 1 && $0.status == nil })
    #expect(!before.contains { $0.day == "2027-01-14" })
    let race = try #require(before.first { $0.summary.contains("Race") })
    #expect(race.time == "09:00")
    #expect(!race.transparent)
    for event in before where !event.summary.contains("Race") {
      #expect(event.time == (Self.isSunday(event.day) ? "08:00" : "06:30"), "\(event.summary) on \(event.day)")
    }

    // `schedule` without options shows the same days and times.
    let schedule = try run(["schedule", "--now", "2027-01-02", "--format", "json"])
    let json = try #require(try JSONSerialization.jsonObject(with: Data(schedule.stdout.utf8)) as? [String: Any])
    let weeks = try #require(json["weeks"] as? [[String: Any]])
    let starts = weeks.flatMap { ($0["workouts"] as? [[String: Any]]) ?? [] }.compactMap { $0["start"] as? String }
    #expect(starts.count == before.count)
    #expect(Set(starts.map { String($0.prefix(16)) }) == Set(before.map { "\($0.day)T\($0.time ?? "")" }))

    // `today` and `week` agree with the calendar on every day of the month.
    let byDay = Dictionary(grouping: before, by: \.day)
    for day in 1...31 {
      let date = "2027-01-\(day < 10 ? "0" : "")\(day)"
      let today = try run(["today", "--now", date]).stdout
      if let event = byDay[date]?.first {
        #expect(
          today.hasPrefix("Today, \(Self.label(day)): ") && today.contains(" at \(event.time ?? "?")"),
          "\(date): \(today)")
        #expect(!today.contains("rest day"), "\(date): \(today)")
      } else {
        #expect(
          today.hasPrefix("Today, \(Self.label(day)): rest day.") || today.hasPrefix("The plan starts"),
          "\(date) has no event but today says: \(today)")
      }
    }
    for monday in [4, 11, 18, 25] {
      let week = try run(["week", "--now", "2027-01-\(monday < 10 ? "0" : "")\(monday)"]).stdout
      let listed = week.split(separator: "\n").dropFirst(2).map { String($0.dropFirst(4)) }
      let expected = (monday...(monday + 6)).filter { $0 <= 31 }.flatMap { day -> [String] in
        let date = "2027-01-\(day < 10 ? "0" : "")\(day)"
        return (byDay[date] ?? []).map { "\(Self.label(day))  \($0.time ?? "")  " }
      }
      #expect(listed.count == expected.count, "week of \(monday) Jan:\n\(week)")
      for (line, prefix) in zip(listed, expected) { #expect(line.hasPrefix(prefix), "\(line) / \(prefix)") }
    }

    // A run, then replan --apply and the suggested export: every time and reminder kept; days before the replan
    // exactly as they were; a workout the rebuilt weeks no longer hold is cancelled only from today on (a slot
    // that changes kind, say a second quality session becoming an easy run, is a new event: UIDs name the slot).
    _ = try run(["log", "2027-01-05", "--distance", "5km", "--time", "31:00", "--now", "2027-01-06"])
    let replanned = try run(["replan", "--apply", "--now", "2027-01-12"])
    let again = try run(["export", "--out", ics, "--now", "2027-01-12"])
    #expect(again.status == 0, "\(again.stderr)")
    // replan said what this export does to the calendar, in its words.
    let counted = try #require(
      again.stderr.split(separator: "\n").first { $0.hasPrefix("against ") }?
        .split(separator: ": ", maxSplits: 1).last)
    #expect(replanned.stdout.contains("calendar events against the last export: \(counted) ("), "\(replanned.stdout)")
    let after = Self.events(try String(contentsOfFile: ics, encoding: .utf8))
    let live = after.filter { $0.status == nil }
    #expect(live.allSatisfy { $0.time != nil && $0.alarms == 1 }, "\(live.filter { $0.time == nil || $0.alarms != 1 })")
    let pastBefore = before.filter { $0.day < "2027-01-12" }.map { "\($0.uid) \($0.day) \($0.time ?? "")" }
    let pastAfter = live.filter { $0.day < "2027-01-12" }.map { "\($0.uid) \($0.day) \($0.time ?? "")" }
    #expect(pastBefore.sorted() == pastAfter.sorted())
    #expect(after.filter { $0.status != nil }.allSatisfy { $0.day >= "2027-01-12" })
    #expect(Set(before.map(\.uid)).isSubset(of: Set(after.map(\.uid))))
    #expect(after.first { $0.summary.contains("Race") }?.time == "09:00")

    // An option given changes the saved settings, and says so; the next export without options keeps it.
    let changed = try run(["export", "--out", ics, "--now", "2027-01-12", "--at", "07:00"])
    #expect(
      changed.stderr.contains("schedule settings of 'spring' updated: --at 07:00 (was 06:30 sun=08:00)"),
      "\(changed.stderr)")
    _ = try run(["export", "--out", ics, "--now", "2027-01-12"])
    let later = Self.events(try String(contentsOfFile: ics, encoding: .utf8))
    #expect(later.filter { !$0.summary.contains("Race") }.allSatisfy { $0.time == "07:00" })
    #expect(try run(["today", "--now", "2027-01-16"]).stdout.contains(" at 07:00"))
    #expect(
      try run(["plans", "show"]).stdout.hasSuffix(
        "\nSchedule: tue/thu/sat/sun, long run sun, at 07:00, "
          + "Europe/Berlin, skip 2027-01-14, reminders 30m, race at 09:00\n"))
  }

  @Test func aSchemaV4DatabaseKeepsItsPlanLogAndLastExport() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("v4.sqlite")
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Tests/LogbookTests/Fixtures/schema-v4.sqlite"), to: db)
    let env = ["RUNMATE_DB": db.path]
    let plans = try runmate(["plans"], environment: env)
    #expect(plans.stdout.hasPrefix("* spring "), "\(plans.stderr)")
    let logs = try runmate(["log", "list"], environment: env)
    #expect(logs.stdout.hasPrefix("1\t2027-01-05\t5 km\t30:00\tmanual\trm-0f77ee25f7caea6d-w01-q1"), "\(logs.stdout)")
    // No saved settings: the profile's defaults, said; the export kept in the database is the previous one.
    let ics = directory.appendingPathComponent("new.ics").path
    let export = try runmate(["export", "--out", ics, "--now", "2027-01-06"], environment: env)
    #expect(export.status == 0, "\(export.stderr)")
    #expect(
      export.stderr.contains("from profile 'ana': tue/thu/sat/sun, long run sun, Europe/Berlin, reminders 30m"),
      "\(export.stderr)")
    // (It was exported at 06:30 with options the v4 schema could not keep: without them, the events become all-day.)
    #expect(export.stderr.contains("against the last export (/tmp/h6fix/spring.ics): "), "\(export.stderr)")
    #expect(export.stderr.contains(" 0 cancelled, 0 added"), "\(export.stderr)")
    let today = try runmate(["today", "--now", "2027-01-05"], environment: env)
    #expect(today.stdout.hasPrefix("Today, Tue 5 Jan: Easy"), "\(today.stdout)")
  }

  @Test func busyTimeIsKeptWithThePlanWhenTheFileIsGone() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let busy = directory.appendingPathComponent("busy.ics")
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("examples/with-busy-calendar/busy.ics"),
      to: busy)
    let saved = try runmate(
      [
        "plan", "--distance", "10k", "--level", "intermediate", "--weeks", "10", "--start",
        "2026-11-30", "--now", "2026-11-21", "--at", "07:00", "--at", "sun=09:00", "--tz",
        "America/New_York", "--busy", busy.path, "--save", "--name", "winter",
      ], environment: env)
    #expect(saved.status == 0, "\(saved.stderr)")
    // The saved plan's schedule is the one the same options give (examples/with-busy-calendar/schedule.out) ...
    let goldenURL = repositoryRoot.appendingPathComponent("examples/with-busy-calendar/schedule.out")
    try expectMatchesGolden(try runmate(["schedule", "--now", "2026-11-21"], environment: env).stdout, goldenURL)
    // ... and stays so without the busy file.
    try FileManager.default.removeItem(at: busy)
    let again = try runmate(["schedule", "--now", "2026-11-21"], environment: env)
    #expect(again.status == 0, "\(again.stderr)")
    try expectMatchesGolden(again.stdout, goldenURL)
    #expect(again.stdout.contains("busy at 07:00 (Holidays)"))
  }

  /// Run days given to export after the plan was saved without them (so it is laid on its template's days, not on
  /// them): export counts the moves onto them in one line, and replan names each changed workout on the day the
  /// calendar has it (not the plan's own day). A plan saved with run days has nothing to move (RunDayCommandTests).
  @Test func replanSpeaksOfTheScheduledDays() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let ics = directory.appendingPathComponent("plan.ics").path
    #expect(
      try runmate(
        [
          "profile", "init", "sam", "--level", "intermediate", "--tz", "UTC",
        ], environment: env
      ).status == 0)
    #expect(
      try runmate(
        [
          "plan", "--distance", "half", "--weeks", "10", "--start", "2027-01-04", "--now", "2027-01-01",
          "--save", "--name", "fall", "--at", "06:00",
        ], environment: env
      ).status == 0)
    let export = try runmate(
      ["export", "--out", ics, "--now", "2027-01-01", "--days", "mon,wed,fri,sat,sun", "--long-run-day", "sun"],
      environment: env)
    let moves = export.stderr.split(separator: "\n").filter { $0.hasPrefix("moved: ") }
    #expect(
      moves.count == 1
        && moves[0].contains(
          " workouts from the plan's days onto your run days "
            + "(mon/wed/fri/sat/sun); `runmate schedule` lists each"),
      "\(export.stderr)")
    let days = Dictionary(
      Self.events(try String(contentsOfFile: ics, encoding: .utf8)).map { ($0.uid, $0.day) },
      uniquingKeysWith: { first, _ in first })
    #expect(
      try runmate(
        ["log", "2027-01-04", "--distance", "3km", "--time", "20:00", "--now", "2027-01-04"],
        environment: env
      ).status == 0)
    let replan = try runmate(["replan", "--now", "2027-01-13"], environment: env)
    let changed = replan.stdout.split(separator: "\n").filter { $0.hasPrefix("changed ") }
    #expect(!changed.isEmpty, "\(replan.stdout)")
    // Every day replan names is a day the calendar has an event on; none is a Tuesday or Thursday.
    let calendarDays = Set(days.values.compactMap { CivilDate(iso: $0)?.shortLabel })
    for line in changed {
      let day = line.split(separator: ": ", maxSplits: 1)[0].split(separator: " ").suffix(3).joined(separator: " ")
      #expect(calendarDays.contains(day), "\(line)")
      #expect(!day.hasPrefix("Tue") && !day.hasPrefix("Thu"), "\(line)")
    }
  }

  @Test func todayIsTheProfilesLocalDay() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    #expect(
      try runmate(
        ["profile", "init", "kiri", "--tz", "Pacific/Auckland", "--level", "beginner"],
        environment: env
      ).status == 0)
    #expect(
      try runmate(
        [
          "plan", "--distance", "10k", "--weeks", "8", "--start", "2027-01-04", "--now", "2027-01-01",
          "--save",
        ], environment: env
      ).status == 0)
    // 12:00 UTC on 5 January is 01:00 on 6 January in Auckland.
    let today = try runmate(["today", "--now", "2027-01-05T12:00:00Z"], environment: env)
    #expect(today.stdout.hasPrefix("Today, Wed 6 Jan"), "\(today.stdout)\(today.stderr)")
    let utc = try runmate(["today", "--now", "2027-01-05"], environment: env)
    #expect(utc.stdout.hasPrefix("Today, Tue 5 Jan"), "\(utc.stdout)\(utc.stderr)")
  }
}

/// A goal-only option on a saved plan (which keeps its goal) is refused by name, not ignored.
@Test func aGoalOptionOnASavedPlanIsRefusedNotIgnored() throws {
  let directory = try temporaryDirectory()
  defer { try? FileManager.default.removeItem(at: directory) }
  let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
  #expect(
    try runmate(
      [
        "plan", "--distance", "10k", "--level", "beginner", "--weeks", "8", "--now", "2027-01-01",
        "--save", "--name", "spring",
      ], environment: env
    ).status == 0)
  let ics = directory.appendingPathComponent("plan.ics").path
  let refused = try runmate(["export", "--runs-per-week", "6", "--out", ics, "--now", "2027-01-01"], environment: env)
  #expect(refused.status == 64)
  #expect(refused.stderr.hasPrefix("runmate: --runs-per-week: '6' is not valid, allowed is a goal option"))
  #expect(!FileManager.default.fileExists(atPath: ics))
}
