import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads one FIT activity file and summarizes its sessions (see ``readActivities(at:)``, which calls this for a
/// `.fit` file): streaming, in 256 KiB chunks, every byte once, the header and file CRCs checked.
/// - Parameter url: A file URL.
/// - Returns: One summary per session (a multisport file gives one per leg), in file order; never empty.
/// - Throws: ``ActivityError``: ``ActivityError/fit(file:offset:detail:)`` naming the byte for a wrong header or
///   file CRC, a truncated file, a header declaring more data than the file holds, a data message of an undefined
///   local type, a field whose size is not a multiple of its base type's, or a file that is not an activity;
///   ``ActivityError/unreadable(file:reason:)``, ``ActivityError/empty(file:)`` or
///   ``ActivityError/noTimedPoints(file:)`` otherwise.
public func readFITActivities(at url: URL) throws(ActivityError) -> [ActivitySummary] {
  try readFITActivities(at: url, limits: .standard)
}

/// Reads FIT bytes held in memory (an archive member, tests), exactly as ``readFITActivities(at:)`` reads a file.
/// - Parameters:
///   - data: The file's bytes.
///   - name: The name to give the data in error messages.
/// - Returns: The summaries, in order; never empty.
/// - Throws: ``ActivityError``, as ``readFITActivities(at:)`` does.
public func readFITActivities(data: Data, name: String) throws(ActivityError) -> [ActivitySummary] {
  var decoder = FITDecoder(input: FITInput(data: data), file: name, limits: .standard)
  return try decoder.decode()
}

/// Whether `data` starts with a FIT file header (".FIT" at byte 8).
public func isFITData(_ data: Data) -> Bool {
  data.count >= 12 && data.dropFirst(8).prefix(4).elementsEqual(".FIT".utf8)
}

/// Reads a FIT file with other limits (tests).
func readFITActivities(at url: URL, limits: ActivityLimits) throws(ActivityError) -> [ActivitySummary] {
  let file = url.lastPathComponent
  guard url.isFileURL else { throw .unreadable(file: file, reason: "not a file URL") }
  let fd = open(url.path, O_RDONLY)
  guard fd >= 0 else { throw .unreadable(file: file, reason: String(cString: strerror(errno))) }
  defer { close(fd) }
  var status = stat()
  if fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
    throw .unreadable(file: file, reason: String(cString: strerror(EISDIR)))
  }
  var decoder = FITDecoder(input: FITInput(descriptor: fd), file: file, limits: limits)
  return try decoder.decode()
}
