import Foundation
import PlanEngine
import RunningCore

/// Records a runner can break, and only true ones (issue 24: an easy 12 km run was announced as "first 10k", an easy
/// 6 km as "fastest 5k", a 9.5 km run as "longest run ever" for a runner who said they run 10 km, and nearly every
/// week-1 run as a "biggest week").
public struct PersonalBests: Sendable, Hashable {
  /// The longest run: the longest logged, or the runner's own longest recent run (the baseline they gave) when that
  /// is longer.
  public var longestRun = Distance.zero
  /// Best time, seconds, for 5 km, 10 km and the half, from races of that distance only (`log --race`, or a run matched
  /// to a plan's race) or from a measured segment of that distance inside an imported track (its best effort): never
  /// a whole run's average pace over another distance, nor a longer race a shorter one's.
  public var fastest: [String: Double] = [:]
  /// The day of the run whose measured segment holds the record in ``fastest``, by distance; absent when a race
  /// holds it.
  public var fastestSegmentDay: [String: CivilDate] = [:]
  /// The most distance in one Monday-to-Sunday week.
  public var biggestWeek = Distance.zero
  /// Each week's distance, by the day number of its Monday.
  public var weekDistance: [Int: Distance] = [:]
  /// The most days in a row with a run.
  public var longestStreakDays: Int = 0

  static let distances: [(name: String, km: Double)] = [("5k", 5), ("10k", 10), ("half", 21.0975)]
  /// A week is the biggest only against at least this many earlier weeks with runs (the first weeks of a logbook
  /// beat nothing).
  static let weeksToBeat = 3

  /// The records in `completions`; `baselineLongest`: the longest recent run the runner gave (profile or plan), the
  /// mark a "longest run ever" must beat.
  public init(_ completions: [Completion], baselineLongest: Distance = .zero) {
    longestRun = max(.zero, baselineLongest)
    for run in completions {
      longestRun = max(longestRun, run.distance)
      // A race counts for the distance it is (a GPS track reads up to 3 % long: the race's time stands), never for a
      // shorter one: a 10K race is no 5K record.
      if run.isRace, run.durationSeconds.isFinite, run.durationSeconds > 0 {
        for (name, km) in PersonalBests.distances where abs(run.distanceKm - km) <= max(0.05, 0.03 * km) {
          if run.durationSeconds < fastest[name] ?? .infinity {
            fastest[name] = run.durationSeconds
            fastestSegmentDay[name] = nil
          }
        }
      }
      // A segment measured inside the track is a record of its own distance (a race's own time stands when equal).
      if run.isRun {
        for effort in run.bestEfforts {
          for (name, km) in PersonalBests.distances where abs(effort.distanceMeters - km * 1000) < 0.5 {
            if effort.seconds < fastest[name] ?? .infinity {
              fastest[name] = effort.seconds
              fastestSegmentDay[name] = run.date
            }
          }
        }
      }
      let monday = run.date.dayNumber - run.date.weekday.index
      weekDistance[monday, default: .zero] += run.distance
    }
    biggestWeek = weekDistance.values.max() ?? .zero
    let days = Set(completions.map(\.date.dayNumber)).sorted()
    var streak = 0
    var previous: Int?
    for day in days {
      streak = previous.map { day == $0 + 1 } == true ? streak + 1 : 1
      longestStreakDays = max(longestStreakDays, streak)
      previous = day
    }
  }

  /// The records `after` beats compared with `before`, in words, distances in `units`. A week is announced once, when
  /// it first passes every earlier week (at least ``weeksToBeat`` of them).
  public static func improvements(
    from before: PersonalBests, to after: PersonalBests,
    units: DistanceUnit = .km
  ) -> [String] {
    var news: [String] = []
    let margin = Distance(kilometers: 0.01)
    if after.longestRun > before.longestRun + margin && before.longestRun > .zero {
      news.append("longest run ever: \(distanceText(after.longestRun, units))")
    }
    news += fastestImprovements(from: before, to: after)
    for (monday, week) in after.weekDistance where week > (before.weekDistance[monday] ?? .zero) + margin {
      let earlier = before.weekDistance.filter { $0.key < monday }.map(\.value)
      guard earlier.count >= weeksToBeat, let best = earlier.max() else { continue }
      if week > best + margin && (before.weekDistance[monday] ?? .zero) <= best + margin {
        news.append("biggest week: \(distanceText(week, units))")
      }
    }
    if after.longestStreakDays > before.longestStreakDays && before.longestStreakDays > 0
      && after.longestStreakDays >= 3
    {
      news.append("longest streak: \(after.longestStreakDays) days in a row")
    }
    return news
  }

  /// The 5k, 10k and half records `after` beats compared with `before`, in words: "fastest 5k: 24:10 (was 25:00)",
  /// "first 10k race: 45:00", "fastest 5k: 24:10, inside the run of Tue 12 Jan (was 25:00)" for a measured segment.
  public static func fastestImprovements(from before: PersonalBests, to after: PersonalBests) -> [String] {
    var news: [String] = []
    for (name, _) in distances {
      // A segment says where it was measured: "fastest 5k: 24:10, inside the run of Tue 12 Jan (was 25:00)".
      let inside = after.fastestSegmentDay[name].map { ", inside the run of \($0.shortLabel)" } ?? ""
      if let new = after.fastest[name], let old = before.fastest[name], new < old - 0.5 {
        news.append("fastest \(name): \(formatRaceTime(new))\(inside) (was \(formatRaceTime(old)))")
      } else if let new = after.fastest[name], before.fastest[name] == nil {
        news.append(
          inside.isEmpty
            ? "first \(name) race: \(formatRaceTime(new))" : "first measured \(name): \(formatRaceTime(new))\(inside)")
      }
    }
    return news
  }
}

/// `12.5 km` or `7.8 mi`; a value no run can have (a row stored by an older version) is shown as it is, never
/// trapping.
func distanceText(_ distance: Distance, _ units: DistanceUnit = .km) -> String {
  let km = distance.kilometers
  return km.isFinite && abs(km) < 1e12 ? units.format(km) : "\(distance.value(in: units)) \(units.rawValue)"
}
