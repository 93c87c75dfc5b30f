import RunningCore

/// The week's "why" lines, written last, from the week's final numbers: each line states the value the week
/// actually has (volume, change over the week it ramps from, long run), the target, and the rule that bound it.
/// The other rules leave reasons (``VolumeReason``, ``LongReason``, flags) and number-free notes; nothing here
/// changes the week.
enum ExplainRule: WeekRule {
  static func apply(to week: inout WeekDraft, context: PlanContext, history: [WeekSummary]) {
    let units = context.units
    let structure = context.base.weekStructure
    let planned = round1(week.plannedKm)
    var lines: [String] = []

    /// The week against the one it ramps from: `+3.3 km over week 1 (45 km)`, `0.2 km under week 1 (48.3 km)`
    /// or `the same as week 1 (48.3 km)`.
    func over(_ name: String, _ km: Double) -> String {
      "\(units.format(planned)): \(WhyLine.change(planned: planned, against: name, km: km, units: units))"
    }

    // Volume.
    switch week.volumeReason {
    case .ramp(let name, let km):
      let volume = context.base.volume
      lines.append(
        "Volume \(over(name, km)); target \(units.format(round1(week.targetKm))), ramp cap "
          + "min(\(Int(volume.maxIncreasePercent)) %, \(units.format(volume.maxIncreaseKmPerRun)) × \(context.runs) runs)"
      )
    case .capped(let name, let km, let base):
      if base {
        lines.append(
          "Volume \(over(name, km)); target \(units.format(round1(week.targetKm))), the base cap: "
            + "\(percent(context.base.volume.baseCapOfPeak)) of peak volume")
      } else if planned >= round1(context.peakTargetKm) - 0.05 {
        lines.append("Volume \(over(name, km)); peak volume \(units.format(round1(context.peakTargetKm))) reached")
      } else {
        lines.append(
          "Volume \(over(name, km)); target \(units.format(round1(week.targetKm))), the peak volume for "
            + "this plan")
      }
    case .cutback(let name, let km, let every):
      lines.append(
        "Cut-back week, \(units.format(planned)) (every \(VolumeRule.ordinal(every)) week for "
          + (context.cutbackVolumeFactor == context.base.cutback.volumeFactor
            ? "\(context.goal.level.rawValue)s" : "masters")
          + "): target \(percent(context.cutbackVolumeFactor)) of \(name)'s "
          + "\(units.format(round1(km)))")
    case .comeback(let share, let km):
      lines.append(
        "Return week after a break, \(units.format(planned)): target \(percent(share)) of the "
          + "\(units.format(round1(km))) a week you ran before it; after the return weeks, a week back at that "
          + "volume, then the ramp")
    case .rejoin(let km):
      lines.append(
        "Volume \(units.format(planned)): back to the \(units.format(round1(km))) a week you ran before the break, "
          + "after the return weeks; the ramp resumes next week")
    case .taper(let fraction, let peak):
      if week.phase == .race {
        let caps = context.raceWeekCaps
        lines.append(
          "Race week: \(units.format(round1(planned - (week.raceKm ?? 0)))) before race day, target "
            + "\(percent(fraction)) of the peak \(units.format(round1(peak))), then the race; runs before race day at most "
            + "\(units.format(caps.run)), the last \(structure.raceWeek.lastDays) days at most "
            + "\(units.format(caps.lastDays))")
      } else {
        lines.append(
          "Taper: \(units.format(planned)), target \(percent(fraction)) of the peak "
            + "\(units.format(round1(peak))); volume down, one race-pace session kept")
      }
    case nil:
      break
    }

    // Long run.
    if let long = week.longKm.map(round1), let reason = week.longReason {
      let chosen = round1(week.longChosenKm ?? long)
      var trim = ""
      if week.longTrimmedToShare {
        trim = "trimmed to at most \(percent(structure.longRunMaxOfWeek)) of the week; "
      } else if long < chosen - 0.05 {
        trim = "trimmed to keep the week within its ceiling; "
      }
      let byTime = context.longRunByTime
      switch reason {
      case _ where week.raceKm == nil && context.isByTime(longKm: long):
        // Written by time: the time, the distance it covers, the cap and the template's peak it holds the run under.
        lines.append(
          "Long run \(byTime.clock) by time, about \(units.format(long)): the \(Int(byTime.minutes))-minute cap at easy "
            + "pace, under the \(context.templatePeakLongLabel) peak long run for this level"
            + (byTime.ratioLabel.map { "; run/walk, \($0)" } ?? ""))
      case .limit(let km, let limit):
        let text = limit.text(context)
        if trim.isEmpty && chosen > floorTenth(km) + 0.05 {
          lines.append(
            "Long run \(units.format(long)): the shortest long run, a third longer than the "
              + "\(units.format(week.minRunKm)) minimum run")
        } else {
          lines.append("Long run \(units.format(long)): \(trim)\(trim.isEmpty ? "" : "limit: ")\(text)")
        }

      case .cutback:
        lines.append(
          "Cut-back long run \(units.format(long)): \(trim)back to two weeks earlier, at most "
            + "\(percent(context.base.cutback.longRunFactor)) of the last full week's")
      case .comeback(let share, let km):
        lines.append(
          "Return long run \(units.format(long)): \(trim)\(percent(share)) of your last long run before the break "
            + "(\(units.format(round1(km))))")
      case .taper(let fraction, let peakLong):
        let raised = long > floorTenth(fraction * peakLong) + 0.05 ? ", raised to the shortest long run" : ""
        lines.append(
          "Taper long run \(units.format(long)): \(trim)\(percent(fraction)) of the peak long run "
            + "\(units.format(round1(peakLong)))\(raised)")
      }
    }

    // The long run's race-specific finish and the week's marathon-pace budget.
    if let variant = week.longVariant {
      let share = context.base.intensity.maxMarathonPaceOfWeek
      let name = variant.kind == .marathonPace ? "Marathon-pace long run" : "Fast-finish long run"
      let pace = variant.zone == .marathon ? "marathon pace" : "goal race pace"
      lines.append(
        "\(name): the last \(units.format(variant.km)) at \(pace); marathon-pace budget "
          + "\(units.format(round1(LongRunVariantRule.marathonPaceKm(week, context)))) this week (long run and sessions), "
          + "at most \(percent(share)) of the week (\(units.format(floorTenth(share * planned))))")
    }

    // Week structure.
    if let slot = week.stridesAddedSlot, week.sessions[slot]?.isStrides == true,
      let day = week.slots.first(where: { $0.id == slot })?.date
    {
      lines.append(
        "Strides on \(day.weekday.shortName)'s easy run: the week's sessions have no repetition-pace work, and "
          + "Daniels keeps R pace in every phase of 5K and 10K training")
    }
    if let slot = week.eveCappedSlot, let km = week.easyKm[slot] {
      let longDate = week.slots.first { $0.role == .long }?.date
      let share = week.longKm.map { floorTenth(structure.eveOfLongMaxOfLong * $0) } ?? km
      let cap = week.longKm.flatMap { long in
        longDate.map { context.eveOfLongCap(long: long, week: week, longDate: $0) }
      }
      if let afterQuality = structure.eveOfLongAfterQualityMaxKm, let cap, cap < share - 1e-9,
        km <= afterQuality + 1e-9
      {
        lines.append(
          "Day before the long run kept to \(units.format(round1(km))), at most \(units.format(afterQuality)) "
            + "after the quality session the day before, so the long run starts on fresh legs (Pfitzinger); "
            + "the rest goes to other days")
      } else {
        lines.append(
          "Day before the long run kept to \(units.format(round1(km))), at most "
            + "\(percent(structure.eveOfLongMaxOfLong)) of the long run; the rest goes to other days")
      }
    }
    if week.eveRest {
      // The moved run is named only when it is still in the week (the guard may have dropped an easy run).
      let moved = week.eveMovedTo.flatMap { day in
        week.slots.first { $0.date == day && week.easyKm[$0.id] != nil }.map { _ in day }
      }
      lines.append(
        "Day before the long run is a rest day: \(percent(structure.eveOfLongMaxOfLong)) of the long run "
          + "is under the \(units.format(week.minRunKm)) minimum run"
          + (moved.map { "; that run moves to \($0.weekday.shortName)" } ?? ""))
    }
    if week.eveAtMinimum, let day = week.slots.first(where: { $0.role == .long })?.date,
      let slot = week.slots.first(where: { $0.date.days(to: day) == 1 }), let km = week.easyKm[slot.id]
    {
      lines.append(
        "Day before the long run holds the \(units.format(round1(km))) minimum run: "
          + "\(percent(structure.eveOfLongMaxOfLong)) of the long run is under it and no other day is free")
    }
    if let cap = context.fewRunsQualityCap, !week.cutback, week.phase != .taper, week.phase != .race,
      min(context.levelRules.qualityPerWeek[week.phase], context.pattern.filter { $0.role == .quality }.count) > cap
    {
      lines.append(
        "At most \(cap) quality session\(cap == 1 ? "" : "s") besides the long run at "
          + "\(structure.fewRunsAtMost) runs a week or fewer (\(context.goal.level.rawValue)): the other quality day "
          + "is an easy run")
    }

    lines += week.rules

    // Quality, from the sessions the week kept.
    let sessions = week.slots.compactMap { week.sessions[$0.id] }
    if !sessions.isEmpty {
      let progress = QualityRule.progressFraction(week: week, context: context)
      let stage = week.phase == .build || week.phase == .peak ? ", at \(percent(progress)) of their build-up" : ""
      lines.append(
        "Quality: \(sessions.map(\.template.name).joined(separator: ", "))\(stage); capped per session "
          + "(threshold ≤ \(percent(context.base.intensity.maxThresholdOfWeek)), intervals ≤ "
          + "\(percent(context.base.intensity.maxIntervalOfWeek)) of the week)")
    }
    for session in sessions where session.shortened {
      lines.append("\(session.template.name) shortened to fit the per-session cap for a \(units.format(planned)) week")
    }

    // Easy running.
    let ratio = context.base.longRun.minRatioToOtherRuns
    if week.cappedByLong, let long = week.longKm, planned < round1(week.targetKm) - 0.05 {
      let others = week.runDistances.filter { $0 != round1(long) }.max() ?? 0
      if let held = week.othersHeldByLongKm {
        lines.append(
          "Easy runs capped at \(units.format(max(floorTenth(held / ratio), others))), a third shorter than "
            + "\(units.format(held)), the longest a step-back long run may be between the peak long runs, so the full "
            + "weeks stay level; the week comes out under its target")
      } else {
        let cap = max(floorTenth(round1(long) / ratio), others)
        lines.append(
          "Easy runs capped at \(units.format(cap)) so the long run stays a third longer than any other run; "
            + "the week comes out under its target")
      }
    }
    if week.cappedByMinutes, planned < round1(week.targetKm) - 0.05,
      let minutes = context.base.weekStructure.otherRunMaxMinutesAtFewRuns
    {
      lines.append(
        "Easy runs capped at \(units.format(context.otherRunCapKm)), \(Int(minutes)) minutes at easy pace at "
          + "\(context.runs) runs a week; the week comes out under its target")
    }
    let structureRules = context.base.weekStructure
    if let long = week.longKm, let medium = week.mediumLong(minKm: structureRules.mediumLong.minKm) {
      lines.append(
        "Medium-long run \(units.format(round1(medium.km))): the week's second-longest run, "
          + "\(percent(round1(medium.km) / round1(long))) of the long run (aim "
          + "\(percent(structureRules.mediumLong.ofLong)) at \(structureRules.mediumLong.fromRuns)+ runs a week)")
    }
    if week.recoveryCapped,
      let km = week.slots.first(where: { $0.role == .recovery }).flatMap({ week.easyKm[$0.id] })
    {
      lines.append(
        "Recovery run kept to \(units.format(round1(km))), at most \(Int(structureRules.recoveryMaxMinutes)) "
          + "minutes at easy pace; the rest goes to other days")
    }
    let easyRuns = week.easyKm.values.map(round1) + sessions.filter(\.isStrides).map { round1($0.totalKm) }
    if week.raisedToMinimum, easyRuns.contains(where: { abs($0 - week.minRunKm) < 0.05 }) {
      lines.append("Easy runs kept at the \(units.format(week.minRunKm)) minimum")
    }
    if week.trimmedToCeiling {
      lines.append(
        "Trimmed to \(units.format(planned)) to stay within the week's ceiling of "
          + "\(units.format(round1(week.ceilingKm)))")
    }
    // Runs a week: the runs asked for, or the week says why it has fewer.
    let runs = week.runCount
    if week.phase != .race && runs < context.runs {
      let why =
        context.comeback[week.number] != nil
        ? "return week after a break"
        : week.cutback
          ? "cut-back week"
          : week.phase == .taper
            ? "taper week"
            : "\(units.format(planned)) is too small for \(context.runs) runs of at least "
              + "\(units.format(week.minRunKm)) (about \(Int(structure.minRunMinutes)) minutes) beside the long run"
      lines.append("\(runs) runs: you asked for \(context.runs); \(why)")
    }
    week.rules = lines
  }
}

/// The parts of a "why" line that other stages restate from final numbers (a replan splices weeks together).
public enum WhyLine {
  /// `+3.3 km over week 1 (45 km)`, `0.2 km under week 1 (48.3 km)` or `the same as week 1 (48.3 km)`: `planned`
  /// against `km`, the volume of the week called `name`.
  public static func change(planned: Double, against name: String, km: Double, units: DistanceUnit) -> String {
    let reference = round1(km)
    let delta = round1(round1(planned) - reference)
    let change =
      delta > 0 ? "+\(units.format(delta)) over" : delta < 0 ? "\(units.format(-delta)) under" : "the same as"
    return "\(change) \(name) (\(units.format(reference)))"
  }

  /// A week's volume line (`Volume 35.1 km: +2.3 km over week 2 (32.8 km); target …`) with its comparison
  /// restated against the final volume of the week it names (`volumeOfWeek`, nil to keep the line); any other
  /// line is returned as it is.
  public static func restating(
    _ line: String, planned: Double, units: DistanceUnit, volumeOfWeek: (Int) -> Double?
  ) -> String {
    guard line.hasPrefix("Volume "), let colon = line.range(of: ": "),
      let named = line.range(of: " week ", range: colon.upperBound..<line.endIndex),
      let open = line.range(of: " (", range: named.upperBound..<line.endIndex),
      let number = Int(line[named.upperBound..<open.lowerBound]), let km = volumeOfWeek(number),
      let close = line.range(of: ")", range: open.upperBound..<line.endIndex)
    else { return line }
    return "Volume \(units.format(round1(planned))): "
      + change(planned: planned, against: "week \(number)", km: km, units: units) + line[close.upperBound...]
  }
}
