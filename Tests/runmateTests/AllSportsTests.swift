import Foundation
import RunMateTestSupport
import Testing

/// `import --all-sports` (issue 13): other sports are stored as cross-training, shown as such, and never count as
/// running (volume, weekly km, progress, personal bests) nor match a planned run.
@Suite(.tags(.endToEnd)) struct AllSportsTests {
  static let fixtures = repositoryRoot.appendingPathComponent("Tests/ActivityTests/Fixtures")
  /// A 11.9 km ride recorded on Sat 4 May 2024 (Garmin FIT, sport cycling; see ride.json).
  static let ride = fixtures.appendingPathComponent("fit/ride.fit").path

  @Test func aRideImportedWithAllSportsIsCrossTrainingAndLeavesRunningUnchanged() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let plan = try runmate(
      [
        "plan", "--distance", "half", "--level", "intermediate", "--weeks", "12", "--start", "2024-04-29", "--now",
        "2024-04-28", "--save",
        "--name", "spring",
      ], environment: env)
    #expect(plan.status == 0, "\(plan.stderr)")
    // A run from a TCX file of the same week (its date moved into the plan), so running figures are not all zero.
    let tcx = try String(
      contentsOf: Self.fixtures.appendingPathComponent("tcx/two-activities.tcx"), encoding: .utf8
    ).replacingOccurrences(of: "2024-03-10", with: "2024-05-02")
    let runFile = directory.appendingPathComponent("run.tcx")
    try tcx.write(to: runFile, atomically: true, encoding: .utf8)
    #expect(try runmate(["import", runFile.path, "--tz", "UTC", "--now", "2024-05-05"], environment: env).status == 0)
    let weekBefore = try runmate(["week", "--now", "2024-05-05"], environment: env)
    let progressBefore = try runmate(["progress", "--format", "json", "--now", "2024-05-05"], environment: env)
    let listBefore = try runmate(["log", "list"], environment: env).stdout
    #expect(weekBefore.status == 0 && progressBefore.status == 0, "\(weekBefore.stderr)\(progressBefore.stderr)")
    // The run counts (the ride must not add to it).
    #expect(!weekBefore.stdout.hasPrefix("Week 1 of 12 (base): 0 of"), "\(weekBefore.stdout)")

    // Without the flag the ride is skipped and counted by sport, as before.
    let skipped = try runmate(["import", Self.ride, "--tz", "UTC", "--now", "2024-05-05"], environment: env)
    #expect(skipped.stdout.contains("skipped 1 activity of another sport (cycling): ride.fit"), "\(skipped.stdout)")
    #expect(try runmate(["log", "list"], environment: env).stdout == listBefore)

    let imported = try runmate(
      ["import", "--all-sports", Self.ride, "--tz", "UTC", "--now", "2024-05-05"], environment: env)
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(
      imported.stdout.contains("imported ride.fit as cross-training (cycling): Sat 4 May, 11.9 km in 23:18"),
      "\(imported.stdout)")
    #expect(!imported.stdout.contains("matched"), "\(imported.stdout)")

    // Running figures are exactly as before; the week lists the ride apart.
    let progressAfter = try runmate(["progress", "--format", "json", "--now", "2024-05-05"], environment: env)
    #expect(progressAfter.stdout == progressBefore.stdout)
    let weekAfter = try runmate(["week", "--now", "2024-05-05"], environment: env)
    #expect(weekAfter.stdout.hasPrefix(weekBefore.stdout), "\(weekAfter.stdout)")
    #expect(
      weekAfter.stdout.dropFirst(weekBefore.stdout.count)
        == "Cross-training (not counted as running):\n  + Sat 4 May  cycling, 23 min, 11.9 km\n")
    let list = try runmate(["log", "list"], environment: env).stdout
    let rows = list.split(separator: "\n")
    #expect(rows.count == listBefore.split(separator: "\n").count + 1)
    #expect(rows.contains { $0.hasSuffix("\t2024-05-04\t11.9 km\t23:18\tfit\tcross-training: cycling, 23 min") })
    let json = try runmate(["log", "list", "--format", "json"], environment: env).stdout
    let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let others = try #require(decoded["cross_training"] as? [[String: Any]])
    #expect(others.count == 1 && others[0]["sport"] as? String == "cycling")
    #expect((decoded["runs"] as? [[String: Any]])?.allSatisfy { $0["date"] as? String != "2024-05-04" } == true)

    // Re-import: idempotent.
    let again = try runmate(
      ["import", "--all-sports", Self.ride, "--tz", "UTC", "--now", "2024-05-05"], environment: env)
    #expect(again.status == 0)
    #expect(again.stdout.hasSuffix("0 imported, 1 already in the logbook\n"), "\(again.stdout)")
    #expect(try runmate(["log", "list"], environment: env).stdout == list)

    // The report lists it as cross-training.
    let html = directory.appendingPathComponent("report.html").path
    #expect(try runmate(["report", "--html", html, "--now", "2024-05-05"], environment: env).status == 0)
    let page = try String(contentsOfFile: html, encoding: .utf8)
    #expect(page.contains("<h2>Cross-training (not counted as running)</h2>"))
    #expect(page.contains("<td>2024-05-04</td><td>cycling</td><td>11.9 km</td><td>23</td>"))
  }

  /// A logbook written before the sport column existed (only runs) keeps every completion a run.
  @Test(.enabled(if: hasSQLite3, "needs sqlite3")) func aDatabaseFromBeforeTheSportColumnReadsEveryCompletionAsARun()
    throws
  {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    #expect(try runmate(["log", "2024-05-01", "--distance", "5", "--time", "25:00"], environment: env).status == 0)
    // Back to the old schema: the column and the migration's record removed (as a v6 logbook had them).
    let downgrade = try runProcess(
      URL(fileURLWithPath: sqlite3Path),
      [
        env["RUNMATE_DB"] ?? "",
        "ALTER TABLE completion DROP COLUMN sport; DELETE FROM grdb_migrations WHERE identifier = 'v7-completion-sport';",
      ], in: directory)
    #expect(downgrade.status == 0, "\(downgrade.stderr)")
    let list = try runmate(["log", "list"], environment: env)
    #expect(list.stdout.contains("\t2024-05-01\t5 km\t25:00\tmanual\tunplanned"), "\(list.stdout)\(list.stderr)")
  }

  /// `health import --all-sports`: a cycling workout with a distance is cross-training, a yoga session without one is
  /// left out; without the flag only the run is stored, as before.
  @Test func healthWorkoutsOfOtherTypesFollowTheFlag() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("export.xml")
    try """
    <?xml version="1.0" encoding="UTF-8"?>
    <HealthData locale="en_US">
     <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" \
    totalDistance="6" totalDistanceUnit="km" sourceName="Watch" startDate="2024-05-01 07:00:00 +0000" \
    endDate="2024-05-01 07:30:00 +0000"/>
     <Workout workoutActivityType="HKWorkoutActivityTypeCycling" duration="60" durationUnit="min" \
    totalDistance="25" totalDistanceUnit="km" sourceName="Watch" startDate="2024-05-02 07:00:00 +0000" \
    endDate="2024-05-02 08:00:00 +0000"/>
     <Workout workoutActivityType="HKWorkoutActivityTypeYoga" duration="45" durationUnit="min" sourceName="Watch" \
    startDate="2024-05-03 07:00:00 +0000" endDate="2024-05-03 07:45:00 +0000"/>
    </HealthData>

    """.write(to: file, atomically: true, encoding: .utf8)
    let plain = ["RUNMATE_DB": directory.appendingPathComponent("plain.sqlite").path]
    let imported = try runmate(["health", "import", file.path, "--tz", "UTC"], environment: plain)
    #expect(imported.stdout.contains(", 1 new runs\n"), "\(imported.stdout)\(imported.stderr)")
    #expect(try runmate(["log", "list"], environment: plain).stdout.split(separator: "\n").count == 1)

    let all = ["RUNMATE_DB": directory.appendingPathComponent("all.sqlite").path]
    let first = try runmate(["health", "import", "--all-sports", file.path, "--tz", "UTC"], environment: all)
    #expect(first.stdout.contains(", 1 new runs, 1 new cross-training\n"), "\(first.stdout)\(first.stderr)")
    let list = try runmate(["log", "list"], environment: all).stdout
    #expect(
      list.split(separator: "\n").map { $0.split(separator: "\t").dropFirst().joined(separator: " ") } == [
        "2024-05-01 6 km 30:00 health unplanned",
        "2024-05-02 25 km 1:00:00 health cross-training: cycling, 60 min",
      ], "\(list)")
    let again = try runmate(["health", "import", "--all-sports", file.path, "--tz", "UTC"], environment: all)
    #expect(again.stdout.contains(", 0 new runs, 0 new cross-training\n"), "\(again.stdout)")
    #expect(try runmate(["log", "list"], environment: all).stdout == list)
  }

  /// A Strava export: with `--all-sports` the activity Strava calls a Ride (its file a GPX without a type) is read and
  /// stored as cycling, named by activities.csv; the runs are what they were without the flag.
  @Test(.enabled(if: hasZipTools, "needs the zip and gzip tools (scripts/apt-packages.txt)"))
  func aStravaRideIsCrossTrainingWithAllSports() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let export = directory.appendingPathComponent("export")
    try ArchiveImportTests.stravaExport(in: export)
    try ArchiveImportTests.shell("zip -q -r ../export_123.zip .", in: export)
    let result = try runmate(
      ["import", "--all-sports", "export_123.zip", "--tz", "UTC"], in: directory, environment: env)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.contains("imported 104.gpx.gz as cross-training (cycling): Mon 4 Mar, 3.7 km in "),
      "\(result.stdout)")
    #expect(
      result.stdout.hasSuffix("5 imported, 0 already in the logbook, 2 files refused\n"), "\(result.stdout)")
    let list = try runmate(["log", "list"], environment: env).stdout
    #expect(list.split(separator: "\n").filter { !$0.contains("cross-training") }.count == 4, "\(list)")
    #expect(list.contains("\t2024-03-04\t3.7 km\t"), "\(list)")
    #expect(list.split(separator: "\n").filter { $0.contains("cross-training: cycling") }.count == 1, "\(list)")
    let again = try runmate(
      ["import", "--all-sports", "export_123.zip", "--tz", "UTC"], in: directory, environment: env)
    #expect(again.stdout.hasSuffix("0 imported, 5 already in the logbook, 2 files refused\n"), "\(again.stdout)")
    #expect(try runmate(["log", "list"], environment: env).stdout == list)
  }
}
