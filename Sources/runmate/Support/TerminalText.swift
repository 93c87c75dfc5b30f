/// Text from outside the program (profile and coach names, bios, notes, plan names, contact handles, file names,
/// error details), made safe to print on a terminal: every control character is shown as a visible escape
/// instead of acting on the terminal.
///
/// Escaped as `\u{…}` (hexadecimal, upper case): C0 controls (U+0000–U+001F, so ESC and every terminal
/// sequence starting with it, CR and TAB too), DEL (U+007F), C1 controls (U+0080–U+009F, CSI and OSC among them)
/// and the bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) that reorder what follows them.
/// A line feed is escaped as `\n`, so no value can start a line of its own (a bio cannot fake a `contact:` line),
/// except with `multiline`, for the few places that print several lines of one value on purpose.
func terminalSafe(_ text: String, multiline: Bool = false) -> String {
  guard text.unicodeScalars.contains(where: { needsEscape($0, multiline: multiline) }) else { return text }
  var result = ""
  for scalar in text.unicodeScalars {
    if scalar == "\n" && !multiline {
      result += "\\n"
    } else if needsEscape(scalar, multiline: multiline) {
      result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    } else {
      result.unicodeScalars.append(scalar)
    }
  }
  return result
}

/// True for the scalars ``terminalSafe(_:multiline:)`` escapes.
private func needsEscape(_ scalar: Unicode.Scalar, multiline: Bool) -> Bool {
  switch scalar.value {
  case 0x0A: !multiline
  case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
  default: false
  }
}

/// `text` with every word (a run of non-blank characters) longer than `limit` shortened to its start and end with
/// the full length named, so a 100,000-character option value or path cannot flood an error line.
func elidingLongWords(_ text: String, limit: Int = 120) -> String {
  guard text.count > limit else { return text }
  var result = ""
  var word = ""
  func flush() {
    if word.count > limit {
      result += word.prefix(limit / 2) + "…" + word.suffix(limit / 4) + " (\(word.count) characters)"
    } else {
      result += word
    }
    word = ""
  }
  for character in text {
    if character.isWhitespace {
      flush()
      result.append(character)
    } else {
      word.append(character)
    }
  }
  flush()
  return result
}
