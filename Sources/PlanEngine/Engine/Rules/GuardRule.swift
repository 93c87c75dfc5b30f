/// The last word on a finished week: rounding and minimum run lengths may not push it past its ceilings.
///
/// - Volume: a full week stays within the ramp cap, a cut-back week within its share, a taper week within its
///   share. Easy runs shrink first (to the minimum run), then the long run (while it stays a third longer than
///   the others), then quality sessions lose repetitions or become easy runs, then an easy day becomes a rest day.
/// - The long run is at most `weekStructure.longRunMaxOfWeek` of the week as planned: it gives what it must
///   (other runs follow it down so that it stays a third longer than each of them).
/// - Per-session caps hold against the week as planned (Daniels): a session over its cap becomes an easy run.
enum GuardRule: WeekRule {
  static func apply(to week: inout WeekDraft, context: PlanContext, history: [WeekSummary]) {
    let minRun = week.minRunKm
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
      // The easy running a session carries besides its warm-up (``EasyFillRule/padSessions``) goes next.
      if let (slot, session) = week.orderedSessions.filter({ !$0.session.isStrides && $0.session.easyKm > 1e-9 })
        .max(by: { ($0.session.easyKm, $1.slot) < ($1.session.easyKm, $0.slot) })
      {
        week.sessions[slot]?.easyKm = max(0, floorTenth(session.easyKm - excess))
        continue
      }
      // The long run may give a little, while it stays a third longer than every other run.
      if let long = week.longKm {
        let others = week.runDistances.filter { $0 != round1(long) }.max() ?? 0
        let floor = max(
          LongRunRule.shortestLong(week, context),
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
        let droppable = week.easyKm.filter { !week.shakeoutSlots.contains($0.key) }
          .min { ($0.value, $0.key) < ($1.value, $1.key) }
        var fewer = session
        fewer.reps -= 1
        let full = !week.cutback && (week.phase == .base || week.phase == .build || week.phase == .peak)
        if session.reps > session.fewestReps
          && (!full || fewer.meets(context.levelRules.sessionFloors, raceKm: context.raceKm))
        {
          week.sessions[slot]?.reps -= 1
        } else if week.phase == .taper || week.phase == .race, let (easy, _) = droppable {
          // Taper weeks keep their race-pace session: an easy day becomes a rest day first.
          week.easyKm[easy] = nil
          week.rules.append("One easy run dropped: the week is too small for every run at the minimum length")
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
    week.trimmedToCeiling = trimmed
    // The long run's share and the per-session caps both read the planned week, and each can lower it: repeat
    // until neither changes anything.
    for _ in 0..<8 {
      let shareChanged = limitLongShare(&week, context: context)
      let eveChanged = limitEveOfLong(&week, context: context)
      let capsChanged = enforceSessionCaps(&week, context: context)
      if !shareChanged && !eveChanged && !capsChanged { break }
    }
  }

  /// The day before the long run holds at most its share of the long run as it finally is (the long run may
  /// have given some volume since the easy runs were filled in); when that is under the minimum run, its run
  /// moves to a free day (or stays as the minimum run when none is free), or the day rests (`eveOfLongTooShort`).
  static func limitEveOfLong(_ week: inout WeekDraft, context: PlanContext) -> Bool {
    guard let long = week.longKm, let day = week.slots.first(where: { $0.role == .long })?.date,
      let slot = week.slots.first(where: { $0.date.days(to: day) == 1 })
    else {
      return false
    }
    let limit = context.eveOfLongCap(long: long, week: week, longDate: day)
    // Strides riding on that run (placed only when it holds a whole run): the run, strides included, keeps the cap.
    if week.easyKm[slot.id] == nil, var strides = week.sessions[slot.id], strides.isStrides {
      let cap = max(week.minRunKm, limit)
      guard strides.totalKm > cap + 1e-9 else { return false }
      strides.easyKm = max(0, floorTenth(cap - (strides.totalKm - strides.easyKm)))
      week.sessions[slot.id] = strides
      return true
    }
    guard let km = week.easyKm[slot.id], km > limit + 1e-9 else { return false }
    if limit < week.minRunKm {
      week.eveCappedSlot = nil
      switch context.base.weekStructure.eveOfLongTooShort {
      case .rest:
        week.easyKm[slot.id] = nil
        week.eveRest = true
      case .move:
        if let day = EasyFillRule.moveEveRun(&week, slotID: slot.id, runDays: context.goal.runDays.map(Set.init)) {
          week.eveMovedTo = day
          week.eveRest = true
        } else {
          week.eveAtMinimum = true
          guard km > week.minRunKm + 1e-9 else { return false }
          week.easyKm[slot.id] = week.minRunKm
        }
      }
    } else {
      week.easyKm[slot.id] = limit
      week.eveCappedSlot = slot.id
    }
    return true
  }

  /// Per-session caps against the week as it is: a session over its cap becomes an easy run.
  static func enforceSessionCaps(_ week: inout WeekDraft, context: PlanContext) -> Bool {
    var any = false
    var changed = true
    while changed {
      changed = false
      let planned = week.plannedKm
      for (slot, session) in week.sessions
      where session.workTotalKm > context.workCap(zone: session.zone, volumeKm: planned) - 0.05 + 1e-9 {
        week.sessions[slot] = nil
        week.easyKm[slot] = max(week.minRunKm, floorHalf(session.totalKm))
        week.rules.append("\(session.template.name) replaced by an easy run: over its per-session cap for this week")
        changed = true
        any = true
        break
      }
    }
    return any
  }

  /// Holds the long run to its share of the week: long ≤ share × (long + others) ⇔ long ≤ share / (1 − share) ×
  /// others. When the shorter long run would no longer be a third longer than the other runs, the longest easy
  /// runs come down with it; the loop ends when the share holds or nothing can give.
  @discardableResult
  static func limitLongShare(_ week: inout WeekDraft, context: PlanContext) -> Bool {
    let share = context.base.weekStructure.longRunMaxOfWeek
    let ratio = context.base.longRun.minRatioToOtherRuns
    let minRun = week.minRunKm
    var changed = false
    for _ in 0..<20 {
      guard let long = week.longKm else { return changed }
      let planned = week.plannedKm
      let others = planned - round1(long)
      guard round1(long) > share * planned + 1e-9 else { return changed }
      let allowed = floorTenth(share / (1 - share) * others)
      let floor = LongRunRule.shortestLong(week, context)
      guard allowed >= floor - 1e-9, allowed < long else { return changed }
      changed = true
      week.longKm = allowed
      week.longTrimmedToShare = true
      // Easy runs (and strides runs) over the new limit come down to it.
      let limit = max(minRun, floorTenth(allowed / ratio))
      for (slot, km) in week.easyKm where km > limit + 1e-9 {
        week.easyKm[slot] = limit
      }
      for (slot, session) in week.orderedSessions where session.totalKm > limit + 1e-9 {
        if session.isStrides || session.totalKm - session.easyKm <= limit + 1e-9 {
          week.sessions[slot]?.easyKm = max(0, session.easyKm - (session.totalKm - limit))
        } else {
          week.sessions[slot] = nil
          week.easyKm[slot] = limit
        }
      }
    }
    return changed
  }
}
