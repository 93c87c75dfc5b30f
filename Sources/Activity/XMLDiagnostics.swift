/// Words for libxml2's parser error codes (`xmlParserErrors` in `libxml/xmlerror.h`).
///
/// On Linux, FoundationXML hands the delegate an `NSError` whose `code` is libxml2's code and whose
/// `userInfo` is empty (no message, no line), and its own `XMLParser.ErrorCode` cases are off by one from
/// those codes, so the texts are kept here.
enum XMLDiagnostics {
  /// Codes that libxml2 reports as warnings and that do not make a GPX or TCX file unreadable: unknown
  /// XML version, `xml:lang` or `xml:space` values, relative or invalid namespace URIs, catalog PIs,
  /// redefined entities, and the namespace module's errors (an undeclared prefix such as `gpxtpx:` still
  /// gives the element its full name).
  static func isIgnorable(_ code: Int) -> Bool {
    switch code {
    case 93, 97, 98, 99, 100, 102, 106, 107: true
    case 200...299: true
    default: false
    }
  }

  /// The description of a libxml2 error code.
  /// - Parameters:
  ///   - code: The libxml2 code.
  ///   - openElement: The innermost open element and the line it was opened on, for the tag-mismatch text.
  /// - Returns: A lower-case phrase such as `undefined entity`.
  static func describe(_ code: Int, openElement: (name: String, line: Int)?) -> String {
    if code == 76, let open = openElement {
      return "the closing tag does not match <\(open.name)> (opened on line \(open.line))"
    }
    return messages[code] ?? "libxml2 error \(code)"
  }

  private static let messages: [Int: String] = [
    1: "internal error in the XML parser",
    2: "out of memory",
    3: "the document does not start like XML",
    4: "start tag expected, '<' not found",
    5: "extra content at the end of the document",
    6: "invalid hexadecimal character reference",
    7: "invalid decimal character reference",
    8: "invalid character reference",
    9: "a character that XML does not allow",
    22: "'&' without an entity name (write &amp;)",
    23: "entity reference without ';'",
    26: "undefined entity (only &amp; &lt; &gt; &quot; &apos; are known)",
    27: "undefined entity (external DTDs are not loaded)",
    31: "unknown text encoding",
    32: "unsupported text encoding",
    33: "quoted string expected",
    34: "quoted string not closed",
    38: "unescaped '<' in an attribute value",
    39: "attribute value not in quotes",
    40: "attribute value not closed",
    41: "attribute without a value",
    42: "attribute given twice",
    45: "comment not closed",
    46: "processing instruction without a target",
    47: "processing instruction not closed",
    57: "XML declaration not closed ('?>' expected)",
    61: "<!DOCTYPE> not closed",
    62: "']]>' not allowed in text",
    63: "CDATA section not closed",
    64: "reserved name 'xml' used as a processing instruction target",
    65: "space required between attributes",
    68: "name expected",
    73: "start tag not closed ('>' expected)",
    74: "'</' expected",
    75: "'=' expected after the attribute name",
    76: "the closing tag does not match the open element",
    77: "premature end of data in a tag",
    80: "'--' inside a comment",
    81: "bytes that are not valid in the declared encoding (UTF-8 expected)",
    89: "entity reference loop",
    96: "XML declaration without a version",
    110: "name too long",
    111: "parsing stopped",
  ]
}
