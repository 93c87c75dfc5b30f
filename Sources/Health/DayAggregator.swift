import Foundation
import RunningCore

/// The summed daily metrics.
enum Metric: Int, CaseIterable {
  case steps = 0
  case distance = 1
  case activeEnergy = 2
}

/// UTC offsets of a time zone by instant, cached per UTC day (two `TimeZone` calls per day seen, then a
/// comparison per lookup).
struct ZoneOffsets {
  private struct Day {
    var before: Int64
    var transition: Int64
    var after: Int64
  }

  let zone: TimeZone
  private var cachedDay = Int64.min
  private var current = Day(before: 0, transition: .max, after: 0)
  private var table: [Int64: Day] = [:]

  init(zone: TimeZone) { self.zone = zone }

  /// The zone's offset from UTC, in seconds, at `utc` (seconds since 1970).
  @inline(__always)
  mutating func offset(at utc: Int64) -> Int64 {
    let day = utc >= 0 ? utc / 86_400 : (utc - 86_399) / 86_400
    if day != cachedDay { load(day) }
    return utc >= current.transition ? current.after : current.before
  }

  private mutating func load(_ day: Int64) {
    cachedDay = day
    if let known = table[day] {
      current = known
      return
    }
    let start = Date(timeIntervalSince1970: TimeInterval(day * 86_400))
    var entry = Day(before: Int64(zone.secondsFromGMT(for: start)), transition: .max, after: 0)
    if let next = zone.nextDaylightSavingTimeTransition(after: start),
      next.timeIntervalSince1970 < TimeInterval((day + 1) * 86_400)
    {
      entry.transition = Int64(next.timeIntervalSince1970.rounded(.up))
      entry.after = Int64(zone.secondsFromGMT(for: next))
    }
    if table.count > 100_000 { table.removeAll(keepingCapacity: true) }
    table[day] = entry
    current = entry
  }
}

/// The sources (apps and devices) seen in samples, with their rank for de-duplication.
///
/// Rank, highest first (the rule of the reference aggregation, docs/references.md, after the Health app): sources named in the
/// explicit priority list, in its order; manual entries (source `Health`, or a first sample carrying
/// `HKWasUserEntered = 1`); Apple Watches (`device` says `name:Apple Watch`, or the name contains
/// `Watch`); iPhones (`name:iPhone`, or `iPhone` in the name); every other app or device. Ties are broken
/// by name (byte order). A source's rank is fixed by its first usable sample.
struct SourceTable {
  /// A source's place in the order (smaller is higher priority).
  struct Rank: Comparable {
    var tier: Int
    var position: Int
    var name: [UInt8]

    static func < (lhs: Rank, rhs: Rank) -> Bool {
      if lhs.tier != rhs.tier { return lhs.tier < rhs.tier }
      if lhs.position != rhs.position { return lhs.position < rhs.position }
      return lhs.name.lexicographicallyPrecedes(rhs.name)
    }
  }

  /// The most sources accepted (the piece encoding keeps 29 bits).
  static let capacity = 1 << 20

  private(set) var names: [[UInt8]] = []
  private(set) var ranks: [Rank] = []
  private var index: [UInt64: Int32] = [:]
  private var chain: [Int32] = []
  private var recent: Int32 = -1
  private let explicit: [[UInt8]: Int]

  /// Creates a table; `priority` lists source names, highest priority first.
  init(priority: [String]) {
    var explicit: [[UInt8]: Int] = [:]
    for (position, name) in priority.enumerated() where explicit[Array(name.utf8)] == nil {
      explicit[Array(name.utf8)] = position
    }
    self.explicit = explicit
  }

  private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
  }

  /// The id of the source called `name`, if known.
  @inline(__always)
  mutating func find(_ name: UnsafeBufferPointer<UInt8>) -> Int32? {
    if recent >= 0, Self.equal(names[Int(recent)], name) { return recent }
    guard var id = index[Self.hash(name)] else { return nil }
    while id >= 0 {
      if Self.equal(names[Int(id)], name) {
        recent = id
        return id
      }
      id = chain[Int(id)]
    }
    return nil
  }

  @inline(__always)
  private static func equal(_ stored: [UInt8], _ name: UnsafeBufferPointer<UInt8>) -> Bool {
    stored.count == name.count
      && stored.withUnsafeBufferPointer { storedBytes in
        guard let lhs = storedBytes.baseAddress, let rhs = name.baseAddress else { return name.isEmpty }
        return memcmp(lhs, rhs, name.count) == 0
      }
  }

  private static func contains(_ name: [UInt8], _ word: String) -> Bool {
    let needle = Array(word.utf8)
    guard name.count >= needle.count else { return false }
    return (0...(name.count - needle.count)).contains { name[$0..<($0 + needle.count)].elementsEqual(needle) }
  }

  /// Adds a source seen for the first time; nil when the table is full.
  mutating func add(name: [UInt8], deviceIsWatch: Bool, deviceIsPhone: Bool, userEntered: Bool) -> Int32? {
    guard names.count < Self.capacity else { return nil }
    let id = Int32(names.count)
    let tier: Int
    var position = 0
    if let explicitPosition = explicit[name] {
      tier = -1
      position = explicitPosition
    } else if name.elementsEqual("Health".utf8) || userEntered {
      tier = 0
    } else if deviceIsWatch || Self.contains(name, "Watch") {
      tier = 1
    } else if deviceIsPhone || Self.contains(name, "iPhone") {
      tier = 2
    } else {
      tier = 3
    }
    names.append(name)
    ranks.append(Rank(tier: tier, position: position, name: name))
    let hash = name.withUnsafeBufferPointer { Self.hash($0) }
    chain.append(index[hash] ?? -1)
    index[hash] = id
    recent = id
    return id
  }
}

/// Samples of the summed metrics, split at local midnight and bucketed by local day, then totalled per
/// day with cross-source de-duplication.
///
/// Each piece takes 16 bytes (a packed key and the value), so memory grows with the number of step,
/// distance and active-energy samples (not with the file), about 4 MB per 250,000 samples.
struct DayAggregator {
  /// One piece of a sample within one local day.
  struct Piece {
    /// `source (29 bits) | start (18 bits) | length (17 bits)`; start is seconds from the day's nominal
    /// UTC start (`day × 86400`) plus ``startBias``.
    var key: UInt64
    var value: Double

    static let startBias: Int64 = 1 << 16
    var source: Int { Int(key >> 35) }
    var start: Int64 { Int64((key >> 17) & 0x3_FFFF) }
    var length: Int64 { Int64(key & 0x1_FFFF) }
  }

  /// Samples longer than this are ignored (a week; real samples last minutes to a day).
  static let maximumSampleSeconds: Int64 = 7 * 86_400

  private var zone: ZoneOffsets
  private var bucketIndex: [Int64: Int32] = [:]
  private var bucketKeys: [Int64] = []
  private var buckets: [[Piece]] = []
  private var lastKey = Int64.min
  private var lastBucket = -1

  init(zone: TimeZone) { self.zone = ZoneOffsets(zone: zone) }

  /// Whether any sample was added.
  var isEmpty: Bool { buckets.isEmpty }

  /// Adds one sample from `start` to `end` (UTC seconds; `end ≥ start`) of `value`, split across the
  /// time zone's local midnights in proportion to time (in the start's offset, as the reference does).
  /// - Returns: false when the sample is ignored (longer than ``maximumSampleSeconds``).
  @discardableResult
  mutating func add(_ metric: Metric, source: Int32, start: Int64, end: Int64, value: Double) -> Bool {
    let duration = end - start
    guard duration <= Self.maximumSampleSeconds else { return false }
    let localStart = start + zone.offset(at: start)
    if duration == 0 {
      put(metric, day: floorDay(localStart), source: source, start: start, length: 0, value: value)
      return true
    }
    var local = localStart
    var utc = start
    let localEnd = localStart + duration
    while local < localEnd {
      let day = floorDay(local)
      let next = min(localEnd, (day + 1) * 86_400)
      let fraction = Double(next - local) / Double(duration)
      put(metric, day: day, source: source, start: utc, length: next - local, value: value * fraction)
      utc += next - local
      local = next
    }
    return true
  }

  @inline(__always)
  private func floorDay(_ seconds: Int64) -> Int64 {
    seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
  }

  @inline(__always)
  private mutating func put(_ metric: Metric, day: Int64, source: Int32, start: Int64, length: Int64, value: Double) {
    let relative = start - day * 86_400 + Piece.startBias
    guard relative >= 0, relative < 1 << 18, length < 1 << 17 else { return }
    let key = UInt64(source) << 35 | UInt64(relative) << 17 | UInt64(length)
    let bucketKey = day << 2 | Int64(metric.rawValue)
    if bucketKey != lastKey {
      lastKey = bucketKey
      if let known = bucketIndex[bucketKey] {
        lastBucket = Int(known)
      } else {
        lastBucket = buckets.count
        bucketIndex[bucketKey] = Int32(buckets.count)
        bucketKeys.append(bucketKey)
        buckets.append([])
      }
    }
    buckets[lastBucket].append(Piece(key: key, value: value))
  }

  /// The de-duplicated totals per local day, sorted by date; the pieces are released as they are totalled.
  /// - Parameter ranks: Each source's rank (indexed by source id).
  mutating func dayTotals(ranks: [SourceTable.Rank]) -> [HealthDay] {
    // Source id → position in rank order.
    let order = ranks.indices.sorted { ranks[$0] < ranks[$1] }
    var position = [UInt64](repeating: 0, count: ranks.count)
    for (place, id) in order.enumerated() { position[id] = UInt64(place) }

    var days: [Int64: HealthDay] = [:]
    var scratch = CoverageScratch()
    for (index, bucketKey) in bucketKeys.enumerated() {
      let day = bucketKey >> 2
      let metric = Metric(rawValue: Int(bucketKey & 3)) ?? .steps
      var pieces = buckets[index]
      buckets[index] = []
      let total = Self.total(&pieces, position: position, scratch: &scratch)
      var entry =
        days[day]
        ?? HealthDay(date: CivilDate(dayNumber: Int(day)), steps: 0, distanceKm: 0, activeEnergyKcal: 0)
      switch metric {
      case .steps: entry.steps = total
      case .distance: entry.distanceKm = total
      case .activeEnergy: entry.activeEnergyKcal = total
      }
      days[day] = entry
    }
    buckets = []
    bucketIndex = [:]
    bucketKeys = []
    return days.keys.sorted().compactMap { days[$0] }
  }

  /// Reusable interval lists.
  struct CoverageScratch {
    var starts: [Int64] = []
    var ends: [Int64] = []
    var mergedStarts: [Int64] = []
    var mergedEnds: [Int64] = []
    var groupStarts: [Int64] = []
    var groupEnds: [Int64] = []
  }

  /// One day's total for one metric: sources in rank order; exact duplicates (same source, interval and
  /// value) once; each piece adds `value × (part of its interval not covered by higher-ranked sources) /
  /// length`; an instantaneous piece adds its value unless its instant is covered.
  static func total(_ pieces: inout [Piece], position: [UInt64], scratch: inout CoverageScratch) -> Double {
    for index in pieces.indices {
      let source = pieces[index].source
      let rank = source < position.count ? position[source] : UInt64(source)
      pieces[index].key = rank << 35 | (pieces[index].key & (1 << 35 - 1))
    }
    pieces.sort { $0.key != $1.key ? $0.key < $1.key : $0.value < $1.value }
    scratch.starts.removeAll(keepingCapacity: true)
    scratch.ends.removeAll(keepingCapacity: true)
    var total = 0.0
    var index = 0
    let count = pieces.count
    while index < count {
      let group = pieces[index].key >> 35
      scratch.groupStarts.removeAll(keepingCapacity: true)
      scratch.groupEnds.removeAll(keepingCapacity: true)
      var previous: Piece?
      while index < count, pieces[index].key >> 35 == group {
        let piece = pieces[index]
        index += 1
        if let previous, previous.key == piece.key, previous.value == piece.value { continue }
        previous = piece
        let start = piece.start
        let length = piece.length
        if length == 0 {
          if !isCovered(start, scratch.starts, scratch.ends) { total += piece.value }
          continue
        }
        let covered = overlap(start, start + length, scratch.starts, scratch.ends)
        total += piece.value * Double(max(0, length - covered)) / Double(length)
        scratch.groupStarts.append(start)
        scratch.groupEnds.append(start + length)
      }
      merge(&scratch)
    }
    return total
  }

  /// The index of the last interval starting at or before `instant`, or -1.
  private static func lastStart(atOrBefore instant: Int64, _ starts: [Int64]) -> Int {
    var low = 0
    var high = starts.count
    while low < high {
      let middle = (low + high) / 2
      if starts[middle] <= instant { low = middle + 1 } else { high = middle }
    }
    return low - 1
  }

  private static func isCovered(_ instant: Int64, _ starts: [Int64], _ ends: [Int64]) -> Bool {
    let index = lastStart(atOrBefore: instant, starts)
    return index >= 0 && ends[index] > instant
  }

  private static func overlap(_ start: Int64, _ end: Int64, _ starts: [Int64], _ ends: [Int64]) -> Int64 {
    var index = max(0, lastStart(atOrBefore: start, starts))
    var total: Int64 = 0
    while index < starts.count, starts[index] < end {
      let low = max(start, starts[index])
      let high = min(end, ends[index])
      if high > low { total += high - low }
      index += 1
    }
    return total
  }

  /// Adds the group's intervals (sorted by start) to the coverage (sorted, disjoint).
  private static func merge(_ scratch: inout CoverageScratch) {
    guard !scratch.groupStarts.isEmpty else { return }
    scratch.mergedStarts.removeAll(keepingCapacity: true)
    scratch.mergedEnds.removeAll(keepingCapacity: true)
    var a = 0
    var b = 0
    let aCount = scratch.starts.count
    let bCount = scratch.groupStarts.count
    while a < aCount || b < bCount {
      let takeA = b >= bCount || (a < aCount && scratch.starts[a] <= scratch.groupStarts[b])
      let start = takeA ? scratch.starts[a] : scratch.groupStarts[b]
      let end = takeA ? scratch.ends[a] : scratch.groupEnds[b]
      if takeA { a += 1 } else { b += 1 }
      if let last = scratch.mergedEnds.last, start <= last {
        scratch.mergedEnds[scratch.mergedEnds.count - 1] = max(last, end)
      } else {
        scratch.mergedStarts.append(start)
        scratch.mergedEnds.append(end)
      }
    }
    swap(&scratch.starts, &scratch.mergedStarts)
    swap(&scratch.ends, &scratch.mergedEnds)
  }
}
