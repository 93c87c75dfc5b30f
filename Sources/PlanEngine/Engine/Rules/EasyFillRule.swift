/// Easy running fills the rest of the week's volume.
///
/// - Easy, recovery and unused quality days share what the long run and the quality sessions leave; a
///   recovery day (the day after the long run) gets 70 % of an easy day's share.
/// - Every run is at least `minRunKm` and at most the long run divided by 1.34 (the long run is at least a third
///   longer than any other run of its week). Distances are rounded down to half kilometres.
/// - In race week, the day before the race is a short shakeout.
enum EasyFillRule: WeekRule {
  static func apply(to week: inout WeekDraft, context: PlanContext, history: [WeekSummary]) {
    let minRun = context.base.volume.minRunKm
    let maxOther = max(minRun, floorTenth(week.maxOtherRunKm(ratio: context.base.longRun.minRatioToOtherRuns)))
    let raceDate = context.goal.timeline.raceDate

    var fillSlots: [DaySlot] = []
    for slot in week.slots where slot.role != .long {
      if let session = week.sessions[slot.id], !session.isStrides { continue }
      if week.phase == .race && slot.date.days(to: raceDate) == 1 {
        week.shakeoutSlots.insert(slot.id)
        continue
      }
      fillSlots.append(slot)
    }
    let shakeout = max(minRun, min(3, maxOther))
    for id in week.shakeoutSlots { week.easyKm[id] = shakeout }

    let fixed =
      (week.longKm ?? 0) + (week.raceKm ?? 0) + Double(week.shakeoutSlots.count) * shakeout
      + week.orderedSessions.map(\.session).filter { !$0.isStrides }.map(\.totalKm).reduce(0, +)
      + week.orderedSessions.map(\.session).filter(\.isStrides).map { $0.totalKm - $0.easyKm }.reduce(0, +)
    let remaining = max(0, week.targetKm - fixed)
    let weights = fillSlots.map { $0.role == .recovery ? 0.7 : 1.0 }
    let totalWeight = weights.reduce(0, +)
    var raisedToMinimum = false
    var cappedByLong = false
    // Half kilometres, rounded down, then the leftover handed out half a kilometre at a time.
    var shares: [Double] = []
    var kms: [Double] = []
    for weight in weights {
      let share = totalWeight > 0 ? remaining * weight / totalWeight : 0
      if share > maxOther { cappedByLong = true }
      shares.append(min(share, maxOther))
      // Runs held down by the long run keep their tenths; the rest come in half kilometres.
      var km = share > maxOther ? maxOther : floorHalf(share)
      if km < minRun {
        km = minRun
        raisedToMinimum = true
      }
      kms.append(km)
    }
    var leftover = remaining - kms.reduce(0, +)
    for index in kms.indices.sorted(by: { (shares[$0] - kms[$0], -$0) > (shares[$1] - kms[$1], -$1) })
    where leftover >= 0.5 - 1e-9 && kms[index] + 0.5 <= maxOther + 1e-9 {
      kms[index] += 0.5
      leftover -= 0.5
    }
    for (slot, km) in zip(fillSlots, kms) {
      if var session = week.sessions[slot.id], session.isStrides {
        let extras = session.totalKm - session.easyKm
        // The strides are part of the run: the whole run, strides included, is the easy share.
        session.easyKm = max(minRun - extras, floorTenth(km - extras))
        week.sessions[slot.id] = session
      } else {
        week.easyKm[slot.id] = km
      }
    }
    if cappedByLong {
      week.cappedByLong = true
      week.rules.append(
        "Easy runs capped at \(context.units.format(maxOther)) so the long run stays a third longer "
          + "than any other run; the week comes out under its target")
    }
    if raisedToMinimum {
      week.rules.append("Easy runs kept at the \(context.units.format(minRun)) minimum")
    }
  }
}
