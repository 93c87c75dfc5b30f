import Foundation
import RunMateTestSupport

/// A hostile value for an option: numbers that are not numbers, out-of-range numbers, words, nothing, far too
/// much, and terminal escapes.
enum HostileValue: String, CaseIterable, Sendable {
  case nan, inf
  case negativeInf = "-inf"
  case e309 = "1e309"
  case minusOne = "-1"
  case zero = "0"
  case huge, empty, word, long, control

  var text: String {
    switch self {
    case .nan: "nan"
    case .inf: "inf"
    case .negativeInf: "-inf"
    case .e309: "1e309"
    case .minusOne: "-1"
    case .zero: "0"
    case .huge: "99999999999999999999"
    case .empty: ""
    case .word: "abc"
    case .long: String(repeating: "x", count: 100_000)
    case .control: "a\u{1B}[31mb\nc\u{07}"
    }
  }

  /// Every value, for numbers, dates, times and ids.
  static let all = allCases
  /// For words and names: the number-like values are just words there.
  static let textual: [HostileValue] = [.empty, .word, .long, .control]
  /// For numbers whose parser another option's sweep already covers with `all`.
  static let numbers: [HostileValue] = [.nan, .inf, .e309, .minusOne, .huge]
  /// For options parsed the same way as one already swept with `all`: the words plus a few numbers.
  static func textual(and numbers: HostileValue...) -> [HostileValue] { textual + numbers }
}

/// The rows: the probe's findings, and the broad table of hostile cases.
enum HostileTable {
  typealias Row = HostileRow

  static let goal = ["--distance", "10k", "--level", "beginner", "--weeks", "10", "--start", "2027-01-04"]
  static let everyDay = ["--days", "mon,tue,wed,thu,fri,sat,sun", "--long-run-day", "sun"]
  static let plan = ["plan"] + goal
  static let schedule = ["schedule"] + goal + everyDay
  static let export = ["export"] + goal + everyDay + ["--out", "plan.ics", "--now", "2027-01-01"]
  static let log = ["log", "2027-01-05", "--distance", "8.2km", "--time", "47:30", "--now", "2027-01-06"]

  /// A setup step writing `text` to `name` in the row's directory.
  static func file(_ name: String, _ text: String) -> Row.Step {
    .files { directory in
      let url = directory.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
  }

  static func file(_ name: String, bytes: @escaping @Sendable () -> Data) -> Row.Step {
    .files { directory in try bytes().write(to: directory.appendingPathComponent(name)) }
  }

  /// `base` with `option` set to `value` (as `--option=value`, so that `-1` is a value, not an option).
  static func with(_ base: [String], _ option: String, _ value: String) -> [String] {
    var arguments: [String] = []
    var skip = false
    for argument in base {
      if skip {
        skip = false
        continue
      }
      if argument == option {
        skip = true
        continue
      }
      arguments.append(argument)
    }
    return arguments + ["\(option)=\(value)"]
  }

  /// The bounds of a command that reads options and a small database: a debug build needs well under a second.
  static let trivial = ProcessProbe.Limits(seconds: 5, memoryMiB: 150)

  /// One row per value: `place` puts the value into the command line. Values in `valid` may succeed.
  static func sweep(
    _ label: String, _ values: [HostileValue], valid: Set<HostileValue> = [], mention: String?,
    writes: Bool = false, database: Row.Database = .seeded, setup: [Row.Step] = [],
    _ place: (String) -> [String]
  ) -> [Row] {
    values.map { value in
      Row(
        name: "\(label)=\(value.rawValue)", arguments: place(value.text),
        expect: valid.contains(value) ? .either : .fails, database: database, setup: setup,
        mentions: valid.contains(value) ? [] : mention.map { [$0] } ?? [], limits: trivial, writes: writes)
    }
  }

  /// `sweep` over an option of `base`.
  static func sweepOption(
    _ base: [String], _ option: String, _ values: [HostileValue], valid: Set<HostileValue> = [],
    mention: Bool = true, writes: Bool = false, setup: [Row.Step] = []
  ) -> [Row] {
    let command = base.prefix { word in word.allSatisfy { $0.isLetter } }.joined(separator: " ")
    return sweep(
      "\(command) \(option)", values, valid: valid, mention: mention ? option : nil, writes: writes,
      setup: setup
    ) { with(base, option, $0) }
  }

  // MARK: The probe's findings

  static let probeFindings: [Row] = {
    var rows: [Row] = [
      Row(
        name: "import TCX trackpoint distance 1e21",
        arguments: ["import", "run.tcx", "--tz", "UTC"], expect: .exit(65),
        setup: [file("run.tcx", HostileFiles.tcx(distances: ["0", "1000", "1e21"]))], mentions: ["run.tcx"]),
      Row(
        name: "import TCX negative distance",
        arguments: ["import", "run.tcx", "--tz", "UTC"], expect: .exit(65),
        setup: [file("run.tcx", HostileFiles.tcx(distances: ["0", "-500", "-1000"], lapDistance: "-1000"))],
        mentions: ["run.tcx"]),
      Row(
        name: "import GPX antipodes 1 s apart",
        arguments: ["import", "run.gpx", "--tz", "UTC"], expect: .exit(65),
        setup: [
          file(
            "run.gpx",
            HostileFiles.gpx([
              ("0.0", "0.0", "2027-01-05T07:00:00Z"),
              ("0.0", "180.0", "2027-01-05T07:00:01Z"),
            ]))
        ],
        mentions: ["run.gpx"]),
      Row(
        name: "health import CSV 1e19 steps",
        arguments: ["health", "import", "steps.csv", "--tz", "UTC"], expect: .exit(65),
        setup: [file("steps.csv", HostileFiles.healthCSV(["2027-01-06,1e19,5,300"]))], mentions: ["steps.csv"]),
      Row(
        name: "report --html the database",
        arguments: ["report", "--html", "{db}", "--now", "2027-01-20"], expect: .fails, untouched: true),
      Row(
        name: "report --html the database's -wal",
        arguments: ["report", "--html", "{db}-wal", "--now", "2027-01-20"], expect: .fails, untouched: true,
        checks: [HostileChecks.absent("{db}-wal")]),
      Row(
        name: "report --html the database's -shm",
        arguments: ["report", "--html", "{db}-shm", "--now", "2027-01-20"], expect: .fails, untouched: true,
        checks: [HostileChecks.absent("{db}-shm")]),
      Row(
        name: "health import zip bomb (whitespace)",
        arguments: ["health", "import", "export.zip", "--tz", "UTC"], expect: .exit(65),
        setup: [
          file("export.zip") {
            HostileFiles.zipBomb(
              head: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n",
              fill: 0x20, count: 3 << 30, tail: "\n</HealthData>\n")
          }
        ]),
      Row(
        name: "health import zip bomb (one attribute)",
        arguments: ["health", "import", "export.zip", "--tz", "UTC"], expect: .exit(65),
        setup: [
          file("export.zip") {
            HostileFiles.zipBomb(
              head: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
                + "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"",
              fill: 0x41, count: 3 << 30, tail: "\" unit=\"count\" value=\"1\"/>\n</HealthData>\n")
          }
        ]),
      Row(
        name: "export --out into a missing directory",
        arguments: Array(export.dropLast(4)) + ["--out", "{dir}/missing/plan.ics", "--now", "2027-01-01"],
        expect: .exit(73), mentions: ["missing/plan.ics"]),
      Row(
        name: "export over a 0600 calendar keeps its mode",
        arguments: with(export, "--now", "2027-01-02"), expect: .succeeds,
        setup: [
          .runmate(export),
          .files { directory in
            try FileManager.default.setAttributes(
              [.posixPermissions: 0o600],
              ofItemAtPath: directory.appendingPathComponent("plan.ics").path)
          },
        ], writes: true, checks: [HostileChecks.mode("plan.ics", is: 0o600)]),
      Row(
        name: "export --out a file that is not a calendar",
        arguments: with(export, "--out", "notes.txt"), expect: .fails,
        setup: [file("notes.txt", "TOP-SECRET diary entry: 6 x 400 m\nsecond line\n")], mentions: ["notes.txt"],
        neverPrints: ["TOP-SECRET"],
        checks: [HostileChecks.fileIs("notes.txt", Data("TOP-SECRET diary entry: 6 x 400 m\nsecond line\n".utf8))]),
      Row(
        name: "plan --templates with a duplicate YAML key",
        arguments: ["plan", "--templates", "{dir}/tpl"] + goal, expect: .exit(65),
        setup: [
          .files { directory in
            let folder = directory.appendingPathComponent("tpl")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try copyTemplates(to: folder, editing: "10k.yaml") { $0 + "distance: 5k\n" }
          }
        ], mentions: ["10k.yaml"]),
      Row(
        name: "plan --start 9999-12-27", arguments: with(plan, "--start", "9999-12-27"), expect: .exit(64),
        mentions: ["--start"]),
      Row(
        name: "schedule --start 9999-12-27", arguments: with(schedule, "--start", "9999-12-27"), expect: .exit(64),
        mentions: ["--start"]),
      Row(
        name: "export --start 9999-12-27", arguments: with(export, "--start", "9999-12-27"), expect: .exit(64),
        mentions: ["--start"]),
      Row(
        name: "profile init --email javascript:",
        arguments: ["profile", "init", "mallory", "--coach", "--email", "javascript:alert(1)@x.com"],
        expect: .exit(64), mentions: ["--email"]),
      Row(
        name: "profile init a coach name with escapes",
        arguments: ["profile", "init", "ev\u{1B}[2Jil\u{1B}]0;owned\u{07}", "--coach"], expect: .either,
        writes: true),
      Row(
        name: "profile init a bio with a newline and escapes",
        arguments: ["profile", "init", "mallory", "--coach", "--bio", "nice\nINJECTED\u{1B}[31m red"],
        expect: .either, writes: true, checks: [HostileChecks.noLineStarts(with: "INJECTED")]),
      Row(
        name: "profile set a bio with a newline and escapes",
        arguments: ["profile", "set", "--profile", "carl", "--bio", "nice\nINJECTED\u{1B}[31m red"],
        expect: .either, writes: true, checks: [HostileChecks.noLineStarts(with: "INJECTED")]),
    ]
    for command in [plan, schedule, export] {
      for option in ["--current-weekly-km", "--longest-recent-run-km"] {
        for value in ["nan", "inf", "-inf", "1e309"] {
          rows.append(
            Row(
              name: "\(command[0]) \(option) \(value)", arguments: with(command, option, value),
              expect: .exit(64), mentions: [option]))
        }
      }
    }
    // A corrupt database and a foreign SQLite file are refused and left exactly as they were.
    let corrupt: Row.Step = .files { directory in
      var bytes = Data("SQLite format 3\u{0}".utf8)
      bytes.append(HostileFiles.garbage(count: 8192 - 16))
      try bytes.write(to: directory.appendingPathComponent(HostileHarness.databaseName))
    }
    let foreign: Row.Step = .sql(
      "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); "
        + "INSERT INTO notes (text) VALUES ('not a logbook');")
    for (label, step) in [("corrupt", corrupt), ("foreign", foreign)] {
      for command in [
        ["log", "list"], log, ["plans"], ["profile", "list"], ["health", "--now", "2027-01-06"],
        ["import", "{activity}/gpx/two-segments.gpx", "--tz", "UTC"], export,
      ] {
        rows.append(
          Row(
            name: "\(label) --db: \(command.prefix(2).joined(separator: " "))",
            arguments: command + ["--db", "{db}"], expect: .exit(65), database: .none, setup: [step],
            untouched: true))
      }
    }
    // Profiles whose text carries newlines and escapes (another program wrote them) never reach the terminal raw.
    let hostileBio: Row.Step = .sql(
      "UPDATE profile SET profileJSON = json_set(profileJSON, '$.bio', "
        + "'nice' || char(10) || 'INJECTED' || char(27) || '[2J', "
        + "'$.specialty', 'trail' || char(27) || ']0;x' || char(7)) "
        + "WHERE name = 'carl';")
    let hostileName: Row.Step = .sql(
      "UPDATE profile SET name = 'carl' || char(27) || '[31m' || char(10) || 'INJECTED', "
        + "profileJSON = json_set(profileJSON, '$.name', 'carl' || char(27) || '[31m' || char(10) || 'INJECTED') "
        + "WHERE name = 'carl';")
    for (label, step, commands) in [
      (
        "bio", hostileBio,
        [
          ["coach", "show", "--profile", "carl"], ["profile", "show", "--profile", "carl"],
          ["coaches"], ["coaches", "--search", "trail"],
        ]
      ),
      ("name", hostileName, [["profile", "list"], ["coaches"], ["coach", "athletes", "--profile", "anna"]]),
    ] {
      for command in commands {
        rows.append(
          Row(
            name: "hostile coach \(label): \(command.joined(separator: " "))", arguments: command,
            expect: .either, setup: [step], checks: [HostileChecks.noLineStarts(with: "INJECTED")]))
      }
    }
    return rows
  }()

  // MARK: The broad table

  static let broad: [Row] =
    commandLine + optionSweeps + activityFiles + healthFiles + calendarFiles + templateDirs
    + databases + datesAndTimes

  /// Unknown commands and options, missing values and arguments.
  static let commandLine: [Row] = [
    ["frobnicate"], ["plna"], [""], ["-"], ["--frobnicate"], ["plan", "--frobnicate"], ["plan", "--distance"],
    ["log", "--distance"], ["log", "delete"], ["log", "delete", "abc"], ["log", "delete", "--", "-5"],
    ["log", "delete", "99999999999999999999"], ["health", "import"], ["import"], ["export"] + goal,
    ["plans", "activate"], ["plans", "show", "nope"], ["coach", "frobnicate"], ["coach", "add-athlete"],
    ["profile", "init"],
    ["templates", "frobnicate"],
    [
      "plan", "--distance", "half", "--level", "beginner", "--weeks", "12", "--race-date",
      "2027-06-06", "--start", "2027-01-04",
    ],
    ["export"] + goal + ["--out", "x.ics", "--remind", "30m", "--no-remind"], ["plan", "half"],
    ["log", "list", "extra"],
    ["replan", "--pause", "2027-02-10..2027-02-01", "--now", "2027-01-20"],
    ["today", "--plan", "nope", "--now", "2027-01-20"], ["log", "--undo", "--db", "{dir}/empty.sqlite"],
  ].enumerated().map { index, arguments in
    Row(
      name: "command line \(index): \(arguments.prefix(4).joined(separator: " "))", arguments: arguments,
      expect: .fails)
  }

  /// Every option of every command × hostile values.
  static let optionSweeps: [Row] = {
    let all = HostileValue.all
    let text = HostileValue.textual
    let numbers = HostileValue.numbers
    let fileNames: Set<HostileValue> = [.nan, .inf, .negativeInf, .e309, .minusOne, .zero, .huge, .word, .control]
    var rows: [Row] = []
    // plan: the goal options (shared by schedule and export), the output options, the database ones.
    for option in ["--weeks", "--start", "--current-weekly-km", "--recent-race"] {
      rows += sweepOption(plan, option, all)
    }
    for option in ["--race-date", "--runs-per-week", "--now"] { rows += sweepOption(plan, option, numbers) }
    rows += sweepOption(plan, "--longest-recent-run-km", all, valid: [.zero])
    for option in ["--distance", "--level", "--week-start", "--format", "--units", "--profile"] {
      rows += sweepOption(plan, option, text)
    }
    rows += sweepOption(plan, "--templates", text, mention: false)
    rows += sweepOption(
      plan, "--name", HostileValue.textual(and: .zero, .minusOne),
      valid: [.word, .long, .control, .zero, .minusOne], writes: true)
    // schedule and export: where and when.
    for option in ["--days", "--long-run-day", "--at", "--tz", "--skip", "--plan"] {
      rows += sweepOption(["schedule"] + everyDay, option, option == "--at" || option == "--skip" ? all : text)
    }
    rows += sweepOption(schedule, "--busy", text, mention: false)
    rows += sweepOption(schedule, "--weeks", [.e309, .control])
    rows += sweepOption(export, "--remind", numbers + [.control])
    rows += sweepOption(export, "--units", text)
    rows += sweepOption(export, "--previous", text, mention: false)
    rows += sweepOption(export, "--diff", text, mention: false)
    rows += sweepOption(
      export, "--out", HostileValue.textual(and: .minusOne, .zero), valid: fileNames, mention: false,
      writes: true)
    // log
    for option in ["--distance", "--time"] { rows += sweepOption(log, option, all) }
    for option in ["--rpe", "--hr"] { rows += sweepOption(log, option, numbers + [.zero]) }
    rows += sweepOption(log, "--now", HostileValue.textual(and: .zero, .huge))
    for option in ["--kind", "--plan"] { rows += sweepOption(log, option, text) }
    rows += sweepOption(log, "--note", text, valid: Set(text), writes: true)
    rows += sweep("log DATE", all, mention: nil) {
      [
        "log", "--distance", "8.2km", "--time", "47:30", "--now",
        "2027-01-06", "--", $0,
      ]
    }
    rows += sweep("log delete ID", HostileValue.textual(and: .minusOne, .zero, .huge, .nan), mention: nil) {
      ["log", "delete", "--", $0]
    }
    // import and health
    let gpx = ["import", "{activity}/gpx/two-segments.gpx", "--tz", "UTC"]
    rows += sweepOption(gpx, "--tz", HostileValue.textual(and: .zero, .minusOne))
    rows += sweepOption(gpx, "--plan", text)
    rows += sweep("import PATH", HostileValue.textual(and: .minusOne), mention: nil) {
      ["import", "--tz", "UTC", "--", $0]
    }
    let health = ["health", "import", "days.csv", "--tz", "UTC"]
    rows += sweepOption(health, "--tz", text)
    rows += sweepOption(health, "--profile", text)
    rows += sweep("health import FILE", HostileValue.textual(and: .minusOne), mention: nil) {
      ["health", "import", "--tz", "UTC", "--", $0]
    }
    let summary = ["health", "--now", "2027-01-06"]
    for option in ["--now", "--tz"] { rows += sweepOption(summary, option, text) }
    for option in ["--format", "--profile"] { rows += sweepOption(summary, option, text) }
    // profiles and coaches
    let initProfile = ["profile", "init", "zoe"]
    for option in ["--birth-year", "--height"] { rows += sweepOption(initProfile, option, all) }
    for option in ["--weight", "--resting-hr", "--max-hr", "--remind"] {
      rows += sweepOption(initProfile, option, numbers)
    }
    for option in ["--whatsapp", "--telegram", "--email"] {
      rows += sweepOption(initProfile, option, HostileValue.textual(and: .zero, .minusOne, .huge))
    }
    for option in ["--level", "--units", "--tz", "--days", "--long-run-day"] {
      rows += sweepOption(initProfile, option, text)
    }
    for option in ["--sex", "--specialty", "--bio", "--certification"] {
      rows += sweepOption(initProfile, option, text, valid: [.word, .long, .control], writes: true)
    }
    rows += sweep(
      "profile init NAME", HostileValue.textual(and: .zero, .minusOne),
      valid: [
        .zero, .minusOne, .word,
        .control,
      ], mention: nil,
      writes: true
    ) { ["profile", "init", "--", $0] }
    rows += sweepOption(["profile", "set", "--profile", "anna"], "--height", [.nan, .inf, .e309, .minusOne])
    rows += sweepOption(["profile", "show"], "--profile", text)
    rows += sweep("coach add-athlete NAME", text, mention: nil) {
      ["coach", "add-athlete", "--profile", "carl", "--", $0]
    }
    rows += sweepOption(["coach", "show"], "--profile", text)
    rows += sweepOption(["coaches"], "--search", text, valid: Set(text), mention: false)
    // progress, today, week, report, replan, plans, templates
    let progress = ["progress", "--now", "2027-01-20"]
    rows += sweepOption(progress, "--weeks", numbers + [.zero])
    rows += sweepOption(progress, "--now", [.zero, .huge, .control])
    for option in ["--plan", "--format", "--units"] { rows += sweepOption(progress, option, text) }
    for command in ["today", "week"] {
      rows += sweepOption([command, "--now", "2027-01-20"], "--now", [.zero, .huge, .control])
      rows += sweepOption([command, "--now", "2027-01-20"], "--plan", text)
    }
    let report = ["report", "--html", "report.html", "--now", "2027-01-20"]
    rows += sweepOption(report, "--html", HostileValue.textual(and: .zero), valid: fileNames, mention: false)
    rows += sweepOption(report, "--plan", text)
    let replan = ["replan", "--now", "2027-01-20"]
    rows += sweepOption(replan, "--pause", all)
    rows += sweepOption(replan, "--plan", text)
    for command in ["show", "activate", "delete"] {
      rows += sweep("plans \(command) NAME", text, mention: nil) { ["plans", command, "--", $0] }
    }
    rows += sweep("templates check DIR", text, mention: nil) { ["templates", "check", "--", $0] }
    rows += sweepOption(["templates", "list"], "--templates", text, mention: false)
    return rows
  }()

  /// GPX and TCX files that are empty, cut, garbled, hostile XML, another encoding, or absurd.
  static let activityFiles: [Row] = {
    func importing(_ label: String, _ name: String, expect: Row.Expect = .exit(65), _ step: Row.Step) -> Row {
      Row(
        name: "import \(label)", arguments: ["import", name, "--tz", "UTC"], expect: expect, setup: [step],
        writes: true)
    }
    var rows: [Row] = []
    for fixture in [
      "bad-latitude.gpx", "bad-time.gpx", "billion-laughs.gpx", "malformed.gpx", "truncated.gpx",
      "undefined-entity.gpx", "utf16.gpx", "utf7-declared.gpx", "xxe.gpx", "not-activity.kml",
      "notes.txt",
    ] {
      rows.append(
        Row(
          name: "import fixture \(fixture)", arguments: ["import", "{activity}/broken/\(fixture)"],
          expect: .exit(65), mentions: [fixture]))
    }
    for fixture in ["empty.gpx", "empty-track.gpx"] {
      rows.append(
        Row(
          name: "import fixture \(fixture)", arguments: ["import", "{activity}/broken/\(fixture)"],
          expect: .either, writes: true))
    }
    let plain = HostileFiles.plausibleGPX()
    rows += [
      importing("a missing file", "gone.gpx", expect: .exit(66), .files { _ in }),
      importing("an empty file", "empty.gpx", file("empty.gpx", "")),
      importing("an empty TCX", "empty.tcx", file("empty.tcx", "")),
      importing("binary garbage", "noise.gpx", file("noise.gpx") { HostileFiles.garbage(count: 1 << 20) }),
      importing("NUL bytes", "zeros.gpx", file("zeros.gpx") { Data(count: 1 << 20) }),
      importing("/dev/zero", "/dev/zero", .files { _ in }),
      importing("/dev/urandom", "/dev/urandom", .files { _ in }),
      importing("a GPX cut in half", "half.gpx", file("half.gpx", String(plain.prefix(plain.count / 2)))),
      importing("a GPX cut inside a tag", "cut.gpx", file("cut.gpx", String(plain.prefix(400)))),
      importing(
        "a GPX with an unclosed root", "open.gpx",
        file(
          "open.gpx",
          plain.replacingOccurrences(
            of: "</gpx>", with: ""))),
      importing("a GPX with junk after the root", "after.gpx", file("after.gpx", plain + "<gpx>\n")),
      importing(
        "a GPX declared UTF-16 but UTF-8", "liar.gpx",
        file(
          "liar.gpx",
          plain.replacingOccurrences(
            of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\""))),
      importing(
        "a GPX in UTF-16 with a BOM", "utf16bom.gpx",
        file("utf16bom.gpx") {
          Data([0xFF, 0xFE]) + (plain.data(using: .utf16LittleEndian) ?? Data())
        }),
      importing(
        "a GPX with an external DTD", "dtd.gpx", expect: .either,
        file(
          "dtd.gpx",
          plain.replacingOccurrences(
            of: "<gpx ", with: "<!DOCTYPE gpx SYSTEM \"http://127.0.0.1:9/gpx.dtd\">\n<gpx "))),
      importing(
        "a GPX with a parameter entity", "pe.gpx", expect: .either,
        file(
          "pe.gpx",
          plain.replacingOccurrences(
            of: "<gpx ", with: "<!DOCTYPE gpx [<!ENTITY % p SYSTEM \"file:///etc/passwd\"> %p;]>\n<gpx "))),
      importing(
        "a GPX whose one line is 8 MiB", "line.gpx", expect: .either,
        file(
          "line.gpx",
          plain.replacingOccurrences(
            of: "<name>hostile</name>", with: "<name>" + String(repeating: "n", count: 8 << 20) + "</name>"))),
      importing(
        "a GPX with a 8 MiB attribute", "attr.gpx", expect: .either,
        file(
          "attr.gpx",
          plain.replacingOccurrences(
            of: "creator=\"hostile\"", with: "creator=\"" + String(repeating: "c", count: 8 << 20) + "\""))),
      importing(
        "a GPX nested 100000 deep", "deep.gpx", expect: .either,
        file(
          "deep.gpx",
          plain.replacingOccurrences(
            of: "<name>hostile</name>",
            with: String(repeating: "<x>", count: 100_000) + String(repeating: "</x>", count: 100_000)))),
      importing(
        "a GPX with latitude nan", "nan.gpx",
        file(
          "nan.gpx",
          plain.replacingOccurrences(
            of: "lat=\"52.50000\"", with: "lat=\"nan\""))),
      importing(
        "a GPX with latitude 1e309", "e309.gpx",
        file(
          "e309.gpx",
          plain.replacingOccurrences(
            of: "lat=\"52.50000\"", with: "lat=\"1e309\""))),
      importing(
        "a GPX with longitude 181", "lon.gpx",
        file(
          "lon.gpx",
          plain.replacingOccurrences(
            of: "lon=\"13.40000\"", with: "lon=\"181\""))),
      importing(
        "a GPX with elevation 1e21", "ele.gpx",
        file(
          "ele.gpx",
          HostileFiles.plausibleGPX(
            extra: "<ele>1e21</ele>"))),
      importing(
        "a GPX with heart rate 99999", "hr.gpx",
        file(
          "hr.gpx",
          HostileFiles.plausibleGPX(
            extra: "<extensions><gpxtpx:TrackPointExtension xmlns:gpxtpx=\"http://www.garmin.com/xmlschemas/"
              + "TrackPointExtension/v2\"><gpxtpx:hr>99999</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions>"))),
      importing(
        "a GPX with time 2027-02-30", "day.gpx",
        file(
          "day.gpx",
          plain.replacingOccurrences(
            of: "2027-01-05T07:00:00Z", with: "2027-02-30T07:00:00Z"))),
      importing(
        "a GPX in year 10000", "year.gpx",
        file(
          "year.gpx",
          plain.replacingOccurrences(
            of: "2027-01-05T07:00:00Z", with: "10000-01-05T07:00:00Z"))),
      importing(
        "a GPX with time going back a year", "back.gpx",
        file(
          "back.gpx",
          plain.replacingOccurrences(
            of: "2027-01-05T07:00:10Z", with: "2026-01-05T07:00:10Z"))),
      importing(
        "a GPX spanning 9000 years", "span.gpx",
        file(
          "span.gpx",
          plain.replacingOccurrences(
            of: "2027-01-05T07:04:50Z", with: "9999-12-31T23:59:59Z"))),
      importing(
        "a TCX with distance nan", "nan.tcx",
        file(
          "nan.tcx",
          HostileFiles.tcx(
            distances: ["0", "nan", "2000"]))),
      importing("a TCX with distance inf", "inf.tcx", file("inf.tcx", HostileFiles.tcx(distances: ["0", "inf"]))),
      importing(
        "a TCX with distance 1e309", "e309.tcx", file("e309.tcx", HostileFiles.tcx(distances: ["0", "1e309"]))),
      importing(
        "a TCX with lap time -600", "lap.tcx",
        file(
          "lap.tcx",
          HostileFiles.tcx(
            distances: ["0", "100"],
            lapSeconds: "-600"))),
      importing(
        "a TCX with lap time 1e21", "laptime.tcx",
        file(
          "laptime.tcx",
          HostileFiles.tcx(
            distances: [],
            lapSeconds: "1e21"))),
      importing(
        "a TCX with lap distance 1e21", "lapdist.tcx",
        file(
          "lapdist.tcx",
          HostileFiles.tcx(
            distances: [], lapDistance: "1e21"))),
      importing("a TCX that is a GPX", "gpx.tcx", file("gpx.tcx", "<TrainingCenterDatabase><Activities>")),
      Row(
        name: "import a directory named like a file", arguments: ["import", "folder.gpx", "--tz", "UTC"],
        expect: .either,
        setup: [
          .files { directory in
            try FileManager.default.createDirectory(
              at: directory.appendingPathComponent("folder.gpx"),
              withIntermediateDirectories: true)
          }
        ], writes: true),
      Row(
        name: "import a symlink loop", arguments: ["import", "loop.gpx", "--tz", "UTC"], expect: .fails,
        setup: [
          .files { directory in
            try FileManager.default.createSymbolicLink(
              atPath: directory.appendingPathComponent("loop.gpx").path,
              withDestinationPath: "loop.gpx")
          }
        ]),
      // One bad file never stops the import (issue 13): the good one lands, the bad one is listed.
      Row(
        name: "import a good file then a bad one imports the good one",
        arguments: [
          "import",
          "{activity}/gpx/two-segments.gpx", "bad.gpx", "--tz", "UTC",
        ], expect: .succeeds,
        setup: [file("bad.gpx", "<gpx>")], prints: ["refused bad.gpx", "1 imported"], writes: true),
      // Archives: a bomb in a Strava layout stops once 16 MiB are out; a member climbing out is never read.
      Row(
        name: "import a zip bomb (Strava layout)",
        arguments: ["import", "export_1.zip", "--tz", "UTC"], expect: .exit(65),
        setup: [
          file("export_1.zip") {
            replacing(
              "apple_health_export/export.xml", with: "activities/1234567890abcde.gpx",
              in: HostileFiles.zipBomb(head: plain, fill: 0x20, count: 3 << 30, tail: "\n"))
          }
        ], mentions: ["(a zip bomb?)", "activities/1234567890abcde.gpx"], writes: true),
      Row(
        name: "import a zip member named ../../…",
        arguments: ["import", "export_1.zip", "--tz", "UTC"], expect: .exit(65),
        setup: [
          file("export_1.zip") {
            replacing(
              "apple_health_export/export.xml", with: "../../../../../../../evil1.gpx",
              in: HostileFiles.zipBomb(head: plain, fill: 0x20, count: 1 << 20, tail: "\n"))
          }
        ], mentions: ["its path leaves the archive"], writes: true),
      Row(
        name: "import a zip without activities",
        arguments: ["import", "export_1.zip", "--tz", "UTC"], expect: .exit(65),
        setup: [
          file("export_1.zip") { HostileFiles.zipBomb(head: "<x>", fill: 0x20, count: 1 << 10, tail: "</x>") }
        ], mentions: ["no activity files in the zip"], writes: true),
    ]
    return rows
  }()

  /// Apple Health exports and daily CSVs that are wrong in every way.
  static let healthFiles: [Row] = {
    func importing(
      _ label: String, _ name: String, expect: Row.Expect = .exit(65), prints: [String] = [],
      _ step: Row.Step
    ) -> Row {
      Row(
        name: "health import \(label)", arguments: ["health", "import", name, "--tz", "UTC"], expect: expect,
        setup: [step], prints: prints, writes: true)
    }
    var rows: [Row] = []
    // Read on purpose (HealthTests.HostileFileTests): the DTD is skipped and never loaded, bad dates are skipped.
    for fixture in [
      "hostile/external-dtd.xml", "hostile/parameter-entity.xml", "hostile/bad-date.xml",
      "hostile/ios16-dtd.xml", "hostile/vertical-tab.xml",
    ] {
      rows.append(
        Row(
          name: "health import fixture \(fixture)",
          arguments: [
            "health", "import", "{health}/\(fixture)",
            "--tz", "UTC",
          ], expect: .either, writes: true))
    }
    for fixture in [
      "hostile/billion-laughs.xml", "hostile/xxe.xml", "hostile/undefined-entity.xml",
      "hostile/truncated.xml", "broken/after-root.xml", "broken/corrupt-data.zip",
      "broken/corrupt-tail.zip",
      "broken/cut-in-half.zip", "broken/empty.xml", "broken/mismatched.xml", "broken/no-export.zip",
      "broken/notes.txt", "broken/raw-ampersand.xml", "broken/route.gpx",
      "broken/truncated-in-workout.xml",
      "broken/unquoted.xml",
    ] {
      rows.append(
        Row(
          name: "health import fixture \(fixture)",
          arguments: [
            "health", "import", "{health}/\(fixture)",
            "--tz", "UTC",
          ], expect: .exit(65)))
    }
    let csv = HostileFiles.healthCSV
    rows += [
      importing("a missing file", "gone.csv", expect: .exit(66), .files { _ in }),
      importing("an empty file", "empty.csv", file("empty.csv", "")),
      importing("a header only", "header.csv", expect: .either, file("header.csv", csv([]))),
      importing("another header", "other.csv", file("other.csv", "day,steps\n2027-01-06,5\n")),
      importing("binary garbage", "noise.csv", file("noise.csv") { HostileFiles.garbage(count: 1 << 20) }),
      importing("/dev/zero", "/dev/zero", .files { _ in }),
      importing("/dev/urandom", "/dev/urandom", .files { _ in }),
      importing(
        "a 1 MiB line", "line.csv",
        file(
          "line.csv",
          csv([
            "2027-01-06," + String(repeating: "9", count: 1 << 20)
              + ",5,300"
          ]))),
      importing(
        "a 16 MiB file without a newline", "flat.csv",
        file(
          "flat.csv",
          "date,steps,distance_km,active_kcal\n"
            + String(repeating: "2027-01-06;", count: 1_500_000))),
      importing("negative steps", "neg.csv", file("neg.csv", csv(["2027-01-06,-5,5,300"]))),
      importing("steps nan", "nan.csv", file("nan.csv", csv(["2027-01-06,nan,5,300"]))),
      importing("steps inf", "inf.csv", file("inf.csv", csv(["2027-01-06,inf,5,300"]))),
      importing("steps 1e309", "e309.csv", file("e309.csv", csv(["2027-01-06,1e309,5,300"]))),
      importing("distance 1e19 km", "dist.csv", file("dist.csv", csv(["2027-01-06,5000,1e19,300"]))),
      importing("energy 1e19 kcal", "kcal.csv", file("kcal.csv", csv(["2027-01-06,5000,5,1e19"]))),
      importing("steps abc", "abc.csv", file("abc.csv", csv(["2027-01-06,abc,5,300"]))),
      importing("date 2027-02-30", "feb.csv", file("feb.csv", csv(["2027-02-30,5000,5,300"]))),
      importing("date 0000-01-01", "zero.csv", file("zero.csv", csv(["0000-01-01,5000,5,300"]))),
      importing("date 10000-01-01", "big.csv", file("big.csv", csv(["10000-01-01,5000,5,300"]))),
      importing(
        "a date twice", "twice.csv",
        file(
          "twice.csv",
          csv([
            "2027-01-06,5000,5,300",
            "2027-01-06,6000,5,300",
          ]))),
      importing("three fields", "three.csv", file("three.csv", csv(["2027-01-06,5000,5"]))),
      importing(
        "a CSV in UTF-16", "utf16.csv",
        file("utf16.csv") {
          Data([0xFF, 0xFE]) + (csv(["2027-01-06,5000,5,300"]).data(using: .utf16LittleEndian) ?? Data())
        }),
      importing("a zip that is not a zip", "fake.zip", file("fake.zip", "PK\u{3}\u{4}not really")),
      importing(
        "an XML whose one line is 8 MiB", "line.xml", expect: .either,
        file(
          "line.xml",
          "<?xml version=\"1.0\"?>\n<HealthData "
            + "locale=\"" + String(repeating: "l", count: 8 << 20) + "\">\n</HealthData>\n")),
      importing(
        "an XML nested 100000 deep", "deep.xml", expect: .either,
        file(
          "deep.xml",
          "<?xml version=\"1.0\"?>\n<HealthData>"
            + String(repeating: "<x>", count: 100_000) + String(repeating: "</x>", count: 100_000) + "</HealthData>\n")),
      // Skipped as the reference aggregation skips it, and said so (a whole export is not refused for one record).
      importing(
        "a record with value 1e309", "value.xml", expect: .succeeds, prints: ["skipped 1 record whose"],
        file(
          "value.xml",
          """
          <?xml version="1.0" encoding="UTF-8"?>
          <HealthData locale="en_US">
           <Record type="HKQuantityTypeIdentifierStepCount" sourceName="w" unit="count" startDate="2027-01-06 10:00:00 +0000" endDate="2027-01-06 10:10:00 +0000" value="1e309"/>
          </HealthData>

          """)),
      importing(
        "a running workout of 1e19 km", "workout.xml", expect: .either,
        file(
          "workout.xml",
          """
          <?xml version="1.0" encoding="UTF-8"?>
          <HealthData locale="en_US">
           <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" totalDistance="1e19" totalDistanceUnit="km" sourceName="w" startDate="2027-01-06 10:00:00 +0000" endDate="2027-01-06 10:30:00 +0000"/>
          </HealthData>

          """)),
      Row(
        name: "health import a folder with nothing in it", arguments: ["health", "import", "folder", "--tz", "UTC"],
        expect: .exit(65),
        setup: [
          .files { directory in
            try FileManager.default.createDirectory(
              at: directory.appendingPathComponent("folder"),
              withIntermediateDirectories: true)
          }
        ]),
    ]
    return rows
  }()

  /// Calendars that are not calendars: `--busy`, `--previous`, `--diff`, and an `--out` that holds something else.
  static let calendarFiles: [Row] = {
    var rows: [Row] = []
    let bad: [(String, Row.Step)] = [
      ("empty", file("bad.ics", "")),
      ("binary", file("bad.ics") { HostileFiles.garbage(count: 1 << 20) }),
      ("text", file("bad.ics", "Run notes, 2 April: 6 x 400 m\n")),
      ("truncated", file("bad.ics", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nDTSTART:2027")),
      ("one 8 MiB line", file("bad.ics", "BEGIN:VCALENDAR\r\nX-A:" + String(repeating: "a", count: 8 << 20) + "\r\n")),
      (
        "bad dates",
        file(
          "bad.ics",
          "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:a\r\n"
            + "DTSTAMP:20270101T000000Z\r\nDTSTART:20270230T250000Z\r\nDTEND:99999999T000000Z\r\nEND:VEVENT\r\n"
            + "END:VCALENDAR\r\n")
      ),
      (
        "UTF-16",
        file("bad.ics") {
          let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n"
          return Data([0xFF, 0xFE]) + (text.data(using: .utf16LittleEndian) ?? Data())
        }
      ),
      (
        "a directory",
        .files { directory in
          try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("bad.ics"),
            withIntermediateDirectories: true)
        }
      ),
      ("missing", .files { _ in }),
    ]
    for (label, step) in bad {
      rows.append(
        Row(
          name: "schedule --busy \(label)", arguments: schedule + ["--busy", "bad.ics"], expect: .fails,
          setup: [step], mentions: ["bad.ics"]))
      rows.append(
        Row(
          name: "export --previous \(label)", arguments: export + ["--previous", "bad.ics"], expect: .fails,
          setup: [step], mentions: ["bad.ics"]))
      rows.append(
        Row(
          name: "export --diff \(label)", arguments: export + ["--diff", "bad.ics"], expect: .fails,
          setup: [step], mentions: ["bad.ics"]))
    }
    for (label, step) in bad where label != "missing" && label != "a directory" {
      rows.append(
        Row(
          name: "export --out over \(label)", arguments: with(export, "--out", "bad.ics"), expect: .fails,
          setup: [step], mentions: ["bad.ics"]))
    }
    rows.append(Row(name: "export --out a directory", arguments: with(export, "--out", "{dir}"), expect: .fails))
    rows.append(Row(name: "export --out /dev/full", arguments: with(export, "--out", "/dev/full"), expect: .fails))
    rows.append(
      Row(
        name: "report --html a directory", arguments: ["report", "--html", "{dir}", "--now", "2027-01-20"],
        expect: .fails))
    rows.append(
      Row(
        name: "report --html into a missing directory",
        arguments: [
          "report", "--html",
          "{dir}/missing/r.html", "--now", "2027-01-20",
        ], expect: .exit(73)))
    return rows
  }()

  /// Template directories that are missing, files, empty, garbage, or YAML bombs.
  static let templateDirs: [Row] = {
    func templates(_ label: String, expect: Row.Expect = .fails, _ step: Row.Step) -> Row {
      Row(
        name: "plan --templates \(label)", arguments: ["plan", "--templates", "{dir}/tpl"] + goal, expect: expect,
        setup: [step])
    }
    func edited(_ file: String, _ edit: @escaping @Sendable (String) -> String) -> Row.Step {
      .files { directory in
        let folder = directory.appendingPathComponent("tpl")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try copyTemplates(to: folder, editing: file, edit)
      }
    }
    let aliasBomb =
      "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
      + "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
      + "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
      + "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\nh: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]\n"
    return [
      templates("missing", .files { _ in }),
      templates("a file", file("tpl", "schemaVersion: 1\n")),
      templates(
        "empty",
        .files { directory in
          try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("tpl"),
            withIntermediateDirectories: true)
        }),
      templates(
        "with a binary YAML",
        edited("10k.yaml") { _ in
          String(
            decoding: HostileFiles.garbage(count: 4096),
            as: UTF8.self)
        }),
      templates("with a YAML alias bomb", edited("10k.yaml") { $0 + aliasBomb }),
      templates("with an alias bomb as a file", edited("base.yaml") { _ in aliasBomb }),
      templates("with a tab-indented YAML", edited("10k.yaml") { $0.replacingOccurrences(of: "  ", with: "\t") }),
      templates(
        "with a 1e309 peak",
        edited("10k.yaml") {
          $0.replacingOccurrences(
            of: "peakWeeklyKm: 28",
            with: "peakWeeklyKm: 1e309")
        }),
      templates(
        "with a .nan peak",
        edited("10k.yaml") {
          $0.replacingOccurrences(
            of: "peakWeeklyKm: 28",
            with: "peakWeeklyKm: .nan")
        }),
      templates(
        "with a custom tag", expect: .either,
        edited("10k.yaml") {
          $0.replacingOccurrences(
            of: "peakWeeklyKm: 28",
            with: "peakWeeklyKm: !!binary 28")
        }),
      templates("with a 1 MiB key", edited("10k.yaml") { $0 + String(repeating: "k", count: 1 << 20) + ": 1\n" }),
      templates(
        "with nesting 10000 deep",
        edited("10k.yaml") {
          $0 + "deep: " + String(repeating: "[", count: 10_000)
            + String(repeating: "]", count: 10_000) + "\n"
        }),
      templates(
        "with a duplicate key in a level",
        edited("half.yaml") {
          $0.replacingOccurrences(of: "    peakWeeklyKm: 38", with: "    peakWeeklyKm: 38\n    peakWeeklyKm: 380")
        }),
    ]
  }()

  /// Database files that are not a logbook, or cannot be one.
  static let databases: [Row] = {
    var rows: [Row] = []
    let cases: [(String, Row.Step)] = [
      ("a text file", file(HostileHarness.databaseName, "Run notes, 2 April: 6 x 400 m\n")),
      ("binary garbage", file(HostileHarness.databaseName) { HostileFiles.garbage(count: 65_536) }),
      ("a header only", file(HostileHarness.databaseName, "SQLite format 3\u{0}")),
      (
        "the seeded logbook cut in half",
        .files { directory in
          let url = directory.appendingPathComponent(HostileHarness.databaseName)
          let seed = try HostileHarness.seeded()
          let bytes = try Data(contentsOf: seed.database)
          try bytes.prefix(bytes.count / 2).write(to: url)
        }
      ),
      (
        "the seeded logbook with garbage pages",
        .files { directory in
          let url = directory.appendingPathComponent(HostileHarness.databaseName)
          var bytes = try Data(contentsOf: HostileHarness.seeded().database)
          let noise = HostileFiles.garbage(count: bytes.count - 4096, seed: 7)
          bytes.replaceSubrange(4096..<bytes.count, with: noise)
          try bytes.write(to: url)
        }
      ),
    ]
    for (label, step) in cases {
      for command in [["log", "list"], log, ["plans"], ["profile", "list"], ["today", "--now", "2027-01-20"]] {
        rows.append(
          Row(
            name: "--db \(label): \(command.prefix(2).joined(separator: " "))",
            arguments: command + ["--db", "{db}"], expect: .exit(65), database: .none, setup: [step],
            untouched: true))
      }
    }
    rows += [
      Row(name: "--db a directory", arguments: ["log", "list", "--db", "{dir}"], expect: .fails, database: .none),
      Row(name: "--db /dev/null", arguments: ["log", "list", "--db", "/dev/null"], expect: .fails, database: .none),
      Row(
        name: "--db under a file", arguments: ["log", "list", "--db", "{dir}/days.csv/runmate.sqlite"],
        expect: .fails, database: .none),
      Row(name: "--db empty", arguments: ["log", "list", "--db", ""], expect: .fails, database: .none),
      Row(
        name: "--db a 100000-character name",
        arguments: [
          "log", "list", "--db",
          String(repeating: "d", count: 100_000),
        ],
        expect: .fails, database: .none),
      Row(
        name: "--db from a newer version", arguments: ["log", "list", "--db", "{db}"], expect: .exit(65),
        setup: [.sql("INSERT INTO grdb_migrations VALUES ('v99-from-the-future');")], untouched: true),
      Row(
        name: "--db with infinite steps inside", arguments: ["health", "--now", "2027-01-06"], expect: .either,
        setup: [.sql("UPDATE healthDay SET steps = 1e308 * 10;")]),
      Row(
        name: "--db with a plan that is not JSON", arguments: ["plans", "show", "spring"], expect: .fails,
        setup: [.sql("UPDATE plan SET planJSON = '{not json';")]),
      Row(
        name: "--db with a plan of nan weeks", arguments: ["today", "--now", "2027-01-20"], expect: .fails,
        setup: [.sql("UPDATE plan SET planJSON = json_set(planJSON, '$.weeks', 'nan');")]),
      Row(
        name: "--db with a profile that is not JSON", arguments: ["profile", "show"], expect: .fails,
        setup: [.sql("UPDATE profile SET profileJSON = 'garbage' WHERE name = 'anna';")]),
      Row(
        name: "--db with a garbage -shm", arguments: ["log", "list"], expect: .either,
        setup: [file(HostileHarness.databaseName + "-shm") { HostileFiles.garbage(count: 32_768) }]),
    ]
    return rows
  }()

  /// Dates and times that do not exist or are out of any range.
  static let datesAndTimes: [Row] = {
    var rows: [Row] = []
    let dates = [
      "2027-02-30", "2027-13-01", "0000-01-01", "10000-01-01", "2027-1-5", "27-01-05", "2027-01-05T25:00",
      "-2027-01-05", "2027-01-05x",
    ]
    for date in dates {
      rows.append(
        Row(
          name: "plan --start \(date)", arguments: with(plan, "--start", date), expect: .exit(64),
          mentions: ["--start"]))
      rows.append(
        Row(
          name: "plan --race-date \(date)",
          arguments: [
            "plan", "--distance", "10k", "--level", "beginner",
            "--race-date=\(date)", "--now", "2027-01-01",
          ], expect: .exit(64), mentions: ["--race-date"]))
      rows.append(
        Row(
          name: "plan --now \(date)", arguments: with(plan, "--now", date), expect: .exit(64),
          mentions: ["--now"]))
      rows.append(
        Row(
          name: "log DATE \(date)", arguments: log.filter { $0 != "2027-01-05" } + ["--", date],
          expect: .exit(64)))
      rows.append(
        Row(
          name: "schedule --skip \(date)", arguments: schedule + ["--skip=\(date)"], expect: .exit(64),
          mentions: ["--skip"]))
      rows.append(
        Row(
          name: "replan --pause \(date)",
          arguments: [
            "replan", "--now", "2027-01-20",
            "--pause=\(date)..2027-02-01",
          ], expect: .exit(64), mentions: ["--pause"]))
    }
    for start in ["0001-01-01", "1900-01-01", "9999-12-20", "9999-01-04"] {
      rows.append(Row(name: "plan --start \(start) far away", arguments: with(plan, "--start", start), expect: .either))
    }
    for time in ["99:99", "0:00", "-5:00", "1:99:00", "47:30:00:00", "47.5", "1e309", "99999999999999999999:00"] {
      rows.append(
        Row(
          name: "log --time \(time)", arguments: with(log, "--time", time), expect: .exit(64),
          mentions: ["--time"]))
    }
    for time in ["99:99", "24:00", "-1:00", "6:60", "sat=25:00", "xyz=06:00", "06:30:99"] {
      rows.append(
        Row(
          name: "schedule --at \(time)", arguments: schedule + ["--at=\(time)"], expect: .exit(64),
          mentions: ["--at"]))
    }
    for race in [
      "5k=99:99", "5k=0:00", "5k=-20:00", "5k=1:00", "5k=99:00:00", "marathon=1:00:00", "5k=", "=24:30",
      "5k=nan",
    ] {
      rows.append(
        Row(
          name: "plan --recent-race \(race)", arguments: with(plan, "--recent-race", race),
          expect: .exit(64), mentions: ["--recent-race"]))
    }
    for (option, value) in [
      ("--rpe", "0"), ("--rpe", "11"), ("--hr", "0"), ("--hr", "999"), ("--distance", "0km"),
      ("--distance", "251km"), ("--distance", "-5km"), ("--distance", "1e309mi"),
      ("--distance", "nanmi"), ("--distance", "5 furlongs"),
    ] {
      rows.append(
        Row(
          name: "log \(option) \(value)", arguments: with(log, option, value), expect: .exit(64),
          mentions: [option]))
    }
    for remind in ["-30m", "0m", "99999999999h", "25:00", "20:00-99999d", "1e309m", "nanm"] {
      rows.append(
        Row(
          name: "export --remind \(remind)", arguments: export + ["--remind=\(remind)"], expect: .fails,
          mentions: ["--remind"]))
    }
    return rows
  }()

  // MARK: Unreadable files (not as root)

  static func database(in directory: URL) -> String {
    directory.appendingPathComponent(HostileHarness.databaseName).path
  }

  static let unreadable: [Row] = {
    func locked(_ name: String, _ text: String) -> [Row.Step] {
      [
        file(name, text),
        .files { directory in
          try FileManager.default.setAttributes(
            [.posixPermissions: 0],
            ofItemAtPath: directory.appendingPathComponent(name).path)
        },
      ]
    }
    return [
      Row(
        name: "import an unreadable GPX", arguments: ["import", "run.gpx", "--tz", "UTC"], expect: .exit(66),
        setup: locked("run.gpx", HostileFiles.plausibleGPX()), mentions: ["run.gpx"]),
      Row(
        name: "health import an unreadable CSV", arguments: ["health", "import", "steps.csv", "--tz", "UTC"],
        expect: .fails, setup: locked("steps.csv", HostileFiles.healthCSV(["2027-01-06,5000,5,300"])),
        mentions: ["steps.csv"]),
      Row(
        name: "schedule --busy unreadable", arguments: schedule + ["--busy", "busy.ics"], expect: .exit(66),
        setup: locked("busy.ics", "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"), mentions: ["busy.ics"]),
      Row(
        name: "export --previous unreadable", arguments: export + ["--previous", "prev.ics"], expect: .exit(66),
        setup: locked("prev.ics", "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"), mentions: ["prev.ics"]),
      Row(
        name: "--db unreadable", arguments: ["log", "list"], expect: .fails,
        setup: [
          .files { directory in
            try FileManager.default.setAttributes(
              [.posixPermissions: 0],
              ofItemAtPath: database(in: directory))
          }
        ]),
      Row(
        name: "--db read-only", arguments: log, expect: .fails,
        setup: [
          .files { directory in
            try FileManager.default.setAttributes(
              [.posixPermissions: 0o400],
              ofItemAtPath: database(in: directory))
          }
        ]),
      Row(
        name: "plan --templates unreadable", arguments: ["plan", "--templates", "{dir}/tpl"] + goal, expect: .fails,
        setup: [
          .files { directory in
            let folder = directory.appendingPathComponent("tpl")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try copyTemplates(to: folder)
            try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: folder.path)
          }
        ]),
      Row(
        name: "export --out in a read-only directory", arguments: with(export, "--out", "{dir}/ro/plan.ics"),
        expect: .exit(73),
        setup: [
          .files { directory in
            let folder = directory.appendingPathComponent("ro")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: folder.path)
          }
        ]),
    ]
  }()
}
