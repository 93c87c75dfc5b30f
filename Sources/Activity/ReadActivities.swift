import Foundation

/// Reads one GPX 1.1 or TCX file and summarizes the activities in it, streaming: the file goes through the
/// XMLStream tokenizer in 1 MiB chunks and each track point is folded into running totals, so memory does not
/// grow with the file's size.
///
/// ```swift
/// let runs = try readActivities(at: URL(fileURLWithPath: "route_2021-01-03_5.53pm.gpx"))
/// print(runs[0].distanceMeters, runs[0].movingSeconds)
/// ```
///
/// A GPX file gives one summary (all its tracks and segments; points more than 12 hours apart start another); a
/// TCX file gives one per `<Activity>` (each leg of a `<MultiSportSession>` too) that has timed trackpoints or a lap
/// with a start time. A `<!DOCTYPE>` with an internal subset (entity
/// declarations: billion laughs, external entities) is refused, no entity is ever expanded and no external file
/// or URL is read.
/// - Parameter url: A file URL.
/// - Returns: The summaries, in file order; never empty.
/// Every value is checked where it is parsed against its physical range (dates 1900–2200, heart rate
/// 20–250 bpm, elevation −1,000–10,000 m, TCX distances 0–1,000 km), every activity against what a body
/// can do (at most 1,000 km, 24 hours, 1:30 min/km on average and 2:24 min/km over any 30 s for a run), and a file
/// may hold at most 2,000,000 track points; GPS jumps (more than 100 m at more than 15 m/s) are dropped and counted in
/// ``ActivitySummary/droppedPoints``. The ranges are chosen in one place, `ActivityLimits`.
/// - Throws: ``ActivityError`` when the file cannot be read, is empty, is not GPX or TCX, is refused
///   (DTD, encoding), is malformed or truncated (naming the line), holds an unusable or out-of-range value,
///   describes an implausible activity, holds too many points, or has no track point with a time.
public func readActivities(at url: URL) throws(ActivityError) -> [ActivitySummary] {
  let file = url.lastPathComponent
  guard url.isFileURL else { throw .unreadable(file: file, reason: "not a file URL") }
  if url.pathExtension.lowercased() == "fit" { return try readFITActivities(at: url) }
  var descriptor: Int32
  repeat {
    descriptor = open(url.path, O_RDONLY)
  } while descriptor < 0 && errno == EINTR
  guard descriptor >= 0 else { throw .unreadable(file: file, reason: String(cString: strerror(errno))) }
  defer { close(descriptor) }
  return try ActivityDocument.read(.descriptor(descriptor), file: file)
}

/// Reads GPX or TCX bytes held in memory (tests, standard input), exactly as ``readActivities(at:)``
/// reads a file.
/// - Parameters:
///   - data: The file's bytes.
///   - name: The name to give the data in error messages, e.g. `"stdin"` or the original file name.
/// - Returns: The summaries, in order; never empty.
/// - Throws: ``ActivityError``, as ``readActivities(at:)`` does.
public func readActivities(data: Data, name: String) throws(ActivityError) -> [ActivitySummary] {
  if isFITData(data) { return try readFITActivities(data: data, name: name) }
  return try ActivityDocument.read(.bytes(data), file: name)
}

/// Reads bytes as ``readActivities(data:name:)`` does, with other limits (tests use a small point limit).
func readActivities(data: Data, name: String, limits: ActivityLimits) throws(ActivityError) -> [ActivitySummary] {
  try ActivityDocument.read(.bytes(data), file: name, limits: limits)
}
