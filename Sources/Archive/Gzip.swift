internal import CZlib
import Foundation

/// A streaming gzip decoder (RFC 1952): compressed bytes are pushed in pieces of any size with ``feed(_:into:)``,
/// inflated bytes come out to a sink in pieces of at most 256 KiB, so memory stays flat whatever the size.
///
/// Every member of a multi-member file is read (`cat a.gz b.gz` is one valid file), each checked against its CRC-32
/// and length; zero bytes after the last member (padding some tools write) are ignored, anything else is refused.
/// ``finish()`` says whether the data ended cleanly: data that stops inside a member is a clear error. The total
/// inflated from all members passes the same ``DecompressionLimits`` as a zip member.
///
/// ```swift
/// let decoder = GzipDecoder(name: "run.gpx.gz")
/// try decoder.feed(compressed) { bytes throws(ArchiveError) in try output.write(bytes) }
/// try decoder.finish()
/// ```
public final class GzipDecoder {
  /// The most bytes a gzip header may take (its name and comment fields are free text).
  static let maximumHeaderBytes = 64 << 10
  /// The size of one piece handed to the sink.
  static let chunk = 256 << 10

  private enum Phase {
    case header
    case body
    case trailer
    case betweenMembers
    case padding
  }

  private let name: String
  private let limits: DecompressionLimits?
  private var phase = Phase.header
  /// Header or trailer bytes gathered so far.
  private var pending: [UInt8] = []
  private let stream: UnsafeMutablePointer<z_stream>
  private let output: UnsafeMutablePointer<UInt8>
  private var started = false
  private var memberCRC: uLong = 0
  private var memberBytes: UInt64 = 0
  /// Members read whole so far.
  public private(set) var members = 0
  /// Compressed bytes taken so far (for the ratio).
  public private(set) var bytesIn: Int64 = 0
  /// Inflated bytes produced so far, over all members.
  public private(set) var bytesOut: Int64 = 0

  /// A decoder for data named `name` in messages, within `limits` (nil: none).
  public init(name: String, limits: DecompressionLimits? = DecompressionLimits()) {
    self.name = name
    self.limits = limits
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    output = .allocate(capacity: Self.chunk)
  }

  deinit {
    if started { inflateEnd(stream) }
    stream.deallocate()
    output.deallocate()
  }

  private func damaged(_ reason: String) -> ArchiveError { .damagedGzip(file: name, reason: reason) }

  /// Decodes `input`, handing what it inflates to `sink`.
  /// - Throws: ``InflateError/archive(_:)`` with ``ArchiveError/damagedGzip(file:reason:)`` (not gzip, corrupt,
  ///   checksum mismatch, trailing data) or ``ArchiveError/gzipBomb(file:detail:)``; what `sink` throws as
  ///   ``InflateError/consumer(_:)``.
  public func feed<Failure: Error>(
    _ input: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) throws(Failure) -> Void
  ) throws(InflateError<Failure>) {
    guard let base = input.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
    var offset = 0
    let count = input.count
    while offset < count {
      switch phase {
      case .header, .betweenMembers:
        if phase == .betweenMembers {
          // Zero padding after a member, or the start of another one.
          if pending.isEmpty, base[offset] == 0 {
            phase = .padding
            continue
          }
          phase = .header
        }
        let take = min(count - offset, Self.maximumHeaderBytes + 1 - pending.count)
        let before = pending.count
        pending.append(contentsOf: UnsafeBufferPointer(start: base + offset, count: take))
        switch parseHeader() {
        case .needMore:
          guard pending.count <= Self.maximumHeaderBytes else {
            throw .archive(damaged("a gzip header longer than 64 KiB"))
          }
          offset += take
        case .invalid(let reason):
          throw .archive(damaged(members == 0 ? "not gzip data: \(reason)" : "data after the last member: \(reason)"))
        case .length(let length):
          offset += length - before
          pending.removeAll(keepingCapacity: true)
          do { try startMember() } catch { throw .archive(error) }
        }
      case .body:
        offset += try inflateBody(base + offset, count - offset, sink: sink)
      case .trailer:
        let take = min(count - offset, 8 - pending.count)
        pending.append(contentsOf: UnsafeBufferPointer(start: base + offset, count: take))
        offset += take
        if pending.count == 8 {
          do { try checkTrailer() } catch { throw .archive(error) }
        }
      case .padding:
        guard base[offset] == 0 else {
          throw .archive(damaged("data after the last member (not a gzip header or zero padding)"))
        }
        offset += 1
      }
    }
  }

  /// Ends the data.
  /// - Throws: ``ArchiveError/damagedGzip(file:reason:)`` when it ends inside a member (truncated) or holds none.
  public func finish() throws(ArchiveError) {
    switch phase {
    case .betweenMembers, .padding: return
    case .header where members > 0 && pending.isEmpty: return
    case .header where members == 0 && pending.isEmpty: throw damaged("the file is empty")
    default: throw damaged("the data ends inside a member (truncated?)")
    }
  }

  private enum HeaderParse {
    case needMore
    case invalid(String)
    case length(Int)
  }

  /// The header in `pending`: its length once whole.
  private func parseHeader() -> HeaderParse {
    let bytes = pending
    if bytes.count >= 1, bytes[0] != 0x1F { return .invalid("no gzip signature") }
    if bytes.count >= 2, bytes[1] != 0x8B { return .invalid("no gzip signature") }
    if bytes.count >= 3, bytes[2] != 8 { return .invalid("compression method \(bytes[2]), only deflate (8) is known") }
    guard bytes.count >= 10 else { return .needMore }
    let flags = bytes[3]
    guard flags & 0xE0 == 0 else { return .invalid("reserved header flags set") }
    var position = 10
    if flags & 0x04 != 0 {
      guard bytes.count >= position + 2 else { return .needMore }
      position += 2 + (Int(bytes[position]) | Int(bytes[position + 1]) << 8)
    }
    for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {
      guard position < bytes.count, let end = bytes[position...].firstIndex(of: 0) else { return .needMore }
      position = end + 1
    }
    if flags & 0x02 != 0 { position += 2 }
    return bytes.count >= position ? .length(position) : .needMore
  }

  private func startMember() throws(ArchiveError) {
    if started {
      guard inflateReset(stream) == Z_OK else { throw damaged("zlib could not restart") }
    } else {
      guard inflateInit2_(stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
        throw damaged("zlib could not start")
      }
      started = true
    }
    memberCRC = crc32(0, nil, 0)
    memberBytes = 0
    phase = .body
  }

  /// Inflates from `input`; returns how many bytes of it were taken.
  private func inflateBody<Failure: Error>(
    _ input: UnsafePointer<UInt8>, _ count: Int, sink: (UnsafeRawBufferPointer) throws(Failure) -> Void
  ) throws(InflateError<Failure>) -> Int {
    stream.pointee.next_in = UnsafeMutablePointer(mutating: input)
    stream.pointee.avail_in = uInt(min(count, Int(UInt32.max)))
    let offered = Int(stream.pointee.avail_in)
    while true {
      stream.pointee.next_out = output
      stream.pointee.avail_out = uInt(Self.chunk)
      let status = gzipInflate(stream, Z_NO_FLUSH)
      let produced = Self.chunk - Int(stream.pointee.avail_out)
      let taken = offered - Int(stream.pointee.avail_in)
      switch status {
      case Z_OK, Z_BUF_ERROR, Z_STREAM_END: break
      default: throw .archive(damaged("corrupt compressed data"))
      }
      if produced > 0 {
        bytesOut += Int64(produced)
        if let limits, let refusal = limits.refusal(produced: bytesOut, taken: bytesIn + Int64(taken)) {
          throw .archive(.gzipBomb(file: name, detail: refusal))
        }
        memberCRC = crc32(memberCRC, output, uInt(produced))
        memberBytes &+= UInt64(produced)
        do { try sink(UnsafeRawBufferPointer(start: output, count: produced)) } catch { throw .consumer(error) }
      }
      if status == Z_BUF_ERROR, produced == 0, taken == 0, count > 0 {
        throw .archive(damaged("corrupt compressed data"))
      }
      if status == Z_STREAM_END {
        bytesIn += Int64(taken)
        phase = .trailer
        return taken
      }
      if stream.pointee.avail_in == 0 && stream.pointee.avail_out != 0 || status == Z_BUF_ERROR {
        bytesIn += Int64(taken)
        return taken
      }
    }
  }

  private func checkTrailer() throws(ArchiveError) {
    let bytes = pending
    func u32(_ at: Int) -> UInt32 {
      UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
    guard u32(0) == UInt32(truncatingIfNeeded: memberCRC) else {
      throw damaged("checksum mismatch: the data is damaged")
    }
    guard u32(4) == UInt32(truncatingIfNeeded: memberBytes) else {
      throw damaged("length mismatch: the data is damaged")
    }
    pending.removeAll(keepingCapacity: true)
    members += 1
    phase = .betweenMembers
  }
}

/// Decompresses the gzip file at `path` (named `name` in messages) to `sink`, reading it in 256 KiB pieces.
/// - Throws: as ``GzipDecoder/feed(_:into:)`` and ``GzipDecoder/finish()``, and
///   ``ArchiveError/unreadable(file:reason:)`` when the file cannot be read.
public func gunzip<Failure: Error>(
  file path: String, name: String, limits: DecompressionLimits? = DecompressionLimits(),
  into sink: (UnsafeRawBufferPointer) throws(Failure) -> Void
) throws(InflateError<Failure>) {
  let file: InputFile
  do { file = try InputFile(path: path, name: name) } catch { throw .archive(error) }
  let decoder = GzipDecoder(name: name, limits: limits)
  let buffer = UnsafeMutableRawPointer.allocate(byteCount: GzipDecoder.chunk, alignment: 1)
  defer { buffer.deallocate() }
  while true {
    let count: Int
    do { count = try file.read(into: buffer, count: GzipDecoder.chunk) } catch { throw .archive(error) }
    if count == 0 { break }
    try decoder.feed(UnsafeRawBufferPointer(start: buffer, count: count), into: sink)
  }
  do { try decoder.finish() } catch { throw .archive(error) }
}

/// zlib's `inflate` (a method named `inflate` would hide it).
func gzipInflate(_ stream: UnsafeMutablePointer<z_stream>, _ flush: Int32) -> Int32 {
  inflate(stream, flush)
}
