// Distances, paces and durations: the value types the rest of the package speaks, stored metric (kilometres,
// seconds per kilometre, seconds) and written in the runner's unit only at the edge, through `DistanceUnit`.

/// A distance, stored in kilometres.
public struct Distance: Sendable, Hashable, Comparable, Codable {
  /// Kilometres in one statute mile (1,609.344 m): the one place the factor is written.
  public static let kilometersPerMile = 1.609344

  /// The distance in kilometres.
  public var kilometers: Double

  /// A distance of `kilometers` km.
  public init(kilometers: Double) { self.kilometers = kilometers }

  /// A distance of `value` in `unit` (`Distance(3, .mi)` is 4.828 km).
  public init(_ value: Double, _ unit: DistanceUnit) { self.kilometers = value * unit.kilometers }

  /// The distance as a number of `unit`.
  public func value(in unit: DistanceUnit) -> Double { kilometers / unit.kilometers }

  /// The distance in statute miles.
  public var miles: Double { value(in: .mi) }

  /// Orders distances from shortest to longest.
  public static func < (lhs: Distance, rhs: Distance) -> Bool { lhs.kilometers < rhs.kilometers }

  /// `count` times this distance (a share of it for a fraction).
  public static func * (lhs: Distance, rhs: Double) -> Distance { Distance(kilometers: lhs.kilometers * rhs) }
}

/// Distances add up (a week's runs) and subtract (what is left of a plan): `Distance.zero`, `+`, `-`, `+=`.
extension Distance: AdditiveArithmetic {
  /// No distance.
  public static let zero = Distance(kilometers: 0)

  /// The two distances end to end.
  public static func + (lhs: Distance, rhs: Distance) -> Distance {
    Distance(kilometers: lhs.kilometers + rhs.kilometers)
  }

  /// `lhs` less `rhs` (negative when `rhs` is longer).
  public static func - (lhs: Distance, rhs: Distance) -> Distance {
    Distance(kilometers: lhs.kilometers - rhs.kilometers)
  }
}

extension Sequence where Element == Distance {
  /// The distances end to end (`.zero` for none).
  public func sum() -> Distance { reduce(.zero, +) }
}

// MARK: - Distances as people write them

/// A distance as typed on a command line: a positive number with a unit (`20mi`, `32km`, `3.1 mi`, `5k`, `800m`),
/// or a bare number (`20`), whose unit is the runner's (see ``distance(bare:)``).
public struct WrittenDistance: Sendable, Hashable {
  /// The number as written.
  public let value: Double
  /// The unit written after it, as kilometres per unit (1 for km and k, the mile for mi, 0.001 for m); nil when bare.
  public let kilometersPerUnit: Double?

  /// The units a distance may be written in, longest first so `mi` is not read as `m` (`k` is kilometres, as in
  /// `5k`; `m` is metres).
  static let suffixes: [(suffix: String, kilometers: Double)] = [
    ("km", 1), ("mi", Distance.kilometersPerMile), ("k", 1), ("m", 0.001),
  ]

  /// Parses `20mi`, `32km`, `3.1 mi`, `8.2 KM`, `5k`, `800m` or a bare `20`; nil for anything else (no number, an
  /// unknown unit such as `20 miles`, zero, negative, `nan`, `inf`).
  public init?(_ text: String) {
    let lower = blanksTrimmed(Substring(text.lowercased()))
    let number = lower.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
    let rest = blanksTrimmed(lower.dropFirst(number.count))
    guard let value = Double(number), value.isFinite, value > 0 else { return nil }
    if rest.isEmpty {
      self.init(value: value, kilometersPerUnit: nil)
      return
    }
    guard let unit = Self.suffixes.first(where: { $0.suffix == rest }) else { return nil }
    self.init(value: value, kilometersPerUnit: unit.kilometers)
  }

  init(value: Double, kilometersPerUnit: Double?) {
    self.value = value
    self.kilometersPerUnit = kilometersPerUnit
  }

  /// True when a unit was written (`20mi`), false for a bare number.
  public var hasUnit: Bool { kilometersPerUnit != nil }

  /// The distance, a bare number read in `bare` (the runner's unit).
  public func distance(bare: DistanceUnit) -> Distance {
    Distance(kilometers: value * (kilometersPerUnit ?? bare.kilometers))
  }

  /// What the runner probably meant by `text` when it is not a distance: `20 miles` → `20mi`, `32 kms` → `32km`;
  /// nil when there is no number to keep.
  public static func suggestion(for text: String) -> String? {
    let lower = blanksTrimmed(Substring(text.lowercased()))
    let number = lower.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
    let rest = blanksTrimmed(lower.dropFirst(number.count))
    guard let value = Double(number), value.isFinite, value > 0, !rest.isEmpty else { return nil }
    if rest.hasPrefix("mi") || rest.hasPrefix("mile") { return "\(number)mi" }
    if rest.hasPrefix("km") || rest.hasPrefix("kilom") || rest.hasPrefix("kilo") { return "\(number)km" }
    return nil
  }
}

/// `text` without the spaces and tabs around it.
func blanksTrimmed(_ text: Substring) -> Substring {
  let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
  guard let first = text.firstIndex(where: { !blank($0) }), let last = text.lastIndex(where: { !blank($0) }) else {
    return ""
  }
  return text[first...last]
}

// MARK: - Pace

/// A running pace, stored as seconds per kilometre.
public struct Pace: Sendable, Hashable, Comparable, Codable {
  /// Seconds needed to cover one kilometre. Smaller is faster.
  public var secondsPerKilometer: Double

  /// Creates a pace from seconds per kilometre.
  public init(secondsPerKilometer: Double) {
    self.secondsPerKilometer = secondsPerKilometer
  }

  /// Creates a pace from a velocity in metres per minute.
  public init(metersPerMinute: Double) {
    self.secondsPerKilometer = 60_000 / metersPerMinute
  }

  /// The velocity of this pace in metres per minute.
  public var metersPerMinute: Double {
    60_000 / secondsPerKilometer
  }

  /// Seconds needed to cover one statute mile.
  public var secondsPerMile: Double { seconds(per: .mi) }

  /// Seconds needed to cover one `unit`.
  public func seconds(per unit: DistanceUnit) -> Double { secondsPerKilometer * unit.kilometers }

  /// Minutes needed to cover `kilometers` at this pace.
  public func minutes(forKilometers kilometers: Double) -> Double {
    secondsPerKilometer * kilometers / 60
  }

  /// Kilometres covered in `minutes` at this pace.
  public func kilometers(inMinutes minutes: Double) -> Double {
    minutes * 60 / secondsPerKilometer
  }

  /// "4:16/km" or "6:52/mi" (seconds rounded to nearest whole second, 60 carries into the minute).
  public func formatted(in unit: DistanceUnit) -> String {
    RunDuration.minutesSeconds(seconds(per: unit)) + "/" + unit.rawValue
  }

  /// "4:16/km" or "6:52/mi".
  public func formatted(perMile: Bool = false) -> String { formatted(in: perMile ? .mi : .km) }

  /// Orders paces from fastest (fewest seconds per kilometre) to slowest.
  public static func < (lhs: Pace, rhs: Pace) -> Bool {
    lhs.secondsPerKilometer < rhs.secondsPerKilometer
  }
}

// MARK: - Duration

/// A length of time, in seconds (named so it does not clash with Swift's `Duration`).
public struct RunDuration: Sendable, Hashable, Comparable, Codable {
  /// The length in seconds.
  public var seconds: Double

  /// A length of `seconds`.
  public init(seconds: Double) { self.seconds = seconds }

  /// "m:ss" under an hour, "h:mm:ss" from an hour, rounded to the whole second first (3599.6 s is "1:00:00").
  /// Non-finite (or absurdly large) input gives "--:--"; negative input gets a leading "-".
  public var formatted: String {
    guard let total = Self.wholeSeconds(seconds) else { return "--:--" }
    let sign = seconds < 0 && total > 0 ? "-" : ""
    guard total >= 3_600 else { return sign + "\(total / 60):" + Self.twoDigits(total % 60) }
    return sign + "\(total / 3_600):" + Self.twoDigits(total % 3_600 / 60) + ":" + Self.twoDigits(total % 60)
  }

  /// "m:ss" after rounding to the whole second (299.6 is "5:00"); minutes are not split into hours. Non-finite (or
  /// absurdly large) input gives "--:--"; negative input gets a leading "-".
  public static func minutesSeconds(_ seconds: Double) -> String {
    guard let total = wholeSeconds(seconds) else { return "--:--" }
    let sign = seconds < 0 && total > 0 ? "-" : ""
    return sign + "\(total / 60):" + twoDigits(total % 60)
  }

  /// The magnitude of `seconds` rounded to the nearest whole second, or nil when it is not finite or too large to
  /// be a duration (over ~31 million years).
  static func wholeSeconds(_ seconds: Double) -> Int? {
    let magnitude = abs(seconds).rounded()
    guard magnitude.isFinite, magnitude < 1e15 else { return nil }
    return Int(magnitude)
  }

  static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  /// Orders durations from shortest to longest.
  public static func < (lhs: RunDuration, rhs: RunDuration) -> Bool { lhs.seconds < rhs.seconds }
}
