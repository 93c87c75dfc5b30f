/// Why an archive, a compressed file or one of its members cannot be read. Every case names the file (its last path
/// component, or the name the caller gave it) and, for a member, the member's path inside the archive;
/// ``description`` is the one line to show a runner:
///
/// ```
/// export.zip: cannot read the zip (no central directory (truncated?))
/// export.zip: refusing activities/1.gpx: it inflates more than 200 times (a zip bomb?)
/// export.zip: refusing ../../etc/passwd: its path leaves the archive (absolute, or with '..')
/// 1.gpx.gz: refusing the gzip data: it inflates more than 200 times (a gzip bomb?)
/// 1.gpx.gz: cannot read the gzip data (the data ends inside a member (truncated?))
/// ```
public enum ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file could not be opened, read or written; `reason` is the operating system's text.
  case unreadable(file: String, reason: String)
  /// The zip archive or one of its members is damaged (`reason` names the member when it is one).
  case damagedZip(file: String, reason: String)
  /// The gzip data is damaged, cut short or fails its checksum.
  case damagedGzip(file: String, reason: String)
  /// A member passed a size or compression-ratio limit (`detail` says which) and was refused before it was
  /// inflated whole.
  case bomb(file: String, member: String, detail: String)
  /// Gzip data that passed a size or compression-ratio limit (`detail` says which), refused before it was
  /// inflated whole.
  case gzipBomb(file: String, detail: String)
  /// A member whose path is absolute or climbs out of the archive with `..`: refused, never read.
  case unsafeName(file: String, member: String)

  /// The sentence to show a runner, starting with the file name.
  public var description: String {
    switch self {
    case .unreadable(let file, let reason): "\(file): cannot read the file (\(reason))"
    case .damagedZip(let file, let reason): "\(file): cannot read the zip (\(reason))"
    case .damagedGzip(let file, let reason): "\(file): cannot read the gzip data (\(reason))"
    case .bomb(let file, let member, let detail): "\(file): refusing \(member): \(detail) (a zip bomb?)"
    case .gzipBomb(let file, let detail): "\(file): refusing the gzip data: \(detail) (a gzip bomb?)"
    case .unsafeName(let file, let member):
      "\(file): refusing \(member): its path leaves the archive (absolute, or with '..')"
    }
  }
}

/// What a consumer of inflated bytes may throw, next to the archive's own errors.
public enum InflateError<Failure: Error>: Error {
  /// The archive or member is damaged or refused.
  case archive(ArchiveError)
  /// The consumer threw.
  case consumer(Failure)
}

/// How much work one compressed member may cause: the one place a caller picks its numbers.
///
/// | What | Default |
/// |---|---|
/// | inflated bytes of one member | at most 16 GiB |
/// | compression ratio | at most 200:1, once 16 MiB are inflated |
public struct DecompressionLimits: Sendable, Hashable {
  /// The most bytes one member may inflate to.
  public var maximumBytes: Int64
  /// Inflated bytes after which the compression ratio is checked (a small file of blanks may compress 1,000:1).
  public var ratioCheckedAfter: Int64
  /// The highest compression ratio accepted past ``ratioCheckedAfter``: real data compresses 5 to 30 times, a bomb
  /// about 1,000 times.
  public var maximumRatio: Int64

  /// Limits with the given numbers (defaults: 16 GiB, 16 MiB, 200).
  public init(maximumBytes: Int64 = 16 << 30, ratioCheckedAfter: Int64 = 16 << 20, maximumRatio: Int64 = 200) {
    self.maximumBytes = maximumBytes
    self.ratioCheckedAfter = ratioCheckedAfter
    self.maximumRatio = maximumRatio
  }

  /// `16 GiB`, `512 MiB` or a plain byte count: ``maximumBytes`` in words.
  var sizeText: String {
    if maximumBytes >= 1 << 30, maximumBytes % (1 << 30) == 0 { return "\(maximumBytes >> 30) GiB" }
    if maximumBytes >= 1 << 20, maximumBytes % (1 << 20) == 0 { return "\(maximumBytes >> 20) MiB" }
    return "\(maximumBytes) bytes"
  }

  /// Checks `produced` inflated bytes made from `taken` compressed bytes; the detail of the refusal, or nil.
  func refusal(produced: Int64, taken: Int64) -> String? {
    if produced > maximumBytes { return "it inflates to more than \(sizeText)" }
    if produced > ratioCheckedAfter, produced > maximumRatio * max(taken, 1) {
      return "it inflates more than \(maximumRatio) times"
    }
    return nil
  }
}

/// `text` as quoted in a message: at most `limit` characters, control characters replaced by `?` (so that the
/// message stays one line and a name from an archive cannot move a terminal's cursor).
public func shownName(_ text: String, limit: Int = 200) -> String {
  let cut = text.count > limit ? text.prefix(limit) + "…" : text
  return String(String.UnicodeScalarView(cut.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
}
