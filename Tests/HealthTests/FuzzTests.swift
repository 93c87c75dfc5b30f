import Foundation
import RunMateTestSupport
import RunningCore
import Testing

@testable import Health

/// Seeded random mutations of real exports through the Health XML scanner, the daily CSV reader and the zip
/// reader: they must never trap, and must either give an import whose values are all inside
/// `HealthLimits`, or throw a ``HealthError`` whose message is one line.
///
/// Each campaign (``fuzz(_:corpus:defaultSeed:mutator:check:)`` in RunMateTestSupport) takes
/// `RUNMATE_FUZZ_SECONDS` (default 2) from the printed seed `RUNMATE_FUZZ_SEED`.
struct FuzzTests {
  static let mutator = Mutator(
    garbage: Mutator.controlBytes + Mutator.xmlMarkup + [
      Array("<Record type=\"HKQuantityTypeIdentifierStepCount\" value=\"1e19\">".utf8), Array("</Workout>".utf8),
      Array("<Correlation>".utf8), Array("1850-01-01 00:00:00 +0000".utf8), Array(",,,\n".utf8),
      Array("PK\u{03}\u{04}".utf8), Array("PK\u{05}\u{06}".utf8), [0xFF, 0xFF, 0xFF, 0xFF],
    ])

  /// Runs `body` on mutations of `fixtures` for the campaign's time; `body` returns the problems it found with a
  /// result, or throws the importer's error.
  static func fuzz(
    _ target: String, _ fixtures: [String], body: ([UInt8], inout SplitMix) throws(HealthError) -> [String]
  ) throws {
    let corpus = try fixtures.map { [UInt8](try Data(contentsOf: fixtureURL($0))) }
    let run = RunMateTestSupport.fuzz(target, corpus: corpus, defaultSeed: 0x5EED_4EA1, mutator: mutator) {
      input, random in try body(input, &random)
    }
    #expect(run.passed, "\(run.failures.prefix(5)) slowest \(run.slowest)")
  }

  @Test func mutatedExportXMLNeverTrapsAndStaysPlausible() throws {
    let fixtures = [
      "handwritten/export.xml", "hostile/entity-in-text.xml", "hostile/parameter-entity.xml",
      "broken/truncated-in-workout.xml", "hostile/external-dtd.xml",
    ]
    let berlin = try zone("Europe/Berlin")
    try Self.fuzz("Health XML", fixtures) { (input, random) throws(HealthError) -> [String] in
      var stream = ExportStream(file: "export.xml", options: ImportOptions(timeZone: berlin, priority: []))
      var offset = 0
      while offset < input.count {
        // Random pieces, so tags and references fall across chunk boundaries.
        let end = min(input.count, offset + 1 + Int(random.next() % 4096))
        var failure: HealthError?
        input[offset..<end].withUnsafeBytes { raw in
          do throws(HealthError) { try stream.feed(raw) } catch { failure = error }
        }
        if let failure { throw failure }
        offset = end
      }
      return Self.implausibilities(try stream.finish())
    }
  }

  @Test func mutatedDailyCSVNeverTrapsAndStaysPlausible() throws {
    let fixtures = ["csv/daily.csv", "csv/duplicate.csv", "csv/negative.csv", "csv/bad-date.csv"]
    try Self.fuzz("Health CSV", fixtures) { (input, _) throws(HealthError) -> [String] in
      var reader = DailyCSVReader(file: "days.csv")
      for line in input.split(separator: 10, omittingEmptySubsequences: false) { try reader.line(line) }
      return Self.implausibilities(try reader.result(bytesRead: Int64(input.count)))
    }
  }

  @Test func mutatedZipsNeverTrapOrHang() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("health-fuzz-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("export.zip")
    let berlin = try zone("Europe/Berlin")
    let fixtures = ["handwritten/export.zip", "handwritten/localized.zip", "zip/zip64.zip", "broken/no-export.zip"]
    try Self.fuzz("Health zip", fixtures) { (input, _) throws(HealthError) -> [String] in
      do {
        try Data(input).write(to: url)
      } catch {
        return ["cannot write \(url.path): \(error)"]
      }
      return Self.implausibilities(try importHealth(at: url, timeZone: berlin))
    }
  }

  /// What is out of range in an import (empty when all is plausible).
  static func implausibilities(_ health: HealthImport) -> [String] {
    var problems: [String] = []
    func check(_ ok: Bool, _ what: @autoclosure () -> String) { if !ok { problems.append(what()) } }
    let earliest = Date(timeIntervalSince1970: TimeInterval(HealthLimits.earliestTime))
    let latest = Date(timeIntervalSince1970: TimeInterval(HealthLimits.latestTime))
    for day in health.days {
      check(HealthLimits.steps.contains(day.steps), "\(day.date) steps \(day.steps)")
      check(HealthLimits.distanceKm.contains(day.distanceKm), "\(day.date) km \(day.distanceKm)")
      check(HealthLimits.activeEnergyKcal.contains(day.activeEnergyKcal), "\(day.date) kcal \(day.activeEnergyKcal)")
      check((1899...2200).contains(day.date.year), "date \(day.date)")
    }
    for measure in health.measures {
      check(HealthLimits.range(of: measure.kind).range.contains(measure.value), "\(measure.kind) \(measure.value)")
      check(measure.date >= earliest && measure.date <= latest, "measure date \(measure.date)")
    }
    for workout in health.workouts {
      let elapsed = workout.end.timeIntervalSince(workout.start)
      check(elapsed >= 0 && elapsed <= HealthLimits.maximumWorkoutSeconds, "workout elapsed \(elapsed)")
      check(workout.start >= earliest && workout.end <= latest, "workout dates \(workout.start)")
      check(
        workout.durationSeconds >= 0 && workout.durationSeconds <= HealthLimits.maximumWorkoutSeconds,
        "workout duration \(workout.durationSeconds)")
      if let km = workout.distanceKm { check(HealthLimits.distanceKm.contains(km), "workout km \(km)") }
      if let kcal = workout.energyKcal { check(HealthLimits.activeEnergyKcal.contains(kcal), "workout kcal \(kcal)") }
    }
    return problems
  }
}
