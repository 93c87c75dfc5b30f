import Foundation
import RunMateTestSupport
import Testing

/// Issue 21, "refuse at the door": time zones no calendar can be written in, control bytes in numbers, a workout
/// that ends before it starts, and a YAML alias bomb, each through the real `runmate` on a copy of the seeded
/// logbook (``HostileHarness``: exit status, one `runmate: ` line naming the field, and the database's dump
/// compared before and after wherever nothing may change).
@Suite(.serialized, .tags(.endToEnd)) struct RefusedAtTheDoorTests {
  @Test func timeZonesAreCheckedWhereverTheyAreGiven() throws {
    try HostileHarness.check(Self.timeZones)
  }

  @Test func numbersAndWorkoutsAreReadOrRefusedAloud() throws {
    try HostileHarness.check(Self.healthFiles)
  }

  @Test func aYAMLAliasBombIsRefusedAtOnce() throws {
    try HostileHarness.check(Self.templateBombs)
  }

  static let goal = ["--distance", "half", "--level", "beginner", "--weeks", "12", "--now", "2027-01-01"]

  /// The zone of the seeded profile and of its plan's saved settings, rewritten as an older version let them be.
  static let savedBadZone: [HostileRow.Step] = [
    .sql("UPDATE profile SET profileJSON = json_set(profileJSON, '$.timeZone', 'GMT+0200')"),
    .sql("UPDATE plan SET scheduleJSON = json_set(coalesce(scheduleJSON, '{}'), '$.timeZone', 'GMT+0200')"),
    .sql("DELETE FROM scheduledWorkout"),
  ]

  static let timeZones: [HostileRow] = [
    HostileRow(
      name: "profile init --tz UTC+2", arguments: ["profile", "init", "bea", "--tz", "UTC+2"], expect: .exit(64),
      mentions: ["--tz", "'UTC+2'", "Etc/GMT-2", "inverted sign"]),
    HostileRow(
      name: "profile set --tz GMT+0200", arguments: ["profile", "set", "--tz", "GMT+0200"], expect: .exit(64),
      mentions: ["--tz", "did you mean 'Etc/GMT-2'"]),
    HostileRow(
      name: "profile set --tz a zoneinfo path", arguments: ["profile", "set", "--tz", "posix/Europe/Berlin"],
      expect: .exit(64), mentions: ["--tz", "posix/Europe/Berlin"]),
    HostileRow(
      name: "plan without --save --tz Mars/Olympus", arguments: ["plan"] + goal + ["--tz", "Mars/Olympus"],
      expect: .exit(64), mentions: ["--tz", "'Mars/Olympus'", "Europe/Berlin"]),
    HostileRow(
      name: "plan --save --tz UTC+2", arguments: ["plan"] + goal + ["--save", "--name", "x", "--tz", "UTC+2"],
      expect: .exit(64), mentions: ["--tz", "Etc/GMT-2"]),
    HostileRow(
      name: "export --tz Europe/Berln", arguments: ["export", "--out", "{dir}/x.ics", "--tz", "Europe/Berln"],
      expect: .exit(64), mentions: ["--tz", "did you mean 'Europe/Berlin'"],
      checks: [noFile("x.ics")]),
    HostileRow(
      name: "schedule --tz utc+2", arguments: ["schedule", "--tz", "utc+2"], expect: .exit(64),
      mentions: ["--tz", "Etc/GMT-2"]),
    HostileRow(
      name: "health import --tz UTC+2", arguments: ["health", "import", "days.csv", "--tz", "UTC+2"],
      expect: .exit(64), mentions: ["--tz"]),
    HostileRow(
      name: "import --tz Mars/Olympus",
      arguments: ["import", "{activity}/gpx/twin-of-tcx-run.gpx", "--tz", "Mars/Olympus"],
      expect: .exit(64), mentions: ["--tz", "Mars/Olympus"]),
    HostileRow(
      name: "plan --tz Etc/GMT-2 is a zone", arguments: ["plan"] + goal + ["--tz", "Etc/GMT-2", "--at", "07:00"],
      expect: .succeeds),
    HostileRow(
      name: "export of a zone saved bad by an older version", arguments: ["export", "--out", "{dir}/x.ics"],
      expect: .exit(65), setup: savedBadZone,
      mentions: ["'GMT+0200'", "runmate profile set --tz Etc/GMT-2", "runmate schedule --tz Etc/GMT-2"],
      checks: [noFile("x.ics")]),
    HostileRow(
      name: "today with a zone saved bad by an older version", arguments: ["today", "--now", "2027-01-05"],
      expect: .exit(65), setup: savedBadZone, mentions: ["'GMT+0200'", "runmate profile set --tz"]),
  ]

  static let healthFiles: [HostileRow] = [
    csvRefused(
      "a NUL inside a CSV number", file: "nul.csv", row: "2027-01-07,81\0 23,1,2", column: "steps", byte: "0x00"),
    csvRefused(
      "an escape inside a CSV number", file: "esc.csv", row: "2027-01-07,8000,1\u{1B}2,2", column: "distance_km",
      byte: "0x1B"),
    HostileRow(
      name: "a workout that ends before it starts",
      arguments: ["health", "import", "export.xml", "--tz", "UTC", "--now", "2027-01-31"],
      expect: .succeeds,
      setup: [.files { try Data(backwardsWorkout.utf8).write(to: $0.appendingPathComponent("export.xml")) }],
      prints: [
        "1 new runs",
        "skipped 1 workout that could not be read (Running of 2027-01-08 07:00:00 +0000: its endDate "
          + "2027-01-08 06:00:00 +0000 is before its startDate)",
      ], writes: true),
  ]

  /// `health import FILE` of a daily CSV whose one row holds a control character in `column`: exit 65 naming the
  /// file and line 2, the column and the byte.
  static func csvRefused(_ name: String, file: String, row: String, column: String, byte: String) -> HostileRow {
    HostileRow(
      name: name, arguments: ["health", "import", file, "--tz", "UTC"], expect: .exit(65),
      setup: [
        .files {
          try Data("date,steps,distance_km,active_kcal\n\(row)\n".utf8).write(to: $0.appendingPathComponent(file))
        }
      ],
      mentions: ["\(file):2", column, "control character (\(byte))"])
  }

  /// Two runs: one as recorded, one whose end is an hour before its start.
  static let backwardsWorkout = """
    <?xml version="1.0" encoding="UTF-8"?>
    <HealthData locale="en_US">
     <ExportDate value="2027-01-10 10:00:00 +0000"/>
     <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="40" durationUnit="min" \
    totalDistance="7" totalDistanceUnit="km" sourceName="Watch" startDate="2027-01-07 07:00:00 +0000" \
    endDate="2027-01-07 07:40:00 +0000"/>
     <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="60" durationUnit="min" \
    totalDistance="9" totalDistanceUnit="km" sourceName="Watch" startDate="2027-01-08 07:00:00 +0000" \
    endDate="2027-01-08 06:00:00 +0000"/>
    </HealthData>

    """

  /// The shipped templates with one more file beside them.
  static func templates(plus name: String, _ text: String) -> HostileRow.Step {
    .files { directory in
      let copy = directory.appendingPathComponent("templates")
      try FileManager.default.copyItem(atPath: HostileHarness.templates, toPath: copy.path)
      try Data(text.utf8).write(to: copy.appendingPathComponent(name))
    }
  }

  /// A 1 MB scalar aliased 2,000 times (2 GB once expanded), and a billion laughs (10 aliases of 10 aliases, 9
  /// levels deep) in 1 KB.
  static let templateBombs: [HostileRow] = {
    let scalar = "schemaVersion: 1\nbig: &a \"" + String(repeating: "x", count: 1_000_000) + "\"\n"
    let wide = scalar + "many: [" + Array(repeating: "*a", count: 2_000).joined(separator: ", ") + "]\n"
    var laughs = "schemaVersion: 1\nl0: &l0 [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n"
    for level in 1...9 {
      laughs +=
        "l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
    }
    let big = "schemaVersion: 1\n# " + String(repeating: "x", count: 1 << 21) + "\n"
    let limits = ProcessProbe.Limits(seconds: 5, memoryMiB: 150)
    func fast(_ seconds: Double) -> @Sendable (URL, ProcessProbe.Result) -> String? {
      // CPU time, not wall time: the bound is on the program's work, whatever else the machine is doing.
      { _, result in
        guard result.cpuSeconds > 0 else { return "no CPU time measured" }
        return result.cpuSeconds < seconds ? nil : "took \(result.cpuSeconds) s of CPU time"
      }
    }
    return [
      HostileRow(
        name: "templates check: a 1 MB scalar aliased 2,000 times",
        arguments: ["templates", "check", "{dir}/templates"], expect: .exit(65),
        setup: [templates(plus: "bomb.yaml", wide)], mentions: ["bomb.yaml", "too large", "aliases expanded"],
        limits: limits, checks: [fast(1)]),
      HostileRow(
        name: "templates check: a billion laughs",
        arguments: ["templates", "check", "{dir}/templates"], expect: .exit(65),
        setup: [templates(plus: "laughs.yaml", laughs)], mentions: ["laughs.yaml", "too large", "nodes"],
        limits: limits, checks: [fast(1)]),
      HostileRow(
        name: "plan with a 2 MiB template file",
        arguments: ["plan", "--templates", "{dir}/templates"] + goal, expect: .exit(65),
        setup: [templates(plus: "big.yaml", big)], mentions: ["big.yaml", "at most 1048576 bytes"],
        limits: limits, checks: [fast(1)]),
    ]
  }()

  /// A check that `name` was not written in the row's directory.
  static func noFile(_ name: String) -> @Sendable (URL, ProcessProbe.Result) -> String? {
    { directory, _ in
      FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path) ? "\(name) was written" : nil
    }
  }
}
