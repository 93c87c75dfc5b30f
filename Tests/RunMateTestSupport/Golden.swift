import Foundation
import Testing

// Text compared with an expected text (a golden file under examples/ or Fixtures/): on a mismatch the failure names
// the first differing lines with their numbers, not two whole texts to compare by eye.

/// A short unified-diff-like excerpt of where `actual` first departs from `expected`: the line number, a line of
/// context either side, `-` for the expected line and `+` for the actual one. Nil when the texts are equal.
public func firstDifference(_ actual: String, _ expected: String, context: Int = 1, maxLines: Int = 6) -> String? {
  guard actual != expected else { return nil }
  let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
  let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
  var first = 0
  while first < new.count, first < old.count, new[first] == old[first] { first += 1 }
  // The differing run: from `first` up to where the texts agree again from their ends.
  var newEnd = new.count
  var oldEnd = old.count
  while newEnd > first, oldEnd > first, new[newEnd - 1] == old[oldEnd - 1] {
    newEnd -= 1
    oldEnd -= 1
  }
  func clip(_ line: Substring) -> String { line.count > 160 ? "\(line.prefix(160))…" : String(line) }
  var lines = ["@@ line \(first + 1): expected \(oldEnd - first) line(s), got \(newEnd - first) @@"]
  for index in max(0, first - context)..<first { lines.append("  \(clip(old[index]))") }
  let removed = old[first..<oldEnd].prefix(maxLines).map { "- \(clip($0))" }
  let added = new[first..<newEnd].prefix(maxLines).map { "+ \(clip($0))" }
  lines += removed
  if oldEnd - first > maxLines { lines.append("- … \(oldEnd - first - maxLines) more") }
  lines += added
  if newEnd - first > maxLines { lines.append("+ … \(newEnd - first - maxLines) more") }
  for index in oldEnd..<min(old.count, oldEnd + context) { lines.append("  \(clip(old[index]))") }
  if actual.count != expected.count && first == min(new.count, old.count) {
    lines.append("(one text ends earlier, or they differ only in the final newline)")
  }
  return lines.joined(separator: "\n")
}

/// Expects `actual` to equal `expected`, reporting the first differing lines (see
/// ``firstDifference(_:_:context:maxLines:)``).
public func expectSameText(
  _ actual: String, _ expected: String, _ what: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  if let difference = firstDifference(actual, expected) {
    Issue.record("\(what) differs from what was expected:\n\(difference)", sourceLocation: sourceLocation)
  }
}

/// Expects `actual` to equal the text of the golden file at `golden`, reporting the first differing lines with the
/// file's line numbers.
public func expectMatchesGolden(
  _ actual: String, _ golden: URL,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let expected = try String(contentsOf: golden, encoding: .utf8)
  if let difference = firstDifference(actual, expected) {
    let name = golden.path.replacingOccurrences(of: repositoryRoot.path + "/", with: "")
    Issue.record("output differs from \(name):\n\(difference)", sourceLocation: sourceLocation)
  }
}
