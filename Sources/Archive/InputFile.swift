import Foundation

/// A file read with POSIX calls at given offsets (no buffering of its own, no Foundation wrappers per chunk).
public final class InputFile {
  /// The open file descriptor (owned: closed when the file is released).
  public let descriptor: Int32
  /// The name used in messages.
  public let name: String

  /// Opens `path` for reading.
  public init(path: String, name: String) throws(ArchiveError) {
    self.name = name
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw .unreadable(file: name, reason: InputFile.lastError()) }
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  /// The operating system's text for the last error.
  public static func lastError() -> String { String(cString: strerror(errno)) }

  /// Reads up to `count` bytes at the file position; 0 at the end of the file.
  public func read(into pointer: UnsafeMutableRawPointer, count: Int) throws(ArchiveError) -> Int {
    while true {
      let result = Foundation.read(descriptor, pointer, count)
      if result >= 0 { return result }
      if errno == EINTR { continue }
      throw .unreadable(file: name, reason: InputFile.lastError())
    }
  }

  /// Reads up to `count` bytes at `offset` into `pointer` (the file position is not used); 0 at the end.
  public func read(at offset: Int64, into pointer: UnsafeMutableRawPointer, count: Int) throws(ArchiveError) -> Int {
    while true {
      let result = pread(descriptor, pointer, count, off_t(offset))
      if result >= 0 { return result }
      if errno == EINTR { continue }
      throw .unreadable(file: name, reason: InputFile.lastError())
    }
  }

  /// The size of the file in bytes.
  public func size() throws(ArchiveError) -> Int64 {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw .unreadable(file: name, reason: InputFile.lastError()) }
    return Int64(status.st_size)
  }

  /// The first `count` bytes (fewer if the file is shorter): enough to tell a file's format.
  public func readHead(_ count: Int) throws(ArchiveError) -> [UInt8] {
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 1)
    defer { buffer.deallocate() }
    var filled = 0
    while filled < count {
      let read = try read(into: buffer + filled, count: count - filled)
      if read == 0 { break }
      filled += read
    }
    return Array(UnsafeRawBufferPointer(start: buffer, count: filled))
  }
}
