internal import CZlib
import Foundation

/// One member of a zip: what the central directory says about it.
public struct ZipMember: Sendable, Hashable {
  /// The path inside the archive (`apple_health_export/export.xml`), as written.
  public var path: String
  /// 0 (stored) or 8 (deflated); anything else is refused when read.
  public var method: UInt16
  /// The general-purpose flags (bit 0: encrypted).
  public var flags: UInt16
  /// The CRC-32 of the inflated bytes.
  public var crc32: UInt32
  /// Bytes of compressed data.
  public var compressedSize: Int64
  /// Bytes once inflated, as declared.
  public var uncompressedSize: Int64
  /// Where the member's local header starts.
  public var localHeaderOffset: Int64

  /// The path as shown in messages (at most 200 characters, control characters replaced).
  public var shownPath: String { shownName(path) }

  /// Whether the member is a folder (its path ends with `/`).
  public var isDirectory: Bool { path.hasSuffix("/") }

  /// Whether the path stays inside the archive: not absolute (`/etc/passwd`, `C:\x`, `\\server\x`) and no part
  /// is `..` (with `/` or `\` as the separator), and no NUL byte.
  public var isSafePath: Bool {
    let parts = path.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }
    if path.hasPrefix("/") || path.hasPrefix("\\") || path.contains("\0") { return false }
    if let first = parts.first, first.count == 2, first.last == ":" { return false }
    return !parts.contains("..")
  }

  /// A member as a central directory would describe it (tests, callers that build their own listing).
  public init(
    path: String, method: UInt16, flags: UInt16, crc32: UInt32, compressedSize: Int64, uncompressedSize: Int64,
    localHeaderOffset: Int64
  ) {
    self.path = path
    self.method = method
    self.flags = flags
    self.crc32 = crc32
    self.compressedSize = compressedSize
    self.uncompressedSize = uncompressedSize
    self.localHeaderOffset = localHeaderOffset
  }

  /// The last part of the path (`1234.gpx.gz` for `activities/1234.gpx.gz`).
  public var baseName: String {
    String(path.split { $0 == "/" || $0 == "\\" }.last ?? Substring(path))
  }
}

/// A zip archive read with positioned reads and inflated with zlib, with every size checked against the
/// file: no read goes past the end of the file or of a member's compressed data, so a member cut short
/// ends in an error at once (ZIPFoundation's inflate loop spins forever on compressed data that stops at
/// the end of the file), and inflating stops as soon as a member passes its ``DecompressionLimits``.
///
/// Understood: the end-of-central-directory record and its ZIP64 form, central-directory entries with
/// their ZIP64 extra field, local headers, stored and deflated members. Not: encryption, other methods,
/// multi-disk archives.
///
/// ```swift
/// let zip = try ZipArchive(path: "export.zip", name: "export.zip")
/// try zip.readDirectory()
/// for member in zip.members where member.isSafePath {
///   try zip.inflate(member) { bytes throws(MyError) in consume(bytes); return true }
/// }
/// ```
public final class ZipArchive {
  /// The most central-directory bytes read (a real export lists a few thousand members).
  static let maximumDirectoryBytes: Int64 = 64 << 20

  let file: InputFile
  /// The size of the archive in bytes.
  public let size: Int64
  /// The members, in central-directory order (empty before ``readDirectory()``).
  public private(set) var members: [ZipMember] = []
  /// The name used in messages.
  public var name: String { file.name }

  /// Opens `path` (named `name` in messages); ``readDirectory()`` then lists the members.
  /// - Throws: ``ArchiveError/unreadable(file:reason:)`` when it cannot be opened.
  public init(path: String, name: String) throws(ArchiveError) {
    file = try InputFile(path: path, name: name)
    size = try file.size()
  }

  /// Reads the central directory into ``members``.
  /// - Throws: ``ArchiveError/damagedZip(file:reason:)`` when it is not a zip or its directory is damaged.
  public func readDirectory() throws(ArchiveError) {
    do { try readDirectoryChecked() } catch { throw .damagedZip(file: file.name, reason: error.reason) }
  }

  private func readDirectoryChecked() throws(Damage) {
    let tailLength = Int(min(size, 22 + 0xFFFF))
    let tail = try read(at: size - Int64(tailLength), count: tailLength)
    guard tailLength >= 22,
      let end = (0...(tailLength - 22)).reversed().first(where: { Self.u32(tail, $0) == 0x0605_4B50 })
    else { throw Damage("no central directory (truncated?)") }
    var entryCount = Int64(Self.u16(tail, end + 10))
    var directorySize = Int64(Self.u32(tail, end + 12))
    var directoryOffset = Int64(Self.u32(tail, end + 16))
    if entryCount == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
      // ZIP64: the locator sits just before the end record and points at the ZIP64 end record.
      let locatorPosition = size - Int64(tailLength - end) - 20
      guard locatorPosition >= 0 else { throw Damage("no ZIP64 end of central directory") }
      let locator = try read(at: locatorPosition, count: 20)
      guard Self.u32(locator, 0) == 0x0706_4B50 else { throw Damage("no ZIP64 end of central directory") }
      let recordPosition = Int64(bitPattern: Self.u64(locator, 8))
      guard recordPosition >= 0, recordPosition <= size - 56 else { throw Damage("a ZIP64 record past the end") }
      let record = try read(at: recordPosition, count: 56)
      guard Self.u32(record, 0) == 0x0606_4B50 else { throw Damage("no ZIP64 end of central directory") }
      entryCount = Int64(bitPattern: Self.u64(record, 32))
      directorySize = Int64(bitPattern: Self.u64(record, 40))
      directoryOffset = Int64(bitPattern: Self.u64(record, 48))
    }
    guard directoryOffset >= 0, directorySize >= 0, directorySize <= Self.maximumDirectoryBytes,
      directoryOffset <= size - directorySize, entryCount >= 0, entryCount <= directorySize / 46 + 1
    else { throw Damage("the central directory lies outside the file (truncated?)") }
    let directory = try read(at: directoryOffset, count: Int(directorySize))
    var position = 0
    var found: [ZipMember] = []
    for _ in 0..<entryCount {
      guard position + 46 <= directory.count, Self.u32(directory, position) == 0x0201_4B50 else {
        throw Damage("a damaged central directory")
      }
      let nameLength = Int(Self.u16(directory, position + 28))
      let extraLength = Int(Self.u16(directory, position + 30))
      let commentLength = Int(Self.u16(directory, position + 32))
      let next = position + 46 + nameLength + extraLength + commentLength
      guard next <= directory.count else { throw Damage("a damaged central directory") }
      var member = ZipMember(
        path: String(decoding: directory[(position + 46)..<(position + 46 + nameLength)], as: UTF8.self),
        method: Self.u16(directory, position + 10), flags: Self.u16(directory, position + 8),
        crc32: Self.u32(directory, position + 16), compressedSize: Int64(Self.u32(directory, position + 20)),
        uncompressedSize: Int64(Self.u32(directory, position + 24)),
        localHeaderOffset: Int64(Self.u32(directory, position + 42)))
      // The ZIP64 extra field holds, in this order, whichever of the three is 0xFFFFFFFF.
      var extra = position + 46 + nameLength
      let extraEnd = extra + extraLength
      while extra + 4 <= extraEnd {
        let id = Self.u16(directory, extra)
        let length = Int(Self.u16(directory, extra + 2))
        guard extra + 4 + length <= extraEnd else { break }
        if id == 0x0001 {
          var field = extra + 4
          func next64() -> Int64? {
            guard field + 8 <= extra + 4 + length else { return nil }
            defer { field += 8 }
            return Int64(bitPattern: Self.u64(directory, field))
          }
          if member.uncompressedSize == 0xFFFF_FFFF, let value = next64() { member.uncompressedSize = value }
          if member.compressedSize == 0xFFFF_FFFF, let value = next64() { member.compressedSize = value }
          if member.localHeaderOffset == 0xFFFF_FFFF, let value = next64() { member.localHeaderOffset = value }
        }
        extra += 4 + length
      }
      found.append(member)
      position = next
    }
    members = found
  }

  /// Inflates `member`, handing the bytes to `consumer` in pieces of at most `chunk` bytes; `consumer`
  /// returns false to stop early (then the checksum is not checked).
  /// - Parameter limits: The size and ratio limits (nil: none, for callers that stop early themselves).
  /// - Throws: ``InflateError/archive(_:)`` (damaged, cut short, checksum mismatch, or a bomb), or what `consumer`
  ///   throws as ``InflateError/consumer(_:)``.
  public func inflate<Failure: Error>(
    _ member: ZipMember, chunk: Int = 256 << 10, limits: DecompressionLimits? = DecompressionLimits(),
    consumer: (UnsafeRawBufferPointer) throws(Failure) -> Bool
  ) throws(InflateError<Failure>) {
    do {
      try inflateChecked(member, chunk: chunk, limits: limits, consumer: consumer)
    } catch {
      switch error {
      case .damage(let damage):
        throw .archive(.damagedZip(file: file.name, reason: "\(member.shownPath): \(damage.reason)"))
      case .bomb(let detail): throw .archive(.bomb(file: file.name, member: member.shownPath, detail: detail))
      case .io(let error): throw .archive(error)
      case .consumer(let error): throw .consumer(error)
      }
    }
  }

  /// A failure inside ``inflate(_:chunk:limits:consumer:)``.
  private enum Failed<Failure: Error>: Error {
    case damage(Damage)
    case bomb(String)
    case io(ArchiveError)
    case consumer(Failure)
  }

  private func inflateChecked<Failure: Error>(
    _ member: ZipMember, chunk: Int, limits: DecompressionLimits?,
    consumer: (UnsafeRawBufferPointer) throws(Failure) -> Bool
  ) throws(Failed<Failure>) {
    func fail(_ reason: String) -> Failed<Failure> { .damage(Damage(reason)) }
    guard member.flags & 1 == 0 else { throw fail("encrypted members are not supported") }
    guard member.method == 0 || member.method == 8 else { throw fail("unsupported compression method") }
    let header: [UInt8]
    do { header = try read(at: member.localHeaderOffset, count: 30) } catch { throw .damage(error) }
    guard Self.u32(header, 0) == 0x0403_4B50 else { throw fail("no local header (damaged)") }
    let dataStart = member.localHeaderOffset + 30 + Int64(Self.u16(header, 26)) + Int64(Self.u16(header, 28))
    guard member.compressedSize >= 0, dataStart <= size, member.compressedSize <= size - dataStart else {
      throw fail("the compressed data is cut short (truncated?)")
    }
    if let limits, member.uncompressedSize > limits.maximumBytes {
      throw .bomb("it declares more than \(limits.sizeText)")
    }
    let input = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
    let output = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    defer {
      input.deallocate()
      output.deallocate()
      stream.deallocate()
    }
    if member.method == 8 {
      guard inflateInit2_(stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
        throw fail("zlib could not start")
      }
    }
    defer { if member.method == 8 { inflateEnd(stream) } }
    var consumed: Int64 = 0
    var produced: Int64 = 0
    var checksum: uLong = crc32(0, nil, 0)
    var finished = false

    // `taken`: compressed bytes zlib has taken so far, for the ratio.
    func deliver(_ count: Int, taken: Int64) throws(Failed<Failure>) -> Bool {
      produced += Int64(count)
      if let limits, let refusal = limits.refusal(produced: produced, taken: taken) { throw .bomb(refusal) }
      if produced > member.uncompressedSize { throw fail("more data than its header declares (damaged)") }
      checksum = crc32(checksum, output, uInt(count))
      do { return try consumer(UnsafeRawBufferPointer(start: output, count: count)) } catch { throw .consumer(error) }
    }

    while !finished {
      let want = Int(min(Int64(chunk), member.compressedSize - consumed))
      if want == 0 {
        if member.method == 0 { break }
        throw fail("the compressed data is cut short (truncated?)")
      }
      let got: Int
      do {
        got = try file.read(at: dataStart + consumed, into: member.method == 0 ? output : input, count: want)
      } catch {
        throw .io(error)
      }
      guard got > 0 else { throw fail("the compressed data is cut short (truncated?)") }
      consumed += Int64(got)
      if member.method == 0 {
        guard try deliver(got, taken: consumed) else { return }
        continue
      }
      stream.pointee.next_in = input
      stream.pointee.avail_in = uInt(got)
      repeat {
        stream.pointee.next_out = output
        stream.pointee.avail_out = uInt(chunk)
        let status = zlibInflate(stream, Z_NO_FLUSH)
        switch status {
        case Z_OK, Z_BUF_ERROR: break
        case Z_STREAM_END: finished = true
        default: throw fail("corrupt compressed data")
        }
        let count = chunk - Int(stream.pointee.avail_out)
        if count > 0 {
          guard try deliver(count, taken: consumed - Int64(stream.pointee.avail_in)) else { return }
        } else if status == Z_BUF_ERROR {
          break
        }
      } while !finished && (stream.pointee.avail_in > 0 || stream.pointee.avail_out == 0)
    }
    guard produced == member.uncompressedSize else { throw fail("less data than its header declares (damaged)") }
    guard UInt32(truncatingIfNeeded: checksum) == member.crc32 else {
      throw fail("checksum mismatch: the zip is damaged")
    }
  }

  // MARK: - Reading

  private func read(at offset: Int64, count: Int) throws(Damage) -> [UInt8] {
    guard offset >= 0, count >= 0, offset <= size - Int64(count) else {
      throw Damage("a record past the end of the file (truncated?)")
    }
    let bytes: [UInt8]
    do {
      bytes = try file.read(upTo: count, at: offset)
    } catch {
      throw Damage(error.description)
    }
    guard bytes.count == count else { throw Damage("a record past the end of the file (truncated?)") }
    return bytes
  }

  private static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
    UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
  }

  private static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    UInt32(u16(bytes, at)) | UInt32(u16(bytes, at + 2)) << 16
  }

  private static func u64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
    UInt64(u32(bytes, at)) | UInt64(u32(bytes, at + 4)) << 32
  }
}

/// zlib's `inflate` (the method of the same name hides it inside ``ZipArchive``).
private func zlibInflate(_ stream: UnsafeMutablePointer<z_stream>, _ flush: Int32) -> Int32 {
  inflate(stream, flush)
}

/// What is wrong with the archive, in words.
struct Damage: Error {
  /// The words to show.
  var reason: String
  init(_ reason: String) { self.reason = reason }
}
