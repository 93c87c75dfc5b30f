/// Words for the runner that mention inputs: the core writes the field (`give \(field: .days) with 4 days`) and each
/// front door words it its own way (`--days` in the CLI, the plain label elsewhere), so no flag is written in the core.
///
/// Written like a string: literals and interpolations of any value work as they do in `String`, and
/// `\(field: InputField)` marks a field.
public struct FieldText: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
  /// A run of plain words, or a field to be named.
  enum Part: Sendable, Hashable {
    case words(String)
    case field(InputField)
  }

  private(set) var parts: [Part]

  /// Plain words, no field.
  public init(_ words: String) { parts = words.isEmpty ? [] : [.words(words)] }

  /// Plain words, no field.
  public init(stringLiteral value: String) { self.init(value) }

  /// The text with its interpolations.
  public init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }

  /// The text with each field named by `name`.
  public func worded(by name: (InputField) -> String) -> String {
    parts.map { part in
      switch part {
      case .words(let words): words
      case .field(let field): name(field)
      }
    }.joined()
  }

  /// The text with the fields' plain names (``InputField/label``).
  public var description: String { worded(by: \.label) }

  /// `left` followed by `right`.
  public static func + (left: FieldText, right: FieldText) -> FieldText {
    var joined = StringInterpolation(literalCapacity: 0, interpolationCount: 2)
    joined.appendInterpolation(left)
    joined.appendInterpolation(right)
    return FieldText(stringInterpolation: joined)
  }

  /// The interpolations of a ``FieldText`` literal: values as `String` shows them, and `\(field:)`. Words next to
  /// words are kept as one part, so texts that read the same are equal however they were written.
  public struct StringInterpolation: StringInterpolationProtocol {
    var parts: [Part] = []

    /// Room for the literal's parts.
    public init(literalCapacity: Int, interpolationCount: Int) {
      parts.reserveCapacity(interpolationCount * 2 + 1)
    }

    /// Plain words of the literal.
    public mutating func appendLiteral(_ literal: String) {
      guard !literal.isEmpty else { return }
      if case .words(let before) = parts.last {
        parts[parts.count - 1] = .words(before + literal)
      } else {
        parts.append(.words(literal))
      }
    }

    /// A value, as `String(describing:)` shows it.
    public mutating func appendInterpolation(_ value: some Any) { appendLiteral(String(describing: value)) }

    /// A field, named by each front door its own way.
    public mutating func appendInterpolation(field: InputField) { parts.append(.field(field)) }

    /// Another text, its fields kept.
    public mutating func appendInterpolation(_ text: FieldText) {
      for part in text.parts {
        switch part {
        case .words(let words): appendLiteral(words)
        case .field(let field): appendInterpolation(field: field)
        }
      }
    }
  }
}
