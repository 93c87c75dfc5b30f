/// Quality sessions: which ones, how many, and how big.
///
/// - Per phase and level, the distance file lists workouts used in rotation; `base.yaml` says how many per
///   week (cut-back weeks keep one). Beginners get strides, fartlek, hills and short tempo, no intervals.
/// - Sessions grow from the template's smallest form at the start of the build to its largest at peak, and are
///   then shrunk to Daniels' per-session caps (threshold ≤ 10 %, intervals ≤ 8 %, repetitions ≤ 5 % of the
///   week) and kept shorter than the long run by a third. A session that cannot fit becomes an easy run.
/// - Quality days sit in the weekly pattern so that no two hard days are adjacent.
enum QualityRule: WeekRule {
  static func apply(to week: inout WeekDraft, context: PlanContext, history: [WeekSummary]) {
    week.stridesAddedSlot = nil
    assignSessions(&week, context: context)
    addStrides(&week, context: context)
  }

  /// With `stridesEveryWeek` (5K, 10K), a full base, build or peak week whose sessions hold no repetition-pace work
  /// gets strides on an easy run: the recovery run after the long run first (Pfitzinger's "recovery + strides"),
  /// then the easy day (or quality day without a session) nearest the long run but not the medium-long run's day
  /// (the easy day furthest from the long run at `mediumLong.fromRuns` runs or more), then the day before the long run
  /// when half the long run is a whole run there (the run keeps its cap). Not in a return week after a break.
  static func addStrides(_ week: inout WeekDraft, context: PlanContext) {
    guard context.distance.stridesEveryWeek == true,
      week.phase == .base || week.phase == .build || week.phase == .peak,
      !week.sessions.values.contains(where: { $0.zone == .repetition }),
      context.comeback[week.number] == nil,
      context.levelRules.allowedKinds.contains(.strides),
      let box = context.libraryBoxes["strides"],
      let longDate = week.slots.first(where: { $0.role == .long })?.date
    else { return }
    func away(_ slot: DaySlot) -> Int { abs(slot.date.days(to: longDate)) }
    var free = week.slots.filter {
      ($0.role == .easy || $0.role == .quality) && week.sessions[$0.id] == nil && $0.date.days(to: longDate) != 1
    }
    if context.runs >= context.base.weekStructure.mediumLong.fromRuns,
      let medium = free.filter({ $0.role == .easy && away($0) > 1 }).max(by: { away($0) < away($1) })
    {
      free.removeAll { $0.id == medium.id }
    }
    let eve = week.slots.first {
      $0.date.days(to: longDate) == 1 && ($0.role == .easy || $0.role == .quality) && week.sessions[$0.id] == nil
    }
    let eveHoldsARun =
      week.longKm.map { context.eveOfLongCap(long: $0, week: week, longDate: longDate) >= week.minRunKm } ?? false
    let recovery = week.slots.first { $0.role == .recovery && week.sessions[$0.id] == nil }
    let nearest = free.min { away($0) < away($1) }
    guard let slot = recovery ?? nearest ?? (eveHoldsARun ? eve : nil),
      let strides = Session.sized(
        id: "strides", box: box, progress: QualityRule.progressFraction(week: week, context: context),
        volumeKm: week.targetKm, maxKm: .infinity, context: context)
    else { return }
    week.sessions[slot.id] = strides
    week.stridesAddedSlot = slot.id
  }

  static func assignSessions(_ week: inout WeekDraft, context: PlanContext) {
    var count = context.qualityCount(phase: week.phase)
    if week.cutback { count = min(count, 1) }
    // The first days back after a break are easy running: a return week under the cut-back share has no session.
    if let share = context.comeback[week.number], share < context.base.cutback.volumeFactor - 1e-9 { count = 0 }
    if context.longRunLayout?.variants[week.number] == .marathonPace,
      let beside = context.distance.longRun.variants?.qualityBesideMarathonPace, beside < count
    {
      count = beside
      week.rules.append(
        LongRunVariantRule.fewerQualityNote)
    }
    // A week too small for the runs asked for has fewer (``EasyFillRule``), and fewer quality sessions with them:
    // one beside the long run at three runs (every run hard otherwise), the few-runs count up to four.
    if week.phase != .race, let long = week.longKm, week.minRunKm > 0 {
      let fits = 1 + Int(max(0, (week.targetKm - long) / week.minRunKm + 1e-9).rounded(.down))
      let runs = min(context.runs, fits)
      let structure = context.base.weekStructure
      if runs < context.runs && runs <= 3 {
        count = min(count, 1)
      } else if runs < context.runs && runs <= structure.fewRunsAtMost {
        count = min(count, structure.qualityAtFewRuns[context.goal.level])
      }
    }
    let list = context.level.workouts[week.phase]
    guard count > 0, !list.isEmpty else { return }

    let progress = progressFraction(week: week, context: context)
    let marathonPaceLong = context.longRunLayout?.variants[week.number] == .marathonPace
    let maxOther = week.maxOtherRunKm(ratio: context.base.longRun.minRatioToOtherRuns)
    // The sessions chosen so far this week (a few: a list, not a hashed set).
    var used: [String] = []
    var index = -1
    // The quality days in order, the first `count` of them (read from the week's days, not copied out).
    for slot in week.slots where slot.role == .quality {
      index += 1
      guard index < count else { break }
      let maxKm = week.phase == .race ? min(maxOther, context.raceWeekCap(on: slot.date)) : maxOther
      // Base, build and peak rotate through their list; taper and race week take it as an order of preference.
      let rotating = week.phase == .base || week.phase == .build || week.phase == .peak
      let rotation = rotating ? (week.number - 1 + index) % list.count : index % list.count
      // Full base, build and peak weeks hold sessions worth doing (the level's floors): the phase's list first,
      // then a fartlek or strides, which have none.
      let full = !week.cutback && (week.phase == .base || week.phase == .build || week.phase == .peak)
      let floor = full ? context.levelRules.sessionFloors : nil
      func sized(_ id: String) -> Session? {
        guard let box = context.libraryBoxes[id] else { return nil }
        return Session.sized(
          id: id, box: box, progress: progress, volumeKm: week.sizingKm ?? week.targetKm,
          maxKm: maxKm, context: context, floor: floor)
      }
      // The candidates in turn, without building their list: the list from the rotation on, those not used yet this
      // week first, then those used; then the fallbacks.
      // Beside a marathon-pace long run the session is another kind first (Pfitzinger: a threshold session and the
      // MP long run, not two MP days): the week's marathon-pace budget goes to the long run.
      var chosen: Session?
      for takeMarathonPace in marathonPaceLong ? [false, true] : [true] where chosen == nil {
        for takeUsed in [false, true] where chosen == nil {
          for offset in 0..<list.count {
            let id = list[(rotation + offset) % list.count]
            guard used.contains(id) == takeUsed,
              takeMarathonPace || context.library[id].map({ $0.zone != .marathon }) == true
            else { continue }
            chosen = sized(id)
            if chosen != nil { break }
          }
        }
      }
      if chosen == nil && full {
        let allowed = context.levelRules.allowedKinds
        for id in ["fartlek", "strides"]
        where !list.contains(id) && context.library[id].map({ allowed.contains($0.kind) }) == true {
          chosen = sized(id)
          if chosen != nil { break }
        }
      }
      guard let session = chosen else {
        week.rules.append(
          "No quality session on \(slot.date.shortLabel): the week is too small for any session "
            + "within the per-session caps, so it is an easy run")
        continue
      }
      used.append(session.templateID)
      week.sessions[slot.id] = session
    }
  }

  /// 0 at the first build week, 1 at the last peak week; 0 in base, taper and cut-back weeks.
  static func progressFraction(week: WeekDraft, context: PlanContext) -> Double {
    guard !week.cutback, week.phase == .build || week.phase == .peak else { return 0 }
    guard let (first, last) = context.buildPeakWeeks, last > first else { return 1 }
    return Double(week.number - first) / Double(last - first)
  }
}
