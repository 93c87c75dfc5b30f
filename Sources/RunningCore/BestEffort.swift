/// The fastest stretch of one distance inside a recorded run (issue 24): measured by the device, not raced. A segment
/// of a training run is a lower bound of the runner's fitness (they could have run it faster, never slower).
public struct BestEffort: Sendable, Hashable, Codable {
  /// The distance, metres: one of ``distances``.
  public var distanceMeters: Double
  /// The time it took, seconds (the time at each end interpolated at the exact distance).
  public var seconds: Double
  /// Seconds from the activity's start to the effort's start.
  public var startOffsetSeconds: Double

  /// The distances looked for, metres: 400 m, 1 km, 5 km, 10 km, the half and the marathon.
  public static let distances: [Double] = [400, 1000, 5000, 10_000, 21_097.5, 42_195]

  /// An effort of `distanceMeters` in `seconds`, starting `startOffsetSeconds` into the activity.
  public init(distanceMeters: Double, seconds: Double, startOffsetSeconds: Double) {
    self.distanceMeters = distanceMeters
    self.seconds = seconds
    self.startOffsetSeconds = startOffsetSeconds
  }

  /// "400 m", "1 km", "5 km", "10 km", "half marathon", "marathon".
  public var name: String {
    switch distanceMeters {
    case 21_097.5: return "half marathon"
    case 42_195: return "marathon"
    case ..<1000: return "\(Int(distanceMeters.rounded())) m"
    default:
      let km = distanceMeters / 1000
      return km == km.rounded() ? "\(Int(km)) km" : "\(km) km"
    }
  }
}
