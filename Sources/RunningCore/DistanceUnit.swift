/// The unit distances are shown in. JSON output is always in kilometres.
public enum DistanceUnit: String, Sendable, Hashable, Codable, CaseIterable {
  case km, mi

  /// Kilometres per unit.
  public var kilometers: Double { self == .km ? 1 : 1.609344 }

  /// `12.5 km`, `7.8 mi`: one decimal at most, none when whole.
  public func format(_ km: Double) -> String {
    "\(oneDecimal(km / kilometers)) \(rawValue)"
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
