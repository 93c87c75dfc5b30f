import Foundation

/// One attribute of a start tag, as bytes in the scan buffer.
struct RawAttribute {
  /// The attribute's name.
  var name: ByteSpan
  /// The value between the quotes, still escaped.
  var value: ByteSpan
  /// Whether the value holds a (validated) `&…;` reference and so needs ``XMLText/decode(_:)``.
  var hasReference: Bool
}

/// A start tag, handed to an ``XMLEventHandler``; its spans are valid only during the call.
struct StartTag {
  /// The element's name.
  var name: ByteSpan
  /// The attributes, in order (at most ``XMLScanner/attributeCapacity``; further ones are checked but not
  /// kept).
  var attributes: UnsafeBufferPointer<RawAttribute>
  /// Whether the tag closes itself (`<Record …/>`).
  var isEmpty: Bool
  /// The number of open ancestors: 0 for the root element.
  var depth: Int

  /// The value of the attribute called `name`, if present.
  @inline(__always)
  func value(of name: StaticString) -> RawAttribute? {
    for attribute in attributes where attribute.name.equals(name) { return attribute }
    return nil
  }
}

/// Receives the elements of a document from ``XMLScanner``.
protocol XMLEventHandler {
  /// A start tag (or an empty-element tag, then no ``endElement(depth:)`` follows).
  mutating func startElement(_ tag: StartTag) throws(HealthError)
  /// An end tag; `depth` is the number of elements still open after it.
  mutating func endElement(depth: Int) throws(HealthError)
}

/// A fixed table of attribute slots, reused for every tag (no allocation per tag).
private final class AttributeSlots {
  let pointer: UnsafeMutablePointer<RawAttribute>

  init(capacity: Int) { pointer = .allocate(capacity: capacity) }

  deinit { pointer.deallocate() }
}

/// A push-style, allocation-free XML tokenizer over UTF-8 bytes, written for Apple Health exports.
///
/// It checks the well-formedness that matters here, and reports problems with their line:
/// - start and end tags must nest and match; the file must not end before the root element closes
///   (truncation), and nothing but comments and processing instructions may follow it;
/// - attribute values must be quoted and hold no raw `<`; every `&` must start one of the five predefined
///   references or a character reference naming a character XML allows;
/// - the `<!DOCTYPE …[ internal subset ]>` is skipped without being interpreted (quotes, comments and
///   processing instructions inside it are honoured to find its end), so no entity it declares is ever
///   expanded and no external DTD or entity is ever read: a reference to such an entity is an error.
///
/// Leniencies, because real exports have them: control characters (iOS wrote U+000B) are passed through,
/// a word without `=value` inside a tag is skipped (iOS 8 wrote attribute names with spaces), and names
/// are not checked against XML's name grammar. A `<!DOCTYPE>` that is broken inside (iOS 16) is skipped
/// like any other.
///
/// Bytes are fed in chunks; ``scan(_:isFinal:handler:)`` returns how many it consumed, and the caller keeps
/// the rest (an incomplete tag, at most ``maximumTagBytes``) in front of the next chunk.
struct XMLScanner {
  /// The longest tag accepted (a tag must fit in the buffer to be parsed in one go).
  static let maximumTagBytes = 1 << 20
  /// Attributes kept per tag.
  static let attributeCapacity = 64
  /// The deepest nesting accepted.
  static let maximumDepth = 256

  private enum Place {
    case prolog, content, epilog
  }

  private enum DoctypeState: Equatable {
    /// Between `<!DOCTYPE` and `[` or `>`; `quote` is the open quote of a system or public identifier.
    case outside(quote: UInt8?)
    case subset
    case subsetQuote(UInt8)
    /// Matched `matched` bytes of `<!ENTITY` (at least `<`).
    case subsetMarkup(matched: Int)
    /// `<!-` seen.
    case subsetDash
    case subsetComment(dashes: Int)
    case subsetProcessingInstruction(question: Bool)
    /// `]` seen: `>` (after optional white space) ends the declaration.
    case afterSubset
  }

  private enum Construct: Equatable {
    case none
    case comment(dashes: Int)
    case characterData(brackets: Int)
    case processingInstruction(question: Bool)
    case doctype(DoctypeState)
  }

  private enum Reference {
    case complete(length: Int)
    case incomplete
  }

  /// The file name used in errors.
  let file: String
  /// The required root element.
  private let rootName: StaticString
  private var place = Place.prolog
  private var construct = Construct.none
  private var sawDoctype = false
  private var started = false
  /// Whether the skipped internal subset declared an entity (`<!ENTITY`): references to it are then
  /// reported as refused rather than undefined.
  private(set) var documentTypeDeclaresEntities = false
  /// Newlines before the current buffer.
  private var linesBefore = 0
  /// Bytes consumed so far.
  private(set) var bytesConsumed: Int64 = 0
  private var stackNames: [UInt8] = []
  private var stackEnds: [Int] = []
  private let slots = AttributeSlots(capacity: XMLScanner.attributeCapacity)

  /// Creates a scanner.
  /// - Parameters:
  ///   - file: The name used in errors.
  ///   - rootName: The root element the document must have (else ``HealthError/notAnExport(file:reason:)``).
  init(file: String, rootName: StaticString) {
    self.file = file
    self.rootName = rootName
    stackNames.reserveCapacity(256)
    stackEnds.reserveCapacity(16)
  }

  // MARK: - Scanning

  /// Scans `buffer`, calling `handler` for each complete tag.
  /// - Parameters:
  ///   - buffer: The unconsumed bytes returned last time, followed by new ones.
  ///   - isFinal: Whether the file ends after `buffer`: then everything must be consumed and the document
  ///     complete.
  ///   - handler: Receives the elements.
  /// - Returns: The number of bytes consumed from the start of `buffer`; the caller keeps the rest.
  mutating func scan<Handler: XMLEventHandler>(
    _ buffer: UnsafeBufferPointer<UInt8>, isFinal: Bool, handler: inout Handler
  ) throws(HealthError) -> Int {
    guard let base = buffer.baseAddress, !buffer.isEmpty else {
      if isFinal { try finish(base: nil, count: 0) }
      return 0
    }
    let end = base + buffer.count
    var p = base
    if !started {
      if buffer.count < 3, !isFinal { return 0 }
      started = true
      let first = p.pointee
      if first == 0 || first == 0xFE || first == 0xFF || (buffer.count > 1 && p[1] == 0) {
        throw .notAnExport(file: file, reason: "UTF-16 or UTF-32 text; exports are UTF-8")
      }
      if buffer.count >= 3, first == 0xEF, p[1] == 0xBB, p[2] == 0xBF { p += 3 }
    }

    scanning: while p < end {
      if construct != .none {
        p = try continueConstruct(p, end)
        if construct != .none { break scanning }
      }

      // Text up to the next '<'.
      while p < end {
        let byte = p.pointee
        if byte == UInt8(ascii: "<") { break }
        if byte == UInt8(ascii: "&") {
          switch try checkReference(p, end, base: base) {
          case .complete(let length):
            if place != .content { try outsideRoot(p, base: base) }
            p += length
            continue
          case .incomplete:
            return try carry(from: p, base: base, end: end, isFinal: isFinal)
          }
        }
        if place != .content, !Self.isWhitespace(byte) { try outsideRoot(p, base: base) }
        p += 1
      }
      if p == end { break scanning }

      // Markup at p.
      guard p + 1 < end else { return try carry(from: p, base: base, end: end, isFinal: isFinal) }
      switch p[1] {
      case UInt8(ascii: "/"):
        guard let next = try endTag(p, end, base: base, handler: &handler) else {
          return try carry(from: p, base: base, end: end, isFinal: isFinal)
        }
        p = next
      case UInt8(ascii: "!"):
        guard end - p >= 9 || isFinal else { return try carry(from: p, base: base, end: end, isFinal: isFinal) }
        p = try declaration(p, end, base: base)
      case UInt8(ascii: "?"):
        construct = .processingInstruction(question: false)
        p += 2
      default:
        guard let next = try startTag(p, end, base: base, handler: &handler) else {
          return try carry(from: p, base: base, end: end, isFinal: isFinal)
        }
        p = next
      }
    }
    let consumed = p - base
    account(base: base, count: consumed)
    if isFinal { try finish(base: p, count: end - p) }
    return consumed
  }

  /// Keeps the bytes from `p` for the next call (an incomplete token), or reports the end of the file
  /// inside it.
  private mutating func carry(
    from p: UnsafePointer<UInt8>, base: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, isFinal: Bool
  ) throws(HealthError) -> Int {
    if isFinal {
      account(base: base, count: p - base)
      try finish(base: p, count: end - p)
      return end - base
    }
    if end - p > Self.maximumTagBytes {
      throw .xml(file: file, line: line(at: p, base: base), detail: "a tag longer than 1 MiB (not an export?)")
    }
    account(base: base, count: p - base)
    return p - base
  }

  private mutating func account(base: UnsafePointer<UInt8>, count: Int) {
    linesBefore += Self.newlines(base, count)
    bytesConsumed += Int64(count)
  }

  /// Checks the end of the document; `base`/`count` are unconsumed bytes at the end of the file (an
  /// incomplete token), counted for the line number.
  private mutating func finish(base: UnsafePointer<UInt8>?, count: Int) throws(HealthError) {
    let lastLine = linesBefore + (base.map { Self.newlines($0, count) } ?? 0) + 1
    if base != nil { bytesConsumed += Int64(count) }
    switch place {
    case .prolog:
      if case .doctype = construct {
        throw .xml(file: file, line: lastLine, detail: "the file ends inside the <!DOCTYPE> (truncated?)")
      }
      throw .notAnExport(
        file: file, reason: bytesConsumed == 0 ? "the file is empty" : "no <\(rootName)> element")
    case .content:
      throw .truncated(file: file, line: lastLine, openElement: openElementName)
    case .epilog:
      if construct != .none || count > 0 {
        throw .xml(file: file, line: lastLine, detail: "the file ends inside a comment or processing instruction")
      }
    }
  }

  /// The innermost open element's name.
  private var openElementName: String {
    guard let last = stackEnds.last else { return "\(rootName)" }
    let start = stackEnds.count > 1 ? stackEnds[stackEnds.count - 2] : 0
    return String(decoding: stackNames[start..<last], as: UTF8.self)
  }

  private func outsideRoot(_ p: UnsafePointer<UInt8>, base: UnsafePointer<UInt8>) throws(HealthError) {
    let line = line(at: p, base: base)
    if place == .prolog {
      throw .xml(file: file, line: line, detail: "text before the root element <\(rootName)>")
    }
    throw .xml(file: file, line: line, detail: "text after </\(rootName)>")
  }

  /// The 1-based line of `p`.
  func line(at p: UnsafePointer<UInt8>, base: UnsafePointer<UInt8>) -> Int {
    linesBefore + Self.newlines(base, p - base) + 1
  }

  /// The number of `\n` bytes (vectorisable).
  static func newlines(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int {
    var total = 0
    for index in 0..<count { total &+= p[index] == 10 ? 1 : 0 }
    return total
  }

  @inline(__always)
  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
  }

  @inline(__always)
  private static func endsName(_ byte: UInt8) -> Bool {
    byte <= 0x20 || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "<")
  }

  @inline(__always)
  private static func endsAttributeName(_ byte: UInt8) -> Bool {
    byte <= 0x20 || byte == UInt8(ascii: "=") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
      || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
  }

  // MARK: - Tags

  /// Parses the start tag at `p`; nil when it does not end within the buffer.
  private mutating func startTag<Handler: XMLEventHandler>(
    _ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, base: UnsafePointer<UInt8>, handler: inout Handler
  ) throws(HealthError) -> UnsafePointer<UInt8>? {
    var q = p + 1
    while q < end, !Self.endsName(q.pointee) { q += 1 }
    guard q < end else { return nil }
    let name = ByteSpan(start: p + 1, count: q - (p + 1))
    guard name.count > 0 else {
      throw .xml(file: file, line: line(at: p, base: base), detail: "'<' not followed by a name (write &lt;)")
    }
    let slots = self.slots.pointer
    var count = 0
    var isEmpty = false
    attributes: while true {
      while q < end, Self.isWhitespace(q.pointee) { q += 1 }
      guard q < end else { return nil }
      let byte = q.pointee
      if byte == UInt8(ascii: ">") {
        q += 1
        break attributes
      }
      if byte == UInt8(ascii: "/") {
        guard q + 1 < end else { return nil }
        guard q[1] == UInt8(ascii: ">") else {
          throw .xml(file: file, line: line(at: q, base: base), detail: "'/' not followed by '>' in <\(name.string)>")
        }
        q += 2
        isEmpty = true
        break attributes
      }
      let nameStart = q
      while q < end, !Self.endsAttributeName(q.pointee) { q += 1 }
      guard q < end else { return nil }
      guard q > nameStart else {
        let detail =
          byte == UInt8(ascii: "<")
          ? "<\(name.string)> is not closed ('>' expected before the next '<')"
          : "unexpected \(Self.describe(byte)) in <\(name.string)>"
        throw .xml(file: file, line: line(at: q, base: base), detail: detail)
      }
      let attributeName = ByteSpan(start: nameStart, count: q - nameStart)
      while q < end, Self.isWhitespace(q.pointee) { q += 1 }
      guard q < end else { return nil }
      // A word without "=value" (iOS 8 wrote attribute names with spaces): skipped.
      guard q.pointee == UInt8(ascii: "=") else { continue attributes }
      q += 1
      while q < end, Self.isWhitespace(q.pointee) { q += 1 }
      guard q < end else { return nil }
      let quote = q.pointee
      guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
        throw .xml(
          file: file, line: line(at: q, base: base),
          detail: "attribute '\(attributeName.string)' of <\(name.string)> has no quotes around its value")
      }
      q += 1
      let valueStart = q
      var hasReference = false
      while q < end {
        let valueByte = q.pointee
        if valueByte == quote { break }
        if valueByte == UInt8(ascii: "<") {
          throw .xml(
            file: file, line: line(at: q, base: base),
            detail: "'<' in the value of \(attributeName.string) (write &lt;; or the quote is not closed)")
        }
        if valueByte == UInt8(ascii: "&") {
          switch try checkReference(q, end, base: base) {
          case .complete(let length):
            hasReference = true
            q += length
            continue
          case .incomplete:
            return nil
          }
        }
        q += 1
      }
      guard q < end else { return nil }
      if count < Self.attributeCapacity {
        (slots + count).initialize(
          to: RawAttribute(
            name: attributeName, value: ByteSpan(start: valueStart, count: q - valueStart),
            hasReference: hasReference))
        count += 1
      }
      q += 1
    }

    switch place {
    case .prolog:
      guard name.equals(rootName) else {
        throw .notAnExport(file: file, reason: "root element <\(name.string)>")
      }
      place = .content
    case .epilog:
      throw .xml(
        file: file, line: line(at: p, base: base), detail: "element <\(name.string)> after </\(rootName)>")
    case .content:
      break
    }
    let depth = stackEnds.count
    do {
      try handler.startElement(
        StartTag(
          name: name, attributes: UnsafeBufferPointer(start: slots, count: count), isEmpty: isEmpty, depth: depth))
    } catch {
      // The handler does not know lines: it leaves 0 for the tag's line.
      throw error.at(line: line(at: p, base: base))
    }
    if isEmpty {
      if depth == 0 { place = .epilog }
    } else {
      guard depth < Self.maximumDepth else {
        throw .xml(file: file, line: line(at: p, base: base), detail: "elements nested deeper than 256 levels")
      }
      stackNames.append(contentsOf: UnsafeBufferPointer(start: name.start, count: name.count))
      stackEnds.append(stackNames.count)
    }
    return q
  }

  /// Parses the end tag at `p`; nil when it does not end within the buffer.
  private mutating func endTag<Handler: XMLEventHandler>(
    _ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, base: UnsafePointer<UInt8>, handler: inout Handler
  ) throws(HealthError) -> UnsafePointer<UInt8>? {
    var q = p + 2
    while q < end, !Self.endsName(q.pointee) { q += 1 }
    let name = ByteSpan(start: p + 2, count: q - (p + 2))
    while q < end, Self.isWhitespace(q.pointee) { q += 1 }
    guard q < end else { return nil }
    guard q.pointee == UInt8(ascii: ">"), name.count > 0 else {
      throw .xml(file: file, line: line(at: p, base: base), detail: "malformed end tag </\(name.string)")
    }
    guard let last = stackEnds.last else {
      throw .xml(file: file, line: line(at: p, base: base), detail: "</\(name.string)> without an open element")
    }
    let start = stackEnds.count > 1 ? stackEnds[stackEnds.count - 2] : 0
    let matches = stackNames.withUnsafeBufferPointer { names in
      guard let stored = names.baseAddress, last - start == name.count else { return false }
      return memcmp(stored + start, name.start, name.count) == 0
    }
    guard matches else {
      throw .xml(
        file: file, line: line(at: p, base: base),
        detail: "</\(name.string)> does not match the open element <\(openElementName)>")
    }
    stackNames.removeSubrange(start...)
    stackEnds.removeLast()
    do {
      try handler.endElement(depth: stackEnds.count)
    } catch {
      throw error.at(line: line(at: p, base: base))
    }
    if stackEnds.isEmpty { place = .epilog }
    return q + 1
  }

  /// Handles `<!` at `p`: a comment, CDATA section or the document type declaration.
  private mutating func declaration(
    _ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, base: UnsafePointer<UInt8>
  ) throws(HealthError) -> UnsafePointer<UInt8> {
    let available = end - p
    func starts(_ literal: StaticString) -> Bool {
      available >= literal.utf8CodeUnitCount && memcmp(p, literal.utf8Start, literal.utf8CodeUnitCount) == 0
    }
    if starts("<!--") {
      construct = .comment(dashes: 0)
      return p + 4
    }
    if starts("<![CDATA[") {
      guard place == .content else {
        throw .xml(file: file, line: line(at: p, base: base), detail: "CDATA section outside the root element")
      }
      construct = .characterData(brackets: 0)
      return p + 9
    }
    if starts("<!DOCTYPE") {
      guard place == .prolog, !sawDoctype else {
        throw .xml(file: file, line: line(at: p, base: base), detail: "<!DOCTYPE> after the start of the document")
      }
      sawDoctype = true
      construct = .doctype(.outside(quote: nil))
      return p + 9
    }
    if available < 9 {
      account(base: base, count: p - base)
      try finish(base: p, count: available)
    }
    throw .xml(
      file: file, line: line(at: p, base: base),
      detail: "markup declaration \(HealthLimits.shown(ByteSpan(start: p, count: min(available, 9)).string))… "
        + "outside the <!DOCTYPE>")
  }

  /// Continues a comment, CDATA section, processing instruction or DOCTYPE from `p`; returns where it
  /// ended (construct reset to `.none`) or `end`.
  private mutating func continueConstruct(
    _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>
  ) throws(HealthError) -> UnsafePointer<UInt8> {
    var p = start
    switch construct {
    case .none:
      return p
    case .comment(var dashes):
      while p < end {
        let byte = p.pointee
        p += 1
        if byte == UInt8(ascii: "-") {
          dashes = min(dashes + 1, 2)
        } else if byte == UInt8(ascii: ">"), dashes == 2 {
          construct = .none
          return p
        } else {
          dashes = 0
        }
      }
      construct = .comment(dashes: dashes)
    case .characterData(var brackets):
      while p < end {
        let byte = p.pointee
        p += 1
        if byte == UInt8(ascii: "]") {
          brackets = min(brackets + 1, 2)
        } else if byte == UInt8(ascii: ">"), brackets == 2 {
          construct = .none
          return p
        } else {
          brackets = 0
        }
      }
      construct = .characterData(brackets: brackets)
    case .processingInstruction(var question):
      while p < end {
        let byte = p.pointee
        p += 1
        if byte == UInt8(ascii: ">"), question {
          construct = .none
          return p
        }
        question = byte == UInt8(ascii: "?")
      }
      construct = .processingInstruction(question: question)
    case .doctype(var state):
      while p < end {
        let byte = p.pointee
        p += 1
        if stepDoctype(&state, byte) {
          construct = .none
          return p
        }
      }
      construct = .doctype(state)
    }
    return p
  }

  private static let entityKeyword: StaticString = "<!ENTITY"

  /// Advances the DOCTYPE state machine by one byte; true when the declaration has ended.
  private mutating func stepDoctype(_ state: inout DoctypeState, _ byte: UInt8) -> Bool {
    while true {
      switch state {
      case .outside(let quote?):
        if byte == quote { state = .outside(quote: nil) }
        return false
      case .outside(nil):
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"): state = .outside(quote: byte)
        case UInt8(ascii: "["): state = .subset
        case UInt8(ascii: ">"): return true
        default: break
        }
        return false
      case .subset:
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"): state = .subsetQuote(byte)
        case UInt8(ascii: "<"): state = .subsetMarkup(matched: 1)
        case UInt8(ascii: "]"): state = .afterSubset
        default: break
        }
        return false
      case .subsetQuote(let quote):
        if byte == quote { state = .subset }
        return false
      case .subsetMarkup(let matched):
        if matched == 1, byte == UInt8(ascii: "?") {
          state = .subsetProcessingInstruction(question: false)
          return false
        }
        if matched == 2, byte == UInt8(ascii: "-") {
          state = .subsetDash
          return false
        }
        if byte == Self.entityKeyword.utf8Start[matched] {
          if matched + 1 == Self.entityKeyword.utf8CodeUnitCount {
            documentTypeDeclaresEntities = true
            state = .subset
          } else {
            state = .subsetMarkup(matched: matched + 1)
          }
          return false
        }
        state = .subset  // and look at this byte again
      case .subsetDash:
        if byte == UInt8(ascii: "-") {
          state = .subsetComment(dashes: 0)
          return false
        }
        state = .subset
      case .subsetComment(let dashes):
        if byte == UInt8(ascii: "-") {
          state = .subsetComment(dashes: min(dashes + 1, 2))
        } else if byte == UInt8(ascii: ">"), dashes == 2 {
          state = .subset
        } else {
          state = .subsetComment(dashes: 0)
        }
        return false
      case .subsetProcessingInstruction(let question):
        if byte == UInt8(ascii: ">"), question {
          state = .subset
        } else {
          state = .subsetProcessingInstruction(question: byte == UInt8(ascii: "?"))
        }
        return false
      case .afterSubset:
        if byte == UInt8(ascii: ">") { return true }
        if Self.isWhitespace(byte) { return false }
        state = .subset
      }
    }
  }

  // MARK: - References

  /// Checks the reference starting with `&` at `p`.
  private func checkReference(
    _ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, base: UnsafePointer<UInt8>
  ) throws(HealthError) -> Reference {
    var q = p + 1
    guard q < end else { return .incomplete }
    if q.pointee == UInt8(ascii: "#") {
      q += 1
      guard q < end else { return .incomplete }
      let hex = q.pointee == UInt8(ascii: "x")
      if hex { q += 1 }
      var value: UInt32 = 0
      var digits = 0
      while q < end, q.pointee != UInt8(ascii: ";") {
        guard let digit = XMLText.digitValue(q.pointee, hex: hex), digits < 10 else {
          throw .xml(file: file, line: line(at: p, base: base), detail: "malformed character reference")
        }
        // Saturates just above the last code point: ten digits would overflow UInt32.
        value = min(value * (hex ? 16 : 10) + UInt32(digit), 0x11_0000)
        digits += 1
        q += 1
      }
      guard q < end else { return .incomplete }
      guard digits > 0, XMLText.isCharacter(value) else {
        let text = ByteSpan(start: p, count: q + 1 - p).string
        throw .xml(
          file: file, line: line(at: p, base: base),
          detail: "character reference \(text) is not a character XML allows")
      }
      return .complete(length: q + 1 - p)
    }
    let nameStart = q
    while q < end, q.pointee != UInt8(ascii: ";") {
      let byte = q.pointee
      let isNameByte =
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte >= 0x80
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
        || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
      guard isNameByte, q - nameStart < 64 else {
        throw .xml(
          file: file, line: line(at: p, base: base),
          detail: "'&' that does not start an entity or character reference (write &amp;)")
      }
      q += 1
    }
    guard q < end else { return .incomplete }
    let name = ByteSpan(start: nameStart, count: q - nameStart)
    if name.equals("amp") || name.equals("lt") || name.equals("gt") || name.equals("quot") || name.equals("apos") {
      return .complete(length: q + 1 - p)
    }
    guard name.count > 0 else {
      throw .xml(
        file: file, line: line(at: p, base: base),
        detail: "'&' that does not start an entity or character reference (write &amp;)")
    }
    throw .entityReference(
      file: file, line: line(at: p, base: base), name: name.string,
      declaredInDocumentType: documentTypeDeclaresEntities)
  }

  private static func describe(_ byte: UInt8) -> String {
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "'"): "quote"
    case 0x21...0x7E: "'\(Character(Unicode.Scalar(byte)))'"
    default: "byte 0x\(String(byte, radix: 16))"
    }
  }
}

/// Decoding of escaped attribute values.
enum XMLText {
  /// The value of a decimal or hexadecimal digit.
  @inline(__always)
  static func digitValue(_ byte: UInt8, hex: Bool) -> UInt8? {
    let decimal = byte &- UInt8(ascii: "0")
    if decimal < 10 { return decimal }
    guard hex else { return nil }
    let letter = (byte | 0x20) &- UInt8(ascii: "a")
    return letter < 6 ? letter + 10 : nil
  }

  /// Whether XML 1.0 allows the character (`Char` production).
  static func isCharacter(_ value: UInt32) -> Bool {
    value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
      || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
  }

  /// The value with its references replaced (they were validated by the scanner).
  static func decode(_ span: ByteSpan) -> String {
    var output: [UInt8] = []
    output.reserveCapacity(span.count)
    var index = 0
    let p = span.start
    while index < span.count {
      let byte = p[index]
      guard byte == UInt8(ascii: "&"), let semicolon = (index..<span.count).first(where: { p[$0] == 59 }) else {
        output.append(byte)
        index += 1
        continue
      }
      let name = ByteSpan(start: p + index + 1, count: semicolon - index - 1)
      var replacement: [UInt8]
      if name.equals("amp") {
        replacement = [UInt8(ascii: "&")]
      } else if name.equals("lt") {
        replacement = [UInt8(ascii: "<")]
      } else if name.equals("gt") {
        replacement = [UInt8(ascii: ">")]
      } else if name.equals("quot") {
        replacement = [UInt8(ascii: "\"")]
      } else if name.equals("apos") {
        replacement = [UInt8(ascii: "'")]
      } else if name.count > 1, name.start.pointee == UInt8(ascii: "#") {
        let hex = name.start[1] == UInt8(ascii: "x")
        var value: UInt32 = 0
        for offset in (hex ? 2 : 1)..<name.count {
          value = min(value * (hex ? 16 : 10) + UInt32(digitValue(name.start[offset], hex: hex) ?? 0), 0x11_0000)
        }
        replacement = Array(String(Unicode.Scalar(value).map(Character.init) ?? "\u{FFFD}").utf8)
      } else {
        replacement = Array(name.string.utf8)
      }
      output.append(contentsOf: replacement)
      index = semicolon + 1
    }
    return String(decoding: output, as: UTF8.self)
  }
}
