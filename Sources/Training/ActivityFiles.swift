import Activity
import Archive
import Foundation
import Logbook
import PlanEngine
import RunningCore
import TrainingDomain

/// What `runmate import` found in its files, folders and archives: the runs to hand to the logbook in one
/// transaction, and everything left out, each with its reason. Nothing in it has touched the database.
public struct ActivityFiles: Sendable {
  /// The runs read, in the order found (files sorted by path, archive members in archive order).
  public var runs: [Completion] = []
  /// Activities of other sports read as cross-training (`--all-sports`), in the order found: each with its sport
  /// (``Completion/sport``), never a run.
  public var crossTraining: [Completion] = []
  /// Activities of other sports left out (without `--all-sports`), by sport (`cycling`), each named by where it
  /// was found.
  public var otherSports: [String: [String]] = [:]
  /// Activities read from a file but holding no run to store (no distance, no duration, dated after today), one
  /// line each starting with the file's name.
  public var unusable: [String] = []
  /// Files, archives and members that could not be read (damaged, not an activity file, a bomb, an unsafe
  /// path), one line each starting with where it was found.
  public var refused: [String] = []
  /// Activities listed in a Strava `activities.csv` without a recording (entered by hand on Strava).
  public var withoutFile = 0
  /// Activity files read (plain, gzip members and archive members).
  public var filesRead = 0

  /// Nothing read yet.
  public init() {}
}

/// The limits of one activity file inflated from a gzip or zip member, and of a whole archive.
public enum ActivityArchiveLimits {
  /// One member: at most 1 GiB (the reader's 2,000,000 points fit in well under that), 200:1 past 16 MiB.
  public static let member = DecompressionLimits(maximumBytes: 1 << 30)
  /// A nested zip (Garmin's export holds zips of FIT files): at most 4 GiB.
  public static let nestedZip = DecompressionLimits(maximumBytes: 4 << 30)
  /// `activities.csv`: at most 64 MiB.
  public static let index = DecompressionLimits(maximumBytes: 64 << 20)
  /// All the members of one archive together: at most this many times the archive's size, plus 256 MiB.
  public static let archiveRatio: Int64 = 200
}

/// The file names read as activities (case ignored): `.gpx`, `.tcx`, `.fit`, each also gzipped (`.gpx.gz`).
func isActivityName(_ name: String) -> Bool {
  let lower = name.lowercased()
  let plain = lower.hasSuffix(".gz") ? String(lower.dropLast(3)) : lower
  return [".gpx", ".tcx", ".fit"].contains { plain.hasSuffix($0) }
}

/// Reads every activity in `paths`: GPX, TCX and FIT files (also gzipped, `.gpx.gz`), Strava's bulk export
/// (`export_123.zip`: its `activities.csv` names the activities and their types), Garmin's export (zips of FIT
/// files inside a zip), and folders of any of these (recursively). A file named on the command line is read
/// whatever its extension; inside folders and archives only activity files, zips and `activities.csv` are.
///
/// Nothing aborts the import but a path that does not exist: a file that cannot be read is listed in
/// ``ActivityFiles/refused`` with its reason and the rest are read. Memory and disk stay flat: each compressed member
/// is inflated, one at a time, to a file in one private temporary folder (mode 0700, within
/// ``ActivityArchiveLimits``), read with `readActivities(at:)` and deleted at once; the folder is removed before
/// returning, and folders left by killed imports are removed before it is made (``LeftoverTemporaries``).
/// - Parameters:
///   - paths: Files and folders, as given.
///   - calendar: A Gregorian calendar in the runner's time zone (the runs' days).
///   - today: The runner's today.
///   - allSports: True to read activities of other sports as cross-training (``ActivityFiles/crossTraining``)
///     instead of leaving them out (``ActivityFiles/otherSports``).
///   - progress: Called after each activity file with (files done, files known so far).
/// - Throws: ``ActivityFilesError`` when a path does not exist or no temporary folder can be made.
public func readActivityFiles(
  _ paths: [String], calendar: Calendar, today: CivilDate, allSports: Bool = false,
  progress: ((Int, Int) -> Void)? = nil
) throws(ActivityFilesError) -> ActivityFiles {
  var top: [String] = []
  for path in paths {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .missing(path: path)
    }
    if isDirectory.boolValue {
      top += folderFiles(path)
    } else {
      top.append(path)
    }
  }
  let reader = try ActivityFileReader(calendar: calendar, today: today, progress: progress)
  reader.allSports = allSports
  defer { reader.removeTemporaryFolder() }
  reader.total = top.count
  for path in top { reader.readTopLevel(path) }
  return reader.result
}

/// Why `readActivityFiles` cannot start.
public enum ActivityFilesError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A path named does not exist.
  case missing(path: String)
  /// The private temporary folder could not be made (`reason`: the operating system's text).
  case temporaryFolder(reason: String)

  /// The line to show.
  public var description: String {
    switch self {
    case .missing(let path): "\(path): cannot read: no such file"
    case .temporaryFolder(let reason): "cannot make a temporary folder for archive members (\(reason))"
    }
  }
}

/// The activity files, zips and `activities.csv` files under `folder`, sorted by path with the `activities.csv` files
/// first (hidden files and `__MACOSX` left out).
func folderFiles(_ folder: String) -> [String] {
  let root = URL(fileURLWithPath: folder)
  guard
    let walker = FileManager.default.enumerator(
      at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
  else { return [] }
  var found: [String] = []
  for case let url as URL in walker {
    let name = url.lastPathComponent
    if name == "__MACOSX" {
      walker.skipDescendants()
      continue
    }
    guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
    let lower = name.lowercased()
    if isActivityName(lower) || lower.hasSuffix(".zip") || lower == "activities.csv" { found.append(url.path) }
  }
  // Each activities.csv before the files it names.
  return found.sorted { lhs, rhs in
    let (left, right) = (lhs.hasSuffix("/activities.csv"), rhs.hasSuffix("/activities.csv"))
    return left != right ? left : lhs < rhs
  }
}

/// The walk over files, folders and archives (one per import).
final class ActivityFileReader {
  let calendar: Calendar
  let today: CivilDate
  let progress: ((Int, Int) -> Void)?
  let temporaryFolder: URL
  /// True to keep other sports as cross-training.
  var allSports = false
  var result = ActivityFiles()
  var total = 0
  var done = 0
  /// Strava indexes of unzipped exports, by the folder that holds each `activities.csv`.
  var folderIndexes: [(folder: String, index: StravaIndex)] = []
  /// Bytes the current top-level archive may still inflate.
  var budget: Int64 = .max

  init(calendar: Calendar, today: CivilDate, progress: ((Int, Int) -> Void)?) throws(ActivityFilesError) {
    self.calendar = calendar
    self.today = today
    self.progress = progress
    let directory = FileManager.default.temporaryDirectory.path
    // Folders of killed imports first: their process is gone, or they are older than an hour (a running import's
    // folder changes with every member).
    LeftoverTemporaries.remove(in: directory, prefix: "runmate-import-", folders: true, olderThan: 3_600)
    // One private folder (mkdtemp: mode 0700) named with this process's id, so a later run can tell it was left
    // by a run that is gone.
    let template = LeftoverTemporaries.template(in: directory, prefix: "runmate-import-")
    var bytes = Array(template.utf8CString)
    guard bytes.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap { mkdtemp($0) } }) != nil else {
      throw .temporaryFolder(reason: String(cString: strerror(errno)))
    }
    let made = bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    temporaryFolder = URL(fileURLWithPath: String(decoding: made, as: UTF8.self))
  }

  func removeTemporaryFolder() { try? FileManager.default.removeItem(at: temporaryFolder) }

  private func step() {
    done += 1
    progress?(done, max(total, done))
  }

  // MARK: - Top level

  /// A file named on the command line or found in a folder.
  func readTopLevel(_ path: String) {
    let url = URL(fileURLWithPath: path)
    let name = url.lastPathComponent
    if name.lowercased() == "activities.csv" {
      readFolderIndex(path)
      step()
      return
    }
    let head = Self.head(of: path)
    if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
      budget = max(Self.fileSize(path), 1 << 20) * ActivityArchiveLimits.archiveRatio + (256 << 20)
      readZip(at: path, shown: name, depth: 0)
      budget = .max
      step()
      return
    }
    let entry = folderEntry(for: url)
    if head.starts(with: [0x1F, 0x8B]) || name.lowercased().hasSuffix(".gz") {
      let plainName = Self.withoutGz(name)
      readMember(
        shown: name, fileName: name, plainName: plainName, entry: entry, archive: name, member: name
      ) { output throws(ArchiveError) in
        try flattened { () throws(InflateError<ArchiveError>) in
          try gunzip(file: path, name: name, limits: ActivityArchiveLimits.member) { bytes throws(ArchiveError) in
            try output.write(bytes)
          }
        }
      }
    } else {
      readActivityFile(at: path, shown: name, fileName: name, entry: entry)
    }
    step()
  }

  /// The first bytes of a file (fewer when it is shorter or unreadable).
  static func head(of path: String) -> [UInt8] {
    guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
    defer { try? handle.close() }
    return Array((try? handle.read(upToCount: 4)) ?? Data())
  }

  static func fileSize(_ path: String) -> Int64 {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
  }

  static func withoutGz(_ name: String) -> String {
    name.lowercased().hasSuffix(".gz") ? String(name.dropLast(3)) : name
  }

  /// Reads an unzipped Strava export's `activities.csv`, for the files under its folder.
  func readFolderIndex(_ path: String) {
    guard let data = FileManager.default.contents(atPath: path), data.count <= ActivityArchiveLimits.index.maximumBytes,
      let index = StravaIndex(csv: Array(data))
    else { return }
    result.withoutFile += index.withoutFile
    folderIndexes.append((URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path, index))
  }

  /// The Strava entry of a file under a folder with an `activities.csv`.
  func folderEntry(for url: URL) -> StravaIndex.Entry? {
    let path = url.standardizedFileURL.path
    for (folder, index) in folderIndexes where path.hasPrefix(folder + "/") {
      if let entry = index.entry(for: String(path.dropFirst(folder.count + 1))) { return entry }
    }
    return nil
  }

  // MARK: - Zips

  /// Reads the activities of the zip at `path`, shown as `shown`; `depth` 0 for a zip on disk, 1 inside another.
  func readZip(at path: String, shown: String, depth: Int) {
    let archive: ZipArchive
    do {
      archive = try ZipArchive(path: path, name: shown)
      try archive.readDirectory()
    } catch {
      result.refused.append(error.description)
      return
    }
    // Strava's index first: names and types for the files.
    var indexes: [(prefix: String, index: StravaIndex)] = []
    for member in archive.members
    where member.isSafePath && member.baseName.lowercased() == "activities.csv" && !member.isDirectory {
      var bytes: [UInt8] = []
      do throws(ArchiveError) {
        try flattened { () throws(InflateError<ArchiveError>) in
          try archive.inflate(member, limits: ActivityArchiveLimits.index) { (chunk) throws(ArchiveError) -> Bool in
            bytes.append(contentsOf: chunk)
            return true
          }
        }
      } catch {
        result.refused.append(Self.message(error))
        continue
      }
      if let index = StravaIndex(csv: bytes) {
        result.withoutFile += index.withoutFile
        indexes.append((String(member.path.dropLast(member.baseName.count)), index))
      }
    }
    let wanted = archive.members.filter { member in
      let lower = member.path.lowercased()
      return !member.isDirectory && !lower.hasPrefix("__macosx/")
        && (isActivityName(lower) || lower.hasSuffix(".zip") || !member.isSafePath)
    }
    if wanted.isEmpty, indexes.isEmpty {
      result.refused.append("\(shown): no activity files in the zip (.gpx, .tcx, .fit, also gzipped, or zips of them)")
      return
    }
    total += wanted.count
    for member in wanted {
      defer { step() }
      guard member.isSafePath else {
        result.refused.append(ArchiveError.unsafeName(file: shown, member: member.shownPath).description)
        continue
      }
      guard budget > 0 else {
        result.refused.append(
          "\(shown): refusing \(member.shownPath): the archive inflates more than "
            + "\(ActivityArchiveLimits.archiveRatio) times its size (a zip bomb?)")
        continue
      }
      let memberShown = "\(shown)/\(member.shownPath)"
      if member.path.lowercased().hasSuffix(".zip") {
        guard depth == 0 else {
          result.refused.append("\(memberShown): a zip inside a zip inside a zip is not read")
          continue
        }
        readNestedZip(member, of: archive, shown: memberShown)
        continue
      }
      let entry = indexes.lazy.compactMap { prefix, index in
        member.path.hasPrefix(prefix) ? index.entry(for: String(member.path.dropFirst(prefix.count))) : nil
      }.first
      let gzipped = member.path.lowercased().hasSuffix(".gz")
      readMember(
        shown: memberShown, fileName: member.baseName, plainName: Self.withoutGz(member.baseName), entry: entry,
        archive: shown, member: member.shownPath
      ) { output throws(ArchiveError) in
        let decoder = gzipped ? GzipDecoder(name: memberShown, limits: ActivityArchiveLimits.member) : nil
        try flattened { () throws(InflateError<ArchiveError>) in
          try archive.inflate(member, limits: ActivityArchiveLimits.member) { (bytes) throws(ArchiveError) -> Bool in
            guard let decoder else {
              try output.write(bytes)
              return true
            }
            try flattened { () throws(InflateError<ArchiveError>) in
              try decoder.feed(bytes) { (plain) throws(ArchiveError) in try output.write(plain) }
            }
            return true
          }
        }
        try decoder?.finish()
      }
    }
  }

  /// A zip inside the zip (Garmin's export): inflated to a temporary file, then read as a zip.
  func readNestedZip(_ member: ZipMember, of archive: ZipArchive, shown: String) {
    let path = temporaryPath("nested.zip")
    defer { try? FileManager.default.removeItem(atPath: path) }
    do throws(ArchiveError) {
      let output = try TemporaryOutput(path: path, budget: budget, archive: archive.name, member: member.shownPath)
      defer { budget -= output.written }
      try flattened { () throws(InflateError<ArchiveError>) in
        try archive.inflate(member, limits: ActivityArchiveLimits.nestedZip) { (bytes) throws(ArchiveError) -> Bool in
          try output.write(bytes)
          return true
        }
      }
      try output.close()
    } catch {
      result.refused.append(Self.message(error))
      return
    }
    readZip(at: path, shown: shown, depth: 1)
  }

  // MARK: - Activity files

  /// A compressed activity file: `inflate` writes its bytes to a private temporary file named `plainName`, which is
  /// then read and deleted.
  func readMember(
    shown: String, fileName: String, plainName: String, entry: StravaIndex.Entry?,
    archive: String, member: String,
    inflate: (TemporaryOutput) throws(ArchiveError) -> Void
  ) {
    if !allSports, let type = entry?.type, case .other(let sport) = DeclaredSport(type) {
      result.otherSports[sport, default: []].append(shownName(fileName))
      return
    }
    let path = temporaryPath(plainName)
    defer { try? FileManager.default.removeItem(atPath: path) }
    do throws(ArchiveError) {
      let output = try TemporaryOutput(path: path, budget: budget, archive: archive, member: member)
      defer { budget -= output.written }
      try inflate(output)
      try output.close()
    } catch {
      result.refused.append(Self.message(error))
      return
    }
    readActivityFile(at: path, shown: shown, fileName: fileName, entry: entry)
  }

  /// Reads one GPX, TCX (or, where the reader knows it, FIT) file; its activities become runs, other sports or
  /// unusable lines, its error a refused line naming `shown`.
  func readActivityFile(at path: String, shown: String, fileName: String, entry: StravaIndex.Entry?) {
    if !allSports, let type = entry?.type, case .other(let sport) = DeclaredSport(type) {
      result.otherSports[sport, default: []].append(shownName(fileName))
      return
    }
    result.filesRead += 1
    let url = URL(fileURLWithPath: path)
    let summaries: [ActivitySummary]
    do {
      summaries = try readActivities(at: url)
    } catch {
      var text = error.description
      let readName = url.lastPathComponent
      if text.hasPrefix(readName) { text = shown + text.dropFirst(readName.count) }
      if case .notActivityFile(_, nil) = error, readName.lowercased().hasSuffix(".fit") {
        text = "\(shown): FIT files are not read by this version (unsupported format)"
      }
      result.refused.append(shownName(text, limit: 1_000))
      return
    }
    let safeName = shownName(fileName)
    for summary in summaries {
      // The index's type is what the runner chose on Strava; without one, the file's own sport decides.
      let declared = entry?.type.map { DeclaredSport($0) } ?? DeclaredSport(summary.sport)
      let sport = Sport(declared)
      guard sport.isRun || allSports else {
        result.otherSports[sport.name, default: []].append(safeName)
        continue
      }
      do {
        let run = try activityRun(
          summary, file: safeName, title: entry?.name, calendar: calendar, today: today, sport: sport)
        if run.isRun { result.runs.append(run) } else { result.crossTraining.append(run) }
      } catch  where error.isImpossible {
        result.refused.append(error.description)
      } catch {
        result.unusable.append(error.description)
      }
    }
  }

  /// Where a member named `name` is inflated: a file directly in the one temporary folder (its name kept, as the
  /// reader tells formats and names errors by it), deleted by the caller once read. One member is there at a time
  /// (with, while a nested zip is read, that zip as `nested.zip`, a name no activity member has).
  func temporaryPath(_ name: String) -> String {
    let safe = name.isEmpty || name == "." || name == ".." ? "member" : name
    return temporaryFolder.appendingPathComponent(safe).path
  }

  static func message(_ error: ArchiveError) -> String { shownName(error.description, limit: 1_000) }

}

/// A private temporary file being written (mode 0600), within the archive's remaining budget.
final class TemporaryOutput {
  private var descriptor: Int32
  private let budget: Int64
  private let archive: String
  private let member: String
  private let path: String
  /// Bytes written so far.
  private(set) var written: Int64 = 0

  /// Creates `path`; `archive` and `member` name what is being inflated in messages.
  init(path: String, budget: Int64, archive: String, member: String) throws(ArchiveError) {
    self.budget = budget
    self.archive = archive
    self.member = member
    self.path = path
    descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    if descriptor < 0 && errno == EEXIST {
      // Left in the private folder by a member whose file could not be deleted: never there in normal use.
      unlink(path)
      descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    }
    guard descriptor >= 0 else { throw Self.failure(archive, path: path) }
  }

  private static func failure(_ file: String, path: String) -> ArchiveError {
    let code = errno
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    switch code {
    case ENOSPC, EDQUOT:
      return .unreadable(
        file: file,
        reason: "the disk holding the temporary folder \(folder) is full: free space (or set TMPDIR to a folder on "
          + "another disk) and run the command again")
    case EFBIG:
      return .unreadable(
        file: file,
        reason: "a temporary file in \(folder) went over the file size limit (ulimit -f): raise it and run the "
          + "command again")
    default:
      return .unreadable(
        file: file, reason: "cannot write a temporary file in \(folder): \(String(cString: strerror(code)))")
    }
  }

  deinit { if descriptor >= 0 { Foundation.close(descriptor) } }

  func write(_ bytes: UnsafeRawBufferPointer) throws(ArchiveError) {
    written += Int64(bytes.count)
    guard written <= budget else {
      throw .bomb(
        file: archive, member: member,
        detail: "the archive inflates more than \(ActivityArchiveLimits.archiveRatio) times its size")
    }
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      let result = Foundation.write(descriptor, base + offset, bytes.count - offset)
      if result < 0 {
        if errno == EINTR { continue }
        throw Self.failure(archive, path: path)
      }
      offset += result
    }
  }

  func close() throws(ArchiveError) {
    let status = Foundation.close(descriptor)
    descriptor = -1
    if status != 0 { throw Self.failure(archive, path: path) }
  }
}

/// Runs `body`, whose consumer throws ``ArchiveError`` too, with one error type.
func flattened(_ body: () throws(InflateError<ArchiveError>) -> Void) throws(ArchiveError) {
  do {
    try body()
  } catch {
    switch error {
    case .archive(let error), .consumer(let error): throw error
    }
  }
}
