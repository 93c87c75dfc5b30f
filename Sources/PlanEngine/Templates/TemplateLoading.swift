import Foundation
import RunningCore
import Yams

extension PlanRules {
  /// Decodes and validates a full set of template files: `base.yaml`, `workouts.yaml` and one file per distance.
  ///
  /// - Parameters:
  ///   - files: the files' names (for messages) and texts; the caller reads the disk.
  ///   - directory: the directory name, for messages about missing files.
  /// - Throws: ``TemplateError`` for the first problem found.
  public init(files: [TemplateFile], directory: String = "plan-templates") throws(TemplateError) {
    self = try DecodedTemplates(files: files).validated(directory: directory)
  }
}

/// The template files decoded (syntax, types and keys checked), before the semantic checks: what the rules cache
/// stores (see `TemplateCache.swift`).
struct DecodedTemplates: Codable, Sendable, Hashable {
  /// `base.yaml`, if it was among the files.
  var base: BaseRules?
  /// `workouts.yaml`, if it was among the files.
  var library: WorkoutLibrary?
  /// Per-distance rules by template name, and the file each came from (for messages).
  var distances: [String: DistanceRules]
  var distanceFiles: [String: String]
  /// Every file name, sorted.
  var sources: [String]

  /// Decodes every file; the first file that does not decode throws.
  init(files: [TemplateFile]) throws(TemplateError) {
    distances = [:]
    distanceFiles = [:]
    for file in files.sorted(by: { $0.name < $1.name }) {
      let stem = URL(fileURLWithPath: file.name).deletingPathExtension().lastPathComponent
      switch stem {
      case "base":
        base = try decodeTemplate(BaseRules.self, from: file)
      case "workouts":
        library = try decodeTemplate(WorkoutLibrary.self, from: file)
      default:
        let rules = try decodeTemplate(DistanceRules.self, from: file)
        distances[rules.distance] = rules
        distanceFiles[rules.distance] = file.name
      }
    }
    sources = files.map(\.name).sorted()
  }

  /// The rules, after the semantic checks: every file the rules need is there, and every value is in range and
  /// refers to what exists.
  func validated(directory: String) throws(TemplateError) -> PlanRules {
    guard let base else { throw .missingFile(name: "base.yaml", directory: directory) }
    guard let library else { throw .missingFile(name: "workouts.yaml", directory: directory) }
    let baseFile = sources.first { $0.hasSuffix("base.yaml") } ?? "base.yaml"
    let libraryFile = sources.first { $0.hasSuffix("workouts.yaml") } ?? "workouts.yaml"
    try TemplateValidator(file: baseFile).validate(base)
    try TemplateValidator(file: libraryFile).validate(library)
    for name in Set(RaceDistance.allCases.map(\.templateName)).sorted() {
      guard let rules = distances[name], let file = distanceFiles[name] else {
        throw .missingFile(name: "\(name).yaml", directory: directory)
      }
      try TemplateValidator(file: file).validate(rules, base: base, library: library)
    }
    return PlanRules(base: base, workouts: library.workouts, distances: distances, sources: sources)
  }
}

/// What a template file may hold. The shipped files are under 10 KB and some 1,500 nodes, and use no alias; the
/// limits leave room for a hundred times that, and stop a YAML alias bomb (a 1 MB scalar aliased 2,000 times, or
/// aliases of aliases) before anything walks its expansion: composing shares an aliased node (Swift values are
/// copied on write), so the tree costs what the text does until something expands it.
public enum TemplateLimits {
  /// The most bytes a file may have (1 MiB).
  public static let maximumFileBytes = 1 << 20
  /// The most nodes (scalars, sequences, mappings) a file may have with its aliases expanded.
  public static let maximumNodes = 200_000
  /// The most scalar text, in bytes, a file may have with its aliases expanded (4 MiB).
  public static let maximumExpandedBytes = 4 << 20

  /// A file of `byteCount` bytes is refused when larger than ``maximumFileBytes`` (callers that read the disk check
  /// the size before reading).
  public static func check(byteCount: Int, file: String) throws(TemplateError) {
    guard byteCount <= maximumFileBytes else {
      throw .tooLarge(file: file, found: "\(byteCount) bytes", allowed: "at most \(maximumFileBytes) bytes (1 MiB)")
    }
  }

  /// The composed tree counted as its aliases expand it, stopping at the first limit passed: at most
  /// ``maximumNodes`` nodes and ``maximumExpandedBytes`` of scalar text.
  static func checkExpansion(of root: Node, file: String) throws(TemplateError) {
    var nodes = 0
    var bytes = 0
    var pending = [root]
    while let node = pending.popLast() {
      nodes += 1
      switch node {
      case .scalar(let scalar): bytes += scalar.string.utf8.count
      case .sequence(let sequence): pending.append(contentsOf: sequence)
      case .mapping(let mapping):
        for (key, value) in mapping {
          pending.append(key)
          pending.append(value)
        }
      case .alias: break
      }
      if nodes > maximumNodes {
        throw .tooLarge(
          file: file, found: "more than \(maximumNodes) nodes with its aliases expanded",
          allowed: "at most \(maximumNodes) (a YAML alias bomb?)")
      }
      if bytes > maximumExpandedBytes {
        throw .tooLarge(
          file: file, found: "more than \(maximumExpandedBytes) bytes of text with its aliases expanded",
          allowed: "at most \(maximumExpandedBytes) (4 MiB; a YAML alias bomb?)")
      }
    }
  }
}

/// Decodes one file, turning Yams and `DecodingError`s into ``TemplateError`` with key paths and values. The file's
/// size and its size with aliases expanded are checked first (``TemplateLimits``).
func decodeTemplate<T: Codable>(_ type: T.Type, from file: TemplateFile) throws(TemplateError) -> T {
  try TemplateLimits.check(byteCount: file.text.utf8.count, file: file.name)
  let node: Node
  do {
    guard let composed = try Yams.compose(yaml: file.text) else {
      throw TemplateError.invalidValue(
        file: file.name, keyPath: "(document)", value: "an empty file",
        allowed: "a YAML mapping with schemaVersion: 1")
    }
    try TemplateLimits.checkExpansion(of: composed, file: file.name)
    node = composed
  } catch let error as TemplateError {
    throw error
  } catch let error as YamlError {
    throw syntaxError(error, file: file.name)
  } catch {
    throw .syntax(file: file.name, line: 1, column: 1, detail: oneLine("\(error)"))
  }
  if let version = node["schemaVersion"], version.int != 1 {
    throw .invalidValue(
      file: file.name, keyPath: "schemaVersion", value: "'\(version.string ?? "?")'",
      allowed: "1")
  }
  let value: T
  do {
    value = try YAMLDecoder().decode(T.self, from: node)
  } catch let error as DecodingError {
    throw describe(error, file: file.name, root: node)
  } catch let error as YamlError {
    throw syntaxError(error, file: file.name)
  } catch {
    throw .syntax(file: file.name, line: 1, column: 1, detail: oneLine("\(error)"))
  }
  try checkUnknownKeys(in: node, decoded: value, file: file.name)
  return value
}

/// One `file:line:column` error for any Yams error: Yams' own descriptions span several lines and quote the
/// document, so only the problem is kept.
private func syntaxError(_ error: YamlError, file: String) -> TemplateError {
  switch error {
  case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
    .composer(let context, let problem, let mark, _):
    let context = context.map { "\($0.text) " } ?? ""
    return .syntax(file: file, line: mark.line, column: mark.column, detail: oneLine(context + problem))
  case .duplicatedKeysInMapping(let duplicates, let context):
    let keys = duplicates.sorted().map { "'\(oneLine($0))'" }.joined(separator: ", ")
    return .syntax(
      file: file, line: context.mark.line, column: context.mark.column,
      detail: "duplicate key \(keys) in this mapping, allowed is each key once")
  case .reader(let problem, let offset, _, let yaml):
    let line = offset.map { offset in yaml.utf8.prefix(max(0, offset)).filter { $0 == 0x0A }.count + 1 } ?? 1
    return .syntax(file: file, line: line, column: 1, detail: oneLine(problem))
  default:
    return .syntax(file: file, line: 1, column: 1, detail: oneLine("\(error)"))
  }
}

/// The first line of `text`, without the rest.
private func oneLine(_ text: String) -> String {
  String(text.split(whereSeparator: \.isNewline).first ?? "")
}

/// `levels.beginner.workouts.build[1]`.
func keyPathString(_ path: [any CodingKey]) -> String {
  var text = ""
  for key in path {
    if let index = key.intValue {
      text += "[\(index)]"
    } else {
      text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
    }
  }
  return text.isEmpty ? "(document)" : text
}

private func node(at path: [any CodingKey], in root: Node) -> Node? {
  var current: Node? = root
  for key in path {
    if let index = key.intValue, let sequence = current?.sequence, index < sequence.count {
      current = sequence[index]
    } else {
      current = current?[key.stringValue]
    }
  }
  return current
}

private func describe(_ error: DecodingError, file: String, root: Node) -> TemplateError {
  func shown(_ path: [any CodingKey]) -> String {
    guard let found = node(at: path, in: root) else { return "the value" }
    if let scalar = found.scalar { return "'\(scalar.string)'" }
    return found.mapping != nil ? "a mapping" : "a list"
  }
  func expected(_ type: Any.Type) -> String {
    switch type {
    case is Double.Type, is Float.Type: "a number"
    case is Int.Type: "a whole number"
    case is String.Type: "a text"
    case is Bool.Type: "true or false"
    case is WorkoutKind.Type: WorkoutKind.allCases.map(\.rawValue).joined(separator: ", ")
    case is Intensity.Type: Intensity.allCases.map(\.rawValue).joined(separator: ", ")
    case is PatternSlot.Role.Type: PatternSlot.Role.allCases.map(\.rawValue).joined(separator: ", ")
    default: "a value of type \(type)"
    }
  }
  switch error {
  case .typeMismatch(let type, let context):
    return .invalidValue(
      file: file, keyPath: keyPathString(context.codingPath),
      value: shown(context.codingPath), allowed: expected(type))
  case .valueNotFound(let type, let context):
    return .invalidValue(
      file: file, keyPath: keyPathString(context.codingPath), value: "an empty value",
      allowed: expected(type))
  case .keyNotFound(let key, let context):
    return .missingKey(file: file, keyPath: keyPathString(context.codingPath + [key]))
  case .dataCorrupted(let context):
    if let yaml = context.underlyingError as? YamlError { return syntaxError(yaml, file: file) }
    let path = context.codingPath
    var allowed = context.debugDescription
    if allowed.hasPrefix("Cannot initialize "), let type = allowedFromEnumMessage(allowed) { allowed = type }
    return .invalidValue(file: file, keyPath: keyPathString(path), value: shown(path), allowed: allowed)
  @unknown default:
    return .invalidValue(file: file, keyPath: "(document)", value: "the file", allowed: "\(error)")
  }
}

/// Yams reports a bad enum value as "Cannot initialize WorkoutKind from invalid String value tempoo".
private func allowedFromEnumMessage(_ message: String) -> String? {
  if message.contains("WorkoutKind") { return WorkoutKind.allCases.map(\.rawValue).joined(separator: ", ") }
  if message.contains("Intensity") { return Intensity.allCases.map(\.rawValue).joined(separator: ", ") }
  if message.contains("Role") { return PatternSlot.Role.allCases.map(\.rawValue).joined(separator: ", ") }
  return nil
}

/// Keys present in the file but not in the schema are typos: re-encode what was decoded and compare key sets.
///
/// The re-encoding is JSON (Foundation's encoder, with the same key names and the same omitted `nil`s as Yams'),
/// which costs a fraction of encoding YAML and composing it again.
private func checkUnknownKeys<T: Codable>(in source: Node, decoded: T, file: String) throws(TemplateError) {
  let encoder = JSONEncoder()
  encoder.nonConformingFloatEncodingStrategy = .convertToString(
    positiveInfinity: "inf", negativeInfinity: "-inf",
    nan: "nan")
  guard let data = try? encoder.encode(decoded), let known = try? JSONSerialization.jsonObject(with: data) else {
    return
  }
  func walk(_ source: Node, _ known: Any, _ path: String) throws(TemplateError) {
    if let mapping = source.mapping, let knownMapping = known as? [String: Any] {
      let knownKeys = Array(knownMapping.keys)
      for (key, value) in mapping {
        guard let name = key.string else { continue }
        let childPath = path.isEmpty ? name : "\(path).\(name)"
        guard let knownValue = knownMapping[name] else {
          throw .unknownKey(file: file, keyPath: childPath, suggestion: closestName(to: name, among: knownKeys))
        }
        try walk(value, knownValue, childPath)
      }
    } else if let sequence = source.sequence, let knownSequence = known as? [Any] {
      for (index, element) in sequence.enumerated() where index < knownSequence.count {
        try walk(element, knownSequence[index], "\(path)[\(index)]")
      }
    }
  }
  try walk(source, known, "")
}
