import RunningCore

/// A problem in a template file, with the file, the key path and what is allowed.
///
/// Messages read like a compiler's: `plan-templates/half.yaml: levels.beginner.peakWeeklyKm: 'lots' is wrong,
/// allowed is a number`.
public enum TemplateError: FieldError, Sendable, Equatable {
  /// The YAML does not parse.
  case syntax(file: String, line: Int, column: Int, detail: String)
  /// A value is of the wrong type or out of range.
  case invalidValue(file: String, keyPath: String, value: String, allowed: String)
  /// A required key is absent.
  case missingKey(file: String, keyPath: String)
  /// A key the schema does not know (usually a typo).
  case unknownKey(file: String, keyPath: String, suggestion: String?)
  /// A file the rules need is not among the files.
  case missingFile(name: String, directory: String)
  /// The template directory cannot be found.
  case directoryNotFound(lookedIn: [String])
  /// A file larger than ``TemplateLimits`` allow, as written or once its aliases are expanded (an alias bomb).
  case tooLarge(file: String, found: String, allowed: String)

  /// The message for a runner: one line naming what is wrong and what is allowed, inputs named by `name`.
  public func message(naming name: (InputField) -> String) -> String {
    switch self {
    case .syntax(let file, let line, let column, let detail):
      return "\(file):\(line):\(column): YAML syntax error: \(detail)"
    case .invalidValue(let file, let keyPath, let value, let allowed):
      return "\(file): \(keyPath): \(value) is wrong, allowed is \(allowed)"
    case .missingKey(let file, let keyPath):
      return "\(file): \(keyPath): missing, this key is required"
    case .unknownKey(let file, let keyPath, let suggestion):
      let hint = suggestion.map { " (did you mean '\($0)'?)" } ?? ""
      return "\(file): \(keyPath): unknown key\(hint)"
    case .missingFile(let name, let directory):
      return "\(directory): \(name) is missing, the rules need it"
    case .directoryNotFound(let lookedIn):
      return "plan templates not found; looked in: \(lookedIn.joined(separator: ", "))"
        + " (give \(name(.templates)) DIR or set RUNMATE_TEMPLATES)"
    case .tooLarge(let file, let found, let allowed):
      return "\(file): too large: \(found), allowed is \(allowed)"
    }
  }
}

extension TemplateError {
  /// A missing folder or file is missing input; anything else is a template that does not hold.
  public var kind: FailureKind {
    switch self {
    case .directoryNotFound, .missingFile: .missingInput
    default: .badData
    }
  }
}
