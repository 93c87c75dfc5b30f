/// Paces for every intensity: from the runner's VDOT when a recent race is known, otherwise from the level's
/// estimate (used for duration estimates only; the plan then shows effort targets instead of paces).
struct TrainingPaces: Sendable {
  let vdot: VDOT
  /// True when the VDOT comes from the runner's own race, so paces may be shown.
  let known: Bool
  let raceDistanceMeters: Double
  /// Every zone's pace, computed once (M, R and race pace each solve a race prediction by bisection).
  private let cached: [Intensity: Pace]
  /// The goal race's predicted time, seconds.
  let predictedRaceSeconds: Double

  init(vdot: VDOT, known: Bool, raceDistanceMeters: Double) {
    self.vdot = vdot
    self.known = known
    self.raceDistanceMeters = raceDistanceMeters
    predictedRaceSeconds = vdot.predictedTime(distanceMeters: raceDistanceMeters)
    cached = [
      .easy: vdot.pace(atFraction: TrainingPaces.typicalEasyFraction),
      .marathon: vdot.marathon,
      .threshold: vdot.threshold,
      .interval: vdot.interval,
      .repetition: vdot.repetition,
      .race: Pace(secondsPerKilometer: predictedRaceSeconds / (raceDistanceMeters / 1000)),
    ]
  }

  /// Typical easy running for estimates: 70 % of VDOT, inside the E range (59–74 %), toward the pace most
  /// runners actually run easy days at.
  static let typicalEasyFraction = 0.70

  /// The pace used for time and distance estimates at `intensity`.
  func pace(_ intensity: Intensity) -> Pace { cached[intensity] ?? vdot.threshold }

  /// Recovery jogs: the slow end of the easy range.
  var recoveryJog: Pace { vdot.easy.upperBound }

  /// The easy range, for labels.
  var easyRange: ClosedRange<Pace> { vdot.easy }

  /// The pace text shown for `intensity`, or nil when paces are not known.
  func label(_ intensity: Intensity, perMile: Bool) -> String? {
    guard known else { return nil }
    switch intensity {
    case .easy: return formatPaceRange(vdot.easy, perMile: perMile)
    default: return pace(intensity).formatted(perMile: perMile)
    }
  }
}
