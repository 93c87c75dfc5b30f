import Foundation
import Logbook
import PlanEngine
import RunMateTestSupport
import Testing
import TrainingDomain

/// Opening a file: ours made private, not ours or damaged left byte for byte with nothing beside it, and the locks
/// one database of this process holds kept when another on the same file closes.
@Suite struct DatabaseFileTests {
  @Test func anExistingDatabaseAndItsWALAreMadePrivate() throws {
    let dir = try temporaryDirectory("logbook")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("runmate.sqlite").path
    let first = try LogbookDatabase(path: path)
    _ = try first.addCompletions([Completion(date: testStart, distanceKm: 5, durationSeconds: 1800)])
    for suffix in ["", "-wal", "-shm"] {
      try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path + suffix)
    }
    let second = try LogbookDatabase(path: path)
    for suffix in ["", "-wal", "-shm"] {
      let mode = try FileManager.default.attributesOfItem(atPath: path + suffix)[.posixPermissions] as? NSNumber
      #expect(mode?.intValue == 0o600, "\(suffix)")
    }
    #expect(try second.completions().count == 1)
  }

  @Test(.enabled(if: SQLiteScript.hasPython, "needs python3 (scripts/apt-packages.txt)"))
  func foreignAndDamagedFilesAreLeftByteForByteWithNothingBeside() throws {
    let dir = try temporaryDirectory("logbook")
    defer { try? FileManager.default.removeItem(at: dir) }
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
    try python("c.execute('pragma journal_mode=wal'); c.execute('create table notes(x)')", path("foreign-wal.sqlite"))
    try python("c.execute('pragma application_id = 7'); c.execute('pragma user_version = 3')", path("marked.sqlite"))
    do {
      let ours = try LogbookDatabase(path: path("ours.sqlite"))
      _ = try ours.addCompletions(
        (0..<200).map {
          Completion(
            date: testStart.adding(days: $0), distanceKm: 5, durationSeconds: 1800,
            note: String(repeating: "x", count: 200))
        })
    }
    var damaged = try Data(contentsOf: URL(fileURLWithPath: path("ours.sqlite")))
    damaged.replaceSubrange(4096..<8192, with: Data(repeating: 0xA5, count: 4096))
    try damaged.write(to: URL(fileURLWithPath: path("damaged.sqlite")))
    var header = Data("SQLite format 3\u{0}".utf8)
    header.append(Data(repeating: 0x41, count: 200))
    try header.write(to: URL(fileURLWithPath: path("header.sqlite")))
    try FileManager.default.removeItem(atPath: path("ours.sqlite"))
    let expectations: [String: (LogbookError) -> Bool] = [
      "foreign-wal.sqlite": { $0 == .notOurs(path: path("foreign-wal.sqlite")) },
      "marked.sqlite": { $0 == .notOurs(path: path("marked.sqlite")) },
      "header.sqlite": { $0 == .corrupt(path: path("header.sqlite"), detail: "the SQLite header is damaged") },
      "damaged.sqlite": {
        if case .corrupt(_, let detail) = $0 { return detail.hasPrefix("damaged: ") || detail.contains("malformed") }
        return false
      },
    ]
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    #expect(names == expectations.keys.sorted())
    let before = try names.map { try Data(contentsOf: URL(fileURLWithPath: path($0))) }
    for (name, matches) in expectations {
      do {
        _ = try LogbookDatabase(path: path(name))
        Issue.record("\(name) was opened")
      } catch {
        #expect(matches(error), "\(name): \(error)")
      }
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == names)
    #expect(try names.map { try Data(contentsOf: URL(fileURLWithPath: path($0))) } == before)
  }

  @Test func anEmptyFileIsOursToCreate() throws {
    let dir = try temporaryDirectory("logbook")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("empty.sqlite").path
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    let db = try LogbookDatabase(path: path)
    #expect(try db.completions().isEmpty)
  }

  /// Closing one database must not drop the SQLite locks another one of this process holds on the same file (POSIX
  /// drops every `fcntl` lock of a process on a file when any of its descriptors for the file is closed).
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/locks")))
  func closingOneDatabaseKeepsTheLocksOfAnotherOnTheSameFile() throws {
    let dir = try temporaryDirectory("logbook")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("runmate.sqlite").path
    let keeper = try LogbookDatabase(path: path)
    _ = try keeper.addCompletions([Completion(date: testStart, distanceKm: 5, durationSeconds: 1800)])
    _ = try keeper.completions()
    let inode = try #require((try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber]) as? NSNumber)
    func lockedByUs() throws -> Bool {
      let locks = try String(contentsOfFile: "/proc/locks", encoding: .utf8)
      let pid = ProcessInfo.processInfo.processIdentifier
      return locks.split(separator: "\n").contains { line in
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        return fields.count > 5 && fields[1] == "POSIX" && fields[4] == "\(pid)"
          && fields[5].hasSuffix(":\(inode.uint64Value)")
      }
    }
    #expect(try lockedByUs(), "SQLite holds a shared lock while the database is open (WAL mode)")
    do {
      let other = try LogbookDatabase(path: path)
      #expect(try other.completions().count == 1)
    }
    #expect(try lockedByUs(), "closing the other database dropped this one's locks")
    #expect(try keeper.addCompletions([Completion(date: testStart, distanceKm: 6, durationSeconds: 1900)]).count == 1)
  }
}
