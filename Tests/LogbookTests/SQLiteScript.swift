import Foundation
import RunMateTestSupport
import Testing

/// Another program's writes to a database file: Python's own sqlite3 module, not GRDB.
enum SQLiteScript {
  static let hasPython = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
}

/// Runs `script` (Python, with `c` an open sqlite3 connection to `path`), then commits.
func python(_ script: String, _ path: String) throws {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
  process.arguments = [
    "-c",
    "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); " + script
      + "; c.commit(); c.close()", path,
  ]
  try process.run()
  process.waitUntilExit()
  #expect(process.terminationStatus == 0)
}
