import Foundation
import Logbook
import PlanEngine
import RunningCore
import TrainingDomain

/// `runmate paces`: the runner's current VDOT (the plan's, moved by the races logged since and raised by the hard
/// efforts measured inside imported runs), its source and date, the training paces and the race predictions by
/// Daniels and by Riegel. Metric; the CLI renders it in the runner's unit.
public struct PacesReport: Sendable, Encodable {
  /// One training pace: a zone's pace range (one pace but for easy).
  public struct ZonePace: Sendable, Encodable, Hashable {
    /// `easy`, `marathon`, `threshold`, `interval`, `repetition`.
    public var zone: String
    /// The fast end.
    public var fast: Pace
    /// The slow end (the fast end but for easy).
    public var slow: Pace

    enum CodingKeys: String, CodingKey {
      case zone
      case fast = "fast_s_per_km"
      case slow = "slow_s_per_km"
    }

    /// Seconds a kilometre, as `runmate.paces/1` has them.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(zone, forKey: .zone)
      try container.encode(fast.secondsPerKilometer, forKey: .fast)
      try container.encode(slow.secondsPerKilometer, forKey: .slow)
    }
  }

  /// A race prediction: Daniels' from the current VDOT, Riegel's from the source performance.
  public struct Prediction: Sendable, Encodable, Hashable {
    /// `5k`, `10k`, `half`, `marathon`.
    public var distance: RaceDistance
    /// Kilometres.
    public var distanceKm: Double
    /// Daniels–Gilbert at the current VDOT, seconds.
    public var danielsSeconds: Double
    /// Riegel (T2 = T1 × (D2/D1)^1.06) from ``PacesReport/riegelFrom``, seconds.
    public var riegelSeconds: Double

    enum CodingKeys: String, CodingKey {
      case distance
      case distanceKm = "distance_km"
      case danielsSeconds = "daniels_s"
      case riegelSeconds = "riegel_s"
    }
  }

  /// A logged race and what it did to the estimate.
  public struct Race: Sendable, Encodable, Hashable {
    /// The day.
    public var date: CivilDate
    /// Its distance.
    public var distance: Distance
    /// Seconds.
    public var timeSeconds: Double
    /// The race's own VDOT (null when not plausible).
    public var vdot: Double?
    /// Whether it moved the estimate.
    public var counted: Bool
    /// The estimate after it (null when not counted).
    public var vdotAfter: Double?
    /// Whether the cap held the estimate short of the race's VDOT.
    public var capped: Bool
    /// Why it does not count (null when counted).
    public var reason: String?

    enum CodingKeys: String, CodingKey {
      case date, vdot, counted, capped, reason
      case distance = "distance_km"
      case timeSeconds = "time_s"
      case vdotAfter = "vdot_after"
    }

    /// The distance in kilometres, as `runmate.paces/1` has it.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(date, forKey: .date)
      try container.encode(distance.kilometers, forKey: .distance)
      try container.encode(timeSeconds, forKey: .timeSeconds)
      try container.encodeIfPresent(vdot, forKey: .vdot)
      try container.encode(counted, forKey: .counted)
      try container.encodeIfPresent(vdotAfter, forKey: .vdotAfter)
      try container.encode(capped, forKey: .capped)
      try container.encodeIfPresent(reason, forKey: .reason)
    }
  }

  /// The performance Riegel's predictions scale from.
  public struct Performance: Sendable, Encodable, Hashable {
    /// Kilometres.
    public var distanceKm: Double
    /// Seconds.
    public var timeSeconds: Double
    /// In words: "10K race on 2026-12-12, 45:00", "the plan's predicted half marathon, 1:55:18".
    public var text: String

    enum CodingKeys: String, CodingKey {
      case text
      case distanceKm = "distance_km"
      case timeSeconds = "time_s"
    }
  }

  /// Whether a goal time is on track, judged from the latest race that counts.
  public struct GoalCheck: Sendable, Encodable, Hashable {
    /// `on-track` (the race's VDOT reaches the goal's), `within-reach` (the weeks left can close the gap at
    /// `goalTime.vdotGainPerWeek`), `behind` (they cannot), `unknown` (no race since the plan began).
    public enum Status: String, Sendable, Encodable, Hashable {
      case onTrack = "on-track"
      case withinReach = "within-reach"
      case behind, unknown
    }

    /// The goal time, seconds.
    public var goalSeconds: Double
    /// The goal's VDOT.
    public var goalVDOT: Double
    /// The verdict.
    public var status: Status
    /// The race it is judged from (null when unknown).
    public var race: String?
    /// The race's VDOT (null when unknown).
    public var raceVDOT: Double?
    /// The race's prediction for the goal's distance (Daniels), seconds (null when unknown).
    public var predictedSeconds: Double?
    /// Whole weeks from today to race day.
    public var weeksLeft: Int
    /// The VDOT the weeks left can reach from the race's (null when unknown).
    public var reachableVDOT: Double?
    /// The time to aim for when behind: the prediction at ``reachableVDOT`` (else null).
    public var aimForSeconds: Double?
    /// The verdict in words.
    public var text: String

    enum CodingKeys: String, CodingKey {
      case status, race, text
      case goalSeconds = "goal_time_s"
      case goalVDOT = "goal_vdot"
      case raceVDOT = "race_vdot"
      case predictedSeconds = "predicted_s"
      case weeksLeft = "weeks_left"
      case reachableVDOT = "reachable_vdot"
      case aimForSeconds = "aim_for_s"
    }

    /// How far back a race counts for the check, days: the best race of these weeks judges (a race on a bad day
    /// does not make a goal "behind" while a better one stands), else the latest.
    public static let lookbackDays = 42

    /// The check of `saved`'s goal time on `today` from the best of the races among `completions` (those of the
    /// plan's window that set paces: `rules.paceUpdates.minRaceKm` or more, a plausible VDOT, including races the
    /// plan's paces took in) run in the last ``lookbackDays``, else the latest; nil for a plan without a goal time.
    public init?(_ saved: SavedPlan, completions: [Completion], rules: BaseRules, today: CivilDate) {
      guard let seconds = saved.plan.goal.goalTimeSeconds else { return nil }
      let since = VDOTEstimate.planSince(saved)
      let races: [(race: RaceEvidence, vdot: Double)] = completions.filter(\.isRace).compactMap { run in
        let race = RaceEvidence(date: run.date, distanceKm: run.distanceKm, timeSeconds: run.durationSeconds)
        guard since <= race.date, race.date <= today, race.distanceKm >= rules.paceUpdates.minRaceKm - 1e-9,
          let vdot = race.vdot
        else { return nil }
        return (race, vdot)
      }
      self.init(
        goalSeconds: Double(seconds), goal: saved.plan.goal, races: races, today: today,
        gainPerWeek: rules.goalTime.vdotGainPerWeek)
    }

    init(
      goalSeconds: Double, goal: ResolvedGoal, races: [(race: RaceEvidence, vdot: Double)], today: CivilDate,
      gainPerWeek: Double
    ) {
      let meters = goal.distanceKm * 1000
      let name = goal.distance.displayName
      let tenth = { (value: Double) in String(format: "%.1f", value) }
      self.goalSeconds = goalSeconds
      goalVDOT = VDOT.vdot(distanceMeters: meters, minutes: goalSeconds / 60)
      weeksLeft = max(0, today.days(to: goal.raceDate) / 7)
      let goalText = "Goal \(formatRaceTime(goalSeconds)) for the \(name)"
      let recent = races.filter { $0.race.date >= today.adding(days: -Self.lookbackDays) }
      let latest = races.max { ($0.race.date, $0.race.distanceKm) < ($1.race.date, $1.race.distanceKm) }
      guard let step = recent.max(by: { $0.vdot < $1.vdot }) ?? latest else {
        status = .unknown
        text =
          "\(goalText): not judged yet: log a race of 3 km or more (its distance and time, marked as a race)"
        return
      }
      let predicted = VDOT(value: step.vdot).predictedTime(distanceMeters: meters)
      let reachable = step.vdot + gainPerWeek * Double(weeksLeft)
      race = step.race.summary
      raceVDOT = step.vdot
      predictedSeconds = predicted
      reachableVDOT = reachable
      let evidence =
        "your \(step.race.name) on \(step.race.date.shortLabel) (\(formatRaceTime(step.race.timeSeconds)))"
        + (recent.count > 1 ? ", your best race of the last \(Self.lookbackDays / 7) weeks," : "") + " predicts "
        + "\(formatRaceTime(predicted)) (VDOT \(tenth(step.vdot)); the goal needs \(tenth(goalVDOT))"
      // Compared at the tenth shown, so that the words never contradict the numbers.
      let (raceTenths, goalTenths) = ((step.vdot * 10).rounded(), (goalVDOT * 10).rounded())
      if raceTenths >= goalTenths {
        status = .onTrack
        text = "\(goalText): on track: \(evidence))"
      } else if (reachable * 10).rounded() >= goalTenths {
        status = .withinReach
        text =
          "\(goalText): within reach: \(evidence), and \(weeksLeft) weeks at up to \(tenth(gainPerWeek)) a week "
          + "give \(tenth(reachable)))"
      } else {
        status = .behind
        let aim = VDOT(value: reachable).predictedTime(distanceMeters: meters).rounded(.up)
        aimForSeconds = aim
        text =
          "\(goalText): behind: \(evidence), and \(weeksLeft) weeks at up to \(tenth(gainPerWeek)) a week give "
          + "\(tenth(reachable))): aim for \(formatRaceTime(aim))"
      }
    }
  }

  /// `runmate.paces/1`.
  public var schema = "runmate.paces/1"
  /// The plan's name and id.
  public var planName: String
  /// The plan's id.
  public var planID: String
  /// The day the estimate is for.
  public var today: CivilDate
  /// The current VDOT.
  public var vdot: Double
  /// The plan's VDOT (what its paces follow today).
  public var planVDOT: Double
  /// Where the plan's VDOT comes from.
  public var planVDOTSource: VDOTSource
  /// `race` when a logged race set the current VDOT, `effort` when a best effort measured inside a run did, else
  /// `plan`.
  public var source: String
  /// The source in words: "10K race on 2026-12-12, 45:00", "fastest 5 km inside the run of Tue 12 Jan, 24:10",
  /// "the plan's recent race (saved 2026-11-20)".
  public var sourceText: String
  /// The source's day: the race's, else the plan's (the earlier of its first day and the day it was saved).
  public var sourceDate: CivilDate
  /// Whether the cap held the current VDOT short of the latest race's.
  public var capped: Bool
  /// The most a race moves the VDOT (`paceUpdates.maxStepVdot`).
  public var maxStepVdot: Double
  /// Training paces at the current VDOT.
  public var paces: [ZonePace]
  /// Race predictions at the current VDOT (Daniels) and from ``riegelFrom`` (Riegel).
  public var predictions: [Prediction]
  /// What Riegel scales from.
  public var riegelFrom: Performance
  /// The logged races, most recent first.
  public var races: [Race]
  /// Whether the goal time is on track (null for a plan without a goal time).
  public var goalCheck: GoalCheck?
  /// The best efforts measured inside the runs since the plan began (the fastest of ``PaceUpdateRules/minEffortKm``
  /// or more of each run, not races), most recent first: counted when they raised the estimate, else why not.
  public var efforts: [Race]
  /// The runner's heart-rate zones (null when the profile lacks the heart rates).
  public var heartRateZones: HeartRateZones?
  /// What the profile lacks for heart-rate zones, in words (null when it has zones).
  public var heartRateMissing: String?

  enum CodingKeys: String, CodingKey {
    case schema, today, vdot, source, capped, paces, predictions, races, efforts
    case heartRateZones = "heart_rate_zones"
    case heartRateMissing = "heart_rate_missing"
    case planName = "plan_name"
    case planID = "plan_id"
    case planVDOT = "plan_vdot"
    case planVDOTSource = "plan_vdot_source"
    case sourceText = "source_text"
    case sourceDate = "source_date"
    case maxStepVdot = "max_step_vdot"
    case riegelFrom = "riegel_from"
    case goalCheck = "goal_check"
  }

  /// The paces of `saved` on `today` from the races among `completions` (``Completion/isRace``), by `rules`, and the
  /// heart-rate zones of `profile`.
  public init(
    _ saved: SavedPlan, completions: [Completion], rules: BaseRules, today: CivilDate, profile: Profile? = nil
  ) {
    heartRateZones = profile?.heartRateZones
    if heartRateZones == nil {
      heartRateMissing =
        HeartRateZones.missing(
          model: profile?.heartRateZoneModel, resting: profile?.restingHeartRate, maximum: profile?.maxHeartRate,
          threshold: profile?.lactateThresholdHeartRate) ?? "heart rates"
    }

    let goal = saved.plan.goal
    let estimate = VDOTEstimate.forPlan(saved, completions: completions, rules: rules, today: today)
    planName = saved.name
    planID = saved.id
    self.today = today
    vdot = estimate.vdot
    planVDOT = estimate.planVDOT
    planVDOTSource = estimate.planSource
    maxStepVdot = rules.paceUpdates.maxStepVdot
    let since = VDOTEstimate.planSince(saved)
    let current = VDOT(value: estimate.vdot)
    if let step = estimate.steps.first {
      source = step.race.isEffort ? "effort" : "race"
      sourceText = step.race.summary
      sourceDate = step.race.date
      capped = step.capped
      riegelFrom = Performance(
        distanceKm: step.race.distanceKm, timeSeconds: step.race.timeSeconds, text: step.race.summary)
    } else {
      source = "plan"
      capped = false
      sourceDate = since
      let planVDOT = VDOT(value: estimate.planVDOT)
      let goalSeconds =
        goal.predictedTimeSeconds.map(Double.init)
        ?? planVDOT.predictedTime(distanceMeters: goal.distanceKm * 1000)
      switch estimate.planSource {
      case .recentRace: sourceText = "the plan's recent race (plan from \(since))"
      case .goalTime: sourceText = "the plan's goal time, \(formatRaceTime(goalSeconds)) (plan from \(since))"
      case .levelEstimate:
        sourceText = "the \(goal.level.rawValue) level's estimate, no race yet (plan from \(since))"
      case .races:
        sourceText = "your races to \(goal.vdotAsOf.map { "\($0)" } ?? "\(since)"), put in the plan by replan"
      }
      riegelFrom = Performance(
        distanceKm: goal.distanceKm, timeSeconds: goalSeconds,
        text: "the plan's \(goal.distance.displayName), \(formatRaceTime(goalSeconds))")
    }
    let easy = current.easy
    paces =
      [
        ZonePace(
          zone: "easy", fast: easy.lowerBound, slow: easy.upperBound)
      ]
      + [
        ("marathon", current.marathon), ("threshold", current.threshold), ("interval", current.interval),
        ("repetition", current.repetition),
      ].map { zone, pace in
        ZonePace(zone: zone, fast: pace, slow: pace)
      }
    let from = riegelFrom
    predictions = [RaceDistance.fiveK, .tenK, .half, .marathon].map { distance in
      Prediction(
        distance: distance, distanceKm: distance.kilometers,
        danielsSeconds: current.predictedTime(distanceMeters: distance.kilometers * 1000),
        riegelSeconds: riegelTime(from: from.timeSeconds, overKm: from.distanceKm, toKm: distance.kilometers))
    }
    let counted = estimate.steps.map { step in
      Race(
        date: step.race.date, distance: Distance(kilometers: step.race.distanceKm), timeSeconds: step.race.timeSeconds,
        vdot: step.raceVDOT, counted: true, vdotAfter: step.after, capped: step.capped, reason: nil)
    }
    let left = estimate.ignored.map { ignored in
      Race(
        date: ignored.race.date, distance: Distance(kilometers: ignored.race.distanceKm),
        timeSeconds: ignored.race.timeSeconds,
        vdot: ignored.race.vdot, counted: false, vdotAfter: nil, capped: false, reason: ignored.reason)
    }
    let all =
      Array(zip(estimate.steps.map(\.race.isEffort), counted))
      + Array(zip(estimate.ignored.map(\.race.isEffort), left))
    races = all.filter { !$0.0 }.map(\.1).sorted { ($0.date, $0.distance) > ($1.date, $1.distance) }
    efforts = all.filter { $0.0 }.map(\.1).sorted { ($0.date, $0.distance) > ($1.date, $1.distance) }
    goalCheck = GoalCheck(saved, completions: completions, rules: rules, today: today)
    rounded()
  }

  /// VDOTs to the hundredth, times and paces to the tenth of a second: what JSON readers need, without float noise.
  private mutating func rounded() {
    func hundredth(_ value: Double) -> Double { (value * 100).rounded() / 100 }
    func tenth(_ value: Double) -> Double { (value * 10).rounded() / 10 }
    vdot = hundredth(vdot)
    planVDOT = hundredth(planVDOT)
    for index in paces.indices {
      paces[index].fast.secondsPerKilometer = tenth(paces[index].fast.secondsPerKilometer)
      paces[index].slow.secondsPerKilometer = tenth(paces[index].slow.secondsPerKilometer)
    }
    for index in predictions.indices {
      predictions[index].danielsSeconds = tenth(predictions[index].danielsSeconds)
      predictions[index].riegelSeconds = tenth(predictions[index].riegelSeconds)
    }
    for index in races.indices {
      races[index].vdot = races[index].vdot.map(hundredth)
      races[index].vdotAfter = races[index].vdotAfter.map(hundredth)
    }
    for index in efforts.indices {
      efforts[index].vdot = efforts[index].vdot.map(hundredth)
      efforts[index].vdotAfter = efforts[index].vdotAfter.map(hundredth)
      efforts[index].timeSeconds = tenth(efforts[index].timeSeconds)
    }
    if var check = goalCheck {
      check.goalVDOT = hundredth(check.goalVDOT)
      check.raceVDOT = check.raceVDOT.map(hundredth)
      check.reachableVDOT = check.reachableVDOT.map(hundredth)
      check.predictedSeconds = check.predictedSeconds.map(tenth)
      goalCheck = check
    }
  }
}

extension VDOTEstimate {
  /// The estimate for `saved` on `today`: its VDOT (the level's estimate when it has none) moved by the races among
  /// `completions` run from ``planSince(_:)`` on, and raised by the best efforts measured inside the other runs (of
  /// each run, the effort of `paceUpdates.minEffortKm` or more with the highest VDOT).
  public static func forPlan(_ saved: SavedPlan, completions: [Completion], rules: BaseRules, today: CivilDate)
    -> VDOTEstimate
  {
    let goal = saved.plan.goal
    let races = completions.filter(\.isRace).map {
      RaceEvidence(date: $0.date, distanceKm: $0.distanceKm, timeSeconds: $0.durationSeconds)
    }
    let since = planSince(saved)
    let minimum = rules.paceUpdates.minEffortKm * 1000 - 1e-6
    let efforts = completions.filter { $0.isRun && !$0.isRace && $0.date >= since }.compactMap { run in
      run.bestEfforts.filter { $0.distanceMeters >= minimum }.map {
        RaceEvidence(date: run.date, distanceKm: $0.distanceMeters / 1000, timeSeconds: $0.seconds, isEffort: true)
      }.max { ($0.vdot ?? 0) < ($1.vdot ?? 0) }
    }
    return VDOTEstimate(
      planVDOT: goal.vdot ?? rules.levels[goal.level].estimateVdot, planSource: goal.vdotSource, races: races,
      efforts: efforts, since: since, now: today, rules: rules.paceUpdates, absorbedThrough: goal.vdotAsOf)
  }

  /// The first day a race counts for `saved`: the earlier of its first day and the day it was saved (UTC), so a race
  /// between saving a plan and its first week counts, and a replan saved later forgets none.
  public static func planSince(_ saved: SavedPlan) -> CivilDate {
    let savedDay = CivilDate(dayNumber: Int((saved.savedAt.timeIntervalSince1970 / 86_400).rounded(.down)))
    return min(saved.plan.goal.start, savedDay)
  }
}
