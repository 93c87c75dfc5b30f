#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The tokenizer's memory, allocated once: the byte buffer and a fixed table of attribute slots, reused for every
/// tag (no allocation per tag).
private final class Storage {
  let bytes: UnsafeMutablePointer<UInt8>
  let slots: UnsafeMutablePointer<XMLAttribute>

  init(capacity: Int, slots: Int) {
    bytes = .allocate(capacity: capacity)
    self.slots = .allocate(capacity: slots)
  }

  deinit {
    bytes.deallocate()
    slots.deallocate()
  }
}

/// A pull-style, allocation-free XML tokenizer (a value type: no runtime exclusivity checks) over a fixed buffer, fed in chunks: memory stays flat whatever
/// the size of the input (the buffer holds one chunk plus at most one incomplete tag).
///
/// ```swift
/// var tokenizer = XMLTokenizer(doctypePolicy: .refuseInternalSubset)
/// reading: while true {
///   switch try tokenizer.next() {
///   case .needsInput: if case .endOfInput = tokenizer.fill(from: descriptor) { tokenizer.endInput() }
///   case .startElement(let tag): print(tag.name.string, tokenizer.line)
///   case .endElement, .text: break
///   case .endOfDocument: break reading
///   }
/// }
/// ```
///
/// What it checks, reporting each problem with its line (``XMLStreamError``):
/// - start and end tags nest and match, the input does not end before the root element closes (truncation),
///   and nothing but comments, processing instructions and white space come before or after the root;
/// - attribute values are quoted and hold no raw `<`; every `&` starts one of the five predefined references
///   or a character reference naming a character XML allows;
/// - the limits: a tag (with its attributes) of at most ``maximumTagBytes``, nesting at most ``maximumDepth``
///   deep. Text, comments, CDATA sections and processing instructions are never buffered whole (text comes
///   in pieces), so they need no limit: the reader keeps what it wants of them.
///
/// The DTD policy is explicit: no entity is ever expanded and nothing outside the input is ever read. A
/// `<!DOCTYPE>`'s external identifier (`SYSTEM "…"`) is noted and ignored; its internal subset is refused
/// (``DoctypePolicy/refuseInternalSubset``) or skipped unread (``DoctypePolicy/skipInternalSubset``, for Apple
/// Health exports, whose DOCTYPE declares their elements); either way a reference to an entity it declares is
/// an error. Predefined and numeric character references are decoded by ``XMLText``; CDATA sections are text.
///
/// Encodings: UTF-8 and ASCII, and ISO-8859-1 when the XML declaration names it (``encoding``; its bytes are
/// converted by ``XMLText/append(_:references:encoding:to:)``). A byte-order mark and white space before the
/// XML declaration are tolerated (apps write them), but a declaration after white space must name UTF-8 or
/// ASCII. UTF-16, UTF-32 and any other declared encoding are refused.
///
/// Leniencies kept from the Apple Health reader: control characters are passed through, a word without
/// `=value` in a tag is skipped (iOS 8 wrote attribute names with spaces), names are not checked against
/// XML's name grammar, and UTF-8 is not validated (text is repaired when it is turned into a `String`).
public struct XMLTokenizer {
  /// What to do with a `<!DOCTYPE … [ internal subset ]>`.
  public enum DoctypePolicy: Sendable {
    /// Refuse it (``XMLStreamError/internalSubset(line:)``): GPX and TCX never need one.
    case refuseInternalSubset
    /// Skip it without interpreting it (quotes, comments and processing instructions inside are honoured to
    /// find its end); references to the entities it declares are refused where they occur.
    case skipInternalSubset
  }

  /// The text encoding of the input, from its XML declaration.
  public enum Encoding: Sendable {
    /// UTF-8 (or ASCII).
    case utf8
    /// ISO-8859-1: one byte per character.
    case latin1
  }

  /// The longest tag accepted, with its attributes (a tag must fit in the buffer to be parsed in one go).
  public static let maximumTagBytes = 1 << 20
  /// Attributes kept per tag.
  public static let attributeCapacity = 64
  /// The deepest nesting accepted.
  public static let maximumDepth = 256
  /// The bytes ``fill(from:)`` reads at a time.
  public static let chunkBytes = 1 << 20

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
    /// Inside `<![CDATA[`; `brackets` is the number of `]` at the end of what was read, not yet reported.
    case characterData(brackets: Int)
    case processingInstruction(question: Bool)
    case doctype(DoctypeState)
  }

  private enum Reference {
    case complete(length: Int)
    case incomplete
  }

  /// Whether character data inside the root element is reported as ``XMLEvent/text(_:)``; switch it on and off
  /// at any time (a reader turns it on for the elements whose text it keeps).
  public var reportsText = false
  /// How a `<!DOCTYPE>` internal subset is treated.
  public let doctypePolicy: DoctypePolicy
  /// Whether the input ended with a line feed (known once ``next()`` has reached the end of the input): the line of
  /// ``XMLStreamError/truncated(line:openElement:)`` is the line of the last byte, one less than the count of lines
  /// when this is true.
  public private(set) var lastByteIsNewline = false
  /// The encoding named by the XML declaration (UTF-8 when none).
  public private(set) var encoding = Encoding.utf8

  private let storage: Storage
  private let buffer: UnsafeMutablePointer<UInt8>
  private let capacity: Int
  private var filled = 0
  private var position = 0
  private var inputEnded = false
  private var finished = false
  /// Bytes dropped from the front of the buffer so far.
  private var bytesBefore: Int64 = 0
  /// A place in the buffer whose line is known: lines are counted forward from it, once.
  private var cursor = 0
  private var lineAtCursor = 1
  /// The column (0-based) of `buffer[0]`.
  private var columnBase = 0
  /// Where the current event starts.
  private var eventStart = 0

  private var place = Place.prolog
  private var construct = Construct.none
  private var started = false
  private var declarationAllowed = true
  private var leadingWhitespace = false
  private var sawDoctype = false
  private var doctypeLine = 1
  private var documentTypeDeclaresEntities = false
  private var documentTypeHasExternalID = false
  private var rootName = ""
  private var stackNames: [UInt8] = []
  private var stackEnds: [Int] = []
  private var stackLines: [Int] = []

  /// A tokenizer with an empty buffer.
  /// - Parameter doctypePolicy: What to do with a `<!DOCTYPE>` internal subset.
  public init(doctypePolicy: DoctypePolicy) {
    self.doctypePolicy = doctypePolicy
    capacity = Self.chunkBytes + Self.maximumTagBytes + (64 << 10)
    storage = Storage(capacity: capacity, slots: Self.attributeCapacity)
    buffer = storage.bytes
    stackNames.reserveCapacity(256)
    stackEnds.reserveCapacity(16)
    stackLines.reserveCapacity(16)
  }

  private var base: UnsafePointer<UInt8> { UnsafePointer(buffer) }

  // MARK: - Input

  /// The result of ``fill(from:)``.
  public enum FillResult: Equatable, Sendable {
    /// This many bytes were added.
    case filled(Int)
    /// The descriptor is at its end (``endInput()`` has been called).
    case endOfInput
    /// `read` failed with this `errno`.
    case failed(errno: Int32)
  }

  /// Bytes of input handed to the tokenizer so far.
  public var bytesRead: Int64 { bytesBefore + Int64(filled) }

  /// Bytes the tokenizer has consumed so far.
  public var bytesConsumed: Int64 { bytesBefore + Int64(position) }

  /// Reads the next chunk (up to ``chunkBytes``) from `descriptor`; at its end, ends the input. Call it when
  /// ``next()`` returns ``XMLEvent/needsInput``.
  public mutating func fill(from descriptor: Int32) -> FillResult {
    compact()
    let room = min(Self.chunkBytes, capacity - filled)
    while true {
      let count = read(descriptor, buffer + filled, room)
      if count > 0 {
        filled += count
        return .filled(count)
      }
      if count == 0 {
        endInput()
        return .endOfInput
      }
      if errno != EINTR { return .failed(errno: errno) }
    }
  }

  /// Copies bytes into the buffer, as many as fit (at least ``chunkBytes`` after ``next()`` returned
  /// ``XMLEvent/needsInput``); returns how many were taken. Spans from earlier events become invalid.
  public mutating func append(_ bytes: UnsafeRawBufferPointer) -> Int {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return 0 }
    compact()
    let count = min(capacity - filled, bytes.count)
    (buffer + filled).update(from: source.assumingMemoryBound(to: UInt8.self), count: count)
    filled += count
    return count
  }

  /// Declares that no more bytes follow: ``next()`` then checks that the document is complete.
  public mutating func endInput() { inputEnded = true }

  /// Moves the unconsumed bytes to the front of the buffer.
  private mutating func compact() {
    guard position > 0 else { return }
    _ = line(at: position)
    var index = position - 1
    while index >= 0, buffer[index] != UInt8(ascii: "\n") { index -= 1 }
    columnBase = index >= 0 ? position - index - 1 : columnBase + position
    let rest = filled - position
    if rest > 0 { buffer.update(from: buffer + position, count: rest) }
    bytesBefore += Int64(position)
    filled = rest
    position = 0
    cursor = 0
    eventStart = 0
  }

  // MARK: - Lines

  /// The 1-based line where the current event starts (the `<` of a tag, the first byte of a text).
  public var line: Int {
    mutating get { line(at: eventStart) }
  }

  private mutating func line(at offset: Int) -> Int {
    if offset >= cursor {
      lineAtCursor += Self.newlines(buffer + cursor, offset - cursor)
      cursor = offset
      return lineAtCursor
    }
    return lineAtCursor - Self.newlines(buffer + offset, cursor - offset)
  }

  private func column(at offset: Int) -> Int {
    var index = offset - 1
    while index >= 0, buffer[index] != UInt8(ascii: "\n") { index -= 1 }
    return index >= 0 ? offset - index : columnBase + offset + 1
  }

  /// The number of `\n` bytes (vectorisable).
  private static func newlines(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int {
    var total = 0
    for index in 0..<count { total &+= p[index] == 10 ? 1 : 0 }
    return total
  }

  private mutating func malformed(_ offset: Int, _ detail: String) -> XMLStreamError {
    .malformed(line: line(at: offset), column: column(at: offset), detail: detail)
  }

  // MARK: - Events

  /// The next event. Spans in it stay valid until the next call to `next()`, ``append(_:)`` or ``fill(from:)``.
  public mutating func next() throws(XMLStreamError) -> XMLEvent {
    if finished { return .endOfDocument }
    if !started {
      guard try begin() else { return try needInput() }
    }
    while true {
      if construct != .none {
        if let event = try continueConstruct() { return event }
        if construct != .none { return try needInput() }
      }

      // Text up to the next '<'.
      let textStart = position
      var p = position
      var hasReferences = false
      var incomplete = false
      while p < filled {
        let byte = buffer[p]
        if byte == UInt8(ascii: "<") { break }
        if byte == UInt8(ascii: "&") {
          switch try checkReference(p) {
          case .complete(let length):
            if place != .content { try outsideRoot(p) }
            hasReferences = true
            p += length
            continue
          case .incomplete:
            incomplete = true
          }
          break
        }
        if place != .content, !Self.isWhitespace(byte) { try outsideRoot(p) }
        p += 1
      }
      position = p
      if place == .prolog, p > textStart { leadingWhitespace = true }
      if reportsText, place == .content, p > textStart {
        eventStart = textStart
        return .text(
          XMLTextRun(span: ByteSpan(start: buffer + textStart, count: p - textStart), hasReferences: hasReferences))
      }
      if incomplete || p == filled { return try needInput() }

      // Markup at p.
      guard p + 1 < filled else { return try needInput() }
      eventStart = p
      switch buffer[p + 1] {
      case UInt8(ascii: "/"):
        guard let depth = try endTag(p) else { return try needInput() }
        declarationAllowed = false
        return .endElement(depth: depth)
      case UInt8(ascii: "!"):
        guard filled - p >= 9 || inputEnded else { return try needInput() }
        try declaration(p)
        declarationAllowed = false
      case UInt8(ascii: "?"):
        guard try processingInstruction(p) else { return try needInput() }
        declarationAllowed = false
      default:
        guard let tag = try startTag(p) else { return try needInput() }
        declarationAllowed = false
        return .startElement(tag)
      }
    }
  }

  /// Checks the first bytes (byte-order mark, UTF-16/32); false when more are needed.
  private mutating func begin() throws(XMLStreamError) -> Bool {
    let available = filled - position
    if available < 4, !inputEnded { return false }
    if available == 0 {
      finished = true
      throw .empty
    }
    started = true
    let p = buffer + position
    let first = p.pointee
    if first == 0 || first == 0xFE || first == 0xFF || (available > 1 && p[1] == 0) {
      throw .unsupportedEncoding("UTF-16 or UTF-32")
    }
    if available >= 3, first == 0xEF, p[1] == 0xBB, p[2] == 0xBF { position += 3 }
    return true
  }

  /// The end of the buffered bytes: more are needed, or the input has ended and the document must be complete.
  private mutating func needInput() throws(XMLStreamError) -> XMLEvent {
    if !inputEnded {
      if filled - position > Self.maximumTagBytes {
        throw malformed(position, "a tag longer than \(Self.maximumTagBytes >> 20) MiB")
      }
      return .needsInput
    }
    finished = true
    if bytesRead == 0 { throw .empty }
    lastByteIsNewline = filled > 0 && buffer[filled - 1] == UInt8(ascii: "\n")
    let lastLine = line(at: filled)
    switch place {
    case .prolog:
      if case .doctype = construct {
        throw .malformed(line: lastLine, column: column(at: filled), detail: "the input ends inside the <!DOCTYPE>")
      }
      throw .noRootElement(line: lastLine)
    case .content:
      throw .truncated(line: lastByteIsNewline ? lastLine - 1 : lastLine, openElement: openElementName)
    case .epilog:
      if construct != .none || filled > position {
        throw .malformed(
          line: lastLine, column: column(at: filled),
          detail: "the input ends inside a comment or processing instruction")
      }
      return .endOfDocument
    }
  }

  /// The innermost open element's name.
  private var openElementName: String {
    guard let last = stackEnds.last else { return rootName }
    let start = stackEnds.count > 1 ? stackEnds[stackEnds.count - 2] : 0
    return String(decoding: stackNames[start..<last], as: UTF8.self)
  }

  private mutating func outsideRoot(_ offset: Int) throws(XMLStreamError) {
    if place == .prolog { throw .textBeforeRoot(line: line(at: offset), column: column(at: offset)) }
    throw .contentAfterRoot(line: line(at: offset), column: column(at: offset), element: nil, root: rootName)
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

  private static func shown(_ span: ByteSpan) -> String {
    let text = span.string
    let cut = text.count > 40 ? text.prefix(40) + "…" : text[...]
    return String(String.UnicodeScalarView(cut.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
  }

  // MARK: - Tags

  /// Parses the start tag at `start`; nil when it does not end within the buffer.
  private mutating func startTag(_ start: Int) throws(XMLStreamError) -> XMLStartTag? {
    let end = base + filled
    let p = base + start
    var q = p + 1
    while q < end, !Self.endsName(q.pointee) { q += 1 }
    guard q < end else { return nil }
    let name = ByteSpan(start: p + 1, count: q - (p + 1))
    guard name.count > 0 else { throw malformed(start, "'<' not followed by a name (write &lt;)") }
    let slots = storage.slots
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
          throw malformed(q - base, "'/' not followed by '>' in <\(name.string)>")
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
        throw malformed(q - base, detail)
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
        throw malformed(
          q - base, "attribute '\(attributeName.string)' of <\(name.string)> has no quotes around its value")
      }
      q += 1
      let valueStart = q
      var hasReference = false
      while q < end {
        let valueByte = q.pointee
        if valueByte == quote { break }
        if valueByte == UInt8(ascii: "<") {
          throw malformed(
            q - base, "'<' in the value of \(attributeName.string) (write &lt;; or the quote is not closed)")
        }
        if valueByte == UInt8(ascii: "&") {
          switch try checkReference(q - base) {
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
          to: XMLAttribute(
            name: attributeName, value: ByteSpan(start: valueStart, count: q - valueStart),
            hasReference: hasReference))
        count += 1
      }
      q += 1
    }

    switch place {
    case .prolog:
      place = .content
      rootName = name.string
    case .epilog:
      throw .contentAfterRoot(line: line(at: start), column: column(at: start), element: name.string, root: rootName)
    case .content:
      break
    }
    let depth = stackEnds.count
    if isEmpty {
      if depth == 0 { place = .epilog }
    } else {
      guard depth < Self.maximumDepth else {
        throw malformed(start, "elements nested deeper than \(Self.maximumDepth) levels")
      }
      stackNames.append(contentsOf: name.buffer)
      stackEnds.append(stackNames.count)
      stackLines.append(line(at: start))
    }
    position = q - base
    return XMLStartTag(
      name: name, attributes: UnsafeBufferPointer(start: slots, count: count), isEmpty: isEmpty, depth: depth)
  }

  /// Parses the end tag at `start`; returns the depth after it, or nil when it does not end within the buffer.
  private mutating func endTag(_ start: Int) throws(XMLStreamError) -> Int? {
    let end = base + filled
    let p = base + start
    var q = p + 2
    while q < end, !Self.endsName(q.pointee) { q += 1 }
    let name = ByteSpan(start: p + 2, count: q - (p + 2))
    while q < end, Self.isWhitespace(q.pointee) { q += 1 }
    guard q < end else { return nil }
    guard q.pointee == UInt8(ascii: ">"), name.count > 0 else {
      throw malformed(start, "malformed end tag </\(Self.shown(name))")
    }
    guard let last = stackEnds.last else {
      if place == .epilog {
        throw .contentAfterRoot(
          line: line(at: start), column: column(at: start), element: "/" + name.string, root: rootName)
      }
      throw malformed(start, "</\(Self.shown(name))> without an open element")
    }
    let open = stackEnds.count > 1 ? stackEnds[stackEnds.count - 2] : 0
    let matches = stackNames.withUnsafeBufferPointer { names in
      guard let stored = names.baseAddress, last - open == name.count else { return false }
      return memcmp(stored + open, name.start, name.count) == 0
    }
    let after = q + 1 - base
    guard matches else {
      throw .mismatchedEndTag(
        line: line(at: after), column: column(at: after), name: Self.shown(name), openElement: openElementName,
        openLine: stackLines.last ?? 1)
    }
    stackNames.removeSubrange(open...)
    stackEnds.removeLast()
    stackLines.removeLast()
    if stackEnds.isEmpty { place = .epilog }
    position = after
    return stackEnds.count
  }

  /// Handles `<?` at `start`: the XML declaration (read for its encoding) or another processing instruction
  /// (skipped); false when the declaration does not end within the buffer.
  private mutating func processingInstruction(_ start: Int) throws(XMLStreamError) -> Bool {
    let available = filled - start
    guard available >= 6 || inputEnded else { return false }
    let p = buffer + start
    let isDeclaration =
      available >= 6 && memcmp(p, "<?xml", 5) == 0
      && (Self.isWhitespace(p[5]) || p[5] == UInt8(ascii: "?"))
    guard isDeclaration else {
      construct = .processingInstruction(question: false)
      position = start + 2
      return true
    }
    guard declarationAllowed, place == .prolog else {
      throw malformed(start, "an XML declaration that is not at the start of the input")
    }
    var q = start + 5
    while q + 1 < filled, !(buffer[q] == UInt8(ascii: "?") && buffer[q + 1] == UInt8(ascii: ">")) {
      q += 1
      if q - start > 1024 { throw malformed(start, "an XML declaration longer than 1 KiB ('?>' expected)") }
    }
    guard q + 1 < filled else {
      if inputEnded { throw .noRootElement(line: line(at: filled)) }
      return false
    }
    let text = ByteSpan(start: p + 5, count: q - start - 5).string
    if let name = Self.declaredEncoding(text) {
      let upper = name.uppercased()
      if ["UTF-8", "UTF8", "US-ASCII", "ASCII"].contains(upper) {
        encoding = .utf8
      } else if ["ISO-8859-1", "ISO_8859-1", "ISO8859-1", "LATIN1", "LATIN-1", "ISO-LATIN-1", "L1"].contains(upper) {
        guard !leadingWhitespace else {
          throw malformed(
            start, "an XML declaration naming \(name) after white space (only a UTF-8 one may follow white space)")
        }
        encoding = .latin1
      } else {
        let shownName = String(name.prefix(40)).unicodeScalars.map {
          $0.isASCII && $0.value >= 0x20 ? Character($0) : "?"
        }
        throw .unsupportedEncoding(String(shownName))
      }
    }
    position = q + 2
    return true
  }

  /// The value of `encoding="…"` in the text of an XML declaration.
  private static func declaredEncoding(_ text: String) -> String? {
    let bytes = Array(text.utf8)
    let keyword = Array("encoding".utf8)
    guard bytes.count > keyword.count,
      let found = (0...(bytes.count - keyword.count)).first(where: {
        bytes[$0..<($0 + keyword.count)].elementsEqual(keyword)
      })
    else { return nil }
    var index = found + keyword.count
    while index < bytes.count, bytes[index] == UInt8(ascii: "=") || isWhitespace(bytes[index]) { index += 1 }
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
      return nil
    }
    let quote = bytes[index]
    let value = bytes[(index + 1)...].prefix { $0 != quote }
    return String(decoding: value, as: UTF8.self)
  }

  /// Handles `<!` at `start`: a comment, CDATA section or the document type declaration.
  private mutating func declaration(_ start: Int) throws(XMLStreamError) {
    let available = filled - start
    let p = buffer + start
    func starts(_ literal: StaticString) -> Bool {
      available >= literal.utf8CodeUnitCount && memcmp(p, literal.utf8Start, literal.utf8CodeUnitCount) == 0
    }
    if starts("<!--") {
      construct = .comment(dashes: 0)
      position = start + 4
      return
    }
    if starts("<![CDATA[") {
      guard place == .content else { throw malformed(start, "CDATA section outside the root element") }
      construct = .characterData(brackets: 0)
      position = start + 9
      return
    }
    if starts("<!DOCTYPE") {
      guard place == .prolog, !sawDoctype else { throw malformed(start, "<!DOCTYPE> after the start of the document") }
      sawDoctype = true
      doctypeLine = line(at: start)
      construct = .doctype(.outside(quote: nil))
      position = start + 9
      return
    }
    if available < 9 {
      position = filled
      _ = try needInput()
    }
    throw malformed(
      start, "markup declaration \(Self.shown(ByteSpan(start: p, count: min(available, 9))))… outside the <!DOCTYPE>")
  }

  private static let brackets: StaticString = "]]"

  /// Continues a comment, CDATA section, processing instruction or DOCTYPE from `position`, up to its end
  /// (construct reset to `.none`) or the end of the buffer; returns a text event for CDATA content when text is
  /// reported.
  private mutating func continueConstruct() throws(XMLStreamError) -> XMLEvent? {
    var p = position
    defer { position = p }
    switch construct {
    case .none:
      return nil
    case .comment(var dashes):
      while p < filled {
        let byte = buffer[p]
        p += 1
        if byte == UInt8(ascii: "-") {
          dashes = min(dashes + 1, 2)
        } else if byte == UInt8(ascii: ">"), dashes == 2 {
          construct = .none
          return nil
        } else {
          dashes = 0
        }
      }
      construct = .comment(dashes: dashes)
    case .characterData(let pending):
      return try continueCharacterData(pending, &p)
    case .processingInstruction(var question):
      while p < filled {
        let byte = buffer[p]
        p += 1
        if byte == UInt8(ascii: ">"), question {
          construct = .none
          return nil
        }
        question = byte == UInt8(ascii: "?")
      }
      construct = .processingInstruction(question: question)
    case .doctype(var state):
      while p < filled {
        let byte = buffer[p]
        p += 1
        if try stepDoctype(&state, byte) {
          construct = .none
          return nil
        }
      }
      construct = .doctype(state)
    }
    return nil
  }

  /// CDATA content from `p`, with `pending` `]` bytes read before it and not reported yet.
  private mutating func continueCharacterData(_ pending: Int, _ p: inout Int) throws(XMLStreamError) -> XMLEvent? {
    eventStart = p
    var pending = pending
    while pending > 0 {
      // Do the pending brackets start "]]>"?
      let needed = 3 - pending
      guard filled - p >= needed || inputEnded else { return nil }
      var ends = filled - p >= needed
      if ends {
        for offset in 0..<needed {
          let expected = offset == needed - 1 ? UInt8(ascii: ">") : UInt8(ascii: "]")
          if buffer[p + offset] != expected { ends = false }
        }
      }
      if ends {
        p += needed
        construct = .none
        return nil
      }
      if pending == 2, p < filled, buffer[p] == UInt8(ascii: "]") {
        // "]]]": the first bracket is text, the last two may still end the section.
        p += 1
        if reportsText {
          return .text(XMLTextRun(span: ByteSpan(start: Self.brackets.utf8Start, count: 1), hasReferences: false))
        }
        continue
      }
      construct = .characterData(brackets: 0)
      if reportsText {
        return .text(XMLTextRun(span: ByteSpan(start: Self.brackets.utf8Start, count: pending), hasReferences: false))
      }
      pending = 0
    }
    let start = p
    while p < filled {
      if buffer[p] == UInt8(ascii: "]"), p + 2 < filled, buffer[p + 1] == UInt8(ascii: "]"),
        buffer[p + 2] == UInt8(ascii: ">")
      {
        construct = .none
        let content = p - start
        p += 3
        return reportsText && content > 0
          ? .text(XMLTextRun(span: ByteSpan(start: buffer + start, count: content), hasReferences: false)) : nil
      }
      if buffer[p] == UInt8(ascii: "]"), p + 2 >= filled { break }
      p += 1
    }
    // Trailing brackets may start the terminator: keep them pending.
    var trailing = 0
    while p + trailing < filled, trailing < 2, buffer[p + trailing] == UInt8(ascii: "]") { trailing += 1 }
    let content = p - start
    p += trailing
    construct = .characterData(brackets: trailing)
    return reportsText && content > 0
      ? .text(XMLTextRun(span: ByteSpan(start: buffer + start, count: content), hasReferences: false)) : nil
  }

  private static let entityKeyword: StaticString = "<!ENTITY"

  /// Advances the DOCTYPE state machine by one byte; true when the declaration has ended.
  private mutating func stepDoctype(_ state: inout DoctypeState, _ byte: UInt8) throws(XMLStreamError) -> Bool {
    while true {
      switch state {
      case .outside(let quote?):
        if byte == quote { state = .outside(quote: nil) }
        return false
      case .outside(nil):
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
          documentTypeHasExternalID = true
          state = .outside(quote: byte)
        case UInt8(ascii: "["):
          if doctypePolicy == .refuseInternalSubset { throw .internalSubset(line: doctypeLine) }
          state = .subset
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

  /// Checks the reference starting with `&` at `start`.
  private mutating func checkReference(_ start: Int) throws(XMLStreamError) -> Reference {
    let end = base + filled
    let p = base + start
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
          throw malformed(start, "malformed character reference")
        }
        // Saturates just above the last code point: ten digits would overflow UInt32.
        value = min(value * (hex ? 16 : 10) + UInt32(digit), 0x11_0000)
        digits += 1
        q += 1
      }
      guard q < end else { return .incomplete }
      guard digits > 0, XMLText.isCharacter(value) else {
        let text = Self.shown(ByteSpan(start: p, count: q + 1 - p))
        throw malformed(start, "character reference \(text) is not a character XML allows")
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
        throw malformed(start, "'&' that does not start an entity or character reference (write &amp;)")
      }
      q += 1
    }
    guard q < end else { return .incomplete }
    let name = ByteSpan(start: nameStart, count: q - nameStart)
    if name.equals("amp") || name.equals("lt") || name.equals("gt") || name.equals("quot") || name.equals("apos") {
      return .complete(length: q + 1 - p)
    }
    guard name.count > 0 else {
      throw malformed(start, "'&' that does not start an entity or character reference (write &amp;)")
    }
    let after = q + 1 - base
    throw .undefinedEntity(
      line: line(at: start), column: column(at: after), name: Self.shown(name),
      declaredInDocumentType: documentTypeDeclaresEntities, externalDTD: documentTypeHasExternalID)
  }

  private static func describe(_ byte: UInt8) -> String {
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "'"): "quote"
    case 0x21...0x7E: "'\(Character(Unicode.Scalar(byte)))'"
    default: "byte 0x\(String(byte, radix: 16))"
    }
  }
}
