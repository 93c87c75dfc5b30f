import Foundation
import PlanEngine

/// The decoded-templates cache on disk: `$XDG_CACHE_HOME/runmate/` (else `~/.cache/runmate/`), one
/// `rules-<hash>.json` per template set (see ``PlanRules/load(files:directory:cached:key:)``).
///
/// The cache only saves time: an entry that cannot be read, does not match the templates byte for byte or was
/// written by another build is ignored and replaced; a cache directory that cannot be created or written leaves
/// the command as it was (the YAML is decoded every run). Entries are written whole (to a temporary file, then
/// renamed), so a concurrent reader sees the old entry or the new one.
enum RulesCache {
  /// At most this many entries stay; the oldest go when a new one is written.
  static let keptEntries = 8
  /// Larger files in the cache directory are not read (an entry for the shipped templates is about 50 KB).
  static let largestEntry = 4 << 20

  /// Loads the rules from `files` through the cache.
  static func rules(files: [TemplateFile], directory: String) throws(TemplateError) -> PlanRules {
    let key = RulesCache.key
    guard let cacheDirectory = RulesCache.directory else {
      return try PlanRules(files: files, directory: directory)
    }
    let path = (cacheDirectory as NSString).appendingPathComponent(PlanRules.cacheEntryName(files: files, key: key))
    let loaded = try PlanRules.load(files: files, directory: directory, cached: read(path), key: key)
    if let entry = loaded.newEntry { write(entry, to: path, in: cacheDirectory) }
    return loaded.rules
  }

  /// `$XDG_CACHE_HOME/runmate`, else `~/.cache/runmate` (nil without either).
  static var directory: String? {
    let environment = ProcessInfo.processInfo.environment
    if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") {
      return (base as NSString).appendingPathComponent("runmate")
    }
    guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
    return (home as NSString).appendingPathComponent(".cache/runmate")
  }

  /// The program's version and its executable's size and modification time: a rebuilt runmate (whose templates
  /// schema or checks may have changed) does not read entries of another build.
  static var key: String {
    let version = RunMate.configuration.version
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? Bundle.main.executablePath ?? CommandLine.arguments[0]
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: executable),
      let size = attributes[.size] as? NSNumber, let modified = attributes[.modificationDate] as? Date
    else {
      return "runmate \(version) \(executable)"
    }
    return "runmate \(version) \(executable) \(size) \(modified.timeIntervalSince1970)"
  }

  /// The entry at `path`, if there is a regular file of a plausible size (not a FIFO, which would block the read).
  private static func read(_ path: String) -> Data? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      attributes[.type] as? FileAttributeType == .typeRegular,
      let handle = FileHandle(forReadingAtPath: path)
    else { return nil }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: largestEntry + 1), data.count <= largestEntry else { return nil }
    return data
  }

  /// Writes `entry` atomically and drops the oldest entries beyond ``keptEntries``; failures are ignored.
  private static func write(_ entry: Data, to path: String, in directory: String) {
    let manager = FileManager.default
    guard (try? manager.createDirectory(atPath: directory, withIntermediateDirectories: true)) != nil,
      (try? entry.write(to: URL(fileURLWithPath: path), options: .atomic)) != nil,
      let names = try? manager.contentsOfDirectory(atPath: directory)
    else { return }
    let entries = names.filter { $0.hasPrefix("rules-") && $0.hasSuffix(".json") }.map { name in
      let entryPath = (directory as NSString).appendingPathComponent(name)
      let modified = (try? manager.attributesOfItem(atPath: entryPath))?[.modificationDate] as? Date
      return (path: entryPath, modified: modified ?? .distantPast)
    }
    guard entries.count > keptEntries else { return }
    for old in entries.sorted(by: { $0.modified > $1.modified }).dropFirst(keptEntries) where old.path != path {
      try? manager.removeItem(atPath: old.path)
    }
  }
}
