/// What text may hold, the one rule for every door (the CLI's options, the coach API's bodies, a pulled plan): text is
/// kept whole or refused, never cut short. PostgreSQL refuses a NUL in text and SQLite's C strings end at one, so a
/// NUL was a 500 on one engine and a note cut short on the other; other control characters rewrite a terminal or a
/// calendar line. Names are one line; free text (a note, a comment, a bio) may break lines and hold tabs.
public enum TextRules {
  /// The first character `text` may not hold as a one-line name (a login, a profile or a plan name): any control
  /// character (NUL included, line breaks too) or a bidirectional override; nil when it holds none.
  public static func forbiddenInName(_ text: String) -> Unicode.Scalar? {
    text.unicodeScalars.first { isControl($0) || isBidiOverride($0) }
  }

  /// The first character free text (a note, a comment) may not hold: a control character other than a tab or a line
  /// break, or a bidirectional override; nil when it holds none.
  public static func forbiddenInText(_ text: String) -> Unicode.Scalar? {
    text.unicodeScalars.first { scalar in
      (isControl(scalar) && !["\t", "\n", "\r"].contains(scalar)) || isBidiOverride(scalar)
    }
  }

  /// `U+0000`.
  public static func shown(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }

  /// What a name may hold, for messages: `one line of text without control characters (this one holds U+0000)`.
  public static func nameAllowed(found scalar: Unicode.Scalar) -> String {
    "one line of text without control characters (this one holds \(shown(scalar)))"
  }

  /// What free text may hold, for messages.
  public static func textAllowed(found scalar: Unicode.Scalar) -> String {
    "text without control characters other than tabs and line breaks (this one holds \(shown(scalar)))"
  }

  /// `text` with every character a name may not hold written as `\u{0}`, for quoting a refused value in one line.
  public static func quoted(_ text: String, limit: Int = 40) -> String {
    var result = ""
    for scalar in text.unicodeScalars.prefix(limit) {
      if isControl(scalar) || isBidiOverride(scalar) {
        result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    (0x00...0x1F).contains(scalar.value) || (0x7F...0x9F).contains(scalar.value)
  }

  private static func isBidiOverride(_ scalar: Unicode.Scalar) -> Bool {
    (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
  }
}
