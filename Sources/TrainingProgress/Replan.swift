import Foundation
import Logbook
import PlanEngine

/// Why the remaining weeks cannot be rebuilt.
public enum ReplanError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Race day has passed, or is this week with nothing left to rebuild.
  case nothingLeft(raceDate: CivilDate)
  /// The pause ends on or after race day.
  case pauseOverlapsRace(pauseEnd: CivilDate, raceDate: CivilDate)
  /// The plan engine refuses the rebuilt goal (too few weeks left, for instance).
  case plan(PlanError)

  public var description: String {
    switch self {
    case let .nothingLeft(raceDate):
      return "nothing to replan: race day (\(raceDate)) is this week or past"
    case let .pauseOverlapsRace(pauseEnd, raceDate):
      return "--pause: it ends on \(pauseEnd), on or after race day (\(raceDate)); allowed is a pause that ends before it"
    case let .plan(error):
      return "the remaining weeks cannot be rebuilt: \(error)"
    }
  }
}

/// How one week changed.
public struct WeekChange: Sendable, Hashable {
  /// The week.
  public var number: Int
  /// Planned km before and after.
  public var beforeKm: Double
  /// Planned km after.
  public var afterKm: Double
  /// Workouts before (titles with days).
  public var before: [String]
  /// Workouts after.
  public var after: [String]
}

/// A rebuilt plan and what changed.
public struct Replan: Sendable, Hashable {
  /// The plan with its remaining weeks rebuilt (same id, so saving replaces it and exports update in place).
  public var plan: Plan
  /// The weeks that changed.
  public var changes: [WeekChange]
  /// The starting point the rebuild used, in words.
  public var basis: String
}

/// Rebuilds the weeks from the current one (or the first week after a pause) to race day from what was actually
/// run, keeping the race date and every rule of the plan engine: the new first week ramps from the volume of the
/// last 7 days of logged running (70 % of the week before a pause of a week or more; never below 70 % of the last
/// two planned weeks), and the spike guard starts from the longest logged run of the last four weeks. With too
/// little volume for the plan's runs a week, it plans fewer runs.
///
/// - Parameters:
///   - plan: the saved plan.
///   - completions: every logged run.
///   - today: the day of the replan; weeks before the current one stay as they were.
///   - pause: days with no running (illness, travel); the rebuild starts the week after it ends.
/// - Throws: ``ReplanError``.
public func replan(_ plan: Plan, completions: [Completion], today: CivilDate, pause: ClosedRange<CivilDate>?,
                   rules: PlanRules) throws(ReplanError) -> Replan {
  let race = plan.goal.raceDate
  if let pause, pause.upperBound >= race { throw .pauseOverlapsRace(pauseEnd: pause.upperBound, raceDate: race) }
  let resumeDay = max(today, pause.map { $0.upperBound.adding(days: 1) } ?? today)
  guard let resumeIndex = plan.weeks.firstIndex(where: { resumeDay <= $0.start.adding(days: 6) }),
        resumeIndex < plan.weeks.count - 1 || plan.weeks[resumeIndex].start >= resumeDay else {
    throw .nothingLeft(raceDate: race)
  }
  let resume = plan.weeks[resumeIndex]
  // Where the runner really is: the last 7 days of running before the rebuild, the longest run of 28 days.
  let before = resume.start
  let lastWeek = completions.filter { before.adding(days: -7) <= $0.date && $0.date < before }
  let lastMonth = completions.filter { before.adding(days: -28) <= $0.date && $0.date < before }
  var current = lastWeek.map(\.distanceKm).reduce(0, +)
  var basis = "last 7 days before \(before.shortLabel): \(DistanceUnit.km.format(current))"
  if let pause, pause.lowerBound.days(to: pause.upperBound) >= 6 {
    let beforePause = completions.filter { pause.lowerBound.adding(days: -7) <= $0.date && $0.date < pause.lowerBound }
    current = 0.7 * beforePause.map(\.distanceKm).reduce(0, +)
    basis = "70 % of the week before the pause: \(DistanceUnit.km.format(current))"
  }
  // Never below 70 % of what the last two plan weeks asked for (the same as after a pause): a missed week lowers
  // the ramp's start, it does not restart the plan from nothing.
  let planned = plan.weeks.prefix(resumeIndex).suffix(2).map(\.plannedKm)
  let floor = max(6, planned.isEmpty ? 0 : 0.7 * planned.reduce(0, +) / Double(planned.count))
  if current < floor {
    current = floor
    basis += " (raised to \(DistanceUnit.km.format(floor)), 70 % of the last planned weeks)"
  }
  let longest = max(3, lastMonth.map(\.distanceKm).max() ?? 3)
  basis += "; longest run of the last 4 weeks: \(DistanceUnit.km.format(min(longest, current)))"
  let remaining = plan.weeks.count - resumeIndex
  let recent = plan.goal.predictedTimeSeconds.map { RecentRace(distanceKm: plan.goal.distanceKm, timeSeconds: Double($0)) }
  var goal = Goal(distance: plan.goal.distance, level: plan.goal.level,
                  timeline: Timeline(start: resume.start, raceDate: race, weeks: remaining),
                  runsPerWeek: plan.goal.runsPerWeek, currentWeeklyKm: current,
                  longestRecentRunKm: min(longest, current), recentRace: recent)
  let rebuilt: Plan
  do {
    rebuilt = try makePlan(goal: goal, rules: rules)
  } catch let PlanError.tooManyRuns(runs, _, _, maxRuns) where maxRuns < runs {
    // Fewer runs a week until the volume is back.
    goal.runsPerWeek = maxRuns
    basis += "; \(maxRuns) runs a week instead of \(runs) while the volume is low"
    do {
      rebuilt = try makePlan(goal: goal, rules: rules)
    } catch {
      throw .plan(error)
    }
  } catch {
    throw .plan(error)
  }
  // The rebuilt weeks take the old plan's numbers and ids, so saved matches and calendar UIDs stay meaningful.
  var weeks = Array(plan.weeks.prefix(resumeIndex))
  for (offset, var week) in rebuilt.weeks.enumerated() {
    week.number = resumeIndex + offset + 1
    week.workouts = week.workouts.map { workout in
      var copy = workout
      copy.id = "\(plan.id)-w\(week.number < 10 ? "0" : "")\(week.number)-\(workout.slot)"
      return copy
    }
    weeks.append(week)
  }
  // The pause's days are empty, in kept and rebuilt weeks alike.
  if let pause {
    for index in weeks.indices where weeks[index].workouts.contains(where: { pause.contains($0.date) }) {
      weeks[index].rules.insert("Paused \(pause.lowerBound.shortLabel)–\(pause.upperBound.shortLabel)", at: 0)
      weeks[index].workouts.removeAll { pause.contains($0.date) }
      weeks[index].plannedKm = (weeks[index].workouts.map(\.distanceKm).reduce(0, +) * 10).rounded() / 10
    }
  }
  var result = plan
  result.weeks = weeks
  result.warnings = ["replanned on \(today) from \(basis)"] + rebuilt.warnings
  var changes: [WeekChange] = []
  for (old, new) in zip(plan.weeks, weeks) where old != new {
    changes.append(WeekChange(number: old.number, beforeKm: old.plannedKm, afterKm: new.plannedKm,
                              before: old.workouts.map { "\($0.date.shortLabel) \($0.title)" },
                              after: new.workouts.map { "\($0.date.shortLabel) \($0.title)" }))
  }
  return Replan(plan: result, changes: changes, basis: basis)
}
