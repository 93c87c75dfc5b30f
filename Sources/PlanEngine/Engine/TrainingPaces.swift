import RunningCore

/// Paces for every intensity: from the runner's VDOT when a recent race is known, otherwise from the level's
/// estimate (used for duration estimates only; the plan then shows effort targets instead of paces).
struct TrainingPaces: Sendable {
  let vdot: VDOT
  /// True when the VDOT comes from the runner's own race, so paces may be shown.
  let known: Bool
  let raceDistanceMeters: Double
  /// Every zone's pace, computed once (M, R and race pace each solve a race prediction by bisection), in
  /// `Intensity.allCases` order.
  private let cached: [Pace]
  /// Every zone's pace text, per kilometre then per mile, in `Intensity.allCases` order (nil when not known).
  private let labels: [[String?]]
  /// The slow end of the easy range: recovery jogs.
  let recoveryJog: Pace
  /// The goal race's predicted time at the training VDOT, seconds.
  let predictedRaceSeconds: Double

  /// The zones at `vdot`, but race pace at `goalSeconds` when given (and, for a marathon, marathon pace: the
  /// race-pace work of Pfitzinger's and Hansons' plans is goal pace).
  init(vdot: VDOT, known: Bool, race distance: RaceDistance, goalSeconds: Double? = nil) {
    self.vdot = vdot
    self.known = known
    let raceDistanceMeters = distance.kilometers * 1000
    self.raceDistanceMeters = raceDistanceMeters
    predictedRaceSeconds = vdot.predictedTime(distanceMeters: raceDistanceMeters)
    let race = Pace(secondsPerKilometer: (goalSeconds ?? predictedRaceSeconds) / (raceDistanceMeters / 1000))
    let marathonIsRace = goalSeconds != nil && distance == .marathon
    let paces = Intensity.allCases.map { intensity -> Pace in
      switch intensity {
      case .easy: vdot.pace(atFraction: TrainingPaces.typicalEasyFraction)
      case .marathon: marathonIsRace ? race : vdot.marathon
      case .threshold: vdot.threshold
      case .interval: vdot.interval
      case .repetition: vdot.repetition
      case .race: race
      }
    }
    cached = paces
    let easyRange = vdot.easy
    recoveryJog = easyRange.upperBound
    labels = [false, true].map { perMile in
      Intensity.allCases.enumerated().map { index, intensity -> String? in
        guard known else { return nil }
        return intensity == .easy
          ? formatPaceRange(easyRange, perMile: perMile) : paces[index].formatted(perMile: perMile)
      }
    }
  }

  /// The position of `intensity` in `Intensity.allCases`.
  static func slot(_ intensity: Intensity) -> Int {
    switch intensity {
    case .easy: 0
    case .marathon: 1
    case .threshold: 2
    case .interval: 3
    case .repetition: 4
    case .race: 5
    }
  }

  /// Typical easy running for estimates: 70 % of VDOT, inside the E range (59–74 %), toward the pace most
  /// runners actually run easy days at.
  static let typicalEasyFraction = 0.70

  /// The pace used for time and distance estimates at `intensity`.
  func pace(_ intensity: Intensity) -> Pace { cached[TrainingPaces.slot(intensity)] }

  /// The easy range, for labels.
  var easyRange: ClosedRange<Pace> { vdot.easy }

  /// The pace text shown for `intensity`, or nil when paces are not known.
  func label(_ intensity: Intensity, perMile: Bool) -> String? {
    labels[perMile ? 1 : 0][TrainingPaces.slot(intensity)]
  }
}
