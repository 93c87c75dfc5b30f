import CalDAV
import Foundation

/// One calendar of an account, as `runmate sync --list-calendars` shows it.
public struct ListedCalendar: Sendable, Hashable {
  /// The name a runner picks it by (`--calendar`).
  public var name: String
  /// Its collection URL.
  public var url: String
  /// False for a tasks-only list (it cannot hold the plan's events).
  public var takesEvents: Bool
}

/// Where a sync sends the plan: the account with its calendar chosen, or, asked for, the account's calendars.
public enum SyncTarget: Sendable {
  /// The account and the calendar collection to sync to (for ``PlanSyncRequest``).
  case account(CalDAVAccount)
  /// The account's calendars, in the server's order.
  case calendars([ListedCalendar])
}

/// The sync's target from what the runner gave: the URL as it is (a calendar collection), or the calendar
/// `calendar` names among the account's (discovered from the URL, RFC 6764 and RFC 4791 §6.2.1), or with `list` the
/// account's calendars. `requestDeadline` bounds each request (nil: ``CalDAVAccount/defaultRequestDeadline``).
///
/// - Throws: ``CalDAVError`` for a URL, account or calendar that does not do.
public func syncTarget(
  url: String, user: String, password: String, calendar: String?, list: Bool, requestDeadline: Duration?
) async throws(CalDAVError) -> SyncTarget {
  var account = try CalDAVAccount(
    url: url, user: user, password: password,
    requestDeadline: requestDeadline ?? CalDAVAccount.defaultRequestDeadline)
  guard list || calendar != nil else { return .account(account) }
  let discovery = try await discoverCalendars(account)
  if list {
    let all: [DiscoveredCalendar]
    switch discovery {
    case .calendar(let one): all = [one]
    case .home(_, let calendars): all = calendars
    }
    return .calendars(
      all.map { ListedCalendar(name: $0.name, url: $0.url.absoluteString, takesEvents: $0.takesEvents) })
  }
  if let calendar { account.collection = try discovery.calendar(named: calendar).url }
  return .account(account)
}
