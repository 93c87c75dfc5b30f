import Foundation
import PlanEngine

/// True when two records are the same run:
///
/// - two device records (GPX, TCX, Health: each with a start time) start within ``IngestRules/sameStartSeconds``
///   of each other and their distances differ by at most ``IngestRules/deviceDistanceShare`` (a file imported
///   again, the GPX and the TCX of one activity, the watch's Health workout and its GPX);
/// - a hand-logged run and a device record fall on the same local day, with distances within
///   ``IngestRules/handDistanceShare`` and durations within ``IngestRules/handDurationShare`` (the run typed in
///   after the run, then synced from the watch);
/// - two hand-logged runs are never twins: the runner typed both (`log --undo` removes a slip).
public func areTwins(_ a: some IngestibleRun, _ b: some IngestibleRun) -> Bool {
  switch (a.isHandLogged, b.isHandLogged) {
  case (true, true):
    return false
  case (false, false):
    guard let first = a.startedAt, let second = b.startedAt else { return false }
    return abs(first.timeIntervalSince(second)) <= IngestRules.sameStartSeconds
      && within(a.distanceKm, b.distanceKm, share: IngestRules.deviceDistanceShare)
  default:
    return a.date == b.date
      && within(a.distanceKm, b.distanceKm, share: IngestRules.handDistanceShare)
      && within(a.durationSeconds, b.durationSeconds, share: IngestRules.handDurationShare)
  }
}

/// True when two records are one record kept twice (a logbook copied to a server, then pushed): the same day, both
/// hand-logged or both from a device with starts a second apart at most, distances within
/// ``IngestRules/sameRecordMeters`` and durations within ``IngestRules/sameRecordSeconds``. Unlike ``areTwins(_:_:)`` it holds for two hand-logged runs too: it is for a
/// run that arrives with an identity the store does not know (a copy made before runs had identities, another
/// device's), never for two runs typed in on one device, which keep their identities apart.
public func areSameRecord(_ a: some IngestibleRun, _ b: some IngestibleRun) -> Bool {
  guard a.date == b.date, a.isHandLogged == b.isHandLogged else { return false }
  switch (a.startedAt, b.startedAt) {
  case (nil, nil): break
  case (let first?, let second?) where abs(first.timeIntervalSince(second)) <= 1: break
  default: return false
  }
  return abs(a.distanceKm - b.distanceKm) * 1000 <= IngestRules.sameRecordMeters
    && abs(a.durationSeconds - b.durationSeconds) <= IngestRules.sameRecordSeconds
}

/// True when `a` and `b` differ by at most `share` of the larger.
func within(_ a: Double, _ b: Double, share: Double) -> Bool {
  abs(a - b) <= share * max(abs(a), abs(b))
}

/// One record of two twins: the device record (start time, heart rate, elevation, track) with what only the runner
/// knows taken from the hand-logged one (note, effort, kind; heart rate when the device had none).
///
/// - Returns: the merged record, and whether it differs from `stored` (nil: keep `stored` as it is).
public func mergedTwin<Run: IngestibleRun>(stored: Run, candidate: Run) -> Run? {
  if !stored.isHandLogged && !candidate.isHandLogged { return nil }  // the same device run again
  let (device, hand) = stored.isHandLogged ? (candidate, stored) : (stored, candidate)
  var merged = device
  merged.note = combinedNotes(device.note, hand.note)
  merged.rpe = hand.rpe ?? device.rpe
  merged.kind = hand.kind ?? device.kind
  merged.averageHeartRate = device.averageHeartRate ?? hand.averageHeartRate
  if !stored.isHandLogged, merged.note == stored.note, merged.rpe == stored.rpe, merged.kind == stored.kind,
    merged.averageHeartRate == stored.averageHeartRate
  {
    return nil  // the hand-logged twin adds nothing the stored device record lacks
  }
  return merged
}

/// Both notes when they differ, else the one there is.
func combinedNotes(_ first: String?, _ second: String?) -> String? {
  guard let first, !first.isEmpty else { return second }
  guard let second, !second.isEmpty, second != first, !first.contains(second) else { return first }
  return first + " · " + second
}
