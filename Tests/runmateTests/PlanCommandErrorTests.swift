import Foundation
import RunMateTestSupport
import Testing

/// Bad input gets one clear line on stderr naming the option, the value and what is allowed, a sysexits code,
/// and nothing on stdout.
@Suite(.tags(.endToEnd)) struct PlanCommandErrorTests {
  static let base = ["plan", "--now", "2026-11-21"]

  struct Case: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var status: Int32
    var message: String
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let cases: [Case] = [
    Case(
      arguments: ["--distance", "7k", "--level", "beginner", "--weeks", "10"], status: 64,
      message:
        "runmate: --distance: '7k' is not valid, allowed is 5k, 10k, 15k, 10mi, half (or half-marathon, 21.1k), marathon (did you mean '5k'?)"
    ),
    Case(
      arguments: ["--distance", "hafl", "--level", "beginner", "--weeks", "10"], status: 64,
      message:
        "runmate: --distance: 'hafl' is not valid, allowed is 5k, 10k, 15k, 10mi, half (or half-marathon, 21.1k), marathon (did you mean 'half'?)"
    ),
    Case(
      arguments: ["--distance", "10k", "--level", "pro", "--weeks", "10"], status: 64,
      message: "runmate: --level: 'pro' is not valid, allowed is beginner, intermediate, advanced"),
    Case(
      arguments: ["--distance", "10k", "--level", "beginner", "--weeks", "0"], status: 64,
      message: "runmate: --weeks: 0 is out of range, allowed is 1–40"),
    Case(
      arguments: ["--distance", "10k", "--level", "beginner", "--weeks", "80"], status: 64,
      message: "runmate: --weeks: 80 is out of range, allowed is 1–40"),
    Case(
      arguments: ["--distance", "10k", "--level", "beginner", "--race-date", "2026-01-01"], status: 64,
      message: "runmate: --race-date: 2026-01-01 is not in the future (today is 2026-11-21); give a date after today"),
    Case(
      arguments: ["--distance", "10k", "--level", "beginner", "--race-date", "2027-02-30"], status: 64,
      message: "runmate: --race-date: '2027-02-30' is not valid, allowed is a date YYYY-MM-DD"),
    Case(
      arguments: ["--distance", "half", "--level", "beginner", "--weeks", "4"], status: 64,
      message: "runmate: --weeks: 4 is too short for a beginner half marathon plan, allowed is at least 8 weeks "
        + "(12 recommended); choose a race on or after 2027-01-17 (2027-02-14 for 12 weeks), or a shorter distance: 5k"),
    Case(
      arguments: ["--distance", "marathon", "--level", "intermediate", "--weeks", "12", "--current-weekly-km", "15"],
      status: 64,
      message: "runmate: --current-weekly-km: 15 km is too little to start a marathon plan, allowed is at least 25 km; "
        + "build up first, or train for a half marathon"),
    Case(
      arguments: ["--distance", "5k", "--level", "beginner", "--weeks", "8", "--runs-per-week", "7"], status: 64,
      message: "runmate: --runs-per-week: 7 runs with 10 km a week makes runs shorter than 2 km, allowed is at most 4 "
        + "at this volume; run fewer days or give a higher --current-weekly-km"),
    Case(
      arguments: ["--distance", "5k", "--level", "beginner", "--weeks", "8", "--recent-race", "5k=5:00"], status: 64,
      message: "runmate: --recent-race: a 5.0 km race in 5:00 gives VDOT 258.1, outside the plausible range 20–90: "
        + "check the time (h:mm:ss or mm:ss)"),
    Case(
      arguments: ["--distance", "5k", "--level", "beginner", "--weeks", "8", "--recent-race", "fast"], status: 64,
      message:
        "runmate: --recent-race: 'fast' is not valid, allowed is DISTANCE=TIME such as 5k=24:30, 10k=52:10, half=1:52:00"
    ),
    Case(
      arguments: ["--distance", "5k", "--level", "beginner"], status: 64,
      message: "runmate: no timeline: give --weeks N (1-40) or --race-date YYYY-MM-DD"),
    Case(
      arguments: ["--distance", "5k", "--level", "beginner", "--weeks", "8", "--units", "furlongs"], status: 64,
      message: "runmate: --units: 'furlongs' is not valid, allowed is km, mi"),
  ]

  @Test(arguments: cases)
  func badInputIsRefusedWithOneClearLine(_ testCase: Case) throws {
    let result = try runmate(Self.base + testCase.arguments + ["--templates", "plan-templates"])
    #expect(result.status == testCase.status)
    #expect(result.stderr == testCase.message + "\n")
    #expect(result.stdout.isEmpty)
  }

  @Test func badNowIsRefused() throws {
    let result = try runmate(["plan", "--distance", "5k", "--level", "beginner", "--weeks", "8", "--now", "yesterday"])
    #expect(result.status == 64)
    #expect(
      result.stderr == "runmate: --now: 'yesterday' is not valid, allowed is a date YYYY-MM-DD or an ISO 8601 "
        + "time with its offset such as 2026-11-26T08:00:00Z, from 1900 to 2200\n")
    // A local time without seconds or offset: the same time in UTC is suggested.
    let local = try runmate(
      ["plan", "--distance", "5k", "--level", "beginner", "--weeks", "8", "--now", "2026-11-26T08:00"])
    #expect(local.status == 64)
    #expect(local.stderr.hasSuffix(" (did you mean '2026-11-26T08:00:00Z'?)\n"), "\(local.stderr)")
  }

  @Test func unknownOptionIsAUsageError() throws {
    let result = try runmate(["plan", "--distance", "5k", "--level", "beginner", "--weeks", "8", "--colour"])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("runmate: "))
    #expect(result.stderr.contains("--colour"))
    #expect(result.stderr.hasSuffix("(see 'runmate plan --help')\n"))
    #expect(result.stderr.split(separator: "\n").count == 1)
  }

  @Test func missingTemplatesNameEveryPlaceLooked() throws {
    let empty = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: empty) }
    let result = try runmate(
      ["plan", "--distance", "5k", "--level", "beginner", "--weeks", "8", "--now", "2026-11-21"],
      in: empty)
    #expect(result.status == 66)
    #expect(result.stderr.hasPrefix("runmate: plan templates not found; looked in: "))
    #expect(
      result.stderr.contains(
        "share/runmate/plan-templates, plan-templates (give --templates DIR or set RUNMATE_TEMPLATES)"))
  }

  @Test func templatesFromEnvironmentAreUsed() throws {
    let elsewhere = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: elsewhere) }
    let result = try runmate(
      ["plan", "--distance", "5k", "--level", "beginner", "--weeks", "8", "--now", "2026-11-21"],
      in: elsewhere,
      environment: ["RUNMATE_TEMPLATES": repositoryRoot.appendingPathComponent("plan-templates").path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("Beginner 5K plan · 8 weeks"))
  }
}
