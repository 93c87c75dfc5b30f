/// How heart-rate zones are worked out from a runner's heart rates.
public enum HeartRateZoneModel: String, Sendable, Hashable, Codable, CaseIterable {
  /// Karvonen's heart-rate reserve: resting + share × (max − resting), with five bands of 10 % of the reserve
  /// from 50 % (Karvonen, Kentala & Mustala 1957; the ACSM's bands).
  case karvonen
  /// Friel's running zones as shares of the lactate-threshold heart rate (Friel, "Quick Guide to Setting Zones",
  /// TrainingPeaks): Z1 under 85 %, Z2 85–89 %, Z3 90–94 %, Z4 95–99 %, Z5 100–106 % (his 5a and 5b).
  case lthr
}

/// How workouts are prescribed on the watch and in the texts: by pace, by heart rate, or easy running by heart rate
/// and quality by pace.
public enum WorkoutTargets: String, Sendable, Hashable, Codable, CaseIterable {
  /// Every step by its pace (open when the plan has none).
  case pace
  /// Every step by its heart-rate zone (but repetitions, too short for the heart rate to follow: by pace).
  case hr
  /// Easy running (easy and long runs, warm-ups, cool-downs, recoveries) by heart rate, quality by pace.
  case both
}

/// One heart-rate zone: its number (1 to 5), name and beats a minute.
public struct HeartRateZone: Sendable, Hashable, Codable {
  /// 1 to 5.
  public var number: Int
  /// `recovery`, `aerobic`, `tempo`, `threshold`, `vo2max`.
  public var name: String
  /// The lowest beats a minute of the zone.
  public var low: Int
  /// The highest beats a minute of the zone.
  public var high: Int

  /// `Z2 138-150 bpm`.
  public var text: String { "Z\(number) \(low)-\(high) bpm" }

  enum CodingKeys: String, CodingKey {
    case number, name
    case low = "low_bpm"
    case high = "high_bpm"
  }
}

/// A runner's five heart-rate zones by one model, from the heart rates the profile holds.
public struct HeartRateZones: Sendable, Hashable, Codable {
  /// The model the zones follow.
  public var model: HeartRateZoneModel
  /// Zones 1 to 5, low to high, each starting one beat above the one before.
  public var zones: [HeartRateZone]

  static let names = ["recovery", "aerobic", "tempo", "threshold", "vo2max"]

  /// The zones by `model`, or by default Karvonen when the maximum and resting rates are known, else Friel's %LTHR
  /// when the threshold is; nil when the chosen model lacks a rate (see ``missing(model:resting:maximum:threshold:)``).
  public init?(model chosen: HeartRateZoneModel? = nil, resting: Int?, maximum: Int?, threshold: Int?) {
    let model = chosen ?? (resting != nil && maximum != nil ? .karvonen : .lthr)
    guard HeartRateZones.missing(model: model, resting: resting, maximum: maximum, threshold: threshold) == nil
    else { return nil }
    self.model = model
    // Band edges in whole beats, rounded half up in integers (no float edge falls a beat short).
    let edges: [Int]
    switch model {
    case .karvonen:
      guard let resting, let maximum else { return nil }
      edges = [50, 60, 70, 80, 90, 100].map { resting + ((maximum - resting) * $0 + 50) / 100 }
    case .lthr:
      guard let threshold else { return nil }
      edges = [65, 85, 90, 95, 100, 106].map { (threshold * $0 + 50) / 100 }
    }
    var zones: [HeartRateZone] = []
    for index in 0..<5 {
      // A zone ends one beat under the next one's start; the last at its edge, capped by the maximum when known.
      let low = edges[index]
      let high = index == 4 ? min(edges[5], maximum ?? Int.max) : edges[index + 1] - 1
      zones.append(HeartRateZone(number: index + 1, name: Self.names[index], low: low, high: max(low, high)))
    }
    self.zones = zones
  }

  /// What the profile lacks for `model` (nil for the default model) in words, or nil when nothing is missing:
  /// "max HR and resting HR", "lactate-threshold HR".
  public static func missing(model: HeartRateZoneModel?, resting: Int?, maximum: Int?, threshold: Int?) -> String? {
    switch model {
    case .karvonen:
      let lacking = [maximum == nil ? "max HR" : nil, resting == nil ? "resting HR" : nil].compactMap { $0 }
      return lacking.isEmpty ? nil : lacking.joined(separator: " and ")
    case .lthr: return threshold == nil ? "lactate-threshold HR" : nil
    case nil:
      return (resting != nil && maximum != nil) || threshold != nil
        ? nil : "max HR and resting HR, or lactate-threshold HR"
    }
  }

  /// The zone (1 to 5).
  public func zone(_ number: Int) -> HeartRateZone { zones[min(max(number, 1), 5) - 1] }
}
