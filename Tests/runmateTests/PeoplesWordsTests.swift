import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import Training

/// People's words at the door: days as people say them and a did-you-mean for every enumerated value, parsed by the
/// core (``SettingValues``, ``SpokenDate``) and checked here in-process; one end-to-end test shows that each
/// misspelling reaches the runner as one line with its suggestion and exit code 64.
@Suite(.tags(.endToEnd)) struct PeoplesWordsTests {
  /// Wednesday 2027-01-06.
  static let wednesday = CivilDate(dayNumber: CivilDate.dayNumber(year: 2027, month: 1, day: 6))

  /// The error `body` throws, as a ``SettingError``.
  func settingError(_ body: () throws -> Void) -> SettingError? {
    do {
      try body()
      return nil
    } catch {
      return error as? SettingError
    }
  }

  @Test func everyEnumeratedValueGetsItsSuggestion() {
    let cases: [(option: FieldName, value: String, suggestion: String, parse: () throws -> Void)] = [
      (.field(.level), "begginer", "beginner", { _ = try SettingValues.level("begginer") }),
      (.field(.level), "advnced", "advanced", { _ = try SettingValues.level("advnced") }),
      (.field(.days), "thr", "thu", { _ = try SettingValues.runDays("thr") }),
      (.field(.days), "thr", "thu", { _ = try SettingValues.runDays("mon,thr") }),
      ("--long-run-day", "snday", "sun", { _ = try SettingValues.weekday("snday", option: "--long-run-day") }),
      ("--week-start", "mnday", "mon", { _ = try SettingValues.weekday("mnday", option: "--week-start") }),
      (.field(.units), "kn", "km", { _ = try SettingValues.units("kn") }),
      (.field(.units), "mils", "mi", { _ = try SettingValues.units("mils") }),
      (.field(.kind), "tmepo", "tempo", { _ = try SettingValues.workoutKind("tmepo") }),
      (.field(.reason), "injyry", "injury", { _ = try SettingValues.breakReason("injyry") }),
      (.field(.at), "frday=08:00", "fri=08:00", { _ = try SettingValues.times(["frday=08:00"]) }),
    ]
    for testCase in cases {
      let error = settingError(testCase.parse)
      #expect(error?.option == testCase.option, "\(testCase.value)")
      #expect(error?.value == testCase.value)
      #expect(error?.suggestion == testCase.suggestion, "\(testCase.value): \(String(describing: error))")
      #expect(error?.description.contains("(did you mean '\(testCase.suggestion)'?)") == true)
    }
    // Every accepted spelling still parses, and nothing close gets no suggestion.
    #expect((try? SettingValues.level("Beginner")) == .beginner)
    #expect((try? SettingValues.units("miles")) == .mi)
    #expect((try? SettingValues.weekday("Thursday", option: "--long-run-day")) == .thursday)
    #expect((try? SettingValues.runDays("mon,thu,sat")) == [.monday, .thursday, .saturday])
    #expect((try? SettingValues.runDays("tu,thurs,weds,Sunday")) == [.tuesday, .wednesday, .thursday, .sunday])
    // A word that only starts like a day is no day (issue 23: `mondayxyz` and `montag` were Monday).
    for word in ["mondayxyz", "montag", "sundays", "t"] {
      #expect(SettingValues.weekday(word) == nil, "\(word)")
    }
    #expect(settingError { _ = try SettingValues.level("expert") }?.suggestion == nil)
  }

  @Test func aCityNamesItsZone() {
    for (typed, zone) in [("london", "Europe/London"), ("New_York", "America/New_York"), ("berln", "Europe/Berlin")] {
      do {
        try checkedTimeZone(typed)
        Issue.record("\(typed) was taken as a zone")
      } catch {
        #expect(error.suggestion == zone, "\(typed)")
      }
    }
  }

  @Test func datesAsPeopleSayThem() throws {
    let today = Self.wednesday
    #expect(
      try SettingValues.spokenDate("next sunday", option: "--race-date", today: today).description == "2027-01-10")
    #expect(try SettingValues.spokenDate("today", option: "--start", today: today) == today)
    #expect(try SettingValues.spokenDate("2027-03-14", option: "--start", today: today).description == "2027-03-14")
    let bad = settingError { _ = try SettingValues.spokenDate("nxt sunday", option: "--race-date", today: today) }
    #expect(bad?.suggestion == "next sunday")
    #expect(bad?.description.hasPrefix("--race-date: 'nxt sunday' is not valid, allowed is a date YYYY-MM-DD") == true)
    #expect(bad?.description.contains("(e.g. --race-date 'next sunday')") == true)
    // The window still holds for words: five years ahead at most.
    let far = settingError {
      _ = try SettingValues.spokenDate("in 999 weeks", option: "--race-date", today: today, window: today...today)
    }
    #expect(far?.allowed == "a date from 2027-01-06 to 2027-01-06")
  }

  @Test func rangesAsPeopleSayThem() throws {
    let today = Self.wednesday
    func range(_ text: String) throws -> String {
      let days = try SettingValues.dateRange(text, option: "--pause", today: today)
      return "\(days.lowerBound)..\(days.upperBound)"
    }
    #expect(try range("monday..friday") == "2027-01-11..2027-01-15")
    #expect(try range("friday..monday") == "2027-01-08..2027-01-11")
    #expect(try range("today..in 2 weeks") == "2027-01-06..2027-01-20")
    #expect(try range("yesterday..today") == "2027-01-05..2027-01-06")
    #expect(try range("tomorrow") == "2027-01-07..2027-01-07")
    #expect(try range("2027-02-01..2027-02-07") == "2027-02-01..2027-02-07")
    #expect(
      settingError { _ = try SettingValues.dateRange("tomorow..fridy", option: "--pause", today: today) }?
        .suggestion == "tomorrow..friday")
    #expect(
      settingError { _ = try SettingValues.dateRange("today..yesterday", option: "--pause", today: today) }?
        .suggestion == "2027-01-05..2027-01-06")
    // Without today (settings read back from the database) only dates are read.
    #expect(
      settingError { _ = try SettingValues.dateRange("monday..friday", option: "--skip") }?.allowed
        == "YYYY-MM-DD or YYYY-MM-DD..YYYY-MM-DD")
  }

  /// What only a process shows: the one line on stderr and exit code 64, for each misspelling of the issue.
  @Test func eachMisspellingIsOneLineAndExit64() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let plan = ["plan", "--distance", "5k", "--weeks", "8", "--now", "2027-01-06"]
    let cases: [([String], String)] = [
      (
        plan + ["--level", "begginer"],
        "--level: 'begginer' is not valid, allowed is beginner, intermediate, advanced "
          + "(did you mean 'beginner'?)"
      ),
      (plan + ["--level", "beginner", "--days", "mon,thr"], "(did you mean 'thu'?)"),
      (plan + ["--level", "beginner", "--long-run-day", "snday"], "(did you mean 'sun'?)"),
      (plan + ["--level", "beginner", "--tz", "london"], "(did you mean 'Europe/London'?)"),
      (plan + ["--level", "beginner", "--units", "kn"], "(did you mean 'km'?)"),
      (plan + ["--level", "beginner", "--format", "jsn"], "allowed is table, json (did you mean 'json'?)"),
      (plan + ["--level", "beginner", "--distance", "hlaf"], "(did you mean 'half'?)"),
      (["lint", "plan.json", "--distance", "marathn"], "(did you mean 'marathon'?)"),
      (["replan", "--pause", "today", "--reason", "injyry", "--now", "2027-01-06"], "(did you mean 'injury'?)"),
      (["pause", "tomorow..sunday", "--now", "2027-01-06"], "(did you mean 'tomorrow..sunday'?)"),
      (plan + ["--level", "beginner", "--race-date", "nxt sunday"], "(did you mean 'next sunday'?)"),
      (
        ["log", "tomorow", "--distance", "5km", "--time", "30:00", "--now", "2027-01-06"], "(did you mean 'tomorrow'?)"
      ),
      (["log", "--distance", "5km", "--time", "30:00", "--kind", "tmepo"], "(did you mean 'tempo'?)"),
    ]
    for (arguments, message) in cases {
      let result = try runmate(arguments, environment: env)
      #expect(result.status == 64, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
      #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
    }
    // Nothing was refused after the database was made: no command above created it.
    #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("runmate.sqlite").path))
  }

  @Test func spokenDatesReachTheCommands() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    // Wednesday 2027-01-06: the plan starts on Monday 11 Jan and races on the Sunday eight weeks on.
    let plan = try runmate(
      [
        "plan", "--distance", "5k", "--level", "beginner", "--start", "monday", "--race-date", "in 8 weeks",
        "--format", "json", "--now", "2027-01-06",
      ], environment: env)
    #expect(plan.status == 0, "\(plan.stderr)")
    #expect(plan.stdout.contains("\"start\" : \"2027-01-11\""), "\(plan.stdout.prefix(600))")
    #expect(plan.stdout.contains("\"race_date\" : \"2027-03-03\""), "\(plan.stdout.prefix(600))")
    // Blackout days said in words are saved as the dates they named that day, never re-read later.
    let saved = try runmate(
      [
        "plan", "--distance", "5k", "--level", "beginner", "--weeks", "8", "--skip", "monday..friday", "--save",
        "--name", "words", "--now", "2027-01-06",
      ], environment: env)
    #expect(saved.status == 0, "\(saved.stderr)")
    let shown = try runmate(["plans", "show", "words", "--format", "json"], environment: env)
    #expect(shown.stdout.contains("\"2027-01-11..2027-01-15\""), "\(shown.stdout.suffix(900))")
    let logged = try runmate(
      ["log", "yesterday", "--distance", "5km", "--time", "30:00", "--now", "2027-01-06"], environment: env)
    #expect(logged.status == 0, "\(logged.stderr)")
    #expect(logged.stdout.hasPrefix("Logged run 1: Tue 5 Jan, 5 km in 30:00"), "\(logged.stdout)")
  }
}
