import Foundation
import Ingest
import PlanEngine

/// A logged run is what the ingest rules reason about: the dedupe and matching rules live in the Ingest module
/// (``Ingest/ingest(_:stored:slots:taken:)``), the store applies them in its write transaction
/// (``LogbookDatabase/ingestRuns(_:planID:slots:)``).
extension Completion: IngestibleRun {
  /// True for a run logged by hand (`runmate log`); GPX, TCX and Health runs are device records.
  public var isHandLogged: Bool { source == .manual }

  /// True when the run matched a planned workout but was much shorter than planned: started, not done.
  public var isPartial: Bool { status == .partial }
}
