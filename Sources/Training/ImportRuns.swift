import Foundation
import RunningCore
import TrainingDomain

extension ActivityFiles {
  /// The `import` use case's last step: every run and cross-training session read, added in one transaction to the
  /// store `open` gives (opened only when there is something to add) and matched to the workouts of `plan` (the
  /// active plan when nil); nil when the files held nothing to add.
  public func add(to open: () throws -> any TrainingStore, plan: String?) throws -> RunsAdded? {
    guard !runs.isEmpty || !crossTraining.isEmpty else { return nil }
    return try open().addRuns(runs + crossTraining, plan: plan)
  }

  /// Why nothing was imported, when files were refused and none held a run (new or known): the one refusal, or
  /// their count; nil otherwise (an import that found nothing refused is not a failure).
  public var nothingImported: String? {
    guard runs.isEmpty, crossTraining.isEmpty, !refused.isEmpty else { return nil }
    return refused.count == 1 ? refused[0] : "nothing imported: \(refused.count) files refused (listed above)"
  }
}

/// The zone of the runner's days, by the one rule of `import`, `health import` and `health summary`: the zone
/// `given` (checked), else the profile's (checked as saved: a bad one names the profile setting), else `systemZone`.
public func runnerZone(given: String?, profile: Profile?, systemZone: String) throws(TimeZoneError) -> TimeZone {
  if let given { return try checkedTimeZone(given) }
  if let saved = profile?.timeZone { return try checkedTimeZone(saved, origin: .saved) }
  return TimeZone(identifier: systemZone) ?? TimeZone.current
}
