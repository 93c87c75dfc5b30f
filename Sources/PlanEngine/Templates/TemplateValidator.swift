import RunningCore

/// Semantic checks on decoded templates: ranges, cross-references and the training rules' hard limits.
struct TemplateValidator {
  let file: String

  private func check(
    _ condition: Bool, _ keyPath: String, _ value: @autoclosure () -> String,
    _ allowed: String
  ) throws(TemplateError) {
    if !condition { throw .invalidValue(file: file, keyPath: keyPath, value: value(), allowed: allowed) }
  }

  private func number(
    _ value: Double, _ keyPath: String, in range: ClosedRange<Double>,
    _ what: String = ""
  ) throws(TemplateError) {
    try check(
      value.isFinite && range.contains(value), keyPath, "'\(format(value))'",
      "\(what.isEmpty ? "" : what + " ")from \(format(range.lowerBound)) to \(format(range.upperBound))")
  }

  private func integer(_ value: Int, _ keyPath: String, in range: ClosedRange<Int>) throws(TemplateError) {
    try check(
      range.contains(value), keyPath, "'\(value)'", "a whole number from \(range.lowerBound) to \(range.upperBound)")
  }

  private func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
  }

  func validate(_ base: BaseRules) throws(TemplateError) {
    try integer(base.maxWeeks, "maxWeeks", in: 8...60)
    try number(base.volume.maxIncreasePercent, "volume.maxIncreasePercent", in: 1...30)
    try number(base.volume.maxIncreaseKmPerRun, "volume.maxIncreaseKmPerRun", in: 0.1...5)
    try number(base.volume.baseCapOfPeak, "volume.baseCapOfPeak", in: 0.3...1)
    try number(base.volume.minRunKm, "volume.minRunKm", in: 1...10)
    for level in Level.allCases {
      try integer(base.cutback.every[level], "cutback.every.\(level.rawValue)", in: 2...8)
    }
    try number(base.cutback.volumeFactor, "cutback.volumeFactor", in: 0.5...0.95)
    try number(base.cutback.longRunFactor, "cutback.longRunFactor", in: 0.5...1)
    let phases = base.phases
    try number(phases.baseFraction, "phases.baseFraction", in: 0...0.5)
    try number(phases.peakFraction, "phases.peakFraction", in: 0...0.5)
    try integer(phases.baseMinWeeks, "phases.baseMinWeeks", in: 0...8)
    try integer(phases.peakMinWeeks, "phases.peakMinWeeks", in: 0...6)
    try integer(phases.peakMaxWeeks, "phases.peakMaxWeeks", in: max(1, phases.peakMinWeeks)...8)
    try integer(phases.buildMaxWeeks, "phases.buildMaxWeeks", in: 1...30)
    let long = base.longRun
    try number(long.capOfWeek, "longRun.capOfWeek", in: 0.15...0.5)
    try number(long.noviceCapOfWeek, "longRun.noviceCapOfWeek", in: long.capOfWeek...0.6)
    if let runs = long.manyRunsFrom { try integer(runs, "longRun.manyRunsFrom", in: 4...7) }
    if let share = long.manyRunsCapOfWeek {
      try number(share, "longRun.manyRunsCapOfWeek", in: long.capOfWeek...long.noviceCapOfWeek)
    }
    try number(long.warnAboveOfWeek, "longRun.warnAboveOfWeek", in: long.capOfWeek...0.6)
    try number(long.spikeFactor, "longRun.spikeFactor", in: 1...1.3)
    try integer(long.spikeLookbackWeeks, "longRun.spikeLookbackWeeks", in: 1...8)
    try number(long.minRatioToOtherRuns, "longRun.minRatioToOtherRuns", in: 1...2)
    try number(long.maxMinutes, "longRun.maxMinutes", in: 60...240, "minutes")
    try number(long.refuseUnderShareOfNeed, "longRun.refuseUnderShareOfNeed", in: 0...1)
    let intensity = base.intensity
    try number(intensity.minEasyTimeFraction, "intensity.minEasyTimeFraction", in: 0.5...1)
    try number(intensity.maxThresholdOfWeek, "intensity.maxThresholdOfWeek", in: 0...0.2)
    try number(intensity.maxIntervalOfWeek, "intensity.maxIntervalOfWeek", in: 0...0.2)
    try number(intensity.maxRepetitionOfWeek, "intensity.maxRepetitionOfWeek", in: 0...0.2)
    try number(
      intensity.maxMarathonPaceOfWeek, "intensity.maxMarathonPaceOfWeek", in: intensity.maxThresholdOfWeek...0.35,
      "a share of the week (at least intensity.maxThresholdOfWeek)")
    if let share = intensity.minWorkOfCap {
      try number(share, "intensity.minWorkOfCap", in: 0...1, "a share of the per-session cap")
    }
    try number(base.goalTime.vdotGainPerWeek, "goalTime.vdotGainPerWeek", in: 0.05...0.5, "VDOT a week")
    try number(base.goalTime.maxVdot, "goalTime.maxVdot", in: 60...90)
    try number(base.goalTime.slowestMinutesPerKm, "goalTime.slowestMinutesPerKm", in: 8...15, "minutes a km")
    if let margin = base.goalTime.unbackedMarginVdot {
      try number(margin, "goalTime.unbackedMarginVdot", in: 0...30, "VDOT points")
    }
    let replan = base.replan
    try number(Double(replan.lookbackWeeks), "replan.lookbackWeeks", in: 2...8, "weeks")
    try check(
      replan.weekWeights.count == replan.lookbackWeeks
        && replan.weekWeights.allSatisfy { $0.isFinite && $0 > 0 && $0 <= 100 },
      "replan.weekWeights", "\(replan.weekWeights)", "one positive weight per look-back week")
    try number(Double(replan.pauseDays), "replan.pauseDays", in: 1...28, "days")
    try number(replan.afterPauseShare, "replan.afterPauseShare", in: 0.3...1)
    try number(replan.longRunDoneShare, "replan.longRunDoneShare", in: 0.5...1)
    try number(replan.onTrackShare, "replan.onTrackShare", in: 0.5...1)
    try number(replan.rejoinTolerance, "replan.rejoinTolerance", in: 0...0.1)
    try number(replan.maxReturnShare, "replan.maxReturnShare", in: 0.5...1)
    for (index, step) in replan.comeback.enumerated() {
      try number(Double(step.underDays), "replan.comeback[\(index)].underDays", in: 1...56, "days")
      try check(
        !step.shares.isEmpty && step.shares.count <= 4 && step.shares.allSatisfy { (0.3...1).contains($0) }
          && (index == 0 || step.underDays > replan.comeback[index - 1].underDays),
        "replan.comeback[\(index)]", "\(step.shares)",
        "1 to 4 shares from 0.3 to 1, each step for longer breaks than the one before")
    }
    for (reason, step) in replan.reasonStep {
      try check(
        ["ill", "injury", "travel", "missed"].contains(reason) && (-0.2...0.2).contains(step),
        "replan.reasonStep.\(reason)", "\(step)", "ill, injury, travel or missed, each from -0.2 to 0.2")
    }
    try number(base.paceUpdates.maxStepVdot, "paceUpdates.maxStepVdot", in: 0.5...5, "VDOT a race")
    try number(base.paceUpdates.minRaceKm, "paceUpdates.minRaceKm", in: 1.5...10, "km")
    try number(base.paceUpdates.minEffortKm, "paceUpdates.minEffortKm", in: 1...21.1, "km")
    for level in Level.allCases {
      let rules = base.levels[level]
      let path = "levels.\(level.rawValue)"
      try number(rules.estimateVdot, "\(path).estimateVdot", in: 20...85)
      for phase in Phase.allCases {
        try integer(rules.qualityPerWeek[phase], "\(path).qualityPerWeek.\(phase.rawValue)", in: 0...3)
      }
      try check(!rules.allowedKinds.isEmpty, "\(path).allowedKinds", "an empty list", "one or more workout kinds")
      try number(rules.sessionFloors.thresholdMinutes, "\(path).sessionFloors.thresholdMinutes", in: 0...60, "minutes")
      try number(rules.sessionFloors.intervalKm, "\(path).sessionFloors.intervalKm", in: 0...10)
      try integer(rules.sessionFloors.hillReps, "\(path).sessionFloors.hillReps", in: 0...20)
    }
    for (index, pattern) in base.weeklyPatterns.enumerated() {
      try integer(pattern.runs, "weeklyPatterns[\(index)].runs", in: 3...7)
    }
    for runs in 3...7 {
      guard let index = base.weeklyPatterns.firstIndex(where: { $0.runs == runs }) else {
        throw .invalidValue(
          file: file, keyPath: "weeklyPatterns", value: "no pattern for \(runs) runs",
          allowed: "one pattern for each of 3, 4, 5, 6 and 7 runs a week")
      }
      let path = "weeklyPatterns[\(index)].days"
      let slots = base.weeklyPatterns[index].days
      try check(slots.count == runs, path, "\(slots.count) days", "exactly \(runs) days")
      try check(
        slots.filter { $0.role == .long }.count == 1 && slots.contains { $0.role == .long && $0.offset == 0 },
        path, "the pattern", "exactly one long day, at offset 0")
      try check(Set(slots.map(\.offset)).count == slots.count, path, "a repeated offset", "each offset once")
      for (index, slot) in slots.enumerated() {
        try integer(slot.offset, "\(path)[\(index)].offset", in: -6...0)
      }
      let hard = Set(slots.filter { $0.role == .long || $0.role == .quality }.map { ($0.offset + 7) % 7 })
      for day in hard where hard.contains((day + 1) % 7) {
        throw .invalidValue(
          file: file, keyPath: path, value: "hard days on offsets \(day - 7) and \(day - 6)",
          allowed: "no two hard days (long, quality) on consecutive days")
      }
    }
    let structure = base.weekStructure
    try number(structure.minRunMinutes, "weekStructure.minRunMinutes", in: 0...60, "minutes")
    try number(
      structure.eveOfLongMaxOfLong, "weekStructure.eveOfLongMaxOfLong", in: 0...1 / long.minRatioToOtherRuns,
      "a share of the long run")
    if let km = structure.eveOfLongAfterQualityMaxKm {
      try number(km, "weekStructure.eveOfLongAfterQualityMaxKm", in: 3...40, "km")
    }
    try number(
      structure.longRunMaxOfWeek, "weekStructure.longRunMaxOfWeek", in: long.noviceCapOfWeek...0.6,
      "a share of the week (at least longRun.noviceCapOfWeek)")
    try integer(structure.fewRunsAtMost, "weekStructure.fewRunsAtMost", in: 3...7)
    for level in Level.allCases {
      try integer(structure.qualityAtFewRuns[level], "weekStructure.qualityAtFewRuns.\(level.rawValue)", in: 0...3)
    }
    let medium = structure.mediumLong
    try integer(medium.fromRuns, "weekStructure.mediumLong.fromRuns", in: 3...8)
    try number(
      medium.ofLong, "weekStructure.mediumLong.ofLong", in: 0.3...1 / long.minRatioToOtherRuns,
      "a share of the long run (at most 1 / longRun.minRatioToOtherRuns)")
    try number(medium.minKm, "weekStructure.mediumLong.minKm", in: 0...40, "km")
    try number(medium.othersAtLeastOfIt, "weekStructure.mediumLong.othersAtLeastOfIt", in: 0...1, "a share of it")
    try number(structure.recoveryMaxMinutes, "weekStructure.recoveryMaxMinutes", in: 20...120, "minutes")
    if let minutes = structure.otherRunMaxMinutesAtFewRuns {
      try number(minutes, "weekStructure.otherRunMaxMinutesAtFewRuns", in: 45...240, "minutes")
    }
    let race = structure.raceWeek
    try number(race.maxRunOfRace, "weekStructure.raceWeek.maxRunOfRace", in: 0.1...1, "a share of the race distance")
    try number(race.maxRunKm, "weekStructure.raceWeek.maxRunKm", in: 2...30, "km")
    try integer(race.lastDays, "weekStructure.raceWeek.lastDays", in: 1...6)
    try number(race.lastDaysMaxKm, "weekStructure.raceWeek.lastDaysMaxKm", in: 2...race.maxRunKm, "km")
    try number(race.shakeoutKm, "weekStructure.raceWeek.shakeoutKm", in: 1...race.lastDaysMaxKm, "km")
    if let km = race.highVolumeFromPeakKm {
      try number(km, "weekStructure.raceWeek.highVolumeFromPeakKm", in: 40...250, "km a week")
    }
    if let share = race.maxRunOfPeakWeek {
      try number(share, "weekStructure.raceWeek.maxRunOfPeakWeek", in: 0.05...0.3, "a share of the peak week")
    }
    if let km = race.maxRunKmByVolume {
      try number(km, "weekStructure.raceWeek.maxRunKmByVolume", in: race.maxRunKm...30, "km (at least maxRunKm)")
    }
    if let share = race.lastDaysMaxOfPeakWeek {
      try number(share, "weekStructure.raceWeek.lastDaysMaxOfPeakWeek", in: 0.02...0.2, "a share of the peak week")
    }
    if let share = race.beginnerLastDaysMaxOfRace {
      try number(share, "weekStructure.raceWeek.beginnerLastDaysMaxOfRace", in: 0.2...1, "a share of the race")
    }
    try validate(base.extraDays)
    if let masters = base.masters {
      try integer(masters.fromAge, "masters.fromAge", in: 35...80)
      try integer(masters.cutbackEvery, "masters.cutbackEvery", in: 2...8)
      try number(masters.cutbackVolumeFactor, "masters.cutbackVolumeFactor", in: 0.5...0.95)
    }
    for zone in Intensity.allCases where base.efforts[zone.rawValue] == nil {
      throw .missingKey(file: file, keyPath: "efforts.\(zone.rawValue)")
    }
  }

  private func validate(_ extras: ExtraDayRules) throws(TemplateError) {
    try integer(extras.maxPerWeek, "extraDays.maxPerWeek", in: 0...3)
    for (key, kind) in [("crossTraining", extras.crossTraining), ("strength", extras.strength)] {
      for phase in Phase.allCases where phase != .race {
        try integer(kind.minutes[phase], "extraDays.\(key).minutes.\(phase.rawValue)", in: 10...90)
      }
      try check(
        kind.minutes.race == 0, "extraDays.\(key).minutes.race", "'\(kind.minutes.race)'",
        "0 (race week keeps its days for rest)")
      let names = TextPlaceholders.names(in: kind.text)
      try check(
        names == ["minutes"], "extraDays.\(key).text", "'\(kind.text)'",
        "text with the placeholder {minutes} once and no other")
    }
  }

  func validate(_ library: WorkoutLibrary) throws(TemplateError) {
    let qualityKinds: [WorkoutKind] = [.tempo, .intervals, .hills, .fartlek, .strides]
    for (id, workout) in library.workouts.sorted(by: { $0.key < $1.key }) {
      let path = "workouts.\(id)"
      try check(
        qualityKinds.contains(workout.kind), "\(path).kind", "'\(workout.kind.rawValue)'",
        qualityKinds.map(\.rawValue).joined(separator: ", "))
      try check(workout.zone != .easy, "\(path).zone", "'E'", "M, T, I, R or race")
      try number(workout.warmupKm, "\(path).warmupKm", in: 0...5, "km")
      try number(workout.cooldownKm, "\(path).cooldownKm", in: 0...5, "km")
      try amount(workout.work, "\(path).work", recovery: false)
      try number(workout.reps.lower, "\(path).reps", in: 1...30)
      try number(workout.reps.upper, "\(path).reps", in: workout.reps.lower...30)
      try check(
        workout.reps.lower == workout.reps.lower.rounded() && workout.reps.upper == workout.reps.upper.rounded(),
        "\(path).reps", "a fraction", "whole numbers")
      if let recovery = workout.recovery {
        try amount(recovery, "\(path).recovery", recovery: true)
        if workout.zone == .interval {
          // Daniels: recovery jogs between intervals no longer than the work bouts.
          let fine = recovery.ofWork.map { $0 <= 1 } ?? sameUnitNotLonger(recovery, than: workout.work)
          try check(
            fine, "\(path).recovery", "a recovery longer than the work bout",
            "recoveries no longer than the work (ofWork ≤ 1, or the same unit and no more)")
        }
      } else {
        try check(workout.reps.upper == 1, "\(path).recovery", "no recovery", "a recovery when reps can exceed 1")
      }
      for (key, text) in [
        ("effort", workout.effort), ("terrain", workout.terrain), ("recoveryText", workout.recoveryText),
      ] {
        guard let text else { continue }
        try check(
          text.contains { !$0.isWhitespace } && !text.contains("{") && !text.contains("}"),
          "\(path).\(key)", "'\(text)'", "words without braces")
      }
      if workout.effortOnly {
        try check(workout.effort != nil, "\(path).effort", "none", "an effort text when target is effort")
      }
    }
  }

  private func sameUnitNotLonger(_ recovery: Amount, than work: Amount) -> Bool {
    if let r = recovery.minutes, let w = work.minutes { return r.upper <= w.lower }
    if let r = recovery.seconds, let w = work.seconds { return r.upper <= w.lower }
    if let r = recovery.km, let w = work.km { return r.upper <= w.lower }
    if let r = recovery.seconds, let w = work.minutes { return r.upper <= w.lower * 60 }
    if let r = recovery.minutes, let w = work.seconds { return r.upper * 60 <= w.lower }
    return false
  }

  private func amount(_ amount: Amount, _ path: String, recovery: Bool) throws(TemplateError) {
    let given = [amount.km != nil, amount.minutes != nil, amount.seconds != nil, amount.ofWork != nil]
      .filter { $0 }.count
    try check(
      given == 1 && (recovery || amount.ofWork == nil), path, "\(given) amounts",
      recovery ? "exactly one of km, minutes, seconds, ofWork" : "exactly one of km, minutes, seconds")
    if let km = amount.km {
      try number(km.lower, "\(path).km", in: 0.05...20)
      try number(km.upper, "\(path).km", in: km.lower...20)
    }
    if let minutes = amount.minutes {
      try number(minutes.lower, "\(path).minutes", in: 0.25...90)
      try number(minutes.upper, "\(path).minutes", in: minutes.lower...90)
    }
    if let seconds = amount.seconds {
      try number(seconds.lower, "\(path).seconds", in: 5...600)
      try number(seconds.upper, "\(path).seconds", in: seconds.lower...600)
    }
    if let ratio = amount.ofWork { try number(ratio, "\(path).ofWork", in: 0.1...3) }
  }

  func validate(_ rules: DistanceRules, base: BaseRules, library: WorkoutLibrary) throws(TemplateError) {
    let names = Set(RaceDistance.allCases.map(\.templateName))
    try check(names.contains(rules.distance), "distance", "'\(rules.distance)'", names.sorted().joined(separator: ", "))
    try checkTaper(volume: rules.taper.volume, longRun: rules.taper.longRun, path: "taper")
    var taperWeeks = rules.taper.volume.count
    if let extended = rules.taper.extended {
      try checkTaper(volume: extended.volume, longRun: extended.longRun, path: "taper.extended")
      try number(extended.abovePeakKm, "taper.extended.abovePeakKm", in: 10...300, "km")
      taperWeeks = max(taperWeeks, extended.volume.count)
    }
    try number(rules.longRun.minUsefulKm, "longRun.minUsefulKm", in: 2...40, "km")
    try validate(rules.raceDay)
    if let minutes = rules.longRun.maxMinutes { try number(minutes, "longRun.maxMinutes", in: 60...240, "minutes") }
    if let share = rules.longRun.manyRunsCapOfWeek {
      try number(
        share, "longRun.manyRunsCapOfWeek", in: base.longRun.capOfWeek...base.longRun.noviceCapOfWeek,
        "a share of the week (the base's longRun.capOfWeek to noviceCapOfWeek)")
    }
    if let km = rules.longRun.raceReadyKm {
      try number(km, "longRun.raceReadyKm", in: 2...rules.longRun.minUsefulKm, "km, at most longRun.minUsefulKm")
    }
    if let minutes = rules.longRun.raceReadyMaxMinutes {
      try number(
        minutes, "longRun.raceReadyMaxMinutes", in: (rules.longRun.maxMinutes ?? base.longRun.maxMinutes)...300,
        "minutes, at least longRun.maxMinutes")
    }
    if let peaks = rules.longRun.peaks { try validate(peaks) }
    if let variants = rules.longRun.variants { try validate(variants) }
    if let runWalk = rules.longRun.runWalk {
      if let minutes = runWalk.maxMinutes {
        try number(
          minutes, "longRun.runWalk.maxMinutes", in: (rules.longRun.maxMinutes ?? base.longRun.maxMinutes)...300,
          "minutes, at least longRun.maxMinutes")
      }
      try validate(runWalk, maxMinutes: rules.longRun.maxMinutes ?? base.longRun.maxMinutes)
    }
    if let requirements = rules.requirements {
      try number(requirements.minWeeklyKm, "requirements.minWeeklyKm", in: 0...150, "km")
      try number(requirements.minLongestRunKm, "requirements.minLongestRunKm", in: 0...40, "km")
    }
    for level in Level.allCases {
      let path = "levels.\(level.rawValue)"
      let minimum = rules.minimumWeeks[level]
      try integer(minimum.absolute, "minimumWeeks.\(level.rawValue).absolute", in: (taperWeeks + 1)...base.maxWeeks)
      try integer(
        minimum.recommended, "minimumWeeks.\(level.rawValue).recommended", in: minimum.absolute...base.maxWeeks)
      let settings = rules.levels[level]
      try number(settings.startWeeklyKm, "\(path).startWeeklyKm", in: 5...200, "km")
      try number(settings.peakWeeklyKm, "\(path).peakWeeklyKm", in: settings.startWeeklyKm...250, "km")
      try number(settings.longestRecentRunKm, "\(path).longestRecentRunKm", in: 2...settings.startWeeklyKm, "km")
      try number(settings.peakLongRunKm.lower, "\(path).peakLongRunKm", in: 3...45, "km")
      try number(settings.peakLongRunKm.upper, "\(path).peakLongRunKm", in: settings.peakLongRunKm.lower...45, "km")
      try integer(settings.runsPerWeek, "\(path).runsPerWeek", in: 3...7)
      for phase in Phase.allCases {
        let ids = settings.workouts[phase]
        if base.levels[level].qualityPerWeek[phase] > 0 && phase != .race {
          try check(
            !ids.isEmpty, "\(path).workouts.\(phase.rawValue)", "an empty list",
            "at least one workout id, since levels.\(level.rawValue).qualityPerWeek.\(phase.rawValue) > 0 in base.yaml")
        }
        for (index, id) in ids.enumerated() {
          let itemPath = "\(path).workouts.\(phase.rawValue)[\(index)]"
          guard let workout = library.workouts[id] else {
            let known = library.workouts.keys.sorted()
            let hint = closestName(to: id, among: known).map { " (did you mean '\($0)'?)" } ?? ""
            throw .invalidValue(
              file: file, keyPath: itemPath, value: "'\(id)'\(hint)",
              allowed: "a workout id from workouts.yaml: \(known.joined(separator: ", "))")
          }
          let allowed = base.levels[level].allowedKinds
          try check(
            allowed.contains(workout.kind), itemPath, "'\(id)' (\(workout.kind.rawValue))",
            "kinds allowed for \(level.rawValue) in base.yaml: \(allowed.map(\.rawValue).joined(separator: ", "))")
        }
      }
    }
  }

  private func validate(_ raceDay: RaceDayRules) throws(TemplateError) {
    let texts: [(String, String?, Set<String>)] = [
      ("warmup", raceDay.warmup, TextPlaceholders.always),
      ("pacing", raceDay.pacing, TextPlaceholders.withPaces),
      ("pacingByEffort", raceDay.pacingByEffort, TextPlaceholders.always),
      ("fuelling", raceDay.fuelling, TextPlaceholders.always),
    ]
    for (key, text, allowed) in texts {
      guard let text else { continue }
      let path = "raceDay.\(key)"
      try check(text.contains { !$0.isWhitespace }, path, "an empty text", "a sentence or more")
      guard let names = TextPlaceholders.names(in: text) else {
        throw .invalidValue(
          file: file, keyPath: path, value: "'\(text)'", allowed: "text with {placeholder}s closed and not nested")
      }
      for name in names where !allowed.contains(name) {
        throw .invalidValue(
          file: file, keyPath: path, value: "the placeholder '{\(name)}'",
          allowed: allowed.sorted().map { "{\($0)}" }.joined(separator: ", "))
      }
    }
    try number(raceDay.splitEveryKm, "raceDay.splitEveryKm", in: 0.5...50, "km")
    try number(raceDay.splitEveryMi, "raceDay.splitEveryMi", in: 0.5...30, "miles")
  }

  private func validate(_ peaks: LongRunPeaks) throws(TemplateError) {
    try integer(peaks.maxCount, "longRun.peaks.maxCount", in: 1...10)
    try number(peaks.withinOfLongest, "longRun.peaks.withinOfLongest", in: 0...0.1, "a share of the longest long run")
    try number(
      peaks.stepBackOfPeak, "longRun.peaks.stepBackOfPeak", in: 0.5...(1 - peaks.withinOfLongest - 0.01),
      "a share of the peak long run, under the peak band")
    try integer(peaks.lastDaysBeforeRace, "longRun.peaks.lastDaysBeforeRace", in: 0...42)
    // Room for every peak long run, a week apart from the next, between the two limits.
    let earliest = peaks.lastDaysBeforeRace + 7 * (2 * peaks.maxCount - 2)
    try integer(
      peaks.earliestDaysBeforeRace, "longRun.peaks.earliestDaysBeforeRace", in: earliest...max(earliest, 140))
    if let early = peaks.early {
      try integer(
        early.weeksOut, "longRun.peaks.early.weeksOut", in: (peaks.earliestDaysBeforeRace + 6) / 7...40)
      try number(
        early.longerOfPeak, "longRun.peaks.early.longerOfPeak", in: 0.5...(1 - peaks.withinOfLongest - 0.01),
        "a share of the peak long run, under the peak band")
      try number(
        early.shorterOfPeak, "longRun.peaks.early.shorterOfPeak", in: 0.4...early.longerOfPeak,
        "a share of the peak long run, at most longerOfPeak")
    }
  }

  private func validate(_ variants: LongRunVariantRules) throws(TemplateError) {
    try check(
      !variants.rotation.isEmpty, "longRun.variants.rotation", "an empty list",
      "one or more of \(LongRunVariantKind.allCases.map(\.rawValue).joined(separator: ", "))")
    for (name, km) in [("marathonPaceKm", variants.marathonPaceKm), ("fastFinishKm", variants.fastFinishKm)] {
      try number(km.lower, "longRun.variants.\(name)", in: 1...30, "km")
      try number(km.upper, "longRun.variants.\(name)", in: km.lower...30, "km")
    }
    try check(
      variants.fastFinishZone == .marathon || variants.fastFinishZone == .race, "longRun.variants.fastFinishZone",
      "'\(variants.fastFinishZone.rawValue)'", "M or race")
    try number(variants.minEasyTimeOfWeek, "longRun.variants.minEasyTimeOfWeek", in: 0.5...1, "a share of the week")
    try integer(variants.qualityBesideMarathonPace, "longRun.variants.qualityBesideMarathonPace", in: 0...3)
  }

  private func validate(_ runWalk: RunWalkRules, maxMinutes: Double) throws(TemplateError) {
    let path = "longRun.runWalk"
    try number(runWalk.walkSecondsPerKm, "\(path).walkSecondsPerKm", in: 420...1200, "seconds per km (7:00-20:00/km)")
    try check(!runWalk.ratios.isEmpty, "\(path).ratios", "an empty list", "one ratio or more, fastest easy pace first")
    var previous: RunWalkRatio?
    for (index, ratio) in runWalk.ratios.enumerated() {
      let item = "\(path).ratios[\(index)]"
      // Walking must be slower than the running it breaks up, or the walking breaks would cover more ground.
      try number(
        ratio.fromEasySecondsPerKm, "\(item).fromEasySecondsPerKm",
        in: 240...(runWalk.walkSecondsPerKm - 1), "seconds per km, faster than walkSecondsPerKm")
      try integer(ratio.runMinutes, "\(item).runMinutes", in: 1...30)
      try integer(ratio.walkMinutes, "\(item).walkMinutes", in: 1...5)
      try check(
        Double(ratio.runMinutes + ratio.walkMinutes) <= maxMinutes, item,
        "\(ratio.runMinutes + ratio.walkMinutes) minutes a cycle", "a cycle within longRun.maxMinutes")
      if let previous {
        try check(
          ratio.fromEasySecondsPerKm > previous.fromEasySecondsPerKm, "\(item).fromEasySecondsPerKm",
          "'\(format(ratio.fromEasySecondsPerKm))'",
          "slower than the ratio before it (\(format(previous.fromEasySecondsPerKm))): fastest easy pace first")
        // More walking the slower the pace: the running share never grows.
        let share = Double(ratio.runMinutes) / Double(ratio.runMinutes + ratio.walkMinutes)
        let before = Double(previous.runMinutes) / Double(previous.runMinutes + previous.walkMinutes)
        try check(
          share <= before + 1e-9, item, "run \(ratio.runMinutes) min / walk \(ratio.walkMinutes) min",
          "no more running than the faster ratio before it (run \(previous.runMinutes) / walk \(previous.walkMinutes))")
      }
      previous = ratio
    }
  }

  private func checkTaper(volume: [Double], longRun: [Double], path: String) throws(TemplateError) {
    try check((1...3).contains(volume.count), "\(path).volume", "\(volume.count) weeks", "1 to 3 weeks")
    for (index, fraction) in volume.enumerated() {
      try number(fraction, "\(path).volume[\(index)]", in: 0.3...0.95, "a fraction of peak volume")
    }
    try check(
      longRun.count == volume.count - 1, "\(path).longRun", "\(longRun.count) values",
      "one value per taper week before race week (\(volume.count - 1))")
    for (index, fraction) in longRun.enumerated() {
      try number(fraction, "\(path).longRun[\(index)]", in: 0.3...1, "a fraction of the peak long run")
    }
  }
}
