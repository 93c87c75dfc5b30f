import Foundation

/// The `InputStream` handed to `XMLParser(stream:)`: it reads a file (through a POSIX descriptor, in the
/// parser's 128 KiB chunks) or a `Data`, and on the way
/// - runs the ``PrologueScanner`` over each chunk *before* returning it, failing the read (−1) when the
///   prologue is refused, so the XML parser never sees a DTD's internal subset;
/// - records whether the end of the input has been reached, which tells a truncated file (errors at the end
///   of input with elements still open) from an error in the middle;
/// - counts the bytes, to tell an empty file from a broken one.
///
/// FoundationXML only calls `open()`, `read(_:maxLength:)` and `close()` on the stream.
final class GuardedInputStream: InputStream {
  private enum Source {
    case file(descriptor: Int32)
    case memory(Data)
  }

  private let source: Source
  private var offset = 0
  private var isClosed = false
  private var scanner = PrologueScanner()

  /// Why the prologue was refused, once it has been.
  private(set) var refusal: PrologueScanner.Refusal?
  /// The operating system's error text when reading failed.
  private(set) var readError: String?
  /// Whether a read has returned 0: everything has been handed to the parser.
  private(set) var reachedEnd = false
  /// Bytes handed to the parser so far.
  private(set) var byteCount = 0
  /// Whether the first bytes have been handed over (a misplaced declaration is looked for only there).
  private var started = false

  /// A stream over an open file descriptor, which the stream then owns and closes.
  init(fileDescriptor: Int32) {
    source = .file(descriptor: fileDescriptor)
    super.init(data: Data())
  }

  /// A stream over bytes in memory.
  init(bytes: Data) {
    source = .memory(bytes)
    super.init(data: Data())
  }

  deinit {
    closeDescriptor()
  }

  /// Opens the file for reading.
  /// - Parameter path: The file's path.
  /// - Returns: The stream, or the operating system's error text.
  static func open(path: String) -> Result<GuardedInputStream, ReadFailure> {
    let descriptor = posixOpen(path)
    guard descriptor >= 0 else { return .failure(ReadFailure(reason: errorText(errno))) }
    return .success(GuardedInputStream(fileDescriptor: descriptor))
  }

  /// An operating-system error text, wrapped so it can be a `Result` failure.
  struct ReadFailure: Error {
    /// The text, e.g. `No such file or directory`.
    var reason: String
  }

  override func open() {}

  override func close() {
    closeDescriptor()
  }

  override var hasBytesAvailable: Bool { !reachedEnd && refusal == nil && readError == nil && !isClosed }

  override var streamStatus: Stream.Status {
    if refusal != nil || readError != nil { return .error }
    if isClosed { return .closed }
    return reachedEnd ? .atEnd : .open
  }

  /// Overridden because FoundationXML reads it after a failed read, and the inherited getter traps on a
  /// subclass. The reader reports ``refusal`` and ``readError`` itself; this only has to exist.
  override var streamError: (any Error)? {
    guard refusal != nil || readError != nil else { return nil }
    return CocoaError(.fileReadUnknown)
  }

  override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
    guard refusal == nil, readError == nil, !isClosed else { return -1 }
    let count: Int
    switch source {
    case .file(let descriptor):
      count = posixRead(descriptor, buffer, length)
      if count < 0 {
        readError = Self.errorText(errno)
        return -1
      }
    case .memory(let data):
      count = min(length, data.count - offset)
      if count > 0 {
        let start = data.startIndex + offset
        data.copyBytes(to: buffer, from: start..<(start + count))
        offset += count
      }
    }
    if count == 0 {
      reachedEnd = true
      return 0
    }
    if !scanner.isFinished, case .refused(let why) = scanner.scan(UnsafeBufferPointer(start: buffer, count: count)) {
      refusal = why
      return -1
    }
    if !started {
      started = true
      Self.blankMisplacedDeclaration(UnsafeMutableBufferPointer(start: buffer, count: count))
    }
    byteCount += count
    return count
  }

  /// Some apps (Strava's TCX among them) write whitespace before `<?xml …?>`, which XML forbids and libxml2
  /// refuses ("reserved name 'xml' used as a processing instruction target"). Such a declaration, when it names
  /// UTF-8 or ASCII or no encoding, is overwritten with spaces: the document stays the same (UTF-8 is the
  /// default), and so do its line and column numbers.
  static func blankMisplacedDeclaration(_ bytes: UnsafeMutableBufferPointer<UInt8>) {
    var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    let first = index
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    let opening = Array("<?xml".utf8)
    guard index > first, index + opening.count < bytes.count,
      Array(bytes[index..<(index + opening.count)]) == opening,
      [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index + opening.count])
    else { return }
    var end = index + opening.count
    while end + 1 < bytes.count, !(bytes[end] == 0x3F && bytes[end + 1] == 0x3E) { end += 1 }
    guard end + 1 < bytes.count else { return }
    let declaration = String(decoding: bytes[index..<end], as: UTF8.self).lowercased()
    if let keyword = declaration.range(of: "encoding") {
      let value = declaration[keyword.upperBound...].filter { !" =\t\r\n\"'".contains($0) }.prefix(8)
      guard
        value.hasPrefix("utf-8") || value.hasPrefix("utf8") || value.hasPrefix("us-ascii")
          || value.hasPrefix("ascii")
      else { return }
    }
    for position in index...(end + 1) where bytes[position] != 0x0A && bytes[position] != 0x0D {
      bytes[position] = 0x20
    }
  }

  private func closeDescriptor() {
    guard !isClosed else { return }
    isClosed = true
    if case .file(let descriptor) = source { _ = posixClose(descriptor) }
  }

  private static func errorText(_ code: Int32) -> String {
    strerror(code).map { String(cString: $0) } ?? "error \(code)"
  }
}

// The POSIX calls, outside the class whose `open`, `read` and `close` methods would shadow them.

private func posixOpen(_ path: String) -> Int32 {
  var descriptor: Int32
  repeat {
    descriptor = open(path, O_RDONLY)
  } while descriptor < 0 && errno == EINTR
  return descriptor
}

private func posixRead(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ length: Int) -> Int {
  var count: Int
  repeat {
    count = read(descriptor, buffer, length)
  } while count < 0 && errno == EINTR
  return count
}

private func posixClose(_ descriptor: Int32) -> Int32 {
  close(descriptor)
}
