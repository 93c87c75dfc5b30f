import Foundation
import PlanEngine
import RunningCore
import TrainingDomain

// The coaches' comments `runmate pull` keeps in the runner's own logbook, and the one rule of which workout each is
// on: `today`, `week`, `pull` and the calendar (export, feed, CalDAV sync) all go through it.

/// Which workout each comment is on, by ``DatedWorkout/workoutID``: the workouts scheduled on the comment's day, else
/// the workouts the plan had on that day before the runner's calendar moved them. A comment on neither (a rest day)
/// is on no workout; workouts sharing a day share its comments. Each list keeps the order of `comments`.
public func commentsByWorkout(_ comments: [CoachComment], on workouts: [DatedWorkout]) -> [String: [CoachComment]] {
  guard !comments.isEmpty else { return [:] }
  let scheduled = Dictionary(grouping: workouts, by: \.date)
  let planned = Dictionary(grouping: workouts, by: \.plannedDate)
  var result: [String: [CoachComment]] = [:]
  for comment in comments {
    for workout in scheduled[comment.date] ?? planned[comment.date] ?? [] {
      result[workout.workoutID, default: []].append(comment)
    }
  }
  return result
}

/// The comments on no workout in ``commentsByWorkout(_:on:)``: those on a rest day (neither a workout scheduled on it
/// nor one the runner's calendar moved from it), in the order of `comments`.
public func restDayComments(_ comments: [CoachComment], on workouts: [DatedWorkout]) -> [CoachComment] {
  guard !comments.isEmpty else { return [] }
  let days = Set(workouts.map(\.date)).union(workouts.map(\.plannedDate))
  return comments.filter { !days.contains($0.date) }
}

/// The words a comment is shown with under its workout and in its calendar event: `Coach ana: keep it easy`.
public func coachLine(_ comment: CoachComment) -> String {
  "Coach \(comment.author): \(comment.text)"
}

extension TrainingStore {
  /// The coaches' comments kept for `plan` (``TrainingStore/pulledComments(planID:from:through:)``) on its days
  /// and a week either side (where the runner's calendar may have moved a workout), by date.
  public func coachComments(of plan: Plan) throws(LogbookError) -> [CoachComment] {
    try pulledComments(
      planID: plan.id, from: plan.goal.start.adding(days: -7), through: plan.goal.raceDate.adding(days: 7))
  }
}
