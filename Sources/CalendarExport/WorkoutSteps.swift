import PlanEngine
import RunningCore

// The steps of a workout as the watch runs them and as the calendar lists them: shared by the calendar's event
// descriptions (this module) and the workout files (`runmate workouts`, in Training), so both say the same.

/// A plan step with the measure it is written by.
public struct PlannedStep: Sendable, Hashable {
  /// The plan's step.
  public var step: WorkoutStep
  /// 1-based, in the plan's steps.
  public var number: Int
  /// Written by time (else by distance).
  public var byTime: Bool

  /// Whether `step` of `workout` is written by time: recoveries (jogs and walks, prescribed by time), a step whose
  /// distance is not whole 100 m (6 min tempo bouts, 60 s hills) and every step of a long run set by time; else by
  /// distance (warm-ups, 800 m or 1 km repeats, easy runs).
  public static func byTime(_ step: WorkoutStep, in workout: Workout) -> Bool {
    let hundreds = step.distanceKm * 10
    return workout.timeTarget != nil || step.kind == .recovery || step.distanceKm <= 0
      || abs(hundreds - hundreds.rounded()) > 1e-6
  }
}

/// A step, or a set of steps repeated.
public enum StepBlock: Sendable, Hashable {
  case single(PlannedStep)
  case repeated(Int, [PlannedStep])
}

/// The workout's steps as blocks: a work step done N times with its recovery done N times becomes a repeat set of
/// both, N times; with its recovery done N − 1 times (the plan's usual "jog between"), a set of both N − 1 times and
/// the last work step after it, so the expanded steps add up to the plan's distance and time. No step is checked
/// here (the workout files refuse empty ones).
public func workoutBlocks(_ workout: Workout) -> [StepBlock] {
  let planned = workout.steps.enumerated().map { index, step in
    PlannedStep(step: step, number: index + 1, byTime: PlannedStep.byTime(step, in: workout))
  }
  var blocks: [StepBlock] = []
  var index = 0
  while index < planned.count {
    let current = planned[index]
    let count = current.step.repeat
    if count > 1, index + 1 < planned.count, planned[index + 1].step.kind == .recovery {
      let recovery = planned[index + 1]
      if recovery.step.repeat == count {
        blocks.append(.repeated(count, [current, recovery]))
        index += 2
        continue
      }
      if recovery.step.repeat == count - 1 {
        if count - 1 >= 2 {
          blocks.append(.repeated(count - 1, [current, recovery]))
        } else {
          blocks += [.single(current), .single(recovery)]
        }
        blocks.append(.single(current))
        index += 2
        continue
      }
    }
    blocks.append(count > 1 ? .repeated(count, [current]) : .single(current))
    index += 1
  }
  return blocks
}

/// What a step is prescribed by: its pace, or a heart-rate zone of the runner's.
public struct StepTargets: Sendable, Hashable {
  /// The runner's zones.
  public var zones: HeartRateZones?
  /// The runner's choice (pace without zones).
  public var targets: WorkoutTargets

  /// By pace only.
  public static let pace = StepTargets(zones: nil, targets: .pace)

  /// `targets` with `zones` (by pace when `zones` is nil).
  public init(zones: HeartRateZones?, targets: WorkoutTargets) {
    self.zones = zones
    self.targets = zones == nil ? .pace : targets
  }

  /// The heart-rate zone (1 to 5) of a step of `zone` and `kind`: warm-ups, cool-downs, recoveries and easy running
  /// Z2 (an easy cap), marathon Z3, threshold and race Z4, interval Z5; nil for repetitions (20 s to 2 min: the
  /// heart rate lags them).
  public static func heartRateZone(for zone: Intensity, kind: WorkoutStep.Kind) -> Int? {
    if kind != .work { return 2 }
    switch zone {
    case .easy: return 2
    case .marathon: return 3
    case .threshold, .race: return 4
    case .interval: return 5
    case .repetition: return nil
    }
  }

  /// The heart-rate range (bpm) `step` is prescribed by, nil when by pace: with `hr` every step with a zone, with
  /// `both` the Z2 steps (easy running) only. An easy (Z2) step runs from the bottom of Z1 to the top of Z2: a cap,
  /// not a floor.
  public func heartRate(for step: WorkoutStep) -> (zone: Int, low: Int, high: Int)? {
    guard let zones, targets != .pace, let number = Self.heartRateZone(for: step.zone, kind: step.kind) else {
      return nil
    }
    if targets == .both && number != 2 { return nil }
    let zone = zones.zone(number)
    return (number, number == 2 ? zones.zone(1).low : zone.low, zone.high)
  }
}

/// The workout's steps, one line per step or repeat set, as the workout files have them: `Warm-up 2 km at
/// 5:51-6:59/km`, `5 × 800 m at 3:45-3:55/km, 2 min jog between`, `Cool-down 1.5 km easy`; a step prescribed by
/// heart rate (`targets`) at its bpm range (`Easy 8 km at Z2 120-146 bpm`). Empty for a workout of one step done
/// once (its description says it all).
public func stepLines(_ workout: Workout, targets: StepTargets = .pace) -> [String] {
  let steps = workout.steps
  guard steps.count > 1 || steps.contains(where: { $0.repeat > 1 }) else { return [] }
  func amount(_ step: WorkoutStep) -> String {
    PlannedStep.byTime(step, in: workout) ? spokenDuration(step.durationSeconds) : spokenDistance(step.distanceKm)
  }
  func target(_ step: WorkoutStep) -> String {
    if let heart = targets.heartRate(for: step) { return "at Z\(heart.zone) \(heart.low)-\(heart.high) bpm" }
    if let pace = step.pace { return "at \(pace)" }
    return step.zone == .easy ? "easy" : "at \(zoneWords(step.zone))"
  }
  func label(_ step: WorkoutStep) -> String {
    switch step.kind {
    case .warmup: workout.isEasyRunning(step) ? "Easy" : "Warm-up"
    case .cooldown: "Cool-down"
    case .recovery: step.effort.hasPrefix("walk") ? "Walk" : "Jog"
    case .work:
      step.zone == .easy ? "Easy" : zoneWords(step.zone).prefix(1).uppercased() + zoneWords(step.zone).dropFirst()
    }
  }
  var lines: [String] = []
  var index = 0
  while index < steps.count {
    let step = steps[index]
    let count = step.repeat
    if count > 1, index + 1 < steps.count, steps[index + 1].kind == .recovery,
      steps[index + 1].repeat == count || steps[index + 1].repeat == count - 1
    {
      let recovery = steps[index + 1]
      let rest = "\(amount(recovery)) \(label(recovery).lowercased())"
      lines.append(
        "\(count) × \(amount(step)) \(target(step)), \(rest)\(recovery.repeat == count ? " after each" : " between")")
      index += 2
      continue
    }
    // An easy run without a pace or heart rate is said once: `Easy 5.7 km`, not `Easy 5.7 km easy`.
    let said = label(step) == "Easy" && target(step) == "easy" && count == 1
    let body = said ? amount(step) : "\(amount(step)) \(target(step))"
    lines.append(count > 1 ? "\(count) × \(body)" : "\(label(step)) \(body)")
    index += 1
  }
  return lines
}

/// `marathon pace`, `threshold pace`, `race pace`.
private func zoneWords(_ zone: Intensity) -> String {
  switch zone {
  case .easy: "easy pace"
  case .marathon: "marathon pace"
  case .threshold: "threshold pace"
  case .interval: "interval pace"
  case .repetition: "repetition pace"
  case .race: "race pace"
  }
}

/// `45 s`, `6 min`, `3:30 min`, `1:05:00`.
private func spokenDuration(_ seconds: Int) -> String {
  let (hours, minutes, secs) = (seconds / 3600, seconds % 3600 / 60, seconds % 60)
  let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
  if hours > 0 { return "\(hours):\(two(minutes)):\(two(secs))" }
  if minutes == 0 { return "\(secs) s" }
  return secs == 0 ? "\(minutes) min" : "\(minutes):\(two(secs)) min"
}

/// `800 m`, `2 km`, `1.5 km`, `18.1 km` (to the 10 m the plan has).
private func spokenDistance(_ km: Double) -> String {
  if km < 1 { return "\(Int((km * 1000).rounded())) m" }
  let hundredths = Int((km * 100).rounded())
  if hundredths % 100 == 0 { return "\(hundredths / 100) km" }
  if hundredths % 10 == 0 { return "\(hundredths / 100).\(hundredths % 100 / 10) km" }
  return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100) km"
}
