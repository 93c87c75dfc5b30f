/// The unit distances are shown in, and the one formatter of distances and paces for text. JSON output is always in
/// kilometres.
///
/// Every table, line and title writes a distance through ``format(_:)`` (or ``number(_:)`` for a bare number under a
/// unit header) and a pace through ``pace(secondsPerKilometer:)``: one rounding rule, so two commands showing the
/// same run agree to the tenth.
public enum DistanceUnit: String, Sendable, Hashable, Codable, CaseIterable {
  case km, mi

  /// Kilometres per unit (the one place the mile is written).
  public var kilometers: Double { self == .km ? 1 : Distance.kilometersPerMile }

  /// `12.5 km`, `7.8 mi`: one decimal at most, none when whole.
  public func format(_ km: Double) -> String {
    "\(number(km)) \(rawValue)"
  }

  /// `12.5`, `7.8`: a distance in kilometres as a number in this unit (one decimal at most), for a column whose
  /// header names the unit.
  public func number(_ km: Double) -> String {
    oneDecimal(km / kilometers)
  }

  /// `12.5 km`, `7.8 mi`.
  public func format(_ distance: Distance) -> String { format(distance.kilometers) }

  /// `5:30/km`, `8:51/mi`: a pace in seconds per kilometre, per this unit.
  public func pace(secondsPerKilometer: Double) -> String {
    Pace(secondsPerKilometer: secondsPerKilometer).formatted(in: self)
  }

  /// The unit for text output: an explicit choice (`--units`), else the runner's profile's, else the one the plan
  /// was saved with, else km. Every command decides its display unit through this one rule.
  public static func display(chosen: DistanceUnit?, profile: DistanceUnit?, plan: DistanceUnit? = nil) -> DistanceUnit {
    chosen ?? profile ?? plan ?? .km
  }
}

/// `12`, `12.5`, `-0.3`: a number to one decimal, none when whole (fast: no `String(format:)`).
///
/// Total: `nan`, `inf` and `-inf` print as such, and magnitudes of 10^15 and more (where tenths no longer fit an
/// exact integer) print in Swift's shortest form (`1e+21`) instead of trapping.
public func oneDecimal(_ value: Double) -> String {
  guard value.isFinite else { return value.isNaN ? "nan" : value < 0 ? "-inf" : "inf" }
  let scaled = (value * 10).rounded()
  guard abs(scaled) < 1e16 else { return "\(value)" }
  let tenths = Int(scaled)
  let sign = tenths < 0 ? "-" : ""
  let magnitude = abs(tenths)
  return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
}
