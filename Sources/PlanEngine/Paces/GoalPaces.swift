import Foundation
import RunningCore

/// Where a plan's VDOT comes from.
public enum VDOTSource: String, Sendable, Hashable, Codable {
  /// `--goal-time`: the VDOT of the goal performance.
  case goalTime = "goal-time"
  /// `--recent-race`: the VDOT of the runner's result.
  case recentRace = "recent-race"
  /// Neither: the level's usual VDOT (`levels.<level>.estimateVdot`), for duration estimates only.
  case levelEstimate = "level-estimate"
  /// `replan --update-paces`: the estimate from the races logged since the plan began (``ResolvedGoal/vdotAsOf``).
  case races
}

/// The VDOT a plan's paces follow, where it comes from, and what the runner should know about it.
struct GoalPaces: Sendable {
  let vdot: VDOT
  let source: VDOTSource
  let warnings: [String]

  /// The goal time's VDOT when one is given (checked against the recent race: at most `vdotGainPerWeek` a week of
  /// the plan above it), else the recent race's, else the level's estimate.
  /// - Throws: ``PlanError`` for an implausible recent race or goal time, or a goal the weeks cannot reach.
  init(goal: Goal, rules: BaseRules) throws(PlanError) {
    var raceVDOT: VDOT?
    if let race = goal.recentRace {
      do throws(VDOTError) {
        raceVDOT = try VDOT(distanceMeters: race.distanceKm * 1000, timeSeconds: race.timeSeconds)
      } catch {
        throw .implausibleRecentRace(error)
      }
    }
    guard let goalTime = goal.goalTimeSeconds else {
      vdot = raceVDOT ?? VDOT(value: rules.levels[goal.level].estimateVdot)
      source = raceVDOT == nil ? .levelEstimate : .recentRace
      warnings = []
      return
    }
    let meters = goal.distance.kilometers * 1000
    let limits = rules.goalTime
    let fastest = VDOT(value: limits.maxVdot).predictedTime(distanceMeters: meters).rounded(.up)
    let slowest = (limits.slowestMinutesPerKm * 60 * goal.distance.kilometers).rounded(.down)
    guard goalTime.isFinite, (fastest...slowest).contains(goalTime) else {
      throw .goalTimeOutOfRange(distance: goal.distance, seconds: goalTime, fastest: fastest, slowest: slowest)
    }
    let wanted = VDOT(value: VDOT.vdot(distanceMeters: meters, minutes: goalTime / 60))
    vdot = wanted
    source = .goalTime
    guard let raceVDOT, let race = goal.recentRace else {
      warnings = []
      return
    }
    let weeks = goal.timeline.weeks
    let reachable = raceVDOT.value + limits.vdotGainPerWeek * Double(weeks)
    // Compared at the tenth shown, so that the message never says "needs 45.3, reachable 45.3".
    if (wanted.value * 10).rounded() > (reachable * 10).rounded() {
      let weeksNeeded = Int(((wanted.value - raceVDOT.value) / limits.vdotGainPerWeek).rounded(.up))
      throw .goalTimeTooAmbitious(
        goalSeconds: goalTime, neededVDOT: wanted.value, race: race, raceVDOT: raceVDOT.value,
        aimForSeconds: VDOT(value: reachable).predictedTime(distanceMeters: meters).rounded(.up),
        weeksNeeded: weeksNeeded, maxWeeks: rules.maxWeeks)
    }
    let predicted = raceVDOT.predictedTime(distanceMeters: meters)
    if (wanted.value * 10).rounded() < (raceVDOT.value * 10).rounded() {
      warnings = [
        "your \(GoalPaces.raceName(race)) (\(formatRaceTime(race.timeSeconds))) predicts "
          + "\(formatRaceTime(predicted)) for the \(goal.distance.displayName): the goal "
          + "\(formatRaceTime(goalTime)) is slower (VDOT \(GoalPaces.tenth(wanted.value)) against "
          + "\(GoalPaces.tenth(raceVDOT.value))), so the paces follow the goal"
      ]
    } else {
      warnings = []
    }
  }

  /// A VDOT as people read it: "48.2", "45.0".
  static func tenth(_ value: Double) -> String { "\((value * 10).rounded() / 10)" }

  /// "10K", "half marathon", or "9.5 km race" for a distance that is none of the race distances.
  static func raceName(_ race: RecentRace) -> String {
    RaceDistance.allCases.first { abs($0.kilometers - race.distanceKm) < 0.001 }?.displayName
      ?? "\(oneDecimal(race.distanceKm)) km race"
  }
}
