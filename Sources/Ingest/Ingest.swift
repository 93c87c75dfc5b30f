import PlanEngine

/// What ``ingest(_:stored:slots:taken:)`` decided for a batch of candidate runs. Indexes point into the arrays
/// passed in; the store applies the decision (inserts ``added``, rewrites the stored twins of ``twins`` that
/// changed) in the same transaction it read `stored` in.
public struct IngestOutcome<Run: IngestibleRun>: Sendable {
  /// A candidate that is a new run.
  public struct Added: Sendable {
    /// Its index among the candidates.
    public var candidate: Int
    /// The run to store (merged with a later hand-logged twin of the same batch, if any).
    public var run: Run
    /// The planned workout it fulfils (nil: an extra run).
    public var match: SlotMatch?
  }

  /// Where a duplicate's twin is.
  public enum TwinOf: Sendable, Hashable {
    /// In the store: index into `stored`.
    case stored(Int)
    /// Earlier in the batch: index into ``IngestOutcome/added``.
    case added(Int)
  }

  /// A candidate that is a run already known (``areTwins(_:_:)``): not stored again.
  public struct Duplicate: Sendable {
    /// Its index among the candidates.
    public var candidate: Int
    /// The twin it is the same run as.
    public var twin: TwinOf
    /// The stored twin rewritten with the richer record (``mergedTwin(stored:candidate:)``); nil: unchanged.
    public var merged: Run?
    /// The stored twin's planned workout status after the merge (its distance may have changed); nil: unchanged
    /// or unplanned.
    public var status: MatchStatus?
  }

  /// Why a candidate was left out.
  public enum SkipReason: String, Sendable, Hashable {
    /// No distance or no time.
    case empty
  }

  /// A candidate left out.
  public struct Skipped: Sendable {
    /// Its index among the candidates.
    public var candidate: Int
    /// Why.
    public var reason: SkipReason
  }

  /// New runs, in the order given.
  public var added: [Added] = []
  /// Runs already known.
  public var duplicates: [Duplicate] = []
  /// Runs left out.
  public var skipped: [Skipped] = []
}

/// The one ingest path: decides, for runs from any source, which are new, which are the same run as one already
/// known (stored, or earlier in the batch; the richer record is kept, see ``mergedTwin(stored:candidate:)``), and
/// which planned workout each new run fulfils (``matchSlot(date:distanceKm:kind:in:taken:)``).
///
/// Pure: the caller reads `stored` and `taken` and applies the outcome inside one write transaction, so two
/// processes ingesting the same runs at once store them once and never match one workout twice.
///
/// - Parameters:
///   - candidates: the runs read from a source, in order.
///   - stored: the runs already in the logbook.
///   - slots: the planned workouts runs may match (empty: every new run is an extra run).
///   - taken: the slots already matched by stored runs.
public func ingest<Run: IngestibleRun>(
  _ candidates: [Run], stored: [Run], slots: [PlannedSlot],
  taken: Set<String>
) -> IngestOutcome<Run> {
  var outcome = IngestOutcome<Run>()
  var taken = taken
  let slotsByID = Dictionary(slots.map { ($0.workoutID, $0) }, uniquingKeysWith: { first, _ in first })
  // Stored runs by day: twins are at most a day apart (two device records around local midnight).
  var storedByDay: [Int: [Int]] = [:]
  for (index, run) in stored.enumerated() { storedByDay[run.date.dayNumber, default: []].append(index) }
  var replaced: [Int: Run] = [:]  // stored index → its merged record so far
  var addedByDay: [Int: [Int]] = [:]  // new runs of this batch by day, indexes into outcome.added
  func twinInStore(_ run: Run) -> Int? {
    let near = (-1...1).flatMap { storedByDay[run.date.dayNumber + $0] ?? [] }
    return near.filter { areTwins(replaced[$0] ?? stored[$0], run) }.min { a, b in
      closeness(replaced[a] ?? stored[a], run) < closeness(replaced[b] ?? stored[b], run)
    }
  }
  for (index, candidate) in candidates.enumerated() {
    guard candidate.distanceKm > 0, candidate.durationSeconds > 0 else {
      outcome.skipped.append(.init(candidate: index, reason: .empty))
      continue
    }
    if let twin = twinInStore(candidate) {
      let current = replaced[twin] ?? stored[twin]
      let merged = mergedTwin(stored: current, candidate: candidate)
      var status: MatchStatus?
      if let merged {
        replaced[twin] = merged
        if let id = stored[twin].workoutID, let slot = slotsByID[id] {
          status = matchStatus(distanceKm: merged.distanceKm, for: slot)
        }
      }
      outcome.duplicates.append(.init(candidate: index, twin: .stored(twin), merged: merged, status: status))
      continue
    }
    let nearAdded = (-1...1).flatMap { addedByDay[candidate.date.dayNumber + $0] ?? [] }
    if let twin = nearAdded.filter({ areTwins(outcome.added[$0].run, candidate) })
      .min(by: { closeness(outcome.added[$0].run, candidate) < closeness(outcome.added[$1].run, candidate) })
    {
      let merged = mergedTwin(stored: outcome.added[twin].run, candidate: candidate)
      if let merged {
        outcome.added[twin].run = merged
        if let match = outcome.added[twin].match {
          outcome.added[twin].match?.status = matchStatus(distanceKm: merged.distanceKm, for: match.slot)
        }
      }
      outcome.duplicates.append(.init(candidate: index, twin: .added(twin), merged: merged, status: nil))
      continue
    }
    let match = matchSlot(
      date: candidate.date, distanceKm: candidate.distanceKm, kind: candidate.kind, in: slots,
      taken: taken)
    if let match { taken.insert(match.slot.workoutID) }
    addedByDay[candidate.date.dayNumber, default: []].append(outcome.added.count)
    outcome.added.append(.init(candidate: index, run: candidate, match: match))
  }
  return outcome
}

/// How far apart two twins are (relative distance plus relative duration): the closest twin is the one merged.
func closeness(_ a: some IngestibleRun, _ b: some IngestibleRun) -> Double {
  abs(a.distanceKm - b.distanceKm) / max(a.distanceKm, b.distanceKm, 0.001)
    + abs(a.durationSeconds - b.durationSeconds) / max(a.durationSeconds, b.durationSeconds, 0.001)
}
