/// A week's runs by slot id (`q1`, `easy2`, ...), kept in slot-id order.
///
/// A week has a handful of slots, so a small sorted array beats a hashed dictionary: no hashing on every look-up
/// (the rules look slots up thousands of times a plan), and iteration is already in a fixed order, so sums and ties
/// come out the same on every run without sorting. The API is the part of `Dictionary`'s the rules use.
///
/// The ids and the values are two arrays side by side: a look-up compares ids without copying the values it passes,
/// and `values` is the stored array itself (no copy, no allocation).
struct SlotMap<Value: Sendable>: Sendable {
  typealias Element = (key: String, value: Value)
  /// The slot ids, in order.
  private(set) var keys: [String] = []
  /// The values, in slot-id order.
  private(set) var values: [Value] = []

  init() {}

  private func index(of key: String) -> (found: Bool, at: Int) {
    for (offset, entry) in keys.enumerated() {
      if entry == key { return (true, offset) }
      if key < entry { return (false, offset) }
    }
    return (false, keys.count)
  }

  /// The value at `key`; setting nil removes it.
  subscript(key: String) -> Value? {
    get {
      guard let at = keys.firstIndex(of: key) else { return nil }
      return values[at]
    }
    set {
      let (found, at) = index(of: key)
      switch (found, newValue) {
      case (true, let value?): values[at] = value
      case (true, nil):
        keys.remove(at: at)
        values.remove(at: at)
      case (false, let value?):
        if keys.isEmpty {
          // Room for a week's slots at the first one: inserting them one by one regrew both arrays several times.
          keys.reserveCapacity(slotsPerWeek)
          values.reserveCapacity(slotsPerWeek)
        }
        keys.insert(key, at: at)
        values.insert(value, at: at)
      case (false, nil): break
      }
    }
  }

  var count: Int { keys.count }
  var isEmpty: Bool { keys.isEmpty }
}

/// The most slots a week has (one a day).
private let slotsPerWeek = 7

extension SlotMap: Sequence {
  struct Iterator: IteratorProtocol {
    fileprivate let map: SlotMap
    fileprivate var offset = 0

    mutating func next() -> Element? {
      guard offset < map.keys.count else { return nil }
      defer { offset += 1 }
      return (map.keys[offset], map.values[offset])
    }
  }

  func makeIterator() -> Iterator { Iterator(map: self) }
  var underestimatedCount: Int { keys.count }
}

extension SlotMap: Equatable where Value: Equatable {}

extension SlotMap: ExpressibleByDictionaryLiteral {
  init(dictionaryLiteral elements: (String, Value)...) {
    for (key, value) in elements { self[key] = value }
  }
}
