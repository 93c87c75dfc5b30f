/// A week's runs by slot id (`q1`, `easy2`, ...), kept in slot-id order.
///
/// A week has a handful of slots, so a small sorted array beats a hashed dictionary: no hashing on every look-up
/// (the rules look slots up thousands of times a plan), and iteration is already in a fixed order, so sums and ties
/// come out the same on every run without sorting. The API is the part of `Dictionary`'s the rules use.
struct SlotMap<Value: Sendable>: Sendable {
  typealias Element = (key: String, value: Value)
  private var entries: [Element] = []

  init() {}

  // The look-ups read the entries in place (by index): iterating them would copy every value on the way.
  private func index(of key: String) -> (found: Bool, at: Int) {
    var offset = 0
    while offset < entries.count {
      if entries[offset].key == key { return (true, offset) }
      if key < entries[offset].key { return (false, offset) }
      offset += 1
    }
    return (false, entries.count)
  }

  /// The value at `key`; setting nil removes it.
  subscript(key: String) -> Value? {
    get {
      var offset = 0
      while offset < entries.count {
        if entries[offset].key == key { return entries[offset].value }
        offset += 1
      }
      return nil
    }
    set {
      let (found, at) = index(of: key)
      switch (found, newValue) {
      case (true, let value?): entries[at].value = value
      case (true, nil): entries.remove(at: at)
      case (false, let value?): entries.insert((key, value), at: at)
      case (false, nil): break
      }
    }
  }

  /// The values, in slot-id order.
  var values: [Value] { entries.map(\.value) }
  /// The slot ids, in order.
  var keys: [String] { entries.map(\.key) }
  var count: Int { entries.count }
  var isEmpty: Bool { entries.isEmpty }
}

extension SlotMap: Sequence {
  func makeIterator() -> IndexingIterator<[Element]> { entries.makeIterator() }
  var underestimatedCount: Int { entries.count }
}

extension SlotMap: ExpressibleByDictionaryLiteral {
  init(dictionaryLiteral elements: (String, Value)...) {
    for (key, value) in elements { self[key] = value }
  }
}
