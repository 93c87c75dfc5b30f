import Foundation
import Testing

@testable import Activity

/// Seeded random mutations of the real fixtures through the GPX/TCX reader: it must never trap, and must
/// either give summaries whose values are all inside `ActivityLimits`, or throw an ``ActivityError`` whose
/// message is one line.
///
/// Each run takes about `RUNMATE_FUZZ_SECONDS` seconds (default 2) from the seed `RUNMATE_FUZZ_SEED`
/// (default fixed, printed): the inputs depend only on the seed and the iteration number, so a failure (or
/// a crash, which ends the process) comes back with the same seed.
struct FuzzTests {
  static let fixtures = [
    "gpx/route_2021-01-03_5.53pm.gpx", "gpx/two-segments.gpx", "gpx/twin-of-tcx-run.gpx", "tcx/treadmill.tcx",
    "tcx/two-activities.tcx",
  ]

  @Test func mutatedActivityFilesNeverTrapAndStayPlausible() throws {
    let environment = ProcessInfo.processInfo.environment
    let seed = environment["RUNMATE_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x5EED_AC71
    let seconds = environment["RUNMATE_FUZZ_SECONDS"].flatMap { Double($0) } ?? 2
    let corpus = try Self.fixtures.map { [UInt8](try Data(contentsOf: fixtureURL($0))) }
    let clock = ContinuousClock()
    let deadline = clock.now + .milliseconds(Int(seconds * 1000))
    var iterations = 0
    var refused = 0
    var slowest = Duration.zero
    print("fuzz Activity: seed \(seed) (RUNMATE_FUZZ_SEED), \(seconds) s (RUNMATE_FUZZ_SECONDS)")
    while clock.now < deadline {
      var random = SplitMix(seed: seed &+ UInt64(iterations) &* 0x9E37_79B9_7F4A_7C15)
      let input = Mutator.mutate(corpus[Int(random.next() % UInt64(corpus.count))], corpus: corpus, &random)
      let name = random.next() % 2 == 0 ? "fuzz.gpx" : "fuzz.tcx"
      let started = clock.now
      do {
        let summaries = try readActivities(data: Data(input), name: name)
        for summary in summaries {
          let problems = Self.implausibilities(summary)
          #expect(problems.isEmpty, "seed \(seed), iteration \(iterations): \(problems)")
        }
      } catch {
        refused += 1
        let message = error.description
        #expect(
          !message.isEmpty && !message.contains("\n") && message.hasPrefix(name),
          "seed \(seed), iteration \(iterations): \(message)")
      }
      slowest = max(slowest, clock.now - started)
      iterations += 1
    }
    print("fuzz Activity: \(iterations) inputs, \(refused) refused, slowest \(slowest)")
    #expect(iterations > 0)
    #expect(slowest < .seconds(2), "seed \(seed): one input took \(slowest)")
  }

  /// What is out of range in a summary (empty when all is plausible).
  static func implausibilities(_ summary: ActivitySummary) -> [String] {
    let limits = ActivityLimits.standard
    var problems: [String] = []
    func check(_ ok: Bool, _ what: String) { if !ok { problems.append(what) } }
    check((0...limits.maximumDistance).contains(summary.distanceMeters), "distance \(summary.distanceMeters)")
    check((0...limits.maximumElapsed).contains(summary.elapsedSeconds), "elapsed \(summary.elapsedSeconds)")
    check(
      summary.movingSeconds >= 0 && summary.movingSeconds <= summary.elapsedSeconds, "moving \(summary.movingSeconds)")
    check(
      limits.accepts(time: summary.start.timeIntervalSince1970)
        && limits.accepts(time: summary.end.timeIntervalSince1970), "dates \(summary.start) \(summary.end)")
    check(
      summary.distanceMeters <= limits.maximumSpeed(sport: summary.sport) * summary.elapsedSeconds + limits.speedSlack,
      "speed")
    if let gain = summary.elevationGainMeters {
      check(gain >= 0 && gain <= limits.maximumElevationGain, "gain \(gain)")
    }
    if let average = summary.averageHeartRate { check(limits.heartRate.contains(average), "heart rate \(average)") }
    if let maximum = summary.maxHeartRate { check(limits.heartRate.contains(Double(maximum)), "max hr \(maximum)") }
    check(summary.pointCount >= 0 && summary.droppedPoints >= 0, "counts")
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
    Array("<trkpt lat=\"0\" lon=\"0\">".utf8), Array("</trkseg>".utf8), Array("<Trackpoint>".utf8),
    Array("<time>1850-01-01T00:00:00Z</time>".utf8), Array("\r\n".utf8),
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
