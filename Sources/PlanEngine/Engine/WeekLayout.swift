import RunningCore

/// The week's days laid on the runner's run days (``Goal/runDays``, ``Goal/longRunDay``), so that the scheduler has
/// nothing to move for run-day reasons and the week-structure rules hold on the days the runner really runs.
///
/// - The long run goes on the long-run day: the one given, else the race weekday when it is a run day, else the run
///   day nearest to it (the earlier one on a tie).
/// - When the template's pattern for the runs a week (`weeklyPatterns` in `base.yaml`), anchored on the long-run day,
///   falls on run days, it is the week: the template is the rule, stated as data.
/// - Otherwise the week is derived by the same rules (`weekStructure`): quality days never beside the long run or
///   each other (weeks repeat, so the long run of the week before counts), as far from the long run as the days
///   allow; then the runs spread out (fewest runs on consecutive days), then the day before the long run a rest day
///   where the days allow (a run there is held to `eveOfLongMaxOfLong` of the long run by ``EasyFillRule``); the day
///   after the long run is the recovery run when the template has one. A quality day that cannot be kept apart from
///   the other hard days is an easy run, and a plan warning names the days and the rule.
struct WeekLayout: Sendable, Hashable {
  /// The long-run weekday the pattern's offset 0 falls on.
  let longRunDay: Weekday
  /// The pattern, offsets relative to `longRunDay`, sorted.
  let pattern: [PatternSlot]
  /// What the runner should know about the layout (a rule the days do not allow).
  let warnings: [String]

  /// Lays the week of `runs` runs on `runDays` (every day when nil) with the long run on `longRunDay` (when nil: the
  /// race weekday or the run day nearest to it).
  /// - Parameters:
  ///   - template: the template's pattern for `runs` runs a week (offsets relative to the long-run day).
  ///   - qualityWanted: the most quality days any week of the plan uses (the level's count, at most the template's).
  /// - Throws: ``PlanError`` when the long-run day is not a run day, or the run days are fewer than 3 or than `runs`.
  static func make(
    runDays: [Weekday]?, longRunDay: Weekday?, raceWeekday: Weekday, runs: Int, template: [PatternSlot],
    qualityWanted: Int
  ) throws(PlanError) -> WeekLayout {
    let days = Set(runDays ?? Weekday.allCases)
    let list = dayList(days)
    guard days.count >= 3 else {
      throw .outOfRange(field: .days, value: list, allowed: "at least 3 run days: a plan has 3 to 7 runs a week")
    }
    guard runs <= days.count else {
      throw .outOfRange(
        field: .runsPerWeek, value: String(runs),
        allowed: "at most \(days.count), one run a day on the run days (\(list))")
    }
    if let longRunDay, !days.contains(longRunDay) {
      throw .outOfRange(
        field: .longRunDay, value: longRunDay.rawValue, allowed: "one of the run days (\(list))")
    }
    let long =
      longRunDay
      ?? days.min { a, b in
        func key(_ day: Weekday) -> (Int, Int) {
          let after = (day.index - raceWeekday.index + 7) % 7
          let before = (raceWeekday.index - day.index + 7) % 7
          return (min(after, before), before <= after ? 0 : 1)
        }
        return key(a) < key(b)
      } ?? raceWeekday
    // Offsets of the run days relative to the long-run day, in −6…0.
    let available = Set(days.map { -((long.index - $0.index + 7) % 7) })
    if template.allSatisfy({ available.contains($0.offset) }) {
      return WeekLayout(longRunDay: long, pattern: template.sorted { $0.offset < $1.offset }, warnings: [])
    }
    let quality = min(qualityWanted, template.filter { $0.role == .quality }.count)
    let recovery = template.contains { $0.role == .recovery }
    let best = search(available: available.subtracting([0]).sorted(), others: runs - 1, quality: quality)
    var pattern = [PatternSlot(offset: 0, role: .long)]
    for offset in best.runs {
      let role: PatternSlot.Role =
        best.quality.contains(offset) ? .quality : (recovery && offset == -6 ? .recovery : .easy)
      pattern.append(PatternSlot(offset: offset, role: role))
    }
    pattern.sort { $0.offset < $1.offset }
    var warnings: [String] = []
    if best.quality.count < quality {
      let missing = quality - best.quality.count
      warnings.append(
        "your run days \(list) leave no day for \(missing) of the \(quality) quality session\(quality == 1 ? "" : "s") "
          + "a week that is not beside the long run (\(long.shortName)) or another quality day (hard days are never "
          + "on consecutive days): \(missing == 1 ? "it is an easy run" : "they are easy runs"); a run day at least "
          + "two days from the other hard days would allow \(missing == 1 ? "it" : "them")")
    }
    return WeekLayout(longRunDay: long, pattern: pattern, warnings: warnings)
  }

  /// The best choice of `others` run days from `available` (offsets, long run at 0 excluded) and of at most
  /// `quality` quality days among them: most quality days kept apart from the hard days, then the quality days
  /// farthest from the long run (both sides: weeks repeat), then the fewest consecutive run days, then the day before
  /// the long run free, then the last quality day furthest before the long run; ties go to the first in order.
  static func search(available: [Int], others: Int, quality: Int) -> (runs: [Int], quality: [Int]) {
    func distance(_ offset: Int) -> Int { min(-offset, 7 + offset) }
    func adjacent(_ a: Int, _ b: Int) -> Bool { (a - b + 14) % 7 == 1 || (b - a + 14) % 7 == 1 }
    var best: (score: [Int], runs: [Int], quality: [Int])?
    for runs in subsets(available, size: others) {
      let all = runs + [0]
      let consecutive = all.enumerated().flatMap { i, a in all.dropFirst(i + 1).map { (a, $0) } }
        .filter { adjacent($0.0, $0.1) }.count
      for size in stride(from: min(quality, runs.count), through: 0, by: -1) {
        for chosen in subsets(runs, size: size) {
          let hard = chosen + [0]
          let apart = hard.enumerated().allSatisfy { i, a in hard.dropFirst(i + 1).allSatisfy { !adjacent(a, $0) } }
          guard apart else { continue }
          let score = [
            chosen.count, chosen.map(distance).reduce(0, +), -consecutive, runs.contains(-1) ? 0 : 1,
            chosen.map { -$0 }.min() ?? 0,
          ]
          if best.map({ $0.score.lexicographicallyPrecedes(score) }) ?? true {
            best = (score, runs, chosen)
          }
        }
      }
    }
    return (best?.runs ?? [], best?.quality ?? [])
  }

  /// Every subset of `items` of `size` elements, in order.
  static func subsets(_ items: [Int], size: Int) -> [[Int]] {
    guard size > 0 else { return [[]] }
    guard items.count >= size, let first = items.first else { return [] }
    let rest = Array(items.dropFirst())
    return subsets(rest, size: size - 1).map { [first] + $0 } + subsets(rest, size: size)
  }

  /// `Sat, Sun, Mon` in week order from Monday.
  static func dayList(_ days: Set<Weekday>) -> String {
    days.sorted { $0.index < $1.index }.map(\.shortName).joined(separator: ", ")
  }
}
