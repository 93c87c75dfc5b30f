// swift-tools-version:6.0
import PackageDescription

/// Release executables carry the Swift runtime and Foundation (`-static-stdlib`); debug builds (the tests,
/// valgrind) stay dynamic.
let staticStdlib: [SwiftSetting] = [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]
let staticStdlibLink: [LinkerSetting] = [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]

let package = Package(
  name: "RunningMate",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "runmate", targets: ["runmate"]),
    .library(name: "PlanEngine", targets: ["PlanEngine"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.0.0"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.20.0"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
    .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
    .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
  ],
  targets: [
    // C library: the only place libical is named.
    .systemLibrary(
      name: "CLibical",
      pkgConfig: "libical",
      providers: [.apt(["libical-dev"]), .brew(["libical"])]),
    // zlib, for the zip and gzip readers in Archive (inflate with a size and ratio limit).
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
    // SHA-256 and constant-time comparison (a leaf, no dependencies): feed token hashes and feed ETags.
    .target(name: "Digest"),
    // The shared vocabulary, no dependencies: civil dates, weekdays, distance units, edit distance. One
    // implementation of each; every module uses it.
    .target(name: "RunningCore"),
    // The only module that touches libical's C API: iCalendar values in and out.
    .target(name: "ICalendar", dependencies: ["CLibical", "RunningCore"]),

    // Zip archives and gzip data, streamed through zlib within size and ratio limits. The only module that sees zlib.
    .target(name: "Archive", dependencies: ["CZlib"]),

    // Core: plain value types in, plain value types out. No clock, no disk, no time zones.
    // Optimized in debug builds too: the property suites walk thousands of plans (issue 22: under 10 s in debug).
    // CI's test build is release with `-Xswiftc -Onone` (scripts/setup.sh), which comes after a target's own flags on
    // the driver's command line; a frontend flag comes after the driver's, so `-Xfrontend -O` keeps it optimized there.
    .target(
      name: "PlanEngine", dependencies: ["RunningCore", "Yams"],
      swiftSettings: [
        .unsafeFlags(["-O"], .when(configuration: .debug)),
        .unsafeFlags(["-Xfrontend", "-O"], .when(configuration: .release)),
      ]),
    // Plan → dated, timed schedule in the runner's time zone (preferences, blackouts, busy time).
    .target(name: "Scheduling", dependencies: ["RunningCore", "PlanEngine"]),
    // The one streaming XML tokenizer (a leaf: no dependency), with an explicit DTD policy; read by Health and Activity.
    .target(name: "XMLStream"),
    // GPX / TCX files → activities (streaming XML, distance, moving time, elevation, heart rate).
    .target(name: "Activity", dependencies: ["RunningCore", "XMLStream"]),
    // Completed runs from any source → new, twins, matched to planned workouts (pure rules; no storage).
    .target(name: "Ingest", dependencies: ["RunningCore", "PlanEngine"]),
    // The domain values every layer speaks: logged activities (Completion, Sport), saved plans, profiles, schedule
    // settings and dated workouts, personal bests, what is plausible, and the store's errors. No storage here.
    .target(name: "TrainingDomain", dependencies: ["RunningCore", "PlanEngine", "Ingest", "Digest"]),
    // The embedded database (SQLite through GRDB): saved plans and completed workouts. The only module that sees GRDB.
    // It applies Ingest's decisions inside its write transactions.
    .target(
      name: "Logbook",
      dependencies: [
        "RunningCore", "PlanEngine", "Ingest", "TrainingDomain", .product(name: "GRDB", package: "GRDB.swift"),
      ]),
    // The second engine behind TrainingStore: PostgreSQL through PostgresNIO, the same schema and migrations as
    // Logbook's (versioned). The only module that sees PostgresNIO.
    .target(
      name: "PostgresStore",
      dependencies: [
        "RunningCore", "PlanEngine", "Ingest", "TrainingDomain", .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
      ]),
    // Plan + completions → weekly progress, streaks, load (pure; the CLI draws the charts).
    .target(name: "TrainingProgress", dependencies: ["RunningCore", "PlanEngine", "Ingest", "TrainingDomain"]),
    // Apple Health exports (export.zip / export.xml / CSV) → daily totals, body measures, workouts (streaming).
    .target(name: "Health", dependencies: ["Archive", "RunningCore", "XMLStream"]),
    // Schedule → iCalendar (stable UIDs, SEQUENCE, VALARM rules); busy calendars → busy time.
    .target(name: "CalendarExport", dependencies: ["RunningCore", "Scheduling", "ICalendar"]),

    // The one training state: a saved plan with its schedule settings and dated workouts, read and written by every
    // command (settings values, profile defaults, run-day checks, planned slots, the plan's calendar, replan).
    .target(
      name: "Training",
      dependencies: [
        "RunningCore", "PlanEngine", "Scheduling", "CalendarExport", "ICalendar", "Logbook", "PostgresStore",
        "TrainingDomain", "Ingest", "TrainingProgress", "Health", "Activity", "Archive", "Digest",
      ]),

    // The coach API (`runmate serve --api`): JSON under /api/v1 as Sources/CoachAPI/openapi.yaml describes it, through
    // the server code swift-openapi-generator wrote into Generated/ (scripts/openapi-generate.sh; committed, no build
    // plugin); accounts with bcrypt passwords and hashed bearer tokens. The only module that sees the OpenAPI runtime
    // and bcrypt; it renders Training's use cases.
    .target(
      name: "CoachAPI",
      dependencies: [
        "RunningCore", "Training", "TrainingDomain", "Digest",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
        .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
        .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
      ],
      exclude: ["openapi.yaml", "openapi-generator-config.yaml", "Generated/openapi.sha256"]),

    // The subscription feed server (`runmate serve`): a plan's calendar over HTTP for calendar apps, behind secret
    // tokens, with its Prometheus /metrics. The only module that sees Hummingbird, swift-metrics and Prometheus.
    .target(
      name: "FeedServer",
      dependencies: [
        "RunningCore", "Training", "Logbook", "TrainingDomain", "ICalendar", "Digest", "CoachAPI",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"), .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Metrics", package: "swift-metrics"), .product(name: "Prometheus", package: "swift-prometheus"),
      ]),

    // CalDAV (RFC 4791) client for `runmate sync`: one calendar collection, a resource per event, ETag
    // preconditions, and the sync's plan of what to create, update and delete. The only module that sees
    // AsyncHTTPClient; it reads WebDAV's XML through XMLStream.
    .target(
      name: "CalDAV",
      dependencies: [
        "RunningCore", "XMLStream", .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
      ]),

    // The athlete's side of a coach server (`runmate account login`, `push`): the API's client over AsyncHTTPClient,
    // the saved login, and the local runs pushed (Training). The only module besides CalDAV that sees AsyncHTTPClient.
    .target(
      name: "CoachClient",
      dependencies: [
        "RunningCore", "Training", "TrainingDomain", .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
      ]),

    // A saved plan synced into a CalDAV calendar: the plan's calendar (Training) as one resource per event,
    // what the last sync stored (Logbook), the steps and requests (CalDAV), and what reached the server recorded.
    .target(
      name: "PlanSync",
      dependencies: [
        "CalDAV", "CalendarExport", "Digest", "ICalendar", "Logbook", "TrainingDomain", "PlanEngine", "Training",
      ]),

    // Command-line tool: the composition root (reads files, the clock, formats output).
    // Release: the Swift runtime and Foundation linked in (no dynamic loading and relocation of a dozen Swift
    // libraries at every start: `runmate --version` about 20 → 12 ms CPU, docs/benchmarks.md). Compiled with the
    // flag too, so that Foundation's static libraries are named to the linker.
    .executableTarget(
      name: "runmate",
      dependencies: [
        "RunningCore", "PlanEngine", "Scheduling", "TrainingDomain", "Training", "FeedServer", "PlanSync", "CoachAPI",
        "CoachClient", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: staticStdlib, linkerSettings: staticStdlibLink),

    // Benchmarks: plain executables, run in release mode (see README, "Benchmarks"), linked like runmate.
    .executableTarget(
      name: "runmate-bench",
      dependencies: [
        "RunningCore", "PlanEngine", "Scheduling", "CalendarExport", "ICalendar", "Activity", "Logbook",
        "TrainingDomain",
        "TrainingProgress", "Training",
      ],
      swiftSettings: staticStdlib, linkerSettings: staticStdlibLink),

    // Test tool: runs a child from a small process so that its ru_maxrss is its own (see ProcessProbe.swift).
    .executableTarget(name: "rusage-probe", path: "Tests/Tools/rusage-probe"),

    // Tests (one target per module; fixtures next to the tests that use them, read in place through
    // RunMateTestSupport's fixtureURL)
    .target(
      name: "RunMateTestSupport", dependencies: ["RunningCore", "PlanEngine", "TrainingDomain"],
      path: "Tests/RunMateTestSupport"),
    .testTarget(name: "DigestTests", dependencies: ["Digest", "RunMateTestSupport"]),
    .testTarget(
      name: "FeedServerTests",
      dependencies: [
        "FeedServer", "ICalendar", "Digest", "Logbook", "TrainingDomain", "RunMateTestSupport",
        .product(name: "Logging", package: "swift-log"), .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOEmbedded", package: "swift-nio"),
      ]),
    // The coach API over real HTTP (AsyncHTTPClient) against a real server on loopback, on SQLite and PostgreSQL.
    .testTarget(
      name: "CoachAPITests",
      dependencies: [
        "CoachAPI", "CoachClient", "FeedServer", "Training", "TrainingDomain", "PlanEngine", "RunningCore",
        "RunMateTestSupport", .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
      ]),
    .testTarget(
      name: "CalDAVTests", dependencies: ["CalDAV", "ICalendar", "Digest", "XMLStream", "RunMateTestSupport"]),
    .testTarget(
      name: "PlanSyncTests",
      dependencies: [
        "PlanSync", "CalDAV", "CalendarExport", "Digest", "ICalendar", "Logbook", "TrainingDomain", "PlanEngine",
        "RunningCore",
        "Scheduling", "RunMateTestSupport",
      ]),
    .testTarget(name: "RunningCoreTests", dependencies: ["RunningCore", "RunMateTestSupport"]),
    .testTarget(
      name: "PlanEngineTests", dependencies: ["RunningCore", "PlanEngine", "RunMateTestSupport"], exclude: ["Fixtures"]),
    .testTarget(name: "ICalendarTests", dependencies: ["ICalendar", "RunMateTestSupport"], exclude: ["Fixtures"]),
    .testTarget(name: "SchedulingTests", dependencies: ["RunningCore", "Scheduling", "RunMateTestSupport"]),
    .testTarget(
      name: "LogbookTests", dependencies: ["RunningCore", "Logbook", "TrainingDomain", "Ingest", "RunMateTestSupport"],
      exclude: ["Fixtures"]),
    // The store conformance suite: the same assertions against a SQLite file and a real PostgreSQL
    // (scripts/postgres.sh), and the CLI end to end on both engines.
    .testTarget(
      name: "PostgresStoreTests",
      dependencies: [
        "RunningCore", "PlanEngine", "Ingest", "TrainingDomain", "Logbook", "PostgresStore", "Training",
        "RunMateTestSupport", .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
      ]),
    .testTarget(name: "IngestTests", dependencies: ["RunningCore", "Ingest", "PlanEngine", "RunMateTestSupport"]),
    .testTarget(
      name: "TrainingProgressTests",
      dependencies: ["RunningCore", "TrainingDomain", "TrainingProgress", "RunMateTestSupport"]),
    .testTarget(name: "ArchiveTests", dependencies: ["Archive", "RunMateTestSupport"]),
    .testTarget(
      name: "HealthTests", dependencies: ["Health", "RunningCore", "RunMateTestSupport"], exclude: ["Fixtures"]),
    .testTarget(name: "ActivityTests", dependencies: ["Activity", "RunMateTestSupport"], exclude: ["Fixtures"]),
    .testTarget(name: "XMLStreamTests", dependencies: ["XMLStream", "RunMateTestSupport"]),
    .testTarget(
      name: "CalendarExportTests", dependencies: ["RunningCore", "CalendarExport", "RunMateTestSupport"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "runmateTests",
      dependencies: ["RunningCore", "PlanEngine", "CalendarExport", "Training", "Activity", "RunMateTestSupport"]),
  ]
)

// Indexing while building costs a third more CPU (a BoringSSL C++ file: 17 s with the index store against 11 s
// without), and only SwiftPM's XCTest discovery reads the index, of the test targets alone. So CI builds with
// `--disable-index-store` and names a store for the test targets here (scripts/setup.sh); other builds index as usual.
if let store = Context.environment["RUNMATE_TEST_INDEX_STORE"] {
  for target in package.targets where target.type == .test {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-index-store-path", store])]
  }
}
