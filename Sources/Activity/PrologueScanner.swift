/// Checks the bytes before the root element, as they stream in, before the XML parser sees them.
///
/// FoundationXML substitutes entities (libxml2 `XML_PARSE_NOENT`) and crashes on some DTD declarations (see
/// docs/references.md), and GPX and TCX never need a DTD, so a `<!DOCTYPE` with an internal subset
/// (`[ … ]`, where entities are declared: billion laughs, external entities) is refused outright. A
/// `<!DOCTYPE` without one is let through: the parser does not load external DTDs (no `XML_PARSE_DTDLOAD`)
/// and an entity it would declare stays undefined, which is an error.
///
/// The scanner also refuses what it cannot check: text that does not start with `<` (not XML, or an
/// encoding such as EBCDIC), UTF-16/UTF-32 (byte order mark or NUL bytes), and an XML declaration naming an
/// encoding that is not ASCII-compatible (`UTF-7`, `UTF-16`).
///
/// It is a byte-at-a-time state machine: no buffering, so a hostile prologue cannot make memory grow.
struct PrologueScanner {
  /// Why the input is refused.
  enum Refusal: Equatable {
    /// `<!DOCTYPE` with an internal subset, starting on `line`.
    case internalSubset(line: Int)
    /// A text encoding that cannot be checked.
    case encoding(String)
    /// The first non-blank character is not `<`.
    case notXML
  }

  /// Where the scan stands after a chunk.
  enum Verdict: Equatable {
    /// More bytes are needed.
    case undecided
    /// The root element has started without anything to refuse: stop scanning.
    case clean
    /// Refuse the input.
    case refused(Refusal)
  }

  private enum State {
    case start
    case byteOrderMark(Int)
    case misc
    case afterLessThan
    case processingInstruction(questionMark: Bool)
    case afterBang
    case commentOpening
    case comment(dashes: Int)
    case doctypeKeyword(matched: Int)
    case doctype(quote: UInt8?)
    case finished(Verdict)
  }

  private static let doctypeKeyword = Array("DOCTYPE".utf8)
  private static let declarationLimit = 256

  private var state = State.start
  private var line = 1
  private var doctypeLine = 1
  private var position = 0
  /// The bytes of the first processing instruction when it is at the very start (the XML declaration).
  private var declaration: [UInt8] = []
  private var collectingDeclaration = false

  /// Whether the scanner has decided and needs no more bytes.
  var isFinished: Bool {
    if case .finished = state { return true }
    return false
  }

  /// Scans the next chunk of the input.
  /// - Parameter bytes: The next bytes, in order.
  /// - Returns: The verdict so far; once `.clean` or `.refused`, later calls return the same.
  mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Verdict {
    for byte in bytes {
      if byte == UInt8(ascii: "\n") { line += 1 }
      step(byte)
      position += 1
      if case .finished(let verdict) = state { return verdict }
    }
    return .undecided
  }

  private mutating func step(_ byte: UInt8) {
    switch state {
    case .start:
      if byte == 0xEF {
        state = .byteOrderMark(1)
      } else if byte == 0x00 || byte == 0xFE || byte == 0xFF {
        state = .finished(.refused(.encoding("UTF-16 or UTF-32")))
      } else {
        state = .misc
        step(byte)
      }
    case .byteOrderMark(let seen):
      let expected: UInt8 = seen == 1 ? 0xBB : 0xBF
      if byte != expected {
        state = .finished(.refused(.notXML))
      } else {
        state = seen == 2 ? .misc : .byteOrderMark(seen + 1)
      }
    case .misc:
      if byte == UInt8(ascii: "<") {
        state = .afterLessThan
      } else if !ValueParsing.isWhitespace(byte) {
        state = .finished(.refused(.notXML))
      }
    case .afterLessThan:
      switch byte {
      case UInt8(ascii: "?"):
        collectingDeclaration = position <= 4 && declaration.isEmpty
        state = .processingInstruction(questionMark: false)
      case UInt8(ascii: "!"):
        state = .afterBang
      case 0x00:
        state = .finished(.refused(.encoding("UTF-16 or UTF-32")))
      default:
        state = .finished(.clean)  // the root element (or an error the XML parser reports)
      }
    case .processingInstruction(let questionMark):
      if collectingDeclaration, declaration.count < Self.declarationLimit { declaration.append(byte) }
      if questionMark, byte == UInt8(ascii: ">") {
        if collectingDeclaration {
          collectingDeclaration = false
          if let refused = checkDeclaredEncoding() {
            state = .finished(.refused(refused))
            return
          }
        }
        state = .misc
      } else {
        state = .processingInstruction(questionMark: byte == UInt8(ascii: "?"))
      }
    case .afterBang:
      if byte == UInt8(ascii: "-") {
        state = .commentOpening
      } else if byte == Self.doctypeKeyword[0] {
        doctypeLine = line
        state = .doctypeKeyword(matched: 1)
      } else {
        state = .finished(.clean)
      }
    case .commentOpening:
      state = byte == UInt8(ascii: "-") ? .comment(dashes: 0) : .finished(.clean)
    case .comment(let dashes):
      if byte == UInt8(ascii: "-") {
        state = .comment(dashes: min(dashes + 1, 2))
      } else if byte == UInt8(ascii: ">"), dashes >= 2 {
        state = .misc
      } else {
        state = .comment(dashes: 0)
      }
    case .doctypeKeyword(let matched):
      if byte == Self.doctypeKeyword[matched] {
        state = matched + 1 == Self.doctypeKeyword.count ? .doctype(quote: nil) : .doctypeKeyword(matched: matched + 1)
      } else {
        state = .finished(.clean)
      }
    case .doctype(let quote?):
      if byte == quote { state = .doctype(quote: nil) }
    case .doctype(nil):
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "'"):
        state = .doctype(quote: byte)
      case UInt8(ascii: "["):
        state = .finished(.refused(.internalSubset(line: doctypeLine)))
      case UInt8(ascii: ">"):
        state = .misc
      default:
        break
      }
    case .finished:
      break
    }
  }

  /// The refusal for the XML declaration's `encoding="…"`, when it names an encoding that is not
  /// ASCII-compatible; nil when there is none or it is acceptable.
  private func checkDeclaredEncoding() -> Refusal? {
    let text = String(decoding: declaration, as: UTF8.self)
    guard text.hasPrefix("xml"), let keyword = text.range(of: "encoding") else { return nil }
    var rest = text[keyword.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" || $0 == "\r" || $0 == "\n" }
    guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
    rest = rest.dropFirst()
    let name = String(rest.prefix { $0 != quote })
    let upper = name.uppercased()
    let acceptable =
      ["UTF-8", "UTF8", "US-ASCII", "ASCII", "LATIN1", "ISO-LATIN-1", "ISO_8859-1"].contains(upper)
      || upper.hasPrefix("ISO-8859-") || upper.hasPrefix("WINDOWS-125") || upper.hasPrefix("CP125")
    return acceptable ? nil : .encoding(ValueParsing.shown(name))
  }
}
