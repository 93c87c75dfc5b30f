import Foundation

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
public func oneDecimal(_ value: Double) -> String {
  let tenths = Int((value * 10).rounded())
  let sign = tenths < 0 ? "-" : ""
  let magnitude = abs(tenths)
  return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
}
