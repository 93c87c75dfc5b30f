/// Weekly volume: progressive overload, cut-back weeks and the taper.
///
/// - Build and base weeks rise at most min(10 % of the previous full week, 1.6 km × runs per week), the 10 %
///   guideline and Daniels' "one mile per weekly session"; base weeks stay under 80 % of peak volume, and no
///   week ramps past the level's peak volume.
/// - Every 3rd week (beginners) or 4th week (others) is a cut-back week at ~75 % of the previous full week;
///   the week after continues from the last full week. Never in the taper, nor in the week before it.
/// - Taper weeks run at a fraction of the peak volume (Bosquet et al., MSSE 2007: volume −41…−60 %,
///   intensity kept); race week's fraction is the running before race day, the race comes on top.
enum VolumeRule: WeekRule {
  static func apply(to week: inout WeekDraft, context: PlanContext, history: [WeekSummary]) {
    func isFull(_ week: WeekSummary) -> Bool { !week.cutback && week.phase != .taper && week.phase != .race }
    let previousFull = history.last(where: isFull)
    let previousKm = previousFull?.plannedKm ?? context.currentKm
    let previousName = previousFull.map { "week \($0.number)" } ?? "your current week"

    switch week.phase {
    case .taper, .race:
      let peak = history.lazy.filter(isFull).map(\.plannedKm).max() ?? context.currentKm
      let index = week.number - (context.weeks - context.taperVolume.count) - 1
      let fraction = context.taperVolume[max(0, min(index, context.taperVolume.count - 1))]
      week.targetKm = fraction * peak + (week.phase == .race ? context.raceKm : 0)
      // Rounding and minimum runs may lift a taper week over its share, never to the peak.
      week.ceilingKm = max(week.targetKm, peak - 0.1 + (week.phase == .race ? context.raceKm : 0))
      week.volumeReason = .taper(fraction: fraction, peakKm: peak)
      return
    default:
      break
    }

    // A return week after a break: a share of the volume before it, recovered like a cut-back week (the week after
    // continues from the volume before the break).
    if let share = context.comeback[week.number] {
      week.cutback = true
      // Never under the smallest week of three runs (the shortest run twice, and the long run a third longer than
      // it), nor over the volume before the break.
      let volume = context.base.volume
      let smallest = ((volume.minRunKm * (2 + context.base.longRun.minRatioToOtherRuns)) * 10).rounded(.up) / 10 + 0.1
      week.targetKm = min(context.currentKm, max(share * context.currentKm, smallest))
      week.ceilingKm = week.targetKm
      week.volumeReason = .comeback(share: share, fromKm: context.currentKm)
      return
    }
    // The first week after the return weeks rejoins the build at the volume before the break; the ramp resumes the
    // week after (a week or two at 60-80 % are no base to ramp from: back to 100 % first, then +10 %).
    if week.number > 1 && context.comeback[week.number - 1] != nil {
      week.targetKm = context.currentKm
      week.ceilingKm = week.targetKm
      week.volumeReason = .rejoin(fromKm: context.currentKm)
      return
    }
    let every = context.cutbackEvery
    let lastBeforeTaper =
      context.base.cutback.skipBeforeTaper
      && context.phases.firstIndex { $0 == .taper || $0 == .race } == week.number
    // The rhythm counts from the plan's first week; after a break, from its last return week (the return weeks were
    // the recovery: `every - 1` full weeks follow them before the next cut-back).
    let counted = context.comeback.keys.max().map { week.number > $0 ? week.number - $0 : nil } ?? week.number
    let cutbackDue = week.number > 1 && counted.map { $0 % every == 0 } == true
    if cutbackDue && lastBeforeTaper {
      week.rules.append("No cut-back week right before the taper: the taper that follows is the recovery")
    }
    if cutbackDue && !lastBeforeTaper {
      week.cutback = true
      week.targetKm = context.cutbackVolumeFactor * previousKm
      week.ceilingKm = week.targetKm
      week.volumeReason = .cutback(previous: previousName, previousKm: previousKm, every: every)
      return
    }

    let volume = context.base.volume
    // Base weeks stay under a share of the peak, never under what the runner runs now.
    let cap =
      week.phase == .base
      ? max(volume.baseCapOfPeak * context.peakTargetKm, context.currentKm) : context.peakTargetKm
    let increase = min(volume.maxIncreasePercent / 100 * previousKm, volume.maxIncreaseKmPerRun * Double(context.runs))
    week.ceilingKm = previousKm + increase
    if previousKm + increase >= cap {
      week.targetKm = max(cap, previousKm)
      // Held at the cap: rounding and minimum runs may not creep past it week after week.
      week.ceilingKm = min(week.ceilingKm, week.targetKm)
      week.volumeReason = .capped(previous: previousName, previousKm: previousKm, base: week.phase == .base)
    } else {
      week.targetKm = previousKm + increase
      week.volumeReason = .ramp(previous: previousName, previousKm: previousKm)
    }
  }

  static func ordinal(_ n: Int) -> String {
    switch n {
    case 2: "2nd"
    case 3: "3rd"
    default: "\(n)th"
    }
  }
}
