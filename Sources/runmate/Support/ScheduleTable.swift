import Foundation
import PlanEngine
import RunningCore
import Training

/// The schedule as a table: each week's workouts on their days, with times, then the notes.
struct ScheduleTable {
  let schedule: ScheduleView
  let units: DistanceUnit

  func render() -> String {
    var lines = PlanTable(plan: schedule.plan, units: units).header()
    lines.append("Time zone \(schedule.timeZoneID)")
    lines.append("")
    for week in schedule.weeks {
      let phase = week.week.cutback ? "\(week.week.phase.rawValue)↓" : week.week.phase.rawValue
      lines.append("Week \(week.week.number) · \(phase) · \(units.format(week.planned))")
      for row in week.rows {
        let moved = row.plannedDate.map { " (plan: \($0.shortLabel))" } ?? ""
        lines.append(
          "  \(pad(row.workout.date.shortLabel, 11)) \(pad(row.time ?? "all day", 7)) "
            + "\(row.workout.title(in: units))\(moved)")
      }
    }
    let notes = schedule.notes
    if !notes.isEmpty {
      lines.append("")
      lines.append("Notes:")
      for note in notes { lines.append("  \(note.kind): \(units.relabel(note.text))") }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

/// The scheduler's notes for standard error after `plan --save` or `export`: each drop, conflict and move for busy
/// time or a blackout, and the moves onto the run days counted in one line (`runmate schedule` lists each); workout
/// titles in `units`.
func noteLines(_ notes: [ScheduleView.Note], runDays: [Weekday]?, units: DistanceUnit) -> [String] {
  var lines = notes.filter { !$0.toRunDay }.map { "\($0.kind): \(terminalSafe(units.relabel($0.text)))" }
  let toRunDays = notes.filter(\.toRunDay).count
  if toRunDays > 0, let runDays {
    let workouts = toRunDays == 1 ? "1 workout" : "\(toRunDays) workouts"
    lines.insert(
      "moved: \(workouts) from the plan's days onto your run days (\(SettingValues.dayList(runDays))); "
        + "`runmate schedule` lists each", at: 0)
  }
  return lines
}
