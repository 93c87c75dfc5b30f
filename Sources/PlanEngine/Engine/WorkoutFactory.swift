import Foundation

/// Turns a shaped week into workouts: steps with distances, durations, paces or efforts; titles; descriptions.
struct WorkoutFactory {
  let context: PlanContext
  let planID: String

  private var perMile: Bool { context.units == .mi }
  private var units: DistanceUnit { context.units }

  func workouts(for week: WeekDraft) -> [Workout] {
    let purpose = weekPurpose(week)
    return week.slots.compactMap { slot -> Workout? in
      let id = "\(planID)-w\(week.number < 10 ? "0" : "")\(week.number)-\(slot.id)"
      if slot.role == .long {
        if let race = week.raceKm { return raceWorkout(id: id, slot: slot, km: race) }
        guard let long = week.longKm else { return nil }
        if let variant = week.longVariant {
          return variantLongRun(id: id, slot: slot, km: long, variant: variant, purpose: purpose)
        }
        return simple(id: id, slot: slot, kind: .long, km: long, purpose: purpose)
      }
      if let session = week.sessions[slot.id] {
        return structured(id: id, slot: slot, session: session, purpose: purpose)
      }
      guard let km = week.easyKm[slot.id] else { return nil }
      if week.shakeoutSlots.contains(slot.id) {
        return simple(
          id: id, slot: slot, kind: .easy, km: km,
          purpose: "Shakeout before race day: short and easy, legs fresh.", title: "Shakeout")
      }
      return simple(id: id, slot: slot, kind: slot.role == .recovery ? .recovery : .easy, km: km, purpose: purpose)
    }
  }

  private func weekPurpose(_ week: WeekDraft) -> String {
    let phase: String =
      switch week.phase {
      case .base: "base: easy aerobic running builds the engine"
      case .build: "build: volume and quality grow"
      case .peak: "peak: the hardest weeks, race-specific work"
      case .taper: "taper: less volume, sharpness kept"
      case .race: "race week: fresh legs for race day"
      }
    return "Week \(week.number) (\(week.cutback ? "cut-back week: recover and absorb" : phase))."
  }

  private func step(_ kind: WorkoutStep.Kind, km: Double, seconds: Double, zone: Intensity, repeat count: Int = 1)
    -> WorkoutStep
  {
    WorkoutStep(
      kind: kind, distanceKm: (km * 100).rounded() / 100, durationMin: Int((seconds / 60).rounded()),
      durationSeconds: Int(seconds.rounded()), pace: context.paces.label(zone, perMile: false),
      effort: context.effort(zone), zone: zone, repeat: count)
  }

  private func target(_ zone: Intensity) -> String {
    let effort = context.effort(zone)
    guard let pace = context.paces.label(zone, perMile: perMile) else { return effort }
    return "\(pace), \(effort)"
  }

  /// A workout whose distance and duration come from the exact values, not the rounded steps.
  private func make(
    id: String, slot: DaySlot, kind: WorkoutKind, title: String, steps: [WorkoutStep],
    description: String, km: Double, seconds: Double
  ) -> Workout {
    return Workout(
      id: id, slot: slot.id, date: slot.date, kind: kind, distanceKm: round1(km),
      durationMin: Int((seconds / 60).rounded()), hard: kind.isHard, title: title,
      description: description, steps: steps)
  }

  private func simple(
    id: String, slot: DaySlot, kind: WorkoutKind, km: Double, purpose: String,
    title: String? = nil
  ) -> Workout {
    let easy = context.paces.pace(.easy)
    let name = title ?? (kind == .long ? "Long run" : kind.displayName)
    return make(
      id: id, slot: slot, kind: kind, title: "\(name) \(units.format(km))",
      steps: [step(.work, km: km, seconds: easy.secondsPerKilometer * km, zone: .easy)],
      description: "\(units.format(km)) at \(target(.easy)). \(purpose)", km: km,
      seconds: easy.secondsPerKilometer * km)
  }

  private func raceWorkout(id: String, slot: DaySlot, km: Double) -> Workout {
    let seconds = context.paces.predictedRaceSeconds
    var text = "Race day: \(context.goal.distance.displayName), \(units.format(km))."
    if context.paces.known {
      text += " Predicted from your recent race: \(formatRaceTime(seconds)) (\(target(.race)))."
    } else {
      text += " Start at \(context.effort(.race))."
    }
    text += " Warm up with 10 minutes of easy jogging and a few strides."
    return make(
      id: id, slot: slot, kind: .race, title: "Race: \(context.goal.distance.displayName) \(units.format(km))",
      steps: [step(.work, km: km, seconds: seconds, zone: .race)], description: text, km: km, seconds: seconds)
  }

  private func structured(id: String, slot: DaySlot, session: Session, purpose: String) -> Workout {
    let easy = context.paces.pace(.easy).secondsPerKilometer
    let template = session.template
    var steps: [WorkoutStep] = []
    var parts: [String] = []
    let warm = session.warmupKm + session.easyKm
    if warm > 0 {
      steps.append(step(.warmup, km: warm, seconds: warm * easy, zone: .easy))
      parts.append(session.isStrides ? "\(units.format(warm)) easy" : "\(units.format(warm)) easy warm-up")
    }
    steps.append(
      step(.work, km: session.workKm, seconds: session.workSeconds, zone: session.zone, repeat: session.reps))
    if session.reps > 1, session.recoverySeconds > 0 {
      steps.append(
        step(
          .recovery, km: session.recoveryKm, seconds: session.recoverySeconds, zone: .easy,
          repeat: session.reps - 1))
    }
    let bout = boutLabel(session)
    let zoneName: String =
      switch session.zone {
      case .race: "goal race pace"
      case .marathon: "marathon pace"
      case .threshold: "threshold"
      case .interval: "interval pace"
      case .repetition: "repetition pace"
      case .easy: "easy"
      }
    let repsText = session.reps > 1 ? "\(session.reps) × \(bout)" : bout
    var work = "\(repsText) at \(zoneName) (\(target(session.zone)))"
    if session.reps > 1, session.recoverySeconds > 0 {
      work += ", \(durationLabel(session.recoverySeconds)) easy jog or walk between"
    }
    parts.append(work)
    if session.cooldownKm > 0 {
      steps.append(step(.cooldown, km: session.cooldownKm, seconds: session.cooldownKm * easy, zone: .easy))
      parts.append("\(units.format(session.cooldownKm)) easy cool-down")
    }
    let total = session.totalKm
    let seconds =
      (session.warmupKm + session.easyKm + session.cooldownKm) * easy
      + Double(session.reps) * session.workSeconds + Double(max(0, session.reps - 1)) * session.recoverySeconds
    let title =
      session.isStrides
      ? "Easy \(units.format(total)) + \(session.reps) × \(bout) strides"
      : "\(template.kind.displayName) \(units.format(total)): \(repsText)"
    let description = parts.joined(separator: "; ") + ". \(template.name): \(template.purpose). \(purpose)"
    return make(
      id: id, slot: slot, kind: template.kind, title: title, steps: steps, description: description,
      km: total, seconds: seconds)
  }

  private func boutLabel(_ session: Session) -> String {
    if session.template.work.km != nil {
      let km = session.workKm
      if km < 1 && !perMile { return "\(Int((km * 1000).rounded())) m" }
      return units.format(km)
    }
    return durationLabel(session.workSeconds)
  }

  private func durationLabel(_ seconds: Double) -> String {
    let s = Int(seconds.rounded())
    if s < 120 && s % 60 != 0 { return "\(s) s" }
    if s % 60 == 0 { return "\(s / 60) min" }
    return "\(s / 60):\(s % 60 < 10 ? "0" : "")\(s % 60) min"
  }
}
