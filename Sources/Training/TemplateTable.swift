import PlanEngine

/// What `templates list` shows: a row per race distance with rules of its own and level, the workouts defined, and
/// the template family of the distance that has none (10 miles trains like a 15k).
public struct TemplateTable: Sendable {
  /// One distance at one level.
  public struct Row: Sendable {
    /// The template family (`5k`, `half`).
    public let distance: String
    /// The level.
    public let level: Level
    /// The fewest weeks a plan may have, and the recommended length.
    public let minimumWeeks: Int
    /// The recommended plan length in weeks.
    public let recommendedWeeks: Int
    /// The first week's volume.
    public let startWeeklyKm: Double
    /// The peak week's volume.
    public let peakWeeklyKm: Double
    /// The peak long run (a single number when `lower == upper`).
    public let peakLongRunKm: ValueRange
    /// Runs a week.
    public let runsPerWeek: Int
  }

  /// The rows, by distance (shortest first) then level.
  public let rows: [Row]
  /// The workouts' names, sorted.
  public let workouts: [String]
  /// The template family 10 miles uses.
  public let tenMilesUses: String
}

/// The `templates list` use case: `rules` as a table (``TemplateTable``).
public func templateRows(_ rules: PlanRules) -> TemplateTable {
  let families = RaceDistance.allCases.filter { $0.templateName == $0.rawValue }.map(\.rawValue)
  var rows: [TemplateTable.Row] = []
  for name in families {
    guard let distance = rules.distances[name] else { continue }
    for level in Level.allCases {
      let rules = distance.levels[level]
      let minimum = distance.minimumWeeks[level]
      rows.append(
        TemplateTable.Row(
          distance: name, level: level, minimumWeeks: minimum.absolute, recommendedWeeks: minimum.recommended,
          startWeeklyKm: rules.startWeeklyKm, peakWeeklyKm: rules.peakWeeklyKm, peakLongRunKm: rules.peakLongRunKm,
          runsPerWeek: rules.runsPerWeek))
    }
  }
  return TemplateTable(
    rows: rows, workouts: rules.workouts.keys.sorted(), tenMilesUses: RaceDistance.tenMiles.templateName)
}
