import Foundation

/// A file read with POSIX calls at given offsets (no buffering of its own, no Foundation wrappers per chunk).
final class InputFile {
  private let descriptor: Int32
  /// The name used in messages.
  let name: String

  /// Opens `path` for reading.
  init(path: String, name: String) throws(ArchiveError) {
    self.name = name
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw .unreadable(file: name, reason: InputFile.lastError()) }
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  /// The operating system's text for the last error.
  static func lastError() -> String { String(cString: strerror(errno)) }

  /// Reads up to `count` bytes at the file position; 0 at the end of the file.
  func read(into pointer: UnsafeMutableRawPointer, count: Int) throws(ArchiveError) -> Int {
    while true {
      let result = Foundation.read(descriptor, pointer, count)
      if result >= 0 { return result }
      if errno == EINTR { continue }
      throw .unreadable(file: name, reason: InputFile.lastError())
    }
  }

  /// Reads up to `count` bytes at `offset` into `pointer` (the file position is not used); 0 at the end.
  func read(at offset: Int64, into pointer: UnsafeMutableRawPointer, count: Int) throws(ArchiveError) -> Int {
    while true {
      let result = pread(descriptor, pointer, count, off_t(offset))
      if result >= 0 { return result }
      if errno == EINTR { continue }
      throw .unreadable(file: name, reason: InputFile.lastError())
    }
  }

  /// The size of the file in bytes.
  func size() throws(ArchiveError) -> Int64 {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw .unreadable(file: name, reason: InputFile.lastError()) }
    return Int64(status.st_size)
  }
}
