import Foundation

/// The temporary files and folders runmate writes beside an output or in `$TMPDIR`, named `PREFIX PID-XXXXXX`
/// (`mkstemp` / `mkdtemp` after the writer's process id), and their removal by a later run once a killed run left
/// them.
public enum LeftoverTemporaries {
  /// The `mkstemp` / `mkdtemp` template for a temporary of this process in `directory`: `DIR/PREFIXPID-XXXXXX`.
  public static func template(in directory: String, prefix: String) -> String {
    "\(directory)/\(prefix)\(getpid())-XXXXXX"
  }

  /// Removes the temporaries killed runs left in `directory`: entries named exactly `prefix` + `PID-XXXXXX` (or
  /// `prefix` + `XXXXXX`, from before the process id was in the name; `X` a letter or digit), folders (with what
  /// they hold) when `folders`, else regular files, owned by this user, whose process is gone or older than `age`
  /// seconds. Anything else (another name, a link, another user's) is left alone.
  public static func remove(
    in directory: String, prefix: String, folders: Bool, olderThan age: TimeInterval, now: Date = Date()
  ) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
    for name in names where name.hasPrefix(prefix) {
      let rest = name.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
      guard rest.count <= 2, let suffix = rest.last, suffix.utf8.count == 6,
        suffix.utf8.allSatisfy({ isDigit($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
      else { continue }
      var writer: pid_t?
      if rest.count == 2 {
        guard !rest[0].isEmpty, rest[0].utf8.allSatisfy(isDigit), let pid = pid_t(rest[0]), pid > 0 else { continue }
        writer = pid
      }
      let path = directory + "/" + name
      var status = stat()
      guard lstat(path, &status) == 0, status.st_mode & S_IFMT == (folders ? S_IFDIR : S_IFREG),
        status.st_uid == geteuid()
      else { continue }
      let gone = writer.map { $0 != getpid() && kill($0, 0) != 0 && errno == ESRCH } ?? false
      guard gone || now.timeIntervalSince1970 - TimeInterval(status.st_mtim.tv_sec) > age else { continue }
      if folders { try? FileManager.default.removeItem(atPath: path) } else { unlink(path) }
    }
  }

  private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
