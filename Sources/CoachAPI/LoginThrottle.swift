import Foundation

/// Failed logins per key (an account's login, a peer's address) in a sliding minute: past `limit` failures within
/// `window` (a try in progress counts as one), further attempts are refused until the oldest failure leaves the
/// window. Kept in memory: each server process counts its own (behind N processes an attacker gets N × `limit` tries a minute at most).
actor LoginThrottle {
  private let limit: Int
  private let window: TimeInterval
  private var failures: [String: [Date]] = [:]

  init(limit: Int, window: TimeInterval = 60) {
    self.limit = limit
    self.window = window
  }

  /// Takes one try for each of `keys` in one step: nil when all may try now, the try counted as a failure (the
  /// caller ``forgive(_:at:)``s it when the password matches); else the seconds until one of them may try again (at
  /// least 1), nothing counted. Checked and counted at once, so a burst of parallel guesses meets the limit: of 30 at
  /// once for one account, `limit` reach the password check.
  func attempt(_ keys: [String], at now: Date) -> Int? {
    var wait: TimeInterval = 0
    for key in keys {
      let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < window }
      failures[key] = recent.isEmpty ? nil : recent
      if recent.count >= limit, let oldest = recent.first {
        wait = max(wait, window - now.timeIntervalSince(oldest))
      }
    }
    if wait > 0 { return max(1, Int(wait.rounded(.up))) }
    for key in keys { failures[key, default: []].append(now) }
    if failures.count > 1000 {
      failures = failures.filter { _, times in times.contains { now.timeIntervalSince($0) < window } }
    }
    return nil
  }

  /// Takes back the try ``attempt(_:at:)`` counted at `now` for each of `keys` (the login succeeded).
  func forgive(_ keys: [String], at now: Date) {
    for key in keys {
      guard var times = failures[key], let index = times.lastIndex(of: now) else { continue }
      times.remove(at: index)
      failures[key] = times.isEmpty ? nil : times
    }
  }
}
