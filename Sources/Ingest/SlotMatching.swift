import Foundation
import PlanEngine
import RunningCore

/// The planned workout a run fulfilled, and how.
public struct SlotMatch: Sendable, Hashable, Codable {
  /// How the run's day relates to the workout's.
  public enum Day: String, Sendable, Hashable, Codable {
    /// On its day.
    case sameDay = "same_day"
    /// A day or more after a workout not run yet (moved to a rest day of the same week).
    case late
  }

  /// The slot.
  public var slot: PlannedSlot
  /// Done, or partial (short of the plan: see ``Compliance``).
  public var status: MatchStatus
  /// How the days relate.
  public var day: Day

  /// Creates a match.
  public init(slot: PlannedSlot, status: MatchStatus, day: Day) {
    self.slot = slot
    self.status = status
    self.day = day
  }
}

/// Done, or partial when `distanceKm` is short of the slot's planned distance (under ``Compliance/doneFrom``).
public func matchStatus(distanceKm: Double, for slot: PlannedSlot) -> MatchStatus {
  Compliance(done: distanceKm, planned: slot.distanceKm).matchStatus
}

/// True when a run of `kind` (nil: the source named none) and `distanceKm` can fulfil `slot`, on the slot's own
/// day or (`sameDay` false) on a later day of its week. A run never fulfils a workout of another kind unless it
/// covers it (at least ``Compliance/doneFrom`` of its distance), and a run the runner called easy never fulfils a
/// quality session (tempo, intervals, hills, fartlek, race), however long. A run with no kind can be any easy-paced
/// workout, and a quality session on its own day; a quality session of an earlier day only when it covers it.
public func canFulfil(kind: WorkoutKind?, distanceKm: Double, _ slot: PlannedSlot, sameDay: Bool) -> Bool {
  let covers = Compliance(done: distanceKm, planned: slot.distanceKm) == .done
  guard let kind else { return !slot.kind.isQuality || sameDay || covers }
  if kind == slot.kind { return true }
  if slot.kind.isQuality && !kind.isQuality { return false }
  return covers
}

/// Finds the planned workout a run fulfils among `slots` not in `taken` (a slot is never matched twice). One rule
/// for every source (`log`, `import`, `health import`):
///
/// 1. The same day first: a workout of the run's day it can fulfil (``canFulfil(kind:distanceKm:_:sameDay:)``),
///    the closest in kind and distance (a different kind costs 0.5, the distance |ln(run / planned)|).
/// 2. Else, on a day with no run planned (a rest day), a workout not run yet earlier in the same plan week, at most
///    ``IngestRules/movedDayLimit`` days before (a runner who moves Tuesday's run to Thursday), that the run can
///    fulfil; the closest day first. Never the race.
/// 3. Else nothing: an extra run. Never a later day's workout: a run on Thursday does not tick off Friday's, which
///    stays to be run on Friday.
///
/// The status is ``MatchStatus/partial`` when the run is short of the plan (``Compliance``).
public func matchSlot(
  date: CivilDate, distanceKm: Double, kind: WorkoutKind?, in slots: [PlannedSlot],
  taken: Set<String>
) -> SlotMatch? {
  func fit(_ slot: PlannedSlot) -> Double {
    let kindPenalty = kind.map { $0 == slot.kind ? 0.0 : 0.5 } ?? 0.0
    let ratio = distanceKm / max(slot.distanceKm, 0.1)
    return kindPenalty + (ratio > 0 ? abs(ratio.logarithm) : 10)
  }
  let open = slots.filter { !taken.contains($0.workoutID) }
  let sameDay = open.filter { $0.date == date && canFulfil(kind: kind, distanceKm: distanceKm, $0, sameDay: true) }
  if let best = sameDay.min(by: { (fit($0), $0.workoutID) < (fit($1), $1.workoutID) }) {
    return SlotMatch(slot: best, status: matchStatus(distanceKm: distanceKm, for: best), day: .sameDay)
  }
  guard !slots.contains(where: { $0.date == date }) else { return nil }
  let moved = open.filter { slot in
    let offset = slot.date.days(to: date)
    return slot.kind != .race && offset >= 1 && offset <= IngestRules.movedDayLimit && sameWeek(slot, date)
      && canFulfil(kind: kind, distanceKm: distanceKm, slot, sameDay: false)
  }
  guard
    let best = moved.min(by: { a, b in
      (a.date.days(to: date), fit(a), a.workoutID) < (b.date.days(to: date), fit(b), b.workoutID)
    })
  else { return nil }
  return SlotMatch(slot: best, status: matchStatus(distanceKm: distanceKm, for: best), day: .late)
}

extension WorkoutKind {
  /// A quality session (or the race): a run at an effort an easy run does not stand in for.
  public var isQuality: Bool {
    switch self {
    case .tempo, .intervals, .hills, .fartlek, .race: true
    case .easy, .recovery, .long, .mediumLong, .strides, .crossTraining, .strength: false
    }
  }
}

/// True when `date` falls in `slot`'s week: the plan week when known, else the calendar week (Monday to Sunday).
func sameWeek(_ slot: PlannedSlot, _ date: CivilDate) -> Bool {
  let start = slot.weekStart ?? slot.date.adding(days: -slot.date.weekday.index)
  return start <= date && date < start.adding(days: 7)
}

extension Double {
  /// The natural logarithm.
  var logarithm: Double { Foundation.log(self) }
}

/// The workout each of `runs` holds (nil: an extra run), decided one way whatever order the runs were stored in, so
/// a logbook and a coach's server holding the same runs match them alike: day by day, a day's runs by start (runs
/// with one first), then the longest first, then by `identity`, each run takes the best workout still open (``matchSlot(date:distanceKm:kind:in:taken:)``).
/// A run only ever holds a workout of its own week, so `runs` must hold every run of the weeks concerned; the
/// answer is in the order of `runs`.
public func canonicalMatches<Run: IngestibleRun>(
  _ runs: [Run], identity: (Run) -> String, slots: [PlannedSlot]
) -> [SlotMatch?] {
  let order = runs.indices.sorted { a, b in
    let (x, y) = (runs[a], runs[b])
    if x.date != y.date { return x.date < y.date }
    switch (x.startedAt, y.startedAt) {
    case (let a?, let b?) where a != b: return a < b
    case (.some, nil): return true
    case (nil, .some): return false
    default: break
    }
    if x.distanceKm != y.distanceKm { return x.distanceKm > y.distanceKm }
    return identity(x) < identity(y)
  }
  var taken = Set<String>()
  var matches = [SlotMatch?](repeating: nil, count: runs.count)
  for index in order {
    let run = runs[index]
    guard
      let match = matchSlot(date: run.date, distanceKm: run.distanceKm, kind: run.kind, in: slots, taken: taken)
    else { continue }
    taken.insert(match.slot.workoutID)
    matches[index] = match
  }
  return matches
}

/// The first day of the plan week holding `day` (the calendar week's Monday outside the plan's weeks): the unit
/// runs are matched in.
public func matchingWeek(of day: CivilDate, slots: [PlannedSlot]) -> CivilDate {
  slots.lazy.compactMap(\.weekStart).first { $0 <= day && day < $0.adding(days: 7) }
    ?? day.adding(days: -day.weekday.index)
}
