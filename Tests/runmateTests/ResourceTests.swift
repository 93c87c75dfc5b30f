import Foundation
import RunMateTestSupport
import Testing

/// Issue 21, cases 3 and 8 (hostile suite): unique writes decided by the database, archive imports in one private
/// folder, temporary outputs cleaned by the next run, a full disk and a read-only database. Real processes on private
/// databases; where nothing should change, the database is compared (`sqlite3 .dump`) before and after.
@Suite(.enabled(if: hasSQLite3, "needs sqlite3"), .tags(.endToEnd)) struct ResourceTests {
  /// `chattr +i` works on this file system (as root: chmod does not stop root from writing).
  static let canMakeImmutable: Bool = {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr"),
      let directory = try? temporaryDirectory("runmate-chattr-probe")
    else { return false }
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("probe")
    guard FileManager.default.createFile(atPath: file.path, contents: Data()) else { return false }
    guard (try? ResourceTests.sh("chattr +i '\(file.path)'"))?.status == 0 else { return false }
    _ = try? ResourceTests.sh("chattr -i '\(file.path)'")
    return true
  }()

  /// A private mount namespace with a tmpfs can be made (`unshare -m` as root): the mounts vanish with the shell.
  static let canMountTmpfs: Bool = {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
    let probe = try? sh(
      "unshare -m --propagation private sh -c 'd=$(mktemp -d) && mount -t tmpfs -o size=1m tmpfs \"$d\" && "
        + "umount \"$d\"; rmdir \"$d\"'")
    return probe?.status == 0
  }()

  /// Runs `script` with `sh -c` (`$0`, `$1`, … are `arguments`).
  static func sh(_ script: String, _ arguments: [String] = [], environment: [String: String]? = nil) throws
    -> RunResult
  {
    try runProcess(
      URL(fileURLWithPath: "/bin/sh"), ["-c", script] + arguments, in: URL(fileURLWithPath: "/"),
      environment: environment)
  }

  /// A database with a profile, a saved plan and a logged run; its path.
  static func populated(in directory: URL) throws -> String {
    let db = directory.appendingPathComponent("runmate.sqlite").path
    let env = ["RUNMATE_DB": db]
    let made = [
      try runmate(["profile", "init", "ana", "--tz", "UTC"], environment: env),
      try runmate(
        [
          "plan", "--distance", "10k", "--level", "beginner", "--weeks", "8", "--start", "2027-01-04", "--now",
          "2027-01-01", "--save", "--name", "spring",
        ], environment: env),
      try runmate(
        ["log", "2027-01-05", "--distance", "3.4km", "--time", "22:00", "--now", "2027-01-06"], environment: env),
    ]
    for result in made { #expect(result.status == 0, "\(result.stderr)") }
    return db
  }

  // MARK: - Case 3: unique writes

  /// 20 pairs of concurrent `profile init ana`, each pair on its own new database: exactly one prints "created",
  /// the other says the profile exists (exit 64), and the profile is there and is the default.
  @Test func concurrentProfileInitsCreateOneProfileThatIsTheDefault() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let binary = try runmateBinary()
    for pair in 0..<20 {
      let db = directory.appendingPathComponent("\(pair).sqlite").path
      // The database exists first (its setup is not the race looked at here).
      #expect(try runmate(["profile", "list"], environment: ["RUNMATE_DB": db]).status == 0)
      var environment = ProcessInfo.processInfo.environment
      environment["RUNMATE_DB"] = db
      let env = environment
      let results = ProcessProbe.concurrentMap(Array(0..<2), width: 2) { _ in
        try? runProcess(binary, ["profile", "init", "ana", "--tz", "UTC"], in: directory, environment: env)
      }
      let outcomes = results.compactMap { $0 }
      try #require(outcomes.count == 2)
      let created = outcomes.filter { $0.status == 0 }
      let refused = outcomes.filter { $0.status != 0 }
      #expect(created.map(\.stdout) == ["created runner profile 'ana' (default)\n"], "pair \(pair): \(outcomes)")
      #expect(
        refused.map(\.stderr)
          == ["runmate: profile 'ana' exists: `runmate profile set --profile ana …` changes it\n"],
        "pair \(pair): \(outcomes)")
      #expect(refused.map(\.status) == [64])
      let show = try runmate(["profile", "show"], environment: ["RUNMATE_DB": db])
      #expect(show.stdout.hasPrefix("ana, default profile\n"), "pair \(pair): \(show.stdout)")
    }
  }

  /// A second `profile init` of a name changes nothing in the database; `plans import` of a plan saved already
  /// neither.
  @Test func aNameTakenChangesNothing() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = try Self.populated(in: directory)
    let env = ["RUNMATE_DB": db]
    let shared = directory.appendingPathComponent("spring.json").path
    #expect(try runmate(["plans", "export", "spring", "--out", shared], environment: env).status == 0)
    let before = try sqliteDump(db)
    let again = try runmate(["profile", "init", "ana", "--level", "advanced"], environment: env)
    #expect(again.status == 64)
    #expect(again.stderr == "runmate: profile 'ana' exists: `runmate profile set --profile ana …` changes it\n")
    let imported = try runmate(["plans", "import", shared, "--name", "other"], environment: env)
    #expect(imported.status != 0)
    #expect(imported.stderr.contains("is already saved as 'spring'"), "\(imported.stderr)")
    #expect(try sqliteDump(db) == before)
  }

  // MARK: - Case 8: archive imports

  /// Python 3 (the zips of many members are written by its zipfile module: a file per member on disk first is slow).
  static let hasPython = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")

  /// A zip of `count` real GPX runs on distinct days from 2020-01-01 (`run0.gpx`, …); its path.
  static func zipOfRuns(_ count: Int, in directory: URL) throws -> String {
    let template = directory.appendingPathComponent("run.gpx").path
    try Data(try shortRun().utf8).write(to: URL(fileURLWithPath: template))
    let zip = directory.appendingPathComponent("runs.zip").path
    let script = """
      import datetime, sys, zipfile
      text = open(sys.argv[1]).read()
      with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as z:
          for i in range(int(sys.argv[3])):
              day = (datetime.date(2020, 1, 1) + datetime.timedelta(days=i)).isoformat() + "T"
              z.writestr("run%d.gpx" % i, text.replace("2024-03-05T", day))
      """
    let made = try runProcess(
      URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script, template, zip, String(count)], in: directory)
    try #require(made.status == 0, "\(made.stderr)")
    return zip
  }

  /// The real GPX run (2024-03-05) cut to its first 40 points (a 248 KB file times a thousand members would make
  /// the test slow).
  static func shortRun() throws -> String {
    let run = try ArchiveImportTests.run(day: 5)
    let start = try #require(run.range(of: "<trkpt"))
    let end = try #require(run.range(of: "</trkseg>"))
    let points = run[start.lowerBound..<end.lowerBound].components(separatedBy: "<trkpt").dropFirst().prefix(40)
    return String(run[..<start.lowerBound]) + points.map { "<trkpt" + $0 }.joined() + String(run[end.lowerBound...])
  }

  /// An import reads its members in one private folder and leaves nothing behind; folders left by killed imports
  /// (their process gone, or older than an hour) are removed by the next import, and nothing else is.
  @Test(.enabled(if: hasPython, "needs python3")) func anArchiveImportUsesOneFolderAndCleansKilledOnes() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let temporary = directory.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    let zip = try Self.zipOfRuns(300, in: directory)
    let db = directory.appendingPathComponent("runmate.sqlite").path
    let env = ["RUNMATE_DB": db, "TMPDIR": temporary.path]

    // Planted: the folder of a run whose process is gone, an old one from before the pid was in the name, and
    // things that must stay (a live process's folder, a recent old-style one, other names, a file, not a folder).
    let gone = deadPID()
    let planted = [
      "runmate-import-\(gone)-a1B2c3", "runmate-import-Zz9yX8", "runmate-import-\(getpid())-keepMe",
      "runmate-import-Recent", "runmate-import-other-name", "not-runmate-import-123-abcdef",
    ]
    for name in planted {
      try FileManager.default.createDirectory(
        at: temporary.appendingPathComponent(name).appendingPathComponent("1"), withIntermediateDirectories: true)
    }
    let twoHoursAgo = Date().addingTimeInterval(-7_200)
    try FileManager.default.setAttributes(
      [.modificationDate: twoHoursAgo], ofItemAtPath: temporary.appendingPathComponent("runmate-import-Zz9yX8").path)
    _ = FileManager.default.createFile(
      atPath: temporary.appendingPathComponent("runmate-import-1-abcdef").path, contents: nil)

    let result = try runmate(["import", zip, "--tz", "UTC", "--now", "2026-01-01"], environment: env)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("300 imported, 0 already in the logbook"))
    let left = Set(try FileManager.default.contentsOfDirectory(atPath: temporary.path))
    #expect(
      left == [
        "runmate-import-\(getpid())-keepMe", "runmate-import-Recent", "runmate-import-other-name",
        "not-runmate-import-123-abcdef", "runmate-import-1-abcdef",
      ])
  }

  /// The id of a process that has exited (a child reaped), for a folder "whose process is gone".
  func deadPID() -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try? process.run()
    process.waitUntilExit()
    return process.processIdentifier
  }

  /// kill -9 during an archive import leaves one folder with at most one member file (not one folder per member);
  /// the next import removes it. The database is as before the killed import (one transaction).
  @Test(.enabled(if: hasPython, "needs python3")) func aKilledImportLeavesOneFolderTheNextRunRemoves() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let temporary = directory.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    let zip = try Self.zipOfRuns(1_500, in: directory)
    let db = try Self.populated(in: directory)
    let before = try sqliteDump(db)
    let process = Process()
    process.executableURL = try runmateBinary()
    process.arguments = ["import", zip, "--tz", "UTC", "--now", "2026-01-01"]
    var environment = ProcessInfo.processInfo.environment
    environment["RUNMATE_DB"] = db
    environment["TMPDIR"] = temporary.path
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Killed once it has inflated a few hundred members (its folder's entries come and go meanwhile).
    let deadline = Date().addingTimeInterval(10)
    var members = 0
    while Date() < deadline, process.isRunning, members < 300 {
      if let folder = try FileManager.default.contentsOfDirectory(atPath: temporary.path).first,
        (try? FileManager.default.contentsOfDirectory(atPath: temporary.appendingPathComponent(folder).path)) != nil
      {
        members += 1
      }
      usleep(1_000)
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
    #expect(left.count <= 1, "\(left)")
    for folder in left {
      let inside = try FileManager.default.contentsOfDirectory(atPath: temporary.appendingPathComponent(folder).path)
      #expect(inside.count <= 1, "\(inside)")
    }
    #expect(try sqliteDump(db) == before)
    let next = try runmate(
      [
        "import", ArchiveImportTests.fixtures.appendingPathComponent("gpx/route_2021-01-03_5.53pm.gpx").path,
        "--tz", "UTC", "--now", "2026-01-01",
      ],
      environment: ["RUNMATE_DB": db, "TMPDIR": temporary.path])
    #expect(next.status == 0, "\(next.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
  }

  /// On a full disk (a 1 MiB tmpfs in a private mount namespace, where the machine allows it) a member that cannot
  /// be inflated is refused with a line saying the disk is full, not "No such file or directory".
  @Test(.enabled(if: canMountTmpfs && hasZipTools, "needs unshare and tmpfs (root)"))
  func aMemberOnAFullDiskSaysTheDiskIsFull() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let staging = directory.appendingPathComponent("staging")
    try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
    // A 3 MB run: more than the tmpfs holds.
    let run = try ArchiveImportTests.run(day: 5)
    let start = try #require(run.range(of: "<trkpt"))
    let end = try #require(run.range(of: "</trkseg>"))
    let points = String(run[start.lowerBound..<end.lowerBound])
    let big =
      String(run[..<start.lowerBound]) + String(repeating: points, count: 3_000_000 / max(points.utf8.count, 1))
      + String(run[end.lowerBound...])
    try Data(big.utf8).write(to: staging.appendingPathComponent("big.gpx"))
    let zip = directory.appendingPathComponent("big.zip").path
    try ArchiveImportTests.shell("zip -q '\(zip)' big.gpx", in: staging)
    let db = try Self.populated(in: directory)
    let before = try sqliteDump(db)
    let small = directory.appendingPathComponent("small")
    try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
    let result = try Self.sh(
      "unshare -m --propagation private sh -c 'mount -t tmpfs -o size=1m tmpfs \"$0\" && "
        + "RUNMATE_DB=\"$1\" TMPDIR=\"$0\" \"$2\" import \"$3\" --tz UTC --now 2026-01-01' '\(small.path)' '\(db)' "
        + "'\(try runmateBinary().path)' '\(zip)'")
    #expect(result.status != 0)
    #expect(
      result.stderr.contains("big.zip: cannot read the file (the disk holding the temporary folder \(small.path)/"),
      "\(result.stderr)")
    #expect(result.stderr.contains("is full: free space (or set TMPDIR"), "\(result.stderr)")
    #expect(!result.stderr.contains("No such file"))
    #expect(try sqliteDump(db) == before)
  }

  // MARK: - Case 8: temporary outputs

  /// The next export to an output removes the temporary files killed exports left beside it (only its own: the
  /// exact name pattern, a writer gone or older than a minute); other files stay.
  @Test func theNextExportRemovesTemporaryFilesKilledExportsLeft() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = try Self.populated(in: directory)
    let gone = deadPID()
    let removed = [".plan.ics.runmate-\(gone)-a1B2c3", ".plan.ics.runmate-Zz9yX8"]
    let kept = [
      ".plan.ics.runmate-Recent", ".plan.ics.runmate-\(getpid())-a1B2c3", ".other.ics.runmate-\(gone)-a1B2c3",
      ".plan.ics.runmate-\(gone)-a1B2c3.bak", "plan.ics.runmate-\(gone)-a1B2c3",
    ]
    for name in removed + kept {
      _ = FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: Data("x".utf8))
    }
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(-120)],
      ofItemAtPath: directory.appendingPathComponent(".plan.ics.runmate-Zz9yX8").path)
    let out = directory.appendingPathComponent("plan.ics").path
    let result = try runmate(["export", "--out", out, "--now", "2027-01-01"], environment: ["RUNMATE_DB": db])
    #expect(result.status == 0, "\(result.stderr)")
    let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
    for name in removed { #expect(!left.contains(name), "\(name) is still there") }
    for name in kept { #expect(left.contains(name), "\(name) was removed") }
  }

  // MARK: - Case 8: a full disk

  /// A write that goes over the file size limit (`ulimit -f`, SIGXFSZ ignored: SQLite gets EFBIG and reports
  /// SQLITE_IOERR) says what to do, exits 74, and leaves the database as it was.
  @Test func aWriteOverTheFileSizeLimitSaysWhatToDoAndChangesNothing() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = try Self.populated(in: directory)
    let before = try sqliteDump(db)
    var environment = ProcessInfo.processInfo.environment
    environment["RUNMATE_DB"] = db
    environment["RUNMATE_TEMPLATES"] = repositoryRoot.appendingPathComponent("plan-templates").path
    let result = try Self.sh(
      "trap '' XFSZ; ulimit -f 128; exec \"$0\" plan --distance marathon --level advanced --weeks 20 "
        + "--start 2027-01-04 --now 2027-01-01 --save --name autumn",
      [try runmateBinary().path], environment: environment)
    #expect(result.status == 74, "\(result.stderr)")
    #expect(result.stderr.contains("\(db): disk I/O error"), "\(result.stderr)")
    #expect(result.stderr.contains("free space and run the command again; nothing was written"))
    #expect(try sqliteDump(db) == before)
  }

  /// A database on a full disk (a 1 MiB tmpfs in a private mount namespace, filled to 96 KiB free): a write larger
  /// than that says the disk is full and what to do (exit 74), reads still work, and the database is as before.
  @Test(.enabled(if: canMountTmpfs, "needs unshare and tmpfs (root)"))
  func aDatabaseOnAFullDiskSaysSoAndChangesNothing() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = try Self.populated(in: directory)
    let mount = directory.appendingPathComponent("disk")
    try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
    let script = """
      mount -t tmpfs -o size=1m tmpfs "$0" && cp "$1" "$0/db.sqlite" || exit 99
      free=$(df -k --output=avail "$0" | tail -1)
      head -c $(( (free - 96) * 1024 )) /dev/zero > "$0/filler"
      sqlite3 "$0/db.sqlite" .dump > "$3/before.sql"
      RUNMATE_DB="$0/db.sqlite" "$2" plan --distance marathon --level advanced --weeks 20 --start 2027-01-04 \
        --now 2027-01-01 --save --name autumn
      echo "status $?"
      RUNMATE_DB="$0/db.sqlite" "$2" plans
      sqlite3 "$0/db.sqlite" .dump > "$3/after.sql"
      """
    var environment = ProcessInfo.processInfo.environment
    environment["RUNMATE_TEMPLATES"] = repositoryRoot.appendingPathComponent("plan-templates").path
    let result = try Self.sh(
      "unshare -m --propagation private sh -c '\(script)' \"$@\"",
      ["sh", mount.path, source, try runmateBinary().path, directory.path], environment: environment)
    #expect(
      result.stderr
        == "runmate: the disk holding \(mount.path)/db.sqlite is full: free space and run the command again; "
        + "nothing was written\n")
    #expect(result.stdout.hasPrefix("status 74\n* spring  beginner 10K"), "\(result.stdout)")
    let before = try String(contentsOf: directory.appendingPathComponent("before.sql"), encoding: .utf8)
    let after = try String(contentsOf: directory.appendingPathComponent("after.sql"), encoding: .utf8)
    #expect(before.contains("INSERT INTO profile") && after == before)
  }

  // MARK: - Case 8: a read-only database

  /// A database that cannot be written (as root: `chattr +i` on the file and its folder, since chmod does not stop
  /// root; otherwise mode 0400 in a 0500 folder): the commands that only read work, `export` writes its file and
  /// says the export is not kept, a writing command says the database is read-only (exit 73). Nothing changes.
  @Test(.enabled(if: getuid() != 0 || canMakeImmutable, "as root, needs chattr +i"))
  func aReadOnlyDatabaseServesReadsAndRefusesWrites() throws {
    let directory = try temporaryDirectory()
    let folder = directory.appendingPathComponent("data")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let db = try Self.populated(in: folder)
    let before = try sqliteDump(db)
    func lock(_ locked: Bool) throws {
      let script =
        getuid() == 0
        ? "chattr \(locked ? "+" : "-")i \"$0\" \"$1\""
        : "chmod \(locked ? "0400" : "0600") \"$0\" && chmod \(locked ? "0500" : "0700") \"$1\""
      #expect(try Self.sh(script, [db, folder.path]).status == 0)
    }
    try lock(true)
    defer {
      try? lock(false)
      try? FileManager.default.removeItem(at: directory)
    }
    let env = ["RUNMATE_DB": db]
    for arguments in [
      ["today", "--now", "2027-01-05"], ["week", "--now", "2027-01-05"], ["progress", "--now", "2027-01-06"],
      ["plans"], ["profile", "show"], ["profile", "list"], ["log", "list"],
    ] {
      let result = try runmate(arguments, environment: env)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      #expect(!result.stdout.isEmpty, "\(arguments)")
    }
    let out = directory.appendingPathComponent("plan.ics").path
    let export = try runmate(["export", "--out", out, "--now", "2027-01-01"], environment: env)
    #expect(export.status == 0, "\(export.stderr)")
    #expect(export.stderr.contains("is read-only, so this export is not kept in it"), "\(export.stderr)")
    #expect(FileManager.default.fileExists(atPath: out))
    for arguments in [
      ["log", "2027-01-07", "--distance", "5km", "--time", "30:00", "--now", "2027-01-08"],
      ["profile", "init", "bo"], ["profile", "set", "--level", "advanced"], ["plans", "delete", "spring"],
    ] {
      let result = try runmate(arguments, environment: env)
      #expect(result.status == 73, "\(arguments): \(result.stderr)")
      #expect(
        result.stderr
          == "runmate: \(db): the database is read-only (its file, its folder or its disk cannot be written); "
          + "nothing was written: make it writable, or give another --db\n", "\(arguments)")
    }
    #expect(!FileManager.default.fileExists(atPath: db + "-wal"))
    try lock(false)
    #expect(try sqliteDump(db) == before)
  }
}
