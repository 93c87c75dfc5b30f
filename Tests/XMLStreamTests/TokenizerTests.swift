import Foundation
import Testing
import XMLStream

/// Reads `text` through the tokenizer in chunks of `chunk` bytes and writes its events as text: `<name a=v>`,
/// `</>`, `"text"` (decoded).
func transcript(_ text: String, chunk: Int = 1 << 20, reportsText: Bool = true) throws -> String {
  var tokenizer = XMLTokenizer(doctypePolicy: .refuseInternalSubset)
  tokenizer.reportsText = reportsText
  let bytes = Array(text.utf8)
  var offset = 0
  var output = ""
  var pendingText: [UInt8] = []
  func flushText() {
    if !pendingText.isEmpty { output += "\"\(String(decoding: pendingText, as: UTF8.self))\"" }
    pendingText = []
  }
  while true {
    switch try tokenizer.next() {
    case .startElement(let tag):
      flushText()
      let attributes = tag.attributes.map {
        "\($0.name.string)=\($0.hasReference ? XMLText.decode($0.value) : $0.value.string)"
      }
      output += "<\(([tag.name.string] + attributes).joined(separator: " "))\(tag.isEmpty ? "/" : "")>"
    case .endElement:
      flushText()
      output += "</>"
    case .text(let run):
      XMLText.append(run.span, references: run.hasReferences, encoding: tokenizer.encoding, to: &pendingText)
    case .needsInput:
      if offset >= bytes.count {
        tokenizer.endInput()
      } else {
        let end = min(bytes.count, offset + chunk)
        offset += bytes[offset..<end].withUnsafeBytes { tokenizer.append($0) }
      }
    case .endOfDocument:
      flushText()
      return output
    }
  }
}

/// The error `text` gives, read in chunks of `chunk` bytes.
func failure(_ text: String, chunk: Int = 1 << 20) -> XMLStreamError? {
  do {
    _ = try transcript(text, chunk: chunk)
    return nil
  } catch let error as XMLStreamError {
    return error
  } catch {
    return nil
  }
}

@Suite struct TokenizerTests {
  static let document = """
    \u{FEFF}  <?xml version="1.0" encoding="UTF-8"?>
    <!-- a comment with <tags> -->
    <?pi some data?>
    <!DOCTYPE gpx PUBLIC "-//x//y" "http://example.com/gpx.dtd">
    <g:gpx a="1 &amp; 2" b='&#x41;&#66;'>
      <name>Park &lt;run&gt; &#233;</name>
      <desc><![CDATA[<b>bold</b> ]] ]]]>tail</desc>
      <empty/>
    </g:gpx>
    <!-- after -->

    """

  @Test func eventsAreTheSameWhateverTheChunkSize() throws {
    let whole = try transcript(Self.document)
    #expect(
      whole
        == #"<g:gpx a=1 & 2 b=AB>"\#n  "<name>"Park <run> é"</>"\#n  "<desc>"<b>bold</b> ]] ]tail"</>"\#n  "<empty/>"\#n"</>"#
    )
    for chunk in [1, 2, 3, 5, 7, 64] {
      #expect(try transcript(Self.document, chunk: chunk) == whole, "chunk \(chunk)")
    }
  }

  @Test func textIsSkippedUnlessAskedFor() throws {
    #expect(try transcript(Self.document, reportsText: false) == "<g:gpx a=1 & 2 b=AB><name></><desc></><empty/></>")
  }

  @Test(arguments: [
    ("", XMLStreamError.empty),
    ("\u{0}<\u{0}a", .unsupportedEncoding("UTF-16 or UTF-32")),
    ("<?xml version=\"1.0\" encoding=\"UTF-7\"?><a/>", .unsupportedEncoding("UTF-7")),
    ("hello", .textBeforeRoot(line: 1, column: 1)),
    ("<?xml version=\"1.0\"?>\n<!-- x -->\n", .noRootElement(line: 3)),
    ("<a>\n<b>\n", .truncated(line: 2, openElement: "b")),
    ("<a/>\n<b/>", .contentAfterRoot(line: 2, column: 1, element: "b", root: "a")),
    ("<!DOCTYPE a [\n<!ENTITY x \"y\">]><a>&x;</a>", .internalSubset(line: 1)),
    (
      "<!DOCTYPE a SYSTEM \"a.dtd\">\n<a>&x;</a>",
      .undefinedEntity(line: 2, column: 7, name: "x", declaredInDocumentType: false, externalDTD: true)
    ),
    ("<a>\n <b></c></a>", .mismatchedEndTag(line: 2, column: 9, name: "c", openElement: "b", openLine: 2)),
    ("<a x=1/>", .malformed(line: 1, column: 6, detail: "attribute 'x' of <a> has no quotes around its value")),
    ("<a>&#0;</a>", .malformed(line: 1, column: 4, detail: "character reference &#0; is not a character XML allows")),
  ])
  func errorsNameTheirPlace(_ text: String, _ expected: XMLStreamError) {
    #expect(failure(text) == expected)
    #expect(failure(text, chunk: 1) == expected)
  }

  @Test func nestingAndTagLengthAreLimited() {
    let deep = String(repeating: "<x>", count: 300) + String(repeating: "</x>", count: 300)
    #expect(failure(deep) == .malformed(line: 1, column: 769, detail: "elements nested deeper than 256 levels"))
    let long = "<a b=\"" + String(repeating: "c", count: 2 << 20) + "\"/>"
    #expect(failure(long, chunk: 64 << 10) == .malformed(line: 1, column: 1, detail: "a tag longer than 1 MiB"))
  }

  @Test func latin1IsConverted() throws {
    let bytes: [UInt8] =
      Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>caf".utf8) + [0xE9] + Array("</a>".utf8)
    var tokenizer = XMLTokenizer(doctypePolicy: .refuseInternalSubset)
    tokenizer.reportsText = true
    _ = bytes.withUnsafeBytes { tokenizer.append($0) }
    tokenizer.endInput()
    var text: [UInt8] = []
    loop: while true {
      switch try tokenizer.next() {
      case .text(let run): XMLText.append(run.span, references: false, encoding: tokenizer.encoding, to: &text)
      case .endOfDocument: break loop
      default: continue
      }
    }
    #expect(String(decoding: text, as: UTF8.self) == "café")
  }
}
