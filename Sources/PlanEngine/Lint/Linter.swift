import Foundation
import RunningCore

/// Judges `plan` week by week with the engine's own numbers (`plan-templates/`), the way a coach reads a plan: the
/// ramp against the last full (not cut-back) week, the long-run spike guard over the previous weeks, the cut-back
/// rhythm, the taper, the shape of each week. Race week counts the running before race day. Findings come in week
/// order.
public func lint(_ plan: LintPlan, rules: PlanRules) -> [LintFinding] {
  var linter = Linter(plan: plan, rules: rules)
  linter.run()
  return linter.findings.enumerated().sorted { ($0.element.week, $0.offset) < ($1.element.week, $1.offset) }
    .map(\.element)
}

private struct Linter {
  let plan: LintPlan
  let base: BaseRules
  let distanceRules: DistanceRules?
  var findings: [LintFinding] = []

  /// Running km per week (race week: before race day).
  let volumes: [Double]
  /// Weeks that drop about 10 % or more under the last full week.
  let cutbacks: [Bool]
  /// The index of the first taper week (the plan's length when no taper is known).
  let taperStart: Int
  /// The taper's shares of peak volume, the last for race week.
  let taperShares: [Double]
  /// The highest weekly volume before the taper.
  let peak: Double

  init(plan: LintPlan, rules: PlanRules) {
    self.plan = plan
    base = rules.base
    distanceRules = plan.distance.flatMap { rules.rules(for: $0) }
    volumes = plan.weeks.map(\.kmBeforeRace)
    var cutbacks: [Bool] = []
    var reference: Double?
    for volume in volumes {
      let drop = reference.map { volume <= 0.9 * $0 } ?? false
      cutbacks.append(drop)
      if !drop { reference = volume }
    }
    var shares: [Double] = []
    if let taper = distanceRules?.taper {
      let provisional = volumes.dropLast(taper.volume.count).max() ?? 0
      if let extended = taper.extended, provisional > extended.abovePeakKm {
        shares = extended.volume
      } else {
        shares = taper.volume
      }
    }
    if plan.weeks.count <= shares.count { shares = [] }
    self.cutbacks = cutbacks
    taperShares = shares
    taperStart = plan.weeks.count - shares.count
    peak = volumes.prefix(taperStart).max() ?? 0
  }

  mutating func run() {
    ramp()
    spike()
    cutbackRhythm()
    taper()
    weekShape()
    hardDays()
  }

  // MARK: - Week to week

  /// The last full week before `index`.
  func lastFull(before index: Int) -> Int? {
    (0..<index).last { !cutbacks[$0] }
  }

  mutating func ramp() {
    let percent = base.volume.maxIncreasePercent
    let perRun = base.volume.maxIncreaseKmPerRun
    for index in plan.weeks.indices where index < taperStart && !cutbacks[index] {
      // Week 1 ramps from the runner's current week, when the plan says it.
      let previous = lastFull(before: index)
      guard let reference = previous.map({ volumes[$0] }) ?? plan.currentWeeklyKm, reference > 0 else { continue }
      let week = plan.weeks[index]
      let runs = week.runs.filter { $0.kind.isRun && $0.km > 0 }.count
      let allowed = reference + min(reference * percent / 100, perRun * Double(runs))
      guard volumes[index] > allowed + 0.05 else { continue }
      let rise = (volumes[index] / reference - 1) * 100
      let name =
        previous.map { "the last full week (week \($0 + 1), \(km(reference)))" }
        ?? "your current week (\(km(reference)))"
      add(
        index, nil, .ramp, value: volumes[index], limit: allowed,
        "running \(km(volumes[index])) is \(Int(rise.rounded())) % over \(name); the ramp allows \(km(allowed)) "
          + "(+\(number(percent)) % or \(number(perRun)) km × \(runs) runs, the smaller)",
        "hold the week at about \(km(allowed)) and spread the rise over more weeks")
    }
  }

  mutating func spike() {
    let factor = base.longRun.spikeFactor
    let lookback = base.longRun.spikeLookbackWeeks
    // A run no longer than a third over the minimum run (about 27 minutes) is never a spike (the engine's rule).
    let neverSpike = base.weekStructure.minRunMinutes * base.longRun.minRatioToOtherRuns + 2
    for index in plan.weeks.indices {
      guard let long = plan.weeks[index].longest, long.km > 0 else { continue }
      if let minutes = long.minutes, Double(minutes) <= neverSpike { continue }
      let window = max(0, index - lookback)..<index
      // The first weeks also look back on the runner's longest recent run, when the plan says it.
      let recent = index < lookback ? plan.longestRecentRunKm : nil
      guard let before = (window.compactMap({ plan.weeks[$0].longest?.km }) + [recent].compactMap { $0 }).max(),
        before > 0
      else { continue }
      let allowed = factor * before
      guard long.km > allowed + 0.05 else { continue }
      let span =
        window.isEmpty
        ? "your longest recent run" : window.count == 1 ? "the previous week" : "the previous \(window.count) weeks"
      add(
        index, long, .longRunSpike, value: long.km / before, limit: factor,
        "\(runName(long)) \(km(long.km)) is \(ratio(long.km / before)) × the longest of \(span)"
          + "\(recent != nil && !window.isEmpty ? " and your longest recent run" : "") (\(km(before))); the spike "
          + "guard allows \(km(allowed))",
        "cap it at \(km(allowed)) and reach \(km(long.km)) a week or two later")
    }
  }

  mutating func cutbackRhythm() {
    let every = plan.level.map { base.cutback.every[$0] } ?? Level.allCases.map { base.cutback.every[$0] }.max() ?? 4
    var streak = 0
    for index in 0..<taperStart {
      streak = cutbacks[index] ? 0 : streak + 1
      guard streak == every + 1 else { continue }
      let reference = volumes[lastFull(before: index) ?? index]
      let target = base.cutback.volumeFactor * reference
      add(
        index, nil, .cutback, value: Double(streak), limit: Double(every),
        "\(streak) weeks running (weeks \(index + 2 - streak)–\(index + 1)) without a week that drops about 10 %; "
          + "the rhythm asks for a cut-back week after at most \(every)",
        "make week \(index + 1) a cut-back week of about \(km(target)) (\(percentText(base.cutback.volumeFactor)) "
          + "of week \(index))")
    }
  }

  mutating func taper() {
    guard let distance = plan.distance, !taperShares.isEmpty, peak > 0 else { return }
    for (offset, share) in taperShares.enumerated() {
      let index = taperStart + offset
      let allowed = share * peak
      guard volumes[index] > 1.1 * allowed + 0.05 else { continue }
      let isRace = offset == taperShares.count - 1
      // A small plan's race week cannot go under two short runs before the race (when the plan gives minutes):
      // runs of at most a third over the minimum run are what the week is made of, not too much volume.
      let short = base.weekStructure.minRunMinutes * base.longRun.minRatioToOtherRuns
      let before = plan.weeks[index].runs.filter { $0.kind.isRun && $0.kind != .race && $0.km > 0 }
      if isRace && before.count <= 2 && before.allSatisfy({ $0.minutes.map { Double($0) <= short } ?? false }) {
        continue
      }
      let what =
        isRace
        ? "race week runs \(km(volumes[index])) before race day"
        : "taper week \(offset + 1) of "
          + "\(taperShares.count - 1) runs \(km(volumes[index]))"
      add(
        index, nil, .taper, value: volumes[index] / peak, limit: share,
        "\(what), \(percentText(volumes[index] / peak)) of the peak week (\(km(peak))); the \(distance.rawValue) "
          + "taper asks for about \(percentText(share)) (\(km(allowed)))",
        "cut the week to about \(km(allowed)), keeping a little intensity")
    }
  }

  // MARK: - Inside a week

  mutating func weekShape() {
    let structure = base.weekStructure
    let minRatio = base.longRun.minRatioToOtherRuns
    for (index, week) in plan.weeks.enumerated() {
      let runs = week.runs.filter { $0.kind.isRun && $0.km > 0 }
      for run in runs where run.kind != .race && run.km < base.volume.minRunKm - 0.005 {
        add(
          index, run, .shortRun, value: run.km, limit: base.volume.minRunKm,
          "\(runName(run)) \(km(run.km)) is under the minimum run of \(km(base.volume.minRunKm))",
          "make it at least \(km(base.volume.minRunKm)) or a rest day")
      }
      guard !week.hasRace, let long = week.longest, long.kind != .quality else { continue }
      let others = runs.filter { $0 != long }
      if let next = others.max(by: { $0.km < $1.km }), long.km < minRatio * next.km - 0.05 {
        add(
          index, long, .longRunRatio, value: long.km / next.km, limit: minRatio,
          "long run \(km(long.km)) is \(ratio(long.km / next.km)) × the week's next-longest run (\(km(next.km)), "
            + "\(dayName(index, next))); a long run is at least \(ratio(minRatio)) × every other run",
          "make the long run \(km(minRatio * next.km)) or shorten the other run to \(km(long.km / minRatio))")
      }
      let total = week.runningKm
      if runs.count > 1, long.km > structure.longRunMaxOfWeek * total + 0.05 {
        add(
          index, long, .longRunShare, value: long.km / total, limit: structure.longRunMaxOfWeek,
          "long run \(km(long.km)) is \(percentText(long.km / total)) of the week's \(km(total)); at most "
            + "\(percentText(structure.longRunMaxOfWeek))",
          "add \(km(long.km / structure.longRunMaxOfWeek - total)) of easy running in the week or shorten the long "
            + "run to \(km(structure.longRunMaxOfWeek * total))")
      }
    }
  }

  mutating func hardDays() {
    let sessions = plan.weeks.enumerated().flatMap { index, week in
      week.runs.filter { $0.kind.isRun && $0.km > 0 }.map { (week: index, day: index * 7 + $0.day, run: $0) }
    }.sorted { $0.day < $1.day }
    let hardDays = Set(sessions.filter { $0.run.kind.isHard }.map(\.day))
    for (previous, current) in zip(sessions, sessions.dropFirst())
    where previous.run.kind.isHard && current.run.kind.isHard && current.day - previous.day == 1 {
      add(
        current.week, current.run, .adjacentHardDays, value: 1, limit: 2,
        "\(runName(current.run)) \(km(current.run.km)) the day after \(runName(previous.run)) "
          + "\(km(previous.run.km)) (\(dayName(previous.week, previous.run))): hard days back to back",
        "leave an easy day between them: move one, or make it an easy run")
    }
    let minKm = base.weekStructure.mediumLong.minKm
    for (index, week) in plan.weeks.enumerated() {
      let ranked = week.runs.filter { $0.kind.isRun && $0.kind != .race && $0.km > 0 }.sorted { $0.km > $1.km }
      guard ranked.count > 2, ranked[1].km >= minKm, !ranked[1].kind.isHard else { continue }
      let medium = ranked[1]
      let day = index * 7 + medium.day
      guard hardDays.contains(day - 1), hardDays.contains(day + 1) else { continue }
      add(
        index, medium, .mediumLongBetweenHardDays, value: medium.km, limit: minKm,
        "medium-long run \(km(medium.km)) (the week's second-longest) sits between two hard days",
        "move it beside an easy day, or make it an easy run under \(km(minKm))")
    }
  }

  // MARK: - Words

  mutating func add(
    _ week: Int, _ run: LintRun?, _ rule: LintRule, value: Double, limit: Double, _ message: String,
    _ advice: String
  ) {
    findings.append(
      LintFinding(
        week: week + 1, day: run.map { dayName(week, $0) }, rule: rule, value: rounded(value), limit: rounded(limit),
        message: message, advice: advice))
  }

  func dayName(_ week: Int, _ run: LintRun) -> String {
    if let date = run.date { return date.weekday.shortName }
    let all = Weekday.allCases
    let first = all.firstIndex(of: plan.weeks[week].firstWeekday) ?? 0
    return all[(first + run.day) % 7].shortName
  }

  func runName(_ run: LintRun) -> String {
    switch run.kind {
    case .long: "long run"
    case .quality:
      run.title.isEmpty
        ? "quality session" : "quality session (\(run.title.count > 40 ? run.title.prefix(39) + "…" : run.title))"
    case .race: "race"
    default: "run"
    }
  }
}

private func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
private func km(_ value: Double) -> String { String(format: "%.1f km", value) }
private func ratio(_ value: Double) -> String { String(format: "%.2f", value) }
private func number(_ value: Double) -> String {
  value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
}
private func percentText(_ share: Double) -> String { "\(Int((share * 100).rounded())) %" }
