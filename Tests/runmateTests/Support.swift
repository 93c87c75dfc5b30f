import Foundation
import RunMateTestSupport
import Testing

/// What a run of the real `runmate` binary printed, and how it exited.
struct RunResult {
  var stdout: String
  var stderr: String
  var status: Int32
  /// The signal that ended it, nil when it exited.
  var signal: Int32? = nil
}

/// Runs `runmate` with `arguments` in `directory` (default: the repository root).
func runmate(
  _ arguments: [String], in directory: URL = repositoryRoot,
  environment: [String: String] = [:]
) throws -> RunResult {
  var env = ProcessInfo.processInfo.environment
  env["RUNMATE_TEMPLATES"] = nil
  env["SOURCE_DATE_EPOCH"] = nil
  // Never the user's own database: without RUNMATE_DB, the default lands in a directory of this test process and
  // of the running test (an export recorded there by another test, running alongside, would change what an export
  // prints).
  env["RUNMATE_DB"] = nil
  env["XDG_DATA_HOME"] = testDataHome.appendingPathComponent(currentTestKey()).path
  // The template cache of this test process, not the user's (~/.cache/runmate).
  env["XDG_CACHE_HOME"] = testDataHome.appendingPathComponent("cache").path
  for (key, value) in environment { env[key] = value }
  return try runProcess(try runmateBinary(), arguments, in: directory, environment: env)
}

/// Runs `executable` with `arguments` in `directory` (with `environment`, else this process's) and waits for it.
/// Standard error is read on another thread while standard output is read here, so neither pipe can fill and block.
func runProcess(
  _ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String]? = nil
) throws -> RunResult {
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  process.currentDirectoryURL = directory
  if let environment { process.environment = environment }
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  try process.run()
  let errData = ErrorBox()
  let group = DispatchGroup()
  group.enter()
  DispatchQueue.global().async {
    errData.set(err.fileHandleForReading.readDataToEndOfFile())
    group.leave()
  }
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  group.wait()
  process.waitUntilExit()
  return RunResult(
    stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData.get(), as: UTF8.self),
    status: process.terminationStatus,
    signal: process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil)
}

/// Bytes handed from the thread that reads standard error.
private final class ErrorBox: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()
  func set(_ value: Data) { lock.withLock { data = value } }
  func get() -> Data { lock.withLock { data } }
}

/// `sqlite3`, which the kill tests use to read a database independently of the store.
let sqlite3Path = "/usr/bin/sqlite3"

/// Whether `sqlite3` is installed.
let hasSQLite3 = FileManager.default.isExecutableFile(atPath: sqlite3Path)

/// The whole content of the database at `path`, as `sqlite3 PATH .dump` prints it (schema and rows, in order).
func sqliteDump(_ path: String) throws -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: sqlite3Path)
  process.arguments = [path, ".dump"]
  let out = Pipe()
  process.standardOutput = out
  process.standardError = FileHandle.nullDevice
  try process.run()
  let data = out.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  try #require(process.terminationStatus == 0, "sqlite3 \(path) .dump exited \(process.terminationStatus)")
  return String(decoding: data, as: UTF8.self)
}

/// Where each test's `XDG_DATA_HOME` goes: a directory of this test process, not created up front.
let testDataHome = FileManager.default.temporaryDirectory
  .appendingPathComponent("runmate-tests-data-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")

/// A short name for the running test (FNV-1a of its id), so that tests running in parallel never share a default
/// database; "none" outside a test.
func currentTestKey() -> String {
  guard let test = Test.current else { return "none" }
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  for byte in String(describing: test.id).utf8 {
    hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
  }
  return String(hash, radix: 16)
}

/// Copies the real plan-templates/ into `directory`, applying `edit` to the named file's text.
func copyTemplates(to directory: URL, editing file: String? = nil, _ edit: (String) -> String = { $0 }) throws {
  let source = repositoryRoot.appendingPathComponent("plan-templates")
  for name in try FileManager.default.contentsOfDirectory(atPath: source.path) where name.hasSuffix(".yaml") {
    var text = try String(contentsOf: source.appendingPathComponent(name), encoding: .utf8)
    if name == file { text = edit(text) }
    try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
  }
}
