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
    tenthsText(km / kilometers, suffix: self == .km ? " km" : " mi") ?? "\(number(km)) \(rawValue)"
  }

  /// `12.5`, `7.8`: a distance in kilometres as a number in this unit (one decimal at most), for a column whose
  /// header names the unit.
  public func number(_ km: Double) -> String {
    oneDecimal(km / kilometers)
  }

  /// `12.5 km`, `7.8 mi`.
  public func format(_ distance: Distance) -> String { format(distance.kilometers) }

  /// `12.5`, `7.8`: `distance` as a number in this unit, for a column whose header names the unit.
  public func number(_ distance: Distance) -> String { number(distance.kilometers) }

  /// `5:30/km`, `8:51/mi`.
  public func format(_ pace: Pace) -> String { pace.formatted(in: self) }

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
  if let text = tenthsText(value, suffix: "") { return text }
  guard value.isFinite else { return value.isNaN ? "nan" : value < 0 ? "-inf" : "inf" }
  return "\(value)"
}

/// `12.5` + `suffix`, written byte by byte (the plan's text writes thousands of these: no interpolation, and no heap
/// allocation for the short ones); nil when `value` is not finite or 10^15 or more in magnitude.
private func tenthsText(_ value: Double, suffix: StaticString) -> String? {
  guard value.isFinite else { return nil }
  let scaled = (value * 10).rounded()
  guard abs(scaled) < 1e16 else { return nil }
  let tenths = Int(scaled)
  let magnitude = tenths.magnitude
  let whole = magnitude / 10
  let fraction = magnitude % 10
  var digits = 1
  var rest = whole
  while rest >= 10 {
    rest /= 10
    digits += 1
  }
  let count = (tenths < 0 ? 1 : 0) + digits + (fraction == 0 ? 0 : 2) + suffix.utf8CodeUnitCount
  return String(unsafeUninitializedCapacity: count) { buffer in
    var at = 0
    if tenths < 0 {
      buffer[0] = UInt8(ascii: "-")
      at = 1
    }
    var number = whole
    for index in stride(from: at + digits - 1, through: at, by: -1) {
      buffer[index] = UInt8(ascii: "0") + UInt8(number % 10)
      number /= 10
    }
    at += digits
    if fraction != 0 {
      buffer[at] = UInt8(ascii: ".")
      buffer[at + 1] = UInt8(ascii: "0") + UInt8(fraction)
      at += 2
    }
    suffix.withUTF8Buffer { bytes in
      for byte in bytes {
        buffer[at] = byte
        at += 1
      }
    }
    return at
  }
}
