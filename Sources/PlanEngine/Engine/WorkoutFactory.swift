import Foundation
import RunningCore

/// Turns a shaped week into workouts: steps with distances, durations, paces or efforts; titles; descriptions.
/// The titles and descriptions are written when read (``DeferredText``): each keeps the factory (one per plan) and
/// the workout's numbers.
final class WorkoutFactory: Sendable {
  let context: PlanContext
  let planID: String
  /// Each zone's target in words (``target(_:)``), in `Intensity.allCases` order: written once per plan.
  private let targets: [String]

  init(context: PlanContext, planID: String) {
    self.context = context
    self.planID = planID
    let perMile = context.units == .mi
    targets = Intensity.allCases.map { zone in
      let effort = context.effort(zone)
      guard let pace = context.paces.label(zone, perMile: perMile) else { return effort }
      return "\(pace), \(effort)"
    }
  }

  private var perMile: Bool { context.units == .mi }
  private var units: DistanceUnit { context.units }

  func workouts(for week: WeekDraft) -> [Workout] {
    let purpose = WeekPurpose(
      number: week.number, phase: week.phase, cutback: week.cutback, comeback: context.comeback[week.number] != nil)
    let weekID = planID + (week.number < 10 ? "-w0" : "-w") + String(week.number) + "-"
    let mediumLongSlot = week.mediumLong(minKm: context.base.weekStructure.mediumLong.minKm)?.slot
    func workout(for slot: DaySlot) -> Workout? {
      let id = weekID + slot.id
      if slot.role == .long {
        if let race = week.raceKm { return raceWorkout(id: id, slot: slot, km: race) }
        guard let long = week.longKm else { return nil }
        if let variant = week.longVariant {
          return variantLongRun(id: id, slot: slot, km: long, variant: variant, purpose: purpose)
        }
        if context.isByTime(longKm: long) { return timedLongRun(id: id, slot: slot, km: long, purpose: purpose) }
        return simple(id: id, slot: slot, kind: .long, km: long, purpose: purpose)
      }
      if let session = week.sessions[slot.id] {
        return structured(id: id, slot: slot, session: session, purpose: purpose)
      }
      guard let km = week.easyKm[slot.id] else { return nil }
      if week.shakeoutSlots.contains(slot.id) {
        return simple(id: id, slot: slot, kind: .easy, km: km, purpose: purpose, role: .shakeout)
      }
      if slot.id == mediumLongSlot {
        return simple(id: id, slot: slot, kind: .mediumLong, km: km, purpose: purpose, role: .mediumLong)
      }
      return simple(id: id, slot: slot, kind: slot.role == .recovery ? .recovery : .easy, km: km, purpose: purpose)
    }
    // One workout a day at most: the list is sized once (a compactMap regrew it as the week's workouts came).
    var workouts: [Workout] = []
    workouts.reserveCapacity(week.slots.count)
    for slot in week.slots {
      if let workout = workout(for: slot) { workouts.append(workout) }
    }
    return workouts
  }

  private func step(_ kind: WorkoutStep.Kind, km: Double, seconds: Double, zone: Intensity, repeat count: Int = 1)
    -> WorkoutStep
  {
    WorkoutStep(
      kind: kind, distanceKm: (km * 100).rounded() / 100, durationMin: Int((seconds / 60).rounded()),
      durationSeconds: Int(seconds.rounded()), pace: context.paces.label(zone, perMile: false),
      effort: context.effort(zone), zone: zone, repeat: count)
  }

  /// `5:40-6:10/km, conversational`: the zone's pace and effort, or its effort alone when paces are not known.
  func target(_ zone: Intensity) -> String { targets[TrainingPaces.slot(zone)] }

  /// A workout whose distance and duration come from the exact values, not the rounded steps.
  private func make(
    id: String, slot: DaySlot, kind: WorkoutKind, title: DeferredText<String>, steps: [WorkoutStep],
    description: DeferredText<String>, km: Double, seconds: Double
  ) -> Workout {
    return Workout(
      id: id, slot: slot.id, date: slot.date, kind: kind, distanceKm: round1(km),
      durationMin: Int((seconds / 60).rounded()), hard: kind.isHard, title: title,
      description: description, steps: steps)
  }

  /// What a one-step run is besides its kind: the shakeout and the medium-long run say so.
  enum SimpleRole: Sendable {
    case plain, shakeout, mediumLong
  }

  private func simple(
    id: String, slot: DaySlot, kind: WorkoutKind, km: Double, purpose: WeekPurpose, role: SimpleRole = .plain
  ) -> Workout {
    let easy = context.paces.pace(.easy)
    return make(
      id: id, slot: slot, kind: kind,
      title: DeferredText { [self] in
        (role == .shakeout ? "Shakeout" : kind == .long ? "Long run" : kind.displayName) + " " + units.format(km)
      },
      steps: [step(.work, km: km, seconds: easy.secondsPerKilometer * km, zone: .easy)],
      description: DeferredText { [self] in
        let why: String =
          switch role {
          case .plain: purpose.text
          case .shakeout: "Shakeout before race day: short and easy, legs fresh."
          case .mediumLong:
            "The week's second-longest run, steady and easy: endurance without a second long-run day. " + purpose.text
          }
        return units.format(km) + " at " + target(.easy) + ". " + why
      }, km: km,
      seconds: easy.secondsPerKilometer * km)
  }

  /// Race day: the prediction, then the distance's warm-up, pacing (splits from the predicted time, or by effort
  /// when paces are not known) and fuelling, from its `raceDay` template text.
  private func raceWorkout(id: String, slot: DaySlot, km: Double) -> Workout {
    let seconds = context.goal.goalTimeSeconds ?? context.paces.predictedRaceSeconds
    return make(
      id: id, slot: slot, kind: .race,
      title: DeferredText { [self] in "Race: \(context.goal.distance.displayName) \(units.format(km))" },
      steps: [step(.work, km: km, seconds: seconds, zone: .race)],
      description: DeferredText { [self] in raceDescription(km: km, seconds: seconds) }, km: km, seconds: seconds)
  }

  /// Race day in words: the prediction, the warm-up, the pacing and the fuelling.
  private func raceDescription(km: Double, seconds: Double) -> String {
    let name = context.goal.distance.displayName
    let guide = context.distance.raceDay
    var text = "Race day: \(name), \(units.format(km))."
    var values = ["effort": context.effort(.race), "distance": name]
    if context.paces.known {
      let from = context.goal.goalTimeSeconds != nil ? "Your goal" : "Predicted from your recent race"
      text += " \(from): \(formatRaceTime(seconds)) (\(target(.race)))."
      values["racePace"] = context.paces.label(.race, perMile: perMile) ?? ""
      values["raceTime"] = formatRaceTime(seconds)
      values["halfTime"] = formatRaceTime(seconds / 2)
      values["splits"] = splits(raceKm: km, seconds: seconds, every: perMile ? guide.splitEveryMi : guide.splitEveryKm)
    }
    func sentence(_ label: String, _ template: String) -> String {
      " \(label): \(TextPlaceholders.fill(template, values))."
    }
    text += sentence("Warm-up", guide.warmup)
    text += sentence("Pacing", context.paces.known ? guide.pacing : guide.pacingByEffort)
    if let fuelling = guide.fuelling { text += sentence("Fuelling", fuelling) }
    return text
  }

  /// `5 km in 23:20 · 10 km in 46:40 · 15 km in 1:10:00`: the time at every `every` units at even pace, and at the
  /// finish.
  private func splits(raceKm: Double, seconds: Double, every: Double) -> String {
    let total = raceKm / units.kilometers
    var marks: [Double] = []
    var mark = every
    while mark < total - 0.05 {
      marks.append(mark)
      mark += every
    }
    marks.append(total)
    return marks.map { "\(oneDecimal($0)) \(units.rawValue) in \(formatRaceTime(seconds * $0 / total))" }
      .joined(separator: " · ")
  }

  private func structured(id: String, slot: DaySlot, session: Session, purpose: WeekPurpose) -> Workout {
    let easy = context.paces.pace(.easy).secondsPerKilometer
    let template = session.template
    var steps: [WorkoutStep] = []
    steps.reserveCapacity(4)
    let (warm, cool) = warmAndCool(session)
    if warm > 0 { steps.append(step(.warmup, km: warm, seconds: warm * easy, zone: .easy)) }
    var work = step(.work, km: session.workKm, seconds: session.workSeconds, zone: session.zone, repeat: session.reps)
    if template.effortOnly { work.pace = nil }
    if let effort = template.effort { work.effort = effort }
    steps.append(work)
    if session.reps > 1, session.recoverySeconds > 0 {
      steps.append(
        step(
          .recovery, km: session.recoveryKm, seconds: session.recoverySeconds, zone: .easy,
          repeat: session.reps - 1))
    }
    if cool > 1e-9 { steps.append(step(.cooldown, km: cool, seconds: cool * easy, zone: .easy)) }
    let total = session.totalKm
    let seconds =
      (session.warmupKm + session.easyKm + session.cooldownKm) * easy
      + Double(session.reps) * session.workSeconds + Double(max(0, session.reps - 1)) * session.recoverySeconds
    return make(
      id: id, slot: slot, kind: template.kind, title: DeferredText { [self] in sessionTitle(session) }, steps: steps,
      description: DeferredText { [self] in sessionDescription(session, purpose: purpose) }, km: total,
      seconds: seconds)
  }

  /// Strides ride on their easy run; a session's extra easy running (``EasyFillRule/padSessions``) lengthens its
  /// warm-up and cool-down, half each (the warm-up takes the odd tenth).
  private func warmAndCool(_ session: Session) -> (warm: Double, cool: Double) {
    let extraWarm = session.isStrides ? session.easyKm : max(0, (session.easyKm * 5 - 1e-6).rounded(.up) / 10)
    return (session.warmupKm + extraWarm, session.cooldownKm + (session.easyKm - extraWarm))
  }

  /// `Intervals 9.6 km: 5 × 800 m`, `Easy 8 km + 6 × 20 s strides`.
  private func sessionTitle(_ session: Session) -> String {
    let bout = boutLabel(session)
    let total = session.totalKm
    return session.isStrides
      ? "Easy \(units.format(total)) + \(session.reps) × \(bout) strides"
      : "\(session.template.kind.displayName) \(units.format(total)): \(repsText(session, bout: bout))"
  }

  /// `5 × 800 m` or a single block's `20 min`.
  private func repsText(_ session: Session, bout: String) -> String {
    session.reps > 1 ? "\(session.reps) × \(bout)" : bout
  }

  /// The session in words: warm-up, the work at its target with its recoveries, cool-down, what it is for.
  private func sessionDescription(_ session: Session, purpose: WeekPurpose) -> String {
    let template = session.template
    var parts: [String] = []
    let (warm, cool) = warmAndCool(session)
    if warm > 0 {
      parts.append(session.isStrides ? "\(units.format(warm)) easy" : "\(units.format(warm)) easy warm-up")
    }
    let repsText = repsText(session, bout: boutLabel(session))
    var main = repsText + (template.terrain.map { " \($0)" } ?? "") + " at " + sessionTarget(session)
    if session.reps > 1, session.recoverySeconds > 0 {
      main += ", " + (template.recoveryText ?? "\(durationLabel(session.recoverySeconds)) easy jog between")
    }
    parts.append(main)
    if cool > 1e-9 { parts.append("\(units.format(cool)) easy cool-down") }
    return parts.joined(separator: "; ") + ". \(template.name): \(template.purpose). \(purpose.text)"
  }

  /// What the work bouts aim at, in words: `4:23/km (interval pace; hard, RPE 8: …)`, `interval pace (hard, …)`
  /// when paces are not known, or the template's effort alone (hills).
  private func sessionTarget(_ session: Session) -> String {
    let template = session.template
    let effort = template.effort ?? context.effort(session.zone)
    if template.effortOnly { return effort }
    let zoneName: String =
      switch session.zone {
      case .race: "goal race pace"
      case .marathon: "marathon pace"
      case .threshold: "threshold pace"
      case .interval: "interval pace"
      case .repetition: "repetition pace"
      case .easy: "easy"
      }
    guard let pace = context.paces.label(session.zone, perMile: perMile) else { return "\(zoneName) (\(effort))" }
    return "\(pace) (\(zoneName); \(effort))"
  }

  /// One bout in the template's unit: `800 m`, `1 km` (reps are track distances, metric also in mile plans), a
  /// block of `6 km` or `3.7 mi`, `6 min`, `20 s`.
  private func boutLabel(_ session: Session) -> String {
    switch BoutUnit(session.template.work) {
    case .km:
      let km = session.workKm
      if session.reps > 1 || session.template.reps.upper > 1 || !perMile {
        return km < 1 ? "\(Int((km * 1000).rounded())) m" : "\(oneDecimal(km)) km"
      }
      return units.format(km)
    case .minutes: return durationLabel(session.workSeconds)
    case .seconds: return "\(Int(session.workSeconds.rounded())) s"
    }
  }

  /// `45 s`, `2 min`, `2:30`.
  private func durationLabel(_ seconds: Double) -> String {
    let s = Int(seconds.rounded())
    if s < 60 { return "\(s) s" }
    if s % 60 == 0 { return "\(s / 60) min" }
    return "\(s / 60):\(s % 60 < 10 ? "0" : "")\(s % 60)"
  }
}

/// What a week is for, in the words every workout's description ends with: `Week 5 (build: volume and quality grow).`
struct WeekPurpose: Sendable {
  let number: Int
  let phase: Phase
  let cutback: Bool
  /// A return week after a break (a replan).
  let comeback: Bool

  var text: String {
    let phase: String =
      switch self.phase {
      case .base: "base: easy aerobic running builds the engine"
      case .build: "build: volume and quality grow"
      case .peak: "peak: the hardest weeks, race-specific work"
      case .taper: "taper: less volume, sharpness kept"
      case .race: "race week: fresh legs for race day"
      }
    let kind =
      comeback ? "return week: back gently after the break" : cutback ? "cut-back week: recover and absorb" : phase
    return "Week \(number) (\(kind))."
  }
}
