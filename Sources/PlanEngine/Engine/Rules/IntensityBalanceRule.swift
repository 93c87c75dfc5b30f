/// About 80 % of running easy (Seiler; Esteve-Lanao): at least 75 % of each week's time at easy intensity.
/// When the quality sessions take more, the largest one loses repetitions (down to its fewest), then becomes an
/// easy run.
enum IntensityBalanceRule: WeekRule {
  static func apply(to week: inout WeekDraft, context: PlanContext, history: [WeekSummary]) {
    let minimum = context.base.intensity.minEasyTimeFraction
    var adjusted = false
    while true {
      let (easy, total) = seconds(of: week, context: context)
      guard total > 0, easy / total < minimum else { break }
      guard
        let (slot, session) = week.orderedSessions.max(by: {
          (hardSeconds($0.session), $1.slot) < (hardSeconds($1.session), $0.slot)
        })
      else { break }
      adjusted = true
      if session.reps > session.fewestReps {
        var smaller = session
        smaller.reps -= 1
        week.sessions[slot] = smaller
      } else {
        week.sessions[slot] = nil
        week.easyKm[slot] = max(week.minRunKm, floorHalf(session.totalKm))
      }
    }
    if adjusted {
      week.rules.append("Quality trimmed so that easy running is at least \(percent(minimum)) of the week's time")
    }
  }

  static func hardSeconds(_ session: Session) -> Double { Double(session.reps) * session.workSeconds }

  /// Easy seconds and total seconds of the week's training (the race itself is not training and is left out).
  static func seconds(of week: WeekDraft, context: PlanContext) -> (easy: Double, total: Double) {
    let easyPace = context.paces.pace(.easy).secondsPerKilometer
    var easy = ((week.longKm ?? 0) + week.easyKm.values.reduce(0, +)) * easyPace
    var total = easy
    // A long run's marathon-pace segment or fast finish is not easy running.
    if let variant = week.longVariant {
      easy -= variant.km * easyPace
      total += variant.km * (context.paces.pace(variant.zone).secondsPerKilometer - easyPace)
    }
    for session in week.sessions.values {
      let easyPart =
        (session.warmupKm + session.cooldownKm + session.easyKm) * easyPace
        + Double(max(0, session.reps - 1)) * session.recoverySeconds
      easy += easyPart
      total += easyPart + hardSeconds(session)
    }
    return (easy, total)
  }
}
