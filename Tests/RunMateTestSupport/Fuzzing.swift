import Foundation

// Seeded random mutations of real files, shared by the fuzz tests of the parsers (Activity, Health, ICalendar).
// The inputs depend only on the seed and the iteration number, so a failure (or a crash, which ends the process)
// comes back with the same `RUNMATE_FUZZ_SEED`.

/// SplitMix64: a small, fast, seedable generator (the same numbers on every platform).
public struct SplitMix: RandomNumberGenerator {
  private var state: UInt64

  /// A generator that gives the same numbers for the same seed.
  public init(seed: UInt64) { state = seed }

  /// The next number of the sequence.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Mutations of real files: byte flips, truncation, splices from the corpus, repeated chunks (deep or wide
/// nesting), hostile numbers and control bytes or markup.
public struct Mutator: Sendable {
  /// Numbers put in place of a run of digits.
  public static let hostileNumbers = [
    "1e21", "-1e21", "1e309", "-1e309", "NaN", "nan", "inf", "-inf", "Infinity", "-0", "0", "1e-400",
    "99999999999999999999999", "0x1p3", "4.9e-324", "1.7976931348623157e308", "-2000", "300", "1e19", "",
  ]
  /// Bytes every format should survive: NUL, control bytes, broken UTF-8.
  public static let controlBytes: [[UInt8]] = [
    [0], [1], [0x0B], [0x7F], [0xFF], [0xFE, 0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], Array("\r\n".utf8),
  ]
  /// XML that every XML format should survive: references, CDATA, an internal DTD.
  public static let xmlMarkup: [[UInt8]] = [
    Array("&#9999999999;".utf8), Array("&amp;".utf8), Array("<![CDATA[".utf8), Array("]]>".utf8),
    Array("<!DOCTYPE x [<!ENTITY a \"b\">]>".utf8),
  ]

  /// What is inserted at random places (``controlBytes`` plus the format's own markup).
  public var garbage: [[UInt8]]

  /// A mutator inserting `garbage` besides the control bytes.
  public init(garbage: [[UInt8]]) { self.garbage = garbage }

  /// `original` with one to three random mutations.
  public func mutate(_ original: [UInt8], corpus: [[UInt8]], _ random: inout SplitMix) -> [UInt8] {
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
        guard !donor.isEmpty else { break }
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
        let number = Self.hostileNumbers[Int(random.next() % UInt64(Self.hostileNumbers.count))]
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

/// What one fuzz campaign did.
public struct FuzzRun: Sendable {
  /// What was fuzzed (a parser's name).
  public var target: String
  /// The seed the inputs came from (a failure is replayed with it).
  public var seed: UInt64
  /// Inputs tried.
  public var iterations = 0
  /// Inputs refused with an error (the others were accepted).
  public var refused = 0
  /// The most CPU time one input took (the thread's own time, so other tests and a busy machine do not count).
  public var slowest = Duration.zero
  /// One line per input that broke a rule: the seed, the iteration and what was wrong.
  public var failures: [String] = []
  /// The most CPU time one input may take (`RUNMATE_FUZZ_INPUT_SECONDS`, default 2), or nil for no bound
  /// (`RUNMATE_FUZZ_INPUT_SECONDS=none`: scripts/valgrind.sh, whose run checks memory; the native run checks time).
  public var inputLimit: Duration?

  /// True when every input kept the rules, at least one ran, and none was slow.
  public var passed: Bool { failures.isEmpty && iterations > 0 && inputLimit.map { slowest < $0 } ?? true }
}

/// A bounded fuzz campaign: `RUNMATE_FUZZ_SECONDS` (default 2) of mutations of `corpus` from `RUNMATE_FUZZ_SEED`
/// (default `defaultSeed`). `check` returns what is wrong with the result of one input, or throws the parser's
/// refusal, whose message must be one non-empty line without CR or LF.
public func fuzz(
  _ target: String, corpus: [[UInt8]], defaultSeed: UInt64, mutator: Mutator,
  check: ([UInt8], inout SplitMix) throws -> [String]
) -> FuzzRun {
  let environment = ProcessInfo.processInfo.environment
  let seed = environment["RUNMATE_FUZZ_SEED"].flatMap { UInt64($0) } ?? defaultSeed
  let seconds = environment["RUNMATE_FUZZ_SECONDS"].flatMap { Double($0) } ?? 2
  let inputSetting = environment["RUNMATE_FUZZ_INPUT_SECONDS"]
  let inputSeconds: Double? = inputSetting == "none" ? nil : inputSetting.flatMap { Double($0) } ?? 2
  var run = FuzzRun(target: target, seed: seed, inputLimit: inputSeconds.map { .milliseconds(Int($0 * 1000)) })
  let clock = ContinuousClock()
  let deadline = clock.now + .milliseconds(Int(seconds * 1000))
  print("fuzz \(target): seed \(seed) (RUNMATE_FUZZ_SEED), \(seconds) s (RUNMATE_FUZZ_SECONDS)")
  // At least one input, whatever the clock says: under valgrind, translating the code on its first run can take
  // the whole budget before the first input (a CI run once ended with 0 inputs and failed).
  repeat {
    var random = SplitMix(seed: seed &+ UInt64(run.iterations) &* 0x9E37_79B9_7F4A_7C15)
    let input = mutator.mutate(corpus[Int(random.next() % UInt64(corpus.count))], corpus: corpus, &random)
    let started = threadCPUTime()
    var problems: [String]
    do {
      problems = try check(input, &random)
    } catch {
      run.refused += 1
      problems = refusalProblems(error)
    }
    let took = threadCPUTime() - started
    run.slowest = max(run.slowest, took)
    if let limit = run.inputLimit, took >= limit { problems.append("took \(took) of CPU time") }
    run.failures += problems.map { "\(target): seed \(seed), iteration \(run.iterations): \($0)" }
    run.iterations += 1
  } while clock.now < deadline
  print("fuzz \(target): \(run.iterations) inputs, \(run.refused) refused, slowest \(run.slowest)")
  return run
}

/// The calling thread's CPU time. `check` is synchronous, so one input runs on one thread from start to end; wall
/// time would also count the tests running beside it (valgrind runs every thread on one core, one at a time).
private func threadCPUTime() -> Duration {
  var now = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
  return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
}

/// What is wrong with a parser's refusal: its message must be one non-empty line without CR or LF.
public func refusalProblems(_ error: any Error) -> [String] {
  let message = String(describing: error)
  let oneLine = !message.isEmpty && !message.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
  return oneLine ? [] : ["the refusal is not one line: \(message.debugDescription)"]
}
