import Foundation
import PlanEngine
import RunningCore

/// Records a runner can break.
public struct PersonalBests: Sendable, Hashable {
  /// The longest run, km.
  public var longestRunKm: Double = 0
  /// Best time, seconds, for 5 km, 10 km and the half, from runs at least that long (at their average pace).
  public var fastest: [String: Double] = [:]
  /// The most kilometres in one Monday-to-Sunday week.
  public var biggestWeekKm: Double = 0
  /// The most days in a row with a run.
  public var longestStreakDays: Int = 0

  static let distances: [(name: String, km: Double)] = [("5k", 5), ("10k", 10), ("half", 21.0975)]

  /// The records in `completions`.
  public init(_ completions: [Completion]) {
    var weeks: [Int: Double] = [:]
    for run in completions {
      longestRunKm = max(longestRunKm, run.distanceKm)
      for (name, km) in PersonalBests.distances where run.distanceKm >= km - 0.05 {
        let time = run.secondsPerKm * km
        fastest[name] = min(fastest[name] ?? .infinity, time)
      }
      let monday = run.date.dayNumber - run.date.weekday.index
      weeks[monday, default: 0] += run.distanceKm
    }
    biggestWeekKm = weeks.values.max() ?? 0
    let days = Set(completions.map(\.date.dayNumber)).sorted()
    var streak = 0
    var previous: Int?
    for day in days {
      streak = previous.map { day == $0 + 1 } == true ? streak + 1 : 1
      longestStreakDays = max(longestStreakDays, streak)
      previous = day
    }
  }

  /// The records `after` beats compared with `before`, in words, distances in `units`.
  public static func improvements(
    from before: PersonalBests, to after: PersonalBests,
    units: DistanceUnit = .km
  ) -> [String] {
    var news: [String] = []
    if after.longestRunKm > before.longestRunKm + 0.01 && before.longestRunKm > 0 {
      news.append("longest run ever: \(kilometresText(after.longestRunKm, units))")
    }
    for (name, _) in distances {
      if let new = after.fastest[name], let old = before.fastest[name], new < old - 0.5 {
        news.append("fastest \(name): \(formatRaceTime(new)) (was \(formatRaceTime(old)))")
      } else if let new = after.fastest[name], before.fastest[name] == nil,
        !before.fastest.isEmpty || before.longestRunKm > 0
      {
        news.append("first \(name): \(formatRaceTime(new))")
      }
    }
    if after.biggestWeekKm > before.biggestWeekKm + 0.01 && before.biggestWeekKm > 0 {
      news.append("biggest week: \(kilometresText(after.biggestWeekKm, units))")
    }
    if after.longestStreakDays > before.longestStreakDays && before.longestStreakDays > 0
      && after.longestStreakDays >= 3
    {
      news.append("longest streak: \(after.longestStreakDays) days in a row")
    }
    return news
  }
}

/// `12.5 km` or `7.8 mi`; a value no run can have (a row stored by an older version) is shown as it is, never
/// trapping.
func kilometresText(_ km: Double, _ units: DistanceUnit = .km) -> String {
  km.isFinite && abs(km) < 1e12 ? units.format(km) : "\(km / units.kilometers) \(units.rawValue)"
}
