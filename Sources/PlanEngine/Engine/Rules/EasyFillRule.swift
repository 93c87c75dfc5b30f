import RunningCore

/// Easy running fills the rest of the week's volume.
///
/// - Easy, recovery and unused quality days share what the long run and the quality sessions leave; a
///   recovery day (the day after the long run) gets 70 % of an easy day's share.
/// - Every run is at least the minimum run (`weekStructure.minRunMinutes` at easy pace) and at most the long run
///   divided by 1.34 (the long run is at least a third longer than any other run of its week). Distances are
///   rounded down to half kilometres.
/// - The day before the long run carries at most `weekStructure.eveOfLongMaxOfLong` of the long run; its share
///   goes to the other days. When that is under the minimum run, the run moves to a free day of the week
///   (`eveOfLongTooShort: move`; with no free day it stays as the minimum run) or the day rests (`rest`, or a
///   week too small to hold every run at the minimum beside its long run and sessions).
/// - In race week, the day before the race is a short shakeout and every run stays under the race-week caps.
enum EasyFillRule: WeekRule {
  static func apply(to week: inout WeekDraft, context: PlanContext, history: [WeekSummary]) {
    let minRun = week.minRunKm
    let byLong = floorTenth(week.maxOtherRunKm(ratio: context.base.longRun.minRatioToOtherRuns))
    // At few runs a week, no run but the long run is over `otherRunMaxMinutesAtFewRuns` (race week has its own caps).
    let byMinutes = week.phase == .race ? Double.infinity : context.otherRunCapKm
    let maxOther = max(minRun, min(byLong, byMinutes))
    let raceDate = context.goal.timeline.raceDate
    let structure = context.base.weekStructure
    let longDate = week.longKm == nil ? nil : week.slots.first { $0.role == .long }?.date
    week.eveCappedSlot = nil
    week.eveRest = week.eveMovedTo != nil
    week.eveAtMinimum = false
    week.raisedToMinimum = false
    week.cappedByMinutes = false

    // Sized once for the week's days (a week has a handful: no regrowth while they are filled in).
    var fillSlots: [DaySlot] = []
    var caps: [Double] = []
    fillSlots.reserveCapacity(week.slots.count)
    caps.reserveCapacity(week.slots.count)
    var eveIndex: Int?
    /// The recovery days held to their cap, by index in `fillSlots` (at most a few: a list, not a hashed set).
    var recoveryCapped: [Int] = []
    week.mediumLongSlot = nil
    week.recoveryCapped = false
    for slot in week.slots where slot.role != .long {
      if let session = week.sessions[slot.id], !session.isStrides { continue }
      if week.phase == .race && slot.date.days(to: raceDate) == 1 {
        week.shakeoutSlots.insert(slot.id)
        continue
      }
      var cap = week.longKm == nil ? maxOther : min(maxOther, byLong)
      if week.phase == .race {
        cap = min(cap, context.raceWeekCap(on: slot.date))
        // Race week's caps may be under the minimum run (a beginner's last days before a 5K): the cap wins.
        if cap < minRun {
          fillSlots.append(slot)
          caps.append(cap)
          continue
        }
      }
      if let longDate, let long = week.longKm, slot.date.days(to: longDate) == 1 {
        let eve = context.eveOfLongCap(long: long, week: week, longDate: longDate)
        if eve < minRun && week.sessions[slot.id] == nil {
          // The week must hold every run at the plan's minimum run with the long run and the sessions as they
          // are; otherwise it is too small for this run, which is dropped (trimming the long run or a session,
          // or shortening every run under the minimum, to keep one more easy run would be the wrong trade).
          let fullMinimum = max(minRun, context.minRunKm)
          let easyDays = week.slots.filter { $0.role != .long && week.sessions[$0.id] == nil }.count
          let needed =
            long
            + week.sessions.values.map { $0.isStrides ? max(fullMinimum, $0.totalKm) : $0.totalKm }.reduce(0, +)
            + Double(easyDays) * fullMinimum
          if structure.eveOfLongTooShort == .rest || needed > week.ceilingKm + 1e-9 {
            week.eveRest = true
            continue
          }
          if let day = moveEveRun(&week, slotID: slot.id, runDays: context.goal.runDays.map(Set.init)) {
            // The moved run is an ordinary easy day now (the loop reads the slots as they were).
            week.eveMovedTo = day
            week.eveRest = true
            fillSlots.append(DaySlot(id: slot.id, role: slot.role, offset: slot.offset, date: day))
            caps.append(max(minRun, cap))
            continue
          }
          week.eveAtMinimum = true
          fillSlots.append(slot)
          caps.append(minRun)
          continue
        }
        if eve < cap {
          cap = max(minRun, eve)
          eveIndex = fillSlots.count
        }
      }
      if slot.role == .recovery && context.recoveryMaxKm < cap {
        cap = context.recoveryMaxKm
        recoveryCapped.append(fillSlots.count)
      }
      fillSlots.append(slot)
      caps.append(max(minRun, cap))
    }
    let lastDaysCap = context.raceWeekCaps.lastDays
    let shakeout = max(min(minRun, lastDaysCap), min(structure.raceWeek.shakeoutKm, maxOther, lastDaysCap))
    for id in week.shakeoutSlots { week.easyKm[id] = shakeout }

    // The sessions' distance, summed in slot-id order without building arrays.
    var sessionsKm = 0.0
    var sessionRuns = 0
    for session in week.sessions.values where !session.isStrides {
      sessionsKm += session.totalKm
      sessionRuns += 1
    }
    let fixed =
      (week.longKm ?? 0) + (week.raceKm ?? 0) + Double(week.shakeoutSlots.count) * shakeout + sessionsKm
    // A strides run is filled like an easy day: its share is the whole run, strides included (below).
    let remaining = max(0, week.targetKm - fixed)
    // Fewer runs before shorter ones: a week whose easy days cannot each hold the minimum run has fewer runs (the
    // day before the long run first, then the recovery day, then the easy day nearest the long run; strides last),
    // down to three runs, and says so (``ExplainRule``). The long run and the sessions keep their size.
    do {
      let longDay = week.slots.first { $0.role == .long }?.date
      func priority(_ index: Int) -> (Int, Int, Int) {
        let slot = fillSlots[index]
        let strides = week.sessions[slot.id] != nil ? 1 : 0
        let kind = index == eveIndex ? 0 : slot.role == .recovery ? 1 : 2
        let near = longDay.map { abs(slot.date.days(to: $0)) } ?? 0
        return (strides, kind, near)
      }
      var runs =
        fillSlots.count + sessionRuns + week.shakeoutSlots.count
        + (week.longKm == nil && week.raceKm == nil ? 0 : 1)
      var dropped: Set<Int> = []
      while runs > 3 && Double(fillSlots.count - dropped.count) * minRun > remaining + 1e-9,
        let drop = fillSlots.indices.filter({ !dropped.contains($0) }).min(by: { priority($0) < priority($1) })
      {
        dropped.insert(drop)
        runs -= 1
        // Strides ride on the run: they go with it.
        week.sessions[fillSlots[drop].id] = nil
      }
      if !dropped.isEmpty {
        let kept = fillSlots.indices.filter { !dropped.contains($0) }
        eveIndex = eveIndex.flatMap { kept.firstIndex(of: $0) }
        recoveryCapped = recoveryCapped.compactMap { kept.firstIndex(of: $0) }
        fillSlots = kept.map { fillSlots[$0] }
        caps = kept.map { caps[$0] }
      }
    }
    let weights = fillSlots.map { $0.role == .recovery ? 0.7 : 1.0 }
    // Water-filling: a day whose share is over its cap takes its cap, and the others share the rest.
    var capped = [Bool](repeating: false, count: fillSlots.count)
    var pool = remaining
    /// The weights of the days not capped yet, summed in order.
    func openWeight() -> Double {
      var total = 0.0
      for index in fillSlots.indices where !capped[index] { total += weights[index] }
      return total
    }
    var changed = true
    while changed {
      changed = false
      let open = openWeight()
      guard open > 0 else { break }
      // The days open when this pass began (a day capped in this pass is still taken in turn, as before).
      let wasCapped = capped
      for index in fillSlots.indices where !wasCapped[index] && pool * weights[index] / open > caps[index] {
        capped[index] = true
        pool -= caps[index]
        changed = true
      }
    }
    let openWeight = openWeight()
    var cappedByLong = false
    // Half kilometres, rounded down, then the leftover handed out half a kilometre at a time.
    var shares: [Double] = []
    var kms: [Double] = []
    shares.reserveCapacity(fillSlots.count)
    kms.reserveCapacity(fillSlots.count)
    for index in fillSlots.indices {
      let share = capped[index] ? caps[index] : (openWeight > 0 ? max(0, pool) * weights[index] / openWeight : 0)
      if capped[index] && caps[index] >= maxOther && openWeight == 0 {
        if byMinutes < byLong { week.cappedByMinutes = true } else { cappedByLong = true }
      }
      shares.append(share)
      // Runs held at their cap keep their tenths; the rest come in half kilometres.
      var km = capped[index] ? caps[index] : floorHalf(share)
      // The minimum run, or a race-week cap under it.
      let floor = min(minRun, caps[index])
      if km < floor {
        km = floor
        week.raisedToMinimum = true
      }
      kms.append(km)
    }
    var leftover = remaining - kms.reduce(0, +)
    for index in kms.indices.sorted(by: { (shares[$0] - kms[$0], -$0) > (shares[$1] - kms[$1], -$1) })
    where leftover >= 0.5 - 1e-9 && kms[index] + 0.5 <= caps[index] + 1e-9 {
      kms[index] += 0.5
      leftover -= 0.5
    }
    // The last tenths (under half a kilometre) go to the runs with the most room, so that the week holds its target:
    // a small week losing them to rounding had its long run trimmed to its share and ramped from less, week after week.
    for index in kms.indices.sorted(by: { (caps[$0] - kms[$0], -$0) > (caps[$1] - kms[$1], -$1) })
    where leftover >= 0.1 - 1e-9 {
      let add = min(floorTenth(leftover), floorTenth(caps[index] - kms[index]))
      if add > 0 {
        kms[index] += add
        leftover -= add
      }
    }
    if let medium = mediumLong(&kms, fillSlots, week: week, context: context, eveIndex: eveIndex) {
      week.mediumLongSlot = fillSlots[medium].id
    }
    week.recoveryCapped = recoveryCapped.contains { capped[$0] && kms[$0] >= caps[$0] - 1e-9 }
    for (index, (slot, km)) in zip(fillSlots, kms).enumerated() {
      if index == eveIndex && capped[index] { week.eveCappedSlot = slot.id }
      if var session = week.sessions[slot.id], session.isStrides {
        let extras = session.totalKm - session.easyKm
        // The strides are part of the run: the whole run, strides included, is the easy share.
        session.easyKm = max(min(minRun, caps[index]) - extras, floorTenth(km - extras))
        week.sessions[slot.id] = session
      } else {
        week.easyKm[slot.id] = km
      }
    }
    if cappedByLong { week.cappedByLong = true }
    padSessions(&week, context: context, leftover: remaining - kms.reduce(0, +), maxOther: maxOther)
  }

  /// Quality days carry easy running too: a session shorter than the minimum run gets a longer easy warm-up up to
  /// it (every run lasts about 20 minutes), and when the easy days are full (each at its cap) while the week is
  /// under its target, the sessions take the rest as easy warm-up, half a kilometre at a time, up to the longest any
  /// run but the long run may be. A runner above the template keeps their volume in warm-ups and cool-downs instead
  /// of losing it, and the week's volume no longer rises and falls with the size of its sessions.
  static func padSessions(_ week: inout WeekDraft, context: PlanContext, leftover: Double, maxOther: Double) {
    var pool = leftover
    let raceDate = context.goal.timeline.raceDate
    for (slot, session) in week.orderedSessions where !session.isStrides {
      var cap = maxOther
      if week.phase == .race, let date = week.slots.first(where: { $0.id == slot })?.date {
        cap = min(cap, context.raceWeekCap(on: date))
        if date.days(to: raceDate) <= 1 { continue }
      }
      var padded = session
      if padded.totalKm < week.minRunKm - 1e-9 {
        // In tenths, rounded down: the padded run stays within its cap as the plan rounds it.
        let need = floorTenth(min(cap, week.minRunKm) - padded.totalKm)
        if need > 0 {
          padded.easyKm += need
          pool -= need
        }
      }
      while pool >= 0.5 - 1e-9 && padded.totalKm + 0.5 <= cap + 1e-9 {
        padded.easyKm += 0.5
        pool -= 0.5
      }
      week.sessions[slot] = padded
    }
  }
}

extension EasyFillRule {
  /// The medium-long run (`weekStructure.mediumLong`): at `fromRuns` runs a week or more, the plain easy day
  /// furthest from the long run (never the day before or after it) becomes the week's second-longest run, about
  /// `ofLong` of the long run. Its extra distance comes from the other easy days, half a kilometre at a time from
  /// the longest, none going under the minimum run or `othersAtLeastOfIt` of it: the week's volume is unchanged.
  /// Returns its index in `slots`, or nil when the week has none (too few runs, race week, no such day, or a week
  /// too small: under `minKm`, or not as long as every other run but the long run).
  static func mediumLong(
    _ kms: inout [Double], _ slots: [DaySlot], week: WeekDraft, context: PlanContext, eveIndex: Int?
  ) -> Int? {
    let rules = context.base.weekStructure.mediumLong
    guard context.runs >= rules.fromRuns, week.phase != .race, let long = week.longKm,
      let longDate = week.slots.first(where: { $0.role == .long })?.date
    else { return nil }
    // Never between two hard days (a quality session or the long run the day before and the day after; weeks
    // repeat, so the days beside the week's edges are the same weekdays of the pattern).
    // The hard days' weekdays, one bit each (a set of at most seven small numbers).
    var hard = 0
    for slot in week.slots where slot.role == .long || (week.sessions[slot.id].map { !$0.isStrides } ?? false) {
      hard |= 1 << slot.date.weekday.index
    }
    func isHard(_ weekday: Int) -> Bool { hard & (1 << weekday) != 0 }
    let candidates = slots.indices.filter { index in
      let day = slots[index].date.weekday.index
      return slots[index].role == .easy && week.sessions[slots[index].id] == nil && index != eveIndex
        && abs(slots[index].date.days(to: longDate)) > 1
        && !(isHard((day + 6) % 7) && isHard((day + 1) % 7))
    }
    guard
      let chosen = candidates.max(by: {
        (abs(slots[$0].date.days(to: longDate)), -$0) < (abs(slots[$1].date.days(to: longDate)), -$1)
      })
    else { return nil }
    let maxOther = floorTenth(week.maxOtherRunKm(ratio: context.base.longRun.minRatioToOtherRuns))
    let target = min(maxOther, floorHalf(rules.ofLong * long))
    var result = kms
    let floor = max(week.minRunKm, rules.othersAtLeastOfIt * target)
    while result[chosen] + 0.5 <= target + 1e-9 {
      // The longest donor, the first of equals (each index is a different key: (km, −index)).
      var donor: Int?
      for index in result.indices where index != chosen && result[index] - 0.5 >= floor - 1e-9 {
        if let best = donor, (result[index], -index) <= (result[best], -best) { continue }
        donor = index
      }
      guard let donor else { break }
      result[donor] -= 0.5
      result[chosen] += 0.5
    }
    let medium = result[chosen]
    guard medium >= rules.minKm - 1e-9,
      result.indices.allSatisfy({ $0 == chosen || result[$0] <= medium + 1e-9 }),
      week.sessions.values.allSatisfy({ $0.isStrides || $0.totalKm <= medium + 1e-9 })
    else { return nil }
    kms = result
    return chosen
  }

  /// Moves the run of `slotID` (the day before the long run) to a free day of the week that is not the day before
  /// the long run: the one with the fewest hard days (quality, long) beside it, then the fewest runs, then the
  /// nearest to where it was. Days beside the week's edges count the same weekdays of the pattern (weeks repeat).
  /// With the runner's run days (`runDays`), only a free run day will do.
  /// - Returns: the new day, or nil when no day is free (or the slot is not an easy or recovery day).
  static func moveEveRun(_ week: inout WeekDraft, slotID: String, runDays: Set<Weekday>? = nil) -> CivilDate? {
    guard let index = week.slots.firstIndex(where: { $0.id == slotID }),
      week.slots[index].role == .easy || week.slots[index].role == .recovery,
      let longDate = week.slots.first(where: { $0.role == .long })?.date
    else { return nil }
    let from = week.slots[index].date
    let others = week.slots.filter { $0.id != slotID }
    func weekday(_ date: CivilDate) -> Int { date.weekday.index }
    let hard = Set(others.filter { $0.role == .quality || $0.role == .long }.map { weekday($0.date) })
    let runs = Set(others.map { weekday($0.date) })
    let taken = Set(others.map(\.date))
    let candidates = (0..<7).map { week.start.adding(days: $0) }
      .filter { !taken.contains($0) && $0 != from && $0.days(to: longDate) != 1 }
      .filter { runDays?.contains($0.weekday) ?? true }
    func score(_ day: CivilDate) -> (Int, Int, Int, Int) {
      let beside = [(weekday(day) + 6) % 7, (weekday(day) + 1) % 7]
      return (
        beside.filter(hard.contains).count, beside.filter(runs.contains).count, abs(from.days(to: day)),
        day.dayNumber
      )
    }
    guard let day = candidates.min(by: { score($0) < score($1) }) else { return nil }
    week.slots[index].date = day
    week.slots.sort { $0.date < $1.date }
    return day
  }
}
