import Foundation
import PlanEngine
import RunMateTestSupport
import Testing

// The "why" lines (`Week.rules`) must state what the week actually has. This checker parses every number of
// every line: each number must belong to a claim it knows (`Volume 44.1 km`, `+4.4 km over week 3 (39.7 km)`,
// `Long run 18 km`, `peak volume 55 km reached`, a rule constant such as `10 %`), and each claim is checked
// against the plan's final numbers (planned volume, the delta over the named week, the long run, the peak) or
// against plan-templates/. A number no claim accounts for is a violation too: a new kind of line must teach
// the checker what its numbers mean.
//
// Like PlanInvariantTests, the checker reads only the public `Plan`, the `Goal` and `repositoryRules`.

/// A decimal number as the plan prints it (`12`, `12.5`).
private let num = #"(\d+(?:\.\d+)?)"#
/// A signed change (`+4.4`, `-0.5`, `−0.5`).
private let signed = #"([+−-]\d+(?:\.\d+)?)"#
/// A week the line refers to: `week 3` or `your current week`.
private let ref = #"(week (\d+)|your current week)"#
/// A short date label (`Sun 9 May`).
private let dateLabel =
  #"((?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec))"#

/// One decimal's worth of tolerance (numbers are printed to 0.1 km).
private let tolerance = 0.051

private func same(_ a: Double, _ b: Double, within: Double = tolerance) -> Bool { abs(a - b) <= within }
private func fmt(_ x: Double) -> String { String(format: "%.2f", x) }
private func pct(_ fraction: Double) -> Double { (fraction * 100).rounded() }

/// What a claim sees: the plan, the week and its neighbours.
private struct WhyContext {
  let plan: Plan
  let goal: Goal
  let index: Int
  var week: Week { plan.weeks[index] }
  var rules: PlanRules { repositoryRules }
  var base: BaseRules { repositoryRules.base }
  var distance: DistanceRules? { repositoryRules.rules(for: goal.distance) }
  var long: Double? { week.workouts.first { $0.kind == .long }?.distanceKm }
  var race: Double { week.workouts.filter { $0.kind == .race }.map(\.distanceKm).reduce(0, +) }
  var nonRace: [Workout] { week.workouts.filter { $0.kind != .race } }

  /// The planned volume of `week N` (an earlier week) or of the runner's current week.
  func referenced(_ name: String, _ number: String?) -> Double? {
    guard let number, let n = Int(number) else { return name == "your current week" ? plan.goal.currentWeeklyKm : nil }
    guard n >= 1, n < week.number else { return nil }
    return plan.weeks[n - 1].plannedKm
  }

  /// The peak before this week: the largest full (not taper, not race) week so far, or the current volume.
  var peakSoFar: Double {
    plan.weeks[..<index].filter { $0.phase != .taper && $0.phase != .race }.map(\.plannedKm).max()
      ?? plan.goal.currentWeeklyKm
  }

  /// The longest long run before this week (the runner's longest recent run if none).
  var longestLongSoFar: Double {
    plan.weeks[..<index].flatMap(\.workouts).filter { $0.kind == .long }.map(\.distanceKm).max()
      ?? plan.goal.longestRecentRunKm
  }

  /// The peak volumes the plan may aim for: the level's (or the runner's current, if more; at many runs a week for
  /// the week its shortest useful long run fits in at `manyRunsCapOfWeek`, the distance's or base.yaml's), possibly
  /// held under the extended taper's threshold.
  var peakTargets: [Double] {
    let level = distance.map { $0.levels[goal.level].peakWeeklyKm } ?? 0
    var target = max(level, plan.goal.currentWeeklyKm)
    let longRun = repositoryRules.base.longRun
    if let distance, let from = longRun.manyRunsFrom,
      let share = distance.longRun.manyRunsCapOfWeek ?? longRun.manyRunsCapOfWeek, plan.goal.runsPerWeek >= from
    {
      let fitting = min(distance.longRun.minUsefulKm, distance.levels[goal.level].peakLongRunKm.lower) / share
      target = max(target, (fitting * 2 - 1e-9).rounded(.up) / 2)
    }
    return [target] + (distance?.taper.extended.map { [min(target, $0.abovePeakKm)] } ?? [])
  }
}

/// A pattern over a why-line; `check` gets the capture groups (nil when a group did not take part) and returns
/// a problem, or nil when the claim holds. A class: the checker passes claims around for every line of thousands of
/// plans, and a reference is one count to keep where the struct's fields were four.
private final class Claim: @unchecked Sendable {
  let name: String
  let regex: NSRegularExpression
  /// Texts one of which every match contains (NUL-terminated UTF-8): a line holding none of them cannot match, and
  /// its regex is not run. nil: the regex runs on every line.
  let needles: [[CChar]]?
  let check: ([String?], WhyContext) -> String?

  init(
    _ name: String, _ pattern: String, anyOf literals: [String]? = nil,
    check: @escaping ([String?], WhyContext) -> String? = { _, _ in nil }
  ) {
    self.name = name
    do {
      regex = try NSRegularExpression(pattern: pattern)
    } catch {
      fatalError("bad claim pattern \(pattern): \(error)")
    }
    needles = (literals ?? requiredLiteral(of: pattern).map { [$0] })?.map { Array($0.utf8CString) }
    self.check = check
  }

  /// Whether the line (NUL-terminated) may hold a match: it holds one of the needles, or the claim has none.
  func mayMatch(_ line: UnsafePointer<CChar>) -> Bool {
    guard let needles else { return true }
    // Plain loops: this runs for every claim on every line of thousands of plans, in unoptimized builds too.
    for needle in needles where strstr(line, needle) != nil { return true }
    return false
  }
}

/// The longest run of plain characters that every match of `pattern` contains: the literal text between the
/// pattern's top-level groups, classes, escapes and quantifiers (a quantified character is left out). nil when
/// there is none, or the pattern has a top-level alternative (then no one text is required).
private func requiredLiteral(of pattern: String) -> String? {
  var runs: [String] = []
  var run = ""
  var characters = Array(pattern)[...]
  /// Skips a quantifier (and its lazy or possessive mark) after an atom; true when there was one.
  func skipQuantifier() -> Bool {
    guard let next = characters.first, "?*+{".contains(next) else { return false }
    if next == "{" {
      characters = characters.drop { $0 != "}" }.dropFirst()
    } else {
      characters.removeFirst()
    }
    if let mark = characters.first, mark == "?" || mark == "+" { characters.removeFirst() }
    return true
  }
  func flush() {
    if !run.isEmpty { runs.append(run) }
    run = ""
  }
  while let character = characters.popFirst() {
    switch character {
    case "|":
      return nil
    case "(", "[":
      // A group or a class: skipped whole (nested groups, classes and escapes inside it included).
      flush()
      var depth = 1
      var inClass = character == "["
      while depth > 0, let inner = characters.popFirst() {
        switch inner {
        case "\\": _ = characters.popFirst()
        case "[" where !inClass: inClass = true
        case "]" where inClass: inClass = false
        case "(" where !inClass: depth += 1
        case ")" where !inClass: depth -= 1
        default: break
        }
        if character == "[" && !inClass { depth = 0 }
      }
      _ = skipQuantifier()
    case "^", "$", ".":
      flush()
      _ = skipQuantifier()
    case "\\":
      guard let escaped = characters.popFirst() else { break }
      if escaped.isLetter || escaped.isNumber {
        flush()  // \d, \w, \b, a back-reference: not one fixed character
        _ = skipQuantifier()
      } else if skipQuantifier() {
        flush()
      } else {
        run.append(escaped)
      }
    default:
      if skipQuantifier() {
        flush()
      } else {
        run.append(character)
      }
    }
  }
  flush()
  return runs.max { $0.utf8.count < $1.utf8.count }
}

private func double(_ text: String?) -> Double {
  guard let text else { return .nan }
  // Most numbers have no sign to rewrite: read them as they are (the rewrites below would change nothing).
  guard text.unicodeScalars.contains(where: { $0 == "+" || $0 == "\u{2212}" }) else { return Double(text) ?? .nan }
  return Double(text.replacingOccurrences(of: "−", with: "-").replacingOccurrences(of: "+", with: "")) ?? .nan
}

private let claims: [Claim] = {
  var list: [Claim] = [
    // Volume.
    Claim("volume", "^Volume \(num) km") { g, c in
      same(double(g[1]), c.week.plannedKm) ? nil : "states \(g[1] ?? "") km, the week plans \(fmt(c.week.plannedKm))"
    },
    Claim("delta", "(?:\(signed) km over|\(num) km under|(the same as)) \(ref)(?: \\(\(num) km\\))?") { raw, c in
      // One shape for the checks below: the signed change, the week named, its number, its stated volume.
      let change = raw[1] ?? raw[2].map { "-" + $0 } ?? (raw[3] == nil ? nil : "+0")
      let g = [raw[0], change, raw[4], raw[5], raw[6]]
      guard let previous = c.referenced(g[2] ?? "", g[3]) else {
        return "refers to \(g[2] ?? "") from week \(c.week.number)"
      }
      if let stated = g[4], !same(double(stated), previous) {
        return "states \(g[2] ?? "") at \(stated) km, it plans \(fmt(previous))"
      }
      let delta = c.week.plannedKm - previous
      return same(double(g[1]), delta, within: 0.101)
        ? nil
        : "states \(g[1] ?? "") km over \(g[2] ?? ""), the plan has \(fmt(c.week.plannedKm)) − \(fmt(previous)) = \(fmt(delta))"
    },
    Claim("ramp cap", "ramp cap min\\(\(num) %, \(num) km × (\\d+) runs\\)") { g, c in
      let v = c.base.volume
      return double(g[1]) == v.maxIncreasePercent && double(g[2]) == v.maxIncreaseKmPerRun
        && Int(g[3] ?? "") == c.plan.goal.runsPerWeek ? nil : "ramp cap constants \(g[1...3].map { $0 ?? "" })"
    },
    Claim("ramp cap km", "ramp cap \\+\(num) km") { g, c in
      double(g[1]) + tolerance >= c.week.plannedKm - c.peakSoFarFull ? nil : "ramp cap \(g[1] ?? "") km is exceeded"
    },
    Claim("peak reached", "peak volume(?: \(num) km)? reached") { g, c in
      let stated = g[1].map(double)
      if let stated, !c.peakTargets.contains(where: { same($0, stated) }) {
        return "states the peak volume \(fmt(stated)) km, the plan's peak targets are \(c.peakTargets.map(fmt))"
      }
      let peak = stated ?? (c.peakTargets.min() ?? 0)
      return c.week.plannedKm + tolerance >= peak
        ? nil
        : "says peak volume reached on a \(fmt(c.week.plannedKm)) km week (peak \(fmt(peak)))"
    },
    Claim("held at", "held at \(num) km") { g, c in
      same(double(g[1]), c.week.plannedKm)
        ? nil : "says held at \(g[1] ?? "") km, the week plans \(fmt(c.week.plannedKm))"
    },
    Claim("base cap", "\(num) % of peak volume") { g, c in
      double(g[1]) == pct(c.base.volume.baseCapOfPeak) ? nil : "base cap \(g[1] ?? "") %"
    },
    Claim("base cap km", "base cap \(num) km") { g, c in
      c.week.plannedKm <= double(g[1]) + tolerance ? nil : "over the stated base cap \(g[1] ?? "")"
    },
    Claim("target", "target \(num) km") { g, c in
      same(double(g[1]), c.week.targetKm)
        ? nil : "states target \(g[1] ?? "") km, the week's target is \(fmt(c.week.targetKm))"
    },
    // Cut-back weeks.
    Claim("cutback every", "every (\\d+)(?:st|nd|rd|th) week for (\\w+)s") { g, c in
      Int(g[1] ?? "") == c.base.cutback.every[c.goal.level] && g[2] == c.goal.level.rawValue
        ? nil
        : "cut-back cadence \(g[1] ?? "") for \(g[2] ?? "")"
    },
    Claim("cutback share", "\(num) % of \(ref)'s \(num) km") { g, c in
      guard double(g[1]) == pct(c.base.cutback.volumeFactor) else { return "cut-back share \(g[1] ?? "") %" }
      guard let previous = c.referenced(g[2] ?? "", g[3]) else { return "refers to \(g[2] ?? "")" }
      return same(double(g[4]), previous) ? nil : "states \(g[2] ?? "")'s \(g[4] ?? "") km, it plans \(fmt(previous))"
    },
    Claim("cutback volume", "^Cut-back week, \(num) km") { g, c in
      same(double(g[1]), c.week.plannedKm) ? nil : "states \(g[1] ?? "") km, the week plans \(fmt(c.week.plannedKm))"
    },
    Claim("cutback long", "Cut-back long run \(num) km") { g, c in
      c.long.map { same(double(g[1]), $0) } == true
        ? nil : "states a \(g[1] ?? "") km long run, the plan has \(c.long.map(fmt) ?? "none")"
    },
    Claim("cutback long share", "at most \(num) % of the last full week's") { g, c in
      double(g[1]) == pct(c.base.cutback.longRunFactor) ? nil : "cut-back long-run factor \(g[1] ?? "") %"
    },
    // Long run.
    Claim("long run", "^Long run \(num) km") { g, c in
      c.long.map { same(double(g[1]), $0) } == true
        ? nil : "states a \(g[1] ?? "") km long run, the plan has \(c.long.map(fmt) ?? "none")"
    },
    // A long run set by time (LongRunByTimeTests checks the time, the distance and the ratio against the templates).
    Claim("long by time", "^Long run (\\d+):(\\d\\d) by time, about \(num) km") { g, c in
      guard let long = c.week.workouts.first(where: { $0.kind == .long }), let target = long.timeTarget else {
        return "states a long run by time, the plan's long run has no time target"
      }
      let minutes = (Int(g[1] ?? "") ?? -1) * 60 + (Int(g[2] ?? "") ?? -1)
      return minutes == target.minutes && minutes == long.durationMin && same(double(g[3]), long.distanceKm)
        ? nil
        : "states \(g[1] ?? ""):\(g[2] ?? "") and \(g[3] ?? "") km, the long run is \(target.minutes) min, "
          + "\(fmt(long.distanceKm)) km"
    },
    Claim("template peak long", "under the \(num)(?:–\(num))? km peak long run for this level") { g, c in
      guard let peak = c.distance?.levels[c.goal.level].peakLongRunKm else { return "no distance rules" }
      let lower = double(g[1])
      let upper = g[2].map(double) ?? lower
      return lower == peak.lower && upper == peak.upper && (c.long ?? .infinity) < peak.upper
        ? nil
        : "states a \(g[1] ?? "")–\(g[2] ?? "") km peak long run, the template's is \(fmt(peak.lower))–\(fmt(peak.upper))"
    },
    Claim("run/walk", "run/walk, run (\\d+) min / walk (\\d+) min") { g, c in
      let target = c.week.workouts.first { $0.kind == .long }?.timeTarget
      return target?.runMinutes == Int(g[1] ?? "") && target?.walkMinutes == Int(g[2] ?? "")
        ? nil : "states run \(g[1] ?? "") / walk \(g[2] ?? ""), the long run has \(String(describing: target))"
    },
    Claim("spike", "at most \(num) × \(num) km, the longest run of the previous (\\d+) weeks") { g, c in
      let lookback = c.base.longRun.spikeLookbackWeeks
      guard double(g[1]) == c.base.longRun.spikeFactor, Int(g[3] ?? "") == lookback else { return "spike constants" }
      var window = c.plan.weeks[max(0, c.index - lookback)..<c.index].flatMap(\.workouts).map(\.distanceKm)
      if c.index < lookback { window.append(c.plan.goal.longestRecentRunKm) }
      let longest = window.max() ?? c.plan.goal.longestRecentRunKm
      return same(double(g[2]), longest)
        ? nil : "states the longest recent run \(g[2] ?? "") km, the plan's is \(fmt(longest))"
    },
    Claim("long cap (old)", "long-run cap for a \(num) km week") { g, c in
      same(double(g[1]), c.week.plannedKm)
        ? nil : "speaks of a \(g[1] ?? "") km week, the week plans \(fmt(c.week.plannedKm))"
    },
    Claim("long cap target", "long-run cap for the week's \(num) km target") { g, c in
      same(double(g[1]), c.week.targetKm)
        ? nil : "states the target \(g[1] ?? ""), the week's is \(fmt(c.week.targetKm))"
    },
    Claim("step-back carry", "a step-back long run as long as the week's \(num) km needs with (\\d+) runs") { g, c in
      same(double(g[1]), c.week.targetKm) && Int(g[2] ?? "") == c.plan.goal.runsPerWeek
        ? nil
        : "states the week's \(g[1] ?? "") km with \(g[2] ?? "") runs, the week's target is \(fmt(c.week.targetKm))"
    },
    Claim("peak long: longest", "the peak long run: your longest recent run, over the level's \(num) km") { g, c in
      guard let peak = c.distance?.levels[c.goal.level].peakLongRunKm else { return "no distance rules" }
      return double(g[1]) == peak.upper && (c.long ?? .infinity) <= c.plan.goal.longestRecentRunKm + tolerance
        && c.plan.goal.longestRecentRunKm > peak.upper
        ? nil
        : "states the level's \(g[1] ?? "") km under the runner's longest \(fmt(c.plan.goal.longestRecentRunKm)), "
          + "long run \(c.long.map(fmt) ?? "none")"
    },
    Claim(
      "peak long: carried",
      "the peak long run: what lets (\\d+) runs carry (your|the plan's peak) \(num) km a week with every other run a "
        + "third shorter, over the level's \(num) km"
    ) { g, c in
      guard let peak = c.distance?.levels[c.goal.level].peakLongRunKm, let long = c.long else { return "no long run" }
      let current = c.plan.goal.currentWeeklyKm
      let carried = double(g[3])
      // "your": the runner's volume; "the plan's peak": the plan's peak target, over the runner's volume.
      let whose = g[2] == "your" ? same(carried, current) : carried > current && carried >= peak.upper
      // The runs carry it: the long run (rounded down to half kilometres) plus the others, each a third shorter.
      let share = 1 + Double(c.plan.goal.runsPerWeek - 1) / c.base.longRun.minRatioToOtherRuns
      return Int(g[1] ?? "") == c.plan.goal.runsPerWeek && whose && double(g[4]) == peak.upper && long > peak.upper
        && (long + 0.5) * share >= carried - tolerance
        ? nil
        : "states \(g[1] ?? "") runs carrying \(g[2] ?? "") \(g[3] ?? "") km over \(g[4] ?? "") km: long run "
          + "\(fmt(long)), runner's \(fmt(current)) km"
    },
    Claim(
      "easy held by step-back",
      "a third shorter than \(num) km, the longest a step-back long run may be between the peak long runs"
    ) { g, c in
      guard let long = c.long, let peaks = c.distance?.longRun.peaks else { return "no long run or no peak rules" }
      let held = double(g[1])
      let underBand = ((1 - peaks.withinOfLongest) * long * 10 + 1e-9).rounded(.down) / 10 - 0.1
      let over = c.week.workouts.filter {
        $0.kind.isRun && $0.kind != .long && $0.distanceKm > held / c.base.longRun.minRatioToOtherRuns + tolerance
      }
      return same(held, underBand) && over.isEmpty
        ? nil
        : "others held by \(g[1] ?? "") km under a \(fmt(long)) km peak long run; over it: \(over.map(\.distanceKm))"
    },
    Claim("long minutes", "the (\\d+)-minute cap at easy pace") { g, c in
      // The distance's cap, or (marathon) stretched in whole 5 minutes to what `raceReadyKm` takes, within
      // `raceReadyMaxMinutes`; the long run then is no longer than the race-ready one.
      let cap = c.distance?.longRun.maxMinutes ?? c.base.longRun.maxMinutes
      let minutes = Double(g[1] ?? "") ?? .nan
      let stretched =
        c.distance.map { d in
          d.longRun.raceReadyKm != nil && minutes > cap && minutes <= (d.longRun.raceReadyMaxMinutes ?? cap)
            && minutes.truncatingRemainder(dividingBy: 5) == 0 && (c.long ?? 0) <= (d.longRun.raceReadyKm ?? 0) + 1
        } ?? false
      return minutes == cap || stretched ? nil : "long-run minutes \(g[1] ?? "")"
    },
    Claim(
      "early long",
      "a base week more than (\\d+) weeks before the race: at most \(num) % of the \(num) km peak long run the plan aims for"
    ) { g, c in
      guard let long = c.long, let early = c.distance?.longRun.peaks?.early else { return "no long run or early rules" }
      let peak = c.plan.weeks.flatMap(\.workouts).filter { $0.kind == .long }.map(\.distanceKm).max() ?? 0
      let share = double(g[2])
      return Int(g[1] ?? "") == early.weeksOut && c.plan.weeks.count - c.week.number > early.weeksOut
        // The aim is the first shaping's peak: the plan's own may end a few hundred metres under it.
        && [pct(early.longerOfPeak), pct(early.shorterOfPeak)].contains(share) && double(g[3]) >= peak - tolerance
        && double(g[3]) <= peak + 1 && long <= share / 100 * double(g[3]) + tolerance
        ? nil : "early claim \(g[2] ?? "") % of \(g[3] ?? "") km: long run \(fmt(long)), peak \(fmt(peak))"
    },
    // Peak and step-back long runs, long-run variants and the marathon-pace budget (LongRunTests checks the rules).
    Claim("peak long", "a peak long run \\(the plan aims for at most (\\d+), never two weeks running\\)") { g, c in
      guard let long = c.long, let peaks = c.distance?.longRun.peaks else { return "no long run or no peak rules" }
      let longest = c.plan.weeks.flatMap(\.workouts).filter { $0.kind == .long }.map(\.distanceKm).max() ?? 0
      let count = c.plan.weeks.flatMap(\.workouts)
        .filter { $0.kind == .long && $0.distanceKm >= (1 - peaks.withinOfLongest) * longest - 1e-9 }.count
      // The count itself is LongRunTests' to check; the line names the aim and this long run's place in the band.
      return Int(g[1] ?? "") == peaks.maxCount && long >= (1 - peaks.withinOfLongest) * longest - 1e-9
        ? nil : "peak long-run claim: \(fmt(long)) km of the longest \(fmt(longest)), \(count) peak long runs"
    },
    Claim(
      "step-back long",
      "step-back long run, \(num) % of the longest long run so far \(num) km \\(at most (\\d+) peak long runs, never "
        + "two weeks running\\)"
    ) { g, c in
      guard let long = c.long, let peaks = c.distance?.longRun.peaks else { return "no long run or no peak rules" }
      let longest = c.longestLongSoFar
      return double(g[1]) == pct(peaks.stepBackOfPeak) && same(double(g[2]), longest)
        && Int(g[3] ?? "") == peaks.maxCount && long <= double(g[1]) / 100 * double(g[2]) + tolerance
        ? nil : "step-back claim \(g[1] ?? "") % of \(g[2] ?? "") km: long run \(fmt(long)), longest \(fmt(longest))"
    },
    Claim(
      "long variant",
      "^(?:Marathon-pace|Fast-finish) long run: the last \(num) km at (marathon pace|goal race pace); marathon-pace "
        + "budget \(num) km this week \\(long run and sessions\\), at most \(num) % of the week \\(\(num) km\\)"
    ) { g, c in
      guard let long = c.week.workouts.first(where: { $0.kind == .long }), let last = long.steps.last else {
        return "no long run"
      }
      let zone: Intensity = g[2] == "marathon pace" ? .marathon : .race
      guard last.zone == zone, same(last.distanceKm, double(g[1])) else {
        return "states the last \(g[1] ?? "") km at \(g[2] ?? ""), the long run ends with \(fmt(last.distanceKm)) km "
          + "at \(last.zone.rawValue)"
      }
      let share = c.base.intensity.maxMarathonPaceOfWeek
      let marathonPace = marathonPaceKm(of: c.week, goal: c.goal)
      return same(double(g[3]), marathonPace) && double(g[4]) == pct(share)
        && same(double(g[5]), share * c.week.plannedKm, within: 0.101) && marathonPace <= double(g[5]) + tolerance
        ? nil
        : "budget claim \(g[3] ?? "") km of \(g[5] ?? "") km: the week has \(fmt(marathonPace)) km at marathon pace "
          + "of \(fmt(c.week.plannedKm))"
    },
    Claim("long share", "trimmed to at most \(num) % of the week") { g, c in
      guard let long = c.long else { return "no long run" }
      let share = c.base.weekStructure.longRunMaxOfWeek
      return double(g[1]) == pct(share) && long <= share * c.week.plannedKm + tolerance
        ? nil
        : "long-run share \(g[1] ?? "") %, the long run is \(fmt(long)) of \(fmt(c.week.plannedKm))"
    },
    Claim("shortest long", "a third longer than the \(num) km minimum run") { g, c in
      guard let long = c.long else { return "no long run" }
      return long <= double(g[1]) * c.base.longRun.minRatioToOtherRuns + 0.1
        ? nil
        : "a \(fmt(long)) km long run is more than a third longer than \(g[1] ?? "") km"
    },
    Claim("eve kept", "^Day before the long run kept to \(num) km, at most \(num) % of the long run") { g, c in
      guard let long = c.long, let day = c.week.workouts.first(where: { $0.kind == .long })?.date else {
        return "no long run"
      }
      let eve = c.week.workouts.first { $0.date.days(to: day) == 1 }
      guard double(g[2]) == pct(c.base.weekStructure.eveOfLongMaxOfLong) else { return "eve share \(g[2] ?? "")" }
      guard let eve, same(eve.distanceKm, double(g[1])) else {
        return "states \(g[1] ?? "") km on the eve, plan has \(eve.map { fmt($0.distanceKm) } ?? "none")"
      }
      return eve.distanceKm <= c.base.weekStructure.eveOfLongMaxOfLong * long + tolerance
        || same(eve.distanceKm, c.nonRace.map(\.distanceKm).min() ?? 0)
        ? nil : "eve \(fmt(eve.distanceKm)) over the share of \(fmt(long))"
    },
    Claim(
      "strides added",
      "^Strides on (Mon|Tue|Wed|Thu|Fri|Sat|Sun)'s easy run: the week's sessions have no repetition-pace work, and "
        + "Daniels keeps R pace in every phase of 5K and 10K training$"
    ) { g, c in
      let strides = c.week.workouts.filter { $0.kind == .strides && $0.date.weekday.shortName == g[1] }
      let repetition = c.week.workouts.filter { workout in
        workout.kind != .strides && workout.steps.contains { $0.kind == .work && $0.zone == .repetition }
      }
      return strides.count == 1 && repetition.isEmpty && c.distance?.stridesEveryWeek == true
        ? nil : "strides on \(g[1] ?? ""): \(strides.count); R sessions: \(repetition.map(\.title))"
    },
    Claim(
      "eve after quality",
      "^Day before the long run kept to \(num) km, at most \(num) km after the quality session the day before"
    ) { g, c in
      guard let day = c.week.workouts.first(where: { $0.kind == .long })?.date else { return "no long run" }
      let eve = c.week.workouts.first { $0.date.days(to: day) == 1 }
      let quality = c.week.workouts.contains { $0.date.days(to: day) == 2 && $0.kind.isHard && $0.kind != .long }
      guard double(g[2]) == c.base.weekStructure.eveOfLongAfterQualityMaxKm else { return "eve cap \(g[2] ?? "")" }
      guard let eve, same(eve.distanceKm, double(g[1])) else {
        return "states \(g[1] ?? "") km on the eve, plan has \(eve.map { fmt($0.distanceKm) } ?? "none")"
      }
      return quality && eve.distanceKm <= double(g[2]) + tolerance
        ? nil : "eve \(fmt(eve.distanceKm)) after a quality day: \(quality)"
    },
    Claim(
      "eve rest",
      "^Day before the long run is a rest day: \(num) % of the long run is under the \(num) km minimum run"
        + "(?:; that run moves to (\\w+))?"
    ) { g, c in
      guard let long = c.long, let day = c.week.workouts.first(where: { $0.kind == .long })?.date else {
        return "no long run"
      }
      let share = c.base.weekStructure.eveOfLongMaxOfLong
      // The moved run: an easy run (strides included) on the named weekday, not beside the long run's eve.
      if let moved = g[3] {
        let easyKinds: Set<WorkoutKind> = [.easy, .recovery, .strides]
        guard
          c.week.workouts.contains(where: {
            $0.date.weekday.shortName == moved && easyKinds.contains($0.kind) && $0.date.days(to: day) != 1
          })
        else { return "says the run moves to \(moved), the week has no easy run there" }
      }
      return double(g[1]) == pct(share) && share * long < double(g[2]) + tolerance
        && !c.week.workouts.contains { $0.date.days(to: day) == 1 }
        ? nil : "eve rest claim with a \(fmt(long)) km long run"
    },
    Claim(
      "eve minimum",
      "^Day before the long run holds the \(num) km minimum run: \(num) % of the long run is under it and no other "
        + "day is free"
    ) { g, c in
      guard let long = c.long, let day = c.week.workouts.first(where: { $0.kind == .long })?.date else {
        return "no long run"
      }
      let share = c.base.weekStructure.eveOfLongMaxOfLong
      let eve = c.week.workouts.first { $0.date.days(to: day) == 1 }
      guard let eve, same(eve.distanceKm, double(g[1])) else {
        return "states \(g[1] ?? "") km on the eve, plan has \(eve.map { fmt($0.distanceKm) } ?? "none")"
      }
      return double(g[2]) == pct(share) && share * long < eve.distanceKm + tolerance
        && Set(c.week.workouts.map(\.date)).count >= 6
        ? nil : "eve minimum claim with a \(fmt(long)) km long run and \(c.week.workouts.count) runs"
    },
    Claim("few runs", "At most (\\d+) quality sessions? besides the long run at (\\d+) runs a week or fewer") { g, c in
      let structure = c.base.weekStructure
      let quality = c.week.workouts.filter { $0.hard && $0.kind != .long && $0.kind != .race }.count
      return Int(g[1] ?? "") == structure.qualityAtFewRuns[c.goal.level] && Int(g[2] ?? "") == structure.fewRunsAtMost
        && c.plan.goal.runsPerWeek <= structure.fewRunsAtMost && quality <= Int(g[1] ?? "") ?? 0
        ? nil
        : "few-runs quality \(g[1] ?? "")/\(g[2] ?? ""): \(quality) quality sessions at \(c.plan.goal.runsPerWeek) runs"
    },
    // Taper and race week.
    Claim("taper long", "Taper long run(?: \(num) km)?: \(num) % of the peak long run \(num) km") { g, c in
      guard let long = c.long else { return "taper long run line without a long run" }
      let fractions = ((c.distance?.taper.longRun ?? []) + (c.distance?.taper.extended?.longRun ?? [])).map(pct)
      guard fractions.contains(double(g[2])) else { return "taper long-run share \(g[2] ?? "") %" }
      guard same(double(g[3]), c.longestLongSoFar) else {
        return "states the peak long run \(g[3] ?? "") km, the plan's is \(fmt(c.longestLongSoFar))"
      }
      if let stated = g[1] {
        guard same(double(stated), long) else { return "states \(stated) km, the long run is \(fmt(long))" }
        return long <= double(g[2]) / 100 * double(g[3]) + 0.1 || g[0]?.contains("shortest") == true
          || c.week.rules.contains { $0.contains("raised to the shortest long run") }
          ? nil
          : "a \(fmt(long)) km long run is over \(g[2] ?? "") % of \(g[3] ?? "") km"
      }
      return same(long, double(g[2]) / 100 * double(g[3]), within: 0.15)
        ? nil
        : "says \(g[2] ?? "") % of \(g[3] ?? "") km, the long run is \(fmt(long))"
    },
    Claim(
      "taper volume",
      "^(Taper|Race week): (?:\(num) km(?: before race day)?, )?(?:target )?\(num) % of the peak \(num) km"
    ) { g, c in
      let race = g[1] == "Race week"
      let fractions =
        ([c.distance?.taper.volume, c.distance?.taper.extended?.volume].compactMap { $0 })
        .compactMap { race ? $0.last : nil }
        + [c.distance?.taper.volume, c.distance?.taper.extended?.volume]
        .compactMap { $0 }.flatMap { $0.dropLast() }
      guard fractions.map(pct).contains(double(g[3])) else { return "taper share \(g[3] ?? "") %" }
      guard same(double(g[4]), c.peakSoFar) else {
        return "states the peak \(g[4] ?? "") km, the plan's is \(fmt(c.peakSoFar))"
      }
      let training = c.week.plannedKm - c.race
      if let stated = g[2] {
        return same(double(stated), training) ? nil : "states \(stated) km, the week has \(fmt(training))"
      }
      return same(training, double(g[3]) / 100 * double(g[4]), within: 1.0)
        ? nil
        : "says \(g[3] ?? "") % of \(g[4] ?? "") km, the week has \(fmt(training)) km of training"
    },
    Claim("race-week cap", "runs before race day at most \(num) km") { g, c in
      c.nonRace.allSatisfy { $0.distanceKm <= double(g[1]) + tolerance }
        ? nil
        : "a race-week run is over \(g[1] ?? "") km: \(c.nonRace.map(\.distanceKm))"
    },
    Claim("race-week last days", "the last (\\d+) days at most \(num) km") { g, c in
      let raceDate = c.plan.goal.raceDate
      let late = c.nonRace.filter { $0.date.days(to: raceDate) <= Int(g[1] ?? "") ?? 0 }
      return late.allSatisfy { $0.distanceKm <= double(g[2]) + tolerance }
        ? nil
        : "a run in the last \(g[1] ?? "") days is over \(g[2] ?? "") km: \(late.map(\.distanceKm))"
    },
    Claim("race day", "^Race day \(dateLabel): the (.+) is the last workout") { g, c in
      g[1] == c.plan.goal.raceDate.shortLabel && g[2] == c.goal.distance.displayName
        ? nil
        : "race day \(g[1] ?? "") \(g[2] ?? "")"
    },
    // Easy running and trimming.
    Claim("easy capped by time", "Easy runs capped at \(num) km, (\\d+) minutes at easy pace at (\\d+) runs a week") {
      g, c in
      let cap = double(g[1])
      let over = c.week.workouts.filter { $0.kind.isRun && $0.kind != .long && $0.distanceKm > cap + tolerance }
      return Double(g[2] ?? "") == c.base.weekStructure.otherRunMaxMinutesAtFewRuns && over.isEmpty
        && Int(g[3] ?? "") == c.plan.goal.runsPerWeek
        && (Int(g[3] ?? "") ?? 99) <= c.base.weekStructure.fewRunsAtMost
        ? nil : "easy cap \(g[1] ?? "") km by time; over it: \(over.map(\.distanceKm))"
    },
    Claim("easy capped", "Easy runs capped at \(num) km") { g, c in
      guard let long = c.long else { return "no long run" }
      let cap = double(g[1])
      let over = c.week.workouts.filter { $0.kind != .long && $0.distanceKm > cap + tolerance }
      return cap <= long / c.base.longRun.minRatioToOtherRuns + tolerance && over.isEmpty
        ? nil
        : "easy cap \(g[1] ?? "") km with a \(fmt(long)) km long run; over it: \(over.map(\.distanceKm))"
    },
    Claim(
      "medium-long",
      "^Medium-long run \(num) km: the week's second-longest run, \(num) % of the long run \\(aim \(num) % at "
        + "(\\d+)\\+ runs a week\\)"
    ) { g, c in
      let rules = c.base.weekStructure.mediumLong
      guard let long = c.long, let medium = c.week.workouts.first(where: { $0.kind == .mediumLong }) else {
        return "no medium-long run or long run"
      }
      guard same(medium.distanceKm, double(g[1])) else {
        return "states \(g[1] ?? ""), plans \(fmt(medium.distanceKm))"
      }
      let others = c.nonRace.filter { $0.kind != .long && $0.id != medium.id }.map(\.distanceKm)
      if let longer = others.first(where: { $0 > medium.distanceKm + tolerance }) {
        return "not the second-longest run: \(fmt(longer)) km is longer"
      }
      guard abs(double(g[2]) - pct(medium.distanceKm / long)) <= 1 else { return "share \(g[2] ?? "") %" }
      return double(g[3]) == pct(rules.ofLong) && Int(g[4] ?? "") == rules.fromRuns ? nil : "aim \(g[3] ?? "")"
    },
    Claim("recovery kept", "^Recovery run kept to \(num) km, at most (\\d+) minutes at easy pace") { g, c in
      let recoveries = c.week.workouts.filter { $0.kind == .recovery }
      guard let first = recoveries.first, same(first.distanceKm, double(g[1])) else {
        return "states \(g[1] ?? "") km, recovery runs \(recoveries.map(\.distanceKm))"
      }
      return Double(g[2] ?? "") == c.base.weekStructure.recoveryMaxMinutes
        && recoveries.allSatisfy({ Double($0.durationMin) <= c.base.weekStructure.recoveryMaxMinutes + 1 })
        ? nil : "recovery minutes \(recoveries.map(\.durationMin))"
    },
    Claim("easy minimum", "kept at the \(num) km minimum") { g, c in
      let minimum = double(g[1])
      let easyKinds: Set<WorkoutKind> = [.easy, .recovery, .strides]
      let shortest = c.week.workouts.filter { easyKinds.contains($0.kind) }.map(\.distanceKm).min() ?? 0
      return same(shortest, minimum, within: 0.101)
        ? nil : "minimum \(g[1] ?? "") km, the shortest run is \(fmt(shortest))"
    },
    Claim("trimmed", "^Trimmed to \(num) km to stay within the week's ceiling of \(num) km") { g, c in
      same(double(g[1]), c.week.plannedKm) && c.week.plannedKm <= double(g[2]) + tolerance
        ? nil
        : "trimmed to \(g[1] ?? "") under \(g[2] ?? ""), the week plans \(fmt(c.week.plannedKm))"
    },
    // Runs a week.
    Claim(
      "runs",
      "^(\\d+) runs: you asked for (\\d+); (?:cut-back week|taper week|\(num) km is too small for (\\d+) runs "
        + "of at least \(num) km \\(about (\\d+) minutes\\) beside the long run)"
    ) { g, c in
      let runs = c.week.workouts.filter { $0.kind.isRun }.count
      guard Int(g[1] ?? "") == runs, Int(g[2] ?? "") == c.goal.runsPerWeek ?? c.plan.goal.runsPerWeek,
        runs < c.plan.goal.runsPerWeek
      else { return "states \(g[1] ?? "") of \(g[2] ?? "") runs, the week has \(runs)" }
      if let volume = g[3] {
        let shortest = c.week.workouts.filter { $0.kind.isRun }.map(\.distanceKm).min() ?? 0
        guard same(Double(volume) ?? 0, c.week.plannedKm), Int(g[4] ?? "") == Int(g[2] ?? ""),
          shortest >= double(g[5]) - 0.101,
          Double(g[6] ?? "") == c.base.weekStructure.minRunMinutes
        else { return "states \(volume) km and a \(g[5] ?? "") km minimum, shortest run \(fmt(shortest))" }
      }
      return nil
    },
    // Quality.
    Claim("build-up", "at \(num) % of their build-up") { g, _ in
      (0...100).contains(double(g[1])) ? nil : "build-up \(g[1] ?? "") %"
    },
    Claim("caps", "threshold ≤ \(num) %, intervals ≤ \(num) % of the week") { g, c in
      double(g[1]) == pct(c.base.intensity.maxThresholdOfWeek)
        && double(g[2]) == pct(c.base.intensity.maxIntervalOfWeek)
        ? nil : "per-session caps \(g[1] ?? "") / \(g[2] ?? "")"
    },
    Claim("shortened", "shortened to fit the per-session cap for a \(num) km week") { g, c in
      same(double(g[1]), c.week.plannedKm)
        ? nil : "speaks of a \(g[1] ?? "") km week, the week plans \(fmt(c.week.plannedKm))"
    },
    Claim("no quality", "No quality session on \(dateLabel)") { g, c in
      (0..<7).map { c.week.start.adding(days: $0).shortLabel }.contains(g[1] ?? "")
        ? nil : "date \(g[1] ?? "") outside the week"
    },
    Claim("easy share", "at least \(num) % of the week's time") { g, c in
      double(g[1]) == pct(c.base.intensity.minEasyTimeFraction) ? nil : "easy share \(g[1] ?? "") %"
    },
  ]
  // Workout names may hold digits ("800 m intervals"); they are names, not claims.
  let names = Set(repositoryRules.workouts.values.map(\.name)).sorted { $0.count > $1.count }
  list.append(
    Claim("names", "(" + names.map(NSRegularExpression.escapedPattern).joined(separator: "|") + ")", anyOf: names))
  return list
}()

extension WhyContext {
  /// The previous full week's volume (the ramp's reference).
  var peakSoFarFull: Double {
    plan.weeks[..<index].last { !$0.cutback && $0.phase != .taper && $0.phase != .race }?.plannedKm
      ?? plan.goal.currentWeeklyKm
  }
}

/// Every why-line of `plan` whose numbers are not what the plan has, one line each.
func whyViolations(of plan: Plan, goal: Goal) -> [String] {
  var out: [String] = []
  for index in plan.weeks.indices {
    let context = WhyContext(plan: plan, goal: goal, index: index)
    for line in context.week.rules {
      // The line's UTF-16 units (what NSString and the regex ranges count), read once: NSString's per-character
      // access and substrings over a Swift string walk its UTF-16 view each time.
      let units = Array(line.utf16)
      let utf8 = Array(line.utf8)
      /// The UTF-8 offset of each UTF-16 offset (a match's bounds are on scalar boundaries).
      var utf8Offset = [Int](repeating: 0, count: units.count + 1)
      do {
        var u16 = 0
        var u8 = 0
        for scalar in line.unicodeScalars {
          utf8Offset[u16] = u8
          u16 += UTF16.width(scalar)
          u8 += UTF8.width(scalar)
        }
        utf8Offset[u16] = u8
      }
      /// The text of a UTF-16 range of the line, as `NSString.substring(with:)` gives it.
      func substring(_ range: NSRange) -> String {
        String(decoding: utf8[utf8Offset[range.location]..<utf8Offset[range.location + range.length]], as: UTF8.self)
      }
      var consumed = [Bool](repeating: false, count: units.count)
      // Only the claims whose required text the line holds are matched: the others cannot match.
      var candidates: [Claim] = []
      line.withCString { pointer in
        for claim in claims where claim.mayMatch(pointer) { candidates.append(claim) }
      }
      for claim in candidates {
        for match in claim.regex.matches(in: line, range: NSRange(location: 0, length: units.count)) {
          for i in 0..<match.range.length { consumed[match.range.location + i] = true }
          let groups = (0..<match.numberOfRanges).map { i -> String? in
            let range = match.range(at: i)
            return range.location == NSNotFound ? nil : substring(range)
          }
          if let problem = claim.check(groups, context) {
            out.append("[why \(claim.name)] week \(context.week.number): \(problem) — “\(line)”")
          }
        }
      }
      var stray = false
      for i in 0..<units.count where !consumed[i] {
        let unit = units[i]
        // ASCII digits without a character set; anything else as Unicode says (why-lines are ASCII but for signs).
        let digit =
          unit < 0x80
          ? (0x30...0x39).contains(unit) : UnicodeScalar(unit).map(CharacterSet.decimalDigits.contains) == true
        if digit {
          stray = true
          break
        }
      }
      if stray { out.append("[why unparsed] week \(context.week.number): a number no claim accounts for — “\(line)”") }
    }
  }
  return out
}

@Suite("WhyLines: every explanation states the plan's own numbers")
struct WhyLineTests {
  /// Every distance × level × length (absolute minimum … 24 weeks) × runs per week (3…7) × current volume.
  @Test(arguments: RaceDistance.allCases, Level.allCases)
  func whyLinesMatchThePlan(distance: RaceDistance, level: Level) throws {
    let minimum = try #require(repositoryRules.rules(for: distance)).minimumWeeks[level]
    var checked = 0
    var failing: [String: Int] = [:]
    var examples: [String] = []
    for weeks in minimum.absolute...max(minimum.absolute, 24) {
      for runs in 3...7 {
        for current: Double? in [nil, 20, 45, 80] {
          let asked = goal(distance, level, weeks: weeks, runs: runs, currentKm: current)
          guard let plan = try? makePlan(goal: asked, rules: repositoryRules) else { continue }
          checked += 1
          let found = whyViolations(of: plan, goal: asked)
          for tag in Set(found.map { String($0.prefix { $0 != "]" }.dropFirst()) }) { failing[tag, default: 0] += 1 }
          if !found.isEmpty && examples.count < 3 {
            examples.append(
              "\(distance.rawValue) \(level.rawValue) \(weeks)w runs=\(runs) current=\(current.map(fmt) ?? "-"): "
                + found.prefix(4).joined(separator: " | "))
          }
          if ProcessInfo.processInfo.environment["WHY_DUMP"] != nil {
            for line in found {
              print(
                "[WhyDump] \(distance.rawValue) \(level.rawValue) \(weeks)w r\(runs) c\(current.map(fmt) ?? "-") | \(line)"
              )
            }
          }
        }
      }
    }
    #expect(checked > 0)
    #expect(
      failing.isEmpty, "\(checked) plans; failing plans per claim: \(failing.sorted { $0.key < $1.key }). \(examples)")
  }

  /// A claim's regex runs only on lines holding its required text: over a sample of plans (every distance and
  /// level, short and long, few and many runs, low and high volume), every claim that matches a line holds it.
  @Test func requiredTextNeverHidesAMatch() throws {
    let unfiltered = claims.filter { $0.needles == nil }.map(\.name)
    #expect(unfiltered.isEmpty, "claims whose regex runs on every line: \(unfiltered)")
    var lines = 0
    var matched = 0
    for distance in RaceDistance.allCases {
      for level in Level.allCases {
        let minimum = try #require(repositoryRules.rules(for: distance)).minimumWeeks[level]
        for weeks in [minimum.absolute, max(minimum.absolute, 24)] {
          for (runs, current) in [(3, nil), (6, 80.0)] as [(Int, Double?)] {
            let asked = goal(distance, level, weeks: weeks, runs: runs, currentKm: current)
            guard let plan = try? makePlan(goal: asked, rules: repositoryRules) else { continue }
            for line in plan.weeks.flatMap(\.rules) {
              lines += 1
              let range = NSRange(location: 0, length: (line as NSString).length)
              for claim in claims where claim.regex.firstMatch(in: line, range: range) != nil {
                matched += 1
                #expect(line.withCString(claim.mayMatch), "[\(claim.name)] matches, yet is skipped: “\(line)”")
              }
            }
          }
        }
      }
    }
    #expect(lines > 1000 && matched > lines)
  }

  /// The checker can fail: a plan whose why-line states a volume the week does not have is caught.
  @Test func checkerCatchesAWrongNumber() throws {
    let asked = goal(.half, .intermediate, weeks: 12)
    var plan = try makePlan(goal: asked, rules: repositoryRules)
    #expect(whyViolations(of: plan, goal: asked).isEmpty)
    plan.weeks[2].rules.insert("Volume \(plan.weeks[2].plannedKm + 1) km: a line that lies", at: 0)
    plan.weeks[3].rules.append("A stray 7 nobody explains")
    let found = whyViolations(of: plan, goal: asked)
    #expect(found.contains { $0.hasPrefix("[why volume] week 3") })
    #expect(found.contains { $0.hasPrefix("[why unparsed] week 4") })
  }
}
