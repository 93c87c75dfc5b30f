/// The last word on a finished week: rounding and minimum run lengths may not push it past its ceilings.
///
/// - Volume: a full week stays within the ramp cap, a cut-back week within its share, a taper week within its
///   share. Easy runs shrink first (to the minimum run), then the long run (while it stays a third longer than
///   the others), then quality sessions lose repetitions or become easy runs, then an easy day becomes a rest day.
/// - Per-session caps hold against the week as planned (Daniels): a session over its cap becomes an easy run.
enum GuardRule: WeekRule {
  static func apply(to week: inout WeekDraft, context: PlanContext, history: [WeekSummary]) {
    let minRun = context.base.volume.minRunKm
    var trimmed = false
    while week.plannedKm > week.ceilingKm + 1e-6 {
      trimmed = true
      let excess = week.plannedKm - week.ceilingKm
      if let (slot, km) = week.easyKm.filter({ !week.shakeoutSlots.contains($0.key) && $0.value > minRun })
        .max(by: { ($0.value, $1.key) < ($1.value, $0.key) })
      {
        week.easyKm[slot] = max(minRun, floorHalf(km - excess) == km ? km - 0.5 : floorHalf(km - excess))
        continue
      }
      // The long run may give a little, while it stays a third longer than every other run.
      if let long = week.longKm {
        let others = week.runDistances.filter { $0 != round1(long) }.max() ?? 0
        let floor = max(
          LongRunRule.shortestLong(context),
          (others * context.base.longRun.minRatioToOtherRuns * 10).rounded(.up) / 10)
        if long - 0.05 > floor {
          week.longKm = max(floor, floorTenth(long - excess))
          continue
        }
      }
      // Strides ride on an easy run already at its minimum: leave them.
      if let (slot, session) = week.orderedSessions.filter({ !$0.session.isStrides })
        .max(by: { ($0.session.totalKm, $1.slot) < ($1.session.totalKm, $0.slot) })
      {
        if session.reps > 1 {
          week.sessions[slot]?.reps -= 1
        } else {
          week.sessions[slot] = nil
          week.easyKm[slot] = minRun
        }
        continue
      }
      // Every run is at its minimum: one easy day becomes a rest day.
      if let (slot, _) = week.easyKm.filter({ !week.shakeoutSlots.contains($0.key) })
        .min(by: { ($0.value, $0.key) < ($1.value, $1.key) })
      {
        week.easyKm[slot] = nil
        week.rules.append("One easy run dropped: the week is too small for every run at the minimum length")
        continue
      }
      break
    }
    if trimmed {
      week.rules.append(
        "Trimmed to \(context.units.format(week.plannedKm)) to stay within the week's ceiling of "
          + "\(context.units.format(week.ceilingKm))")
    }
    // Per-session caps against the week as it is.
    var changed = true
    while changed {
      changed = false
      let planned = week.plannedKm
      for (slot, session) in week.sessions.sorted(by: { $0.key < $1.key })
      where session.workTotalKm > context.workCap(zone: session.zone, volumeKm: planned) - 0.05 + 1e-9 {
        week.sessions[slot] = nil
        week.easyKm[slot] = max(minRun, floorHalf(session.totalKm))
        week.rules.append("\(session.template.name) replaced by an easy run: over its per-session cap for this week")
        changed = true
        break
      }
    }
  }
}
