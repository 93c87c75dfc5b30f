import Foundation
import Testing

/// The repository root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// What a run of the real `runmate` binary printed, and how it exited.
struct RunResult {
  var stdout: String
  var stderr: String
  var status: Int32
}

/// The built `runmate`: `$RUNMATE_BIN`, else next to the test bundle, else `.build/debug/runmate`.
func runmateBinary() throws -> URL {
  if let path = ProcessInfo.processInfo.environment["RUNMATE_BIN"] { return URL(fileURLWithPath: path) }
  let candidates = [
    Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("runmate"),
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("runmate"),
    repositoryRoot.appendingPathComponent(".build/debug/runmate"),
  ]
  guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
    throw RunmateNotBuilt(looked: candidates.map(\.path))
  }
  return found
}

struct RunmateNotBuilt: Error, CustomStringConvertible {
  var looked: [String]
  var description: String { "runmate is not built (run `swift build` first); looked in \(looked)" }
}

/// Runs `runmate` with `arguments` in `directory` (default: the repository root).
func runmate(_ arguments: [String], in directory: URL = repositoryRoot,
             environment: [String: String] = [:]) throws -> RunResult {
  let process = Process()
  process.executableURL = try runmateBinary()
  process.arguments = arguments
  process.currentDirectoryURL = directory
  var env = ProcessInfo.processInfo.environment
  env["RUNMATE_TEMPLATES"] = nil
  env["SOURCE_DATE_EPOCH"] = nil
  // Never the user's own database: without RUNMATE_DB, the default lands in a directory of this test process
  // (an export recorded there by another test or another process would change what an export prints).
  env["RUNMATE_DB"] = nil
  env["XDG_DATA_HOME"] = testDataHome.path
  for (key, value) in environment { env[key] = value }
  process.environment = env
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  try process.run()
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  let errData = err.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return RunResult(stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
                   status: process.terminationStatus)
}

/// `XDG_DATA_HOME` for every run of the binary: a directory of this test process, not created up front.
let testDataHome = FileManager.default.temporaryDirectory
  .appendingPathComponent("runmate-tests-data-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")

/// A fresh temporary directory, removed by the caller.
func temporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("runmate-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
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
