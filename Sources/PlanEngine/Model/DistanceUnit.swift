import Foundation

/// The unit distances are shown in. JSON output is always in kilometres.
public enum DistanceUnit: String, Sendable, Hashable, Codable, CaseIterable {
  case km, mi

  /// Kilometres per unit.
  public var kilometers: Double { self == .km ? 1 : 1.609344 }

  /// `12.5 km`, `7.8 mi`: one decimal at most, none when whole.
  public func format(_ km: Double) -> String {
    let value = ((km / kilometers) * 10).rounded() / 10
    let number = value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    return "\(number) \(rawValue)"
  }
}
