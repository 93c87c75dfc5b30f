import Foundation
import PlanEngine
import RunningCore
import Training
import TrainingDomain

/// `runmate report --html`: one self-contained page (inline CSS and SVG, no scripts, no network).
///
/// Every input is a plain value: the plan (its workouts on their scheduled days), its progress, the logged runs, how
/// each day stands, and the units to show. Distances and paces are shown in `units`; every text from the runner
/// (plan name) is escaped.
struct HTMLReport {
  let name: String
  let plan: Plan
  let report: ProgressReport
  let runs: [Completion]
  /// How every day of the plan stands (the one status rule, shared with `today`, `week` and `progress`).
  let status: PlanStatus
  var units: DistanceUnit = .km
  /// Activities of other sports (cross-training): listed, never in the running figures.
  var crossTraining: [Completion] = []

  func render() -> String {
    let goal = plan.goal
    var body =
      "<h1>\(escape(name))</h1>\n<p class=\"sub\">\(escape(goal.level.rawValue.capitalized)) "
      + "\(escape(goal.distance.displayName)) · \(goal.weeks) weeks · \(goal.start) → race \(goal.raceDate) · "
      + "report of \(report.today)</p>\n" + summary()
    body += section("Weekly volume: planned and done", volumeChart())
    body += section("Long run", longRunChart())
    body += section("Easy pace (m:ss per \(units.rawValue), faster is higher)", paceChart())
    body += section("Plan calendar", calendar())
    if !crossTraining.isEmpty { body += section("Cross-training (not counted as running)", crossTrainingTable()) }
    return """
      <!DOCTYPE html>
      \(OutputKind.reportMarker)
      <html lang="en"><head><meta charset="utf-8"><title>\(escape(name)) · RunningMate</title>
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <style>
      body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:980px;color:#1d2430;
      padding:0 1rem}
      h1{margin:0 0 .2rem;font-size:1.6rem} .sub{color:#5b6575;margin:0 0 .6rem} h2{font-size:1.1rem;margin:1.8rem 0 .6rem}
      .stats{margin:0 0 1rem} .stats b{font-size:1.05rem}
      svg{width:100%;height:auto;background:#fafbfc;border:1px solid #e3e7ee;border-radius:8px}
      svg text{font-family:system-ui,-apple-system,"Segoe UI",sans-serif}
      table{border-collapse:collapse;width:100%;font-size:.8rem;table-layout:fixed}
      td,th{border:1px solid #e3e7ee;padding:.25rem;vertical-align:top}
      th{background:#f1f4f8;text-align:left} th.week{width:3.2rem} td small{color:#5b6575}
      .done{background:#e3f5e6} .partial{background:#fbf5d7} .missed{background:#fbe6e4} .extra{background:#fdf0e1} .paused{background:#eeeeee} .race{font-weight:bold}
      .today{outline:2px solid #1d2430;outline-offset:-2px} .ran{color:#2f7d4f} .x{color:#a65a12}
      .legend{font-size:.85rem;color:#3a4352} .legend span{display:inline-block;margin-right:1rem}
      .sw{display:inline-block;width:.8rem;height:.8rem;margin-right:.3rem;vertical-align:middle;
      border:1px solid #c7ced9}
      </style></head><body>
      \(body)</body></html>

      """
  }

  /// One row per cross-training activity: day, sport, distance, minutes.
  func crossTrainingTable() -> String {
    var html = "<table><tr><th>Day</th><th>Sport</th><th>Distance</th><th>Minutes</th></tr>"
    for activity in crossTraining {
      html +=
        "<tr><td>\(activity.date)</td><td>\(escape(activity.sport.name))</td><td>\(escape(distance(activity.distance)))</td>"
        + "<td>\(crossTrainingMinutes(activity.durationSeconds))</td></tr>"
    }
    return html + "</table>"
  }

  func section(_ title: String, _ content: String) -> String { "<h2>\(escape(title))</h2>\n\(content)\n" }

  // MARK: - Numbers in the runner's units

  /// `12.5 km` / `7.8 mi`.
  func distance(_ km: Double) -> String { units.format(km) }

  /// `12.5 km` / `7.8 mi`.
  func distance(_ distance: Distance) -> String { units.format(distance) }

  /// A distance in `units`, as a plain number (`7.8`).
  func number(_ km: Double) -> String { units.number(km) }

  /// `6:24/km` / `10:18/mi`.
  func pace(_ pace: Pace) -> String { units.format(pace) }

  /// The days of a week of the plan.
  func end(of week: Week) -> CivilDate { week.start.adding(days: 6) }

  /// Runs that count for no workout of this plan: unplanned, or matched to another plan.
  func isExtra(_ run: Completion) -> Bool { run.planID != plan.id || run.workoutID == nil }

  /// Kilometres of extra runs in each week of the plan.
  func extraKm() -> [Double] {
    plan.weeks.map { week in
      runs.filter { week.start <= $0.date && $0.date <= end(of: week) && isExtra($0) }.map(\.distanceKm)
        .filter(\.isFinite).reduce(0, +)
    }
  }

  /// The index of the week holding `report.today`, if the plan runs then.
  var currentWeek: Int? { plan.weeks.firstIndex { $0.start <= report.today && report.today <= end(of: $0) } }

  func summary() -> String {
    let past = report.weeks.filter { $0.start <= report.today }
    let planned = past.map(\.planned.kilometers).reduce(0, +)
    let done = past.map(\.done.kilometers).filter(\.isFinite).reduce(0, +)
    let sessions = past.map(\.doneSessions).reduce(0, +)
    let plannedSessions = past.map(\.plannedSessions).reduce(0, +)
    let extras = runs.filter { isExtra($0) && plan.goal.start <= $0.date && $0.date <= plan.goal.raceDate }.count
    let week =
      currentWeek.map { "week \(plan.weeks[$0].number) of \(plan.weeks.count)" }
      ?? (report.today < plan.goal.start ? "before week 1" : "after race day")
    return "<p class=\"stats\">Now: <b>\(week)</b> · done so far <b>\(distance(done))</b> of \(distance(planned)) "
      + "planned · \(sessions) of \(plannedSessions) planned sessions · \(extras) extra run\(extras == 1 ? "" : "s")</p>\n"
      + (loadSummary(report).map {
        "<p class=\"stats\">Load: \(escape($0)) (42- and 7-day weighted stress; information, not a rule)</p>\n"
      } ?? "")
  }

  // MARK: - Charts

  /// The weekly volume: planned bars against done bars (runs for the plan, with extra runs stacked on top).
  func volumeChart() -> String {
    let weeks = report.weeks
    let extra = extraKm()
    let frame = ChartFrame(height: 290, weeks: weeks.count)
    let values = weeks.flatMap { [$0.planned, $0.done] }.map { $0.value(in: units) }
    let axis = Axis.distance(upTo: values.filter(\.isFinite).max() ?? 0)
    let label = "Weekly volume in \(units.rawValue), planned and done, weeks 1 to \(weeks.count)"
    var svg = frame.open(title: "Weekly volume, \(units.rawValue) per week", label: label)
    svg += frame.currentWeekBand(currentWeek)
    svg += frame.yAxis(axis, title: "\(units.rawValue) per week") { oneDecimal($0) }
    let y = { (km: Double) in frame.y(km / units.kilometers, axis) }
    let bar = frame.band * 0.36
    for (index, week) in weeks.enumerated() {
      let center = frame.center(index)
      let doneKm = week.done.kilometers
      let extraPart = index < extra.count ? min(extra[index], doneKm) : 0
      let forPlan = max(0, doneKm - extraPart)
      let range = "W\(week.number), \(week.start.shortLabel)"
      svg += frame.rect(
        x: center - bar - 1, top: y(week.planned.kilometers), bottom: frame.plotBottom, width: bar,
        fill: "#c9d3e3", title: "\(range): planned \(distance(week.planned.kilometers))")
      svg += frame.rect(
        x: center + 1, top: y(forPlan), bottom: frame.plotBottom, width: bar, fill: "#2f7d4f",
        title: "\(range): done for the plan \(distance(forPlan))")
      if extraPart > 0 {
        svg += frame.rect(
          x: center + 1, top: y(doneKm), bottom: y(forPlan), width: bar, fill: "#e08a2e",
          title: "\(range): extra runs \(distance(extraPart))")
      }
      if doneKm > 0 && frame.band >= 34 {
        svg += frame.text(
          x: center + 1 + bar / 2, y: max(frame.top + 9, y(doneKm) - 4), number(doneKm),
          size: 9, anchor: "middle", fill: "#1d2430")
      }
    }
    svg += frame.xAxis(plan.weeks) + "</svg>"
    return svg + legend([("#c9d3e3", "planned"), ("#2f7d4f", "done for the plan"), ("#e08a2e", "extra runs")])
      + "</p>"
  }

  /// The long run: the plan's longest run of each week (dashed) against the longest run done.
  func longRunChart() -> String {
    let planned = plan.weeks.map { week in
      week.workouts.filter { $0.kind == .long || $0.kind == .race }.map(\.distanceKm).max() ?? 0
    }
    let done = report.weeks.map(\.longestRun.kilometers)
    let frame = ChartFrame(height: 240, weeks: max(planned.count, done.count))
    let axis = Axis.distance(upTo: (planned + done).map { $0 / units.kilometers }.filter(\.isFinite).max() ?? 0)
    var svg = frame.open(
      title: "Long run, \(units.rawValue)",
      label: "Long run in \(units.rawValue): the plan's longest run each week and the longest run done")
    svg += frame.currentWeekBand(currentWeek)
    svg += frame.yAxis(axis, title: units.rawValue) { oneDecimal($0) }
    let points = planned.enumerated().map { (index: $0.offset, value: $0.element / units.kilometers) }
    svg += frame.line(points, axis: axis, color: "#8fa3c4", dashed: true, labels: false) { value, index in
      "W\(index + 1): planned longest run \(oneDecimal(value)) \(units.rawValue)"
    }
    let actual = done.enumerated().filter { $0.element > 0 && $0.element.isFinite }
      .map { (index: $0.offset, value: $0.element / units.kilometers) }
    svg += frame.line(actual, axis: axis, color: "#2f7d4f", dashed: false, labels: true) { value, index in
      "W\(index + 1): longest run \(oneDecimal(value)) \(units.rawValue)"
    }
    svg += frame.xAxis(plan.weeks) + "</svg>"
    return svg + legend([("#8fa3c4", "planned longest run"), ("#2f7d4f", "longest run done")]) + "</p>"
  }

  /// The average easy pace of each week, faster higher.
  func paceChart() -> String {
    let perUnit = report.weeks.enumerated().compactMap { index, week -> (index: Int, value: Double)? in
      guard let seconds = week.averageEasyPace?.seconds(per: units), seconds.isFinite, seconds > 0 else { return nil }
      return (index, seconds)
    }
    guard !perUnit.isEmpty else { return "<p>No easy runs logged yet.</p>" }
    let frame = ChartFrame(height: 240, weeks: report.weeks.count)
    let axis = Axis.pace(perUnit.map(\.value))
    let unit = "/\(units.rawValue)"
    var svg = frame.open(
      title: "Easy pace per week, m:ss per \(units.rawValue)",
      label: "Average easy pace per week in minutes and seconds per \(units.rawValue); "
        + "latest \(minutesSeconds(perUnit[perUnit.count - 1].value))\(unit)")
    svg += frame.currentWeekBand(currentWeek)
    svg += frame.yAxis(axis, title: "pace, min\(unit)") { minutesSeconds($0) }
    svg += frame.line(
      perUnit, axis: axis, color: "#2f7d4f", dashed: false, labels: true,
      format: { minutesSeconds($0) },
      tooltip: { value, index in "W\(index + 1): average easy pace \(minutesSeconds(value))\(unit)" })
    svg += frame.xAxis(plan.weeks) + "</svg>"
    return svg + legend([("#2f7d4f", "average easy pace (easy, recovery and long runs)")]) + "</p>"
  }

  /// A legend paragraph, left open so a caller can add to it.
  func legend(_ items: [(color: String, text: String)], classes: [(name: String, text: String)] = []) -> String {
    "<p class=\"legend\">"
      + items.map {
        "<span><i class=\"sw\" style=\"background:\($0.color)\"></i>\(escape($0.text))</span>"
      }.joined() + classes.map { "<span><i class=\"sw \($0.name)\"></i>\(escape($0.text))</span>" }.joined()
  }

  // MARK: - Calendar

  /// `Race: 10K 10 km`, `Long run 12 km`, `Long run 3:00 (about 24.7 km)`, `Tempo 7.5 km`: the workout in the report's units.
  func label(_ workout: Workout) -> String {
    switch workout.kind {
    case .race: "Race: \(plan.goal.distance.displayName) \(distance(workout.distance))"
    case .long:
      // A long run set by time: `Long run 3:00 (about 24.7 km)`.
      workout.timeTarget.map {
        "Long run \($0.clock)\($0.runWalkSuffix) (about \(distance(workout.distance)))"
      } ?? "Long run \(distance(workout.distance))"
    case .strides: "Easy \(distance(workout.distance)) + strides"
    case .crossTraining, .strength: "\(workout.kind.displayName) \(workout.durationMin) min"
    default: "\(workout.kind.displayName) \(distance(workout.distance))"
    }
  }

  /// The calendar cell's class for a day's status (`today` is added on its own).
  func dayClass(_ status: DayStatus) -> String {
    switch status {
    case .done: "done"
    case .partial: "partial"
    case .missed: "missed"
    case .extra: "extra"
    case .paused: "paused"
    case .today, .upcoming, .notLogged, .moved, .skipped, .rest: ""
    }
  }

  func calendar() -> String {
    let byDay = Dictionary(grouping: plan.workouts) { $0.date.dayNumber }
    let runsByDay = Dictionary(grouping: runs) { $0.date.dayNumber }
    var html =
      "<table><caption class=\"legend\" style=\"caption-side:bottom;text-align:left;padding-top:.4rem\">"
      + legend(
        [],
        classes: [
          ("done", "done"), ("partial", "partial (under 80 % of the plan)"), ("missed", "missed"),
          ("extra", "extra run only"),
          ("today", "today"),
        ]) + "<span><b>bold</b>: race day</span> · "
      + "<span class=\"ran\">✓ run for the plan</span> <span class=\"x\">+ extra run</span></p></caption>"
      + "<tr><th class=\"week\">Week</th>" + Weekday.allCases.map { "<th>\($0.shortName)</th>" }.joined() + "</tr>"
    for week in plan.weeks {
      html += "<tr><th>W\(week.number)<br><small>\(escape(week.phase.rawValue))</small></th>"
      for offset in 0..<7 {
        let day = week.start.adding(days: offset)
        let cells = byDay[day.dayNumber] ?? []
        let ran = runsByDay[day.dayNumber] ?? []
        var state = dayClass(status.status(on: day))
        if day == report.today { state += state.isEmpty ? "today" : " today" }
        var lines = cells.map { "<span class=\"\($0.kind == .race ? "race" : "")\">\(escape(label($0)))</span>" }
        lines += ran.map { run in
          let text = "\(distance(run.distance)) · \(pace(run.pace))"
          // The note, shortened, under the run (all of it on hover).
          let note =
            run.note.map { note in
              let short = note.count > 32 ? note.prefix(31) + "…" : Substring(note)
              return "<br><small class=\"note\" title=\"\(escape(note))\">“\(escape(String(short)))”</small>"
            } ?? ""
          return
            (isExtra(run)
            ? "<span class=\"x\">+ extra \(escape(text))</span>"
            : "<span class=\"ran\">✓ ran \(escape(text))</span>") + note
        }
        html +=
          "<td class=\"\(state)\"><small>\(day.day) \(day.shortLabel.split(separator: " ").last ?? "")</small>"
          + (lines.isEmpty ? "" : "<br>" + lines.joined(separator: "<br>")) + "</td>"
      }
      html += "</tr>"
    }
    return html + "</table>"
  }

  func escape(_ text: String) -> String { htmlEscape(text) }
}

/// Text safe inside HTML and SVG, in element content and in quoted attributes.
func htmlEscape(_ text: String) -> String {
  text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    .replacingOccurrences(of: "'", with: "&#39;")
}

/// `6:05` from seconds (rounded to a whole second); `--:--` when it is not a sensible duration.
func minutesSeconds(_ seconds: Double) -> String {
  guard seconds.isFinite, abs(seconds) < 1e9 else { return "--:--" }
  let whole = Int(seconds.rounded())
  let sign = whole < 0 ? "-" : ""
  let magnitude = abs(whole)
  let rest = magnitude % 60
  return "\(sign)\(magnitude / 60):\(rest < 10 ? "0" : "")\(rest)"
}

/// A value axis: its range and the ticks to label.
struct Axis {
  var low: Double
  var high: Double
  var ticks: [Double]
  /// Faster paces (fewer seconds) at the top.
  var inverted = false

  /// From 0 up to a round number above `top`, with 4 to 6 round ticks (`0, 5, 10, 15`).
  static func distance(upTo top: Double) -> Axis {
    let top = max(1, top)
    let raw = top / 5
    let magnitude = pow(10, (log10(raw)).rounded(.down))
    let step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
    return make(low: 0, high: (top / step).rounded(.up) * step, step: step)
  }

  /// Paces in seconds: round steps of 5 s to 10 min around the values, faster at the top.
  static func pace(_ values: [Double]) -> Axis {
    let low = values.min() ?? 0
    let high = values.max() ?? 0
    let raw = max(1, (high - low) / 4)
    let step = [5.0, 10, 15, 20, 30, 60, 120, 300, 600].first { $0 >= raw } ?? (raw / 600).rounded(.up) * 600
    var bottom = (low / step).rounded(.down) * step
    var top = (high / step).rounded(.up) * step
    if top - bottom < step * 2 {
      bottom -= step
      top += step
    }
    var axis = make(low: max(0, bottom), high: top, step: step)
    axis.inverted = true
    return axis
  }

  /// Ticks from `low` to `high` every `step`; at most 40 of them (absurd stored values cannot make a huge page).
  static func make(low: Double, high: Double, step: Double) -> Axis {
    guard low.isFinite, high.isFinite, step > 0, high > low, (high - low) / step <= 40 else {
      return Axis(
        low: low.isFinite ? low : 0, high: high.isFinite && high > low ? high : low + 1,
        ticks: [low.isFinite ? low : 0])
    }
    let count = Int(((high - low) / step).rounded())
    return Axis(low: low, high: high, ticks: (0...count).map { low + Double($0) * step })
  }
}

/// Where a chart draws: a plot area framed by a value axis on the left and the weeks of the plan below, one band
/// per week, so every chart puts a week at the same x.
struct ChartFrame {
  let width = 940.0
  var height: Double
  var weeks: Int
  let left = 62.0, right = 14.0, top = 14.0, bottom = 52.0

  var plotBottom: Double { height - bottom }
  var plotHeight: Double { height - bottom - top }
  var band: Double { (width - left - right) / Double(max(1, weeks)) }

  /// The middle of week `index`'s band.
  func center(_ index: Int) -> Double { left + (Double(index) + 0.5) * band }

  /// The y of `value` on `axis`, kept inside the plot.
  func y(_ value: Double, _ axis: Axis) -> Double {
    guard value.isFinite else { return axis.inverted ? top : plotBottom }
    let share = min(1, max(0, (value - axis.low) / (axis.high - axis.low)))
    return axis.inverted ? top + share * plotHeight : plotBottom - share * plotHeight
  }

  func open(title: String, label: String) -> String {
    "<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(htmlEscape(label))\">"
      + "<title>\(htmlEscape(title))</title>"
  }

  func text(
    x: Double, y: Double, _ content: String, size: Int = 10, anchor: String = "start",
    fill: String = "#5b6575", extra: String = ""
  ) -> String {
    "<text x=\"\(f(x))\" y=\"\(f(y))\" font-size=\"\(size)\" text-anchor=\"\(anchor)\" fill=\"\(fill)\"\(extra)>"
      + "\(htmlEscape(content))</text>"
  }

  func rect(x: Double, top: Double, bottom: Double, width: Double, fill: String, title: String) -> String {
    "<rect x=\"\(f(x))\" y=\"\(f(top))\" width=\"\(f(width))\" height=\"\(f(max(0, bottom - top)))\" "
      + "fill=\"\(fill)\"><title>\(htmlEscape(title))</title></rect>"
  }

  /// Gridlines, tick labels and the axis title (rotated, on the left).
  func yAxis(_ axis: Axis, title: String, format: (Double) -> String) -> String {
    var svg = ""
    for tick in axis.ticks {
      let y = y(tick, axis)
      svg +=
        "<line x1=\"\(f(left))\" x2=\"\(f(width - right))\" y1=\"\(f(y))\" y2=\"\(f(y))\" stroke=\"#e3e7ee\"/>"
        + "<line x1=\"\(f(left - 4))\" x2=\"\(f(left))\" y1=\"\(f(y))\" y2=\"\(f(y))\" stroke=\"#8a93a3\"/>"
        + text(x: left - 7, y: y + 3.5, format(tick), anchor: "end")
    }
    svg += "<line x1=\"\(f(left))\" x2=\"\(f(left))\" y1=\"\(f(top))\" y2=\"\(f(plotBottom))\" stroke=\"#8a93a3\"/>"
    let middle = top + plotHeight / 2
    return svg
      + text(
        x: 14, y: middle, title, size: 11, anchor: "middle", fill: "#3a4352",
        extra: " transform=\"rotate(-90 14 \(f(middle)))\"")
  }

  /// The baseline, a tick and a label for every week (`W3`), its first day below (thinned when narrow).
  func xAxis(_ weeks: [Week]) -> String {
    var svg =
      "<line x1=\"\(f(left))\" x2=\"\(f(width - right))\" y1=\"\(f(plotBottom))\" y2=\"\(f(plotBottom))\" "
      + "stroke=\"#8a93a3\"/>"
    let every = max(1, Int((44 / band).rounded(.up)))
    for (index, week) in weeks.enumerated() {
      let x = center(index)
      svg +=
        "<line x1=\"\(f(x))\" x2=\"\(f(x))\" y1=\"\(f(plotBottom))\" y2=\"\(f(plotBottom + 4))\" "
        + "stroke=\"#8a93a3\"/>"
      svg += text(
        x: x, y: plotBottom + 15, band >= 24 ? "W\(week.number)" : "\(week.number)",
        size: band >= 24 ? 10 : 8, anchor: "middle", fill: "#3a4352")
      if index % every == 0 {
        let date = week.start.shortLabel.split(separator: " ").dropFirst().joined(separator: " ")
        svg += text(x: x, y: plotBottom + 28, date, size: 9, anchor: "middle")
      }
    }
    return svg
      + text(
        x: left + (width - left - right) / 2, y: height - 6, "week of the plan (first day below)",
        size: 11, anchor: "middle", fill: "#3a4352")
  }

  /// A light band behind the current week, labelled.
  func currentWeekBand(_ index: Int?) -> String {
    guard let index else { return "" }
    let x = left + Double(index) * band
    return "<rect x=\"\(f(x))\" y=\"\(f(top))\" width=\"\(f(band))\" height=\"\(f(plotHeight))\" fill=\"#fff4c2\">"
      + "<title>this week</title></rect>" + text(x: x + band / 2, y: top - 3, "this week", size: 9, anchor: "middle")
  }

  /// A polyline through `points` (week index, value) with a dot and a tooltip per point, and the value above each
  /// dot when `labels` and the weeks are wide enough.
  func line(
    _ points: [(index: Int, value: Double)], axis: Axis, color: String, dashed: Bool, labels: Bool,
    format: (Double) -> String = { oneDecimal($0) }, tooltip: (Double, Int) -> String
  ) -> String {
    let shown = points.filter { $0.value.isFinite }
    guard !shown.isEmpty else { return "" }
    var svg =
      "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(dashed ? 2 : 2.5)\""
      + (dashed ? " stroke-dasharray=\"6 4\"" : "") + " points=\""
      + shown.map { "\(f(center($0.index))),\(f(y($0.value, axis)))" }.joined(separator: " ") + "\"/>"
    let heights = shown.map { y($0.value, axis) }
    for (position, point) in shown.enumerated() {
      let x = center(point.index)
      let y = heights[position]
      // The value goes above a dot that is a peak on screen, below one in a dip, so it does not sit on the line.
      let neighbours = [position - 1, position + 1].filter(heights.indices.contains).map { heights[$0] }
      let dip = !neighbours.isEmpty && y > neighbours.reduce(0, +) / Double(neighbours.count) + 1
      svg +=
        "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"\(dashed ? 2.5 : 3.5)\" fill=\"\(dashed ? "#fafbfc" : color)\" "
        + "stroke=\"\(color)\" stroke-width=\"1.5\"><title>\(htmlEscape(tooltip(point.value, point.index)))</title>"
        + "</circle>"
      if labels && band >= 34 {
        let labelY = dip && y + 16 < plotBottom ? y + 16 : max(top + 9, y - 8)
        svg += text(x: x, y: labelY, format(point.value), size: 9, anchor: "middle", fill: "#1d2430")
      }
    }
    return svg
  }

  func f(_ value: Double) -> String { oneDecimal(value) }
}
