import Foundation
import PlanEngine
import RunningCore
import TrainingDomain

/// Activity level from average daily steps (Tudor-Locke & Bassett 2004).
public enum ActivityLevel: String, Sendable, Hashable, Codable {
  case sedentary
  case lightlyActive = "lightly active"
  case moderatelyActive = "moderately active"
  case active
  case highlyActive = "highly active"

  /// The level of an average of `steps` a day: < 5,000; 5,000–7,499; 7,500–9,999; 10,000–12,499; ≥ 12,500.
  public init(averageSteps steps: Double) {
    switch steps {
    case ..<5000: self = .sedentary
    case ..<7500: self = .lightlyActive
    case ..<10000: self = .moderatelyActive
    case ..<12500: self = .active
    default: self = .highlyActive
    }
  }
}

/// `runmate health`: today, the last 7 days, the best day, the activity level, averages.
public struct HealthSummary: Sendable, Hashable, Codable {
  /// `runmate.health/1`.
  public var schema = "runmate.health/1"
  /// The day of the summary.
  public var today: CivilDate
  /// Today's totals, when there are any.
  public var todayTotals: HealthDay?
  /// The 7 days up to today (days without data count as zero steps).
  public var lastSevenDays: [HealthDay]
  /// The day with the most steps ever.
  public var bestDay: HealthDay?
  /// The best day is newer than the best known before the last import.
  public var newBest: Bool
  /// Average steps a day over the last 7 days.
  public var averageSteps7: Double
  /// Average steps a day over the last 28 days (the weekly average, per day).
  public var averageSteps28: Double
  /// Average steps a day over the last 30 days (the monthly average, per day).
  public var averageSteps30: Double
  /// From `averageSteps7`.
  public var activityLevel: ActivityLevel

  enum CodingKeys: String, CodingKey {
    case schema, today
    case todayTotals = "today_totals"
    case lastSevenDays = "last_7_days"
    case bestDay = "best_day"
    case newBest = "new_best"
    case averageSteps7 = "average_steps_7"
    case averageSteps28 = "average_steps_28"
    case averageSteps30 = "average_steps_30"
    case activityLevel = "activity_level"
  }
}

/// Summarises stored health days as of `today`; `previousBest` is the best step count known before the last import.
public func makeHealthSummary(days: [HealthDay], today: CivilDate, previousBest: Double) -> HealthSummary {
  let byDay = Dictionary(days.map { ($0.date, $0) }, uniquingKeysWith: { _, last in last })
  func window(_ length: Int) -> [HealthDay] {
    (0..<length).reversed().map { offset in
      let day = today.adding(days: -offset)
      return byDay[day] ?? HealthDay(date: day, steps: 0, distanceKm: 0, activeEnergyKcal: 0)
    }
  }
  func average(_ length: Int) -> Double { (window(length).map(\.steps).reduce(0, +) / Double(length)).rounded() }
  let best = days.max { ($0.steps, $1.date) < ($1.steps, $0.date) }
  let seven = average(7)
  return HealthSummary(
    today: today, todayTotals: byDay[today], lastSevenDays: window(7), bestDay: best,
    newBest: (best?.steps ?? 0) > previousBest && previousBest > 0, averageSteps7: seven,
    averageSteps28: average(28), averageSteps30: average(30),
    activityLevel: ActivityLevel(averageSteps: seven))
}
