import Foundation

/// What a file says its activity was, read from the declared sport: the TCX `Activity Sport` attribute, the GPX
/// `trk/type` (an app's own word, Garmin's names such as `trail_running`, or Strava's activity-type numbers).
public enum DeclaredSport: Sendable, Hashable, CustomStringConvertible {
  /// A run: road, trail, track, treadmill, indoor or virtual.
  case run
  /// Another sport, named for a runner (`cycling`, `swimming`, `walking`, or the file's own word).
  case other(String)
  /// The file names no sport: taken as a run (most GPX files from running apps name none).
  case undeclared

  /// Reads `declared` (case and separators ignored).
  public init(_ declared: String?) {
    guard let declared else {
      self = .undeclared
      return
    }
    let word = declared.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
      .replacingOccurrences(of: "-", with: "_").replacingOccurrences(of: " ", with: "_")
    if word.isEmpty {
      self = .undeclared
    } else if let number = Int(word) {
      // Strava's GPX exports write its activity-type number: 9 is a run.
      self = number == 9 ? .run : .other(DeclaredSport.stravaTypes[number] ?? "Strava type \(number)")
    } else if DeclaredSport.runWords.contains(word) || word.hasSuffix("_running") || word.hasSuffix("_run") {
      self = .run
    } else {
      self = .other(DeclaredSport.names.first { word.contains($0.part) }?.name ?? word)
    }
  }

  /// True for runs and files that name no sport.
  public var isRun: Bool {
    if case .other = self { return false }
    return true
  }

  /// `running`, the other sport's name, or `no sport named`.
  public var description: String {
    switch self {
    case .run: "running"
    case .other(let name): name
    case .undeclared: "no sport named"
    }
  }

  /// Words that mean a run.
  static let runWords: Set<String> = [
    "running", "run", "trail_running", "treadmill_running", "track_running", "street_running", "indoor_running",
    "virtual_run", "virtualrun", "trailrun", "treadmill", "jogging", "ultra_run", "road_running",
  ]

  /// Other sports by a part of their names, as a runner would call them; the first that matches names it (an
  /// ordered list, so that a word holding two parts, `skate_skiing`, is always named the same way).
  static let names: [(part: String, name: String)] = [
    ("bik", "cycling"), ("cycl", "cycling"), ("ride", "cycling"), ("swim", "swimming"), ("walk", "walking"),
    ("hik", "hiking"), ("ski", "skiing"), ("row", "rowing"), ("paddl", "paddling"), ("kayak", "paddling"),
    ("canoe", "paddling"), ("skat", "skating"), ("elliptical", "elliptical"), ("yoga", "yoga"),
    ("strength", "strength training"),
  ]

  /// Strava's activity-type numbers as written in its GPX exports (other numbers are named by number).
  static let stravaTypes: [Int: String] = [
    1: "cycling", 2: "skiing", 3: "skiing", 4: "hiking", 5: "skating", 6: "skating", 7: "skiing", 8: "skiing",
    10: "walking", 11: "workout", 12: "snowboarding", 13: "snowshoeing", 16: "swimming",
  ]
}
