import Foundation

/// Failed logins per key (an account's login, a peer's address) in a sliding minute: past `limit` failures within
/// `window`, further attempts are refused until the oldest failure leaves the window. Kept in memory: each server
/// process counts its own (behind N processes an attacker gets N × `limit` tries a minute at most).
actor LoginThrottle {
  private let limit: Int
  private let window: TimeInterval
  private var failures: [String: [Date]] = [:]

  init(limit: Int, window: TimeInterval = 60) {
    self.limit = limit
    self.window = window
  }

  /// Seconds until one of `keys` may try again (at least 1), or nil when all may try now.
  func retryAfter(_ keys: [String], at now: Date) -> Int? {
    var wait: TimeInterval = 0
    for key in keys {
      let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < window }
      failures[key] = recent.isEmpty ? nil : recent
      if recent.count >= limit, let oldest = recent.first {
        wait = max(wait, window - now.timeIntervalSince(oldest))
      }
    }
    return wait > 0 ? max(1, Int(wait.rounded(.up))) : nil
  }

  /// Counts a failure for each of `keys`; every 1,000 keys, forgets those whose failures have left the window.
  func fail(_ keys: [String], at now: Date) {
    for key in keys { failures[key, default: []].append(now) }
    if failures.count > 1000 {
      failures = failures.filter { _, times in times.contains { now.timeIntervalSince($0) < window } }
    }
  }
}
