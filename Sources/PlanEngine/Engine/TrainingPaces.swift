/// Paces for every intensity: from the runner's VDOT when a recent race is known, otherwise from the level's
/// estimate (used for duration estimates only; the plan then shows effort targets instead of paces).
struct TrainingPaces: Sendable {
  let vdot: VDOT
  /// True when the VDOT comes from the runner's own race, so paces may be shown.
  let known: Bool
  let raceDistanceMeters: Double

  /// Typical easy running for estimates: 70 % of VDOT, inside the E range (59–74 %), toward the pace most
  /// runners actually run easy days at.
  static let typicalEasyFraction = 0.70

  /// The pace used for time and distance estimates at `intensity`.
  func pace(_ intensity: Intensity) -> Pace {
    switch intensity {
    case .easy: vdot.pace(atFraction: TrainingPaces.typicalEasyFraction)
    case .marathon: vdot.marathon
    case .threshold: vdot.threshold
    case .interval: vdot.interval
    case .repetition: vdot.repetition
    case .race: vdot.racePace(distanceMeters: raceDistanceMeters)
    }
  }

  /// Recovery jogs: the slow end of the easy range.
  var recoveryJog: Pace { vdot.easy.upperBound }

  /// The pace text shown for `intensity`, or nil when paces are not known.
  func label(_ intensity: Intensity, perMile: Bool) -> String? {
    guard known else { return nil }
    switch intensity {
    case .easy: return formatPaceRange(vdot.easy, perMile: perMile)
    default: return pace(intensity).formatted(perMile: perMile)
    }
  }
}
