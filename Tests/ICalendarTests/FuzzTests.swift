import Foundation
import ICalendar
import Testing

/// Seeded random mutations of real calendars through the busy-calendar path (``VCalendar/parse(_:)`` and
/// ``VCalendar/occurrences(in:from:to:floatingTimeZone:)``, as `runmate` reads busy calendars): libical must
/// never trap, and a refusal is an ``ICalendarError`` whose message is one line.
///
/// Each target runs for about `RUNMATE_FUZZ_SECONDS` seconds (default 2) from the seed `RUNMATE_FUZZ_SEED`
/// (default fixed, printed): the inputs depend only on the seed and the iteration number, so a failure (or
/// a crash, which ends the process) comes back with the same seed.
struct FuzzTests {
  static let fixtures = [
    "busy/busy-sample.ics", "events/good-recurring.ics", "events/overrides-and-flags.ics",
    "timezones/freeassociation-berlin-with-vtimezone.ics", "broken/unknown-tzid.ics",
  ]

  @Test func mutatedCalendarsNeverTrap() throws {
    let environment = ProcessInfo.processInfo.environment
    let seed = environment["RUNMATE_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x5EED_1C5
    let seconds = environment["RUNMATE_FUZZ_SECONDS"].flatMap { Double($0) } ?? 2
    let corpus = try Self.fixtures.map { Array(try fixture($0).utf8) }
    let clock = ContinuousClock()
    let deadline = clock.now + .milliseconds(Int(seconds * 1000))
    var iterations = 0
    var refused = 0
    var slowest = Duration.zero
    // Two months around the fixtures' events (2025-01-01 to 2025-03-01 UTC).
    let from: Int64 = 1_735_689_600
    let to: Int64 = 1_740_787_200
    print("fuzz ICalendar: seed \(seed) (RUNMATE_FUZZ_SEED), \(seconds) s (RUNMATE_FUZZ_SECONDS)")
    while clock.now < deadline {
      var random = SplitMix(seed: seed &+ UInt64(iterations) &* 0x9E37_79B9_7F4A_7C15)
      let input = Mutator.mutate(corpus[Int(random.next() % UInt64(corpus.count))], corpus: corpus, &random)
      let text = String(decoding: input, as: UTF8.self)
      let started = clock.now
      for expand in [false, true] {
        do {
          if expand {
            let found = try VCalendar.occurrences(in: text, from: from, to: to, floatingTimeZone: "Europe/Berlin")
            #expect(
              found.count <= 100_000 * max(1, text.count / 10),
              "seed \(seed), iteration \(iterations): \(found.count) occurrences")
          } else {
            _ = try VCalendar.parse(text)
          }
        } catch {
          refused += 1
          let message = error.description
          #expect(!message.isEmpty && !message.contains("\n"), "seed \(seed), iteration \(iterations): \(message)")
          // A line ending in a stray CR ("BEGIN:VEVENT\r\r\n") once kept it in the message.
          #expect(!message.contains("\r"), "seed \(seed), iteration \(iterations)")
        }
      }
      slowest = max(slowest, clock.now - started)
      iterations += 1
    }
    print("fuzz ICalendar: \(iterations) inputs, \(refused) refusals, slowest \(slowest)")
    #expect(iterations > 0)
    #expect(slowest < .seconds(2), "seed \(seed): one input took \(slowest)")
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
    [0], [1], [0x0B], [0x7F], [0xFF], [0xFE, 0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], Array("\r\n ".utf8),
    Array("\r\nBEGIN:VEVENT\r\n".utf8), Array("\r\nEND:VEVENT\r\n".utf8), Array("\r\nBEGIN:VCALENDAR\r\n".utf8),
    Array("\r\nRRULE:FREQ=SECONDLY\r\n".utf8), Array("\r\nRRULE:FREQ=MINUTELY;INTERVAL=1\r\n".utf8),
    Array("\r\nDTSTART:99991231T235959Z\r\n".utf8), Array("\r\nDTSTART;TZID=Nowhere/City:20250101T000000\r\n".utf8),
    Array(";X=\"".utf8), Array("\r\nEXDATE:".utf8), Array("\r\nBEGIN:VTIMEZONE\r\n".utf8), Array(":".utf8),
    Array("\r\nRECURRENCE-ID:20250102T000000Z\r\n".utf8), Array("\r\nDURATION:-P9999W\r\n".utf8),
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
