import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

// What the tests of servers share (the feed server, Radicale for CalDAV): `runmate` run on a test database, free
// loopback ports, a child's output read while it runs.

/// What a finished `runmate` printed and its exit status.
public typealias RunmateOutcome = (stdout: String, stderr: String, status: Int32)

/// Runs the built `runmate` with `arguments` on the database at `database` (`RUNMATE_DB`), in the repository, in
/// UTC, with none of the caller's RUNMATE_TEMPLATES, SOURCE_DATE_EPOCH or RUNMATE_CALDAV_PASSWORD, plus
/// `environment`; both outputs are read to their end.
public func runRunmate(_ arguments: [String], database: URL, environment: [String: String] = [:]) throws
  -> RunmateOutcome
{
  try runToEnd(try runmateProcess(arguments, database: database, environment: environment))
}

/// Runs `process` (set up, not started), reading both of its outputs to their end.
public func runToEnd(_ process: Process) throws -> RunmateOutcome {
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  try process.run()
  let errors = ReadInBackground(err)
  let output = out.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (String(decoding: output, as: UTF8.self), errors.wait(), process.terminationStatus)
}

/// The built `runmate`, set up as ``runRunmate(_:database:environment:)`` runs it, not started (for a test that
/// signals it while it runs).
public func runmateProcess(_ arguments: [String], database: URL, environment: [String: String] = [:]) throws
  -> Process
{
  var env = ProcessInfo.processInfo.environment
  env["RUNMATE_DB"] = database.path
  env["RUNMATE_TEMPLATES"] = nil
  env["SOURCE_DATE_EPOCH"] = nil
  env["RUNMATE_CALDAV_PASSWORD"] = nil
  env["TZ"] = "UTC"
  for (key, value) in environment { env[key] = value }
  let process = Process()
  process.executableURL = try runmateBinary()
  process.arguments = arguments
  process.currentDirectoryURL = repositoryRoot
  process.environment = env
  return process
}

/// Reads a pipe to its end on another thread (a child's log while it runs, or the second of two outputs).
public final class ReadInBackground: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)

  /// Starts reading `pipe`.
  public init(_ pipe: Pipe) {
    let handle = pipe.fileHandleForReading
    Thread.detachNewThread { [self] in
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        lock.withLock { data.append(chunk) }
      }
      done.signal()
    }
  }

  /// What was read so far.
  public func text() -> String { lock.withLock { String(decoding: data, as: UTF8.self) } }

  /// Everything, once the pipe is closed.
  public func wait() -> String {
    done.wait()
    return text()
  }
}

/// A port on 127.0.0.1 that was free a moment ago (bound to port 0, read back, closed).
public func freeLoopbackPort() throws -> Int {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  try #require(fd >= 0)
  defer { close(fd) }
  var address = loopbackAddress(port: 0)
  let bound = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
  }
  try #require(bound == 0)
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let named = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
  }
  try #require(named == 0)
  return Int(UInt16(bigEndian: address.sin_port))
}

/// 127.0.0.1:`port` as a socket address.
public func loopbackAddress(port: Int) -> sockaddr_in {
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  return address
}

/// `body` run on a Dispatch thread, its result handed back.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
  }
}
