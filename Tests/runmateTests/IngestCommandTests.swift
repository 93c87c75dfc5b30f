import Foundation
import RunMateTestSupport
import Testing

/// The one ingest path end to end, with the real binary on one database: a run logged by hand, its Apple Health
/// twin and its GPX twin are one run, matched to the plan, counted once by `week` and `progress`.
@Suite(.tags(.endToEnd)) struct IngestCommandTests {
  /// An Apple Health export holding running workouts: (start and end "YYYY-MM-DD HH:MM:SS" in UTC, km, minutes).
  func writeHealthExport(to url: URL, workouts: [(String, String, Double, Double)]) throws {
    var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<HealthData locale=\"en_US\">"]
    for (start, end, km, minutes) in workouts {
      lines.append(
        " <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"\(minutes)\" "
          + "durationUnit=\"min\" totalDistance=\"\(km)\" totalDistanceUnit=\"km\" sourceName=\"Watch\" "
          + "startDate=\"\(start) +0000\" endDate=\"\(end) +0000\"/>")
    }
    lines.append("</HealthData>")
    try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
  }

  /// A GPX track due north from `start` (UTC, ISO 8601 without zone), `km` long, `seconds` long, 1 point a 20 s.
  func writeGPX(to url: URL, start: String, km: Double, seconds: Double) throws {
    let formatter = ISO8601DateFormatter()
    let begin = try #require(formatter.date(from: start + "Z"))
    let count = Int(seconds / 20)
    let points = (0...count).map { index -> String in
      let share = Double(index) / Double(count)
      let latitude = 52.5 + km * share / 111.195
      let time = formatter.string(from: begin.addingTimeInterval(seconds * share))
      return "<trkpt lat=\"\(String(format: "%.6f", latitude))\" lon=\"13.4\"><ele>40</ele>"
        + "<time>\(time)</time></trkpt>"
    }
    let gpx =
      "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\">"
      + "<trk><trkseg>" + points.joined() + "</trkseg></trk></gpx>\n"
    try gpx.write(to: url, atomically: true, encoding: .utf8)
  }

  @Test func aRunLoggedByHandAndItsHealthAndGPXTwinsAreOneMatchedRun() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let plan = try runmate(
      [
        "plan", "--distance", "10k", "--level", "beginner", "--weeks", "8", "--start", "2027-01-04",
        "--now", "2027-01-01", "--save", "--name", "spring",
      ], environment: env)
    #expect(plan.status == 0, "\(plan.stderr)")
    // Tuesday's easy 3.9 km (with strides) run as 3.4 km, logged by hand with a note and an effort.
    let logged = try runmate(
      [
        "log", "2027-01-05", "--distance", "3.4km", "--time", "22:00", "--note", "windy",
        "--rpe", "6", "--now", "2027-01-09",
      ], environment: env)
    #expect(
      logged.stdout.hasPrefix("Logged run 1: Tue 5 Jan, 3.4 km in 22:00 (6:28/km)\nMatched Easy 3.9 km"),
      "\(logged.stdout)")
    // The watch's record of it (1.5 % longer, 2 % slower), and Thursday's run, from Apple Health.
    let export = directory.appendingPathComponent("export.xml")
    try writeHealthExport(
      to: export,
      workouts: [
        ("2027-01-05 07:00:00", "2027-01-05 07:22:30", 3.45, 22.5),
        ("2027-01-07 07:00:00", "2027-01-07 07:24:00", 3.5, 24),
      ])
    let health = try runmate(
      ["health", "import", export.path, "--tz", "UTC", "--now", "2027-01-07"], environment: env)
    #expect(health.status == 0, "\(health.stderr)")
    #expect(health.stdout.contains(", 1 new runs\n1 new run for 'spring': 1 matched, 0 extra\n"), "\(health.stdout)")
    #expect(
      health.stdout.contains(
        "run on Tue 5 Jan: same run as run 1, logged by hand on Tue 5 Jan (3.5 km): one run "
          + "kept, now with the Apple Health record and the note and effort you logged\n"), "\(health.stdout)")
    // The GPX of the same run (started 20 s later): the same run again.
    let gpx = directory.appendingPathComponent("tuesday.gpx")
    try writeGPX(to: gpx, start: "2027-01-05T07:00:20", km: 3.45, seconds: 1330)
    let imported = try runmate(["import", gpx.path, "--tz", "UTC", "--now", "2027-01-09"], environment: env)
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(
      imported.stdout == "tuesday.gpx: same run as run 1, from Apple Health on Tue 5 Jan (3.5 km): already in "
        + "the logbook\n0 imported, 1 already in the logbook\n", "\(imported.stdout)")
    // Logged by hand again after the import: the same run, nothing added.
    let again = try runmate(
      ["log", "2027-01-05", "--distance", "3.4km", "--time", "22:00", "--now", "2027-01-09"],
      environment: env)
    #expect(
      again.stdout.hasPrefix("Already in the logbook: same run as run 1, from Apple Health on Tue 5 Jan"),
      "\(again.stdout)")
    // One run for Tuesday, with the device's data and the runner's note; Thursday's matched too.
    let list = try runmate(["log", "list"], environment: env).stdout.split(separator: "\n").map {
      $0.split(separator: "\t").map(String.init)
    }
    #expect(list.count == 2, "\(list)")
    #expect(list.first.map { [$0[1], $0[2], $0[4]] } == ["2027-01-05", "3.5 km", "health"])
    #expect(list.allSatisfy { $0[5] != "unplanned" }, "\(list)")
    let week = try runmate(["week", "--now", "2027-01-09"], environment: env)
    #expect(week.stdout.hasPrefix("Week 1 of 8 (base): 7 of 16.4 km, 2 of 4 sessions done"), "\(week.stdout)")
    #expect(week.stdout.contains("✔ Tue 5 Jan") && week.stdout.contains("✔ Thu 7 Jan"), "\(week.stdout)")
    let progress = try runmate(
      ["progress", "--weeks", "1", "--now", "2027-01-09", "--format", "json"],
      environment: env)
    let report = try JSONSerialization.jsonObject(with: Data(progress.stdout.utf8)) as? [String: Any]
    let first = (report?["weeks"] as? [[String: Any]])?.first
    #expect(first?["done_km"] as? Double == 7.0, "\(progress.stdout)")
    #expect(first?["done_sessions"] as? Int == 2, "\(progress.stdout)")
    #expect(first?["extra_runs"] as? Int == 0, "\(progress.stdout)")
  }

  @Test func aShortRunIsPartialAndARunOnARestDayTakesTheMissedWorkout() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    #expect(
      try runmate(
        [
          "plan", "--distance", "10k", "--level", "beginner", "--weeks", "8", "--start", "2027-01-04",
          "--now", "2027-01-01", "--save", "--name", "spring",
        ], environment: env
      ).status == 0)
    // Sunday's long run is 5.5 km: 3 km of it is partial.
    let short = try runmate(
      ["log", "2027-01-10", "--distance", "3km", "--time", "19:00", "--now", "2027-01-10"],
      environment: env)
    #expect(
      short.stdout.contains(
        "\nPartial: Long run 5.5 km planned for Sun 10 Jan (3 of 5.5 km, under 80 % of "
          + "the plan). Nice work!\n"), "\(short.stdout)")
    // Tuesday's run skipped, run on Wednesday (a rest day): Tuesday's, not Thursday's.
    let moved = try runmate(
      ["log", "2027-01-06", "--distance", "3.4km", "--time", "22:00", "--now", "2027-01-10"],
      environment: env)
    #expect(
      moved.stdout.contains("\nMatched Easy 3.9 km + 4 × 20 s strides planned for Tue 5 Jan. Nice work!\n"),
      "\(moved.stdout)")
    // Thursday's easy run run at twice its distance: done, and told it was well over.
    let long = try runmate(
      ["log", "2027-01-07", "--distance", "8km", "--time", "50:00", "--now", "2027-01-10"], environment: env)
    #expect(long.stdout.contains("\nMatched Easy "), "\(long.stdout)")
    #expect(long.stdout.contains("well over it: the plan builds by about 10 % a week"), "\(long.stdout)")
    #expect(!long.stdout.contains("Nice work!"), "\(long.stdout)")
  }

  /// A running workout Health keeps no distance for (a treadmill run without a footpod) cannot be a run: the import
  /// says so, with its day, instead of dropping it silently; the runs with a distance are imported.
  @Test func aHealthRunWithoutADistanceIsNamedNotDropped() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let export = directory.appendingPathComponent("export.xml")
    try writeHealthExport(to: export, workouts: [("2027-01-05 07:00:00", "2027-01-05 07:30:00", 5, 30)])
    var text = try String(contentsOf: export, encoding: .utf8)
    text = text.replacingOccurrences(
      of: "</HealthData>",
      with: """
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="40" durationUnit="min" \
        sourceName="Treadmill" startDate="2027-01-07 18:00:00 +0000" endDate="2027-01-07 18:40:00 +0000"/>
        </HealthData>
        """)
    try text.write(to: export, atomically: true, encoding: .utf8)
    let result = try runmate(
      ["health", "import", export.path, "--tz", "UTC", "--now", "2027-01-07"], environment: env)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains(" 1 new runs\n"), "\(result.stdout)")
    #expect(
      result.stdout.contains(
        "skipped 1 running workout without a distance (Thu 7 Jan): log each with "
          + "`runmate log DATE --distance …`\n"), "\(result.stdout)")
  }
}

/// A run dated after today (a device clock gone wrong) is refused like a future `log`, before any file is opened.
@Test func aRunDatedAfterTodayIsRefusedAndNothingIsCreated() throws {
  let directory = try temporaryDirectory()
  defer { try? FileManager.default.removeItem(at: directory) }
  let database = directory.appendingPathComponent("runmate.sqlite").path
  let gpx = repositoryRoot.appendingPathComponent("examples/tour/saturday.gpx").path
  let refused = try runmate(["import", gpx, "--tz", "UTC", "--now", "2027-01-08", "--db", database])
  #expect(refused.status == 65)
  #expect(
    refused.stderr == "runmate: saturday.gpx: the run is dated 2027-01-09, after today (2027-01-08); "
      + "check the device's clock\n")
  #expect(!FileManager.default.fileExists(atPath: database))
  let accepted = try runmate(["import", gpx, "--tz", "UTC", "--now", "2027-01-09", "--db", database])
  #expect(accepted.status == 0, "\(accepted.stderr)")
}
