import Foundation
import RunningCore

// Races that recalibrate the paces (issue 24): the plan's VDOT is the starting point, and each race the runner logs
// since the plan's first day moves it toward the race's VDOT by at most a capped step (`paceUpdates` in base.yaml).
// A hard effort measured inside a recorded run (its fastest 5 km, say) is evidence too, but only a lower bound of
// fitness: it can raise the estimate, never lower it.

/// A race the runner ran: the evidence a VDOT is re-estimated from.
public struct RaceEvidence: Sendable, Hashable, Codable {
  /// The day it was run.
  public var date: CivilDate
  /// Its distance, kilometres.
  public var distanceKm: Double
  /// Its time, seconds.
  public var timeSeconds: Double
  /// True for a best effort measured inside a run's track (not a race): a lower bound of fitness.
  public var isEffort: Bool

  /// A race of `distanceKm` in `timeSeconds` on `date`; with `isEffort`, the fastest `distanceKm` measured inside
  /// the run of `date`.
  public init(date: CivilDate, distanceKm: Double, timeSeconds: Double, isEffort: Bool = false) {
    self.date = date
    self.distanceKm = distanceKm
    self.timeSeconds = timeSeconds
    self.isEffort = isEffort
  }

  /// Decodes an evidence stored without ``isEffort`` as a race.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    date = try container.decode(CivilDate.self, forKey: .date)
    distanceKm = try container.decode(Double.self, forKey: .distanceKm)
    timeSeconds = try container.decode(Double.self, forKey: .timeSeconds)
    isEffort = try container.decodeIfPresent(Bool.self, forKey: .isEffort) ?? false
  }

  /// "10K", "half marathon", or "7.5 km race" for a distance that is none of the race distances; for an effort,
  /// "fastest 5 km inside the run of Tue 12 Jan".
  public var name: String {
    if isEffort {
      return
        "fastest \(BestEffort(distanceMeters: distanceKm * 1000, seconds: timeSeconds, startOffsetSeconds: 0).name)"
        + " inside the run of \(date.shortLabel)"
    }
    return GoalPaces.raceName(RecentRace(distanceKm: distanceKm, timeSeconds: timeSeconds))
  }

  /// "10K race on 2026-12-12, 45:00"; "fastest 5 km inside the run of Tue 12 Jan, 24:10".
  public var summary: String {
    if isEffort { return "\(name), \(formatRaceTime(timeSeconds))" }
    return (name.hasSuffix(" race") ? name : "\(name) race") + " on \(date), \(formatRaceTime(timeSeconds))"
  }

  /// The race's VDOT (Daniels–Gilbert), nil when it is not a plausible running performance (VDOT outside 20–90).
  public var vdot: Double? {
    try? VDOT(distanceMeters: distanceKm * 1000, timeSeconds: timeSeconds).value
  }

  /// The VDOT of a race faster than any human has run (above 90), else nil: a race time to refuse at the door.
  public static func superhumanVDOT(distanceKm: Double, timeSeconds: Double) -> Double? {
    guard distanceKm > 0, timeSeconds > 0, distanceKm.isFinite, timeSeconds.isFinite else { return nil }
    let value = VDOT.vdot(distanceMeters: distanceKm * 1000, minutes: timeSeconds / 60)
    return value > VDOT.plausibleRange.upperBound ? value : nil
  }
}

/// `paceUpdates` in base.yaml: how far one race may move the paces, and the shortest race and effort that count.
public struct PaceUpdateRules: Sendable, Codable, Hashable {
  /// The most one race (or one run's effort) moves the VDOT, up or down (a race on a good or bad day is one piece of
  /// evidence).
  public var maxStepVdot: Double
  /// The shortest race that counts, km (a shorter race leans on speed more than on aerobic fitness).
  public var minRaceKm: Double
  /// The shortest best effort measured inside a run that counts, km: a fast kilometre inside an easy run says little
  /// about the runner's threshold.
  public var minEffortKm: Double

  /// The rules: `maxStepVdot` VDOT a race (or a run's effort) at most, races of `minRaceKm` or more, efforts of
  /// `minEffortKm` or more.
  public init(maxStepVdot: Double, minRaceKm: Double, minEffortKm: Double = 5) {
    self.maxStepVdot = maxStepVdot
    self.minRaceKm = minRaceKm
    self.minEffortKm = minEffortKm
  }

  /// Decodes the rules; a base.yaml written before `minEffortKm` existed takes 5 km.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    maxStepVdot = try container.decode(Double.self, forKey: .maxStepVdot)
    minRaceKm = try container.decode(Double.self, forKey: .minRaceKm)
    minEffortKm = try container.decodeIfPresent(Double.self, forKey: .minEffortKm) ?? 5
  }
}

/// The runner's current VDOT, where it comes from, and the races that moved it or were left out.
public struct VDOTEstimate: Sendable, Hashable {
  /// What one logged race did to the estimate.
  public struct Step: Sendable, Hashable {
    /// The race.
    public var race: RaceEvidence
    /// The race's own VDOT.
    public var raceVDOT: Double
    /// The estimate before it.
    public var before: Double
    /// The estimate after it (at most the cap away from `before`, unless `before` was only the level's guess).
    public var after: Double
    /// True when the cap held the estimate short of the race's VDOT.
    public var capped: Bool
  }

  /// The current VDOT.
  public var vdot: Double
  /// The plan's VDOT (its paces today).
  public var planVDOT: Double
  /// Where the plan's VDOT comes from.
  public var planSource: VDOTSource
  /// The races (and measured efforts, ``RaceEvidence/isEffort``) that moved the estimate, most recent first; empty
  /// when the plan's own source stands.
  public var steps: [Step]
  /// Races and efforts left out, most recent first, each with the reason ("under 3 km", "after today", "not faster
  /// than the estimate").
  public var ignored: [Ignored]

  /// A race that does not move the estimate, and why.
  public struct Ignored: Sendable, Hashable {
    /// The race.
    public var race: RaceEvidence
    /// Why it does not count: "under 3 km: too short to set training paces".
    public var reason: String
  }

  /// The race the current VDOT comes from, nil when it is the plan's own.
  public var latestRace: RaceEvidence? { steps.first?.race }

  /// Whether the paces moved from the plan's by a tenth of a VDOT or more.
  public var moved: Bool { abs(vdot - planVDOT) >= 0.05 }

  /// What `replan` says when a race moved the paces: "Your 10K on Sat 12 Dec says VDOT 45.3 (the plan uses 43.0):
  /// the paces move to 45.0 (at most 2 a race): `runmate paces` shows them"; nil when they did not move.
  public func replanNote(maxStep: Double) -> FieldText? {
    guard moved, let step = steps.first else { return nil }
    let tenth = { (value: Double) in String(format: "%.1f", value) }
    let evidence = step.race.isEffort ? step.race.name : "\(step.race.name) on \(step.race.date.shortLabel)"
    let cap = step.capped ? " (at most \(tenth(maxStep)) \(step.race.isEffort ? "a run" : "a race"))" : ""
    return "Your \(evidence) says VDOT \(tenth(step.raceVDOT)) (the plan uses \(tenth(planVDOT))): the paces move "
      + "to \(tenth(vdot))\(cap): `runmate paces` shows them, `runmate replan \(field: .updatePaces)` puts them in the plan"
  }

  /// Re-estimates the VDOT from the plan's (`planVDOT` from `planSource`) and the races run from `since` (the plan's
  /// first day) to `now`, oldest first: each race of `rules.minRaceKm` or more with a plausible VDOT moves the
  /// estimate toward its own VDOT by at most `rules.maxStepVdot`, faster or slower (a slow race after a break does
  /// not drag the paces down by more). A level's estimate is a guess, not evidence: the first race replaces it.
  ///
  /// Races on or before `absorbedThrough` (the last race `replan --update-paces` put into the plan's VDOT) are in
  /// `planVDOT` already: they are left out, so no race counts twice; so are efforts.
  ///
  /// `efforts` (best efforts measured inside training runs, at most one a run) are lower bounds: one of
  /// `rules.minEffortKm` or more whose VDOT is above the estimate raises it by at most `rules.maxStepVdot` (even
  /// over a level's guess: a segment read from a track is not a race); a slower one leaves it where it is.
  public init(
    planVDOT: Double, planSource: VDOTSource, races: [RaceEvidence], efforts: [RaceEvidence] = [],
    since: CivilDate, now: CivilDate, rules: PaceUpdateRules, absorbedThrough: CivilDate? = nil
  ) {
    self.planVDOT = planVDOT
    self.planSource = planSource
    var current = planVDOT
    var evidence = planSource != .levelEstimate
    var steps: [Step] = []
    var ignored: [Ignored] = []
    let evidences = races.map { race in
      var race = race
      race.isEffort = false
      return race
    }
    let measured = efforts.map { effort in
      var effort = effort
      effort.isEffort = true
      return effort
    }
    // Same day: the race before an effort (a race's segments are no more than the race).
    let ordered = (evidences + measured).sorted {
      ($0.date, $0.isEffort ? 1 : 0, $0.distanceKm) < ($1.date, $1.isEffort ? 1 : 0, $1.distanceKm)
    }
    for race in ordered {
      if race.date > now {
        ignored.append(Ignored(race: race, reason: "after today (\(now))"))
      } else if let absorbedThrough, race.date <= absorbedThrough {
        ignored.append(
          Ignored(race: race, reason: "in the plan's paces already (updated from races to \(absorbedThrough))"))
      } else if race.date < since {
        ignored.append(Ignored(race: race, reason: "before the plan's first day (\(since))"))
      } else if race.isEffort {
        guard race.distanceKm >= rules.minEffortKm - 1e-9 else {
          ignored.append(
            Ignored(
              race: race, reason: "under \(oneDecimal(rules.minEffortKm)) km: too short to set training paces"))
          continue
        }
        guard let effortVDOT = race.vdot else {
          ignored.append(Ignored(race: race, reason: "not a plausible running time (VDOT outside 20–90)"))
          continue
        }
        guard effortVDOT > current + 1e-9 else {
          ignored.append(
            Ignored(
              race: race,
              reason: "not faster than the estimate: a segment of a training run can only raise the paces"))
          continue
        }
        let after = current + min(rules.maxStepVdot, effortVDOT - current)
        steps.append(
          Step(race: race, raceVDOT: effortVDOT, before: current, after: after, capped: abs(after - effortVDOT) > 1e-9))
        current = after
        evidence = true
      } else if !(race.distanceKm >= rules.minRaceKm - 1e-9) {
        ignored.append(
          Ignored(race: race, reason: "under \(oneDecimal(rules.minRaceKm)) km: too short to set training paces"))
      } else if let raceVDOT = race.vdot {
        let step = evidence ? min(rules.maxStepVdot, max(-rules.maxStepVdot, raceVDOT - current)) : raceVDOT - current
        let after = current + step
        steps.append(
          Step(race: race, raceVDOT: raceVDOT, before: current, after: after, capped: abs(after - raceVDOT) > 1e-9))
        current = after
        evidence = true
      } else {
        ignored.append(Ignored(race: race, reason: "not a plausible running time (VDOT outside 20–90)"))
      }
    }
    vdot = current
    self.steps = steps.reversed()
    self.ignored = ignored.reversed()
  }
}

/// Riegel's prediction (Riegel, "Athletic records and human endurance", American Scientist 1981): the time for
/// `distanceKm` from `time` over `fromKm`, T2 = T1 × (D2 / D1)^1.06.
public func riegelTime(from time: Double, overKm fromKm: Double, toKm distanceKm: Double) -> Double {
  guard time > 0, fromKm > 0, distanceKm > 0 else { return .nan }
  return time * pow(distanceKm / fromKm, riegelExponent)
}

/// Riegel's fatigue exponent.
public let riegelExponent = 1.06
