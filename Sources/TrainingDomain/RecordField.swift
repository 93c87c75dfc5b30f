import RunningCore

/// A value of a stored record (a run, a health day, a body measure) that the plausibility checks can refuse. Each
/// door words it its own way: the CLI and imports by ``label``, the coach API by its JSON member (`distance_km`).
public enum RecordField: Sendable, Hashable {
  case date, startTime, distance, time, movingTime, pace, rpe, averageHeartRate, elevationGain
  /// A run's note; a profile's or a plan's name; a comment's text.
  case note, name, text
  /// A best effort's length or time (`best 5K`), or where in the run it starts.
  case bestEffort(name: String)
  case bestEffortStart(name: String)
  /// A health day's totals.
  case steps, activeEnergy
  /// A body measure's value.
  case measure(MeasureKind)

  /// The field in words: `moving time`, `best 5K start`, `body_mass_kg`.
  public var label: String {
    switch self {
    case .date: "date"
    case .startTime: "start time"
    case .distance: "distance"
    case .time: "time"
    case .movingTime: "moving time"
    case .pace: "pace"
    case .rpe: "rpe"
    case .averageHeartRate: "average heart rate"
    case .elevationGain: "elevation gain"
    case .note: "note"
    case .name: "name"
    case .text: "text"
    case .bestEffort(let name): "best \(name)"
    case .bestEffortStart(let name): "best \(name) start"
    case .steps: "steps"
    case .activeEnergy: "active energy"
    case .measure(let kind): kind.rawValue
    }
  }
}
