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
  /// The VDOT of the training paces: the runner's current fitness when it is known.
  let vdot: VDOT
  let source: VDOTSource
  /// The goal time, seconds, when one is given: race pace (and, for the marathon, marathon pace) follows it.
  let goalSeconds: Double?
  let warnings: [String]

  /// The training paces: with a recent race, its VDOT (Daniels: train at the fitness you have, and move the paces
  /// when a race shows more), the goal time (checked against it: at most `vdotGainPerWeek` a week of the plan above
  /// it) only setting race pace, or every pace when it is slower than the race; with a goal time alone, the goal's
  /// VDOT; else the level's estimate.
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
      goalSeconds = nil
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
    goalSeconds = goalTime
    guard let raceVDOT, let race = goal.recentRace else {
      vdot = wanted
      source = .goalTime
      warnings =
        GoalPaces.unbackedGoalWarning(goal: goal, goalSeconds: goalTime, wanted: wanted, rules: rules).map { [$0] }
        ?? []
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
    let (goalTenths, raceTenths) = ((wanted.value * 10).rounded(), (raceVDOT.value * 10).rounded())
    if goalTenths > raceTenths {
      // A faster goal: the training paces stay at the race's fitness, the goal is race pace.
      vdot = raceVDOT
      source = .recentRace
      let racePace = goal.distance == .marathon ? "marathon and race pace" : "race pace"
      warnings = [
        "training paces from your \(GoalPaces.raceName(race)) (\(formatRaceTime(race.timeSeconds)), VDOT "
          + "\(GoalPaces.tenth(raceVDOT.value))), the fitness you have; the goal \(formatRaceTime(goalTime)) (VDOT "
          + "\(GoalPaces.tenth(wanted.value))) sets \(racePace) (Daniels: train at your current VDOT and raise it "
          + "when a race shows more: log your races and replan moves them)"
      ]
      return
    }
    vdot = wanted
    source = .goalTime
    if goalTenths < raceTenths {
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

  /// A goal with no race behind it, questioned when it is well ahead of what the runner's volume usually supports:
  /// Tanda's marathon model (Tanda 2011, J Hum Sport Exerc 6(3): marathon pace = 17.1 + 140 e^(-0.0053 K) + 0.55 P
  /// s/km, K the weekly km, P the mean training pace, taken as the goal's own easy pace) gives the VDOT the volume
  /// supports; a goal more than `goalTime.unbackedMarginVdot` above it gets a warning (the plan still follows it).
  static func unbackedGoalWarning(goal: Goal, goalSeconds: Double, wanted: VDOT, rules: BaseRules) -> String? {
    guard let margin = rules.goalTime.unbackedMarginVdot, let weekly = goal.currentWeeklyKm, weekly > 0 else {
      return nil
    }
    let training = wanted.pace(atFraction: TrainingPaces.typicalEasyFraction).secondsPerKilometer
    let marathonPace = 17.1 + 140 * exp(-0.0053 * weekly) + 0.55 * training
    let marathonKm = RaceDistance.marathon.kilometers
    let supported = VDOT.vdot(distanceMeters: marathonKm * 1000, minutes: marathonPace * marathonKm / 60)
    guard wanted.value > supported + margin else { return nil }
    return "the goal \(formatRaceTime(goalSeconds)) (VDOT \(tenth(wanted.value))) has no race behind it "
      + "and is well ahead of what \(Int(weekly.rounded())) km a week usually supports (about VDOT "
      + "\(Int(supported.rounded())), Tanda's marathon model): the paces follow the goal; a recent race "
      + "would check it, and if the sessions feel too hard, aim lower"
  }

  /// A VDOT as people read it: "48.2", "45.0".
  static func tenth(_ value: Double) -> String { "\((value * 10).rounded() / 10)" }

  /// "10K", "half marathon", or "9.5 km race" for a distance that is none of the race distances.
  static func raceName(_ race: RecentRace) -> String {
    RaceDistance.allCases.first { abs($0.kilometers - race.distanceKm) < 0.001 }?.displayName
      ?? "\(oneDecimal(race.distanceKm)) km race"
  }
}
