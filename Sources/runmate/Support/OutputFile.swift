import Foundation
import Training

/// What kind of file a command writes: decides which existing files it may replace and the mode of a new one.
enum OutputKind {
  /// An iCalendar export (`runmate export --out`).
  case calendar
  /// The HTML progress report (`runmate report --html`).
  case report
  /// A shared plan (`runmate plans export --out`): JSON of schema `runmate.plan-share/…`.
  case planShare

  /// The line every report starts its page with, so a later run knows the file is one it wrote.
  static let reportMarker = "<!-- RunningMate report: runmate replaces this file when asked; nothing else does -->"

  /// What runmate writes, in words, for error messages.
  var noun: String {
    switch self {
    case .calendar: "an iCalendar file (BEGIN:VCALENDAR)"
    case .report: "a RunningMate report"
    case .planShare: "a RunningMate plan file (runmate.plan-share)"
    }
  }

  /// The mode of a new file. A calendar is shared with calendar apps: 0644 (less the umask). A report shows runs,
  /// paces and health figures: 0600, readable by its owner only. A replaced file keeps its mode.
  var newFileMode: mode_t {
    switch self {
    case .calendar, .planShare:
      let mask = umask(0o022)
      umask(mask)
      return 0o666 & ~mask
    case .report:
      return 0o600
    }
  }

  /// True when `head`, the first bytes of an existing file, shows a file of this kind that runmate may replace.
  func recognizes(_ head: Data) -> Bool {
    let text = String(decoding: head, as: UTF8.self)
    switch self {
    case .calendar:
      return CalendarFiles.isCalendar(head)
    case .report:
      // Reports from before the marker are recognised by their title.
      return text.contains(OutputKind.reportMarker) || text.contains(" · RunningMate</title>")
    case .planShare:
      return text.hasPrefix("{") && text.contains("\"schema\" : \"runmate.plan-share/")
    }
  }
}

/// The one way the CLI writes an output file (`export --out`, `report --html`):
///
/// - never the database or its `-wal`, `-shm`, `-journal` files (compared as resolved paths and as device and
///   inode, so a symbolic or hard link to the database is refused too);
/// - never over an existing file runmate did not write (see ``OutputKind/recognizes(_:)``) unless `force`;
/// - a new file in the same directory, written, flushed to disk (`fsync`) and renamed over the target, so a failure
///   leaves the old file whole; a replaced file keeps its mode, a new one gets ``OutputKind/newFileMode``;
/// - temporary files a killed write of the same output left beside it are removed by the next write
///   (``LeftoverTemporaries``).
///
/// Errors are `CLIError.cannotWrite` (exit 73), one line naming the file; none quotes a byte of an existing file.
struct OutputFile {
  /// The path as given, for messages.
  let path: String
  /// Where the bytes go: `path`, or the file a symbolic link at `path` points to.
  let target: String
  let kind: OutputKind
  /// The mode of the file being replaced, nil when there is none.
  let existingMode: mode_t?
  /// There is a file of `kind` at `target` (so an export can read it as the previous one).
  var replacesOwnFile: Bool { existingMode != nil && ownFile }
  private let ownFile: Bool

  /// Checks that `path` may be written, before any work is done or recorded.
  /// - Parameter database: the database path (`DatabaseOptions.path`).
  init(_ path: String, kind: OutputKind, database: String, force: Bool) throws {
    self.path = path
    self.kind = kind
    func refuse(_ reason: String) -> CLIError { .cannotWrite(path: path, reason: reason) }
    guard !path.isEmpty else { throw refuse("an empty file name") }

    var target = path
    var info = stat()
    if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
      guard let resolved = OutputFile.realPath(path) else {
        throw refuse("it is a symbolic link to a missing file; give the file itself")
      }
      target = resolved
    }
    self.target = target

    let (parent, name) = OutputFile.split(target)
    guard !name.isEmpty, name != ".", name != ".." else { throw refuse("it is not a file name") }
    var directoryInfo = stat()
    guard stat(parent, &directoryInfo) == 0 else { throw refuse("the directory \(parent) does not exist") }
    guard directoryInfo.st_mode & S_IFMT == S_IFDIR else { throw refuse("\(parent) is not a directory") }

    let exists = stat(target, &info) == 0
    // The database and its side files, whether they exist now or not.
    for suffix in ["", "-wal", "-shm", "-journal"] {
      let candidate = database + suffix
      var candidateInfo = stat()
      let sameFile =
        exists && stat(candidate, &candidateInfo) == 0
        && candidateInfo.st_dev == info.st_dev && candidateInfo.st_ino == info.st_ino
      if sameFile || OutputFile.canonical(target) == OutputFile.canonical(candidate) {
        throw refuse(
          "it is the database \(database)\(suffix.isEmpty ? "" : " (its \(suffix) file)"); "
            + "choose another file")
      }
    }

    guard exists else {
      existingMode = nil
      ownFile = false
      return
    }
    guard info.st_mode & S_IFMT != S_IFDIR else { throw refuse("it is a directory") }
    guard info.st_mode & S_IFMT == S_IFREG else { throw refuse("it is not a regular file") }
    existingMode = info.st_mode & 0o7777
    let head = try OutputFile.head(of: target, path: path)
    ownFile = kind.recognizes(head)
    if !ownFile && !force {
      throw refuse(
        "the file exists and is not \(kind.noun) runmate wrote; choose another file, or add --force "
          + "to replace it")
    }
  }

  /// Writes `text`: a temporary file next to the target, fsync, rename over the target, fsync of the directory.
  func write(_ text: String) throws {
    func failure(_ reason: String) -> CLIError { .cannotWrite(path: path, reason: reason) }
    let (directory, base) = OutputFile.split(target)
    // Left by killed writes of this output: their writer is gone, or they are over a minute old (a write takes
    // no longer). Named with this process's id, so a later write can tell the same of this one.
    LeftoverTemporaries.remove(in: directory, prefix: ".\(base).runmate-", folders: false, olderThan: 60)
    var template = Array(LeftoverTemporaries.template(in: directory, prefix: ".\(base).runmate-").utf8CString)
    let descriptor = mkstemp(&template)
    guard descriptor >= 0 else { throw failure(OutputFile.errorText()) }
    let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var done = false
    defer {
      if !done { unlink(temporary) }
    }
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else {
        let reason = OutputFile.errorText()
        close(descriptor)
        throw failure(reason)
      }
      written += count
    }
    guard fchmod(descriptor, existingMode ?? kind.newFileMode) == 0, fsync(descriptor) == 0 else {
      let reason = OutputFile.errorText()
      close(descriptor)
      throw failure(reason)
    }
    guard close(descriptor) == 0 else { throw failure(OutputFile.errorText()) }
    guard rename(temporary, target) == 0 else { throw failure(OutputFile.errorText()) }
    done = true
    // The rename itself reaches the disk with the directory.
    let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY)
    if directoryDescriptor >= 0 {
      fsync(directoryDescriptor)
      close(directoryDescriptor)
    }
  }

  /// The first 4 KiB of an existing file, only to recognise it; never shown.
  private static func head(of target: String, path: String) throws -> Data {
    guard let handle = FileHandle(forReadingAtPath: target) else {
      throw CLIError.cannotWrite(path: path, reason: "the file exists and cannot be read (\(errorText()))")
    }
    defer { try? handle.close() }
    do {
      return try handle.read(upToCount: 4_096) ?? Data()
    } catch {
      throw CLIError.cannotWrite(path: path, reason: "the file exists and cannot be read")
    }
  }

  /// `path` with every symbolic link resolved, nil when it leads nowhere.
  private static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// The absolute path of `path` with its directory resolved (the file itself need not exist).
  private static func canonical(_ path: String) -> String {
    let (directory, name) = split(path)
    let resolved = realPath(directory) ?? directory
    return resolved == "/" ? "/" + name : resolved + "/" + name
  }

  /// The directory (`.` when there is none) and the last component of `path`. Plain string work: Foundation's
  /// `NSString` path methods trap on some one-character paths on Linux.
  static func split(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let name = String(path[path.index(after: slash)...])
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, name)
  }

  private static func errorText() -> String { String(cString: strerror(errno)) }
}
