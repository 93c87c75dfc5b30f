internal import CZlib
import Foundation

/// One member of a zip: what the central directory says about it.
struct ZipMember {
  /// The path inside the archive (`apple_health_export/export.xml`).
  var path: String
  /// 0 (stored) or 8 (deflated); anything else is refused when read.
  var method: UInt16
  /// The general-purpose flags (bit 0: encrypted).
  var flags: UInt16
  /// The CRC-32 of the inflated bytes.
  var crc32: UInt32
  /// Bytes of compressed data.
  var compressedSize: Int64
  /// Bytes once inflated, as declared.
  var uncompressedSize: Int64
  /// Where the member's local header starts.
  var localHeaderOffset: Int64

  /// The path as shown in messages (at most 200 characters, control characters replaced).
  var shownPath: String { HealthLimits.shown(path, limit: 200) }

  /// Whether the member is a folder (its path ends with `/`).
  var isDirectory: Bool { path.hasSuffix("/") }
}

/// Why a zip cannot be read: a message for ``HealthError/unreadableZip(file:reason:)`` or a refused member.
enum ZipFailure: Error {
  /// The archive or a member is damaged; the words to show.
  case damaged(String)
  /// A member passed a limit while being inflated; the words to show.
  case bomb(String)
}

/// A zip archive read with positioned reads and inflated with zlib, with every size checked against the
/// file: no read goes past the end of the file or of a member's compressed data, so a member cut short
/// ends in an error at once (ZIPFoundation's inflate loop spins forever on compressed data that stops at
/// the end of the file), and inflating stops as soon as a member passes `HealthLimits`' size or ratio.
///
/// Understood: the end-of-central-directory record and its ZIP64 form, central-directory entries with
/// their ZIP64 extra field, local headers, stored and deflated members. Not: encryption, other methods,
/// multi-disk archives.
final class ZipArchive {
  /// The most central-directory bytes read (a real export lists a few thousand members).
  static let maximumDirectoryBytes: Int64 = 64 << 20

  let file: RawFile
  let size: Int64
  private(set) var members: [ZipMember] = []

  /// Opens `path` and reads its central directory.
  /// - Throws: ``HealthError/unreadable(file:reason:)`` when it cannot be opened, ``ZipFailure`` when it is
  ///   not a zip or its directory is damaged.
  init(path: String, name: String) throws(HealthError) {
    file = try RawFile(path: path, name: name)
    size = try file.size()
  }

  /// Reads the central directory.
  func readDirectory() throws(ZipFailure) {
    let tailLength = Int(min(size, 22 + 0xFFFF))
    let tail = try read(at: size - Int64(tailLength), count: tailLength)
    guard tailLength >= 22,
      let end = (0...(tailLength - 22)).reversed().first(where: { Self.u32(tail, $0) == 0x0605_4B50 })
    else { throw .damaged("no central directory (truncated?)") }
    var entryCount = Int64(Self.u16(tail, end + 10))
    var directorySize = Int64(Self.u32(tail, end + 12))
    var directoryOffset = Int64(Self.u32(tail, end + 16))
    if entryCount == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
      // ZIP64: the locator sits just before the end record and points at the ZIP64 end record.
      let locatorPosition = size - Int64(tailLength - end) - 20
      guard locatorPosition >= 0 else { throw .damaged("no ZIP64 end of central directory") }
      let locator = try read(at: locatorPosition, count: 20)
      guard Self.u32(locator, 0) == 0x0706_4B50 else { throw .damaged("no ZIP64 end of central directory") }
      let recordPosition = Int64(bitPattern: Self.u64(locator, 8))
      guard recordPosition >= 0, recordPosition <= size - 56 else { throw .damaged("a ZIP64 record past the end") }
      let record = try read(at: recordPosition, count: 56)
      guard Self.u32(record, 0) == 0x0606_4B50 else { throw .damaged("no ZIP64 end of central directory") }
      entryCount = Int64(bitPattern: Self.u64(record, 32))
      directorySize = Int64(bitPattern: Self.u64(record, 40))
      directoryOffset = Int64(bitPattern: Self.u64(record, 48))
    }
    guard directoryOffset >= 0, directorySize >= 0, directorySize <= Self.maximumDirectoryBytes,
      directoryOffset <= size - directorySize, entryCount >= 0, entryCount <= directorySize / 46 + 1
    else { throw .damaged("the central directory lies outside the file (truncated?)") }
    let directory = try read(at: directoryOffset, count: Int(directorySize))
    var position = 0
    var found: [ZipMember] = []
    for _ in 0..<entryCount {
      guard position + 46 <= directory.count, Self.u32(directory, position) == 0x0201_4B50 else {
        throw .damaged("a damaged central directory")
      }
      let nameLength = Int(Self.u16(directory, position + 28))
      let extraLength = Int(Self.u16(directory, position + 30))
      let commentLength = Int(Self.u16(directory, position + 32))
      let next = position + 46 + nameLength + extraLength + commentLength
      guard next <= directory.count else { throw .damaged("a damaged central directory") }
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
  /// - Parameter checkLimits: Whether to enforce `HealthLimits`' size and ratio limits.
  /// - Throws: ``ZipFailure`` (damaged, cut short, checksum mismatch, or a bomb), or what `consumer` throws.
  func inflate(
    _ member: ZipMember, chunk: Int = 256 << 10, checkLimits: Bool = true,
    consumer: (UnsafeRawBufferPointer) throws(HealthError) -> Bool
  ) throws(HealthError) {
    do {
      try inflateChecked(member, chunk: chunk, checkLimits: checkLimits, consumer: consumer)
    } catch {
      switch error {
      case .failure(let failure): throw Self.healthError(failure, member: member, file: file.name)
      case .consumer(let error): throw error
      }
    }
  }

  /// A failure or the consumer's error.
  private enum InflateError: Error {
    case failure(ZipFailure)
    case consumer(HealthError)
  }

  static func healthError(_ failure: ZipFailure, member: ZipMember, file: String) -> HealthError {
    switch failure {
    case .damaged(let reason): .unreadableZip(file: file, reason: "\(member.shownPath): \(reason)")
    case .bomb(let detail): .zipBomb(file: file, member: member.shownPath, detail: detail)
    }
  }

  private func inflateChecked(
    _ member: ZipMember, chunk: Int, checkLimits: Bool, consumer: (UnsafeRawBufferPointer) throws(HealthError) -> Bool
  ) throws(InflateError) {
    func fail(_ reason: String) -> InflateError { .failure(.damaged(reason)) }
    guard member.flags & 1 == 0 else { throw fail("encrypted members are not supported") }
    guard member.method == 0 || member.method == 8 else { throw fail("unsupported compression method") }
    let header: [UInt8]
    do { header = try read(at: member.localHeaderOffset, count: 30) } catch { throw .failure(error) }
    guard Self.u32(header, 0) == 0x0403_4B50 else { throw fail("no local header (damaged)") }
    let dataStart = member.localHeaderOffset + 30 + Int64(Self.u16(header, 26)) + Int64(Self.u16(header, 28))
    guard member.compressedSize >= 0, dataStart <= size, member.compressedSize <= size - dataStart else {
      throw fail("the compressed data is cut short (truncated?)")
    }
    if checkLimits, member.uncompressedSize > HealthLimits.maximumMemberBytes {
      throw .failure(.bomb("it declares more than 16 GiB"))
    }
    let input = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
    let output = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
    defer {
      input.deallocate()
      output.deallocate()
    }
    var stream = z_stream()
    if member.method == 8 {
      guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
        throw fail("zlib could not start")
      }
    }
    defer { if member.method == 8 { inflateEnd(&stream) } }
    var consumed: Int64 = 0
    var produced: Int64 = 0
    var checksum: uLong = crc32(0, nil, 0)
    var finished = false

    // `taken`: compressed bytes zlib has taken so far, for the ratio.
    func deliver(_ count: Int, taken: Int64) throws(InflateError) -> Bool {
      produced += Int64(count)
      if checkLimits {
        if produced > HealthLimits.maximumMemberBytes { throw .failure(.bomb("it inflates to more than 16 GiB")) }
        if produced > HealthLimits.ratioCheckedAfter, produced > HealthLimits.maximumRatio * max(taken, 1) {
          throw .failure(.bomb("it inflates more than \(HealthLimits.maximumRatio) times"))
        }
      }
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
        throw .consumer(error)
      }
      guard got > 0 else { throw fail("the compressed data is cut short (truncated?)") }
      consumed += Int64(got)
      if member.method == 0 {
        guard try deliver(got, taken: consumed) else { return }
        continue
      }
      stream.next_in = input
      stream.avail_in = uInt(got)
      repeat {
        stream.next_out = output
        stream.avail_out = uInt(chunk)
        let status = zlibInflate(&stream, Z_NO_FLUSH)
        switch status {
        case Z_OK, Z_BUF_ERROR: break
        case Z_STREAM_END: finished = true
        default: throw fail("corrupt compressed data")
        }
        let count = chunk - Int(stream.avail_out)
        if count > 0 {
          guard try deliver(count, taken: consumed - Int64(stream.avail_in)) else { return }
        } else if status == Z_BUF_ERROR {
          break
        }
      } while !finished && (stream.avail_in > 0 || stream.avail_out == 0)
    }
    guard produced == member.uncompressedSize else { throw fail("less data than its header declares (damaged)") }
    guard UInt32(truncatingIfNeeded: checksum) == member.crc32 else {
      throw fail("checksum mismatch: the zip is damaged")
    }
  }

  // MARK: - Reading

  private func read(at offset: Int64, count: Int) throws(ZipFailure) -> [UInt8] {
    guard offset >= 0, count >= 0, offset <= size - Int64(count) else {
      throw .damaged("a record past the end of the file (truncated?)")
    }
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 1)
    defer { buffer.deallocate() }
    var filled = 0
    while filled < count {
      let got: Int
      do {
        got = try file.read(at: offset + Int64(filled), into: buffer + filled, count: count - filled)
      } catch {
        throw .damaged(error.description)
      }
      guard got > 0 else { throw .damaged("a record past the end of the file (truncated?)") }
      filled += got
    }
    return Array(UnsafeRawBufferPointer(start: buffer, count: count))
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
