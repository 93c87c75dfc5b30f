/// Race-specific long runs (half, marathon; intermediate and advanced): the long runs ``LongRunLayout`` gives a
/// variant end with a marathon-pace segment or a fast finish (`longRun.variants` in the distance file).
///
/// The segment grows over the build like a quality session (`marathonPaceKm`, `fastFinishKm`) and gives way to:
/// - the marathon-pace budget (`intensity.maxMarathonPaceOfWeek`, 20 %): the week's marathon-pace work (the
///   segment, and marathon-pace sessions; for the marathon, goal-pace sessions too) at most that share of the week;
/// - the week's easy time: the week keeps at least `minEasyTimeOfWeek` of its time easy;
/// - the long run: at most 60 % of it is at pace, the rest is easy running before.
/// A marathon-pace segment that cannot reach its smallest size becomes a fast finish; one that cannot either leaves
/// the long run easy. A long run with a variant is a hard day like every long run (`WorkoutKind.long.isHard`); the
/// weekly patterns keep hard days apart.
enum LongRunVariantRule: WeekRule {
  /// The largest share of a long run at pace.
  static let maxShareOfLong = 0.6
  /// QualityRule's note when a marathon-pace long run takes a quality session's place.
  static let fewerQualityNote =
    "Fewer quality sessions beside the marathon-pace long run: the other quality days are easy runs"

  static func apply(to week: inout WeekDraft, context: PlanContext, history: [WeekSummary]) {
    week.longVariant = nil
    guard let planned = context.longRunLayout?.variants[week.number], planned != .easy,
      let rules = context.distance.longRun.variants, week.longKm != nil
    else { return }
    // The first full week after a break's return weeks: back to the old long run, easy (the pace work returns the
    // week after).
    if week.number > 1 && context.comeback[week.number - 1] != nil {
      dropFewerQualityNote(&week)
      week.rules.append("Long run kept easy this week: the first full week back after the break")
      return
    }
    let progress = QualityRule.progressFraction(week: week, context: context)
    let order: [LongRunVariantKind] = planned == .marathonPace ? [.marathonPace, .fastFinish] : [.fastFinish]
    for kind in order {
      let range = kind == .marathonPace ? rules.marathonPaceKm : rules.fastFinishKm
      let zone = kind == .marathonPace ? Intensity.marathon : rules.fastFinishZone
      let km = min(floorHalf(range.value(at: progress)), room(week, zone: zone, context: context))
      if km >= range.lower - 1e-9 {
        week.longVariant = LongRunVariant(kind: kind, zone: zone, km: km)
        if kind != .marathonPace { dropFewerQualityNote(&week) }
        return
      }
    }
    dropFewerQualityNote(&week)
    week.rules.append(
      "Long run kept easy this week: its race-pace finish does not fit the marathon-pace budget or the week's "
        + "easy-time share")
  }

  /// The marathon-pace segment did not fit: the note that it took a quality session's place is reworded.
  static func dropFewerQualityNote(_ week: inout WeekDraft) {
    guard let index = week.rules.firstIndex(of: fewerQualityNote) else { return }
    week.rules[index] =
      "Fewer quality sessions this week, to make room for a marathon-pace long run that then did not fit"
  }

  /// After the guard: the week may have lost volume or its long run may be shorter; the segment shrinks to fit
  /// (in half kilometres), or the long run is easy when it would be under the variant's smallest size.
  static func enforce(_ week: inout WeekDraft, context: PlanContext) {
    guard var variant = week.longVariant, let rules = context.distance.longRun.variants else { return }
    guard week.longKm != nil else {
      week.longVariant = nil
      return
    }
    week.longVariant = nil
    let smallest = variant.kind == .marathonPace ? rules.marathonPaceKm.lower : rules.fastFinishKm.lower
    variant.km = min(variant.km, room(week, zone: variant.zone, context: context))
    if variant.km >= smallest - 1e-9 { week.longVariant = variant }
  }

  /// The most the long run of `week` (without its variant) can carry at `zone`, in half kilometres.
  static func room(_ week: WeekDraft, zone: Intensity, context: PlanContext) -> Double {
    guard let long = week.longKm, let rules = context.distance.longRun.variants else { return 0 }
    let budget = context.base.intensity.maxMarathonPaceOfWeek * week.plannedKm - marathonPaceSessionKm(week, context)
    let (easy, total) = IntensityBalanceRule.seconds(of: week, context: context)
    // Turning x km of easy running into pace work: easy − x·e ≥ f·(total − x·(e − p)).
    let share = rules.minEasyTimeOfWeek
    let easyPace = context.paces.pace(.easy).secondsPerKilometer
    let pace = context.paces.pace(zone).secondsPerKilometer
    let byEasyTime = (easy - share * total) / ((1 - share) * easyPace + share * pace)
    return max(0, floorHalf(min(budget - 0.05, byEasyTime, maxShareOfLong * long)))
  }

  /// Work at marathon pace in the week's sessions (for the marathon, goal-pace work too), km.
  static func marathonPaceSessionKm(_ week: WeekDraft, _ context: PlanContext) -> Double {
    let marathon = context.goal.distance == .marathon
    var km = 0.0
    for session in week.sessions.values where session.zone == .marathon || (marathon && session.zone == .race) {
      km += session.workTotalKm
    }
    return km
  }

  /// The week's marathon-pace work as the plan shows it: the long run's segment and the sessions', km.
  static func marathonPaceKm(_ week: WeekDraft, _ context: PlanContext) -> Double {
    (week.longVariant?.km ?? 0) + marathonPaceSessionKm(week, context)
  }
}
