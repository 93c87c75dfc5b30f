import Foundation
import Logbook
import PlanEngine
import TrainingProgress

/// `runmate report --html`: one self-contained page (inline CSS and SVG, no scripts, no network).
struct HTMLReport {
  let name: String
  let plan: Plan
  let report: ProgressReport
  let runs: [Completion]

  func render() -> String {
    let goal = plan.goal
    var body = "<h1>\(escape(name))</h1>\n<p class=\"sub\">\(escape(goal.level.rawValue.capitalized)) "
      + "\(escape(goal.distance.displayName)) · \(goal.weeks) weeks · \(goal.start) → race \(goal.raceDate) · "
      + "report of \(report.today)</p>\n"
    body += section("Weekly volume: planned and done", volumeChart())
    body += section("Long run", lineChart(planned: plan.weeks.map { week in
      week.workouts.filter { $0.kind == .long || $0.kind == .race }.map(\.distanceKm).max() ?? 0
    }, done: report.weeks.map(\.longestRunKm), unit: "km", labels: ("planned longest run", "longest run done")))
    body += section("Easy pace (min/km, lower is faster)", paceChart())
    body += section("Plan calendar", calendar())
    return """
      <!DOCTYPE html>
      \(OutputKind.reportMarker)
      <html lang="en"><head><meta charset="utf-8"><title>\(escape(name)) · RunningMate</title>
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <style>
      body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:980px;color:#1d2430;padding:0 1rem}
      h1{margin:0 0 .2rem;font-size:1.6rem} .sub{color:#5b6575;margin:0 0 1.5rem} h2{font-size:1.1rem;margin:1.8rem 0 .6rem}
      svg{width:100%;height:auto;background:#fafbfc;border:1px solid #e3e7ee;border-radius:8px}
      table{border-collapse:collapse;width:100%;font-size:.8rem} td,th{border:1px solid #e3e7ee;padding:.25rem;vertical-align:top}
      th{background:#f1f4f8;text-align:left} .done{background:#e3f5e6} .missed{background:#fbe6e4} .race{font-weight:bold}
      .legend span{display:inline-block;margin-right:1rem} .sw{display:inline-block;width:.8rem;height:.8rem;margin-right:.3rem;vertical-align:middle}
      </style></head><body>
      \(body)</body></html>

      """
  }

  func section(_ title: String, _ content: String) -> String { "<h2>\(escape(title))</h2>\n\(content)\n" }

  func volumeChart() -> String {
    let weeks = report.weeks
    // Values that are not finite (a run stored by hand) are left out of the scale: the chart stays drawable.
    let maxKm = max(1, weeks.map { max($0.plannedKm, $0.doneKm) }.filter(\.isFinite).max() ?? 1)
    let width = 940.0, height = 260.0, left = 40.0, bottom = 30.0
    let slot = (width - left - 10) / Double(max(1, weeks.count))
    var svg = "<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"weekly volume\">"
    for tick in stride(from: 0.0, through: maxKm, by: max(5, (maxKm / 5).rounded())) {
      let y = height - bottom - tick / maxKm * (height - bottom - 20)
      svg += "<line x1=\"\(left)\" x2=\"\(width - 10)\" y1=\"\(f(y))\" y2=\"\(f(y))\" stroke=\"#e3e7ee\"/>"
        + "<text x=\"\(left - 6)\" y=\"\(f(y + 4))\" font-size=\"10\" text-anchor=\"end\" fill=\"#5b6575\">"
        + "\(wholeNumber(tick))</text>"
    }
    for (index, week) in weeks.enumerated() {
      let x = left + Double(index) * slot
      let planned = week.plannedKm / maxKm * (height - bottom - 20)
      let done = week.doneKm / maxKm * (height - bottom - 20)
      svg += "<rect x=\"\(f(x + slot * 0.1))\" y=\"\(f(height - bottom - planned))\" width=\"\(f(slot * 0.38))\" "
        + "height=\"\(f(planned))\" fill=\"#c9d3e3\"><title>W\(week.number) planned \(week.plannedKm) km</title></rect>"
      svg += "<rect x=\"\(f(x + slot * 0.5))\" y=\"\(f(height - bottom - done))\" width=\"\(f(slot * 0.38))\" "
        + "height=\"\(f(done))\" fill=\"#2f7d4f\"><title>W\(week.number) done \(week.doneKm) km</title></rect>"
      svg += "<text x=\"\(f(x + slot / 2))\" y=\"\(f(height - 12))\" font-size=\"10\" text-anchor=\"middle\" "
        + "fill=\"#5b6575\">\(week.number)</text>"
    }
    svg += "</svg>"
    return svg + "<p class=\"legend\"><span><i class=\"sw\" style=\"background:#c9d3e3\"></i>planned</span>"
      + "<span><i class=\"sw\" style=\"background:#2f7d4f\"></i>done</span> (km per week)</p>"
  }

  /// A line chart: `planned` dashed (when given), `done` solid; zeros in `done` are weeks without data.
  func lineChart(planned: [Double]?, done: [Double], unit: String, labels: (String, String), fromZero: Bool = true)
    -> String {
    let all = ((planned ?? []) + done.filter { $0 > 0 }).filter(\.isFinite)
    let top = max(1, all.max() ?? 1)
    let bottomValue = fromZero ? 0 : max(0, (all.min() ?? 0) - 0.5)
    let span = max(0.5, top - bottomValue)
    let count = max(planned?.count ?? 0, done.count)
    let width = 940.0, height = 200.0, left = 40.0, bottom = 25.0
    let step = (width - left - 20) / Double(max(1, count - 1))
    func point(_ index: Int, _ value: Double) -> String {
      "\(f(left + Double(index) * step)),\(f(height - bottom - (value - bottomValue) / span * (height - bottom - 15)))"
    }
    var svg = "<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(escape(labels.1))\">"
    if let planned {
      svg += "<polyline fill=\"none\" stroke=\"#8fa3c4\" stroke-width=\"2\" stroke-dasharray=\"5 4\" points=\""
        + planned.enumerated().map { point($0.offset, $0.element) }.joined(separator: " ") + "\"/>"
    }
    let actual = done.enumerated().filter { $0.element > 0 }
    if !actual.isEmpty {
      svg += "<polyline fill=\"none\" stroke=\"#2f7d4f\" stroke-width=\"2.5\" points=\""
        + actual.map { point($0.offset, $0.element) }.joined(separator: " ") + "\"/>"
      for (index, value) in actual {
        let xy = point(index, value).split(separator: ",")
        svg += "<circle cx=\"\(xy[0])\" cy=\"\(xy[1])\" r=\"3\" fill=\"#2f7d4f\"><title>W\(index + 1): \(f(value)) \(unit)</title></circle>"
      }
    }
    svg += "<text x=\"\(left)\" y=\"12\" font-size=\"10\" fill=\"#5b6575\">\(f(bottomValue))–\(f(top)) \(unit)</text></svg>"
    var legend = "<p class=\"legend\">"
    if planned != nil { legend += "<span><i class=\"sw\" style=\"background:#8fa3c4\"></i>\(escape(labels.0))</span>" }
    return svg + legend + "<span><i class=\"sw\" style=\"background:#2f7d4f\"></i>\(escape(labels.1))</span></p>"
  }

  func paceChart() -> String {
    let paces = report.weeks.map { ($0.averageEasyPaceSecondsPerKm ?? 0) / 60 }
    guard paces.contains(where: { $0 > 0 }) else { return "<p>No easy runs logged yet.</p>" }
    return lineChart(planned: nil, done: paces, unit: "min/km", labels: ("", "average easy pace per week"),
                     fromZero: false)
  }

  func calendar() -> String {
    let matched = Set(runs.compactMap(\.workoutID))
    var html = "<table><tr><th>Week</th>" + Weekday.allCases.map { "<th>\($0.shortName)</th>" }.joined() + "</tr>"
    for week in plan.weeks {
      html += "<tr><th>\(week.number)<br>\(escape(week.phase.rawValue))</th>"
      for offset in 0..<7 {
        let day = week.start.adding(days: offset)
        let cells = week.workouts.filter { $0.date == day }
        let state = cells.contains { matched.contains($0.id) } ? "done"
          : cells.contains { $0.date < report.today } ? "missed" : ""
        let text = cells.map { "<span class=\"\($0.kind == .race ? "race" : "")\">\(escape($0.title))</span>" }
          .joined(separator: "<br>")
        html += "<td class=\"\(state)\"><small>\(day.day) \(day.shortLabel.split(separator: " ").last ?? "")</small>"
          + (text.isEmpty ? "" : "<br>\(text)") + "</td>"
      }
      html += "</tr>"
    }
    return html + "</table>"
  }

  func f(_ value: Double) -> String { oneDecimal(value) }

  func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
