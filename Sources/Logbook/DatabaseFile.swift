import Foundation
import GRDB
import TrainingDomain

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The database file before SQLite writes to it: created 0600, locked while it is set up, and looked at byte by byte
/// so that a file which is not ours, or is damaged, is refused without being changed (no header byte rewritten, no
/// `-wal` / `-shm` made beside it).
///
/// Setup (creation, the ownership probe, WAL mode, migrations) runs under an exclusive `flock(2)` on the database
/// file itself, so that many processes opening a new path at once take turns instead of racing. `flock` and
/// SQLite's `fcntl` locks are independent on Linux. But closing *any* descriptor of a file drops every `fcntl` lock
/// the process holds on it, SQLite's included: so the descriptor is kept open while the database is, shared by every
/// ``LogbookDatabase`` of this process on the same file, and closed only after the last one closed its connections.
final class DatabaseFile: @unchecked Sendable {
  /// A file's identity (device and inode).
  struct Identity: Hashable {
    var device: UInt64
    var inode: UInt64
  }

  /// The open database files of this process. Guarded by `lock`, which also makes setups in this process take turns.
  private static let lock = NSLock()
  nonisolated(unsafe) private static var registry: [Identity: DatabaseFile] = [:]

  let identity: Identity
  /// The descriptor held for the `flock` (never read or written through).
  let descriptor: Int32
  /// How many ``LogbookDatabase`` values use it (guarded by `DatabaseFile.lock`).
  private var users = 0

  private init(identity: Identity, descriptor: Int32) {
    self.identity = identity
    self.descriptor = descriptor
  }

  /// What the bytes of a file say it is.
  enum Kind: Equatable {
    /// Empty: ours to create.
    case empty
    /// An SQLite database marked as RunningMate's.
    case ours
    /// An SQLite database without an application id: ours only when it has no tables yet.
    case unmarked
  }

  /// Runs `setUp` with the file at `path` created (0600) if missing and locked against other processes' setups.
  /// `setUp` receives what the header says; what it returns (the open database) keeps the file registered until
  /// ``release()``. With `readOnly`, the file is opened for reading only and never created.
  static func withSetupLock<T>(
    path: String, readOnly: Bool = false, _ setUp: (DatabaseFile, Kind) throws(LogbookError) -> T
  )
    throws(LogbookError) -> T
  {
    lock.lock()
    defer { lock.unlock() }
    let file: DatabaseFile
    let isNewDescriptor: Bool
    if let identity = identity(ofPath: path), let existing = registry[identity] {
      // Another LogbookDatabase of this process has it open: reuse its descriptor (opening and closing a second one
      // would drop that database's SQLite locks).
      file = existing
      isNewDescriptor = false
    } else {
      let descriptor = readOnly ? open(path, O_RDONLY | O_CLOEXEC) : open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else { throw .cannotOpen(path: path, detail: lastError()) }
      var status = stat()
      guard fstat(descriptor, &status) == 0 else {
        let detail = lastError()
        _ = close(descriptor)
        throw .cannotOpen(path: path, detail: detail)
      }
      guard (status.st_mode & S_IFMT) == S_IFREG else {
        _ = close(descriptor)
        throw .cannotOpen(path: path, detail: "not a regular file")
      }
      file = DatabaseFile(
        identity: Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino)),
        descriptor: descriptor)
      isNewDescriptor = true
    }
    do throws(LogbookError) {
      try file.lockExclusively(path: path)
      defer { _ = flock(file.descriptor, LOCK_UN) }
      let kind = try file.kind(path: path)
      let result = try setUp(file, kind)
      file.users += 1
      registry[file.identity] = file
      return result
    } catch {
      // No SQLite connection of this process is open on a new descriptor's file yet: closing it is safe.
      if isNewDescriptor { _ = close(file.descriptor) }
      throw error
    }
  }

  /// One ``LogbookDatabase`` is done (its connections closed): the last one closes the descriptor.
  func release() {
    DatabaseFile.lock.lock()
    defer { DatabaseFile.lock.unlock() }
    users -= 1
    guard users <= 0 else { return }
    DatabaseFile.registry[identity] = nil
    _ = close(descriptor)
  }

  /// Waits (up to 30 s) for other processes setting the file up.
  private func lockExclusively(path: String) throws(LogbookError) {
    var waited = 0
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      switch errno {
      case EINTR: continue
      case EWOULDBLOCK:
        guard waited < 30_000 else {
          throw .cannotOpen(path: path, detail: "another process has been setting it up for 30 seconds; try again")
        }
        usleep(5_000)
        waited += 5
      default:
        return  // no flock on this file system (some network mounts): SQLite's own locking still applies
      }
    }
  }

  /// Reads the header (100 bytes) without changing anything.
  private func kind(path: String) throws(LogbookError) -> Kind {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw .cannotOpen(path: path, detail: DatabaseFile.lastError()) }
    if status.st_size == 0 { return .empty }
    var header = [UInt8](repeating: 0, count: 100)
    let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 100, 0) }
    guard count == 100, header[0..<16].elementsEqual(Array("SQLite format 3\u{0}".utf8)) else {
      throw .corrupt(path: path, detail: "the file is not an SQLite database")
    }
    // The fields every SQLite file has: a power-of-two page size from 512 to 65536 (1 meaning 65536) and the fixed
    // payload fractions 64, 32, 32. Anything else is damage (or another format behind the same 16 bytes).
    let pageSize = Int(header[16]) << 8 | Int(header[17])
    let validPageSize = pageSize == 1 || (pageSize >= 512 && pageSize & (pageSize - 1) == 0)
    guard validPageSize, header[21] == 64, header[22] == 32, header[23] == 32 else {
      throw .corrupt(path: path, detail: "the SQLite header is damaged")
    }
    let applicationID = header[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    switch applicationID {
    case UInt32(bitPattern: LogbookDatabase.applicationID): return .ours
    case 0: return .unmarked
    default: throw .notOurs(path: path)
    }
  }

  /// Makes the file, and the `-wal` / `-shm` beside it, readable by the owner only (it holds health data).
  func makePrivate(path: String) {
    var status = stat()
    if fstat(descriptor, &status) == 0, status.st_mode & 0o077 != 0 { _ = fchmod(descriptor, 0o600) }
    for suffix in ["-wal", "-shm"] where stat(path + suffix, &status) == 0 && status.st_mode & 0o077 != 0 {
      _ = chmod(path + suffix, 0o600)
    }
  }

  /// The identity of the file at `path`, without opening it.
  private static func identity(ofPath path: String) -> Identity? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
  }

  static func lastError() -> String { String(cString: strerror(errno)) }
}
