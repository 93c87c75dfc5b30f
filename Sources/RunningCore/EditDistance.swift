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
  guard text.count <= 64 else { return nil }
  let limit = limit ?? max(1, min(2, text.count / 2))
  var best: (name: String, score: Int)?
  let length = text.count
  // The distance is at least the difference in length: a name that much longer or shorter is not compared.
  for name in candidates where abs(name.count - length) <= limit {
    let score = editDistance(text, name)
    guard score <= limit else { continue }
    if let current = best, (current.score, current.name) <= (score, name) { continue }
    best = (name, score)
  }
  return best?.name
}
