import Foundation
import RunningCore

// Daniels–Gilbert VDOT pace math.
//
// All formulas follow docs/training-rules.md ("Paces"):
//   v        = velocity in metres per minute
//   VO2(v)   = −4.60 + 0.182258·v + 0.000104·v²
//   %max(t)  = 0.8 + 0.1894393·e^(−0.012778·t) + 0.2989558·e^(−0.1932605·t), t in minutes
//   VDOT     = VO2(d/t) / %max(t)
//   v(VO2)   = (−0.182258 + √(0.182258² + 4·0.000104·(VO2 + 4.60))) / (2·0.000104)

/// Distances used by the VDOT zones (namespaced so they cannot clash with other files).
private enum VDOTDistances {
  /// Metres in one statute mile.
  static let mile = Distance.kilometersPerMile * 1_000
  /// Metres in a marathon.
  static let marathon = 42_195.0
}

// MARK: - Pace

// `Pace` is RunningCore's (seconds per kilometre, written through `DistanceUnit`).

/// Formats a pace range "5:40-6:10/km" (faster pace first) or per mile.
public func formatPaceRange(_ range: ClosedRange<Pace>, perMile: Bool = false) -> String {
  let unit: DistanceUnit = perMile ? .mi : .km
  return RunDuration.minutesSeconds(range.lowerBound.seconds(per: unit)) + "-"
    + range.upperBound.formatted(in: unit)
}

/// Text helpers for VDOT messages (namespaced so they cannot clash with other files).
private enum VDOTText {
  /// A number rounded to one decimal place, printed without locale ("258.1", "5.0").
  static func oneDecimal(_ value: Double) -> String {
    guard value.isFinite else { return "\(value)" }
    return "\((value * 10).rounded() / 10)"
  }
}

// MARK: - Zones

/// Kind of VDOT training zone.
public enum PaceZone: String, Sendable, Codable, CaseIterable {
  /// Easy running: 59–74 % of VDOT.
  case easy = "E"
  /// Marathon pace: the predicted marathon race pace.
  case marathon = "M"
  /// Threshold pace: 88 % of VDOT.
  case threshold = "T"
  /// Interval pace: 97.5 % of VDOT.
  case interval = "I"
  /// Repetition pace: the predicted mile race pace.
  case repetition = "R"
}

// MARK: - VDOT

/// A runner's VDOT and the paces derived from it.
public struct VDOT: Sendable, Hashable {
  /// The VDOT value (ml·kg⁻¹·min⁻¹-equivalent performance index).
  public let value: Double

  /// The plausible range of VDOT values for a real running performance.
  static let plausibleRange: ClosedRange<Double> = 20...90

  /// Creates a VDOT from a known value. No range check is made.
  public init(value: Double) {
    self.value = value
  }

  /// VDOT from a race result. Throws VDOTError.outOfRange when the result gives a VDOT outside 20...90 (not a plausible running performance) or distance/time are not positive.
  ///
  /// A distance or time that is not positive (or not finite) throws
  /// ``VDOTError/notPositive(distanceMeters:timeSeconds:)``; a computed VDOT
  /// outside 20...90 throws ``VDOTError/outOfRange(vdot:distanceMeters:timeSeconds:)``.
  public init(distanceMeters: Double, timeSeconds: Double) throws(VDOTError) {
    guard distanceMeters > 0, timeSeconds > 0, distanceMeters.isFinite, timeSeconds.isFinite else {
      throw .notPositive(distanceMeters: distanceMeters, timeSeconds: timeSeconds)
    }
    let computed = VDOT.vdot(distanceMeters: distanceMeters, minutes: timeSeconds / 60)
    guard VDOT.plausibleRange.contains(computed) else {
      throw .outOfRange(vdot: computed, distanceMeters: distanceMeters, timeSeconds: timeSeconds)
    }
    self.value = computed
  }

  /// Oxygen cost VO2(v) for velocity in m/min.
  public static func oxygenCost(metersPerMinute: Double) -> Double {
    -4.60 + 0.182258 * metersPerMinute + 0.000104 * metersPerMinute * metersPerMinute
  }

  /// Fraction of VO2max sustainable for `minutes`.
  public static func sustainableFraction(minutes: Double) -> Double {
    0.8 + 0.1894393 * exp(-0.012778 * minutes) + 0.2989558 * exp(-0.1932605 * minutes)
  }

  /// Velocity (m/min) at which VO2 equals `vo2`.
  ///
  /// This is the positive root of the oxygen-cost quadratic. For a `vo2`
  /// below the quadratic's minimum the discriminant is clamped at zero.
  public static func velocity(vo2: Double) -> Double {
    let a = 0.000104
    let b = 0.182258
    let discriminant = max(0, b * b + 4 * a * (vo2 + 4.60))
    return (-b + discriminant.squareRoot()) / (2 * a)
  }

  /// VDOT implied by covering `distanceMeters` in `minutes`.
  public static func vdot(distanceMeters: Double, minutes: Double) -> Double {
    oxygenCost(metersPerMinute: distanceMeters / minutes) / sustainableFraction(minutes: minutes)
  }

  /// Predicted race time in seconds for `distanceMeters` (bisection between 1 s·m… bounds you pick; 60 iterations or 0.01 s tolerance).
  ///
  /// Solves VO2(d/t) / %max(t) = VDOT for t by bisection between the times
  /// implied by 1,000 m/min (faster than any human) and 30 m/min (a slow walk),
  /// stopping after 60 iterations or once the bracket is narrower than 0.01 s.
  /// Returns 0 for a distance that is not positive and `.infinity` for a
  /// VDOT that is not positive.
  public func predictedTime(distanceMeters: Double) -> Double {
    guard distanceMeters > 0 else { return 0 }
    guard value > 0 else { return .infinity }
    // Times in minutes. The implied VDOT falls as the time grows.
    var fast = distanceMeters / 1_000
    var slow = distanceMeters / 30
    let tolerance = 0.01 / 60
    for _ in 0..<60 {
      if slow - fast < tolerance { break }
      let middle = (fast + slow) / 2
      if VDOT.vdot(distanceMeters: distanceMeters, minutes: middle) > value {
        fast = middle
      } else {
        slow = middle
      }
    }
    return (fast + slow) / 2 * 60
  }

  /// Pace at `fraction` of VDOT (e.g. 0.88 for threshold).
  public func pace(atFraction fraction: Double) -> Pace {
    Pace(metersPerMinute: VDOT.velocity(vo2: fraction * value))
  }

  /// Easy range: slow end at 0.59·VDOT, fast end at 0.74·VDOT. ClosedRange lower bound = faster pace (smaller seconds/km).
  public var easy: ClosedRange<Pace> {
    let fast = pace(atFraction: 0.74)
    let slow = pace(atFraction: 0.59)
    return min(fast, slow)...max(fast, slow)
  }

  /// Marathon pace: the predicted race pace over 42,195 m.
  public var marathon: Pace {
    racePace(distanceMeters: VDOTDistances.marathon)
  }

  /// Threshold pace: the pace at 0.88·VDOT.
  public var threshold: Pace {
    pace(atFraction: 0.88)
  }

  /// Interval pace: the pace at 0.975·VDOT.
  public var interval: Pace {
    pace(atFraction: 0.975)
  }

  /// Repetition pace: the predicted race pace over one mile (1,609.344 m).
  public var repetition: Pace {
    racePace(distanceMeters: VDOTDistances.mile)
  }

  /// Race pace for an arbitrary distance (predicted time / distance).
  public func racePace(distanceMeters: Double) -> Pace {
    Pace(secondsPerKilometer: predictedTime(distanceMeters: distanceMeters) / (distanceMeters / 1_000))
  }

  /// The single pace of a zone (easy: the middle of the easy range, by velocity).
  public func pace(for zone: PaceZone) -> Pace {
    switch zone {
    case .easy:
      let range = easy
      let middle = (range.lowerBound.metersPerMinute + range.upperBound.metersPerMinute) / 2
      return Pace(metersPerMinute: middle)
    case .marathon: return marathon
    case .threshold: return threshold
    case .interval: return interval
    case .repetition: return repetition
    }
  }
}

// MARK: - Errors

/// Why a race result could not be turned into a VDOT.
public enum VDOTError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The result gives a VDOT outside the plausible range 20...90.
  case outOfRange(vdot: Double, distanceMeters: Double, timeSeconds: Double)
  /// The distance or the time is not a positive number.
  case notPositive(distanceMeters: Double, timeSeconds: Double)

  /// A sentence for a runner explaining what is wrong with the result.
  public var description: String {
    switch self {
    case .outOfRange(let vdot, let distanceMeters, let timeSeconds):
      return "a \(VDOTText.oneDecimal(distanceMeters / 1_000)) km race in \(formatRaceTime(timeSeconds)) "
        + "gives VDOT \(VDOTText.oneDecimal(vdot)), outside the plausible range 20–90: "
        + "check the time (h:mm:ss or mm:ss)"
    case .notPositive(let distanceMeters, let timeSeconds):
      return "a race needs a positive distance and time, but got \(distanceMeters) m "
        + "in \(timeSeconds) s: check the distance and the time (h:mm:ss or mm:ss)"
    }
  }
}

// MARK: - Race times

/// Parses "20:00", "1:35:20", "47:30.5" into seconds; nil for anything else (negative, minutes/seconds ≥ 60 in the non-leading fields, empty, letters).
///
/// Accepted forms are `m:ss` and `h:mm:ss`: the leading field is one or more
/// ASCII digits, each later field is exactly two digits below 60, and the last
/// field may carry a decimal fraction (`30.5`). Surrounding whitespace is ignored.
public func parseRaceTime(_ text: String) -> Double? {
  let fields = text.trimmingCharacters(in: .whitespaces)
    .split(separator: ":", omittingEmptySubsequences: false)
  guard fields.count == 2 || fields.count == 3 else { return nil }

  guard raceTimeFieldIsDigits(fields[0]), let leading = Double(String(fields[0])) else { return nil }
  var total = leading

  for (index, field) in fields.enumerated().dropFirst() {
    let isLast = index == fields.count - 1
    let parts = field.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 1 || (isLast && parts.count == 2) else { return nil }
    guard parts[0].count == 2, raceTimeFieldIsDigits(parts[0]) else { return nil }
    if parts.count == 2 {
      guard raceTimeFieldIsDigits(parts[1]) else { return nil }
    }
    guard let number = Double(String(field)), number < 60 else { return nil }
    total = total * 60 + number
  }
  return total
}

/// True when `text` is non-empty and made only of ASCII digits.
private func raceTimeFieldIsDigits(_ text: Substring) -> Bool {
  !text.isEmpty && text.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
}

/// Formats seconds as "m:ss" under an hour, "h:mm:ss" from an hour.
///
/// Seconds are rounded to the nearest whole second first, so 3599.6 gives
/// "1:00:00". Non-finite (or absurdly large) input gives "--:--"; negative input gets a leading "-".
public func formatRaceTime(_ seconds: Double) -> String { RunDuration(seconds: seconds).formatted }
