import Foundation

/// How much of a planned workout a run (or the runs matched to it) covered: the planned distance, or the planned
/// time for a workout set by time.
///
/// The bands follow TrainingPeaks' compliance colours (green: 80–120 % of the planned duration or distance;
/// yellow: 50–79 % or 121–150 %; orange: under 50 % or over 150 %; red: planned and not done), see
/// <https://help.trainingpeaks.com/hc/en-us/articles/204071884-Daily-Workout-Compliance-Color-Coding>.
/// RunningMate keeps the short side of them as statuses: from ``doneFrom`` a workout is done (more than planned is
/// done too: a runner who ran long is not told off), from ``partialFrom`` it is partial, and a matched run under
/// ``partialFrom`` is still partial (started, TrainingPeaks' orange), never done and never counted as missed.
public enum Compliance: String, Sendable, Hashable, Codable, CaseIterable {
  /// 80 % of the plan or more (TrainingPeaks' green, and the over-long yellow and orange).
  case done
  /// 50–79 % (TrainingPeaks' yellow).
  case short
  /// Under 50 % (TrainingPeaks' orange).
  case farShort = "far_short"

  /// From this share of the plan a workout is done.
  public static let doneFrom = 0.8
  /// From this share of the plan (up to ``doneFrom``) a workout is partial; below it, far short.
  public static let partialFrom = 0.5
  /// Over this share of the plan a done workout was run well over it (TrainingPeaks' orange on the long side): still
  /// done, and `log` says so instead of "Nice work!".
  public static let wellOverAbove = 1.5

  /// The share of the plan a run covered (`done` ÷ `planned`) when it is over ``wellOverAbove``, else nil: the one
  /// test of "well over", for `log`'s words and beside the week colours' orange. Nothing planned is never over.
  public static func wellOver(done: Double, planned: Double) -> Double? {
    guard planned > 0, done.isFinite else { return nil }
    let ratio = done / planned
    return ratio > wellOverAbove ? ratio : nil
  }

  /// The band of `ratio` (run ÷ planned); a plan of nothing is done by any run.
  public init(ratio: Double) {
    if !ratio.isFinite || ratio >= Self.doneFrom {
      self = .done
    } else if ratio >= Self.partialFrom {
      self = .short
    } else {
      self = .farShort
    }
  }

  /// The band of `done` against `planned` (km, or minutes for a workout set by time).
  public init(done: Double, planned: Double) {
    self.init(ratio: planned > 0 ? done / planned : .infinity)
  }

  /// Done or partial: what a matched run makes of its workout.
  public var matchStatus: MatchStatus { self == .done ? .done : .partial }
}

/// A week's compliance colour, from its done share of the distance due (TrainingPeaks' bands, as ``Compliance``):
/// green from ``Compliance/doneFrom`` to 120 %, yellow from ``Compliance/partialFrom`` or up to 150 %, orange under
/// that or over it, red when nothing of what was due is done, none when nothing is due yet.
public enum ComplianceColour: String, Sendable, Hashable, Codable, CaseIterable {
  case green, yellow, orange, red, none

  /// The colour of `percent` done of what was due (nil: nothing due).
  public init(percent: Int?) {
    guard let percent else {
      self = .none
      return
    }
    let ratio = Double(percent) / 100
    switch ratio {
    case ...0: self = .red
    case Compliance.doneFrom...1.2: self = .green
    case Compliance.partialFrom...Compliance.wellOverAbove: self = .yellow
    default: self = .orange
    }
  }
}
