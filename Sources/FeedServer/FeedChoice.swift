import Foundation
import RunningCore
import Training
import TrainingDomain

// What the `feed` commands decide: which feed a change is about, and a new feed's secret. The CLI renders the
// outcome; only the token's hash reaches the store.

extension TrainingStore {
  /// `feed create`: a new feed of `saved`, made at `now`. The token is the address's secret, to be shown once; only
  /// its SHA-256 is stored.
  public func newFeed(of saved: SavedPlan, at now: Date) throws -> (feed: FeedSubscription, token: String) {
    let token = FeedTokens.generate()
    guard let hash = FeedTokens.hash(token) else { throw LogbookError.database(detail: "a malformed new token") }
    return (try createFeed(planID: saved.id, tokenHash: hash, at: now), token)
  }

  /// `feed rotate`: a new token for `feed` at `now` (the old address answers 404 from then on), to be shown once.
  public func newToken(for feed: FeedSubscription, at now: Date) throws -> String {
    let token = FeedTokens.generate()
    guard let hash = FeedTokens.hash(token) else { throw LogbookError.database(detail: "a malformed new token") }
    _ = try rotateFeed(id: feed.id, tokenHash: hash, at: now)
    return token
  }

  /// The feed a change is about: feed `id` (which must belong to the plan `planName` when both are given), or the
  /// only feed of the plan `planName` (default: the active plan).
  /// - Throws: ``SettingError`` (`--plan`) for a feed of another plan, ``RequiredSettingError`` when the plan has no
  ///   feed or more than one (`verb` says what the number is wanted for).
  public func feed(id: Int64?, ofPlan planName: String?, toChange verb: String) throws -> FeedSubscription {
    if let id {
      let feed = try self.feed(id: id)
      if let planName, try plan(named: planName).id != feed.planID {
        throw SettingError(
          option: .field(.plan), value: planName, allowed: "the plan of feed \(id) ('\(feed.planName)')")
      }
      return feed
    }
    let saved = try plan(named: planName)
    let feeds = try self.feeds(planID: saved.id)
    guard feeds.count == 1, let only = feeds.first else {
      let allowed: FieldText =
        feeds.isEmpty
        ? "plan '\(saved.name)' has no feed (runmate feed create)"
        : "plan '\(saved.name)' has \(feeds.count) feeds (\(feeds.map { String($0.id) }.joined(separator: ", "))); "
          + "name one"
      throw RequiredSettingError(option: .given("the feed number to \(verb)"), allowed: allowed)
    }
    return only
  }

  /// `feed revoke`'s feeds: feed `id`, or every feed of the plan `planName`; one of the two, not both.
  /// - Throws: ``SettingError`` (`--plan`) for both, ``RequiredSettingError`` for neither or a plan without feeds.
  public func feedsToRevoke(id: Int64?, planName: String?) throws -> [FeedSubscription] {
    if let id {
      guard planName == nil else {
        throw SettingError(
          option: .field(.plan), value: planName ?? "", allowed: "either a feed number or \(field: .plan), not both")
      }
      return [try feed(id: id)]
    }
    guard let planName else {
      throw RequiredSettingError(
        option: .field(.plan), allowed: "a feed number or a plan's name; `runmate feed list` shows them")
    }
    let feeds = try self.feeds(planID: try plan(named: planName).id)
    if feeds.isEmpty { throw RequiredSettingError(option: "a feed", allowed: "plan '\(planName)' has none") }
    return feeds
  }
}
