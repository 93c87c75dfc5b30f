import Foundation
import RunMateTestSupport
import Testing

/// Whether the Debian `zip` and `gzip` tools are installed (scripts/apt-packages.txt installs them).
let hasZipTools = ["/usr/bin/zip", "/bin/gzip"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }

/// `runmate import` of Strava and Garmin bulk exports, gzip files and mixed folders, built in each test with the
/// real `zip` and `gzip` tools from the Activity tests' real GPX and TCX files: the runs land in one transaction,
/// other sports are counted by sport, and every file that cannot be read is listed with its reason.
@Suite(.enabled(if: hasZipTools, "needs the zip and gzip tools (scripts/apt-packages.txt)"), .tags(.endToEnd))
struct ArchiveImportTests {
  static let fixtures = repositoryRoot.appendingPathComponent("Tests/ActivityTests/Fixtures")

  /// A real GPX run (3.7 km), moved to 2024-03-`day`.
  static func run(day: Int) throws -> String {
    let source = try String(
      contentsOf: fixtures.appendingPathComponent("gpx/route_2021-01-03_5.53pm.gpx"), encoding: .utf8)
    return source.replacingOccurrences(of: "2021-01-03T", with: String(format: "2024-03-%02dT", day))
  }

  /// A real TCX run and ride (two activities), moved to 2024-04-`day`.
  static func tcx(day: Int) throws -> String {
    let source = try String(contentsOf: fixtures.appendingPathComponent("tcx/treadmill.tcx"), encoding: .utf8)
    return source.replacingOccurrences(
      of: #"20\d\d-\d\d-\d\dT"#, with: String(format: "2024-04-%02dT", day),
      options: .regularExpression)
  }

  static func write(_ text: String, to url: URL) throws {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }

  static func shell(_ command: String, in directory: URL) throws {
    let result = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", command], in: directory)
    try #require(result.status == 0, "`\(command)`: \(result.stderr)")
  }

  /// A Strava export in `folder`: activities.csv and activities/ with 3 runs (.gpx.gz, .gpx, .tcx.gz), a ride (a run
  /// file that Strava calls a Ride: never read), a truncated .gpx.gz, a .fit.gz, and a manual entry without a file.
  static func stravaExport(in folder: URL) throws {
    let activities = folder.appendingPathComponent("activities")
    try write(try run(day: 1), to: activities.appendingPathComponent("101.gpx"))
    try write(try run(day: 2), to: activities.appendingPathComponent("102.gpx"))
    try write(try tcx(day: 3), to: activities.appendingPathComponent("103.tcx"))
    try write(try run(day: 4), to: activities.appendingPathComponent("104.gpx"))
    try write(String(try run(day: 5).prefix(900)), to: activities.appendingPathComponent("105.gpx"))
    try write("not a fit file", to: activities.appendingPathComponent("106.fit"))
    try shell("gzip 101.gpx 103.tcx 104.gpx 105.gpx 106.fit", in: activities)
    let header =
      #""Activity ID","Activity Date","Activity Name","Activity Type","Activity Description","Elapsed Time","#
      + #""Distance","Filename","Distance""#
    let rows = [
      #"101,"Mar 1, 2024, 7:00:00 AM","Easy, with ""strides""",Run,"two lines"#,
      #"of notes",1200,3.7,activities/101.gpx.gz,3700"#,
      #"102,"Mar 2, 2024, 7:00:00 AM",Long one,Trail Run,,1200,3.7,activities/102.gpx,3700"#,
      #"103,"Apr 3, 2024, 7:00:00 AM",Treadmill,Run,,1800,5,activities/103.tcx.gz,5000"#,
      #"104,"Mar 4, 2024, 7:00:00 AM",Commute,Ride,,1200,3.7,activities/104.gpx.gz,3700"#,
      #"105,"Mar 5, 2024, 7:00:00 AM",Cut,Run,,1200,3.7,activities/105.gpx.gz,3700"#,
      #"106,"Mar 6, 2024, 7:00:00 AM",Watch,Run,,1200,3.7,activities/106.fit.gz,3700"#,
      #"107,"Mar 7, 2024, 7:00:00 AM",Gym,Weight Training,,1200,0,,0"#,
    ]
    try write(([header] + rows).joined(separator: "\r\n") + "\r\n", to: folder.appendingPathComponent("activities.csv"))
  }

  @Test func aStravaExportImportsItsRunsAndListsTheRest() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let export = directory.appendingPathComponent("export")
    try Self.stravaExport(in: export)
    try Self.shell("zip -q -r ../export_123.zip .", in: export)
    let result = try runmate(["import", "export_123.zip", "--tz", "UTC"], in: directory, environment: env)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty, "\(result.stderr)")
    let out = result.stdout
    #expect(out.contains("imported 101.gpx.gz (Easy, with \"strides\"): Fri 1 Mar, 3.7 km"), "\(out)")
    #expect(out.contains("imported 102.gpx (Long one): Sat 2 Mar, 3.7 km"), "\(out)")
    #expect(out.contains("imported 103.tcx.gz (Treadmill): "), "\(out)")
    #expect(out.contains("skipped 1 activity of another sport (cycling): 104.gpx.gz\n"), "\(out)")
    #expect(
      out.contains(
        "refused export_123.zip/activities/105.gpx.gz: cannot read the gzip data (the data ends inside a member "
          + "(truncated?))\n") || out.contains("refused export_123.zip/activities/105.gpx.gz:"), "\(out)")
    #expect(out.contains("refused export_123.zip/activities/106.fit.gz"), "\(out)")
    #expect(out.contains("skipped 1 activity of activities.csv without a file (entered by hand on Strava)\n"))
    // The treadmill TCX holds two activities: 4 runs in all.
    #expect(out.hasSuffix("4 imported, 0 already in the logbook, 1 of other sports, 2 files refused\n"), "\(out)")
    #expect(try ImportCommandTests.runCount(env) == 4)

    // Again, and the same export unzipped: nothing new.
    let again = try runmate(
      ["import", "export_123.zip", "export", "--tz", "UTC"], in: directory, environment: env)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(
      again.stdout.hasSuffix("0 imported, 8 already in the logbook, 2 of other sports, 4 files refused\n"),
      "\(again.stdout)")
    #expect(try ImportCommandTests.runCount(env) == 4)
  }

  /// Garmin's export: zips of activity files inside the zip, among files that are not activities.
  @Test func aGarminExportReadsItsNestedZips() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let root = directory.appendingPathComponent("garmin")
    let uploads = root.appendingPathComponent("DI_CONNECT/DI-Connect-Fitness-Uploaded-Files")
    let parts = directory.appendingPathComponent("parts")
    for part in 1...2 {
      let folder = parts.appendingPathComponent("\(part)")
      try Self.write(try Self.run(day: 10 + part), to: folder.appendingPathComponent("runner_\(part)1.gpx"))
      try Self.write(try Self.run(day: 20 + part), to: folder.appendingPathComponent("runner_\(part)2.gpx"))
      try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
      try Self.shell("zip -q \(uploads.path)/UploadedFiles_0-_Part\(part).zip *.gpx", in: folder)
    }
    try Self.write("{\"profile\": 1}", to: root.appendingPathComponent("DI_CONNECT/DI-Connect-User/user.json"))
    try Self.shell("zip -q -r ../garmin.zip .", in: root)
    let result = try runmate(["import", "garmin.zip", "--tz", "UTC"], in: directory, environment: env)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasSuffix("4 imported, 0 already in the logbook\n"), "\(result.stdout)")
    #expect(result.stdout.contains("imported runner_11.gpx: Mon 11 Mar"), "\(result.stdout)")
    #expect(try ImportCommandTests.runCount(env) == 4)
  }

  /// A folder holding everything at once, recursively: runs, gzip files, a zip, other sports, broken files, hostile
  /// archives. The runs land; every other file is listed with its reason.
  @Test func aMixedFolderImportsItsRunsAndNamesEveryOtherFile() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let folder = directory.appendingPathComponent("mixed")
    try Self.write(try Self.run(day: 1), to: folder.appendingPathComponent("a.gpx"))
    try Self.write(try Self.run(day: 2), to: folder.appendingPathComponent("deep/b.gpx"))
    try Self.shell("gzip deep/b.gpx", in: folder)
    try Self.write(try Self.run(day: 3), to: folder.appendingPathComponent("ride.gpx"))
    try Self.shell("sed -i 's#<trkseg>#<type>cycling</type><trkseg>#' ride.gpx", in: folder)
    try Self.write("just notes", to: folder.appendingPathComponent("notes.txt"))
    try Self.write(String(try Self.run(day: 4).prefix(700)), to: folder.appendingPathComponent("cut.gpx"))
    // A gzip cut short, a gzip bomb, a zip bomb next to a run, a member climbing out of its zip.
    try Self.write(try Self.run(day: 5), to: folder.appendingPathComponent("cut2.gpx"))
    try Self.shell("gzip cut2.gpx && head -c 600 cut2.gpx.gz > c && mv c cut2.gpx.gz", in: folder)
    try Self.shell("head -c 67108864 /dev/zero | gzip -c > bomb.gpx.gz", in: folder)
    let staging = directory.appendingPathComponent("staging")
    try Self.write(try Self.run(day: 6), to: staging.appendingPathComponent("ok.gpx"))
    try Self.shell(
      "head -c 67108864 /dev/zero > zeros.gpx && zip -q -9 \(folder.path)/bombs.zip zeros.gpx ok.gpx && rm zeros.gpx",
      in: staging)
    try Self.write(try Self.run(day: 7), to: staging.appendingPathComponent("aaaaaaaaaaa.gpx"))
    try Self.shell("zip -q \(folder.path)/evil.zip aaaaaaaaaaa.gpx", in: staging)
    let evil = folder.appendingPathComponent("evil.zip")
    try replacing("aaaaaaaaaaa.gpx", with: "../../../xy.gpx", in: try Data(contentsOf: evil)).write(to: evil)

    let started = ContinuousClock.now
    let result = try runmate(["import", folder.path, "--tz", "UTC"], environment: env)
    #expect(ContinuousClock.now - started < .seconds(30))
    #expect(result.status == 0, "\(result.stderr)")
    let out = result.stdout
    for line in [
      "skipped 1 activity of another sport (cycling): ride.gpx\n",
      "refused bombs.zip: refusing zeros.gpx: it inflates more than 200 times (a zip bomb?)\n",
      "refused bomb.gpx.gz: refusing the gzip data: it inflates more than 200 times (a gzip bomb?)\n",
      "refused cut2.gpx.gz: cannot read the gzip data (the data ends inside a member (truncated?))\n",
      "refused evil.zip: refusing ../../../xy.gpx: its path leaves the archive (absolute, or with '..')\n",
      "3 imported, 0 already in the logbook, 1 of other sports, 5 files refused\n",
    ] {
      #expect(out.contains(line), "\(line) not in \(out)")
    }
    #expect(out.contains("refused cut.gpx:"), "\(out)")
    #expect(!out.contains("notes.txt"), "\(out)")
    #expect(out.contains("imported ok.gpx: Wed 6 Mar"), "\(out)")
    #expect(try ImportCommandTests.runCount(env) == 3)
  }

  /// A bomb or a member climbing out, alone: nothing importable, exit 65, one line, no database.
  @Test func aHostileArchiveAloneChangesNothing() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("runmate.sqlite").path
    try Self.shell("head -c 67108864 /dev/zero | gzip -c > bomb.gpx.gz", in: directory)
    let result = try runmate(["import", "bomb.gpx.gz", "--db", database], in: directory)
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "runmate: bomb.gpx.gz: refusing the gzip data: it inflates more than 200 times (a gzip bomb?)\n")
    #expect(!FileManager.default.fileExists(atPath: database))
  }
}

/// `data` with every occurrence of `old` replaced by `new` (the same length), for names written into archives.
func replacing(_ old: String, with new: String, in data: Data) -> Data {
  var bytes = [UInt8](data)
  let needle = Array(old.utf8)
  let replacement = Array(new.utf8)
  precondition(needle.count == replacement.count, "a name must keep its length")
  var index = 0
  while index + needle.count <= bytes.count {
    if bytes[index..<(index + needle.count)].elementsEqual(needle) {
      bytes.replaceSubrange(index..<(index + needle.count), with: replacement)
      index += needle.count
    } else {
      index += 1
    }
  }
  return Data(bytes)
}
