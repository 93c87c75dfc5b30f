/// One attribute of a start tag, as bytes in the tokenizer's buffer.
public struct XMLAttribute {
  /// The attribute's name, as written (with any prefix).
  public var name: ByteSpan
  /// The value between the quotes, still escaped.
  public var value: ByteSpan
  /// Whether the value holds a (validated) `&…;` reference and so needs ``XMLText/decode(_:)``.
  public var hasReference: Bool

  /// An attribute.
  @inlinable
  public init(name: ByteSpan, value: ByteSpan, hasReference: Bool) {
    self.name = name
    self.value = value
    self.hasReference = hasReference
  }
}

/// A start tag; its spans are valid until the next call to the tokenizer.
public struct XMLStartTag {
  /// The element's name, as written (with any prefix).
  public var name: ByteSpan
  /// The attributes, in order (at most ``XMLTokenizer/attributeCapacity``; further ones are checked but not kept).
  public var attributes: UnsafeBufferPointer<XMLAttribute>
  /// Whether the tag closes itself (`<Record …/>`): no ``XMLEvent/endElement(depth:)`` follows.
  public var isEmpty: Bool
  /// The number of open ancestors: 0 for the root element.
  public var depth: Int

  /// A start tag.
  @inlinable
  public init(name: ByteSpan, attributes: UnsafeBufferPointer<XMLAttribute>, isEmpty: Bool, depth: Int) {
    self.name = name
    self.attributes = attributes
    self.isEmpty = isEmpty
    self.depth = depth
  }

  /// The attribute called `name` (compared as written), if present.
  @inlinable @inline(__always)
  public func value(of name: StaticString) -> XMLAttribute? {
    for attribute in attributes where attribute.name.equals(name) { return attribute }
    return nil
  }
}

/// A piece of character data inside the root element (reported only while ``XMLTokenizer/reportsText`` is on).
/// One text node may come in several pieces (at chunk boundaries, around a CDATA section).
public struct XMLTextRun {
  /// The bytes.
  public var span: ByteSpan
  /// Whether the bytes hold (validated) references to decode with ``XMLText``; never for CDATA.
  public var hasReferences: Bool

  /// A piece of text.
  @inlinable
  public init(span: ByteSpan, hasReferences: Bool) {
    self.span = span
    self.hasReferences = hasReferences
  }
}

/// What ``XMLTokenizer/next()`` found.
public enum XMLEvent {
  /// A start tag (or an empty-element tag).
  case startElement(XMLStartTag)
  /// An end tag; `depth` is the number of elements still open after it.
  case endElement(depth: Int)
  /// Character data (only while ``XMLTokenizer/reportsText`` is on).
  case text(XMLTextRun)
  /// The buffered bytes are used up: append more, or call ``XMLTokenizer/endInput()``.
  case needsInput
  /// The document is complete and well-formed.
  case endOfDocument
}

/// Decoding of escaped text and attribute values.
public enum XMLText {
  /// The value of a decimal or hexadecimal digit.
  @inlinable @inline(__always)
  public static func digitValue(_ byte: UInt8, hex: Bool) -> UInt8? {
    let decimal = byte &- UInt8(ascii: "0")
    if decimal < 10 { return decimal }
    guard hex else { return nil }
    let letter = (byte | 0x20) &- UInt8(ascii: "a")
    return letter < 6 ? letter + 10 : nil
  }

  /// Whether XML 1.0 allows the character (`Char` production).
  public static func isCharacter(_ value: UInt32) -> Bool {
    value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
      || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
  }

  /// The value (UTF-8) with its references replaced (they were validated by the tokenizer).
  public static func decode(_ span: ByteSpan) -> String {
    var output: [UInt8] = []
    output.reserveCapacity(span.count)
    append(span, references: true, encoding: .utf8, to: &output)
    return String(decoding: output, as: UTF8.self)
  }

  /// Appends `span` to `output` as UTF-8: references replaced when `references` is true, and ISO-8859-1 bytes
  /// converted when `encoding` is ``XMLTokenizer/Encoding/latin1``.
  public static func append(
    _ span: ByteSpan, references: Bool, encoding: XMLTokenizer.Encoding, to output: inout [UInt8]
  ) {
    let p = span.start
    if !references, encoding == .utf8 {
      output.append(contentsOf: span.buffer)
      return
    }
    var index = 0
    while index < span.count {
      let byte = p[index]
      if byte >= 0x80, encoding == .latin1 {
        output.append(0xC0 | (byte >> 6))
        output.append(0x80 | (byte & 0x3F))
        index += 1
        continue
      }
      guard references, byte == UInt8(ascii: "&"),
        let semicolon = (index..<span.count).first(where: { p[$0] == UInt8(ascii: ";") })
      else {
        output.append(byte)
        index += 1
        continue
      }
      let name = ByteSpan(start: p + index + 1, count: semicolon - index - 1)
      if name.equals("amp") {
        output.append(UInt8(ascii: "&"))
      } else if name.equals("lt") {
        output.append(UInt8(ascii: "<"))
      } else if name.equals("gt") {
        output.append(UInt8(ascii: ">"))
      } else if name.equals("quot") {
        output.append(UInt8(ascii: "\""))
      } else if name.equals("apos") {
        output.append(UInt8(ascii: "'"))
      } else if name.count > 1, name.start.pointee == UInt8(ascii: "#") {
        let hex = name.start[1] == UInt8(ascii: "x")
        var value: UInt32 = 0
        for offset in (hex ? 2 : 1)..<name.count {
          value = min(value * (hex ? 16 : 10) + UInt32(digitValue(name.start[offset], hex: hex) ?? 0), 0x11_0000)
        }
        let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        output.append(contentsOf: String(Character(scalar)).utf8)
      } else {
        output.append(contentsOf: name.buffer)
      }
      index = semicolon + 1
    }
  }
}
