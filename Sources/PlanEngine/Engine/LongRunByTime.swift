import RunningCore

/// A long run the time cap holds, written by time (Hansons' and Higdon's time-on-feet long runs for slow
/// runners): "3:00 at easy effort, about 25.3 km", and for the levels in `longRun.runWalk` as run/walk
/// (Galloway): "run 9 min / walk 1 min". The distance is what that time covers at the runner's easy pace (the
/// level's estimate without a recent race), with the walking breaks at `walkSecondsPerKm`; the engine caps every
/// long run of the plan at that distance (``PlanContext/timeCapKm``), so a run/walk long run never reaches further
/// than running throughout would: walking is slower.
struct LongRunByTime: Sendable, Hashable {
  /// The time, minutes: the level's `longRun.runWalk.maxMinutes`, else the distance's `longRun.maxMinutes` (or
  /// base.yaml's), stretched for a runner running throughout to what `longRun.raceReadyKm` takes (at most
  /// `longRun.raceReadyMaxMinutes`).
  let minutes: Double
  /// The run/walk ratio; nil: running throughout.
  let ratio: RunWalkRatio?
  /// The walking breaks' pace, seconds per km.
  let walkSecondsPerKm: Double

  /// The prescription for a runner of `level` whose easy pace is `easy`: run/walk when the distance has
  /// `longRun.runWalk` for the level, or for a runner of any level whose race-ready long run would take longer
  /// than `longRun.raceReadyMaxMinutes` running throughout (the evidence over the label: an "intermediate" at
  /// 7:53/km easy needs 3:49 for 29 km), and the easy pace reaches one of its ratios.
  init(distance: DistanceRules, base: BaseRules, level: Level, easy: Pace) {
    let long = distance.longRun
    let tooSlowToRunIt =
      if let ready = long.raceReadyKm, let most = long.raceReadyMaxMinutes {
        easy.minutes(forKilometers: ready) > most + 1e-9
      } else { false }
    let runWalk = long.runWalk.flatMap { $0.levels.contains(level) || tooSlowToRunIt ? $0 : nil }
    let capMinutes = runWalk?.maxMinutes ?? distance.longRun.maxMinutes ?? base.longRun.maxMinutes
    ratio = runWalk?.ratios.last { easy.secondsPerKilometer >= $0.fromEasySecondsPerKm - 1e-9 }
    // Running throughout, the cap stretches to the race-ready long run when that takes a little longer (an
    // intermediate at 6:17/km easy runs 29 km in 3:03), to whole 5 minutes.
    if ratio == nil, let ready = distance.longRun.raceReadyKm, let most = distance.longRun.raceReadyMaxMinutes {
      let needed = (easy.minutes(forKilometers: ready) / 5 - 1e-9).rounded(.up) * 5
      minutes = needed > capMinutes && needed <= most ? needed : capMinutes
    } else {
      minutes = capMinutes
    }
    walkSecondsPerKm = runWalk?.walkSecondsPerKm ?? 0
  }

  /// Whole run/walk cycles in the time, and the minutes left over (run at the start of one more cycle).
  var cycles: (count: Int, restMinutes: Double) {
    guard let ratio else { return (0, minutes) }
    let cycle = Double(ratio.runMinutes + ratio.walkMinutes)
    let count = Int((minutes / cycle + 1e-9).rounded(.down))
    return (count, minutes - Double(count) * cycle)
  }

  /// Minutes running and minutes walking in the time.
  var split: (run: Double, walk: Double) {
    guard let ratio else { return (minutes, 0) }
    let (count, rest) = cycles
    let run = Double(count * ratio.runMinutes) + min(rest, Double(ratio.runMinutes))
    return (run, minutes - run)
  }

  /// The walking pace: the template's, never faster than the running it breaks up.
  func walkPace(easy: Pace) -> Pace {
    Pace(secondsPerKilometer: max(walkSecondsPerKm, easy.secondsPerKilometer))
  }

  /// The kilometres the time covers: the running minutes at `easy`, the walking minutes at the walking pace.
  func kilometers(easy: Pace) -> Double {
    let (run, walk) = split
    return easy.kilometers(inMinutes: run) + walkPace(easy: easy).kilometers(inMinutes: walk)
  }

  /// "3:00", "2:30".
  var clock: String { clockLabel(minutes) }

  /// "run 9 min / walk 1 min", or nil when running throughout.
  var ratioLabel: String? { ratio.map { "run \($0.runMinutes) min / walk \($0.walkMinutes) min" } }
}

/// "3:00" for 180 minutes, "2:30" for 150.
func clockLabel(_ minutes: Double) -> String {
  let whole = Int(minutes.rounded())
  return "\(whole / 60):\(whole % 60 < 10 ? "0" : "")\(whole % 60)"
}

extension PlanContext {
  /// The time cap's prescription for this runner.
  var longRunByTime: LongRunByTime {
    LongRunByTime(distance: distance, base: base, level: goal.level, easy: paces.pace(.easy))
  }

  /// The long run of `km` is written by time: it is at the time cap (``timeCapKm``, to tenths) and the cap holds
  /// the long run under the level's peak long run (`peakLongRunKm`).
  func isByTime(longKm km: Double) -> Bool {
    timeCapKm < level.peakLongRunKm.upper - 1e-9 && round1(km) >= floorTenth(timeCapKm) - 1e-9
  }

  /// "29–32 km" or "32 km": the level's peak long run from the distance file.
  var templatePeakLongLabel: String {
    let peak = level.peakLongRunKm
    return peak.upper > peak.lower
      ? "\(units.format(peak.lower).replacingOccurrences(of: " \(units.rawValue)", with: ""))–\(units.format(peak.upper))"
      : units.format(peak.upper)
  }
}

/// The weeks whose long run is written by time, and why; or, when none is but the cap keeps the plan under the
/// usual peak long run, the cap itself.
func longRunByTimeWarnings(_ weeks: [WeekDraft], context: PlanContext) -> [String] {
  let units = context.units
  let easy = context.paces.pace(.easy)
  let perMile = units == .mi
  let byTime = context.longRunByTime
  let paceNote = context.paces.known ? "" : ", estimated: a recent race time gives your own paces"
  let peak = context.level.peakLongRunKm
  var affected: [Int] = []
  for week in weeks where week.raceKm == nil && week.longKm.map({ context.isByTime(longKm: $0) }) == true {
    affected.append(week.number)
  }
  guard !affected.isEmpty else {
    guard context.timeCapKm < peak.lower else { return [] }
    return [
      "long runs are capped at \(Int(byTime.minutes)) minutes, \(units.format(context.timeCapKm)) at your "
        + "easy pace (\(easy.formatted(perMile: perMile))), below the usual peak long run of "
        + "\(units.format(peak.lower))" + (context.paces.known ? "" : "; a recent race time gives your own paces")
    ]
  }
  let how =
    byTime.ratioLabel.map {
      " as run/walk (\($0), walking at \(byTime.walkPace(easy: easy).formatted(perMile: perMile)))"
    } ?? ""
  return [
    "\(weekList(affected)): the long run is set by time, \(byTime.clock)\(how), about "
      + "\(units.format(floorTenth(context.timeCapKm))): the \(context.goal.distance.displayName)'s "
      + "\(Int(byTime.minutes))-minute cap at your easy pace (\(easy.formatted(perMile: perMile))\(paceNote)); the "
      + "usual \(context.goal.level.rawValue) peak long run of \(context.templatePeakLongLabel) would take "
      + "\(clockLabel(easy.minutes(forKilometers: peak.lower)))"
      + (peak.upper > peak.lower ? "–\(clockLabel(easy.minutes(forKilometers: peak.upper)))" : "")
      + " running throughout"
  ]
}

/// "week 15", "weeks 11 and 13", "weeks 9, 11 and 13".
func weekList(_ numbers: [Int]) -> String {
  let names = numbers.map(String.init)
  guard let last = names.last else { return "" }
  if names.count == 1 { return "week \(last)" }
  return "weeks \(names.dropLast().joined(separator: ", ")) and \(last)"
}

extension WorkoutFactory {
  /// A long run written by time: one easy step of the whole time, or run/walk cycles (a run step and a walk step,
  /// repeated, and any minutes left over run at the end), with the distance the time covers.
  func timedLongRun(id: String, slot: DaySlot, km: Double, purpose: WeekPurpose) -> Workout {
    let (steps, _, _) = timedLongRunParts(km: km, purpose: purpose, text: false)
    let byTime = context.longRunByTime
    return Workout(
      id: id, slot: slot.id, date: slot.date, kind: .long, distanceKm: round1(km),
      durationMin: Int(byTime.minutes.rounded()), hard: WorkoutKind.long.isHard,
      title: DeferredText { [self] in timedLongRunParts(km: km, purpose: purpose, text: true).title },
      description: DeferredText { [self] in timedLongRunParts(km: km, purpose: purpose, text: true).description },
      steps: steps,
      timeTarget: TimeTarget(
        minutes: Int(byTime.minutes.rounded()), runMinutes: byTime.ratio?.runMinutes,
        walkMinutes: byTime.ratio?.walkMinutes))
  }

  /// A timed long run's steps, and with `text` its title and description (empty without).
  private func timedLongRunParts(km: Double, purpose: WeekPurpose, text: Bool) -> (
    steps: [WorkoutStep], title: String, description: String
  ) {
    let units = context.units
    let perMile = units == .mi
    let easy = context.paces.pace(.easy)
    let byTime = context.longRunByTime
    let walk = byTime.walkPace(easy: easy)
    let effort = context.effort(.easy)
    let easyTarget = context.paces.label(.easy, perMile: perMile).map { "\($0), \(effort)" } ?? effort
    func step(_ kind: WorkoutStep.Kind, minutes: Double, pace: Pace, walking: Bool = false, repeat count: Int = 1)
      -> WorkoutStep
    {
      let stepKm = pace.kilometers(inMinutes: minutes)
      return WorkoutStep(
        kind: kind, distanceKm: (stepKm * 100).rounded() / 100, durationMin: Int(minutes.rounded()),
        durationSeconds: Int((minutes * 60).rounded()),
        pace: walking
          ? (context.paces.known ? walk.formatted(perMile: false) : nil) : context.paces.label(.easy, perMile: false),
        effort: walking ? "walk: relaxed, not a power walk" : effort, zone: .easy, repeat: count)
    }
    // Paces only from the runner's own race; without one, the estimate's pace is the warning's to name.
    let estimate =
      context.paces.known
      ? "about \(units.format(km)) at your easy pace of \(easy.formatted(perMile: perMile))"
      : "about \(units.format(km)) at a typical \(context.goal.level.rawValue) easy pace"
    let steps: [WorkoutStep]
    let prescription: String
    let title: String
    if let ratio = byTime.ratio {
      let (count, rest) = byTime.cycles
      var parts = [
        step(.work, minutes: Double(ratio.runMinutes), pace: easy, repeat: count),
        step(.recovery, minutes: Double(ratio.walkMinutes), pace: walk, walking: true, repeat: count),
      ]
      if rest > 1e-9 { parts.append(step(.work, minutes: rest, pace: easy)) }
      steps = parts
      prescription =
        "\(byTime.clock) run/walk: run \(ratio.runMinutes) min easy (\(easyTarget)), walk \(ratio.walkMinutes) min, "
        + "\(count) times\(rest > 1e-9 ? ", then run the last \(Int(rest.rounded())) min" : ""); \(estimate), "
        + (context.paces.known ? "walking at \(walk.formatted(perMile: perMile))" : "with relaxed walking breaks")
      title = "Long run \(byTime.clock) run/walk \(ratio.runMinutes)/\(ratio.walkMinutes) (about \(units.format(km)))"
    } else {
      steps = [step(.work, minutes: byTime.minutes, pace: easy)]
      prescription = "\(byTime.clock) easy (\(easyTarget)); \(estimate)"
      title = "Long run \(byTime.clock) (about \(units.format(km)))"
    }
    guard text else { return (steps, "", "") }
    let description =
      "\(prescription). Time on feet: stop at \(byTime.clock) wherever you are, the distance is an estimate; the "
      + "\(Int(byTime.minutes))-minute cap holds this long run under the usual \(context.templatePeakLongLabel). "
      + purpose.text
    return (steps, title, description)
  }
}
