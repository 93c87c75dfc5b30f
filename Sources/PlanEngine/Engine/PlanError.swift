import Foundation
import RunningCore

/// Why a plan cannot be made from the inputs. Every message names the option, the value and what is allowed,
/// with a suggestion where one exists.
public enum PlanError: FieldError, Sendable, Equatable {
  /// A value outside its range.
  case outOfRange(field: InputField, value: String, allowed: String)
  /// The race date is more than `maxWeeks` weeks after the start (`first`): the last allowed race day is `last`.
  case raceTooFar(raceDate: CivilDate, first: CivilDate, last: CivilDate, maxWeeks: Int)
  /// More weekly volume than 7 runs of the longest recent run.
  case volumeAboveLongestRun(weeklyKm: Double, longestKm: Double)
  /// Neither `--weeks` nor `--race-date`.
  case missingTimeline
  /// The race date is today or earlier.
  case raceDateNotInFuture(raceDate: CivilDate, today: CivilDate)
  /// `--start` on or after the race.
  case startNotBeforeRace(start: CivilDate, raceDate: CivilDate)
  /// `--weeks`, `--start` and `--race-date` disagree.
  case inconsistentTimeline(weeks: Int, start: CivilDate, raceDate: CivilDate)
  /// Even a compressed plan would be unsafe.
  case timelineTooShort(
    distance: RaceDistance, level: Level, weeks: Int, absolute: Int, recommended: Int,
    earliestRaceDate: CivilDate, recommendedRaceDate: CivilDate, alternatives: [RaceDistance])
  /// Too little running to start this distance.
  case insufficientBase(distance: RaceDistance, field: InputField, value: Double, required: Double)
  /// More runs than the weekly volume can fill.
  case tooManyRuns(runs: Int, weeklyKm: Double, minRunKm: Double, maxRuns: Int)
  /// The longest recent run is longer than a whole week's running.
  case longestRunAboveWeekly(longestKm: Double, weeklyKm: Double)
  /// The rules have no file for this distance.
  case missingDistanceRules(RaceDistance)
  /// A recent race that gives no plausible VDOT.
  case implausibleRecentRace(VDOTError)
  /// The weeks cannot bring the long run to what the race needs (the spike guard's +10 % a week from the longest
  /// recent run): the fix is a later race (`weeksNeeded`, with a base phase first), another number of runs a week
  /// (`runsPerWeek`, fewer or more), or a shorter distance.
  case longRunShort(
    distance: RaceDistance, weeks: Int, longestKm: Double, reachedKm: Double, needKm: Double,
    weeksNeeded: Int?, raceDate: CivilDate?, runsPerWeek: Int?, alternatives: [RaceDistance])
  /// A goal time faster than the world records or slower than a walk (`fastest`…`slowest`, seconds).
  case goalTimeOutOfRange(distance: RaceDistance, seconds: Double, fastest: Double, slowest: Double)
  /// A goal time whose VDOT the plan's weeks cannot reach from the recent race's.
  case goalTimeTooAmbitious(
    goalSeconds: Double, neededVDOT: Double, race: RecentRace, raceVDOT: Double, aimForSeconds: Double,
    weeksNeeded: Int, maxWeeks: Int)

  /// The message for a runner: one line naming what is wrong and what is allowed, each input named by `name`.
  public func message(naming flag: (InputField) -> String) -> String {
    switch self {
    case .outOfRange(let field, let value, let allowed):
      return "\(flag(field)): \(value) is out of range, allowed is \(allowed)"
    case .raceTooFar(let race, let first, let last, let maxWeeks):
      return "\(flag(.raceDate)): \(race) is out of range, allowed is at most \(maxWeeks) weeks after the start "
        + "(\(first)), that is on or before \(last); use \(flag(.start)) to begin later"
    case .volumeAboveLongestRun(let weekly, let longest):
      return "\(flag(.currentWeeklyKm)): \(formatKm(weekly)) km is out of range, allowed is at most 7 runs of your "
        + "longest recent run (\(formatKm(7 * longest)) km); check \(flag(.longestRecentRunKm))"
    case .missingTimeline:
      return "no timeline: give \(flag(.weeks)) N (1-40) or \(flag(.raceDate)) YYYY-MM-DD"
    case .raceDateNotInFuture(let raceDate, let today):
      return "\(flag(.raceDate)): \(raceDate) is not in the future (today is \(today)); give a date after today"
    case .startNotBeforeRace(let start, let raceDate):
      return "\(flag(.start)): \(start) is not before the race date \(raceDate); start earlier or pick a later race"
    case .inconsistentTimeline(let weeks, let start, let raceDate):
      return
        "\(flag(.weeks)) \(weeks), \(flag(.start)) \(start) and \(flag(.raceDate)) \(raceDate) disagree: a \(weeks)-week plan from "
        + "\(start) has its race between \(start.adding(days: 7 * (weeks - 1))) and \(start.adding(days: 7 * weeks - 1)); "
        + "drop one of the three"
    case .timelineTooShort(
      let distance, let level, let weeks, let absolute, let recommended, let earliest, let recommendedDate,
      let alternatives):
      var text =
        "\(flag(.weeks)): \(weeks) is too short for a \(level.rawValue) \(distance.displayName) plan, allowed is at "
        + "least \(absolute) weeks (\(recommended) recommended); choose a race on or after \(earliest) "
        + "(\(recommendedDate) for \(recommended) weeks)"
      if !alternatives.isEmpty {
        text += ", or a shorter distance: \(alternatives.map(\.rawValue).joined(separator: ", "))"
      }
      return text
    case .insufficientBase(let distance, let field, let value, let required):
      return
        "\(flag(field)): \(formatKm(value)) km is too little to start a \(distance.displayName) plan, allowed is at least "
        + "\(formatKm(required)) km; build up first, or train for a half marathon"
    case .tooManyRuns(let runs, let weeklyKm, let minRunKm, let maxRuns):
      return "\(flag(.runsPerWeek)): \(runs) runs with \(formatKm(weeklyKm)) km a week makes runs shorter than "
        + "\(formatKm(minRunKm)) km, allowed is at most \(maxRuns) at this volume; run fewer days or give a higher "
        + flag(.currentWeeklyKm)
    case .longestRunAboveWeekly(let longest, let weekly):
      return
        "\(flag(.longestRecentRunKm)): \(formatKm(longest)) km is more than the weekly \(formatKm(weekly)) km, allowed is "
        + "at most the weekly volume; check \(flag(.currentWeeklyKm))"
    case .implausibleRecentRace(let error):
      return "\(flag(.recentRace)): \(error)"
    case .longRunShort(
      let distance, let weeks, let longest, let reached, let need, let weeksNeeded, let raceDate, let runsPerWeek,
      let alternatives):
      var fixes: [String] = []
      if let weeksNeeded, let raceDate {
        fixes.append("a race on or after \(raceDate) (\(weeksNeeded) weeks, a base phase first)")
      }
      if let runsPerWeek { fixes.append("\(flag(.runsPerWeek)) \(runsPerWeek)") }
      if !alternatives.isEmpty {
        fixes.append("a shorter distance: \(alternatives.map(\.rawValue).joined(separator: ", "))")
      }
      return
        "\(flag(.weeks)): \(weeks) weeks from a longest recent run of \(formatKm(longest)) km bring the long run to "
        + "\(formatKm(reached)) km, the \(distance.displayName) needs \(formatKm(need)) km (the long run grows at most "
        + "10 % a week and takes at most its share of the week); allowed is "
        + (fixes.isEmpty ? "a longer plan" : fixes.joined(separator: ", or "))
    case .goalTimeOutOfRange(let distance, let seconds, let fastest, let slowest):
      return "\(flag(.goalTime)): \(formatRaceTime(seconds)) is out of range for a \(distance.displayName), allowed is "
        + "\(formatRaceTime(fastest)) (the world records' level) to \(formatRaceTime(slowest)) (a brisk walk); "
        + "check the time (h:mm:ss or m:ss)"
    case .goalTimeTooAmbitious(
      let goal, let needed, let race, let raceVDOT, let aimFor, let weeksNeeded, let maxWeeks):
      let more =
        weeksNeeded <= maxWeeks
        ? "or give it \(weeksNeeded) weeks (\(flag(.weeks)) \(weeksNeeded))"
        : "or race first and plan again: it needs \(weeksNeeded) weeks, more than the \(maxWeeks) a plan can have"
      return "\(flag(.goalTime)) \(formatRaceTime(goal)) needs VDOT \(GoalPaces.tenth(needed)), your "
        + "\(GoalPaces.raceName(race)) (\(formatRaceTime(race.timeSeconds))) says \(GoalPaces.tenth(raceVDOT)): "
        + "aim for \(formatRaceTime(aimFor)), \(more)"
    case .missingDistanceRules(let distance):
      return "the plan templates have no rules for \(distance.rawValue) (\(distance.templateName).yaml)"
    }
  }
}

/// `12`, `12.5`, `16.1`: kilometres with at most one decimal.
func formatKm(_ km: Double) -> String {
  oneDecimal(km)
}

extension PlanError {
  /// Every plan error is about what was asked for.
  public var kind: FailureKind { .badInput }
}
