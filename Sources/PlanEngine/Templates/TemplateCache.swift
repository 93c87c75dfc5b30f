import Foundation

/// Template rules loaded through a cache of decoded templates, and what to store for the next run.
///
/// Decoding the YAML is most of the time `runmate plan` takes; a cache entry holds the decoded templates as JSON
/// together with the exact file names and texts they came from. The caller reads and writes the cache file (the
/// engine touches no disk); see ``PlanRules/load(files:directory:cached:key:)``.
public struct CachedRules: Sendable {
  /// The validated rules.
  public var rules: PlanRules
  /// Whether the rules came from the cache entry given.
  public var fromCache: Bool
  /// The entry to store when the given one did not hold these files (nil after a hit, or when the rules cannot
  /// be encoded).
  public var newEntry: Data?
}

extension PlanRules {
  /// Loads the rules from `files`, through a cache entry when it holds exactly these files.
  ///
  /// An entry is used only when its format, its `key` and every file name and text equal the ones given; its
  /// contents then pass the same semantic checks as the YAML (ranges, cross-references, the training rules'
  /// limits). Anything else (another key, a changed or renamed file, a truncated, corrupt or foreign entry, an
  /// entry whose rules fail the checks) is ignored and the YAML is decoded; a good result comes with a new entry.
  /// Templates that fail validation throw the same ``TemplateError`` as ``PlanRules/init(files:directory:)``, and
  /// yield no entry.
  ///
  /// - Parameters:
  ///   - files: the files' names and texts, as the caller read them.
  ///   - directory: the directory name, for messages about missing files.
  ///   - cached: the stored entry, if any.
  ///   - key: what else the entry depends on: the program's version and build, so that a new build (whose
  ///     schema or checks may differ) never reads an older build's entry.
  public static func load(
    files: [TemplateFile], directory: String = "plan-templates", cached: Data?,
    key: String
  ) throws(TemplateError) -> CachedRules {
    let sortedFiles = files.sorted { $0.name < $1.name }
    if let cached, let entry = try? JSONDecoder.templateCache.decode(TemplateCacheEntry.self, from: cached),
      entry.format == TemplateCacheEntry.currentFormat, entry.key == key,
      entry.files == sortedFiles.map(TemplateCacheEntry.File.init),
      entry.templates.sources == sortedFiles.map(\.name),
      let rules = try? entry.templates.validated(directory: directory)
    {
      return CachedRules(rules: rules, fromCache: true, newEntry: nil)
    }
    let templates = try DecodedTemplates(files: sortedFiles)
    let rules = try templates.validated(directory: directory)
    let entry = TemplateCacheEntry(
      format: TemplateCacheEntry.currentFormat, key: key,
      files: sortedFiles.map(TemplateCacheEntry.File.init), templates: templates)
    return CachedRules(rules: rules, fromCache: false, newEntry: try? JSONEncoder.templateCache.encode(entry))
  }

  /// A file name for the cache entry of `files` under `key`: `rules-` and 16 hex digits of a hash of both.
  ///
  /// Equal names do not make an entry valid (``load(files:directory:cached:key:)`` compares every byte); the
  /// name only keeps entries for different template sets apart.
  public static func cacheEntryName(files: [TemplateFile], key: String) -> String {
    var hash = FNV1a()
    hash.add(TemplateCacheEntry.currentFormat.description)
    hash.add(key)
    for file in files.sorted(by: { $0.name < $1.name }) {
      hash.add(file.name)
      hash.add(file.text)
    }
    let hex = String(hash.value, radix: 16)
    return "rules-" + String(repeating: "0", count: 16 - hex.count) + hex + ".json"
  }
}

/// What a cache file holds.
private struct TemplateCacheEntry: Codable {
  /// Raised when the entry's layout changes.
  static let currentFormat = 1

  /// A template file's name and text.
  struct File: Codable, Equatable {
    var name: String
    var text: String

    init(_ file: TemplateFile) {
      name = file.name
      text = file.text
    }
  }

  var format: Int
  var key: String
  /// The files the templates were decoded from, sorted by name.
  var files: [File]
  var templates: DecodedTemplates
}

extension JSONEncoder {
  /// Non-finite numbers (which YAML allows and some unchecked fields could hold) as strings, keys sorted.
  fileprivate static var templateCache: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf",
      nan: "nan")
    return encoder
  }
}

extension JSONDecoder {
  fileprivate static var templateCache: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf",
      nan: "nan")
    return decoder
  }
}

/// 64-bit FNV-1a over length-prefixed strings (so that `ab`+`c` and `a`+`bc` differ).
private struct FNV1a {
  private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  mutating func add(_ text: String) {
    var count = UInt64(text.utf8.count)
    for _ in 0..<8 {
      byte(UInt8(truncatingIfNeeded: count))
      count >>= 8
    }
    for unit in text.utf8 { byte(unit) }
  }

  private mutating func byte(_ byte: UInt8) {
    value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
  }
}
