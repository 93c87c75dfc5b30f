import Digest
import Foundation
import ICalendar
import Logbook
import Training
import TrainingDomain

/// A plan's feed as served: the calendar text, its ETag and Last-Modified, for one value of the change counter.
public struct RenderedFeed: Sendable {
  /// The `.ics` text (UTF-8).
  public var body: [UInt8]
  /// The strong ETag, quoted: the first 128 bits of the body's SHA-256 in hex.
  public var etag: String
  /// When the plan or its log last changed, as an HTTP date (RFC 9110 §5.6.7).
  public var lastModified: String
  /// The change counter the feed was rendered at.
  public var dataVersion: Int64
}

/// How often calendar apps are asked to fetch a feed again (REFRESH-INTERVAL, X-PUBLISHED-TTL): one hour.
public let feedRefreshSeconds = 3600

/// The feed of the plan `planID`: the calendar `runmate export --plan NAME` would write now (the same
/// `planCalendar`, against the last export kept in the database, so the same UIDs, SEQUENCE and CANCELLED
/// events), with the refresh hints, and with `changedAt` (when the data last changed) as the DTSTAMP of the events
/// changed since that export, so that the same data always gives the same bytes.
public func renderFeed(
  planID: String, db: any TrainingStore, dataVersion: Int64, changedAt: Date, systemZone: String
) throws -> RenderedFeed {
  guard let saved = try db.plans().first(where: { $0.id == planID }) else {
    throw LogbookError.noSuchPlan(name: planID, known: [])
  }
  let profile = try db.profile(named: nil)
  let settings = try settingsInEffect(of: saved, in: db, profile: profile, systemZone: systemZone).settings
  let schedule = try settings.schedule(saved.plan)
  let previous = try lastExport(of: saved.plan, in: db)?.calendar
  let stamp = Date(timeIntervalSince1970: changedAt.timeIntervalSince1970.rounded(.down))
  var calendar = try planCalendar(
    saved.plan, schedule: schedule, settings: settings, previous: previous,
    comments: try db.coachComments(of: saved.plan), now: stamp,
    targets: stepTargets(for: profile)
  ).calendar
  calendar.refreshIntervalSeconds = feedRefreshSeconds
  calendar.publishedTTLSeconds = feedRefreshSeconds
  let body = try calendar.serializedUTF8()
  let etag = "\"" + Hex.encode(SHA256.digest(body).prefix(16)) + "\""
  return RenderedFeed(
    body: body, etag: etag, lastModified: httpDate(stamp), dataVersion: dataVersion)
}

/// `date` as an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110 §5.6.7).
func httpDate(_ date: Date) -> String {
  let formatter = DateFormatter()
  formatter.locale = Locale(identifier: "en_US_POSIX")
  formatter.timeZone = TimeZone(identifier: "GMT")
  formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
  return formatter.string(from: date)
}

/// The rendered feeds, one per plan, each kept until the change counter moves past the value it was rendered at.
final class FeedCache: @unchecked Sendable {
  private let lock = NSLock()
  private var feeds: [String: RenderedFeed] = [:]
  private let render: @Sendable (String, Int64, Date) throws -> RenderedFeed

  /// A cache that renders with `render(planID, dataVersion, changedAt)` on a miss.
  init(render: @escaping @Sendable (String, Int64, Date) throws -> RenderedFeed) {
    self.render = render
  }

  /// The feed of `planID` at `dataVersion`: the cached one when it was rendered at that value, else a new one
  /// (`rendered` says which).
  func feed(planID: String, dataVersion: Int64, changedAt: Date) throws -> (feed: RenderedFeed, rendered: Bool) {
    if let cached = lock.withLock({ feeds[planID] }), cached.dataVersion == dataVersion { return (cached, false) }
    let fresh = try render(planID, dataVersion, changedAt)
    lock.withLock {
      // A racing render for a newer value wins; plans gone from the database drop out as their feeds change.
      if let current = feeds[planID], current.dataVersion > fresh.dataVersion { return }
      feeds[planID] = fresh
    }
    return (fresh, true)
  }

  /// How many renders the cache holds (for tests and logs).
  var count: Int { lock.withLock { feeds.count } }
}
