import Foundation
import RunningCore
import TrainingDomain
import TrainingProgress

/// Whose health data `health import` and `health summary` work on, and in which zone: the profile named (the default
/// one when nil; none when there is no profile), its zone or the one given, and its unit.
public struct HealthRunner: Sendable {
  /// The profile's name; "" without a profile.
  public let name: String
  /// The zone of the runner's days: the one given, else the profile's, else the system's.
  public let zone: TimeZone
  /// The unit of text output: the profile's, else km.
  public let units: DistanceUnit
}

/// `health summary`'s view: the summary of the stored days as of the runner's today, in the runner's unit. Encodes
/// as `runmate.health/1`.
public struct HealthOverview: Sendable, Encodable {
  /// Today, the last 7 days, the best day, the averages and the activity level.
  public let summary: HealthSummary
  /// False when no day is stored yet (the summary is all zeros then).
  public let hasData: Bool
  /// The unit of distances in text.
  public let units: DistanceUnit

  /// The runner's today.
  public var today: CivilDate { summary.today }

  /// Each of the last 7 days with its share (0 to 1) of the most steps among them: the length of its bar.
  public var lastSevenDays: [(day: HealthDay, share: Double)] {
    let top = max(1, summary.lastSevenDays.map(\.steps).max() ?? 1)
    return summary.lastSevenDays.map { day in
      let share = day.steps / top
      return (day, share.isFinite ? min(max(share, 0), 1) : 0)
    }
  }

  /// Encodes the summary (`runmate.health/1`).
  public func encode(to encoder: any Encoder) throws { try summary.encode(to: encoder) }
}

extension TrainingStore {
  /// The runner of the health commands: the profile `name` (the default one when nil), in the zone
  /// ``runnerZone(given:profile:systemZone:)`` settles.
  ///
  /// - Throws: ``LogbookError/noSuchProfile(name:known:)`` for a name not there; `TimeZoneError` for a zone that is
  ///   not one.
  public func healthRunner(profile name: String?, zone given: String?, systemZone: String) throws -> HealthRunner {
    let found = try profile(named: name)
    let zone = try runnerZone(given: given, profile: found, systemZone: systemZone)
    return HealthRunner(
      name: found?.name ?? "", zone: zone, units: DistanceUnit.display(chosen: nil, profile: found?.units))
  }

  /// The `health summary` use case: `runner`'s stored days summarised as of `today` (their local day).
  public func healthOverview(of runner: HealthRunner, today: CivilDate) throws -> HealthOverview {
    let (summary, hasData) = try healthSummary(profile: runner.name, today: today)
    return HealthOverview(summary: summary, hasData: hasData, units: runner.units)
  }
}
