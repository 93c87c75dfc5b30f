import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A window over a FIT file's bytes, refilled in 256 KiB chunks from a file descriptor (or copied from bytes in
/// memory), so memory stays flat whatever the file's size. The largest FIT message (255 fields and 255 developer
/// fields of 255 bytes, 130,051 bytes) always fits in the window. Every byte consumed goes through the CRC.
final class FITInput {
  /// The window's capacity in bytes.
  static let capacity = 1 << 18

  private enum Source {
    case descriptor(Int32)
    case bytes(Data, next: Int)
  }

  private var source: Source
  private let buffer: UnsafeMutableRawPointer
  /// The first unread byte in the window.
  private var start = 0
  /// The end of the bytes in the window.
  private var end = 0
  /// The file offset of `buffer[0]`.
  private var base = 0
  /// Whether the source has no more bytes.
  private var exhausted = false
  /// The CRC of every byte consumed since the last ``resetCRC()``.
  private(set) var crc: UInt16 = 0
  /// The file's size when known (a regular file, bytes in memory); nil for a pipe.
  let size: Int?
  /// The operating system's reason when a read failed.
  private(set) var readError: String?

  /// Reads the file descriptor `fd` (not closed here).
  init(descriptor fd: Int32) {
    source = .descriptor(fd)
    buffer = .allocate(byteCount: Self.capacity, alignment: 16)
    var status = stat()
    if fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
      size = Int(status.st_size)
    } else {
      size = nil
    }
  }

  /// Reads bytes held in memory.
  init(data: Data) {
    source = .bytes(data, next: data.startIndex)
    buffer = .allocate(byteCount: Self.capacity, alignment: 16)
    size = data.count
  }

  deinit { buffer.deallocate() }

  /// The file offset of the next unread byte.
  var offset: Int { base + start }

  /// The bytes available in the window.
  var available: Int { end - start }

  /// The next unread byte's address; valid until the next ``ensure(_:)``.
  var pointer: UnsafeRawPointer { UnsafeRawPointer(buffer + start) }

  /// Makes at least `count` bytes (at most ``capacity``) available; false when the file ends first (or a read
  /// fails: see ``readError``).
  @inline(__always)
  func ensure(_ count: Int) -> Bool {
    if end - start >= count { return true }
    return refill(count)
  }

  private func refill(_ count: Int) -> Bool {
    if start > 0 {
      let kept = end - start
      if kept > 0 { memmove(buffer, buffer + start, kept) }
      base += start
      end = kept
      start = 0
    }
    while end < count, !exhausted {
      let read = fill(buffer + end, Self.capacity - end)
      if read <= 0 { exhausted = true } else { end += read }
    }
    return end >= count
  }

  private func fill(_ into: UnsafeMutableRawPointer, _ room: Int) -> Int {
    switch source {
    case .descriptor(let fd):
      while true {
        let count = read(fd, into, room)
        if count < 0, errno == EINTR { continue }
        if count < 0 { readError = String(cString: strerror(errno)) }
        return count
      }
    case .bytes(let data, let next):
      let count = min(room, data.endIndex - next)
      guard count > 0 else { return 0 }
      data.copyBytes(to: into.assumingMemoryBound(to: UInt8.self), from: next..<(next + count))
      source = .bytes(data, next: next + count)
      return count
    }
  }

  /// Consumes `count` available bytes, folding them into the CRC.
  @inline(__always)
  func consume(_ count: Int) {
    crc = FITCRC.update(crc, buffer + start, count: count)
    start += count
  }

  /// Goes back to the first byte (a second pass); false when the source cannot (a pipe).
  func rewind() -> Bool {
    switch source {
    case .descriptor(let fd):
      guard lseek(fd, 0, SEEK_SET) == 0 else { return false }
    case .bytes(let data, _):
      source = .bytes(data, next: data.startIndex)
    }
    start = 0
    end = 0
    base = 0
    exhausted = false
    return true
  }

  /// Starts a new CRC (at a file header).
  func resetCRC() { crc = 0 }

  /// Whether the input has no byte left.
  func atEnd() -> Bool { !ensure(1) }
}
