/// Why the tokenizer stopped: the input is not well-formed XML, or it is refused by the DTD and encoding policy
/// (see ``XMLTokenizer``). Lines are 1-based; a column is the byte position in its line (1-based). Each reading
/// module turns these into its own messages, which name the file.
public enum XMLStreamError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The input has no bytes at all.
  case empty
  /// The input is in an encoding the tokenizer does not read: UTF-16 or UTF-32 (a byte-order mark or NUL
  /// bytes), or one the XML declaration names (`UTF-7`); only UTF-8, ASCII and ISO-8859-1 are read.
  case unsupportedEncoding(String)
  /// Text other than white space before the root element (the input is not XML).
  case textBeforeRoot(line: Int, column: Int)
  /// The input ends before any element starts; `line` is its last line.
  case noRootElement(line: Int)
  /// The input ends on `line` (the line of its last byte) while `openElement` (the innermost element still open) has not closed.
  case truncated(line: Int, openElement: String)
  /// An element (`element`) or text (`element` nil) after the root element `root` has closed.
  case contentAfterRoot(line: Int, column: Int, element: String?, root: String)
  /// A `<!DOCTYPE … [` internal subset starting on `line`, refused under
  /// ``XMLTokenizer/DoctypePolicy/refuseInternalSubset``.
  case internalSubset(line: Int)
  /// An entity reference other than the five predefined ones; `column` is just after it. Entities are never
  /// expanded: `declaredInDocumentType` tells whether a skipped internal subset declared entities, and
  /// `externalDTD` whether the `<!DOCTYPE>` named an external DTD (never read).
  case undefinedEntity(line: Int, column: Int, name: String, declaredInDocumentType: Bool, externalDTD: Bool)
  /// An end tag `</name>` that does not close the open element `openElement`, opened on `openLine`;
  /// `column` is just after the end tag.
  case mismatchedEndTag(line: Int, column: Int, name: String, openElement: String, openLine: Int)
  /// Any other well-formedness error or limit; `detail` says what.
  case malformed(line: Int, column: Int, detail: String)

  /// A sentence for logs and tests (reading modules write their own, naming the file).
  public var description: String {
    switch self {
    case .empty: "the input is empty"
    case .unsupportedEncoding(let name): "unsupported text encoding \(name)"
    case .textBeforeRoot(let line, let column): "\(line):\(column): text before the root element"
    case .noRootElement(let line): "\(line): no root element"
    case .truncated(let line, let element): "\(line): the input ends before </\(element)> closes"
    case .contentAfterRoot(let line, let column, let element?, let root):
      "\(line):\(column): element <\(element)> after </\(root)>"
    case .contentAfterRoot(let line, let column, nil, let root): "\(line):\(column): text after </\(root)>"
    case .internalSubset(let line): "\(line): refusing a <!DOCTYPE> with an internal subset"
    case .undefinedEntity(let line, let column, let name, _, _): "\(line):\(column): undefined entity &\(name);"
    case .mismatchedEndTag(let line, let column, let name, let open, let openLine):
      "\(line):\(column): </\(name)> does not match <\(open)> (opened on line \(openLine))"
    case .malformed(let line, let column, let detail): "\(line):\(column): \(detail)"
    }
  }
}
