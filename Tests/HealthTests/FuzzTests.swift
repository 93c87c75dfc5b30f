import Foundation
import Testing

@testable import Health

/// Seeded random mutations of real exports through the Health XML scanner, the daily CSV reader and the zip
/// reader: they must never trap, and must either give an import whose values are all inside
/// `HealthLimits`, or throw a ``HealthError`` whose message is one line.
///
/// Each target runs for about `RUNMATE_FUZZ_SECONDS` seconds (default 2) from the seed `RUNMATE_FUZZ_SEED`
/// (default fixed, printed): the inputs depend only on the seed and the iteration number, so a failure (or
/// a crash, which ends the process) comes back with the same seed.
struct FuzzTests {
  static var seed: UInt64 {
    ProcessInfo.processInfo.environment["RUNMATE_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x5EED_4EA1
  }

  static var seconds: Double {
    ProcessInfo.processInfo.environment["RUNMATE_FUZZ_SECONDS"].flatMap { Double($0) } ?? 2
  }

  /// Runs `body` on mutations of `fixtures` until the time is up; `body` returns the problems it found
  /// with a result, or throws the importer's error.
  static func fuzz(
    _ target: String, _ fixtures: [String], body: ([UInt8], inout SplitMix) throws(HealthError) -> [String]
  ) throws {
    let corpus = try fixtures.map { [UInt8](try Data(contentsOf: fixtureURL($0))) }
    let seed = Self.seed
    let clock = ContinuousClock()
    let deadline = clock.now + .milliseconds(Int(seconds * 1000))
    var iterations = 0
    var refused = 0
    var slowest = Duration.zero
    print("fuzz \(target): seed \(seed) (RUNMATE_FUZZ_SEED), \(seconds) s (RUNMATE_FUZZ_SECONDS)")
    while clock.now < deadline {
      var random = SplitMix(seed: seed &+ UInt64(iterations) &* 0x9E37_79B9_7F4A_7C15)
      let input = Mutator.mutate(corpus[Int(random.next() % UInt64(corpus.count))], corpus: corpus, &random)
      let started = clock.now
      do {
        let problems = try body(input, &random)
        #expect(problems.isEmpty, "\(target): seed \(seed), iteration \(iterations): \(problems)")
      } catch {
        refused += 1
        let message = error.description
        #expect(
          !message.isEmpty && !message.contains("\n"), "\(target): seed \(seed), iteration \(iterations): \(message)")
      }
      slowest = max(slowest, clock.now - started)
      iterations += 1
    }
    print("fuzz \(target): \(iterations) inputs, \(refused) refused, slowest \(slowest)")
    #expect(iterations > 0)
    #expect(slowest < .seconds(2), "\(target): seed \(seed): one input took \(slowest)")
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
      check(day.date >= "1899-12-31" && day.date <= "2200-01-01", "date \(day.date)")
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

/// SplitMix64: a small, fast, seedable generator (the same numbers on every platform).
struct SplitMix: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Mutations of real files: byte flips, truncation, splices from the corpus, repeated chunks (deep or wide
/// nesting), hostile numbers and control bytes.
enum Mutator {
  static let numbers = [
    "1e21", "-1e21", "1e309", "-1e309", "NaN", "nan", "inf", "-inf", "Infinity", "-0", "0", "1e-400",
    "99999999999999999999999", "0x1p3", "4.9e-324", "1.7976931348623157e308", "-2000", "300", "1e19", "",
  ]
  static let garbage: [[UInt8]] = [
    [0], [1], [0x0B], [0x7F], [0xFF], [0xFE, 0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], Array("&#9999999999;".utf8),
    Array("&amp;".utf8), Array("<![CDATA[".utf8), Array("]]>".utf8), Array("<!DOCTYPE x [<!ENTITY a \"b\">]>".utf8),
    Array("<Record type=\"HKQuantityTypeIdentifierStepCount\" value=\"1e19\">".utf8), Array("</Workout>".utf8),
    Array("<Correlation>".utf8), Array("1850-01-01 00:00:00 +0000".utf8), Array("\r\n".utf8), Array(",,,\n".utf8),
    Array("PK\u{03}\u{04}".utf8), Array("PK\u{05}\u{06}".utf8), [0xFF, 0xFF, 0xFF, 0xFF],
  ]

  static func mutate(_ original: [UInt8], corpus: [[UInt8]], _ random: inout SplitMix) -> [UInt8] {
    var bytes = original
    let rounds = 1 + Int(random.next() % 3)
    for _ in 0..<rounds {
      guard !bytes.isEmpty else { return bytes }
      let position = Int(random.next() % UInt64(bytes.count))
      switch random.next() % 7 {
      case 0:  // flip bytes
        for _ in 0..<(1 + Int(random.next() % 8)) {
          bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
        }
      case 1:  // truncate
        bytes.removeSubrange(position...)
      case 2:  // splice a chunk of another file in
        let donor = corpus[Int(random.next() % UInt64(corpus.count))]
        let start = Int(random.next() % UInt64(donor.count))
        let length = min(donor.count - start, 1 + Int(random.next() % 2000))
        bytes.insert(contentsOf: donor[start..<(start + length)], at: position)
      case 3:  // repeat a chunk many times (deep nesting when it holds a start tag)
        let length = min(bytes.count - position, 1 + Int(random.next() % 200))
        let chunk = bytes[position..<(position + length)]
        let copies = 1 + Int(random.next() % 300)
        bytes.insert(contentsOf: Array(repeating: Array(chunk), count: copies).joined(), at: position)
      case 4:  // a hostile number in place of a run of digits
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        guard let start = bytes[position...].firstIndex(where: { digits.contains($0) }) else { break }
        let end = bytes[start...].firstIndex { !digits.contains($0) && $0 != UInt8(ascii: ".") } ?? bytes.count
        let number = numbers[Int(random.next() % UInt64(numbers.count))]
        bytes.replaceSubrange(start..<end, with: Array(number.utf8))
      case 5:  // control bytes and markup
        bytes.insert(contentsOf: garbage[Int(random.next() % UInt64(garbage.count))], at: position)
      default:  // delete a chunk
        let length = min(bytes.count - position, 1 + Int(random.next() % 100))
        bytes.removeSubrange(position..<(position + length))
      }
    }
    return bytes
  }
}
