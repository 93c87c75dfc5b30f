import Foundation
import RunMateTestSupport
import Testing

/// Starts `runmate` once per argument list, all at once, and waits for every one.
func runmateAtOnce(
  _ argumentLists: [[String]], in directory: URL = repositoryRoot,
  environment: [String: String] = [:]
) throws -> [RunResult] {
  var env = ProcessInfo.processInfo.environment
  env["RUNMATE_TEMPLATES"] = nil
  env["SOURCE_DATE_EPOCH"] = nil
  // The template cache of this test process, as `runmate(_:)` gives, not the user's (~/.cache/runmate).
  env["XDG_CACHE_HOME"] = testDataHome.appendingPathComponent("cache").path
  for (key, value) in environment { env[key] = value }
  let binary = try runmateBinary()
  var started: [(process: Process, out: Pipe, err: Pipe)] = []
  for arguments in argumentLists {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    started.append((process, out, err))
  }
  for entry in started { try entry.process.run() }
  return started.map { entry in
    // Outputs are a few lines: reading one to its end while the others run cannot fill their pipes.
    let outData = entry.out.fileHandleForReading.readDataToEndOfFile()
    let errData = entry.err.fileHandleForReading.readDataToEndOfFile()
    entry.process.waitUntilExit()
    return RunResult(
      stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
      status: entry.process.terminationStatus)
  }
}

/// Several `runmate` processes on one database at once, and files that are not ours: nothing lost, nothing doubled,
/// no false message, and a foreign or damaged file left exactly as it was.
@Suite(.tags(.endToEnd)) struct ConcurrencyTests {
  /// `python3` runs (to make another program's SQLite file).
  static let hasPython = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")

  /// Writes an Apple Health export with `runs` running workouts (one a day from 2021-01-01) and a step count a day.
  func writeHealthExport(to url: URL, runs: Int) throws {
    var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<HealthData locale=\"en_US\">"]
    for index in 0..<runs {
      let day = "2021-\(String(format: "%02d", index / 28 + 1))-\(String(format: "%02d", index % 28 + 1))"
      lines.append(
        " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Watch\" unit=\"count\" "
          + "startDate=\"\(day) 10:00:00 +0000\" endDate=\"\(day) 10:10:00 +0000\" value=\"\(4000 + index)\"/>")
      lines.append(
        " <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" "
          + "duration=\"30\" durationUnit=\"min\" "
          + "totalDistance=\"\(5 + Double(index % 10) / 10)\" totalDistanceUnit=\"km\" sourceName=\"Watch\" "
          + "startDate=\"\(day) 07:00:00 +0000\" endDate=\"\(day) 07:30:00 +0000\"/>")
    }
    lines.append("</HealthData>")
    try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
  }

  /// The directory's entries with their sizes and modes.
  func listing(_ directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map { name in
      let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
      let size = (attributes[.size] as? NSNumber)?.intValue ?? -1
      let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
      return "\(name) \(size) \(String(mode, radix: 8))"
    }
  }

  func mode(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }

  @Test func twoHealthImportsOfOneFileAtOnceStoreEachRunOnce() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("runmate.sqlite").path
    let export = directory.appendingPathComponent("export.xml")
    try writeHealthExport(to: export, runs: 120)
    for round in 0..<3 {
      try? FileManager.default.removeItem(atPath: db)
      #expect(try runmate(["log", "list", "--db", db]).status == 0)
      let results = try runmateAtOnce(
        Array(
          repeating: ["health", "import", export.path, "--tz", "UTC", "--db", db],
          count: 2))
      for result in results {
        #expect(result.status == 0 && result.stderr.isEmpty, "round \(round): \(result.stderr)")
      }
      let outputs = results.map(\.stdout).sorted()
      #expect(
        outputs == [
          "imported \(export.path): 120 records, 0 new days, 0 updated, 0 new measurements, 0 new runs\n",
          "imported \(export.path): 120 records, 120 new days, 0 updated, 0 new measurements, 120 new runs\n",
        ], "round \(round)")
      let list = try runmate(["log", "list", "--db", db])
      #expect(list.stdout.split(separator: "\n").count == 120, "round \(round)")
    }
  }

  @Test func twentyFirstUsesOfANewPathAtOnceAllLand() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("new/sub/runmate.sqlite").path
    let days = (1...20).map { "2027-01-\(String(format: "%02d", $0))" }
    let results = try runmateAtOnce(
      days.map {
        ["log", $0, "--distance", "5km", "--time", "30:00", "--now", "2027-02-01", "--db", db]
      })
    for (day, result) in zip(days, results) {
      #expect(result.status == 0, "\(day): \(result.stderr)")
      #expect(result.stderr.isEmpty, "\(day): \(result.stderr)")
      #expect(result.stdout.hasPrefix("Logged run "), "\(day): \(result.stdout)")
    }
    let list = try runmate(["log", "list", "--db", db])
    let logged = Set(list.stdout.split(separator: "\n").map { $0.split(separator: "\t")[1] })
    #expect(logged == Set(days.map { Substring($0) }), "\(list.stdout)")
    #expect(try mode(db) == 0o600)
    #expect(try mode(directory.appendingPathComponent("new").path) == 0o700)
    #expect(try mode(directory.appendingPathComponent("new/sub").path) == 0o700)
  }

  @Test func tenLogsOfOneDayAtOnceMatchEachPlannedWorkoutOnce() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let planned = directory.appendingPathComponent("planned.sqlite")
    let saved = try runmate([
      "plan", "--distance", "10k", "--level", "beginner", "--weeks", "8",
      "--start", "2027-01-04", "--now", "2027-01-01", "--save", "--name", "spring",
      "--db", planned.path,
    ])
    #expect(saved.status == 0, "\(saved.stderr)")
    // A few rounds, each on a fresh copy: the race this guards against does not show every time.
    for round in 0..<3 {
      let db = directory.appendingPathComponent("round\(round).sqlite").path
      try FileManager.default.copyItem(atPath: planned.path, toPath: db)
      let results = try runmateAtOnce(
        Array(
          repeating: [
            "log", "2027-01-05", "--distance", "3.4km", "--time", "22:00",
            "--now", "2027-01-06", "--db", db,
          ], count: 10))
      for result in results { #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)") }
      let rows = try runmate(["log", "list", "--db", db]).stdout.split(separator: "\n")
      #expect(rows.count == 10)
      let matched = rows.map { String($0.split(separator: "\t")[5]) }.filter { $0 != "unplanned" }
      #expect(!matched.isEmpty)
      #expect(matched.count == Set(matched).count, "round \(round): a workout matched twice: \(matched)")
      // What each process said agrees with what was stored.
      #expect(results.filter { $0.stdout.contains("\nMatched ") }.count == matched.count)
    }
  }

  @Test(.enabled(if: hasPython, "needs python3 (scripts/apt-packages.txt)"))
  func aForeignOrDamagedFileIsLeftExactlyAsItWas() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    // Our own database, then damaged: page 2 zeroed (its header still says RunningMate).
    let ours = directory.appendingPathComponent("ours.sqlite")
    #expect(
      try runmate([
        "log", "2027-01-02", "--distance", "5km", "--time", "30:00", "--now", "2027-01-03",
        "--db", ours.path,
      ]).status == 0)
    var bytes = try Data(contentsOf: ours)
    try #require(bytes.count >= 8192)
    bytes.replaceSubrange(4096..<8192, with: Data(count: 4096))
    try bytes.write(to: directory.appendingPathComponent("damaged.sqlite"))
    try FileManager.default.removeItem(at: ours)
    // SQLite's 16 magic bytes, then noise.
    var junk = Data("SQLite format 3\u{0}".utf8)
    junk.append(Data((0..<4080).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }))
    try junk.write(to: directory.appendingPathComponent("junk.sqlite"))
    try Data("name,distance\nmonday,5\n".utf8).write(to: directory.appendingPathComponent("text.sqlite"))
    // Another program's databases, one in WAL mode (closed, so without -wal / -shm).
    for (name, pragma) in [("foreign.sqlite", ""), ("foreign-wal.sqlite", "c.execute('pragma journal_mode=wal');")] {
      let make = Process()
      make.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
      make.arguments = [
        "-c",
        "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); \(pragma)"
          + "c.execute('create table notes(x)'); c.execute(\"insert into notes values ('hi')\"); c.commit(); c.close()",
        directory.appendingPathComponent(name).path,
      ]
      try make.run()
      make.waitUntilExit()
      #expect(make.terminationStatus == 0)
    }
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
      try FileManager.default.setAttributes(
        [.posixPermissions: 0o644],
        ofItemAtPath: directory.appendingPathComponent(name).path)
    }
    let expected = [
      "damaged.sqlite": "not a readable RunningMate database (",
      "junk.sqlite": "not a readable RunningMate database (the SQLite header is damaged)",
      "text.sqlite": "not a readable RunningMate database (the file is not an SQLite database)",
      "foreign.sqlite": "this SQLite database belongs to another program, not RunningMate; give another --db path",
      "foreign-wal.sqlite": "this SQLite database belongs to another program, not RunningMate; give another --db path",
    ]
    let before = try listing(directory)
    var contents: [String: Data] = [:]
    for name in expected.keys { contents[name] = try Data(contentsOf: directory.appendingPathComponent(name)) }
    for (name, message) in expected.sorted(by: { $0.key < $1.key }) {
      let path = directory.appendingPathComponent(name).path
      let logOne = ["log", "2027-01-02", "--distance", "5km", "--time", "30:00", "--now", "2027-01-03"]
      for arguments in [["log", "list"], logOne] {
        let result = try runmate(arguments + ["--db", path])
        #expect(result.status == 65, "\(name): \(result.stderr)")
        #expect(result.stderr.hasPrefix("runmate: \(path): \(message)"), "\(name): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
      }
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == contents[name], "\(name) was changed")
    }
    #expect(try listing(directory) == before)
  }

  @Test func anExistingDatabaseIsMadePrivate() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("runmate.sqlite").path
    #expect(try runmate(["log", "list", "--db", db]).status == 0)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: db)
    let list = try runmate(["log", "list", "--db", db])
    #expect(list.status == 0, "\(list.stderr)")
    #expect(try mode(db) == 0o600)
  }

  @Test(.enabled(if: hasPython, "needs python3 (scripts/apt-packages.txt)"))
  func aRunNoOneCanRunStoredByAnOlderVersionListsAndDeletes() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("runmate.sqlite").path
    #expect(
      try runmate([
        "log", "2027-01-02", "--distance", "5km", "--time", "30:00", "--now", "2027-01-03",
        "--db", db,
      ]).status == 0)
    let insert = Process()
    insert.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    insert.arguments = [
      "-c",
      "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"insert into completion "
        + "(date, distanceKm, durationSeconds, source) values ('2027-01-03', 1e21, 1e300, 'manual')\"); c.commit()", db,
    ]
    try insert.run()
    insert.waitUntilExit()
    #expect(insert.terminationStatus == 0)
    let list = try runmate(["log", "list", "--db", db])
    #expect(list.status == 0, "\(list.stderr)")
    #expect(list.stdout.hasSuffix("2\t2027-01-03\t1e+21 km\t--:--\tmanual\tunplanned\n"), "\(list.stdout)")
    let logged = try runmate([
      "log", "2027-01-04", "--distance", "5km", "--time", "30:00", "--now", "2027-01-05",
      "--db", db,
    ])
    #expect(logged.status == 0, "\(logged.stderr)")
    let removed = try runmate(["log", "delete", "2", "--db", db])
    #expect(removed.stdout == "removed run 2: Sun 3 Jan, 1e+21 km\n", "\(removed.stderr)")
  }
}
