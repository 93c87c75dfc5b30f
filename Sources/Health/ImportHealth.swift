import Archive
import Foundation
import XMLStream

/// Streams an Apple Health export (export.zip, export.xml, an unzipped export folder, or a CSV of
/// date,steps,distance_km,active_kcal) and aggregates it: daily totals in `timeZone` with overlapping sources counted
/// once, body measures and workouts, units normalised. Memory does not grow with the file's size (about 2 MiB of
/// buffers plus 16 bytes per kept sample); a zip bomb, an entity expansion or a truncated file is refused with its
/// line. The input detection, the de-duplication rule and the limits are described in `docs/health-import.md`.
///
/// ```swift
/// let health = try importHealth(at: URL(fileURLWithPath: "export.zip"), timeZone: .current)
/// for day in health.days.suffix(7) { print(day.date, Int(day.steps)) }
/// ```
///
/// - Parameters:
///   - url: A file URL: `export.zip`, an export XML, an unzipped export folder, or a daily CSV.
///   - timeZone: The zone whose calendar days the totals are for (the runner's profile zone).
///   - progress: Called after each chunk with the position in the file at `url` (bytes read; for a zip an
///     estimate in proportion to the decompressed part), ending with the file's size: the file's size is
///     the 100 % mark of a progress bar.
/// - Returns: Daily totals, body measures and workouts.
/// - Throws: ``HealthError``; nothing is returned for a file that fails anywhere.
public func importHealth(
  at url: URL, timeZone: TimeZone, progress: (@Sendable (Int64) -> Void)? = nil
) throws(HealthError) -> HealthImport {
  try importHealth(at: url, timeZone: timeZone, sourcePriority: [], progress: progress)
}

/// Imports like ``importHealth(at:timeZone:progress:)`` with an explicit source order for
/// de-duplication: the sources named in `sourcePriority` (exact `sourceName`s, highest priority first,
/// as the user ordered them under Data Sources & Access) outrank all others.
/// - Parameters:
///   - url: A file URL: `export.zip`, an export XML, an unzipped export folder, or a daily CSV.
///   - timeZone: The zone whose calendar days the totals are for.
///   - sourcePriority: Source names, highest priority first.
///   - progress: Called now and then with the position in the file at `url`.
/// - Returns: Daily totals, body measures and workouts.
/// - Throws: ``HealthError``.
public func importHealth(
  at url: URL, timeZone: TimeZone, sourcePriority: [String], progress: (@Sendable (Int64) -> Void)? = nil
) throws(HealthError) -> HealthImport {
  let name = url.lastPathComponent
  guard url.isFileURL else { throw .unreadable(file: name, reason: "not a file URL") }
  let options = ImportOptions(timeZone: timeZone, priority: sourcePriority, progress: progress)
  var isDirectory: ObjCBool = false
  if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
    return try importFolder(url, options: options)
  }
  let head: [UInt8]
  do { head = try InputFile(path: url.path, name: name).readHead(4096) } catch {
    throw HealthError(reading: error, file: name)
  }
  if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
    return try importZip(url, options: options)
  }
  let text = head.starts(with: [0xEF, 0xBB, 0xBF]) ? head.dropFirst(3) : head[...]
  guard let first = text.first(where: { !(($0 == 0x20) || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D) }) else {
    throw .notAnExport(file: name, reason: "the file is empty")
  }
  if first == UInt8(ascii: "<") || first == 0 || first == 0xFE || first == 0xFF {
    return try importXMLFile(url, displayName: name, options: options)
  }
  let firstLine = text.prefix { $0 != 10 && $0 != 13 }
  if url.pathExtension.lowercased() == "csv" || firstLine.contains(UInt8(ascii: ",")) {
    return try importDailyCSV(url, name: name, options: options)
  }
  throw .notAnExport(file: name, reason: "not XML, CSV or zip")
}

/// What the importers share.
struct ImportOptions {
  var timeZone: TimeZone
  var priority: [String]
  var progress: (@Sendable (Int64) -> Void)?
}

// MARK: - Files

/// Opens a file through Archive's reader, with its errors in Health's words.
func openFile(_ path: String, name: String) throws(HealthError) -> InputFile {
  do { return try InputFile(path: path, name: name) } catch { throw HealthError(reading: error, file: name) }
}

extension HealthError {
  /// A read error from Archive's file reader, as Health's (only `unreadable` happens on a plain file).
  init(reading error: ArchiveError, file: String) {
    if case .unreadable(_, let reason) = error {
      self = .unreadable(file: file, reason: reason)
    } else {
      self = .unreadable(file: file, reason: "\(error)")
    }
  }
}

/// An export XML being streamed through the tokenizer (XMLStream) into the ``ExportHandler``.
struct ExportStream {
  private var tokenizer = XMLTokenizer(doctypePolicy: .skipInternalSubset)
  private var handler: ExportHandler
  private let file: String

  init(file: String, options: ImportOptions) {
    self.file = file
    handler = ExportHandler(file: file, timeZone: options.timeZone, priority: options.priority)
  }

  /// Bytes handed to the tokenizer so far.
  var bytesFed: Int64 { tokenizer.bytesRead }

  /// Adds bytes (from a zip entry) and scans what is complete.
  mutating func feed(_ bytes: UnsafeRawBufferPointer) throws(HealthError) {
    var offset = 0
    while offset < bytes.count {
      offset += tokenizer.append(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
      try drain()
    }
  }

  /// Reads the next chunk of `file` and scans it; false at the end of the file.
  mutating func read(from file: InputFile) throws(HealthError) -> Bool {
    switch tokenizer.fill(from: file.descriptor) {
    case .filled:
      try drain()
      return true
    case .endOfInput:
      return false
    case .failed(let code):
      throw .unreadable(file: file.name, reason: String(cString: strerror(code)))
    }
  }

  /// Hands the complete elements to the handler; true once the document has ended.
  @discardableResult
  private mutating func drain() throws(HealthError) -> Bool {
    while true {
      let event: XMLEvent
      do {
        event = try tokenizer.next()
      } catch {
        // Health has always counted the line after a final line feed as the file's last.
        if case .truncated(let line, let element) = error, tokenizer.lastByteIsNewline {
          throw .truncated(file: file, line: line + 1, openElement: element)
        }
        throw Self.healthError(error, file: file)
      }
      do throws(HealthError) {
        switch event {
        case .startElement(let tag):
          if tag.depth == 0, !tag.name.equals("HealthData") {
            throw .notAnExport(file: file, reason: "root element <\(tag.name.string)>")
          }
          try handler.startElement(tag)
        case .endElement(let depth):
          try handler.endElement(depth: depth)
        case .text:
          break
        case .needsInput:
          return false
        case .endOfDocument:
          return true
        }
      } catch {
        // The handler does not know lines: it leaves 0 for the tag's line.
        throw error.at(line: tokenizer.line)
      }
    }
  }

  /// The tokenizer's error in Health's words.
  static func healthError(_ error: XMLStreamError, file: String) -> HealthError {
    switch error {
    case .empty: .notAnExport(file: file, reason: "the file is empty")
    case .unsupportedEncoding(let name): .notAnExport(file: file, reason: "\(name) text; exports are UTF-8")
    case .textBeforeRoot(let line, _): .xml(file: file, line: line, detail: "text before the root element <HealthData>")
    case .noRootElement: .notAnExport(file: file, reason: "no <HealthData> element")
    case .truncated(let line, let element): .truncated(file: file, line: line, openElement: element)
    case .contentAfterRoot(let line, _, let element?, let root):
      .xml(file: file, line: line, detail: "element <\(element)> after </\(root)>")
    case .contentAfterRoot(let line, _, nil, let root): .xml(file: file, line: line, detail: "text after </\(root)>")
    case .internalSubset(let line): .xml(file: file, line: line, detail: "<!DOCTYPE> with an internal subset")
    case .undefinedEntity(let line, _, let name, let declared, _):
      .entityReference(file: file, line: line, name: name, declaredInDocumentType: declared)
    case .mismatchedEndTag(let line, _, let name, let open, _):
      .xml(file: file, line: line, detail: "</\(name)> does not match the open element <\(open)>")
    case .malformed(let line, _, let detail): .xml(file: file, line: line, detail: detail)
    }
  }

  /// Ends the document and returns the result.
  mutating func finish() throws(HealthError) -> HealthImport {
    tokenizer.endInput()
    try drain()
    return try handler.makeImport(bytesRead: tokenizer.bytesConsumed)
  }
}

/// Streams an export XML file.
func importXMLFile(_ url: URL, displayName: String, options: ImportOptions) throws(HealthError) -> HealthImport {
  let file = try openFile(url.path, name: displayName)
  var stream = ExportStream(file: displayName, options: options)
  while try stream.read(from: file) {
    options.progress?(stream.bytesFed)
  }
  let result = try stream.finish()
  options.progress?(result.bytesRead)
  return result
}

/// Whether the first bytes of a file look like an Apple Health export.
func looksLikeExport<Bytes: Collection<UInt8>>(_ head: Bytes) -> Bool {
  let text = Array(head)
  func contains(_ word: String) -> Bool {
    let needle = Array(word.utf8)
    guard text.count >= needle.count else { return false }
    return (0...(text.count - needle.count)).contains { text[$0..<($0 + needle.count)].elementsEqual(needle) }
  }
  return contains("<!DOCTYPE HealthData") || contains("<HealthData")
}

/// An unzipped export: the first `.xml` (in the folder or its `apple_health_export/`) that sniffs as one.
func importFolder(_ url: URL, options: ImportOptions) throws(HealthError) -> HealthImport {
  let name = url.lastPathComponent
  let manager = FileManager.default
  var candidates: [URL] = []
  for folder in [url, url.appendingPathComponent("apple_health_export")] {
    let entries = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
    candidates += entries.sorted().filter { $0.lowercased().hasSuffix(".xml") }
      .map { folder.appendingPathComponent($0) }
  }
  for candidate in candidates {
    guard let head = try? InputFile(path: candidate.path, name: candidate.lastPathComponent).readHead(4096),
      looksLikeExport(head)
    else { continue }
    return try importXMLFile(candidate, displayName: candidate.lastPathComponent, options: options)
  }
  throw .notAnExport(file: name, reason: "a folder without an export XML")
}

// MARK: - Zip

/// A zip: the export member found by sniffing, inflated in 256 KiB pieces straight into the scanner (never
/// extracted to disk or to memory whole), within `HealthLimits`' size and ratio limits.
func importZip(_ url: URL, options: ImportOptions) throws(HealthError) -> HealthImport {
  let name = url.lastPathComponent
  let archive: ZipArchive
  do {
    archive = try ZipArchive(path: url.path, name: name)
    try archive.readDirectory()
  } catch {
    switch error {
    case .unreadable(_, let reason): throw .unreadable(file: name, reason: reason)
    case .damagedZip(_, let reason), .damagedGzip(_, let reason):
      throw .unreadableZip(file: name, reason: "not a zip archive, or damaged: \(reason)")
    case .bomb(_, _, let reason), .gzipBomb(_, let reason):
      throw .unreadableZip(file: name, reason: "not a zip archive, or damaged: \(reason)")
    case .unsafeName(_, let member): throw .unreadableZip(file: name, reason: "an unsafe member path \(member)")
    }
  }
  let candidates = archive.members
    .filter { member in
      !member.isDirectory && member.path.lowercased().hasSuffix(".xml") && !member.path.hasPrefix("__MACOSX/")
    }
    .enumerated()
    .sorted { lhs, rhs in
      let depths = (lhs.element.path.split(separator: "/").count, rhs.element.path.split(separator: "/").count)
      return depths.0 != depths.1 ? depths.0 < depths.1 : lhs.offset < rhs.offset
    }
    .map(\.element)
  var found: ZipMember?
  var failure: HealthError?
  for candidate in candidates {
    switch sniff(candidate, in: archive) {
    case .export: found = candidate
    case .other: continue
    case .unreadable(let error): failure = failure ?? error
    }
    if found != nil { break }
  }
  guard let member = found else {
    if let failure { throw failure }
    throw .noExportInZip(file: name)
  }
  let lastComponent = member.path.split(separator: "/").last.map(String.init) ?? member.path
  let memberName = HealthLimits.shown(lastComponent, limit: 200)
  let zipSize = archive.size
  let uncompressed = max(member.uncompressedSize, 1)
  var stream = ExportStream(file: memberName, options: options)
  var reported: Int64 = 0
  try inflate(member, of: archive, limits: HealthLimits.zipMember) { bytes throws(HealthError) -> Bool in
    try stream.feed(bytes)
    if let progress = options.progress, stream.bytesFed - reported >= 1 << 20 {
      reported = stream.bytesFed
      progress(min(zipSize, Int64(Double(reported) / Double(uncompressed) * Double(zipSize))))
    }
    return true
  }
  let result = try stream.finish()
  options.progress?(zipSize)
  return result
}

/// The size of a file in bytes (0 when unknown).
func fileSize(_ path: String) -> Int64 {
  guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return 0 }
  if let number = attributes[.size] as? NSNumber { return number.int64Value }
  return Int64(attributes[.size] as? Int ?? 0)
}

/// Inflates `member` of `archive` as ``ZipArchive/inflate(_:chunk:limits:consumer:)`` does, with its errors as
/// ``HealthError``s (the zip's name, the member, the reason).
func inflate(
  _ member: ZipMember, of archive: ZipArchive, chunk: Int = 256 << 10, limits: DecompressionLimits,
  consumer: (UnsafeRawBufferPointer) throws(HealthError) -> Bool
) throws(HealthError) {
  do {
    try archive.inflate(member, chunk: chunk, limits: limits, consumer: consumer)
  } catch {
    switch error {
    case .consumer(let error): throw error
    case .archive(.unreadable(let file, let reason)): throw .unreadable(file: file, reason: reason)
    case .archive(.bomb(let file, let member, let detail)): throw .zipBomb(file: file, member: member, detail: detail)
    case .archive(.gzipBomb(let file, let detail)): throw .zipBomb(file: file, member: file, detail: detail)
    case .archive(.damagedZip(let file, let reason)), .archive(.damagedGzip(let file, let reason)):
      throw .unreadableZip(file: file, reason: reason)
    case .archive(.unsafeName(let file, let member)):
      throw .unreadableZip(file: file, reason: "an unsafe member path \(member)")
    }
  }
}

/// What the first bytes of a zip member are.
private enum Sniffed {
  case export
  case other
  case unreadable(HealthError)
}

/// Whether a zip member starts like an Apple Health export (its first 4 KB).
private func sniff(_ member: ZipMember, in archive: ZipArchive) -> Sniffed {
  var head: [UInt8] = []
  do {
    try inflate(member, of: archive, chunk: 4096, limits: HealthLimits.zipMember) { bytes throws(HealthError) -> Bool in
      head.append(contentsOf: bytes.prefix(4096 - head.count))
      return head.count < 4096
    }
  } catch {
    return .unreadable(error)
  }
  return looksLikeExport(head) ? .export : .other
}
