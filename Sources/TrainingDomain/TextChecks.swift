import RunningCore

// Text every engine stores whole or refuses (``RunningCore/TextRules``): checked before any write, on both engines,
// whatever door the text came through (the CLI, the coach API, a pull).

/// The names a profile may not have: nothing but spaces, and the names of a folder and its parent.
let reservedProfileNames: Set<String> = [".", ".."]

/// `name` as a profile's name: one line of 1 to 64 characters without control characters, not only spaces, not `.`
/// or `..` (a profile's name is a path segment of the coach API and of its feeds).
/// - Throws: ``LogbookError/implausible(record:field:value:allowed:)`` naming the name.
public func checkProfileName(_ name: String) throws(LogbookError) {
  let allowed = "1 to 64 characters on one line, not only spaces, not '.' or '..'"
  if let bad = TextRules.forbiddenInName(name) {
    throw .implausible(
      record: "profile", field: .name, value: "'\(TextRules.quoted(name))'", allowed: TextRules.nameAllowed(found: bad))
  }
  guard (1...64).contains(name.count), !name.allSatisfy(\.isWhitespace), !reservedProfileNames.contains(name) else {
    throw .implausible(record: "profile", field: .name, value: "'\(TextRules.quoted(name))'", allowed: allowed)
  }
}

/// `name` as a plan's name: one line without control characters.
/// - Throws: ``LogbookError/implausible(record:field:value:allowed:)`` naming the name.
public func checkPlanName(_ name: String) throws(LogbookError) {
  if let bad = TextRules.forbiddenInName(name) {
    throw .implausible(
      record: "plan", field: .name, value: "'\(TextRules.quoted(name))'", allowed: TextRules.nameAllowed(found: bad))
  }
}

/// `text` as a comment's or a note's text: no control characters but tabs and line breaks.
/// - Throws: ``LogbookError/implausible(record:field:value:allowed:)`` naming `record` and the field.
public func checkFreeText(_ text: String, record: String, field: RecordField) throws(LogbookError) {
  if let bad = TextRules.forbiddenInText(text) {
    throw .implausible(
      record: record, field: field, value: "'\(TextRules.quoted(text))'", allowed: TextRules.textAllowed(found: bad))
  }
}
