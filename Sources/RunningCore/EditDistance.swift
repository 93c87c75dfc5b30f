/// The Levenshtein distance between two strings: the fewest single-character insertions, deletions and
/// substitutions that turn `a` into `b`. Compares characters as given (lowercase both for a case-blind distance).
///
/// Costs `a.count × b.count`: callers bound the length of text that comes from a user (see ``closestName(to:among:within:)``).
public func editDistance(_ a: String, _ b: String) -> Int {
  // Names and most typos are ASCII: their bytes are their characters, without breaking the text into graphemes.
  if a.utf8.allSatisfy({ $0 < 0x80 }) && b.utf8.allSatisfy({ $0 < 0x80 }) {
    return levenshtein(Array(a.utf8), Array(b.utf8))
  }
  return levenshtein(Array(a), Array(b))
}

/// The Levenshtein distance between two sequences, one row of the table at a time.
private func levenshtein<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Int {
  var previous = Array(0...b.count)
  var current = previous
  for i in a.indices {
    current[0] = i + 1
    for j in b.indices {
      current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
    }
    swap(&previous, &current)
  }
  return previous[b.count]
}

/// The candidate closest to `text` by edit distance, when it is close enough to be a likely typo; ties go to the
/// name that sorts first, so the answer never depends on the candidates' order.
///
/// - Parameters:
///   - text: What the user wrote. Longer than 64 characters, it is no typo of a name and gets no suggestion (the
///     distance would cost its length squared).
///   - candidates: The names that exist.
///   - limit: The largest distance that still counts as a typo of `text`; by default 1 for texts under 4
///     characters, else 2.
/// - Returns: The closest name, or nil when none is within `limit`.
public func closestName(to text: String, among candidates: [String], within limit: Int? = nil) -> String? {
  closest(to: text, among: candidates, within: limit ?? max(1, min(2, text.count / 2))) { $0 }
}

/// The candidate whose `key` (its name, or a lowercased form of it for a case-blind match) is closest to `text` by
/// edit distance, within `limit`; ties go to the key that sorts first. Every did-you-mean in the product is this one
/// search: ``closestName(to:among:within:)`` for enumerated values, ``TimeZoneNames`` for zones.
///
/// - Parameters:
///   - text: What the user wrote. Longer than 64 characters, it is no typo of a name and gets no suggestion (the
///     distance would cost its length squared).
///   - candidates: What exists.
///   - limit: The largest distance that still counts as a typo of `text`.
///   - key: The text a candidate is compared as.
/// - Returns: The closest candidate, or nil when none is within `limit`.
public func closest<Candidate>(
  to text: String, among candidates: some Sequence<Candidate>, within limit: Int, by key: (Candidate) -> String
) -> Candidate? {
  guard text.count <= 64 else { return nil }
  var best: (candidate: Candidate, key: String, score: Int)?
  let length = text.count
  for candidate in candidates {
    let key = key(candidate)
    // The distance is at least the difference in length: a key that much longer or shorter is not compared.
    guard abs(key.count - length) <= limit else { continue }
    let score = editDistance(text, key)
    guard score <= limit else { continue }
    if let current = best, (current.score, current.key) <= (score, key) { continue }
    best = (candidate, key, score)
  }
  return best?.candidate
}
