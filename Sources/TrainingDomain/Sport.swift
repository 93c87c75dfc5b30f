import PlanEngine

/// What a logged activity was: a run, or a session of another sport kept as cross-training (out of running volume,
/// personal bests, progress and run matching). Stored and encoded as its ``name`` (`run`, `cycling`, `strength
/// training`), so logbooks written before the enum read the same.
public enum Sport: Sendable, Hashable, CustomStringConvertible {
  /// A run: road, trail, track, treadmill.
  case run
  case cycling, swimming, walking, hiking, skiing, rowing, paddling, skating, elliptical, yoga
  /// Gym work: the plan's strength days are fulfilled by it.
  case strengthTraining
  /// A sport with no case of its own, by the name its source gave it (`snowboarding`, `Strava type 22`).
  /// ``init(name:)`` never wraps a name that has a case, and equality goes by name either way.
  case other(String)

  /// The sports with a case of their own, by name.
  static let named: [String: Sport] = Dictionary(
    uniqueKeysWithValues: [
      Sport.run, .cycling, .swimming, .walking, .hiking, .skiing, .rowing, .paddling, .skating, .elliptical, .yoga,
      .strengthTraining,
    ].map { ($0.name, $0) })

  /// The sport called `name` (as stored, or as an import names it); a name without a case is ``other(_:)``.
  public init(name: String) {
    self = Sport.named[name] ?? .other(name)
  }

  /// The name a runner reads and the store keeps: `run`, `cycling`, …, `strength training`, or the source's own.
  public var name: String {
    switch self {
    case .run: "run"
    case .cycling: "cycling"
    case .swimming: "swimming"
    case .walking: "walking"
    case .hiking: "hiking"
    case .skiing: "skiing"
    case .rowing: "rowing"
    case .paddling: "paddling"
    case .skating: "skating"
    case .elliptical: "elliptical"
    case .yoga: "yoga"
    case .strengthTraining: "strength training"
    case .other(let name): name
    }
  }

  /// The name.
  public var description: String { name }

  /// Sports are equal when their names are, so `.other("cycling")` is `.cycling`.
  public static func == (lhs: Sport, rhs: Sport) -> Bool { lhs.name == rhs.name }

  /// Hashes the name.
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }

  /// True for a run.
  public var isRun: Bool { self == .run }

  /// The planned kind a session of this sport fulfils: nil for a run (runs are matched by the ingest rules),
  /// ``WorkoutKind/strength`` for strength training, else ``WorkoutKind/crossTraining``.
  public var plannedKind: WorkoutKind? {
    switch self {
    case .run: nil
    case .strengthTraining: .strength
    default: .crossTraining
    }
  }
}

extension Sport: Codable {
  /// Reads the sport's name.
  public init(from decoder: any Decoder) throws {
    self.init(name: try decoder.singleValueContainer().decode(String.self))
  }

  /// Writes the sport's name.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(name)
  }
}
