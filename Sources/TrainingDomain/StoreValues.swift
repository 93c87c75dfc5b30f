import Foundation
import Ingest
import PlanEngine
import RunningCore

// What the store returns besides the domain values themselves: feeds, CalDAV records, what an import did.

/// A subscription feed as `runmate feed list` shows it. The secret token is never stored, only its SHA-256.
public struct FeedSubscription: Sendable, Hashable {
  /// The feed's number (what `feed rotate` and `feed revoke` take).
  public var id: Int64
  /// The plan the feed shows (its id).
  public var planID: String
  /// The plan's name.
  public var planName: String
  /// When the feed was made, or its token last rotated.
  public var createdAt: Date
  /// When a calendar last fetched it (to the minute), or nil when none has.
  public var lastFetchAt: Date?

  /// A feed as the store lists it.
  public init(id: Int64, planID: String, planName: String, createdAt: Date, lastFetchAt: Date?) {
    self.id = id
    self.planID = planID
    self.planName = planName
    self.createdAt = createdAt
    self.lastFetchAt = lastFetchAt
  }
}

/// What a presented feed token opens, read in one go with the database's change counter.
public struct FeedAccess: Sendable, Hashable {
  /// The feed's number.
  public var feedID: Int64
  /// The plan the feed shows.
  public var planID: String
  /// The SHA-256 stored for the feed (compared again, in constant time, by the caller).
  public var tokenHash: [UInt8]
  /// When a calendar last fetched it, or nil.
  public var lastFetchAt: Date?
  /// The change counter of the plans, schedules, exports, profiles and completions: it grows with every change to
  /// them, so a feed rendered at one value is current while the counter keeps it.
  public var dataVersion: Int64
  /// When that data last changed (the feed's Last-Modified and the DTSTAMP of events new since the last export).
  public var changedAt: Date

  /// What a token opens, as the store read it.
  public init(
    feedID: Int64, planID: String, tokenHash: [UInt8], lastFetchAt: Date?, dataVersion: Int64, changedAt: Date
  ) {
    self.feedID = feedID
    self.planID = planID
    self.tokenHash = tokenHash
    self.lastFetchAt = lastFetchAt
    self.dataVersion = dataVersion
    self.changedAt = changedAt
  }
}

/// One event a CalDAV sync left in a calendar collection: where, under which ETag, and what was sent.
public struct CalDAVRecord: Sendable, Hashable {
  /// The event's UID.
  public var uid: String
  /// The resource's path on the server.
  public var href: String
  /// Its ETag after the write, nil when the server gave none.
  public var etag: String?
  /// The SHA-256 of the body sent (32 bytes).
  public var bodyHash: [UInt8]
  /// The calendar object sent (a VCALENDAR with this one event): the next sync's SEQUENCE is counted from it.
  public var body: String
  /// `2027-01-05 W1 Easy · 5 km`, for the lines a later sync prints.
  public var label: String

  /// A record.
  public init(uid: String, href: String, etag: String?, bodyHash: [UInt8], body: String, label: String) {
    self.uid = uid
    self.href = href
    self.etag = etag
    self.bodyHash = bodyHash
    self.body = body
    self.label = label
  }
}

/// What ``LogbookDatabase/ingestRuns(_:planID:slots:)`` did, with the runs as stored.
public struct IngestedRuns: Sendable, Hashable {
  /// A new run, stored.
  public struct New: Sendable, Hashable {
    /// The run with its id, plan, matched workout and status.
    public var run: Completion
    /// The planned workout it fulfils (nil: an extra run).
    public var match: SlotMatch?

    /// A new run as stored.
    public init(run: Completion, match: SlotMatch?) {
      self.run = run
      self.match = match
    }
  }

  /// A candidate that was the same run as one already known.
  public struct Twin: Sendable, Hashable {
    /// The candidate, as given.
    public var candidate: Completion
    /// Its twin as stored now (after the merge, when there was one).
    public var stored: Completion
    /// True when the twin was already in the logbook (false: earlier in the same batch).
    public var wasStored: Bool
    /// True when the stored twin was rewritten: the device record kept, with the runner's note and effort.
    public var merged: Bool

    /// A twin as the store found it.
    public init(candidate: Completion, stored: Completion, wasStored: Bool, merged: Bool) {
      self.candidate = candidate
      self.stored = stored
      self.wasStored = wasStored
      self.merged = merged
    }
  }

  /// A candidate left out, and why.
  public struct Skipped: Sendable, Hashable {
    /// The candidate, as given.
    public var candidate: Completion
    /// Why.
    public var reason: IngestOutcome<Completion>.SkipReason

    /// A candidate left out.
    public init(candidate: Completion, reason: IngestOutcome<Completion>.SkipReason) {
      self.candidate = candidate
      self.reason = reason
    }
  }

  /// New runs, in the order given.
  public var added: [New] = []
  /// Runs already known.
  public var twins: [Twin] = []
  /// Runs left out.
  public var skipped: [Skipped] = []
  /// Every completion stored before, by date, as read in the same transaction.
  public var before: [Completion] = []

  /// Creates an empty result.
  public init() {}
}

/// A test hook for fault injection: called inside an import's write transaction
/// (``LogbookDatabase/ingestRuns(_:planID:slots:)``,
/// ``LogbookDatabase/saveHealth(days:measures:runs:profile:planID:slots:)``) after each row it inserts or updates,
/// with the number of rows written so far in that transaction. The CLI installs one that kills the process
/// (`RUNMATE_FAULT_KILL_AFTER_ROWS`), so tests can prove that a kill inside the transaction keeps nothing of it.
public typealias RowHook = @Sendable (_ rowsWritten: Int) -> Void

/// What a health import changed.
public struct HealthImportResult: Sendable, Hashable {
  /// Days not in the database before.
  public var newDays: Int
  /// Days whose totals changed (a newer export of the same day).
  public var updatedDays: Int
  /// New measurements.
  public var newMeasures: Int
  /// Running workouts added to the logbook.
  public var newRuns: Int
  /// Running workouts already in the logbook (an earlier import, or a GPX/TCX file of the same run).
  public var skippedRuns = 0
  /// The best step count stored before this import (0 when none), read in the same transaction.
  public var previousBestSteps = 0.0
  /// The running workouts: new (matched or not), twins of runs already logged, skipped.
  public var runs = IngestedRuns()

  /// What a health import changed, counted by the store.
  public init(newDays: Int, updatedDays: Int, newMeasures: Int, newRuns: Int) {
    self.newDays = newDays
    self.updatedDays = updatedDays
    self.newMeasures = newMeasures
    self.newRuns = newRuns
  }
}
